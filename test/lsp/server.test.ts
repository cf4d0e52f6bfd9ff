import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  CodeLensRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  InlayHintRequest,
  ReferencesRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  SemanticTokensRangeRequest,
  SemanticTokensRequest,
  WorkspaceSymbolRequest,
  type DocumentSymbol,
  type Hover,
  type Location,
  type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { TEXT_PART_CHARS } from '../../src/server/analysisCache';
import { FULL_TOKENS_MAX_LINES, TOKEN_MODIFIERS, TOKEN_TYPES } from '../../src/server/features/semanticTokens';
import { generateIptablesRestore } from '../../src/core/iptables/generate';
import { normaliseCluster } from '../../src/core/kube/objects';
import { syntheticCluster } from '../../src/core/kube/synthetic';
import { ListTargetsRequest, TracePacketRequest } from '../../src/server/protocol';
import { corpusFile, CORPUS_MISSING, repoRoot } from '../helpers/corpus';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DUAL_STACK_NFT, NFT_RULESET, seedDump, SESSION_PASTE } from '../helpers/dumps';
import { startSession, type LspSession } from './client';

const seed = seedDump();
const URI = 'file:///work/seed.iptables';
let s: LspSession;

before(async () => {
  s = await startSession();
  await s.open(URI, 'iptables', seed.text);
});
after(async () => {
  await s.close();
});

const pos = (needle: string, within: string = needle) => {
  const line = seed.lineOf(within);
  return { line, character: seed.lines[line].indexOf(needle) + 1 };
};
const hoverText = (h: Hover | null) => (h?.contents as MarkupContent).value;

test('hover on the KUBE-SERVICES jump names the Service and its verified hash', async () => {
  const h = await s.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: URI },
    position: pos(seed.svcChain, '-A KUBE-SERVICES -d'),
  });
  const text = hoverText(h);
  assert.match(text, /load-balancing chain of Service \*\*default\/kubernetes:https\*\*/);
  assert.match(text, /it matches/);
  assert.match(text, /TCP to 172\.16\.0\.1:443 \(Service \*\*default\/kubernetes\*\*, port https\)/);
  assert.equal(h!.range!.start.character, seed.lines[seed.lineOf('-A KUBE-SERVICES -d')].indexOf(seed.svcChain));
});

test('hover on a probability: rule k of n, share 1/n', async () => {
  const h = await s.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: URI },
    position: pos('0.5000000000'),
  });
  assert.match(hoverText(h), /Rule 2 of 3 in this ladder.*33\.3%/s);
});

test('definition of a jump target goes to its declaration; references list every jump', async () => {
  const def = await s.connection.sendRequest(DefinitionRequest.type, {
    textDocument: { uri: URI },
    position: pos(seed.svcChain, '-A KUBE-SERVICES -d'),
  });
  const loc = Array.isArray(def) ? def[0] : def;
  assert.ok(loc && 'range' in loc);
  assert.equal(loc.range.start.line, seed.lineOf(`:${seed.svcChain}`));
  const refs = await s.connection.sendRequest(ReferencesRequest.type, {
    textDocument: { uri: URI },
    position: pos('KUBE-MARK-MASQ', ':KUBE-MARK-MASQ'),
    context: { includeDeclaration: false },
  });
  assert.equal(refs!.length, 4, 'the SVC masquerade rule and three SEP hairpin rules jump to KUBE-MARK-MASQ');
});

test('after -E OLD NEW, definition and references follow the new name from the jump, the rule and the old declaration', async () => {
  const uri = 'file:///work/renamed.rules';
  const lines = [
    '*filter',
    ':INPUT ACCEPT [0:0]',
    ':OLD - [0:0]',
    '-A INPUT -s 10.0.0.0/8 -j OLD',
    '-A OLD -j DROP',
    '-E OLD NEW',
    '-A INPUT -p tcp -j NEW',
    'COMMIT',
  ];
  await s.open(uri, 'iptables', lines.join('\n'));
  const at = (line: number, needle: string) => ({
    textDocument: { uri },
    position: { line, character: lines[line].indexOf(needle) + 1 },
  });
  for (const [line, needle] of [
    [3, 'OLD'],
    [4, 'OLD'],
    [2, 'OLD'],
    [6, 'NEW'],
  ] as const) {
    const def = await s.connection.sendRequest(DefinitionRequest.type, at(line, needle));
    const loc = Array.isArray(def) ? def[0] : def;
    assert.ok(loc && 'range' in loc, `definition from line ${line + 1}`);
    assert.equal(loc.range.start.line, 2, `line ${line + 1}: the chain declared as :OLD`);
    const refs = await s.connection.sendRequest(ReferencesRequest.type, {
      ...at(line, needle),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(
      refs!.map((r) => r.range.start.line),
      [3, 6],
      `references from line ${line + 1}: both jumps, before and after the rename`,
    );
  }
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  // A rename in nat leaves filter's chain of the same name alone; the old name on the -E line finds the renamed chain.
  const two = [
    '*filter',
    ':A - [0:0]',
    '-A A -j ACCEPT',
    'COMMIT',
    '*nat',
    ':A - [0:0]',
    '-E A B',
    '-A B -j RETURN',
    'COMMIT',
  ];
  const uri2 = 'file:///work/two-tables.rules';
  await s.open(uri2, 'iptables', two.join('\n'));
  const defLine = async (line: number, column: number) => {
    const def = await s.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: uri2 },
      position: { line, character: column },
    });
    const loc = Array.isArray(def) ? def[0] : def;
    return loc && 'range' in loc ? loc.range.start.line : undefined;
  };
  assert.equal(await defLine(1, 1), 1, "filter's :A is filter's chain");
  assert.equal(await defLine(6, 3), 5, "the A of '-E A B' is nat's chain, declared as :A");
  assert.equal(await defLine(7, 3), 5, '-A B is the renamed chain');
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: uri2 } });
});

test('call hierarchy: KUBE-SERVICES is called from PREROUTING and OUTPUT', async () => {
  const items = await s.connection.sendRequest(CallHierarchyPrepareRequest.type, {
    textDocument: { uri: URI },
    position: pos('KUBE-SERVICES', ':KUBE-SERVICES'),
  });
  assert.equal(items![0].name, 'KUBE-SERVICES');
  const incoming = await s.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: items![0] });
  assert.deepEqual(incoming!.map((c) => c.from.name).sort(), ['OUTPUT', 'PREROUTING']);
});

test('document symbols: table with chains, and Services > port > endpoints', async () => {
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri: URI },
  })) as DocumentSymbol[];
  assert.deepEqual(
    symbols.map((x) => x.name),
    ['*nat', 'Services'],
  );
  assert.ok(symbols[0].children!.some((c) => c.name === seed.svcChain));
  const svc = symbols[1].children![0];
  assert.equal(svc.name, 'default/kubernetes');
  assert.equal(svc.children![0].name, 'https');
  assert.deepEqual(
    svc.children![0].children!.map((e) => e.name),
    ['10.0.1.11:6443', '10.0.1.12:6443', '10.0.1.13:6443'],
  );
});

test('folding, code lens and inlay hints', async () => {
  const folds = await s.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: URI } });
  assert.ok(
    folds!.some((f) => f.startLine === 1 && f.endLine === seed.lineOf('COMMIT')),
    'the *nat table folds to COMMIT',
  );
  const lenses = await s.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: URI } });
  const titles = lenses!.map((l) => l.command?.title);
  assert.ok(titles.includes('3 endpoints, 33.3% each, 1 reference'), titles.join(' | '));
  // The trace lens names its Service and sits beside the endpoints on the chain's line: KUBE-SERVICES rules get none.
  const trace = lenses!.find((l) => l.command?.title === 'Trace to default/kubernetes:https from a pod...');
  assert.ok(trace, titles.join(' | '));
  assert.ok(
    lenses!.some(
      (l) =>
        l !== trace && l.range.start.line === trace.range.start.line && /endpoints?, /.test(l.command?.title ?? ''),
    ),
  );
  assert.ok(
    !lenses!.some((l) => seed.lines[l.range.start.line].startsWith('-A KUBE-SERVICES')),
    'no lens line between KUBE-SERVICES rules',
  );
  const hints = await s.connection.sendRequest(InlayHintRequest.type, {
    textDocument: { uri: URI },
    range: { start: { line: 0, character: 0 }, end: { line: seed.lines.length, character: 0 } },
  });
  const labels = hints!.map((h) => h.label as string);
  assert.ok(labels.includes(' default/kubernetes:https'));
  assert.ok(labels.includes(' 10.0.1.12:6443 33.3%'));
});

test('a hard-wrapped rule: hover and tokens on its continuation line, one inlay hint at its target', async () => {
  const uri = 'file:///work/wrapped.iptables';
  const rule = seed.lines[seed.lineOf('-A KUBE-SERVICES -d')];
  // Broken as mail wraps it: after --comment, and again before the jump.
  const cut1 = rule.indexOf(' "');
  const cut2 = rule.indexOf(' -j ');
  const lines = [
    '*nat',
    `:${seed.svcChain} - [0:0]`,
    ':KUBE-SERVICES - [0:0]',
    rule.slice(0, cut1),
    rule.slice(cut1 + 1, cut2),
    rule.slice(cut2 + 1),
    'COMMIT',
  ];
  await s.open(uri, 'iptables', lines.join('\n'));
  const h = await s.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri },
    position: { line: 5, character: lines[5].indexOf(seed.svcChain) + 2 },
  });
  assert.match(hoverText(h), /load-balancing chain of Service \*\*default\/kubernetes:https\*\*/);
  assert.deepEqual(h!.range!.start, { line: 5, character: lines[5].indexOf(seed.svcChain) });
  const hints = await s.connection.sendRequest(InlayHintRequest.type, {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
  });
  assert.deepEqual(
    hints!.map((x) => [x.position.line, x.label]),
    [[5, ' default/kubernetes:https']],
  );
  const tokens = await s.connection.sendRequest(SemanticTokensRangeRequest.type, {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
  });
  const decoded = decodeTokens(tokens!.data, lines);
  assert.ok(
    decoded.some((t) => t.line === 5 && t.text === seed.svcChain),
    JSON.stringify(decoded),
  );
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

/** LSP's relative token encoding, decoded with the server's legend. */
function decodeTokens(data: number[], lines: string[]) {
  const out: { line: number; text: string; type: string; mods: string[] }[] = [];
  let line = 0;
  let char = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i];
    char = data[i] === 0 ? char + data[i + 1] : data[i + 1];
    const mods = TOKEN_MODIFIERS.filter((_, bit) => data[i + 4] & (1 << bit));
    out.push({ line, text: lines[line].slice(char, char + data[i + 2]), type: TOKEN_TYPES[data[i + 3]], mods });
  }
  return out;
}

test('semantic tokens carry what only the model knows: Service and endpoint chains, unresolved jumps', async () => {
  const uri = 'file:///work/semantic.iptables';
  const text = seed.text.replace('COMMIT', '-A KUBE-SERVICES -j NOWHERE\nCOMMIT');
  const lines = text.split('\n');
  await s.open(uri, 'iptables', text);
  const full = await s.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
  const tokens = decodeTokens(full!.data, lines);
  const svc = tokens.filter((t) => t.text === seed.svcChain);
  assert.ok(svc.length >= 3, 'declaration, rule chain and jump target');
  assert.ok(
    svc.every((t) => t.type === 'function' && t.mods.includes('kubeService')),
    JSON.stringify(svc),
  );
  assert.ok(svc.some((t) => t.mods.includes('declaration')));
  for (const sep of seed.sepChains)
    assert.ok(
      tokens.some((t) => t.text === sep && t.mods.includes('kubeEndpoint')),
      sep,
    );
  assert.deepEqual(
    tokens.filter((t) => t.text === 'NOWHERE').map((t) => t.mods),
    [['unresolved']],
  );
  // Options, values and comments are the grammar's: no semantic token covers them.
  assert.ok(!tokens.some((t) => t.text.startsWith('-') || t.text.includes('"')), 'no option or comment tokens');

  // A range answers the same tokens for its lines, and only those.
  const from = seed.lineOf('-A KUBE-SERVICES -d');
  const range = await s.connection.sendRequest(SemanticTokensRangeRequest.type, {
    textDocument: { uri },
    range: { start: { line: from, character: 0 }, end: { line: from + 3, character: 0 } },
  });
  assert.deepEqual(
    decodeTokens(range!.data, lines),
    tokens.filter((t) => t.line >= from && t.line <= from + 3),
  );
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test('semantic tokens of an iptables -L listing stay on their lines and in order', async () => {
  const uri = 'file:///work/listing.iptables';
  const lines = [
    'Chain KUBE-SERVICES (2 references)',
    ' pkts bytes target     prot opt in     out     source               destination',
    `    0     0 ${seed.svcChain}  tcp  --  *      *       0.0.0.0/0            172.16.0.1           /* default/kubernetes:https cluster IP */ tcp dpt:443`,
    '    0     0 NOWHERE    all  --  *      *       0.0.0.0/0            0.0.0.0/0',
  ];
  await s.open(uri, 'iptables', lines.join('\n'));
  const full = await s.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
  const data = full!.data;
  for (let i = 0; i < data.length; i += 5)
    assert.ok(data[i] >= 0 && (data[i] > 0 || i === 0 || data[i + 1] > 0), `token ${i / 5} is after the one before`);
  const tokens = decodeTokens(data, lines);
  assert.deepEqual(
    tokens.map((t) => [t.line, t.text]),
    [
      [0, 'KUBE-SERVICES'],
      [2, seed.svcChain],
      [3, 'NOWHERE'],
    ],
  );
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test('a document above the full-request limit is coloured by ranges only', async () => {
  const uri = 'file:///work/huge.iptables';
  const filler = Array.from({ length: FULL_TOKENS_MAX_LINES }, (_, i) => `# filler ${i}`);
  const lines = [...filler, ...seed.lines];
  await s.open(uri, 'iptables', lines.join('\n'));
  assert.equal(await s.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } }), null);
  const at = filler.length + seed.lineOf('-A KUBE-SERVICES -d');
  const range = await s.connection.sendRequest(SemanticTokensRangeRequest.type, {
    textDocument: { uri },
    range: { start: { line: at, character: 0 }, end: { line: at, character: 200 } },
  });
  assert.ok(decodeTokens(range!.data, lines).some((t) => t.text === seed.svcChain && t.mods.includes('kubeService')));
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test('an ipvsadm listing above the full-request limit is coloured by ranges only, and a range holds its own lines', async () => {
  const uri = 'file:///work/huge.ipvs';
  const lines = ['IP Virtual Server version 1.2.1 (size=4096)', 'Prot LocalAddress:Port Scheduler Flags'];
  lines.push('  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn');
  for (let i = 0; lines.length <= FULL_TOKENS_MAX_LINES; i++) {
    lines.push(
      `TCP  10.96.${i >> 8}.${i & 255}:80 rr`,
      `  -> 10.244.${i >> 8}.${i & 255}:8080    Masq    1      0          0`,
    );
  }
  await s.open(uri, 'ipvs', lines.join('\n'));
  assert.equal(await s.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } }), null);
  const at = lines.length - 2;
  const range = await s.connection.sendRequest(SemanticTokensRangeRequest.type, {
    textDocument: { uri },
    range: { start: { line: at, character: 0 }, end: { line: at + 1, character: 200 } },
  });
  const tokens = decodeTokens(range!.data, lines);
  assert.deepEqual(
    tokens.filter((t) => t.type === 'variable').map((t) => [t.line, t.text]),
    [
      [at, lines[at].slice(5, lines[at].indexOf(':'))],
      [at + 1, lines[at + 1].slice(5, lines[at + 1].indexOf(':'))],
    ],
  );
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test('a dump of millions of characters reaches its worker in parts, whole: answers after the parts are on their lines', async () => {
  const uri = 'file:///work/parts.iptables';
  // Comments between the declarations and the rules, two-byte text with an emoji whose halves straddle the first
  // boundary between parts: a part lost, doubled or joined with anything between would move the rules.
  const filler = (i: number) => `# 😀 filler ${String(i).padStart(7, '0')} ${'-'.repeat(40)}`;
  const lineLength = filler(0).length + 1;
  const firstRule = seed.lineOf('-A PREROUTING');
  const before = seed.lines.slice(0, firstRule).join('\n').length + 1;
  // The emoji's first half is the last character of the first part.
  const pad = (((TEXT_PART_CHARS - 1 - 2 - before - 3) % lineLength) + lineLength) % lineLength;
  const fillers = ['# ' + 'x'.repeat(pad), ...Array.from({ length: 60_000 }, (_, i) => filler(i))];
  const lines = [...seed.lines.slice(0, firstRule), ...fillers, ...seed.lines.slice(firstRule)];
  const text = lines.join('\n');
  assert.ok(text.length > 3 * TEXT_PART_CHARS);
  assert.equal(text.charCodeAt(TEXT_PART_CHARS - 1), '😀'.charCodeAt(0));
  const ask = async (jump: number) => {
    const character = lines[jump].indexOf(seed.svcChain) + 1;
    const h = await s.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: jump, character },
    });
    assert.match(hoverText(h), /load-balancing chain of Service \*\*default\/kubernetes:https\*\*/);
    assert.deepEqual(h!.range!.start, { line: jump, character: character - 1 });
    const def = await s.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri },
      position: { line: jump, character },
    });
    const loc = Array.isArray(def) ? def[0] : def;
    assert.ok(loc && 'range' in loc);
    assert.equal(loc.range.start.line, seed.lineOf(`:${seed.svcChain}`));
  };
  await s.open(uri, 'iptables', text);
  try {
    await ask(firstRule + fillers.length + seed.lineOf('-A KUBE-SERVICES -d') - firstRule);
    // An edit: the new version goes over in parts again, to a worker of its own.
    fillers.push(filler(fillers.length));
    lines.splice(firstRule, 0, fillers[fillers.length - 1]);
    await s.change(uri, 2, lines.join('\n'));
    await ask(firstRule + fillers.length + seed.lineOf('-A KUBE-SERVICES -d') - firstRule);
  } finally {
    await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }
});

test("a big dump's first diagnostics are its parse problems, then the whole set replaces them; an edit publishes the whole set only", async () => {
  const uri = 'file:///work/parse-then-lint.iptables';
  // Over a million characters (a big document): a parse problem (the text line) and a lint finding (the jump to
  // a chain nobody declared) after the filler.
  const filler = Array.from(
    { length: 12_000 },
    (_, i) =>
      `-A KUBE-SERVICES -s 10.1.${i >> 8}.${i & 255}/32 -m comment --comment "filler ${'-'.repeat(40)}" -j RETURN`,
  );
  const lines = [
    '*nat',
    ':PREROUTING ACCEPT [0:0]',
    ':KUBE-SERVICES - [0:0]',
    ...filler,
    '-A PREROUTING -j KUBE-SERVICES',
    '-A PREROUTING -j KUBE-NOWHERE',
    'garbage line here',
    'COMMIT',
  ];
  const text = lines.join('\n');
  assert.ok(text.length > 1_000_000);
  const codes = (p: { diagnostics: { code?: number | string; range: { start: { line: number } } }[] }) =>
    p.diagnostics.map((d) => `${d.code}@${d.range.start.line}`);
  const garbage = lines.indexOf('garbage line here');
  const nowhere = lines.indexOf('-A PREROUTING -j KUBE-NOWHERE');
  const first = await s.open(uri, 'iptables', text);
  try {
    assert.deepEqual(codes(first), [`text-line@${garbage}`]);
    const whole = await s.waitDiagnostics(uri);
    assert.equal(whole.version, 1);
    assert.deepEqual(codes(whole), [`undefined-chain@${nowhere}`, `text-line@${garbage}`]);
    // An edit (the jump moves down a line): its analysis publishes once, the whole set.
    const published: string[][] = [];
    const seen = s.waitDiagnostics(uri, (p) => (published.push(codes(p)), p.version === 2));
    lines.splice(3, 0, '# one more line');
    s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: lines.join('\n') }],
    });
    await seen;
    assert.deepEqual(published, [[`undefined-chain@${nowhere + 1}`, `text-line@${garbage + 1}`]]);
  } finally {
    await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }
});

test('trace request: three DNAT paths of 1/3 each, with lines to highlight', async () => {
  const r = await s.connection.sendRequest(TracePacketRequest, { uri: URI, src: '10.244.1.5', dst: '172.16.0.1:443' });
  assert.equal(r.paths.length, 3);
  assert.deepEqual(r.paths.map((p) => `${p.dnat?.ip}:${p.dnat?.port}`).sort(), [
    '10.0.1.11:6443',
    '10.0.1.12:6443',
    '10.0.1.13:6443',
  ]);
  for (const p of r.paths) assert.ok(Math.abs(p.probability - 1 / 3) < 1e-9);
  assert.ok(r.matchedLines.includes(seed.lineOf('-A KUBE-SERVICES -d')));
  const targets = await s.connection.sendRequest(ListTargetsRequest, { uri: URI });
  assert.deepEqual(
    targets.map((t) => t.destination),
    ['172.16.0.1:443'],
  );
  await assert.rejects(
    s.connection.sendRequest(TracePacketRequest, { uri: URI, src: 'not-an-ip', dst: '172.16.0.1:443' }),
    /not an IP address/,
  );
});

test('trace request on a Service with 600 endpoints: common steps come once, each path from where it leaves them', async () => {
  const uri = 'file:///work/ladder-600.iptables';
  const snapshot = normaliseCluster(syntheticCluster({ services: 1, endpointsPerService: 600 }));
  const text = generateIptablesRestore(snapshot, { clusterCidr: '10.128.0.0/9', largeClusterMode: false }).text;
  await s.open(uri, 'iptables', text);
  const r = await s.connection.sendRequest(TracePacketRequest, {
    uri,
    src: '10.250.0.5',
    dst: '10.96.0.1:80',
    localAddresses: ['192.168.0.2'],
  });
  assert.equal(r.paths.length, 600);
  assert.equal(r.truncated, undefined);
  assert.ok(Math.abs(r.paths.reduce((a, p) => a + p.probability, 0) - 1) < 1e-9);
  const shared = r.sharedSteps ?? [];
  assert.ok(shared.length > 0 && shared.every((x, i) => x.parent < i));
  // Each path carries only its own steps; the shared ones rebuild its walk from PREROUTING.
  assert.ok(
    r.paths.every((p) => p.steps.length < 30),
    'own steps are bounded',
  );
  const last = r.paths[599];
  const walk: { chain: string; skipped?: { count: number } }[] = [];
  for (let i = last.prefix ?? -1; i >= 0; i = shared[i].parent) walk.push(shared[i]);
  walk.reverse().push(...last.steps);
  assert.equal(walk[0].chain, 'PREROUTING');
  const skip = walk.find((x) => x.skipped);
  assert.equal(skip?.skipped?.count, 599);
  // Every rule of the ladder is highlighted once, and the summary names a few targets, not 600.
  const ladder = text.split('\n').flatMap((l, i) => (/-m statistic --mode random/.test(l) ? [i] : []));
  assert.equal(ladder.length, 599);
  assert.ok(ladder.every((l) => r.matchedLines.includes(l)));
  assert.equal(new Set(r.matchedLines).size, r.matchedLines.length);
  assert.ok(r.summary.length < 300, r.summary);
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test('diagnostics with codes; a broken edit becomes diagnostics and the server keeps answering', async () => {
  const broken = `${seed.text}\n-A KUBE-SERVICES -j NOWHERE\n-A\n*filter\n-A INPUT -m\n`;
  const d = await s.change(URI, 2, broken);
  const codes = d.diagnostics.map((x) => x.code);
  assert.ok(codes.includes('undefined-chain') || codes.includes('missing-chain-name'), codes.join());
  assert.ok(codes.includes('missing-module-name'));
  assert.ok(codes.includes('missing-commit'));
  const h = await s.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: URI },
    position: pos('0.5000000000'),
  });
  assert.match(hoverText(h), /Rule 2 of 3/);
  await s.change(URI, 3, '\u0000\u0001 garbage "unterminated\n[1:2] -A\n:\n*\n');
  const again = await s.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: URI },
    position: { line: 0, character: 0 },
  });
  assert.ok(again === null || typeof again === 'object');
  assert.equal(s.process.exitCode, null, 'server still running');
  await s.change(URI, 4, seed.text);
});

test('document symbols of a large cluster list per-Service chains under Services only', async () => {
  const uri = 'file:///work/large.iptables';
  const snapshot = normaliseCluster(syntheticCluster({ services: 300, endpointsPerService: 3 }));
  await s.open(uri, 'iptables', generateIptablesRestore(snapshot, { clusterCidr: '10.0.0.0/8' }).text);
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri },
  })) as DocumentSymbol[];
  const nat = symbols.find((x) => x.name === '*nat')!;
  assert.ok(nat.children!.some((c) => c.name === 'KUBE-SERVICES'));
  assert.ok(
    !nat.children!.some((c) => /^KUBE-(?:SVC|SEP)-/.test(c.name)),
    'hashed chains are not listed under the table',
  );
  assert.match(nat.detail ?? '', /^\d+ Service and endpoint chains under Services$/);
  const services = symbols.find((x) => x.name === 'Services')!;
  assert.equal(services.children!.length, 300);
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test('workspace symbols find chains and Services across open dumps', async () => {
  const other = 'file:///work/web.iptables';
  await s.open(other, 'iptables', seedDump(['10.244.2.2:8080'], 'default/web:http', '172.16.5.5', 80).text);
  const found = await s.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'default/' });
  const names = (found ?? []).map((x) => x.name).sort();
  assert.deepEqual(names, ['default/kubernetes:https', 'default/web:http']);
});

test('an nft list ruleset opened as iptables: symbols by Service, definition of a jump, tokens in order on their lines', async () => {
  const uri = 'file:///work/ruleset.nft';
  const lines = NFT_RULESET.split('\n');
  const diagnostics = await s.open(uri, 'iptables', NFT_RULESET);
  assert.deepEqual(
    diagnostics.diagnostics.filter((d) => d.severity === 1),
    [],
  );
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri },
  })) as DocumentSymbol[];
  const dns = symbols.find((x) => x.name === 'Services')?.children?.find((c) => c.name === 'kube-system/kube-dns');
  assert.deepEqual(
    dns?.children?.map((p) => [p.name, p.children?.map((e) => e.name).sort()]),
    [['dns', ['10.244.0.2:53', '10.244.0.3:53']]],
  );
  const jump = lines.findIndex((l) => l.includes('jump KUBE-SVC-TCOU7JCQXEZGVUNU comment'));
  const def = await s.connection.sendRequest(DefinitionRequest.type, {
    textDocument: { uri },
    position: { line: jump, character: lines[jump].indexOf('KUBE-SVC-') + 3 },
  });
  const loc = Array.isArray(def) ? def[0] : def;
  assert.ok(loc && 'range' in loc);
  assert.equal(
    loc.range.start.line,
    lines.findIndex((l) => l.includes('chain KUBE-SVC-TCOU7JCQXEZGVUNU {')),
  );
  const full = await s.connection.sendRequest(SemanticTokensRangeRequest.type, {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
  });
  const tokens = decodeTokens(full!.data, lines);
  assert.ok(tokens.some((t) => t.line === jump && t.text === 'KUBE-SVC-TCOU7JCQXEZGVUNU'));
  // Every token is a word of its line (the relative encoding would drift if one overlapped or went backwards).
  for (const t of tokens) assert.match(t.text, /^\S+$/, JSON.stringify(t));
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test('IPVS dumps: hover and symbols', async () => {
  const uri = 'file:///work/ipvs.ipvs';
  const text =
    'IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\nTCP  172.16.0.1:443 rr\n  -> 10.0.1.11:6443             Masq    1      0          0\n  -> 10.0.1.12:6443             Masq    0      0          0\n';
  await s.open(uri, 'ipvs', text);
  const h = await s.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri },
    position: { line: 3, character: 21 },
  });
  assert.match(hoverText(h), /round.robin/i);
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri },
  })) as DocumentSymbol[];
  assert.equal(symbols[0].children!.length, 2);
});

test('IPVS trace: direct routing keeps the VIP and names the real server; only Masq is a DNAT', async () => {
  const uri = 'file:///work/ipvs-dr.ipvs';
  const text =
    'Prot LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\nTCP  172.16.0.20:80 rr\n  -> 10.0.1.21:80               Route   1      0          0\n  -> 10.0.1.22:8080             Masq    1      0          0\n';
  await s.open(uri, 'ipvs', text);
  const r = await s.connection.sendRequest(TracePacketRequest, { uri, src: '10.244.1.5', dst: '172.16.0.20:80' });
  assert.deepEqual(
    r.paths.map((p) => [p.dnat, p.forward ?? null]),
    [
      [null, { ip: '10.0.1.21', port: 80, method: 'Route' }],
      [{ ip: '10.0.1.22', port: 8080 }, null],
    ],
  );
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test('a dual-stack nft ruleset: each family is traced through its own tables, whichever the outline shows', async () => {
  const uri = 'file:///work/dual-stack.nft';
  // Published: the note on the ip6 table, and a fault in it found by the ip6 reading (a jump to a missing chain).
  const broken = DUAL_STACK_NFT.replace('jump KUBE-SEP-WEB6A comment', 'jump KUBE-SEP-GONE6 comment').replace(
    '\t\tip6 daddr fd00:96::5 tcp dport 80',
    '\t\tip6 daddr fd00:96::6 tcp dport 80 counter packets 0 bytes 0 jump KUBE-SVC-WEB6\n\t\tip6 daddr fd00:96::5 tcp dport 80',
  );
  const published = await s.open('file:///work/dual-stack-broken.nft', 'iptables', broken);
  const said = published.diagnostics.map((d) => `${d.range.start.line} ${d.code}`);
  assert.ok(said.includes('0 nft-table-skipped'), said.join(', '));
  assert.ok(
    said.includes(`${broken.split('\n').findIndex((l) => l.includes('KUBE-SEP-GONE6'))} undefined-chain`),
    said.join(', '),
  );
  // The rules of a chain fold in each family: the broken copy's ip6 KUBE-SERVICES has two rules, as ip's has (a line lower).
  const folds = await s.connection.sendRequest(FoldingRangeRequest.type, {
    textDocument: { uri: 'file:///work/dual-stack-broken.nft' },
  });
  assert.deepEqual(
    (folds ?? []).map((f) => `${f.startLine}-${f.endLine}`),
    ['6-7', '22-23'],
  );
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, {
    textDocument: { uri: 'file:///work/dual-stack-broken.nft' },
  });
  // An inet table (firewalld's, say) is read with either family: its lines are answered once, not once per reading.
  const withInet = `${DUAL_STACK_NFT}table inet firewalld {\n\tchain filter_INPUT {\n\t\ttype filter hook input priority filter + 10; policy accept;\n\t\tct state established,related counter packets 8 bytes 640 accept\n\t\tiifname "lo" counter packets 3 bytes 180 accept\n\t}\n}\n`;
  const inetUri = 'file:///work/dual-stack-inet.nft';
  await s.open(inetUri, 'iptables', withInet);
  const inetLine = withInet.split('\n').findIndex((l) => l.includes('ct state established'));
  const inetFolds = await s.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: inetUri } });
  assert.equal((inetFolds ?? []).filter((f) => f.startLine === inetLine).length, 1, JSON.stringify(inetFolds));
  const inetSymbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri: inetUri },
  })) as DocumentSymbol[];
  const inetTable = withInet.split('\n').findIndex((l) => l.startsWith('table inet firewalld'));
  const inetTables = inetSymbols.filter((sym) => sym.range.start.line === inetTable);
  // Each family's Services group, the ip6 one too though its reading ends in the inet table.
  assert.equal(inetSymbols.filter((sym) => sym.name === 'Services').length, 2, JSON.stringify(inetSymbols));
  assert.equal(inetTables.length, 1, JSON.stringify(inetSymbols.map((sym) => [sym.name, sym.range.start.line])));
  const inetFound = await s.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'filter_INPUT' });
  assert.deepEqual(
    (inetFound ?? []).filter((x) => x.location.uri === inetUri).map((x) => (x.location as Location).range.start.line),
    [inetLine - 2],
  );
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: inetUri } });
  await s.open(uri, 'iptables', DUAL_STACK_NFT);
  // The picker offers the Services of both families, the family read first, each at its own table's rule (0-based).
  const targets = await s.connection.sendRequest(ListTargetsRequest, { uri });
  assert.deepEqual(
    targets.map((t) => `${t.name} ${t.destination} ${t.protocol} ${t.line}`),
    [
      'default/web:http 10.96.5.5:80 tcp 21',
      'kube-system/kube-dns:dns 10.96.0.10:53 udp 22',
      'default/web:http [fd00:96::5]:80 tcp 6',
    ],
  );
  const v6 = await s.connection.sendRequest(TracePacketRequest, { uri, src: 'fd00:244:2::3', dst: '[fd00:96::5]:80' });
  assert.deepEqual(
    v6.paths.map((p) => p.dnat),
    [{ ip: 'fd00:244:1::7', port: 8080 }],
  );
  // Its steps point at the ip6 table's lines of the document.
  assert.deepEqual(
    v6.matchedLines.slice().sort((a, b) => a - b),
    [3, 6, 9, 12],
  );
  // A hover, a definition and the inlay hints on the ip6 table's lines answer from that table, as on the ip table's.
  const lines = DUAL_STACK_NFT.split('\n');
  const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle));
  const v6Rule = lineOf('ip6 daddr fd00:96::5');
  const onV6 = await s.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri },
    position: { line: v6Rule, character: lines[v6Rule].indexOf('fd00:96::5') + 2 },
  });
  assert.match(hoverText(onV6), /TCP to \[fd00:96::5\]:80 \(Service \*\*default\/web\*\*, port http\)/);
  const jumpTo = await s.connection.sendRequest(DefinitionRequest.type, {
    textDocument: { uri },
    position: { line: v6Rule, character: lines[v6Rule].indexOf('KUBE-SVC-WEB6') + 3 },
  });
  assert.deepEqual(
    [jumpTo].flat().map((l) => (l && 'range' in l ? l.range.start.line : -1)),
    [lineOf('chain KUBE-SVC-WEB6')],
  );
  const hints = await s.connection.sendRequest(InlayHintRequest.type, {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
  });
  const hinted = new Set((hints ?? []).map((h) => h.position.line));
  assert.ok(
    hinted.has(lineOf('jump KUBE-SEP-WEB6A')) && hinted.has(lineOf('jump KUBE-SEP-WEB4A')),
    JSON.stringify(hints),
  );
  // The outline lists each family's table and Services, the IPv6 address in brackets before its port.
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri },
  })) as DocumentSymbol[];
  const servicePorts = symbols
    .filter((sym) => sym.name === 'Services')
    .flatMap((sym) => sym.children ?? [])
    .flatMap((svc) => (svc.children ?? []).map((port) => `${svc.name} ${port.detail}`));
  assert.deepEqual(servicePorts.sort(), [
    'default/web TCP 10.96.5.5:80 · 1 endpoint',
    'default/web TCP [fd00:96::5]:80 · 1 endpoint',
    'kube-system/kube-dns UDP 10.96.0.10:53 · 1 endpoint',
  ]);
  // Both families' jump targets are coloured, in document order (LSP's relative encoding has no step back).
  const tokens = await s.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
  const coloured = new Set<number>();
  let tokenLine = 0;
  for (let i = 0; i < (tokens?.data.length ?? 0); i += 5) {
    assert.ok(tokens!.data[i] >= 0, 'tokens in document order');
    coloured.add((tokenLine += tokens!.data[i]));
  }
  assert.ok(
    coloured.has(lineOf('jump KUBE-SVC-WEB6 comment')) && coloured.has(lineOf('jump KUBE-SVC-WEB4 comment')),
    [...coloured].join(', '),
  );
  // Each family's Service rules get their code lens.
  const lenses = await s.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  const lensed = new Set((lenses ?? []).map((l) => l.range.start.line));
  assert.ok(lensed.has(v6Rule) && lensed.has(lineOf('ip daddr 10.96.5.5')), JSON.stringify(lenses));
  // Workspace symbols find the chains and Services of both families' tables.
  const found = await s.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'web' });
  assert.deepEqual(
    (found ?? [])
      .filter((x) => x.location.uri === uri)
      .map((x) => `${x.name} ${(x.location as Location).range.start.line}`)
      .sort(),
    [
      'KUBE-SEP-WEB4A 27',
      'KUBE-SEP-WEB6A 11',
      'KUBE-SVC-WEB4 24',
      'KUBE-SVC-WEB6 8',
      'default/web:http 21',
      'default/web:http 6',
    ],
  );
  const v4 = await s.connection.sendRequest(TracePacketRequest, { uri, src: '10.244.2.3', dst: '10.96.5.5:80' });
  assert.deepEqual(
    v4.paths.map((p) => p.dnat),
    [{ ip: '10.244.1.7', port: 8080 }],
  );
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test("a session paste opened as iptables: each tool's lines are read by its engine, none flagged as foreign", async () => {
  const uri = 'file:///work/session.iptables';
  const text = SESSION_PASTE;
  const published = await s.open(uri, 'iptables', text);
  assert.deepEqual(
    published.diagnostics.filter((d) => d.severity !== 4 && d.severity !== 3),
    [],
    JSON.stringify(published.diagnostics),
  );
  const onRule = await s.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri },
    position: { line: 3, character: 120 },
  });
  assert.match(hoverText(onRule), /KUBE-SVC-NPX46M4PTMTKRN6Y|kubernetes/);
  const onVip = await s.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri },
    position: { line: 7, character: 8 },
  });
  assert.match(hoverText(onVip), /172\.16\.0\.10/);
  const viaIpvs = await s.connection.sendRequest(TracePacketRequest, {
    uri,
    src: '10.244.1.5',
    dst: '172.16.0.10:53',
    proto: 'tcp',
  });
  assert.deepEqual(
    viaIpvs.paths.map((p) => p.dnat),
    [{ ip: '10.244.0.5', port: 53 }],
  );
  const viaRules = await s.connection.sendRequest(TracePacketRequest, {
    uri,
    src: '10.244.1.5',
    dst: '172.16.0.1:443',
  });
  assert.deepEqual(
    viaRules.paths.map((p) => p.dnat),
    [{ ip: '192.168.100.10', port: 6443 }],
  );
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test('the corpus kube-proxy fixture opens with verified Services', async (t) => {
  const text = corpusFile('iptables', '091');
  if (!text) return t.skip(CORPUS_MISSING);
  const uri = 'file:///work/fixture.iptables';
  const d = await s.open(uri, 'iptables', text);
  assert.ok(!d.diagnostics.some((x) => x.severity === 1), 'no errors');
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri },
  })) as DocumentSymbol[];
  assert.equal(symbols.find((x) => x.name === 'Services')!.children!.length, 6);
});

test("kube-proxy's nftables mode: the call hierarchy follows verdict maps, named (`vmap @service-ips`) and inline (numgen)", async () => {
  const text = readFileSync(path.join(repoRoot(), 'samples', 'kube-proxy-nftables.nft'), 'utf8');
  const uri = 'file:///work/kube-proxy-calls.nft';
  const lines = text.split('\n');
  await s.open(uri, 'iptables', text);
  const itemOf = async (chain: string) => {
    const line = lines.findIndex((l) => l.trim() === `chain ${chain} {`);
    const items = await s.connection.sendRequest(CallHierarchyPrepareRequest.type, {
      textDocument: { uri },
      position: { line, character: lines[line].indexOf(chain) + 2 },
    });
    assert.equal(items?.[0]?.name, chain);
    return items![0];
  };
  const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle));
  const dns = 'service-FY5PMXPG-kube-system/kube-dns/udp/dns';
  // The Service chain is called from `services` through the service-ips map: the rule that looks the map up.
  const incoming = await s.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: await itemOf(dns) });
  assert.deepEqual(
    incoming?.map((c) => [c.from.name, c.fromRanges.map((r) => r.start.line)]),
    [['services', [lineOf('vmap @service-ips')]]],
  );
  // It jumps to mark-for-masquerade, and goes to its two endpoint chains through its numgen rule (they were missing).
  const outgoing = await s.connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, { item: await itemOf(dns) });
  const numgenLine = lineOf('0 : goto endpoint-2GKX576Q');
  assert.deepEqual(
    outgoing?.map((c) => [c.to.name, c.fromRanges.map((r) => r.start.line)]),
    [
      ['mark-for-masquerade', [numgenLine - 1]],
      ['endpoint-2GKX576Q-kube-system/kube-dns/udp/dns__10.244.0.2/53', [numgenLine]],
      ['endpoint-SHKW4FT7-kube-system/kube-dns/udp/dns__10.244.0.3/53', [numgenLine]],
    ],
  );
  // `services` calls every Service chain the two maps go to, each from the rule that looks its map up.
  const fromServices = await s.connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, {
    item: await itemOf('services'),
  });
  const dnsCall = fromServices?.find((c) => c.to.name === dns);
  assert.deepEqual(
    dnsCall?.fromRanges.map((r) => r.start.line),
    [lineOf('vmap @service-ips')],
  );
  assert.ok(fromServices!.length >= 3, `services calls the Service chains: ${fromServices?.map((c) => c.to.name)}`);
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});

test("kube-proxy's nftables mode: references of a Service chain are its map elements, of an endpoint chain the numgen rule", async () => {
  const text = readFileSync(path.join(repoRoot(), 'samples', 'kube-proxy-nftables.nft'), 'utf8');
  const uri = 'file:///work/kube-proxy.nft';
  const lines = text.split('\n');
  await s.open(uri, 'iptables', text);
  const references = async (line: number, word: string) => {
    const character = lines[line].indexOf(word) + 2;
    return (
      (await s.connection.sendRequest(ReferencesRequest.type, {
        textDocument: { uri },
        position: { line, character },
        context: { includeDeclaration: false },
      })) ?? []
    );
  };
  const dns = 'service-FY5PMXPG-kube-system/kube-dns/udp/dns';
  const svcRefs = await references(
    lines.findIndex((l) => l.trim() === `chain ${dns} {`),
    dns,
  );
  assert.deepEqual(
    svcRefs.map((r) => r.range.start.line),
    [lines.findIndex((l) => l.includes(`: goto ${dns}`) && l.includes('10.96.0.10'))],
  );
  const endpoint = 'endpoint-2GKX576Q-kube-system/kube-dns/udp/dns__10.244.0.2/53';
  const epRefs = await references(
    lines.findIndex((l) => l.trim() === `chain ${endpoint} {`),
    endpoint,
  );
  assert.deepEqual(
    epRefs.map((r) => r.range.start.line),
    [lines.findIndex((l) => l.includes('numgen') && l.includes(endpoint))],
  );
  await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
});
