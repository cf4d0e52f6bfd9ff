// `npm run bench`: builds the language server (dist/server.js), bundles the benchmark (test/bench/main.ts) with
// esbuild, and runs it. Arguments are passed on (`npm run bench -- --services 2000 --no-peer`); `--no-build`
// skips rebuilding the server. Benchmarks measure; they do not fail on a missed target (see test/bench/main.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const skipBuild = args.includes('--no-build');
const passOn = args.filter((a) => a !== '--no-build');

function run(cmd, argv) {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`bench: ${cmd} ${argv.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

// A fresh clone has no node_modules: install exactly what the lock file says first.
if (!existsSync(join(root, 'node_modules', 'esbuild'))) run('npm', ['ci', '--no-audit', '--no-fund']);
if (!skipBuild || !existsSync(join(root, 'dist', 'server.js'))) run(process.execPath, ['scripts/build.mjs']);

const { build } = await import('esbuild');
const outDir = join(root, '.test-results', 'bench');
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, 'bench.cjs');
await build({
  absWorkingDir: root,
  entryPoints: ['test/bench/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});

const r = spawnSync(process.execPath, [outfile, ...passOn], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
