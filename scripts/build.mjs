// Bundles the entry points with esbuild. CommonJS output: VS Code's extension host loads CommonJS, and
// @kubernetes/client-node (ESM-only) becomes a CommonJS bundle of its own (dist/client-node.js).
import { build } from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
// `--outdir DIR`: write the bundles there instead of dist/ (scripts/package.mjs builds the VSIX's into a staging folder).
const outArg = process.argv.indexOf('--outdir');
const outDir = outArg > 0 ? process.argv[outArg + 1] : undefined;
// `--metafile`: also write what each bundle holds and why (esbuild's metafile) beside it, as BUNDLE.meta.json.
const withMetafile = process.argv.includes('--metafile');
// client-node (its KubeConfig, scripts/client-node-entry.mjs) is loaded by src/cluster/clientNode.ts on the first
// cluster command: bundled into the CLI it tripled the start-up time of every `kpp` command, cluster or not.
const CLIENT_NODE = 'client-node.js';
// The dump engine's part of the cluster flows (src/core/diagnose/engine.ts), which the extension loads only when a
// Diagnose or a capture runs (src/cluster/dumpEngine.ts): activating the extension then loads no parser.
const DUMP_ENGINE = 'dump-engine.js';
const lazyClientNode = {
  external: ['@kubernetes/client-node'],
  define: { KPP_CLIENT_NODE_BUNDLE: JSON.stringify(CLIENT_NODE) },
};
const CLI_CLUSTER = 'cli-cluster.js';
const entries = [
  {
    in: 'src/extension/main.ts',
    out: 'dist/extension.js',
    external: ['vscode', ...lazyClientNode.external],
    define: { ...lazyClientNode.define, KPP_DUMP_ENGINE_BUNDLE: JSON.stringify(DUMP_ENGINE) },
  },
  { in: 'src/core/diagnose/engine.ts', out: `dist/${DUMP_ENGINE}`, external: [] },
  { in: 'src/server/main.ts', out: 'dist/server.js', external: [], asciiOnly: true },
  // The CLI: the dump commands in dist/cli.js, the cluster commands in a bundle it reads only when one runs (a dump
  // command's start-up is mostly compiling its bundle). Neither uses import.meta.url, so neither gets its banner.
  {
    in: 'src/cli/main.ts',
    out: 'dist/cli.js',
    external: lazyClientNode.external,
    define: { ...lazyClientNode.define, KPP_CLI_CLUSTER_BUNDLE: JSON.stringify(CLI_CLUSTER) },
    importMetaUrl: false,
    asciiOnly: true,
  },
  {
    in: 'src/cli/clusterCommands.ts',
    out: `dist/${CLI_CLUSTER}`,
    external: lazyClientNode.external,
    define: lazyClientNode.define,
    importMetaUrl: false,
  },
  { in: 'scripts/client-node-entry.mjs', out: `dist/${CLIENT_NODE}`, external: [] },
];
const started = Date.now();
const engineDefines = { KPP_CLEAN_RULES_SOURCE: JSON.stringify(await cleanRulesSource()) };
for (const e of entries) {
  if (!existsSync(join(root, e.in))) {
    console.log(`build: skipping ${e.in} (not present yet)`);
    continue;
  }
  const outfile = outDir ? join(outDir, e.out.replace(/^dist\//, '')) : e.out;
  const result = await build({
    absWorkingDir: root,
    entryPoints: [e.in],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: e.external,
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    metafile: withMetafile,
    // client-node's ESM uses import.meta.url in a few places; give it a CommonJS equivalent.
    ...(e.importMetaUrl === false
      ? { define: { ...engineDefines, ...e.define } }
      : {
          define: { 'import.meta.url': 'importMetaUrl', ...engineDefines, ...e.define },
          banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
        }),
  });
  if (withMetafile) writeFileSync(`${resolve(root, outfile)}.meta.json`, JSON.stringify(result.metafile));
  if (e.asciiOnly) refuseNonAscii(resolve(root, outfile));
}
console.log(`build: done in ${Date.now() - started} ms`);

/**
 * The trace slice's clean-line pattern (src/core/iptables/traceSlice.ts), made here once from the option tables: made
 * by each process, it was a seventh of the slice's work on a small dump. The module bundled on its own and run.
 */
async function cleanRulesSource() {
  const { outputFiles } = await build({
    absWorkingDir: root,
    entryPoints: ['src/core/iptables/traceSlice.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', outputFiles[0].text)(
    module,
    module.exports,
    createRequire(import.meta.url),
  );
  return module.exports.cleanRulesSource();
}

/**
 * esbuild escapes non-ASCII in strings but not in regex literals, and one such character makes V8 hold the whole
 * bundle as a two-byte string on every start of the CLI and the server: write it as \uXXXX in the source.
 */
function refuseNonAscii(file) {
  const text = readFileSync(file, 'utf8');
  const at = text.search(/[^\x00-\x7f]/);
  if (at < 0) return;
  const line = text.slice(0, at).split('\n').length;
  const context = text.slice(Math.max(0, at - 60), at + 20).replace(/\s+/g, ' ');
  console.error(
    `build: ${file}:${line} has a non-ASCII character (write it as a \\uXXXX escape in the source): ${context}`,
  );
  process.exit(1);
}
