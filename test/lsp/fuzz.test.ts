import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CORPUS_MISSING, corpusDir } from '../helpers/corpus';
import { fuzzSources } from '../helpers/mutate';
import { startSession } from './client';
import { emptyStats, recordInvalid, runLspFuzz } from './fuzz';

// Fixed seed and a fixed number of operations (about half a minute on the project's VM). The per-request limit
// of the client (60 s) catches hangs; nothing here measures speed (`npm run bench` runs the fuzzer longer).
test('fuzz: mutated dumps, random edits, every request kind; every answer valid, no hang, no crash', async (t) => {
  if (!corpusDir()) t.diagnostic(`${CORPUS_MISSING}: fuzzing the samples only`);
  const stats = emptyStats();
  const s = await startSession({ onInvalid: (method, problems) => recordInvalid(stats, method, problems) });
  try {
    await runLspFuzz(s, fuzzSources(), { seed: 29, documents: 24, editsPerDocument: 6 }, stats);
  } finally {
    await s.close();
  }
  t.diagnostic(`${stats.operations} requests over ${stats.documents} documents and ${stats.edits} edits; error responses ${JSON.stringify(stats.errors)}`);
  assert.deepEqual(stats.failures, {}, stats.examples.join('\n'));
  assert.ok(stats.operations > 1000, `${stats.operations} requests`);
});
