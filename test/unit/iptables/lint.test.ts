import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGS } from '../../../src/core/i18n/catalog';
import { IPTABLES_LINT_CODES, lintIptables } from '../../../src/core/iptables/lint';
import { buildModel } from '../../../src/core/iptables/model';
import { serviceChainName } from '../../../src/core/iptables/chainHashes';
import { parseIptables } from '../../../src/core/iptables/parser';
import { t } from '../../../src/core/i18n/catalog';

function lint(text: string, lang: 'en' | 'zh-CN' = 'en') {
  return lintIptables(buildModel(parseIptables(text)), lang);
}
const codes = (text: string) => lint(text).map((d) => `${d.span.line}:${d.code}`);

test('undefined chain: an error where iptables-restore rejects it; in a partial paste a warning that says "if"', () => {
  const full = lint('*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -j NOPE\nCOMMIT\n');
  assert.deepEqual(
    full.map((d) => [d.code, d.severity, d.span.line, d.span.column]),
    [['undefined-chain', 'error', 2, 12]],
  );
  assert.match(full[0].message, /iptables-restore would reject this rule/);
  // Severity and message agree: never an info that states the rejection as a fact.
  for (const text of ['-A INPUT -j NOPE\n', '*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -j NOPE\n']) {
    const partial = lint(text);
    assert.deepEqual(
      partial.filter((d) => d.code === 'undefined-chain').map((d) => d.severity),
      ['warning'],
    );
    assert.match(
      partial.find((d) => d.code === 'undefined-chain')!.message,
      /if the node has no such chain, iptables-restore rejects this rule/,
    );
  }
});

test('unreferenced chain, unreachable rule, duplicate rule', () => {
  const c = codes(
    [
      '*filter',
      ':INPUT ACCEPT [0:0]',
      ':LONELY - [0:0]',
      '-A INPUT -j ACCEPT',
      '-A INPUT -s 10.0.0.1/32 -j DROP',
      '-A LONELY -j DROP',
      '-A LONELY -j DROP',
      'COMMIT',
    ].join('\n'),
  );
  assert.ok(c.includes('2:unreferenced-chain'));
  assert.ok(c.includes('4:unreachable-rule'));
  assert.ok(c.includes('6:duplicate-rule'));
  assert.ok(c.includes('6:unreachable-rule'));
});

test('probability ladder must give 1/n; 5-decimal ladders pass', () => {
  const svc = serviceChainName('KUBE-SVC-', 'ns/a:p', 'tcp');
  const ladder = (p1: string, p2: string) =>
    [
      '*nat',
      `:${svc} - [0:0]`,
      ':KUBE-SEP-A - [0:0]',
      ':KUBE-SEP-B - [0:0]',
      ':KUBE-SEP-C - [0:0]',
      `-A ${svc} -m statistic --mode random --probability ${p1} -j KUBE-SEP-A`,
      `-A ${svc} -m statistic --mode random --probability ${p2} -j KUBE-SEP-B`,
      `-A ${svc} -j KUBE-SEP-C`,
      'COMMIT',
    ].join('\n');
  assert.deepEqual(
    codes(ladder('0.3333333333', '0.5000000000')).filter((c) => c.includes('ladder')),
    [],
  );
  assert.deepEqual(
    codes(ladder('0.33332999982', '0.50000000000')).filter((c) => c.includes('ladder')),
    [],
  );
  assert.deepEqual(
    codes(ladder('0.5000000000', '0.5000000000')).filter((c) => c.includes('ladder')),
    ['5:probability-ladder'],
  );
});

test('KUBE-NODEPORTS jump not last, unknown module and option, hash mismatch, no endpoints', () => {
  const c = codes(
    [
      '*nat',
      ':KUBE-SERVICES - [0:0]',
      ':KUBE-NODEPORTS - [0:0]',
      ':KUBE-SVC-AAAAAAAAAAAAAAAA - [0:0]',
      ':PREROUTING ACCEPT [0:0]',
      '-A PREROUTING -j KUBE-SERVICES',
      '-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
      '-A KUBE-SERVICES -d 10.0.0.1/32 -p tcp -m comment --comment "ns/a:p cluster IP" -m tcp --dport 80 -j KUBE-SVC-AAAAAAAAAAAAAAAA',
      '-A KUBE-NODEPORTS -m frobnicate --x 1 -j RETURN',
      '-A KUBE-NODEPORTS -m tcp --dportz 1 -j RETURN',
      'COMMIT',
    ].join('\n'),
  );
  assert.ok(c.includes('6:nodeports-not-last'), c.join());
  assert.ok(c.includes('8:unknown-module'));
  assert.ok(c.includes('9:unknown-option'));
  assert.ok(c.includes('3:hash-mismatch'));
  assert.ok(c.includes('3:service-chain-no-endpoints'));
});

test('legacy/nft split warning', () => {
  assert.ok(
    codes(
      '# Warning: iptables-legacy tables present, use iptables-legacy-save to see them\n*filter\nCOMMIT\n',
    ).includes('0:legacy-nft-split'),
  );
});

test('messages exist in both languages for every code and the Chinese text is Chinese', () => {
  for (const code of IPTABLES_LINT_CODES) {
    for (const lang of LANGS) assert.notEqual(t(lang, `lint.${code}`), `lint.${code}`, `${lang} ${code}`);
    assert.match(t('zh-CN', `lint.${code}`), /[\u4e00-\u9fff]/);
  }
  const zh = lint('*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -j NOPE\nCOMMIT\n', 'zh-CN');
  assert.match(zh[0].message, /NOPE.*filter|filter.*NOPE/);
  assert.match(zh[0].message, /[\u4e00-\u9fff]/);
});

test('duplicate rules match however their blanks are written', () => {
  const codes = lint(
    '*filter\n:X - [0:0]\n-A X -m comment --comment a\u00a0b -j ACCEPT\n-A X -m comment --comment a b -j ACCEPT\nCOMMIT\n',
  ).map((d) => d.code);
  assert.ok(codes.includes('duplicate-rule'), codes.join());
});

test('duplicate rules: tabs and space runs collapse, other differences stay', () => {
  const dump = [
    '*filter',
    ':X - [0:0]',
    '-A X -s 10.0.0.4/32 -j ACCEPT',
    '-A X -s  10.0.0.4/32\t-j   ACCEPT',
    '-A X -s 10.0.0.45/32 -j ACCEPT',
    '-A X -s 10.0.0.4/32 -j ACCEPT  ',
    'COMMIT',
  ];
  const dups = lint(dump.join('\n')).filter((d) => d.code === 'duplicate-rule');
  assert.deepEqual(
    dups.map((d) => [d.span.line, d.related?.[0].span.line]),
    [
      [3, 2],
      [5, 2],
    ],
  );
});

test('duplicate rules in short and long chains: each points at the first copy, whatever the targets around it', () => {
  // Many rules of one target (in a long chain found through a map), others of other targets or none, `--jump`
  // for `-j`; short chains compare their rules' targets one by one.
  const targets = [' -j ACCEPT', ' -j DROP', '', ' --jump ACCEPT', ' -j ACCEPT'];
  for (const length of [20, 32, 33, 90]) {
    const rules = Array.from({ length }, (_, i) => `-A X -s 10.0.${i % 11}.0/24${targets[i % 5]}`);
    const dump = ['*filter', ':X - [0:0]', ...rules, 'COMMIT'];
    const expected: [number, number][] = [];
    rules.forEach((r, i) => {
      const first = rules.indexOf(r);
      if (first < i) expected.push([i + 2, first + 2]);
    });
    assert.ok(expected.length > 0);
    const dups = lint(dump.join('\n')).filter((d) => d.code === 'duplicate-rule');
    assert.deepEqual(
      dups.map((d) => [d.span.line, d.related?.[0].span.line]),
      expected,
      `${length} rules`,
    );
  }
});

test('an unconditional goto ends its chain, an unconditional jump to a chain does not', () => {
  const c = codes(
    [
      '*filter',
      ':INPUT ACCEPT [0:0]',
      ':A - [0:0]',
      ':B - [0:0]',
      ':C - [0:0]',
      '-A INPUT -m comment --comment "to A" -j A',
      '-A INPUT -s 10.0.0.1/32 -j DROP',
      '-A INPUT -m comment --comment "to B" -g B',
      '-A INPUT -s 10.0.0.2/32 -j DROP',
      '-A A -p tcp -g C',
      '-A A -j ACCEPT',
      '-A A -j DROP',
      'COMMIT',
    ].join('\n'),
  ).filter((d) => d.endsWith('unreachable-rule'));
  assert.deepEqual(c, ['8:unreachable-rule', '11:unreachable-rule']);
});

test('unreferenced chains are found in a small table of a dump whose big table stays quiet', () => {
  const nat = [
    '*nat',
    ':PREROUTING ACCEPT [0:0]',
    ...Array.from({ length: 1001 }, (_, i) => `:HASHED-${i} - [0:0]`),
    'COMMIT',
  ];
  const filter = [
    '*filter',
    ':INPUT ACCEPT [0:0]',
    ':USED - [0:0]',
    ':BYINSERT - [0:0]',
    ':LONELY - [0:0]',
    '-A INPUT -j USED',
    '-I INPUT 1 -g BYINSERT',
    '-A LONELY -j ACCEPT',
    'COMMIT',
  ];
  const found = lint([...nat, ...filter].join('\n')).filter((d) => d.code === 'unreferenced-chain');
  assert.deepEqual(
    found.map((d) => d.message.includes('LONELY')),
    [true],
  );
  assert.equal(found[0].span.line, nat.length + 4);
});

test('the ladder check reads the first statistic match; -m "" does not make a rule conditional', () => {
  const svc = serviceChainName('KUBE-SVC-', 'a/b', 'tcp');
  const text = `*nat\n:${svc} - [0:0]\n:KUBE-SEP-AAAAAAAAAAAAAAAA - [0:0]\n:KUBE-SEP-BBBBBBBBBBBBBBBB - [0:0]\n-A ${svc} -m statistic --mode nth --every 2 -m statistic --mode random --probability 0.3 -j KUBE-SEP-AAAAAAAAAAAAAAAA\n-A ${svc} -j KUBE-SEP-BBBBBBBBBBBBBBBB\nCOMMIT\n`;
  const ladder = lint(text).filter((d) => d.code === 'probability-ladder');
  assert.equal(ladder.length, 1);
  assert.match(ladder[0].message, /none/);
  const codes = lint('*filter\n:X - [0:0]\n-A X -m "" -j ACCEPT\n-A X -j DROP\nCOMMIT\n').map((d) => d.code);
  assert.ok(codes.includes('unreachable-rule'), codes.join());
});

test('module and target names that are Object.prototype properties lint like any unknown name', () => {
  const codes = lint(
    '*filter\n:X - [0:0]\n-A X -m toString --foo 1 -j ACCEPT\n-A X -j constructor --x 1\n-A X --constructor 1 -j ACCEPT\nCOMMIT\n',
  ).map((d) => d.code);
  assert.ok(codes.includes('unknown-module'), codes.join());
});

test('a loop of jumps and gotos is an error at the jump that closes it, naming the chains; no loop, no finding', () => {
  const table = (chains: string[], rules: string[]) =>
    ['*nat', ':PREROUTING ACCEPT [0:0]', ...chains.map((c) => `:${c} - [0:0]`), ...rules, 'COMMIT', ''].join('\n');
  const loops = (text: string, lang: 'en' | 'zh-CN' = 'en') => lint(text, lang).filter((d) => d.code === 'jump-loop');
  const three = loops(
    table(
      ['A', 'B', 'C', 'S'],
      ['-A PREROUTING -j A', '-A A -p tcp -j B', '-A B -j C', '-A C -s 10.0.0.1/32 -g A', '-A S -j S'],
    ),
  );
  assert.deepEqual(
    three.map((d) => [d.severity, d.span.line, d.span.column]),
    [
      ['error', 9, 23],
      ['error', 10, 8],
    ],
  );
  assert.match(three[0].message, /loop of 3 chains \(A -> B -> C -> A, table nat\).*Too many levels of symbolic links/);
  assert.match(three[1].message, /jumps back to its own chain \(S -> S/);
  assert.match(loops(table(['A', 'B'], ['-A A -j B', '-A B -j A']), 'zh-CN')[0].message, /A -> B -> A.*循环/);
  // Two ways to one chain (a diamond) and a deep ladder are no loop: the kernel runs them.
  assert.deepEqual(loops(table(['A', 'B', 'C', 'D'], ['-A A -j B', '-A A -j C', '-A B -j D', '-A C -g D'])), []);
  const n = 20000;
  const names = Array.from({ length: n }, (_, i) => `C${i}`);
  const ladder = names.slice(1).map((c, i) => `-A C${i} -p tcp -j ${c}`);
  assert.deepEqual(loops(table(names, ['-A PREROUTING -j C0', ...ladder])), []);
  // Closed at its end, the ladder is one loop through all its chains, named by its ends.
  const closed = loops(table(names, ['-A PREROUTING -j C0', ...ladder, `-A C${n - 1} -j C0`]));
  assert.equal(closed.length, 1);
  assert.equal(closed[0].span.line, 2 * n + 2);
  assert.match(closed[0].message, /20000 chains \(C0 -> C1 -> C2 -> C3 -> … -> C19997 -> C19998 -> C19999 -> C0,/);
  // Each tangle of chains that reach one another is said once, by its shortest loop through its first chain.
  const tangle = loops(
    table(['A', 'B', 'C', 'X', 'Y'], ['-A A -j B', '-A B -j C', '-A C -j A', '-A B -j A', '-A X -j Y', '-A Y -j X']),
  );
  assert.deepEqual(
    tangle.map((d) => d.message.match(/\((.*?), table/)![1]),
    ['A -> B -> A', 'X -> Y -> X'],
  );
});
