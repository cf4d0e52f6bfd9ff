/**
 * The extension's bundle carries no dump engine: the parsers (iptables, IPVS, netstate, nft) and what reads dumps
 * with them are in dist/dump-engine.js, which the extension loads only when a Diagnose or a capture runs. Built
 * with the project's own build script (its defines decide it), read through esbuild's metafile.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { repoRoot } from '../../helpers/corpus';

const ROOT = repoRoot(__dirname);
/**
 * What only the dump engine is made of: a file matching one of these must not land in extension.js. The Packet
 * Trace view folds a trace's steps with iptables/trace/fold.ts, which reads no dump.
 */
const ENGINE = [
  /^src\/core\/(ipvs|netstate|nft)\//,
  /^src\/core\/iptables\/(?!trace\/fold\.ts$)/,
  /^src\/core\/(analyze|detect|session)\.ts$/,
  /^src\/core\/diagnose\/(verdict|nodeDumps|classify|podnet)\.ts$/,
];

interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

let outDir = '';
const inputsOf = (bundle: string): string[] => {
  const meta = JSON.parse(readFileSync(path.join(outDir, `${bundle}.meta.json`), 'utf8')) as Metafile;
  const out = Object.entries(meta.outputs).find(([file]) => file.endsWith(bundle));
  assert.ok(out, `no output ${bundle} in its metafile`);
  return Object.entries(out[1].inputs)
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([file]) => file);
};

before(() => {
  outDir = mkdtempSync(path.join(tmpdir(), 'kpp-bundles-'));
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--outdir', outDir, '--metafile'], {
    cwd: ROOT,
    stdio: 'pipe',
  });
});
after(() => rmSync(outDir, { recursive: true, force: true }));

test('extension.js carries none of the dump engine', () => {
  const inputs = inputsOf('extension.js');
  assert.ok(inputs.includes('src/cluster/dumpEngine.ts'), 'the bundle was not read (no loader of the engine in it)');
  const engine = inputs.filter((f) => ENGINE.some((p) => p.test(f)));
  assert.deepEqual(engine, [], `engine code in extension.js: ${engine.join(', ')}`);
});

test('dump-engine.js holds the parsers and answers what the cluster flows ask of it', () => {
  assert.ok(inputsOf('dump-engine.js').includes('src/core/iptables/parser.ts'));
  // The bundle the extension requires at its first Diagnose exports what src/cluster/dumpEngine.ts promises.
  const engine = require(path.join(outDir, 'dump-engine.js')) as Record<string, unknown>;
  for (const name of ['classifyCheck', 'nodeModeOf', 'ruleCounters', 'decideVerdict'])
    assert.equal(typeof engine[name], 'function', name);
  assert.match(readFileSync(path.join(outDir, 'extension.js'), 'utf8'), /"dump-engine\.js"/);
});
