/**
 * Every request that can run long on a big dump looks at its cancel mark (src/server/cancellation.ts) in its own
 * loops and stops at its first look after the mark: each feature's handler runs here on a real analysis, without
 * the worker's and the fitting's own looks, and its request is marked in the middle of its work (at half the looks
 * it makes in full). Unmarked, or with another request's mark, it answers as before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText } from '../../../src/core/analyze';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';
import {
  CancelFlags,
  observeLooks,
  RequestCancelledError,
  runningRequest,
  throwIfCancelled,
  useCancelFlags,
} from '../../../src/server/cancellation';
import { listed } from '../../../src/server/jsonAnswer';
import { LineIndex } from '../../../src/server/lineIndex';
import { HANDLERS, type Held } from '../../../src/server/worker';

const text = generateIptablesRestore(normaliseCluster(syntheticCluster({ services: 50, endpointsPerService: 3 })), {
  clusterCidr: '10.0.0.0/8',
}).text;
const analysis = analyzeText(text, 'iptables');
const lines = LineIndex.of(text);
const doc: Held = { uri: 'file:///work/d.iptables', analysis, lines };
const lineOf = (prefix: string, from = 0) => text.split('\n').findIndex((l, i) => i >= from && l.startsWith(prefix));
const masq = { line: lineOf(':KUBE-MARK-MASQ '), character: 3 };
const services = { line: lineOf(':KUBE-SERVICES ', lineOf('*nat')), character: 3 };
const item = (position: typeof masq) =>
  (HANDLERS['textDocument/prepareCallHierarchy'](doc, { position }, 'en') as { name: string }[])[0];
const everything = { start: { line: 0, character: 0 }, end: { line: lines.lineCount, character: 0 } };

/** Each feature, and the least number of looks it makes on this dump (a look per item of its long loop). */
const LONG: [string, unknown, number][] = [
  ['textDocument/references', { position: masq, context: { includeDeclaration: true } }, 100],
  ['callHierarchy/incomingCalls', { item: item(masq) }, 200],
  ['callHierarchy/outgoingCalls', { item: item(services) }, 50],
  ['textDocument/documentSymbol', {}, 500],
  ['workspace/symbol', { query: 'kube-sep' }, 150],
  ['textDocument/foldingRange', {}, 500],
  ['textDocument/codeLens', {}, 1000],
  ['textDocument/inlayHint', { range: everything }, 500],
  ['textDocument/semanticTokens/full', {}, 500],
  ['textDocument/semanticTokens/range', { range: everything }, 500],
];

const flags = new CancelFlags();
useCancelFlags(flags.buffer);
let nextId = 1;

/** The handler's answer (its lazy lists made whole, as writing it does), and how many looks it made. */
function run(method: string, params: unknown, id: number, markAtLook = 0): { answer: unknown; looks: number } {
  let looks = 0;
  observeLooks(() => {
    if (++looks === markAtLook) flags.cancel(id);
  });
  try {
    return { answer: runningRequest(id, () => listed(HANDLERS[method](doc, params, 'en'))), looks };
  } catch (e) {
    if (e instanceof RequestCancelledError) e.message = `cancelled at look ${looks}`;
    throw e;
  } finally {
    observeLooks(undefined);
  }
}

for (const [method, params, least] of LONG) {
  test(`${method} stops at its first look after its request is marked, in the middle of its work`, () => {
    const whole = run(method, params, nextId++);
    assert.ok(JSON.stringify(whole.answer).length > 100, `${method} has something to answer on this dump`);
    assert.ok(whole.looks >= least, `${method} looks at the mark in its loop: ${whole.looks} looks`);
    const half = Math.ceil(whole.looks / 2);
    const id = nextId++;
    assert.throws(
      () => run(method, params, id, half),
      (e) => e instanceof RequestCancelledError && e.message === `cancelled at look ${half}`,
    );
    // Another request's mark, and one in the same slot (ids 1024 apart), do not stop this one.
    flags.cancel(id + 1);
    assert.deepEqual(run(method, params, id + 1024).answer, whole.answer);
    nextId = id + 1025;
  });
}

test('a trace stops at its look after the engine traced, before its answer is made', () => {
  // The engine knows nothing of requests (a known gap): the feature's one look is after it.
  const params = { uri: doc.uri, src: '10.244.0.9', dst: '10.96.0.10:80' };
  const whole = run('kubePacketPath/tracePacket', params, nextId++);
  assert.equal(whole.looks, 1);
  assert.throws(
    () => run('kubePacketPath/tracePacket', params, nextId++, 1),
    (e) => e instanceof RequestCancelledError && e.message === 'cancelled at look 1',
  );
});

test('outside a request (the server, the analysis) nothing is cancelled', () => {
  flags.cancel(nextId);
  assert.doesNotThrow(() => throwIfCancelled());
});
