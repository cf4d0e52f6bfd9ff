// Issue #29: never hang, never answer what the editor must reject. Every answer here also goes through the
// client's validator (test/lsp/validate.ts); these are the cases the fuzz+soak run found, kept as regressions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  CancellationTokenSource,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  ResponseError,
  SemanticTokensRangeRequest,
  ShutdownRequest,
  WorkspaceSymbolRequest,
  type DocumentSymbol,
  type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { generateIptablesRestore } from '../../src/core/iptables/generate';
import { normaliseCluster } from '../../src/core/kube/objects';
import { syntheticCluster } from '../../src/core/kube/synthetic';
import { seedDump } from '../helpers/dumps';
import { childProcesses, threadCount } from '../helpers/processes';
import { startSession } from './client';

const seed = seedDump();

test("a chain declared with no rules (kind's KUBE-KUBELET-CANARY): its call hierarchy item holds its name", async () => {
  const s = await startSession();
  try {
    const uri = 'file:///work/canary.iptables';
    const lines = [
      '*mangle',
      ':PREROUTING ACCEPT [0:0]',
      ':KUBE-KUBELET-CANARY - [0:0]',
      ':KUBE-PROXY-CANARY - [0:0]',
      '-A PREROUTING -j KUBE-PROXY-CANARY',
      'COMMIT',
    ];
    await s.open(uri, 'iptables', lines.join('\n'));
    const items = await s.connection.sendRequest(CallHierarchyPrepareRequest.type, {
      textDocument: { uri },
      position: { line: 2, character: 5 },
    });
    assert.equal(items?.[0].name, 'KUBE-KUBELET-CANARY');
    assert.deepEqual(items![0].range, {
      start: { line: 2, character: 0 },
      end: { line: 2, character: lines[2].length },
    });
    // The callee of PREROUTING has no rules either; its item comes back in the outgoing calls.
    const prerouting = await s.connection.sendRequest(CallHierarchyPrepareRequest.type, {
      textDocument: { uri },
      position: { line: 1, character: 3 },
    });
    const out = await s.connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, { item: prerouting![0] });
    assert.deepEqual(
      out?.map((c) => c.to.name),
      ['KUBE-PROXY-CANARY'],
    );
    const canary = await s.connection.sendRequest(CallHierarchyPrepareRequest.type, {
      textDocument: { uri },
      position: { line: 3, character: 5 },
    });
    const incoming = await s.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: canary![0] });
    assert.deepEqual(
      incoming?.map((c) => c.from.name),
      ['PREROUTING'],
    );
  } finally {
    await s.close();
  }
});

test('a line over 10,000 characters: symbols end where their lines end and hold their selection', async () => {
  const s = await startSession();
  try {
    const uri = 'file:///work/long-line.iptables';
    const long = `KUBE-${'A'.repeat(12_000)}`;
    const lines = [
      '*filter',
      ':INPUT ACCEPT [0:0]',
      `:${long} - [0:0]`,
      `-A INPUT -s 10.0.0.0/8 -j ${long}`,
      `-A ${long} -m comment --comment "${'x'.repeat(11_000)}" -j DROP`,
      'COMMIT',
    ];
    await s.open(uri, 'iptables', lines.join('\n'));
    const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
      textDocument: { uri },
    })) as DocumentSymbol[];
    const chain = symbols[0].children!.find((c) => c.name === long)!;
    // A chain's symbol is the run of its rules (its declaration two lines up is not part of that run).
    assert.deepEqual(chain.range, { start: { line: 4, character: 0 }, end: { line: 4, character: lines[4].length } });
    assert.deepEqual(chain.selectionRange, {
      start: { line: 4, character: 3 },
      end: { line: 4, character: 3 + long.length },
    });
    const found = await s.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'KUBE-AAAA' });
    assert.equal(found?.length, 1);
    const items = await s.connection.sendRequest(CallHierarchyPrepareRequest.type, {
      textDocument: { uri },
      position: { line: 3, character: lines[3].length - 3 },
    });
    assert.equal(items?.[0].name, long);
  } finally {
    await s.close();
  }
});

test("rules of a table pasted after its COMMIT: their fold stays inside or outside the table's fold", async () => {
  const s = await startSession();
  try {
    const uri = 'file:///work/commit-inside.iptables';
    const lines = [
      '*nat',
      ':POSTROUTING ACCEPT [0:0]',
      '-A POSTROUTING -s 10.0.0.0/8 -j RETURN',
      '-A POSTROUTING -s 172.16.0.0/12 -j RETURN',
      'COMMIT',
      '-A POSTROUTING -s 192.168.0.0/16 -j RETURN',
      '-A POSTROUTING -j MASQUERADE',
    ];
    await s.open(uri, 'iptables', lines.join('\n'));
    const folds = await s.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } });
    assert.deepEqual(
      folds?.map((f) => [f.startLine, f.endLine]),
      [
        [0, 4],
        [2, 3],
        [5, 6],
      ],
    );
  } finally {
    await s.close();
  }
});

test('a request over its budget is answered with an error and logged, and the server keeps answering', async () => {
  // Document symbols of 2,000 Services take far longer than 1 ms; hovers keep the default budget.
  const s = await startSession({
    initializationOptions: { budgets: { perMethod: { 'textDocument/documentSymbol': 1 } } },
  });
  try {
    const uri = 'file:///work/budget.iptables';
    const text = generateIptablesRestore(
      normaliseCluster(syntheticCluster({ services: 2000, endpointsPerService: 3 })),
      { clusterCidr: '10.0.0.0/8' },
    ).text;
    await s.open(uri, 'iptables', text);
    await assert.rejects(
      s.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }),
      (e: unknown) => e instanceof ResponseError && e.code === -32803 && /budget of 1 ms/.test(e.message),
    );
    assert.ok(
      s.logs.some((l) =>
        /textDocument\/documentSymbol on file:\/\/\/work\/budget\.iptables v1 exceeded its budget of 1 ms/.test(l),
      ),
      s.logs.join('\n'),
    );
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.startsWith('-A KUBE-SERVICES'));
    const h = await s.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line, character: 4 },
    });
    assert.match((h!.contents as MarkupContent).value, /KUBE-SERVICES/);
    assert.equal(s.process.exitCode, null);
  } finally {
    await s.close();
  }
});

test('a cancelled request is answered RequestCancelled', async () => {
  const s = await startSession();
  try {
    const uri = 'file:///work/cancel.iptables';
    const text = generateIptablesRestore(
      normaliseCluster(syntheticCluster({ services: 1000, endpointsPerService: 3 })),
      { clusterCidr: '10.0.0.0/8' },
    ).text;
    // Not waiting for the diagnostics: the request waits for the first analysis and is cancelled meanwhile.
    const opened = s.open(uri, 'iptables', text);
    const source = new CancellationTokenSource();
    const asked = s.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } }, source.token);
    source.cancel();
    await assert.rejects(asked, (e: unknown) => e instanceof ResponseError && e.code === -32800);
    await opened;
    const folds = await s.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } });
    assert.ok(folds!.length > 0);
  } finally {
    await s.close();
  }
});

test('answers given while an edit is being analysed fit the text as it is now', async () => {
  const s = await startSession();
  try {
    const uri = 'file:///work/shrinking.iptables';
    const text = generateIptablesRestore(
      normaliseCluster(syntheticCluster({ services: 300, endpointsPerService: 3 })),
      { clusterCidr: '10.0.0.0/8' },
    ).text;
    await s.open(uri, 'iptables', text);
    // The dump is cut to its first lines and asked about at once: the answers come from the analysis of the long
    // text (or the new one) and must still lie inside the short one (the client's validator checks each).
    const short = seed.text;
    await s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: short }],
    });
    const td = { textDocument: { uri } };
    const end = { line: short.split('\n').length - 1, character: 0 };
    await Promise.all([
      s.connection.sendRequest(DocumentSymbolRequest.type, td),
      s.connection.sendRequest(FoldingRangeRequest.type, td),
      s.connection.sendRequest(SemanticTokensRangeRequest.type, {
        ...td,
        range: { start: { line: 0, character: 0 }, end },
      }),
      s.connection.sendRequest(HoverRequest.type, { ...td, position: { line: 5, character: 3 } }),
    ]);
    await s.waitDiagnostics(uri, (p) => p.version === 2);
    const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, td)) as DocumentSymbol[];
    assert.ok(
      symbols[0].children!.some((c) => c.name === seed.svcChain),
      'the new text is read',
    );
  } finally {
    await s.close();
  }
});

const waitUntil = async (done: () => boolean) => {
  for (let waited = 0; !done() && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
};

test('the server ends when its input closes, its workers with it (threads, no process of their own): exit code 1 without a shutdown request, 0 after one', async () => {
  for (const shutdown of [false, true]) {
    const s = await startSession();
    try {
      await s.open('file:///work/ending.iptables', 'iptables', seed.text);
      assert.deepEqual(childProcesses(s.process.pid!), [], 'the worker holding the document is a thread');
      if (shutdown) await s.connection.sendRequest(ShutdownRequest.type);
      const exited = new Promise<number | null | 'running'>((resolve) => {
        s.process.once('exit', (code) => resolve(code));
        setTimeout(() => resolve('running'), 10_000).unref();
      });
      s.process.stdin!.end();
      assert.equal(await exited, shutdown ? 0 : 1);
    } finally {
      s.connection.dispose();
      if (s.process.exitCode === null) s.process.kill();
    }
  }
});

test('a big document closed within the wait after an edit leaves no worker running', async () => {
  const s = await startSession();
  try {
    const uri = 'file:///work/big-then-closed.iptables';
    // Over a million characters: its next analysis gets a worker of its own, started during the wait.
    const big = `${seed.text}${`# ${'x'.repeat(98)}\n`.repeat(11_000)}`;
    await s.open(uri, 'iptables', big);
    const pid = s.process.pid!;
    // One worker runs now: the document's (the one started before it came took it).
    const withOneWorker = threadCount(pid);
    s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: `${big}# edited\n` }],
    });
    s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await waitUntil(() => threadCount(pid) < withOneWorker);
    assert.equal(threadCount(pid), withOneWorker - 1, 'no worker is left for a closed document');
  } finally {
    await s.close();
  }
});
