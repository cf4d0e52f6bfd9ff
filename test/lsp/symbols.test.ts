/**
 * Document symbols as breadcrumbs and sticky scroll read them: in kube-proxy's restore layout (chains declared
 * first, KUBE-SVC and KUBE-SEP rules interleaved) the innermost symbol holding a rule's line is that rule's chain,
 * siblings never overlap, counts are "1 rule" / "3 rules", and Services come after the tables, in the document's
 * language.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DocumentSymbolRequest, SemanticTokensRequest, type DocumentSymbol } from 'vscode-languageserver-protocol/node';
import { kubeProxyDump } from '../unit/trace/helpers';
import { startSession, type LspSession } from './client';

const TEXT = kubeProxyDump([
  { ns: 'shop', name: 'checkout', clusterIP: '10.96.0.10', port: 80, endpoints: [] },
  {
    ns: 'shop',
    name: 'cart',
    clusterIP: '10.96.0.20',
    port: 80,
    endpoints: ['10.244.1.11:6443', '10.244.2.12:6443', '10.244.3.13:6443'],
  },
]);
const LINES = TEXT.split('\n');
const URI = 'file:///work/restore-layout.iptables';
let s: LspSession;

before(async () => {
  s = await startSession();
  await s.open(URI, 'iptables', TEXT);
});
after(async () => {
  await s.close();
});

const holds = (sym: DocumentSymbol, line: number) => sym.range.start.line <= line && line <= sym.range.end.line;

/** What breadcrumbs show for a line: the path of symbols holding it, each the only one of its siblings that does. */
function crumbs(symbols: DocumentSymbol[], line: number): string[] {
  const out: string[] = [];
  let level = symbols;
  for (;;) {
    const holding = level.filter((x) => holds(x, line));
    assert.ok(holding.length <= 1, `line ${line + 1} is held by ${holding.map((x) => x.name).join(' and ')}`);
    if (!holding.length) return out;
    out.push(holding[0].name);
    level = holding[0].children ?? [];
  }
}

test('every rule line is under its own chain, also where chains interleave', async () => {
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri: URI },
  })) as DocumentSymbol[];
  let table = '';
  let checked = 0;
  LINES.forEach((text, line) => {
    if (text.startsWith('*')) table = text;
    const m = /^-A (\S+)/.exec(text);
    if (!m) return;
    assert.deepEqual(crumbs(symbols, line), [table, m[1]], `line ${line + 1}: ${text}`);
    checked++;
  });
  assert.ok(checked > 20);
  // The layout does interleave: a KUBE-SEP rule sits between two rules of the KUBE-SVC chain.
  const svc = LINES.findIndex((l) => l.startsWith('-A KUBE-SVC-') && l.includes('statistic'));
  assert.ok(LINES[svc + 1].startsWith('-A KUBE-SEP-'));
  const postrouting = LINES.findIndex((l) => l.startsWith('-A KUBE-POSTROUTING'));
  assert.deepEqual(crumbs(symbols, postrouting), ['*nat', 'KUBE-POSTROUTING']);
});

test('the outline counts "1 rule", not "1 rules"; Services come after the tables', async () => {
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri: URI },
  })) as DocumentSymbol[];
  assert.deepEqual(
    symbols.map((x) => x.name),
    ['*filter', '*nat', 'Services'],
  );
  const nat = symbols[1].children!;
  const masq = nat.find((c) => c.name === 'KUBE-MARK-MASQ')!;
  assert.equal(masq.detail, '1 rule');
  assert.equal(nat.find((c) => c.name === 'KUBE-POSTROUTING')!.detail, '3 rules');
  assert.ok(!JSON.stringify(symbols).includes('(s)'), 'no "(s)" forms');
  const services = symbols[2];
  assert.equal(services.detail, '2 Services');
  assert.ok(services.range.start.line >= symbols[1].range.end.line, 'Services are not wedged between *filter and *nat');
  const checkout = services.children!.find((c) => c.name === 'shop/checkout')!;
  assert.match(checkout.children![0].detail ?? '', /no endpoints$/);
});

test('the outline in Simplified Chinese', async () => {
  const zh = await startSession({ locale: 'zh-cn' });
  try {
    await zh.open(URI, 'iptables', TEXT);
    const symbols = (await zh.connection.sendRequest(DocumentSymbolRequest.type, {
      textDocument: { uri: URI },
    })) as DocumentSymbol[];
    assert.equal(symbols[1].children!.find((c) => c.name === 'KUBE-MARK-MASQ')!.detail, '1 条规则');
    assert.equal(symbols[2].detail, '2 个 Service');
  } finally {
    await zh.close();
  }
});

test('one wrong comment marks its own rule, not every line that names the Service chains', async () => {
  const lines = TEXT.split('\n');
  // The second endpoint rule of shop/cart's ladder gets another Service's name in its comment.
  const wrong = lines.findIndex((l) => l.startsWith('-A KUBE-SVC-') && l.includes('-> 10.244.2.12:6443'));
  const edited = lines.map((l, i) => (i === wrong ? l.replace('shop/cart:p', 'shop/carts:p') : l)).join('\n');
  const uri = 'file:///work/wrong-comment.iptables';
  await s.open(uri, 'iptables', edited);
  const legend = s.capabilities.semanticTokensProvider!.legend;
  const bit = 1 << legend.tokenModifiers.indexOf('hashMismatch');
  const tokens = await s.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
  const marked = new Set<number>();
  let line = 0;
  for (let i = 0; i < tokens!.data.length; i += 5) {
    line += tokens!.data[i];
    if (tokens!.data[i + 4] & bit) marked.add(line);
  }
  assert.deepEqual(
    [...marked],
    [wrong],
    `marked lines ${[...marked].map((l) => l + 1).join(', ')}; the wrong comment is on ${wrong + 1}`,
  );
});
