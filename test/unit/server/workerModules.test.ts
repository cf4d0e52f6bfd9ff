/**
 * The analysis worker loads the engines and its features, not the LSP libraries: those took about 8 MB of every
 * worker's memory for a few constants (server/lspConstants.ts). Checked in a fresh process, whose modules are
 * only those the worker's module requires.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { repoRoot } from '../../helpers/corpus';

const loadedPackages = (module: string): string[] =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `require(${JSON.stringify(module)}); console.log(JSON.stringify(Object.keys(require.cache)` +
          `.filter((f) => f.includes('node_modules/vscode-')).map((f) => f.split('node_modules/')[1])))`,
      ],
      { cwd: repoRoot(__dirname), encoding: 'utf8' },
    ),
  ) as string[];

test('the worker loads no LSP library; the server does', () => {
  assert.deepEqual(loadedPackages('./src/server/worker'), []);
  assert.ok(loadedPackages('./src/server/languageServer').some((f) => f.startsWith('vscode-languageserver/')));
});
