/**
 * Rules read into the rule store answer some questions without building their options (findOption, module and
 * option names, tokens from word rows). Those answers must equal what the built matches say, on every corpus
 * file, on hand-written edge cases and on mutated lines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DumpNames } from '../../../src/core/iptables/nameIdTable';
import { parseIptables } from '../../../src/core/iptables/parser';
import type { Match, OptionArg, Rule } from '../../../src/core/iptables/dump';
import {
  findOption,
  forEachModuleName,
  forEachOptionName,
  lastGenericOption,
  optionValue,
  ruleHasModule,
  ruleTargetName,
  targetOptionValue,
} from '../../../src/core/iptables/dump';
import { IMPLICIT, OWNER_GENERIC, OWNER_TARGET, RuleStore } from '../../../src/core/iptables/ruleStore';
import { StoredRule } from '../../../src/core/iptables/storedRule';
import { corpusFiles } from '../../helpers/corpus';

const EDGE = [
  '*filter',
  ':INPUT ACCEPT [10:200]',
  '[5:300] -A INPUT -s 10.0.0.0/8 ! -d 10.1.0.0/16 -p tcp --dport 22 -j ACCEPT',
  '-A INPUT -p tcp --dport ! 80 -m comment --comment "a \\"quoted\\" comment" -j DROP',
  "-A INPUT -m comment --comment 'single quoted' -c 3 4 -j MY",
  '-I INPUT 2 -p udp -m udp --sport 53 -j RETURN',
  '-A INPUT -p tcp -m multiport --dports 80,443 -m conntrack --ctstate NEW -j LOG --log-prefix "x y" --log-level 4',
  '-A INPUT -m set --match-set KUBE-CLUSTER-IP dst,dst -m statistic --mode random --probability 0.33333333349 -j MY',
  '-A INPUT -p tcp --tcp-flags SYN,RST SYN -j TCPMSS --clamp-mss-to-pmtu',
  '-A INPUT --foo bar -j ACCEPT -j DROP',
  '-A INPUT -j DNAT --to-destination 1.2.3.4:80 -m mark --mark 1 -j LOG --log-prefix late',
  '-A INPUT stray word -j ACCEPT',
  '-A MY -d 1.2.3.4/32 -j KUBE-POSTROUTI                         NG',
  '-A MY -s -5 -j ACCEPT',
  '-A MY -d 10.0.0.1 ! -d 10.0.0.2/32 -d x.y -j ACCEPT',
  '-A MY -p tcp --dport 1 -p udp --sport 2 -m tcp --dport 3',
  '-A MY -p tcp --sport 1 -p udp --dport 2 -p tcp --dport 3 -j ACCEPT',
  '-A MY -m tcp --dport 8080:8090 -m recent --rcheck --seconds 10800 --reap --name KUBE-SEP-ABC --rsource -j ACCEPT',
  '-A MY -m comment --comment foo\\"bar -j ACCEPT',
  '-A MY ! -m foo --bar x',
  '-A MY -m',
  'COMMIT',
].join('\n');

/** What the helpers would say if they only had the built matches (the slow path of plain-object rules). */
function slowFindOption(rule: Rule, name: string, module?: string): OptionArg | undefined {
  for (const m of rule.matches) {
    if (module !== undefined && m.module !== module) continue;
    for (const o of m.options) if (o.name === name) return o;
  }
  return undefined;
}

const optionShape = (o: OptionArg | undefined) =>
  o && {
    name: o.name,
    written: o.written,
    values: o.values,
    negated: o.negated,
    span: o.span,
    valueSpans: o.valueSpans,
    negationSpan: o.negationSpan,
  };

function checkRule(rule: Rule, where: string, ids: DumpNames): void {
  const matches: Match[] = rule.matches;
  const names = new Set<string>([
    'comment',
    'probability',
    'destination',
    'dport',
    'protocol',
    'seconds',
    'to-destination',
    'log-prefix',
    'nope',
  ]);
  for (const o of rule.target?.options ?? []) names.add(o.name);
  const modules = new Set<string>(['', 'tcp', 'udp', 'comment', 'statistic', 'recent', 'nope']);
  for (const m of matches) {
    modules.add(m.module);
    for (const o of m.options) names.add(o.name);
  }
  for (const name of names) {
    assert.deepEqual(
      optionShape(findOption(rule, name)),
      optionShape(slowFindOption(rule, name)),
      `${where}: findOption(${name})`,
    );
    const slow = slowFindOption(rule, name);
    assert.equal(
      optionValue(rule, name),
      slow && !slow.negated ? slow.values[0] : undefined,
      `${where}: optionValue(${name})`,
    );
    assert.equal(
      optionValue(rule, name, undefined, true),
      slow?.values[0],
      `${where}: optionValue(${name}, even negated)`,
    );
    assert.equal(
      targetOptionValue(rule, name),
      rule.target?.options.find((o) => o.name === name)?.values[0],
      `${where}: targetOptionValue(${name})`,
    );
    for (const module of [undefined, ...modules]) {
      if (module !== undefined)
        assert.deepEqual(
          optionShape(findOption(rule, name, module)),
          optionShape(slowFindOption(rule, name, module)),
          `${where}: findOption(${name}, ${module})`,
        );
      // By name ids, as the kube-proxy view asks: the same answers.
      const query = ids.option(name, module);
      for (const evenNegated of [false, true]) {
        const found = slowFindOption(rule, name, module);
        const expected = found && (evenNegated || !found.negated) ? found.values[0] : undefined;
        assert.equal(
          ids.optionValue(rule, query, evenNegated),
          expected,
          `${where}: optionValue by ids (${name}, ${module}, ${evenNegated})`,
        );
      }
    }
  }
  assert.equal(ruleTargetName(rule), rule.target?.name, `${where}: ruleTargetName`);
  // The comment is read from its word when first asked: the last `--comment` with a value, wherever it stands
  // (options of an earlier, repeated -j are nobody's: rules with one target only).
  if (rule.tokens.filter((t) => t.kind === 'target').length <= 1) {
    const comments = [...matches.flatMap((m) => m.options), ...(rule.target?.options ?? [])].filter(
      (o) => o.name === 'comment' && o.values.length > 0,
    );
    comments.sort((a, b) => a.span.line - b.span.line || a.span.column - b.span.column);
    // commentText reads the same text before the comment is in the name table (the kube view's entry rules) and after.
    if (rule.commentText) assert.equal(rule.commentText(), comments.at(-1)?.values[0], `${where}: commentText`);
    assert.equal(rule.comment, comments.at(-1)?.values[0], `${where}: comment`);
    if (rule.commentText) assert.equal(rule.commentText(), rule.comment, `${where}: commentText once named`);
  }
  for (const module of modules)
    if (module !== '')
      assert.equal(
        ruleHasModule(rule, module),
        matches.some((m) => m.module === module),
        `${where}: hasModule(${module})`,
      );

  const visited: string[] = [];
  forEachOptionName(rule, (module, name, option) => {
    visited.push(`${module}:${name}`);
    assert.equal(option().name, name);
  });
  const expected = [
    ...matches.flatMap((m) => m.options.map((o) => ({ o, m: m.module }))),
    ...(rule.target?.options ?? []).map((o) => ({ o, m: null })),
  ]
    .sort((a, b) => a.o.span.line - b.o.span.line || a.o.span.column - b.o.span.column)
    .map((x) => `${x.m}:${x.o.name}`);
  assert.deepEqual(visited, expected, `${where}: forEachOptionName`);

  // The last generic option of a name whose value passes a test, as the trace reads each rule's `-d`.
  if (rule instanceof StoredRule)
    for (const name of names)
      for (const [label, accept] of [
        ['any', () => true],
        ['digit first', (v: string) => /^[0-9]/.test(v)],
      ] as const) {
        const last = (matches.find((m) => m.module === '')?.options ?? [])
          .filter((o) => o.name === name && accept(o.values[0] ?? ''))
          .at(-1);
        const want = last && { value: last.values[0] ?? '', negated: last.negated };
        assert.deepEqual(rule.lastGenericOption(name, accept), want, `${where}: lastGenericOption(${name}, ${label})`);
        // The helper's way for rules without the store's fast path (listings, nft rules): the same answer.
        const plain = Object.create(rule, { lastGenericOption: { value: undefined } }) as Rule;
        assert.deepEqual(lastGenericOption(plain, name, accept), want, `${where}: its fallback (${name}, ${label})`);
      }

  const mods: string[] = [];
  forEachModuleName(rule, (module, explicit) => mods.push(`${module}:${explicit}`));
  assert.deepEqual(
    mods,
    matches.filter((m) => m.module !== '').map((m) => `${m.module}:${m.moduleSpan !== undefined}`),
    `${where}: forEachModuleName`,
  );

  // Tokens come from the word rows: in line and column order (a hard-wrapped rule goes on over lines).
  let last = { line: -1, column: -1 };
  for (const tok of rule.tokens) {
    assert.ok(
      tok.span.line > last.line || (tok.span.line === last.line && tok.span.column > last.column),
      `${where}: tokens in order`,
    );
    last = tok.span;
  }
  assert.deepEqual(
    JSON.parse(JSON.stringify(rule)).matches,
    JSON.parse(JSON.stringify(matches)),
    `${where}: JSON form`,
  );
}

function checkText(text: string, label: string): void {
  const dump = parseIptables(text);
  const ids = DumpNames.of(dump);
  const lines = text.replace(/^\ufeff/, '').split('\n');
  for (const rule of dump.rules) {
    checkRule(rule, `${label}:${rule.line + 1}`, ids);
    for (const tok of rule.tokens) {
      if (tok.kind === 'counter' && tok.span.length > tok.text.length) continue;
      assert.equal(
        lines[tok.span.line].replace(/\r$/, '').slice(tok.span.column, tok.span.column + tok.span.length),
        tok.text,
        `${label}:${rule.line + 1} token ${tok.text}`,
      );
    }
  }
}

test('store fast paths agree with the built matches on hand-written edge cases', () => {
  checkText(EDGE, 'edge');
  const dump = parseIptables(EDGE);
  const late = dump.rules.find((r) => r.text.includes('late'))!;
  assert.equal(late.target?.name, 'LOG');
  assert.deepEqual(
    late.target?.options.map((o) => o.name),
    ['log-prefix'],
    "options of an earlier -j are not the last target's",
  );
  const wrapped = dump.rules.find((r) => r.text.includes('POSTROUTI'))!;
  assert.equal(wrapped.target?.name, 'KUBE-POSTROUTING');
});

// A word's column and length are kept in a byte until one does not fit, then in 16 bits, then in 32.
for (const lengths of [[300], [70_000], [300, 70_000]]) {
  test(`words past column 255 or 65,535, or as long, keep their spans, as do the words before them (${lengths.join(' then ')})`, () => {
    const longs = lengths.map((n) => 'c'.repeat(n));
    const lines = [
      '-A X -s 10.0.0.1 -j ACCEPT',
      ...longs.map((long, i) => `-A X -m comment --comment "${long}" -s 10.0.0.${i + 2} -j DROP`),
      '-A X -d 10.0.0.9 -j RETURN',
    ];
    const dump = parseIptables(lines.join('\n'));
    const at = (span: { line: number; column: number; length: number }) =>
      lines[span.line].slice(span.column, span.column + span.length);
    assert.deepEqual(
      dump.rules.map((r) => [r.target?.name, at(r.target!.span), at(r.chainSpan)]),
      [['ACCEPT', 'ACCEPT', 'X'], ...longs.map(() => ['DROP', 'DROP', 'X']), ['RETURN', 'RETURN', 'X']],
    );
    longs.forEach((long, i) => {
      const wide = dump.rules[i + 1];
      assert.equal(wide.comment, long);
      const source = findOption(wide, 'source')!;
      const address = `10.0.0.${i + 2}`;
      assert.deepEqual([at(source.span), source.values, at(source.valueSpans[0])], ['-s', [address], address]);
      assert.equal(at(findOption(wide, 'comment')!.valueSpans[0]), `"${long}"`);
      assert.equal(wide.text, lines[i + 1].slice(3));
    });
    assert.equal(at(findOption(dump.rules[0], 'source')!.valueSpans[0]), '10.0.0.1');
    assert.equal(at(findOption(dump.rules[dump.rules.length - 1], 'destination')!.valueSpans[0]), '10.0.0.9');
  });
}

test('store fast paths agree with the built matches on every corpus file', (t) => {
  const files = corpusFiles('iptables');
  if (files.length === 0)
    return t.skip('shared corpus not found (../shared/corpus beside the checkout; set KPP_CORPUS to use another path)');
  for (const f of files) checkText(f.text, f.name);
});

test('store fast paths agree with the built matches on mutated rule lines', () => {
  const words = [
    '-A',
    'X',
    '-m',
    'tcp',
    '--dport',
    '80',
    '!',
    '-p',
    'udp',
    '-p tcp',
    '--sport',
    '-m statistic --probability 0.5',
    '-j',
    'DNAT',
    '--to-destination',
    '1.2.3.4:5',
    '"a b"',
    "'c'",
    '-c',
    '1',
    '2',
    '--comment',
    'x\\"y',
    '-5',
    '--',
    '-I',
    '3',
    '                      ',
    'NG',
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 14 }), (parts) => {
      checkText(`-A CHAIN ${parts.join(' ')}\n${parts.join(' ')}`, 'mutated');
    }),
    { numRuns: 1500 },
  );
});

test('option rows read back their written and canonical names past 255 and 65,535 spellings', () => {
  // A row keeps its spelling's index in a byte until one does not fit, then in 16 bits, then in 32.
  const store = new RuleStore('');
  const spellings = 70_000;
  const rows: number[] = [];
  for (let i = 0; i < spellings; i++) {
    // The canonical name of `--sport` is `sport`: every few spellings is one iptables knows.
    const name = i % 7 === 0 ? '--sport' : `--x${i}`;
    rows.push(store.addOption(store.names.idOf(name, 0, name.length), 2 * i, -1, 2 * i + 1, 1, OWNER_GENERIC, 0));
  }
  for (const i of [0, 1, 254, 255, 256, 300, 65_534, 65_535, 65_536, spellings - 1]) {
    const written = i % 7 === 0 ? '--sport' : `--x${i}`;
    assert.equal(store.nameOf(store.optWritten(rows[i])), written, `row ${i}`);
    assert.equal(store.nameOf(store.optName(rows[i])), i % 7 === 0 ? 'sport' : `x${i}`, `row ${i}`);
    assert.equal(store.optWord[rows[i]], 2 * i);
    assert.equal(store.optValue(rows[i]), 2 * i + 1);
  }
});

test('module rows read back their names past 255 and 65,535 module names', () => {
  // A row keeps its name's spelling index in a byte until one does not fit, then in 16 bits, then in 32.
  const store = new RuleStore('');
  const names = 70_000;
  const rows: number[] = [];
  for (let i = 0; i < names; i++) {
    // Every few rows load a module already loaded: its first spelling is kept.
    const name = i % 5 === 0 ? 'tcp' : `m${i}`;
    rows.push(store.addModule(store.names.idOf(name, 0, name.length), i % 3 === 0 ? IMPLICIT : i));
  }
  for (const i of [0, 1, 254, 255, 256, 257, 300, 65_535, 65_536, 65_537, 69_000, names - 1]) {
    assert.equal(store.nameOf(store.modName(rows[i])), i % 5 === 0 ? 'tcp' : `m${i}`, `row ${i}`);
    assert.equal(store.modWord[rows[i]], i % 3 === 0 ? IMPLICIT : i);
  }
  // Parsed: a rule loading 300 modules reads each back, and the rules after it theirs ('': the generic options).
  const modules = Array.from({ length: 300 }, (_, i) => `-m x${i}`).join(' ');
  const dump = parseIptables(`-A X ${modules} -j ACCEPT\n-A X -p tcp -m tcp --dport 80 -m comment --comment c -j DROP`);
  assert.deepEqual(
    dump.rules[0].matches.map((m) => m.module),
    Array.from({ length: 300 }, (_, i) => `x${i}`),
  );
  assert.deepEqual(
    dump.rules[1].matches.map((m) => m.module),
    ['', 'tcp', 'comment'],
  );
});

test('rules read back their table past 255 tables, and their text past column 255', () => {
  // A rule's table index and content end start in a byte each and are widened on their own.
  const tables = 300;
  const text = Array.from(
    { length: tables },
    (_, i) => `*t${i}\n:X - [0:0]\n-A X -m comment --comment "${'c'.repeat(i)}" -j RETURN\nCOMMIT\n`,
  ).join('');
  const dump = parseIptables(text);
  assert.equal(dump.rules.length, tables);
  dump.rules.forEach((r, i) => {
    assert.equal(r.table, `t${i}`);
    assert.equal(r.text, `-A X -m comment --comment "${'c'.repeat(i)}" -j RETURN`.slice(3));
  });
});

test("an option row's `!` and value words read back at any distance from its option word, near or far", () => {
  const store = new RuleStore('-A INPUT --dport 80');
  const written = store.names.idOf('--dport', 0, 7);
  const word = 500;
  // Distances a signed byte holds, the byte's own limits, the one it keeps for far words, and beyond.
  for (const distance of [1, -1, 2, 127, -127, -128, 128, -129, 300, -400, 0]) {
    for (const valueCount of [0, 1, 2]) {
      const neg = distance === 0 ? -1 : word + distance;
      const value = word + distance;
      const k = store.addOption(written, word, neg, value, valueCount, -1, 0);
      assert.equal(store.optWord[k], word);
      assert.equal(store.optNeg(k), neg, `! at ${distance}`);
      if (valueCount > 0) assert.equal(store.optValue(k), value, `value at ${distance}`);
      assert.equal(store.nameOf(store.optName(k)), 'dport');
      assert.equal(store.nameOf(store.optWritten(k)), '--dport');
    }
  }
  // A `!` at distance 0 is not "none".
  const k = store.addOption(written, word, word, word + 1, 1, -1, 0);
  assert.equal(store.optNeg(k), word);
  // Owners: the generic options, the target, and a module row at any index among the rule's modules.
  const modFirst = 1000;
  for (const owner of [
    OWNER_GENERIC,
    OWNER_TARGET,
    modFirst,
    modFirst + 1,
    modFirst + 252,
    modFirst + 253,
    modFirst + 400,
  ]) {
    const row = store.addOption(written, word, -1, 0, 0, owner, modFirst);
    assert.equal(store.optOwner(row, modFirst), owner, `owner ${owner}`);
  }
});

test('a rule of more words, options and modules than a byte counts reads them all, its target and comment too', () => {
  const many = 300;
  const options = Array.from({ length: many }, (_, i) => `-m comment --comment c${i}`).join(' ');
  const text = `*filter\n:INPUT ACCEPT [0:0]\n-A INPUT ${options} -j ACCEPT\n-A INPUT -m comment --comment near -j DROP\nCOMMIT\n`;
  const dump = parseIptables(text);
  const [far, near] = dump.rules;
  assert.equal(far.target?.name, 'ACCEPT');
  assert.equal(far.comment, `c${many - 1}`);
  assert.deepEqual(
    far.matches.map((m) => m.options.map((o) => o.values.join(' ')).join()),
    Array.from({ length: many }, (_, i) => `c${i}`),
  );
  assert.equal(far.tokens.at(-1)?.text, 'ACCEPT');
  assert.equal(far.tokens.length, 2 + 4 * many + 2);
  assert.equal(near.target?.name, 'DROP');
  assert.equal(near.comment, 'near');
  checkText(text, 'many');
});
