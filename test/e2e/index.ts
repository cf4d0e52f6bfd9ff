// The extension-host test entry: VS Code loads this file (extensionTestsPath) and awaits run().
// The same entry serves code-server (scripts/e2e/run.mjs) and desktop VS Code (runDesktop.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { log } from './support/log';

const SUITE_DIR = path.join(__dirname, 'suite');
// Generous: a busy 2-core CI machine runs the browser, code-server and the extension host at once.
const TEST_TIMEOUT_MS = 60_000;

export function run(): Promise<void> {
  // Plain text: the output lands in a browser console and CI logs, where colour codes are noise.
  Mocha.reporters.Base.consoleLog = log;
  const mocha = new Mocha({ ui: 'tdd', color: false, reporter: 'spec', timeout: TEST_TIMEOUT_MS });
  const grep = process.env.KPP_E2E_GREP;
  if (grep) mocha.grep(grep);

  const files = fs
    .readdirSync(SUITE_DIR)
    .filter((name) => name.endsWith('.test.js'))
    .sort();
  if (files.length === 0)
    return Promise.reject(new Error(`no *.test.js files in ${SUITE_DIR}: were the tests compiled?`));
  for (const name of files) mocha.addFile(path.join(SUITE_DIR, name));

  return new Promise((resolve, reject) => {
    let passed = 0;
    const runner = mocha.run((failures) => {
      log(`${passed} passed, ${failures} failed`);
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
      else if (passed === 0) reject(new Error('no extension-host test ran'));
      else resolve();
    });
    runner.on('pass', () => passed++);
  });
}
