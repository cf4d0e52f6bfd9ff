/**
 * kube-proxy logs the iptables-restore input it applies (`"Restoring iptables" rules=...`), and people paste that
 * log into tickets. The input must read as the dump it is, in each form kube-proxy's versions and logging formats
 * write it, with every position pointing into the log as pasted.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf, type Analysis } from '../../../src/core/analyze';
import type { Span } from '../../../src/core/common/diagnostics';
import { mayCarryRestoreInput } from '../../../src/core/common/kubeProxyLog';
import { certaintyOf, detectDump } from '../../../src/core/detect';
import { documentDiagnostic, documentTrace } from '../../../src/core/documentPositions';
import { tracePacket } from '../../../src/core/iptables/trace';
import { corpusFiles, CORPUS_MISSING } from '../../helpers/corpus';
import { CART, KUBE_DNS } from '../../helpers/kubeProxyLogs';
import { kubeProxyDump } from '../trace/helpers';

/** One line as kube-proxy 1.28 logs it at -v=9 (klog, a byte slice printed with %+q), written out by hand. */
const V9_LINE =
  'I1206 10:00:01.123456       1 proxier.go:1538] "Restoring iptables" rules="*filter\\n:KUBE-SERVICES - [0:0]\\n' +
  ':KUBE-FORWARD - [0:0]\\n-A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP\\nCOMMIT\\n*nat\\n' +
  ':KUBE-SERVICES - [0:0]\\n:KUBE-SVC-NPX46M4PTMTKRN6Y - [0:0]\\n:KUBE-SEP-V2PECCYPB6X2GSCW - [0:0]\\n' +
  '-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment \\"default/kubernetes:https cluster IP\\" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y\\n' +
  '-A KUBE-SVC-NPX46M4PTMTKRN6Y -m comment --comment \\"default/kubernetes:https -> 172.18.0.2:6443\\" -j KUBE-SEP-V2PECCYPB6X2GSCW\\n' +
  '-A KUBE-SEP-V2PECCYPB6X2GSCW -p tcp -m comment --comment \\"default/kubernetes:https\\" -m tcp -j DNAT --to-destination 172.18.0.2:6443\\n' +
  'COMMIT\\n"';
const V9_LOG = [
  'I1206 10:00:01.101234       1 proxier.go:805] "Syncing iptables rules"',
  'I1206 10:00:01.118802       1 proxier.go:1507] "Reloading service iptables data" numServices=1 numEndpoints=1 numFilterChains=2 numFilterRules=1 numNATChains=3 numNATRules=3',
  V9_LINE,
  'I1206 10:00:01.140211       1 proxier.go:826] "SyncProxyRules complete" elapsed="39.1ms"',
  '',
].join('\n');

/** The text of a span: the engine's lines are the log's unless `positions` maps them. */
function spanText(a: Analysis, text: string, s: Span): string {
  const d = documentDiagnostic(a, { span: s, severity: 'info', code: '', message: '' }).span;
  return text.split('\n')[d.line].slice(d.column, d.column + d.length);
}

test('a klog line carrying the restore input escaped is read as the dump, every position inside the log line', () => {
  assert.equal(certaintyOf(detectDump(V9_LOG)), 'sure');
  const a = analyzeText(V9_LOG);
  assert.equal(a.detection.kind, 'iptables');
  const dump = a.iptables!.dump;
  assert.deepEqual(
    dump.tables.map((t) => [t.name, t.chains.size]),
    [
      ['filter', 2],
      ['nat', 3],
    ],
  );
  const [svc] = a.iptables!.kube.services;
  assert.equal(svc.name, 'default/kubernetes:https');
  assert.equal(svc.hashVerified, true);
  assert.deepEqual(
    svc.endpoints.map((e) => `${e.ip}:${e.port}`),
    ['172.18.0.2:6443'],
  );
  // The note that says what was read and the lint findings are all on the log line that carried the input.
  const found = diagnosticsOf(a, 'en').map((d) => documentDiagnostic(a, d));
  assert.deepEqual(
    dump.diagnostics.map((d) => d.code),
    ['kube-proxy-log'],
  );
  assert.ok(found.every((d) => d.span.line === 2 && d.severity !== 'error'));
  // Each rule's span is its text in the log line, escapes and all.
  for (const r of dump.rules) assert.ok(V9_LINE.includes(spanText(a, V9_LOG, r.span)), r.text);
  assert.equal(
    spanText(a, V9_LOG, dump.rules[1].span),
    '-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment \\"default/kubernetes:https cluster IP\\" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y',
  );
  // A trace's steps are on the log line too.
  const traced = tracePacket(dump, { src: '10.244.1.5', dst: '10.96.0.1', dport: 443, proto: 'tcp', hook: 'output' });
  const steps = documentTrace(a, traced).paths[0].steps;
  assert.ok(steps.length >= 3);
  for (const s of steps) if (s.line >= 0) assert.equal(s.line, 2, s.rule);
  assert.equal(traced.paths[0].dnat?.ip, '172.18.0.2');
});

test('every position of the escaped form maps into the log and back', () => {
  const a = analyzeText(V9_LOG);
  const map = a.positions!;
  const engineLines = map.engineText.split('\n');
  for (let line = 0; line < engineLines.length; line++)
    for (let column = 0; column <= engineLines[line].length; column++) {
      const there = map.toOriginal(line, column);
      assert.deepEqual(map.toEngine(there.line, there.column), { line, column }, `${line}:${column}`);
    }
});

const SERVICES = [KUBE_DNS, CART, { ns: 'shop', name: 'checkout', clusterIP: '10.96.14.30', port: 80, endpoints: [] }];

const before = 'I1206 10:00:01.101234       1 proxier.go:805] "Syncing iptables rules"';
const after = 'I1206 10:00:01.140211       1 proxier.go:826] "SyncProxyRules complete" elapsed="39.1ms"';
/** The forms kube-proxy's releases log the input in (Go's quoting of ASCII text is JSON's). */
const FORMS: [string, (dump: string) => string, (line: string) => string][] = [
  [
    'klog Infof (<= 1.20)',
    (d) => [before, `I1206 10:00:01.123456       1 proxier.go:1456] Restoring iptables rules: ${d}`, after].join('\n'),
    (l) => l,
  ],
  [
    'klog structured, multi-line (klog >= 2.60)',
    (d) =>
      [
        before,
        'I1206 10:00:01.123456       1 proxier.go:1538] "Restoring iptables" rules=<',
        ...d
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `\t${l}`),
        ' >',
        after,
      ].join('\n'),
    (l) => l,
  ],
  [
    'klog structured, quoted (-v=9)',
    (d) =>
      [
        before,
        `I1206 10:00:01.123456       1 proxier.go:1538] "Restoring iptables" rules=${JSON.stringify(d)}`,
        after,
      ].join('\n'),
    (l) => JSON.stringify(l).slice(1, -1),
  ],
  [
    'JSON logging',
    (d) =>
      [
        JSON.stringify({
          ts: 1765015201101.234,
          caller: 'iptables/proxier.go:805',
          msg: 'Syncing iptables rules',
          v: 2,
        }),
        JSON.stringify({
          ts: 1765015201123.456,
          caller: 'iptables/proxier.go:1538',
          msg: 'Restoring iptables',
          v: 5,
          rules: d,
        }),
      ].join('\n'),
    (l) => JSON.stringify(l).slice(1, -1),
  ],
  [
    'JSON logging formatted by jq (a blank after each colon, a member a line)',
    (d) =>
      [
        { ts: 1765015201101.234, caller: 'iptables/proxier.go:805', msg: 'Syncing iptables rules', v: 2 },
        { ts: 1765015201123.456, caller: 'iptables/proxier.go:1538', msg: 'Restoring iptables', v: 5, rules: d },
      ]
        .map((entry) => JSON.stringify(entry, null, 2))
        .join('\n'),
    (l) => JSON.stringify(l).slice(1, -1),
  ],
];

/** What a dump reads as, spans as the text they cover (escaped as `escape` writes them). */
function reading(text: string, escape: (line: string) => string = (l) => l) {
  const a = analyzeText(text);
  const dump = a.iptables!.dump;
  return {
    tables: dump.tables.map((t) => [t.name, t.chains.size]),
    rules: dump.rules.map((r) => [r.chain, r.target?.name, escape(spanText(a, text, r.span))]),
    services: a.iptables!.kube.services.map((s) => [s.name, s.hashVerified, s.endpoints.map((e) => e.ip)]),
    diagnostics: diagnosticsOf(a, 'en')
      .filter((d) => d.code !== 'kube-proxy-log')
      .map((d) => [d.code, escape(spanText(a, text, d.span))]),
  };
}

test('the input reads the same in each form kube-proxy logs it, as the dump itself reads', () => {
  const dump = kubeProxyDump(SERVICES);
  for (const [form, wrap, escape] of FORMS) {
    const plain = reading(dump, escape);
    const logged = wrap(dump);
    assert.deepEqual(reading(logged), plain, form);
    assert.equal(detectDump(logged).kind, 'iptables', form);
  }
});

test('a log that may carry an input is told from one that cannot without reading it: each form, and base64', () => {
  const dump = kubeProxyDump(SERVICES);
  for (const [form, wrap] of FORMS) assert.ok(mayCarryRestoreInput(wrap(dump)), form);
  assert.ok(mayCarryRestoreInput([before, base64Line(dump), after].join('\n')));
  // kube-proxy's own lines around a sync, and a kubelet's, do not.
  assert.equal(mayCarryRestoreInput([before, after].join('\n')), false);
  assert.equal(
    mayCarryRestoreInput('I1206 10:00:01.101234    2211 kubelet.go:2448] "SyncLoop ADD" source="api" pods=["a/b"]'),
    false,
  );
});

test('of several syncs logged, the last input is read and the note says how many', () => {
  const first = kubeProxyDump(SERVICES.slice(0, 1));
  const last = kubeProxyDump(SERVICES);
  const quoted = FORMS[2][1];
  const text = `${quoted(first)}\n${quoted(last)}`;
  const a = analyzeText(text);
  assert.equal(a.iptables!.kube.services.length, SERVICES.length);
  const note = diagnosticsOf(a, 'en')
    .map((d) => documentDiagnostic(a, d))
    .find((d) => d.code === 'kube-proxy-log')!;
  assert.equal(note.span.line, 4);
  assert.equal(note.params?.count, 2);
});

test('a long log: the input logged after hundreds of other lines is still read as an iptables dump', () => {
  const chatter = Array.from(
    { length: 600 },
    (_, i) =>
      `I1206 09:${String(10 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000000       1 config.go:${300 + (i % 7)}] "Calling handler.OnEndpointSliceUpdate"`,
  );
  const log = [...chatter, V9_LINE, ''].join('\n');
  const a = analyzeText(log);
  assert.equal(a.detection.kind, 'iptables');
  assert.equal(a.iptables!.kube.services[0].name, 'default/kubernetes:https');
  // The editor's detector (a server request on plain text) decides it too, and only from the whole text.
  assert.equal(detectDump(log).kind, 'iptables');
  assert.equal(detectDump(chatter.join('\n')).kind, 'unknown');
});

test('a JSON log formatted by jq: the input after hundreds of entries, and on one line with a blank after each colon', () => {
  const entry = (i: number) =>
    JSON.stringify(
      { ts: 1765015000 + i, caller: 'config/config.go:336', msg: 'Calling handler.OnEndpointSliceUpdate' },
      null,
      2,
    );
  const dump = kubeProxyDump(SERVICES);
  const restore = {
    ts: 1765015201.123,
    caller: 'iptables/proxier.go:1538',
    msg: 'Restoring iptables',
    v: 5,
    rules: dump,
  };
  const log = [...Array.from({ length: 120 }, (_, i) => entry(i)), JSON.stringify(restore, null, 2), ''].join('\n');
  assert.ok(log.split('\n').length > 600);
  assert.equal(detectDump(log).kind, 'iptables');
  const a = analyzeText(log);
  assert.deepEqual(
    a.iptables!.kube.services.map((s) => s.name),
    reading(dump).services.map(([name]) => name),
  );
  // The note is on the `"rules": "` member, in the log as pasted.
  const note = documentDiagnostic(
    a,
    diagnosticsOf(a, 'en').find((d) => d.code === 'kube-proxy-log')!,
  );
  assert.equal(log.split('\n')[note.span.line].slice(note.span.column, note.span.column + 10), '"rules": "');
  // One line, as Python's or Node's JSON writer spaces it.
  const spaced = JSON.stringify(restore)
    .replace(/":"/g, '": "')
    .replace(/":(\d)/g, '": $1');
  assert.ok(spaced.includes('"rules": "') && !spaced.includes('"rules":"'));
  assert.deepEqual(reading(spaced).services, reading(dump).services);
});

test('an input cut off with the log line (no COMMIT, no closing quote) still counts in its table', () => {
  const dump = kubeProxyDump(SERVICES);
  const cut = dump.slice(0, dump.indexOf('-A KUBE-SEP-') + 30);
  const text = `I1206 10:00:01.123456       1 proxier.go:1538] "Restoring iptables" rules=${JSON.stringify(cut).slice(0, -1)}`;
  const a = analyzeText(text);
  const nat = a.iptables!.dump.tables.find((t) => t.name === 'nat')!;
  assert.ok(nat.chains.size > 5);
  assert.ok(a.iptables!.dump.rules.every((r) => r.line > 0));
  const codes = diagnosticsOf(a, 'en').map((d) => documentDiagnostic(a, d));
  assert.ok(codes.some((d) => d.code === 'missing-commit' && d.params?.table === 'nat' && d.span.line === 0));
});

test('every corpus save dump reads the same logged by kube-proxy (quoted and JSON)', (t) => {
  const files = corpusFiles('iptables').filter((f) => /^\*\w+\s*$/m.test(f.text) && f.text.length < 200_000);
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  for (const f of files) {
    const text = f.text.replace(/\r\n?/g, '\n');
    for (const [form, wrap, escape] of [FORMS[2], FORMS[3]])
      assert.deepEqual(reading(wrap(text)), reading(text, escape), `${f.name} ${form}`);
  }
});

test('a log line cut right after a backslash keeps every later line where the log has it', () => {
  const cut = V9_LINE.slice(0, V9_LINE.indexOf('\\n:KUBE-FORWARD') + 1); // ends in the backslash of an escape
  const log = [cut, 'I1206 10:00:02.000001       1 proxier.go:826] "SyncProxyRules complete"', ''].join('\n');
  const map = analyzeText(log).positions!;
  const engineLines = map.engineText.split('\n');
  // The cut input is two engine lines (`*filter`, `:KUBE-SERVICES ...`) of the log's first; the next log lines follow.
  assert.equal(engineLines.length, 4);
  assert.deepEqual(
    engineLines.map((_, line) => map.toOriginal(line, 0).line),
    [0, 0, 1, 2],
  );
  assert.match(engineLines[1], /^:KUBE-SERVICES - \[0:0\]\\$/);
});

/** One JSON log line as zap writes a byte slice: the input in base64. */
function base64Line(dump: string): string {
  return JSON.stringify({
    ts: 1765015201123.456,
    caller: 'iptables/proxier.go:1538',
    msg: 'Restoring iptables',
    v: 9,
    rules: Buffer.from(dump, 'utf8').toString('base64'),
  });
}

/** What a dump reads as, without the span texts (base64 cannot be compared with the text it encodes). */
function readingWithoutSpans(text: string) {
  const r = reading(text);
  return {
    ...r,
    rules: r.rules.map(([chain, target]) => [chain, target]),
    diagnostics: r.diagnostics.map(([code]) => code),
  };
}

test('JSON logging of the input as bytes (base64, as zap writes them) reads as the dump, every position in the log line', () => {
  // A comment beyond ASCII: its UTF-8 bytes are one character each, and the positions after it stay right.
  const dump = kubeProxyDump(SERVICES).replace(
    '-A KUBE-FORWARD',
    '-A KUBE-FORWARD -m comment --comment "转发 ✓ déjà" -j ACCEPT\n-A KUBE-FORWARD',
  );
  assert.notEqual(dump, kubeProxyDump(SERVICES));
  const line = base64Line(dump);
  const log = [before, line, after, ''].join('\n');
  assert.equal(certaintyOf(detectDump(log)), 'sure');
  assert.deepEqual(readingWithoutSpans(log), readingWithoutSpans(dump));
  const a = analyzeText(log);
  assert.ok(a.iptables!.dump.rules.some((r) => r.comment === '转发 ✓ déjà'));
  // Each rule's span starts at its first byte's place in the base64: decoded from that group of four on, it is there.
  const value = line.indexOf('"rules":"') + '"rules":"'.length;
  for (const r of a.iptables!.dump.rules) {
    const span = documentDiagnostic(a, { span: r.span, severity: 'info', code: '', message: '' }).span;
    assert.equal(span.line, 1, r.text);
    const inValue = span.column - value;
    const group = inValue - (inValue % 4);
    const decoded = Buffer.from(line.slice(value + group, value + group + 4 * r.text.length + 8), 'base64');
    assert.ok(decoded.toString('utf8').includes(r.text), r.text);
  }
  const map = a.positions!;
  const engineLines = map.engineText.split('\n');
  for (let l = 0; l < engineLines.length; l++)
    for (let column = 0; column <= engineLines[l].length; column++) {
      const there = map.toOriginal(l, column);
      assert.deepEqual(map.toEngine(there.line, there.column), { line: l, column }, `${l}:${column}`);
    }
  // The log's other lines stay where they are, blank to the engines.
  assert.equal(map.toOriginal(engineLines.length - 2, 0).line, 2);
});

test('a base64 input cut off with the log line still reads what it has, and a value that is no input is no dump', () => {
  const dump = kubeProxyDump(SERVICES);
  const line = base64Line(dump);
  const cut = line.slice(0, Math.floor(line.length * 0.6) + 1);
  const a = analyzeText(cut);
  assert.equal(a.detection.kind, 'iptables');
  assert.ok(a.iptables!.dump.rules.length > 3);
  assert.ok(diagnosticsOf(a, 'en').some((d) => d.code === 'missing-commit'));
  const other = JSON.stringify({
    msg: 'Restoring iptables',
    rules: Buffer.from('hello world, no rules').toString('base64'),
  });
  assert.notEqual(detectDump(other).kind, 'iptables');
});

test('every corpus save dump reads the same logged by kube-proxy as base64 JSON', (t) => {
  const files = corpusFiles('iptables').filter((f) => /^\*\w+\s*$/m.test(f.text) && f.text.length < 200_000);
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  for (const f of files) {
    const text = f.text.replace(/\r\n?/g, '\n');
    assert.deepEqual(readingWithoutSpans(base64Line(text)), readingWithoutSpans(text), f.name);
  }
});
