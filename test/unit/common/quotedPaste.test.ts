/**
 * Outputs quoted in a chat, a mail or code (`> `, `>> `, `> > `, `// `, `# ` before every line) must read as the
 * output itself, for every engine, with columns where the editor shows them and a note that says why.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { blankQuoteMarks } from '../../../src/core/common/quoteMarks';
import { certaintyOf, detectDump } from '../../../src/core/detect';
import { corpusFiles, CORPUS_MISSING } from '../../helpers/corpus';
import { readingOf } from '../../helpers/reading';

/** A Slack thread's Markdown quote of a node's nat table, the end cut off by the person pasting. */
const SLACK_QUOTE = `> *nat
> :PREROUTING ACCEPT [1843:110580]
> :OUTPUT ACCEPT [2231:133860]
> :KUBE-SERVICES - [0:0]
> :KUBE-SVC-NPX46M4PTMTKRN6Y - [0:0]
> :KUBE-SEP-V2PECCYPB6X2GSCW - [0:0]
> -A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
> -A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
> -A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y
> -A KUBE-SVC-NPX46M4PTMTKRN6Y -m comment --comment "default/kubernetes:https -> 172.18.0.2:6443" -j KUBE-SEP-V2PECCYPB6X2GSCW
> -A KUBE-SEP-V2PECCYPB6X2GSCW -p tcp -m comment --comment "default/kubernetes:https" -m tcp -j DNAT --to-destination 172.18.0.2:6443
`;

/** A mail reply quoting the ipvsadm output of the first message (`>> `), blank quoted lines as a bare `>>`. */
const MAIL_REPLY = `>> IP Virtual Server version 1.2.1 (size=4096)
>> Prot LocalAddress:Port Scheduler Flags
>>   -> RemoteAddress:Port           Forward Weight ActiveConn InActConn
>> TCP  10.96.0.1:443 rr
>>   -> 172.18.0.2:6443              Masq    1      3          0
>>
>> TCP  10.96.0.10:53 rr
>>   -> 10.244.0.3:53                Masq    1      0          0
>>   -> 10.244.1.7:53                Masq    1      0          0
`;

/** Routes kept in a Go test's comment. */
const GO_COMMENT = `// default via 172.18.0.1 dev eth0
// 10.244.0.0/24 via 172.18.0.3 dev eth0
// 10.244.1.0/24 dev cni0 proto kernel scope link src 10.244.1.1
// 172.18.0.0/16 dev eth0 proto kernel scope link src 172.18.0.2
`;

/** ipvsadm output in a shell script's comment. */
const SCRIPT_COMMENT = `# TCP  10.96.0.10:53 rr
#   -> 10.244.0.3:53                Masq    1      0          0
#   -> 10.244.1.7:53                Masq    1      0          0
# UDP  10.96.0.10:53 rr
#   -> 10.244.0.3:53                Masq    1      0          4
`;

const unquoted = (text: string, mark: RegExp) =>
  text
    .split('\n')
    .map((l) => l.replace(mark, ''))
    .join('\n');

test('a Markdown quote of a cut nat table reads as the table, columns behind the marks', () => {
  assert.equal(certaintyOf(detectDump(SLACK_QUOTE)), 'sure');
  const a = analyzeText(SLACK_QUOTE);
  const nat = a.iptables!.dump.tables.find((t) => t.name === 'nat')!;
  assert.equal(nat.chains.size, 5);
  assert.equal(a.iptables!.dump.rules.length, 5);
  const [svc] = a.iptables!.kube.services;
  assert.equal(svc.hashVerified, true);
  assert.deepEqual(
    svc.endpoints.map((e) => `${e.ip}:${e.port}`),
    ['172.18.0.2:6443'],
  );
  // Columns are those of the quoted text: the rule starts after `> `.
  assert.equal(a.iptables!.dump.rules[0].span.column, 2);
  const found = diagnosticsOf(a, 'en');
  assert.deepEqual(found[0].span, { line: 0, column: 0, length: 2 });
  assert.equal(found[0].code, 'quoted-paste');
  assert.ok(found.some((d) => d.code === 'missing-commit'));
  assert.equal(readingOf(SLACK_QUOTE), readingOf(unquoted(SLACK_QUOTE, /^> /)));
});

test('nested mail quotes, code comments and hash comments read as the output, for every engine', () => {
  for (const [name, text, mark, kind] of [
    ['mail >>', MAIL_REPLY, /^>> ?/, 'ipvs'],
    ['// comment', GO_COMMENT, /^\/\/ /, 'network'],
    ['# comment', SCRIPT_COMMENT, /^# /, 'ipvs'],
    ['> > nested', SLACK_QUOTE.replace(/^> /gm, '> > '), /^> > /, 'iptables'],
  ] as const) {
    const a = analyzeText(text);
    assert.equal(a.detection.kind, kind, name);
    assert.equal(readingOf(text), readingOf(unquoted(text, mark)), name);
    assert.equal(diagnosticsOf(a, 'en')[0].code, 'quoted-paste', name);
  }
  assert.equal(analyzeText(MAIL_REPLY).ipvs!.services.length, 2);
  assert.equal(analyzeText(GO_COMMENT).network!.routes.length, 4);
});

test('a log quoted in a chat: the quote marks, then the log prefixes behind them', () => {
  // `kubectl logs --timestamps` of a debug pod that ran `ip route`, quoted in a Markdown reply.
  const text = GO_COMMENT.trim()
    .split('\n')
    .map((l, i) => `> 2026-12-06T09:12:4${i}.51284${i}Z ${l.replace(/^\/\/ /, '')}`)
    .join('\n');
  const a = analyzeText(text);
  assert.equal(a.network!.routes.length, 4);
  const notes = diagnosticsOf(a, 'en').slice(0, 2);
  assert.deepEqual(
    notes.map((d) => [d.code, d.span.column, d.span.length]),
    [
      ['quoted-paste', 0, 2],
      ['log-prefixed-paste', 2, 28],
    ],
  );
  // Columns are the quoted log's: `default` starts after the mark and the time.
  assert.equal(a.network!.routes[0].spans.destination?.column, 30);
});

test('a SQL or Lua comment quote (`-- `) and a Markdown table cell per line read as the output', () => {
  const sqlComment = SLACK_QUOTE.replace(/^> /gm, '-- ').replace('-- :OUTPUT', '--\n-- :OUTPUT');
  const cells = SLACK_QUOTE.split('\n')
    .filter((l) => l !== '')
    .map((l) => `| ${l.slice(2).padEnd(60)} |`);
  const table = ['| iptables-save, node-1 |', '|---|', ...cells].join('\n') + '\n';
  for (const [name, text, mark] of [
    ['-- ', sqlComment, '--'],
    ['| cell |', table, '|'],
  ] as const) {
    const a = analyzeText(text);
    assert.equal(a.iptables!.dump.rules.length, 5, name);
    assert.equal(a.iptables!.kube.services[0]?.endpoints.length, 1, name);
    const found = diagnosticsOf(a, 'en');
    assert.equal(found[0].code, 'quoted-paste', name);
    assert.equal(found[0].params?.mark, mark, name);
    assert.ok(!found.some((d) => d.code === 'unrecognized-line'), name);
    // Columns are the pasted text's: the first rule starts behind the mark.
    assert.equal(a.iptables!.dump.rules[0].span.column, name === '-- ' ? 3 : 2, name);
  }
  // A grep's context separators (a bare `--` between groups) are no quote.
  const grep =
    '-A KUBE-SERVICES -j KUBE-NODEPORTS\n--\n-A KUBE-SVC-X -j KUBE-SEP-A\n--\n-A KUBE-SEP-A -j DNAT --to-destination 10.0.0.1:80\n';
  assert.equal(blankQuoteMarks(grep), undefined);
});

test('dumps are not taken for quotes: their own comments, diff output, a root prompt', () => {
  for (const text of [
    '# Generated by iptables-save v1.8.7 on Sun Dec  6 10:00:01 2026\n*nat\nCOMMIT\n# Completed on Sun Dec  6 10:00:01 2026\n',
    '# Warning: iptables-legacy tables present, use iptables-legacy-save to see them\n# Generated by iptables-save v1.8.7\n*filter\n# Completed on Sun Dec  6\n',
    '3c3\n< -A KUBE-SVC-X -j KUBE-SEP-A\n---\n> -A KUBE-SVC-X -j KUBE-SEP-B\n> -A KUBE-SVC-X -j KUBE-SEP-C\n> -A KUBE-SVC-X -j KUBE-SEP-D\n',
    '# ipvsadm -Ln\nIP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\nTCP  10.96.0.1:443 rr\n',
  ])
    assert.equal(blankQuoteMarks(text), undefined, text);
});

test('every corpus file reads the same behind each quote mark', (t) => {
  const kinds = ['iptables', 'ipvs', 'routes'] as const;
  if (kinds.every((k) => corpusFiles(k).length === 0)) return t.skip(CORPUS_MISSING);
  for (const kind of kinds)
    for (const f of corpusFiles(kind)) {
      // A diff's `>` lines are one side of a comparison, read as such.
      if (/^[<>] /m.test(f.text)) continue;
      const plain = readingOf(f.text);
      // iptables text behind `# ` is the iptables parser's own unwrapping (paste forms test).
      for (const mark of kind === 'iptables' ? ['> ', '>> ', '> > ', '// '] : ['> ', '>> ', '> > ', '// ', '# ']) {
        const quoted = f.text
          .split('\n')
          .map((l) => (l.trim() === '' ? mark.trim() : mark + l))
          .join('\n');
        assert.equal(readingOf(quoted), plain, `${f.name} behind ${JSON.stringify(mark)}`);
      }
    }
});
