/**
 * How to start one of the lab's own TypeScript programs (the pod server, the lab daemon) as a separate Node
 * process: the compiled `.js` when running from `out/`, or, when running from source, the `.ts` through tsx's
 * CommonJS hook (`nodeScriptArgv`) or a one-file esbuild bundle (`bundledScriptArgv`, for programs started many
 * times, where tsx's start-up cost would add seconds to every lab).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const fromSource = __filename.endsWith('.ts');

/** argv for running `<dir>/<base>.(ts|js)`, where `dir` is the calling module's `__dirname`. */
export function nodeScriptArgv(dir: string, base: string): string[] {
  const file = path.join(dir, `${base}.${fromSource ? 'ts' : 'js'}`);
  return fromSource ? [process.execPath, '--require', require.resolve('tsx/cjs'), file] : [process.execPath, file];
}

const bundles = new Map<string, string>();

/** argv for running `<dir>/<base>` as plain JavaScript; from source it is bundled once into `cacheDir`. */
export function bundledScriptArgv(dir: string, base: string, cacheDir: string): string[] {
  if (!fromSource) return [process.execPath, path.join(dir, `${base}.js`)];
  const entry = path.join(dir, `${base}.ts`);
  let out = bundles.get(entry);
  if (!out || !fs.existsSync(out)) {
    out = path.join(cacheDir, `${base}.js`);
    // Loaded only when running from source: esbuild is a devDependency, the compiled tests do not need it.
    const esbuild = require('esbuild') as typeof import('esbuild');
    esbuild.buildSync({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: out,
      logLevel: 'silent',
    });
    bundles.set(entry, out);
  }
  return [process.execPath, out];
}
