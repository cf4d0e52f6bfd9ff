/**
 * A cancelled request stops in the worker running it (src/server/cancellation.ts): the next request is not kept
 * waiting for work nobody wants. The call hierarchy of KUBE-MARK-MASQ is the case that was found (on a 10k-Service
 * dump: 4 s, 32,000 callers; the hover after it waited 0.8-5.7 s).
 *
 * No timings: the same question on a dump a quarter of the size, in a worker of its own and not cancelled, is the
 * clock. The hover after the cancelled request comes back before that smaller answer, which a worker finishing the
 * cancelled one (four times the work) could not do. (1,000 Services are over 1M characters: a worker of their own.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyPrepareRequest,
  CancellationTokenSource,
  DidChangeTextDocumentNotification,
  DocumentSymbolRequest,
  HoverRequest,
  ResponseError,
  type CallHierarchyItem,
} from 'vscode-languageserver-protocol/node';
import { generateIptablesRestore } from '../../src/core/iptables/generate';
import { normaliseCluster } from '../../src/core/kube/objects';
import { syntheticCluster } from '../../src/core/kube/synthetic';
import { startSession, type LspSession } from './client';

/** A kube-proxy dump of `services` Services. */
function dump(services: number): string {
  return generateIptablesRestore(normaliseCluster(syntheticCluster({ services, endpointsPerService: 3 })), {
    clusterCidr: '10.0.0.0/8',
  }).text;
}

const big = dump(4000);
const quarter = dump(1000);
const small = dump(20);
const BIG = 'file:///work/cancel-big.iptables';
const QUARTER = 'file:///work/cancel-quarter.iptables';
const SMALL = 'file:///work/cancel-small.iptables';

const lineOf = (text: string, prefix: string) => text.split('\n').findIndex((l) => l.startsWith(prefix));

async function markMasq(s: LspSession, uri: string): Promise<CallHierarchyItem> {
  const line = lineOf(s.text(uri)!, ':KUBE-MARK-MASQ ');
  const items = await s.connection.sendRequest(CallHierarchyPrepareRequest.type, {
    textDocument: { uri },
    position: { line, character: 3 },
  });
  assert.equal(items?.[0]?.name, 'KUBE-MARK-MASQ');
  return items[0];
}

/** The order in which the awaited answers came. */
function recorder() {
  const order: string[] = [];
  return {
    order,
    note: <T>(name: string, p: Promise<T>) =>
      p.then(
        (v) => (order.push(name), v),
        (e: unknown) => {
          order.push(name);
          throw e;
        },
      ),
  };
}

/**
 * Once a request on another document is answered, the server has handed the requests sent before it to their
 * workers (it reads them in order): a cancel sent now reaches a request its worker runs, not one still waiting in
 * the server, which never reached a worker even before.
 */
async function handedOn(s: LspSession): Promise<void> {
  const hoverAt = {
    textDocument: { uri: SMALL },
    position: { line: lineOf(small, '-A KUBE-SERVICES '), character: 4 },
  };
  assert.ok(await s.connection.sendRequest(HoverRequest.type, hoverAt));
}

const isCancelled = (e: unknown) => e instanceof ResponseError && e.code === -32800;

async function openBoth(s: LspSession) {
  await Promise.all([
    s.open(BIG, 'iptables', big),
    s.open(QUARTER, 'iptables', quarter),
    s.open(SMALL, 'iptables', small),
  ]);
  const hoverAt = { textDocument: { uri: BIG }, position: { line: lineOf(big, '-A KUBE-SERVICES '), character: 4 } };
  // The hover's own first-time costs are paid here, not by the hover the test watches.
  assert.ok(await s.connection.sendRequest(HoverRequest.type, hoverAt));
  return { hoverAt, bigItem: await markMasq(s, BIG), quarterItem: await markMasq(s, QUARTER) };
}

test('a cancelled call hierarchy stops in its worker: the next hover is answered before a quarter of its work', async () => {
  const s = await startSession();
  try {
    const { hoverAt, bigItem, quarterItem } = await openBoth(s);
    const { order, note } = recorder();
    const clock = note(
      'quarter',
      s.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: quarterItem }),
    );
    const source = new CancellationTokenSource();
    const cancelled = note(
      'cancelled',
      s.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: bigItem }, source.token),
    );
    await handedOn(s);
    source.cancel();
    const hover = note('hover', s.connection.sendRequest(HoverRequest.type, hoverAt));
    await assert.rejects(cancelled, isCancelled);
    assert.ok(await hover);
    const callers = (await clock) ?? [];
    assert.ok(callers.length >= 1000, `the small dump's KUBE-MARK-MASQ has ${callers.length} callers`);
    assert.deepEqual(order, ['cancelled', 'hover', 'quarter']);
    // Not cancelled, the same question is answered in full.
    const all = await s.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: bigItem });
    assert.equal(all?.length, 4 * callers.length);
  } finally {
    await s.close();
  }
});

test('an edit while a long request runs, then its cancel: the next hover does not wait for the stale work', async (t) => {
  // Its clock (the quarter dump's incoming calls) runs in another worker than the analysis of the edited text the
  // hover waits for: under a machine's load the two race. Stale work that was not stopped loses every time, so a
  // second session decides, and a first that lost is said.
  const first = await editThenCancel();
  if (first.join() === 'cancelled,hover,quarter') return;
  t.diagnostic(`first session's order: ${first.join(', ')}; a second one decides`);
  assert.deepEqual(await editThenCancel(), ['cancelled', 'hover', 'quarter']);
});

/** The order in which the cancelled outline, the hover after the edit and the clock were answered. */
async function editThenCancel(): Promise<string[]> {
  const s = await startSession();
  try {
    const { hoverAt, quarterItem } = await openBoth(s);
    const { order, note } = recorder();
    const clock = note(
      'quarter',
      s.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: quarterItem }),
    );
    const source = new CancellationTokenSource();
    // The outline of the whole dump, as the editor asks for it; then a keystroke, on which the editor cancels it.
    const cancelled = note(
      'cancelled',
      s.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: BIG } }, source.token),
    );
    const edited = `# edited\n${big}`;
    await s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: BIG, version: 2 },
      contentChanges: [
        { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# edited\n' },
      ],
    });
    assert.equal(s.text(BIG), edited);
    await handedOn(s);
    source.cancel();
    const moved = { ...hoverAt, position: { ...hoverAt.position, line: hoverAt.position.line + 1 } };
    const hover = note('hover', s.connection.sendRequest(HoverRequest.type, moved));
    await assert.rejects(cancelled, isCancelled);
    assert.ok(await hover);
    await clock;
    return order;
  } finally {
    await s.close();
  }
}

test('a request over its budget stops in its worker, which keeps its analysis: the next hover needs no new one', async () => {
  // Document symbols of 2,000 Services take far longer than 1 ms; hovers keep the default budget.
  const s = await startSession({
    initializationOptions: { budgets: { perMethod: { 'textDocument/documentSymbol': 1 } } },
  });
  try {
    const uri = 'file:///work/budget.iptables';
    const text = dump(2000);
    await s.open(uri, 'iptables', text);
    await assert.rejects(
      s.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }),
      (e: unknown) => e instanceof ResponseError && e.code === -32803 && /budget of 1 ms/.test(e.message),
    );
    const hoverAt = { textDocument: { uri }, position: { line: lineOf(text, '-A KUBE-SERVICES '), character: 4 } };
    assert.ok(await s.connection.sendRequest(HoverRequest.type, hoverAt));
    assert.ok(
      s.logs.some((l) => l.includes(`${uri} v1 stopped after its budget; its worker keeps the analysis`)),
      s.logs.join('\n'),
    );
    // A worker ended over its budget would have made the analysis again before the hover: logged before it.
    const over = s.logs.findIndex((l) => l.includes('exceeded its budget'));
    assert.deepEqual(
      s.logs.slice(over).filter((l) => l.startsWith('analysed ')),
      [],
    );
  } finally {
    await s.close();
  }
});
