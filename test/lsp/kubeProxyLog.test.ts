/**
 * A kube-proxy log whose line carries the whole iptables-restore input escaped (`"Restoring iptables"
 * rules="*filter\n..."`), opened in the real server: every position it answers with (diagnostics, hovers,
 * definitions, symbols, colours, folds, trace steps) points into the log line the editor holds, and a position the
 * editor asks about is the one the engine reads.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  DefinitionRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  SemanticTokensRequest,
  type DocumentSymbol,
  type Location,
  type MarkupContent,
  type PublishDiagnosticsParams,
  type Range,
} from 'vscode-languageserver-protocol/node';
import { TracePacketRequest } from '../../src/server/protocol';
import { CART, KUBE_DNS, klogRestoreLine, klogSync } from '../helpers/kubeProxyLogs';
import { kubeProxyDump } from '../unit/trace/helpers';
import { startSession, type LspSession } from './client';

const DUMP = kubeProxyDump([KUBE_DNS, CART]);
const LOG_LINE = klogRestoreLine(DUMP);
const TEXT = klogSync(LOG_LINE);
const LINE = 1;
const URI = 'file:///work/kube-proxy-v9.log';
let s: LspSession;
let published: PublishDiagnosticsParams;

before(async () => {
  s = await startSession();
  published = await s.open(URI, 'iptables', TEXT);
});
after(async () => {
  await s.close();
});

const textAt = (r: Range) => {
  assert.equal(r.start.line, r.end.line);
  return TEXT.split('\n')[r.start.line].slice(r.start.character, r.end.character);
};

test('diagnostics are on the log line, the note over the log text before the input', () => {
  assert.ok(published.diagnostics.length > 0);
  for (const d of published.diagnostics) assert.equal(d.range.start.line, LINE, String(d.code));
  const note = published.diagnostics.find((d) => d.code === 'kube-proxy-log')!;
  assert.equal(textAt(note.range), 'I1206 10:00:01.123456       1 proxier.go:1538] "Restoring iptables" rules="');
});

test('a hover and a definition asked on the log line answer for the chain there, pointing into the log line', async () => {
  const jump = LOG_LINE.indexOf('-j KUBE-SVC-') + 3;
  const chain = /^KUBE-SVC-\w+/.exec(LOG_LINE.slice(jump))![0];
  const position = { line: LINE, character: jump + 2 };
  const hover = await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri: URI }, position });
  assert.match((hover?.contents as MarkupContent).value, /kube-system\/kube-dns/);
  const def = (await s.connection.sendRequest(DefinitionRequest.type, {
    textDocument: { uri: URI },
    position,
  })) as Location[] | Location;
  const [target] = Array.isArray(def) ? def : [def];
  assert.equal(target.range.start.line, LINE);
  assert.equal(textAt(target.range), chain);
  assert.ok(target.range.start.character < jump, 'the declaration comes before the jump');
});

test('symbols, colours and folds are on the log line and cover its text', async () => {
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri: URI },
  })) as DocumentSymbol[];
  const all: DocumentSymbol[] = [];
  const walk = (xs: DocumentSymbol[]) => xs.forEach((x) => (all.push(x), walk(x.children ?? [])));
  walk(symbols);
  assert.ok(all.some((x) => x.name === '*nat'));
  for (const x of all) assert.equal(x.selectionRange.start.line, LINE, x.name);
  const svc = all.find((x) => /^KUBE-SVC-/.test(textAt(x.selectionRange)));
  assert.ok(svc, 'a Service chain symbol selects its name in the log');

  const tokens = await s.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: URI } });
  let line = 0;
  let char = 0;
  const names: string[] = [];
  for (let i = 0; i < tokens!.data.length; i += 5) {
    line += tokens!.data[i];
    char = tokens!.data[i] === 0 ? char + tokens!.data[i + 1] : tokens!.data[i + 1];
    assert.equal(line, LINE);
    names.push(TEXT.split('\n')[line].slice(char, char + tokens!.data[i + 2]));
  }
  // Each token is a whole word of the log line: a table, a chain, a target.
  for (const n of names) assert.match(n, /^\*?[\w-]+$/, n);
  assert.ok(names.some((n) => /^KUBE-SVC-/.test(n)));

  // The input's lines all share one line of the log: nothing there to fold.
  const folds = await s.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: URI } });
  assert.deepEqual(folds, []);
});

test("a trace's steps and matched lines are the log line", async () => {
  const r = await s.connection.sendRequest(TracePacketRequest, { uri: URI, src: '10.244.1.5', dst: '10.96.0.10:53' });
  assert.equal(r.paths.length, 2);
  const steps = [...(r.sharedSteps ?? []), ...r.paths.flatMap((p) => p.steps)];
  assert.ok(steps.length > 3);
  for (const step of steps) if (step.line >= 0) assert.equal(step.line, LINE, step.rule);
  assert.deepEqual(r.matchedLines, [LINE]);
  assert.deepEqual(r.paths.map((p) => p.dnat?.ip).sort(), ['10.244.0.3', '10.244.1.7']);
});

test("a trace's summary and warnings quote the log line (1-based), not a line of the escaped input", async () => {
  const empty = { ...KUBE_DNS, name: 'empty', clusterIP: '10.96.0.99', endpoints: [] };
  const uri = 'file:///work/kube-proxy-empty.log';
  await s.open(uri, 'iptables', klogSync(klogRestoreLine(kubeProxyDump([KUBE_DNS, empty]))));
  const r = await s.connection.sendRequest(TracePacketRequest, { uri, src: '10.244.1.5', dst: '10.96.0.99:53' });
  assert.match(r.summary, /has no endpoints: kube-proxy rejects the connection \(filter\/KUBE-SERVICES line 2,/);
  assert.ok(
    r.warnings.some((w) => /has no endpoints.*line 2,/.test(w)),
    r.warnings.join('\n'),
  );
});
