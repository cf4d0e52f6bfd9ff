import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CORPUS_MISSING, corpusDir, repoRoot } from '../helpers/corpus';
import { fuzzSources, mutate, Rng, type FuzzSource } from '../helpers/mutate';

const cli = join(repoRoot(), 'dist', 'cli.js');
/** Far above any normal run: a run this long is a hang, not a slow answer. */
const HANG_MS = 60_000;

function run(args: string[]): Promise<{ code: number | null; signal: string | null; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [cli, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LANG: 'C.UTF-8' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, ms: Date.now() - started });
    });
  });
}

// Fixed seeds: the same fuzzed inputs every run. Every command must end with its documented exit code (0, 1 or 2)
// and without a stack trace, on every input.
async function fuzz(sources: FuzzSource[], seed: number, inputs: number): Promise<void> {
  const rng = new Rng(seed);
  const dir = mkdtempSync(join(tmpdir(), 'kpp-fuzz-'));
  const jobs: string[][] = [];
  for (let i = 0; i < inputs; i++) {
    const source = sources[rng.int(sources.length)];
    const file = join(dir, `${i}.txt`);
    const text = mutate(source.text, rng, 1 + rng.int(5));
    writeFileSync(file, text);
    const lines = text.split('\n').length;
    jobs.push(
      ['parse', file, '--json'],
      ['lint', file, '--json'],
      [
        'explain',
        file,
        '--line',
        String(1 + rng.int(lines)),
        ...(rng.next() < 0.5 ? ['--column', String(1 + rng.int(40))] : []),
      ],
    );
    jobs.push([
      'trace',
      file,
      '--src',
      rng.pick(['10.244.1.5', 'fd00::5']),
      '--dst',
      rng.pick(['172.16.0.1:443', '10.96.0.10:53', '[fd00::1]:80']),
    ]);
  }
  const failures: string[] = [];
  // Two at a time: the machine is shared.
  const queue = [...jobs];
  await Promise.all(
    [0, 1].map(async () => {
      for (let args = queue.shift(); args; args = queue.shift()) {
        const r = await run(args);
        const what = `kpp ${args.join(' ')}`;
        if (r.signal) failures.push(`${what}: killed after ${HANG_MS / 1000} s (hang)`);
        else if (r.code !== 0 && r.code !== 1 && r.code !== 2)
          failures.push(`${what}: exit ${r.code}: ${r.stderr.slice(0, 500)}`);
        else if (/\n\s+at .+:\d+:\d+\)?\n/.test(r.stderr))
          failures.push(`${what}: a stack trace on stderr: ${r.stderr.slice(0, 500)}`);
      }
    }),
  );
  assert.deepEqual(failures, []);
}

test('fuzz: kpp parse, trace, explain and lint finish on mutated samples', () => fuzz(fuzzSources('samples'), 2029, 6));

test('fuzz: kpp parse, trace, explain and lint finish on mutated dumps of the shared corpus', (t) => {
  if (!corpusDir()) return t.skip(CORPUS_MISSING);
  return fuzz(fuzzSources('corpus'), 2030, 8);
});
