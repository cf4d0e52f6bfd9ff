// Runs the same extension-host suite (index.ts) in desktop VS Code through @vscode/test-electron, for
// contributors whose machine can download VS Code. CI uses scripts/e2e/run.mjs (code-server) instead.
// Run it with `npm run test:desktop` (scripts/test-desktop.mjs): that skips with a reason, exit 0, where VS Code
// cannot be downloaded or there is no display and no xvfb-run, builds, and starts this file.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The part of @vscode/test-electron this script uses; it is an optional dependency. */
interface TestElectron {
  runTests(options: {
    extensionDevelopmentPath: string;
    extensionTestsPath: string;
    launchArgs?: string[];
    extensionTestsEnv?: Record<string, string | undefined>;
  }): Promise<number>;
}

function loadTestElectron(): TestElectron | undefined {
  try {
    return require('@vscode/test-electron') as TestElectron;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const testElectron = loadTestElectron();
  if (!testElectron) {
    console.error(
      'runDesktop: @vscode/test-electron is not installed (it is a devDependency: run `npm ci`), or run the same suite ' +
        'in code-server: ' +
        '`node scripts/e2e/setup.mjs && node scripts/e2e/run.mjs`.',
    );
    return 2;
  }
  const repoRoot = path.resolve(__dirname, '../../..');
  const fixtures = path.join(repoRoot, 'test', 'e2e', 'fixtures', 'workspace');
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-e2e-desktop-'));
  const workspace = path.join(temp, 'workspace');
  fs.cpSync(fixtures, workspace, { recursive: true });
  try {
    return await testElectron.runTests({
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: path.join(__dirname, 'index.js'),
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--user-data-dir',
        path.join(temp, 'user-data'),
      ],
    });
  } catch (error) {
    console.error(`runDesktop: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code));
