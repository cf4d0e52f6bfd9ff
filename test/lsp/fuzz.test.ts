import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { CORPUS_MISSING, corpusDir } from '../helpers/corpus';
import { fuzzSources, type FuzzSource } from '../helpers/mutate';
import { startSession } from './client';
import { emptyStats, recordInvalid, runLspFuzz } from './fuzz';

// Fixed seeds and fixed numbers of operations (half a minute together on the project's VM). The client's
// per-request limit (60 s, far above any normal answer) catches hangs; nothing here measures speed: `npm run
// bench` runs the same fuzzer longer and prints latencies.
async function fuzz(t: TestContext, sources: FuzzSource[], seed: number, documents: number): Promise<void> {
  const stats = emptyStats();
  const s = await startSession({ onInvalid: (method, problems) => recordInvalid(stats, method, problems) });
  try {
    await runLspFuzz(s, sources, { seed, documents, editsPerDocument: 6 }, stats);
  } finally {
    await s.close();
  }
  t.diagnostic(
    `${stats.operations} requests over ${stats.documents} documents and ${stats.edits} edits; error answers ${JSON.stringify(stats.errors)}`,
  );
  assert.deepEqual(stats.failures, {}, stats.examples.join('\n'));
  assert.ok(stats.operations > documents * 6 * 10, `${stats.operations} requests`);
}

test('fuzz the samples: mutated dumps, random edits, every request kind; every answer valid, no hang, no crash', (t) =>
  fuzz(t, fuzzSources('samples'), 29, 10));

test('fuzz the shared corpus of real dumps the same way', (t) => {
  if (!corpusDir()) return t.skip(CORPUS_MISSING);
  return fuzz(t, fuzzSources('corpus'), 2029, 16);
});
