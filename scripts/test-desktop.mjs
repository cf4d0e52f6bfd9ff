#!/usr/bin/env node
// `npm run test:desktop`: the extension-host suite (test/e2e/index.ts) in desktop VS Code through
// @vscode/test-electron, where desktop VS Code can be downloaded (a contributor's laptop). Where it cannot (no route
// to update.code.visualstudio.com, as on CI here) or there is no display and no xvfb-run, it says why and exits 0:
// the same suite runs in code-server with `npm test -- e2e`. Test failures, once VS Code runs, exit 1.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (text) => console.log(`[test:desktop] ${text}`);
const skip = (why) => {
  say(`skipped: ${why}`);
  say('the same extension-host suite runs in a real VS Code (code-server) with: npm test -- e2e');
  process.exit(0);
};

/** Whether the update service that @vscode/test-electron downloads from answers (5 s). */
function reachable(url) {
  return new Promise((resolve) => {
    const request = https.get(url, { timeout: 5_000 }, (response) => {
      response.resume();
      resolve(response.statusCode && response.statusCode < 500 ? undefined : `HTTP ${response.statusCode}`);
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.on('error', (error) => resolve(error.code ?? error.message));
  });
}

const cached =
  fs.existsSync(path.join(root, '.vscode-test')) &&
  fs.readdirSync(path.join(root, '.vscode-test')).some((n) => n.startsWith('vscode-'));
if (!cached) {
  const problem = await reachable('https://update.code.visualstudio.com/api/releases/stable');
  if (problem) skip(`desktop VS Code cannot be downloaded here (update.code.visualstudio.com: ${problem})`);
}
let wrap = [];
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  if (spawnSync('sh', ['-c', 'command -v xvfb-run']).status !== 0)
    skip('no display and no xvfb-run (apt-get install xvfb)');
  wrap = ['xvfb-run', '-a'];
}
for (const [label, args] of [
  ['build', [process.execPath, 'scripts/build.mjs']],
  ['compile', [process.execPath, 'node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']],
]) {
  const r = spawnSync(args[0], args.slice(1), { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    say(`${label} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}
const command = [...wrap, process.execPath, path.join(root, 'out', 'test', 'e2e', 'runDesktop.js')];
const r = spawnSync(command[0], command.slice(1), { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
