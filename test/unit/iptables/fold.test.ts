/**
 * Pastes a terminal folded at its width: every long line cut at exactly N columns, the rest at the start of the
 * next line, inside words as often as between them. They must read as the unfolded dump does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';

/** What `fold -w width` (and a terminal that copies its rows) makes of a text. */
function fold(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      const rows: string[] = [];
      let rest = line;
      while (rest.length > width) {
        rows.push(rest.slice(0, width));
        rest = rest.slice(width);
      }
      rows.push(rest);
      return rows;
    })
    .join('\n');
}

/** What a reader sees, without line numbers (folding moves them) and without the notes that say it was unfolded. */
function reading(text: string): string {
  const a = analyzeText(text);
  return JSON.stringify({
    kind: a.detection.kind,
    services: a.iptables?.kube.services.map((s) => [
      s.name,
      s.clusterIP,
      s.port,
      s.hashVerified,
      s.endpoints.map((e) => `${e.ip}:${e.port}`),
    ]),
    rules: a.iptables?.dump.rules.map((r) => [
      r.table,
      r.chain,
      r.target?.name,
      r.comment,
      r.matches.map((m) => [m.module, m.options.map((o) => [o.name, o.negated, ...o.values])]),
    ]),
    codes: diagnosticsOf(a, 'en')
      .map((d) => d.code)
      .filter((c) => c !== 'wrapped-line-joined')
      .sort(),
  });
}

const KUBE = [
  '*nat',
  ':PREROUTING ACCEPT [0:0]',
  ':KUBE-SERVICES - [0:0]',
  ':KUBE-MARK-MASQ - [0:0]',
  ':KUBE-SVC-NPX46M4PTMTKRN6Y - [0:0]',
  ':KUBE-SEP-VPILYQBSPPXYB66K - [0:0]',
  '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
  '-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000',
  '-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y',
  '-A KUBE-SVC-NPX46M4PTMTKRN6Y ! -s 10.244.0.0/16 -d 10.96.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -m tcp --dport 443 -j KUBE-MARK-MASQ',
  '-A KUBE-SVC-NPX46M4PTMTKRN6Y -m comment --comment "default/kubernetes:https -> 172.18.0.2:6443" -j KUBE-SEP-VPILYQBSPPXYB66K',
  '-A KUBE-SEP-VPILYQBSPPXYB66K -s 172.18.0.2/32 -m comment --comment "default/kubernetes:https" -j KUBE-MARK-MASQ',
  '-A KUBE-SEP-VPILYQBSPPXYB66K -p tcp -m comment --comment "default/kubernetes:https" -m tcp -j DNAT --to-destination 172.18.0.2:6443',
  'COMMIT',
].join('\n');

test('a dump folded at any width from 60 to 150 columns reads as the dump itself', () => {
  const want = reading(KUBE);
  let checked = 0;
  for (let width = 60; width <= 150; width++) {
    // A single cut line does not show the terminal's width (see the next test).
    if (KUBE.split('\n').filter((l) => l.length > width).length < 2) continue;
    assert.equal(reading(fold(KUBE, width)), want, `folded at ${width}`);
    checked++;
  }
  assert.ok(checked > 60, `${checked} widths`);
});

test('a fold is read only where the paste shows one: two cut lines of one width and few broken lines narrower', () => {
  const rule =
    '-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -j KUBE-SVC-NPX46M4PTMTKRN6Y';
  const head = ['*nat', ':KUBE-SERVICES - [0:0]', ':KUBE-SVC-NPX46M4PTMTKRN6Y - [0:0]'];
  const targets = (text: string) => parseIptables(text).rules.map((r) => r.target?.name);
  // The widths cut the target's name (it starts at column 100) after its `KUBE-SVC-`.
  assert.ok(rule.indexOf('KUBE-SVC-') + 9 < 113);
  // One cut line alone, even at 120 columns: nothing tells a terminal cut it, so the rest stays a line of its own.
  for (const width of [113, 120]) {
    const odd = parseIptables([...head, fold(rule, width), 'COMMIT'].join('\n'));
    assert.deepEqual(
      odd.rules.map((r) => r.target?.name),
      [rule.slice(rule.indexOf('KUBE-SVC-'), width)],
    );
    assert.ok(odd.diagnostics.some((d) => d.code === 'unrecognized-line' && d.span.line === 4));
  }
  // Two lines cut at 113 tell the width.
  assert.deepEqual(
    targets([...head, fold(rule, 113), fold(rule.replace('10.96.0.1', '10.96.0.2'), 113), 'COMMIT'].join('\n')),
    ['KUBE-SVC-NPX46M4PTMTKRN6Y', 'KUBE-SVC-NPX46M4PTMTKRN6Y'],
  );
  // Two rules of one width, each followed by prose: prose is no rest, the rules stay whole.
  const prose = parseIptables(
    [
      ...head,
      rule,
      'That is all we have on this node.',
      rule.replace('10.96.0.1', '10.96.0.2'),
      'and then on the second node',
      'COMMIT',
    ].join('\n'),
  );
  assert.deepEqual(
    prose.rules.map((r) => r.target?.name),
    ['KUBE-SVC-NPX46M4PTMTKRN6Y', 'KUBE-SVC-NPX46M4PTMTKRN6Y'],
  );
  assert.deepEqual(
    prose.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code),
    [],
  );
});

/** A wrap by mail or `fmt`: lines broken at the last blank before `width`, the blank dropped. */
function wrapAtBlanks(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      const rows: string[] = [];
      let row = '';
      for (const word of line.split(' ')) {
        if (row && row.length + 1 + word.length > width) {
          rows.push(row);
          row = word;
        } else row = row ? `${row} ${word}` : word;
      }
      rows.push(row);
      return rows;
    })
    .join('\n');
}

test('a wrap at blanks (mail, fmt) is not taken for a fold: its words stay apart', () => {
  const want = reading(KUBE);
  for (const width of [64, 72, 76, 80, 100])
    assert.equal(reading(wrapAtBlanks(KUBE, width)), want, `wrapped at ${width}`);
  // Two broken lines of one width ending where words do, in a wrap whose other broken lines are narrower.
  const rules = [0, 1, 2, 3, 4].map(
    (i) =>
      `-A KUBE-SERVICES -d 10.96.0.${i}/32 -p tcp -m comment --comment "ns/svc-${'x'.repeat(i * 3)}:https cluster IP" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y`,
  );
  const wrapped = wrapAtBlanks(
    ['*nat', ':KUBE-SERVICES - [0:0]', ':KUBE-SVC-NPX46M4PTMTKRN6Y - [0:0]', ...rules, 'COMMIT'].join('\n'),
    72,
  );
  const d = parseIptables(wrapped);
  assert.deepEqual(
    d.rules.map((r) => [r.target?.name, r.comment, r.matches.map((m) => m.module)]),
    rules.map((_, i) => [
      'KUBE-SVC-NPX46M4PTMTKRN6Y',
      `ns/svc-${'x'.repeat(i * 3)}:https cluster IP`,
      ['', 'comment', 'tcp'],
    ]),
  );
  // Every broken line of one width, each ending in an option (`-m` + `statistic`): a wrap, not a fold.
  const ladder = ['A', 'B', 'C'].map(
    (sep) =>
      `-A KUBE-SVC-NPX46M4PTMTKRN6Y -m comment --comment "default/kubernetes:https" -m statistic --mode random --probability 0.5 -j KUBE-SEP-${sep}`,
  );
  const cut = wrapAtBlanks(['*nat', ...ladder, 'COMMIT'].join('\n'), 80);
  assert.ok(cut.split('\n').filter((l) => l.endsWith(' -m')).length === 3);
  assert.deepEqual(
    parseIptables(cut).rules.map((r) => [r.target?.name, r.matches.map((m) => m.module)]),
    ['A', 'B', 'C'].map((sep) => [`KUBE-SEP-${sep}`, ['comment', 'statistic']]),
  );
});

test('a word a fold cut answers on both rows: rule lines, tokens and spans', () => {
  const rule =
    '-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -j KUBE-SVC-NPX46M4PTMTKRN6Y';
  const text = [
    '*nat',
    ':KUBE-SERVICES - [0:0]',
    ':KUBE-SVC-NPX46M4PTMTKRN6Y - [0:0]',
    fold(rule, 110),
    fold(rule.replace('10.96.0.1', '10.96.0.2'), 110),
    'COMMIT',
  ].join('\n');
  const model = buildModel(parseIptables(text));
  const [first] = model.dump.rules;
  assert.equal(first.target?.name, 'KUBE-SVC-NPX46M4PTMTKRN6Y');
  assert.deepEqual([first.line, first.endLine], [3, 4]);
  assert.equal(model.ruleAtLine(4), first);
  // The target's span stays on its first row; its tokens cover both pieces.
  const span = first.target!.span;
  assert.deepEqual([span.line, span.column, span.column + span.length], [3, 102, 110]);
  const onRest = model.tokenAt(4, 3);
  assert.deepEqual([onRest?.kind, onRest?.span.line, onRest?.span.column], ['target', 4, 0]);
  assert.ok(model.tokensOnLine(3).every((t) => t.span.line === 3 && t.span.column + t.span.length <= 110));
});

test('a rule a fold cut into many rows is read to its end', () => {
  const long = `-A KUBE-FW-X -m comment --comment "${'a'.repeat(200)}" -m limit --limit 5/min --limit-burst 20 -m tcp -p tcp --dport 443 -s 10.0.0.0/8 -j KUBE-SVC-NPX46M4PTMTKRN6Y`;
  // More rows than a wrap by mail is followed over (MAX_CONTINUATION_LINES).
  assert.ok(Math.ceil(long.length / 60) > 5);
  const text = fold(
    [
      '*nat',
      ':KUBE-FW-X - [0:0]',
      ':KUBE-SVC-NPX46M4PTMTKRN6Y - [0:0]',
      long,
      long.replace('10.0.0.0/8', '10.1.0.0/16'),
      'COMMIT',
    ].join('\n'),
    60,
  );
  const d = parseIptables(text);
  assert.deepEqual(
    d.rules.map((r) => [r.target?.name, r.comment?.length]),
    [
      ['KUBE-SVC-NPX46M4PTMTKRN6Y', 200],
      ['KUBE-SVC-NPX46M4PTMTKRN6Y', 200],
    ],
  );
  assert.deepEqual(
    d.diagnostics.filter((x) => x.severity !== 'info').map((x) => x.code),
    [],
  );
});

test('a fold that fell on a blank keeps the words apart; the rest of a folded comment line is a note', () => {
  const rule =
    '-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -j KUBE-SVC-NPX46M4PTMTKRN6Y';
  const cut = rule.indexOf(' -j ');
  const head = ['*nat', ':KUBE-SERVICES - [0:0]', ':KUBE-SVC-NPX46M4PTMTKRN6Y - [0:0]'];
  const width = cut + 1;
  // The blank ends the cut line (a terminal keeps it) or starts the rest.
  for (const [first, rest] of [
    [rule.slice(0, width), rule.slice(width)],
    [rule.slice(0, cut), rule.slice(cut)],
  ]) {
    const text = [
      ...head,
      first.padEnd(width),
      rest,
      first.padEnd(width).replace('10.96.0.1', '10.96.0.9'),
      rest,
      'COMMIT',
    ].join('\n');
    const d = parseIptables(text);
    assert.deepEqual(
      d.rules.map((r) => [r.target?.name, r.comment]),
      [
        ['KUBE-SVC-NPX46M4PTMTKRN6Y', 'default/kubernetes:https cluster IP'],
        ['KUBE-SVC-NPX46M4PTMTKRN6Y', 'default/kubernetes:https cluster IP'],
      ],
    );
  }
  // A quoted comment cut inside: its halves join without a blank; cut after a blank, with it.
  const quoteCut = rule.indexOf('https');
  const inWord = parseIptables(
    [
      ...head,
      rule.slice(0, quoteCut),
      rule.slice(quoteCut),
      rule.slice(0, quoteCut).replace('10.96.0.1', '10.96.0.9'),
      rule.slice(quoteCut),
      'COMMIT',
    ].join('\n'),
  );
  assert.deepEqual(
    inWord.rules.map((r) => r.comment),
    ['default/kubernetes:https cluster IP', 'default/kubernetes:https cluster IP'],
  );
  // A comment line cut at the paste's width: its rest is noted as such, not flagged as an unknown line.
  const header = '# Generated by iptables-save v1.8.9 (nf_tables) on Mon Jan 15 12:00:00 2024';
  const w = 60;
  const folded = fold(
    [header, ...head.slice(0, 1), ...head.slice(1), rule, rule.replace('10.96.0.1', '10.96.0.9'), 'COMMIT'].join('\n'),
    w,
  );
  const notes = parseIptables(folded).diagnostics.filter((x) => x.span.line === 1);
  assert.deepEqual(
    notes.map((x) => [x.code, x.severity, x.params]),
    [['wrapped-line-joined', 'info', { line: 1, width: w }]],
  );
});

test('a folded paste quoted or indented whole afterwards (a mail, a Markdown list item) reads as the dump itself', () => {
  const want = reading(KUBE);
  const behind = (margin: string, text: string) =>
    text
      .split('\n')
      .map((l) => margin + l)
      .join('\n');
  // The quote marks' own note aside.
  const unquoted = (text: string) => {
    const r = JSON.parse(reading(text)) as { codes: string[] };
    return JSON.stringify({ ...r, codes: r.codes.filter((c) => c !== 'quoted-paste') });
  };
  for (const margin of ['> ', '> > ', '   ', '\t']) {
    for (const width of [60, 80, 100, 133]) {
      assert.equal(unquoted(behind(margin, fold(KUBE, width))), want, `${JSON.stringify(margin)} at ${width}`);
    }
  }
  // The folded header's rest is a note too, and a word cut by the fold answers on its rest row behind the margin.
  const header = '# Generated by iptables-save v1.8.9 (nf_tables) on Mon Jan 15 12:00:00 2024';
  const text = behind('> ', fold(`${header}\n${KUBE}`, 60));
  const a = analyzeText(text);
  const rows = text.split('\n');
  assert.deepEqual(
    diagnosticsOf(a, 'en')
      .filter((d) => d.span.line === 1)
      .map((d) => d.code),
    ['wrapped-line-joined'],
  );
  const cut = rows.findIndex((l) => l.length === 62 && /-j KUBE-\S*$/.test(l));
  assert.ok(cut > 0, 'a target cut by the fold');
  const model = a.iptables!;
  const rule = model.ruleAtLine(cut + 1);
  assert.ok(rule && rule === model.ruleAtLine(cut));
  const onRest = model.tokenAt(cut + 1, 3);
  assert.deepEqual([onRest?.kind, onRest?.span.line, onRest?.span.column], ['target', cut + 1, 2]);
  assert.match(rule.target!.name, /^KUBE-(?:SVC|SEP|SERVICES|MARK-MASQ)/);
  assert.equal(model.chainsNamed(rule.target!.name).length, 1, rule.target!.name);
});

test('property: generated kube-proxy dumps folded at any width read the same Services and rules', () => {
  fc.assert(
    fc.property(
      fc.record({
        services: fc.integer({ min: 1, max: 6 }),
        endpointsPerService: fc.integer({ min: 0, max: 4 }),
        seed: fc.integer({ min: 1, max: 1e6 }),
        nodePortEvery: fc.integer({ min: 0, max: 3 }),
        affinityEvery: fc.integer({ min: 0, max: 3 }),
      }),
      fc.integer({ min: 60, max: 220 }),
      (opts, width) => {
        const { text } = generateIptablesRestore(normaliseCluster(syntheticCluster(opts)), {
          clusterCidr: '10.128.0.0/9',
        });
        // A single cut line does not tell the width (see above).
        fc.pre(text.split('\n').filter((l) => l.length > width).length >= 2);
        const folded = fold(text, width);
        assert.equal(reading(folded), reading(text));
        assert.equal(
          buildModel(parseIptables(folded)).kube.services.length,
          buildModel(parseIptables(text)).kube.services.length,
        );
      },
    ),
    { numRuns: 60 },
  );
});
