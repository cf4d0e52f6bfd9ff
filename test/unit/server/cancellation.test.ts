/**
 * Every request that can run long on a big dump looks at its cancel mark (src/server/cancellation.ts) and stops;
 * unmarked, or with another request's mark, it answers as before. The worker's handlers run here on a real
 * analysis; the mark is set before they start, so each stops at its first look.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText } from '../../../src/core/analyze';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';
import {
  CancelFlags,
  RequestCancelledError,
  runningRequest,
  throwIfCancelled,
  useCancelFlags,
} from '../../../src/server/cancellation';
import { fitResponse } from '../../../src/server/fit';
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

const LONG: [string, unknown][] = [
  ['textDocument/references', { position: masq, context: { includeDeclaration: true } }],
  ['callHierarchy/incomingCalls', { item: item(masq) }],
  ['callHierarchy/outgoingCalls', { item: item(services) }],
  ['textDocument/documentSymbol', {}],
  ['workspace/symbol', { query: 'kube-sep' }],
  ['textDocument/foldingRange', {}],
  ['textDocument/codeLens', {}],
  ['textDocument/inlayHint', { range: everything }],
  ['textDocument/semanticTokens/full', {}],
  ['textDocument/semanticTokens/range', { range: everything }],
  ['kubePacketPath/tracePacket', { uri: doc.uri, src: '10.244.0.9', dst: '10.96.0.10:80' }],
];

const flags = new CancelFlags();
useCancelFlags(flags.buffer);
let nextId = 1;
const answer = (method: string, params: unknown, id: number) =>
  runningRequest(id, () => fitResponse(method, HANDLERS[method](doc, params, 'en') ?? null, lines).value);

for (const [method, params] of LONG) {
  test(`${method} stops when its request is cancelled, and answers in full when another one is`, () => {
    const whole = answer(method, params, nextId++);
    assert.ok(JSON.stringify(whole).length > 100, `${method} has something to answer on this dump`);
    const id = nextId++;
    flags.cancel(id);
    assert.throws(() => answer(method, params, id), RequestCancelledError);
    // Another request's mark, and one in the same slot (ids 1024 apart), do not stop this one.
    flags.cancel(id + 1);
    assert.deepEqual(answer(method, params, id + 1024), whole);
    nextId = id + 1025;
  });
}

test('outside a request (the server, the analysis) nothing is cancelled', () => {
  flags.cancel(nextId);
  assert.doesNotThrow(() => throwIfCancelled());
});
