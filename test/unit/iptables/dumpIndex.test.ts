/**
 * `kpp parse --json` answers a plain iptables-save dump from its index (core/iptables/dumpIndex.ts: counts from
 * the index, the kube view from the words of the lines it reads) instead of a parse: its bytes must be the parse's.
 * Checked over generated kube-proxy dumps with odd Services (no endpoints, affinity, Local policy, external and
 * load-balancer IPs, node ports, IPv6, comments left out), the samples, the shared corpus, and dumps broken on
 * purpose and at random; and a generated dump is in fact answered from its index while a broken one is not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseResultJsonBytes, parseTextJsonBytes } from '../../../src/cli/commands/parseJson';
import { analyzeText } from '../../../src/core/analyze';
import { LineIndex } from '../../../src/core/common/lines';
import { IndexGaveUp, indexKubeFacts, indexSaveDump } from '../../../src/core/iptables/dumpIndex';
import { generateIptablesRestore, type GenerateOptions } from '../../../src/core/iptables/generate';
import { kubeViewOf } from '../../../src/core/iptables/kubeView';
import { modelKubeFacts, type KubeFacts } from '../../../src/core/iptables/kubeFacts';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';
import { CORPUS_MISSING } from '../../helpers/corpus';
import { fuzzSources, mutate, Rng } from '../../helpers/mutate';
import { ODD_SERVICES } from '../../helpers/dumps';
import { kubeProxyDump } from '../trace/helpers';

/** The index's answer is the parse's, in both languages and through both ways of printing. */
function sameAnswer(name: string, text: string): void {
  for (const lang of ['en', 'zh-CN'] as const)
    for (const objectsUpTo of [Infinity, 0])
      assert.equal(
        parseTextJsonBytes(text, lang, objectsUpTo).toString('utf8'),
        parseResultJsonBytes(analyzeText(text), lang, objectsUpTo).toString('utf8'),
        `${name} (${lang}, ${objectsUpTo})`,
      );
}

/** Whether the index answers for the text (no parse), as `parseTextJsonBytes` decides. */
function indexed(text: string): boolean {
  const index = indexSaveDump(new LineIndex(text));
  if (!index) return false;
  kubeViewOf(indexKubeFacts(index));
  return true;
}

function generated(seed: number, options: GenerateOptions = {}, odd = true): string {
  const cluster = syntheticCluster({
    services: 30,
    endpointsPerService: 3,
    seed,
    ...(odd ? ODD_SERVICES : {}),
  });
  return generateIptablesRestore(normaliseCluster(cluster), { clusterCidr: '10.128.0.0/9', ...options }).text;
}

const GENERATED: [string, string][] = [
  ['odd Services', generated(1, { largeClusterMode: false })],
  ['odd Services, by chain', generated(2, { largeClusterMode: false, order: 'by-chain' })],
  ['comments left out (large cluster)', generated(3, { largeClusterMode: true })],
  ['plain Services', generated(4, {}, false)],
  [
    'interface prefix, masquerade-all, no localhost node ports',
    generated(5, {
      podInterfacePrefix: 'veth',
      masqueradeAll: true,
      localhostNodePorts: false,
      randomFully: true,
      nodeName: 'node-1',
    }),
  ],
  ['IPv6', generated(6, { ipFamily: 6, clusterCidr: 'fd00:10::/48', largeClusterMode: false })],
  ['no builtin jumps', generated(7, { builtinJumps: false })],
  [
    'a Service without endpoints',
    kubeProxyDump([
      { ns: 'shop', name: 'empty', clusterIP: '10.96.0.99', port: 80, endpoints: [] },
      { ns: 'shop', name: 'web', clusterIP: '10.96.0.10', port: 80, endpoints: ['10.244.1.5', '10.244.2.6'] },
    ]),
  ],
];

test('generated kube-proxy dumps are answered from their index, with the parse answer', () => {
  for (const [name, text] of GENERATED) {
    assert.ok(indexed(text), `${name}: answered from the index`);
    sameAnswer(name, text);
  }
});

/** Edits of a generated dump that its index must decline or answer as the parse does. */
const BREAKS: [string, (text: string) => string, boolean][] = [
  ['cut in a rule', (t) => t.slice(0, Math.floor(t.length / 2)), false],
  ['cut after a COMMIT', (t) => t.slice(0, t.indexOf('COMMIT') + 7), true],
  ['a chain declared twice', (t) => t.replace(/^(:KUBE-SERVICES .*)$/m, '$1\n$1'), false],
  ['a rule of a chain never declared', (t) => t.replace(/^COMMIT$/m, '-A KUBE-NOWHERE -j ACCEPT\nCOMMIT'), false],
  [
    'an option without its module',
    (t) => t.replace(/^COMMIT$/m, '-A KUBE-SERVICES --dport 80 -j ACCEPT\nCOMMIT'),
    false,
  ],
  [
    'a second rule on a line',
    (t) => t.replace(/ -j KUBE-MARK-MASQ$/m, ' -j KUBE-MARK-MASQ -A KUBE-SERVICES -j RETURN'),
    false,
  ],
  // Each rule-changing command, spelt short or long, is a second rule before a rule's target too.
  ...(['-I', '--insert', '-D', '--delete', '-R', '--replace', '--append'] as const).map(
    (command): [string, (text: string) => string, boolean] => [
      `a second rule on a line (${command})`,
      (t) => t.replace(/ (-j KUBE-MARK-MASQ)$/m, ` ${command} KUBE-SERVICES $1`),
      false,
    ],
  ),
  // Inside a quoted value it is a value's words: the parser says nothing, and the index answers.
  ['a rule command in a quoted comment', (t) => t.replace(/--comment "([^"]*)"/, '--comment "$1 -A X"'), true],
  // The parser reads `-4`/`-6` as stray values (unexpected-word): the clean-line pattern must not take them.
  [
    '-4 and -6 in rules',
    (t) => t.replace(/^(-A KUBE-SERVICES) /m, '$1 -4 ').replace(/^(-A KUBE-SEP-\S+) /m, '$1 -6 '),
    false,
  ],
  ['a comment line after a rule', (t) => t.replace(/^COMMIT$/m, '# a note\nCOMMIT'), false],
  ['a wrapped rule', (t) => t.replace(/ --dport /, '\n  --dport '), false],
  // The view lists an external IP from its rule's destination, and none from a negated one.
  ['negated destinations', (t) => t.replace(/(external IP" -m tcp -p tcp) -d /g, '$1 ! -d '), true],
  // The affinity's seconds are those of the first `recent` module: here it has none.
  ['two recent modules', (t) => t.replace(/-m recent --name/g, '-m recent --rcheck --reap -m recent --name'), true],
  ['a negated port', (t) => t.replace(/ --dport (\d+) -j KUBE-SVC-/, ' --dport ! $1 -j KUBE-SVC-'), true],
  ['a negated flag before a read option', (t) => t.replace(/-m tcp -p tcp -d /, '-m tcp ! --syn -p tcp -d '), true],
  // The endpoint's address then comes from its hairpin rule (`-s IP -j KUBE-MARK-MASQ`): not from a negated one.
  ['endpoint chains without their DNAT rule', (t) => t.replace(/^-A KUBE-SEP-\S+ .* -j DNAT .*\n/gm, ''), true],
  [
    'endpoint chains without their DNAT rule, hairpins negated',
    (t) =>
      t
        .replace(/^-A KUBE-SEP-\S+ .* -j DNAT .*\n/gm, '')
        .replace(/^(-A KUBE-SEP-\S+ .*) -s (\S+) -j KUBE-MARK-MASQ$/gm, '$1 ! -s $2/32 -j KUBE-MARK-MASQ'),
    true,
  ],
  ['quoted words', (t) => t.replace(/-m comment --comment /g, '-m "comment" --comment '), true],
  ['line breaks of Windows', (t) => t.replace(/\n/g, '\r\n'), true],
  ['a byte order mark', (t) => `\ufeff${t}`, true],
  ['counters on the rules', (t) => t.replace(/^-A /gm, '[1:2] -A '), false],
  ['a table given twice', (t) => `${t}*nat\n:X - [0:0]\nCOMMIT\n`, false],
  ['a prompt before the dump', (t) => `$ sudo iptables-save\n${t}`, false],
  ['a log prefix on every line', (t) => t.replace(/^/gm, 'I1207 00:00:00.000 1 proxier.go:1] '), false],
];

/** Every answer of the index's facts about every rule and chain is the parsed model's. */
function sameFacts(name: string, text: string): void {
  const model = analyzeText(text).iptables!;
  const index = indexSaveDump(new LineIndex(text))!;
  assert.ok(index, `${name}: indexed`);
  const fromModel = modelKubeFacts(model);
  const fromIndex = indexKubeFacts(index);
  assert.equal(fromIndex.ruleCount, fromModel.ruleCount, name);
  const ruleFacts = <R, C>(f: KubeFacts<R, C>, r: R) => {
    const id = (n: number) => (n < 0 ? undefined : f.names.nameOf(n));
    return {
      line: f.line(r),
      table: f.table(r),
      chain: id(f.chainOf(r)),
      target: id(f.target(r)),
      comment: id(f.comment(r)),
      commentText: f.commentText(r),
      modules: ['recent', 'statistic', 'addrtype', 'set', 'comment', 'tcp'].filter((m) =>
        f.hasModule(r, f.names.id(m), m),
      ),
      protocol: f.protocol(r),
      destination: f.destination(r),
      source: f.source(r),
      dport: f.dport(r),
      dstType: f.dstType(r),
      probability: f.probabilityText(r),
      seconds: f.recentSeconds(r),
      toDestination: f.toDestination(r),
      mark: f.markOption(r),
      kubeSet: f.matchesKubeSet(r),
      atLine: f.ruleAtLine(f.line(r)) === r,
    };
  };
  for (let i = 0; i < fromModel.ruleCount; i++) {
    // A MARK rule's mark asked right after another rule was read (the view's readMarks: KUBE-MARK-MASQ's rules).
    assert.deepEqual(
      fromIndex.markOption(fromIndex.rule(i)),
      fromModel.markOption(fromModel.rule(i)),
      `${name}: mark of rule ${i}`,
    );
    // The target first, as the view asks it of most rules (the index may read it from the line's end).
    assert.equal(fromIndex.target(fromIndex.rule(i)) < 0, fromModel.target(fromModel.rule(i)) < 0);
    // Then the DNAT address, as of an endpoint chain's rules (read from the words after the target).
    assert.equal(
      fromIndex.toDestination(fromIndex.rule(i)),
      fromModel.toDestination(fromModel.rule(i)),
      `${name}: ${i}`,
    );
    assert.deepEqual(
      ruleFacts(fromIndex, fromIndex.rule(i)),
      ruleFacts(fromModel, fromModel.rule(i)),
      `${name}: rule ${i}`,
    );
  }
  const chains = <R, C>(f: KubeFacts<R, C>) => {
    const out: unknown[] = [];
    f.forEachChain((c) =>
      out.push([f.chainName(c), f.chainRuleCount(c), f.chainLine(c), f.chainsNamed(f.chainName(c)).length]),
    );
    return out;
  };
  assert.deepEqual(chains(fromIndex), chains(fromModel), `${name}: chains`);
}

test('the index answers every fact of every rule as the parsed model does', () => {
  for (const [name, text] of GENERATED) sameFacts(name, text);
  const base = GENERATED[0][1];
  for (const [name, edit, stillIndexed] of BREAKS) if (stillIndexed) sameFacts(name, edit(base));
  // A jump spelt in a quoted comment after the rule's real one (`-g`), and marks set in other ways.
  const odd = base
    .replace(/^(-A KUBE-SEP-\S+ -m comment --comment) (\S+) (.*) -j (\S+)$/gm, '$1 "$2 -j DNAT" $3 -g $4')
    .replace(/--set-xmark 0x4000\/0x4000/g, '--or-mark 0x4000')
    .replace(/-j DNAT --to-destination (\S+)/g, '-j DNAT --random --to-destination "$1" --to-destination 10.1.1.1:1')
    .replace(
      /-m comment --comment ("[^"]*") -m recent/g,
      '-m comment --comment $1 -m comment --comment "x -> y" -m recent',
    );
  assert.notEqual(odd, base);
  sameFacts('jumps in comments, or-mark, two comments', odd);
});

test('broken dumps: the index declines what the parse would say something about, and the answer is the parse', () => {
  const base = GENERATED[0][1];
  for (const [name, edit, stillIndexed] of BREAKS) {
    const text = edit(base);
    assert.notEqual(text, base, `${name}: the edit applies`);
    if (!stillIndexed) assert.equal(indexed(text), false, `${name}: declined`);
    sameAnswer(name, text);
  }
});

test('endpoint chains without their DNAT rule and ladder comments: the address from the hairpin rule, as parsed', () => {
  // Comments left out (a large cluster): no `-> ip:port` on the ladder either, so the hairpin rule's `-s` tells.
  // iptables-save writes the hairpin's source as a /32 network.
  const text = GENERATED[2][1]
    .replace(/^-A KUBE-SEP-\S+ .* -j DNAT .*\n/gm, '')
    .replace(/^(-A KUBE-SEP-\S+.*) -s (\S+) -j KUBE-MARK-MASQ$/gm, '$1 -s $2/32 -j KUBE-MARK-MASQ');
  assert.ok(indexed(text), 'answered from the index');
  assert.match(parseTextJsonBytes(text, 'en').toString('utf8'), /"ip": "10\./);
  sameAnswer('endpoint chains without their DNAT rule, no comments', text);
});

test('a rule the index reader cannot answer as the parse does is parsed', () => {
  const text = GENERATED[0][1].replace(/ --dport (\d+) -j KUBE-SVC-/, ' --dport $1 -m udp --dport 9 -j KUBE-SVC-');
  // Two ports: which one the view reads depends on the order of modules the parser makes.
  assert.throws(() => indexed(text), IndexGaveUp);
  sameAnswer('a port given twice', text);
});

test('generated dumps mutated at random: the answer is the parse', () => {
  const rng = new Rng(2807);
  for (const [name, text] of GENERATED)
    for (let k = 0; k < 8; k++) sameAnswer(`${name} mutated ${k}`, mutate(text, rng, 1 + rng.int(3)));
});

test('the samples, whole and mutated: the answer is the parse', () => {
  const rng = new Rng(28);
  for (const source of fuzzSources('samples')) {
    sameAnswer(source.name, source.text);
    for (let k = 0; k < 4; k++) sameAnswer(`${source.name} mutated ${k}`, mutate(source.text, rng, 1 + rng.int(4)));
  }
});

test('the shared corpus, whole and mutated: the answer is the parse', (t) => {
  const files = fuzzSources('corpus');
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  const rng = new Rng(281);
  let answered = 0;
  for (const f of files) {
    if (indexSaveDump(new LineIndex(f.text))) answered++;
    sameAnswer(f.name, f.text);
    sameAnswer(`${f.name} mutated`, mutate(f.text, rng, 1 + rng.int(3)));
  }
  // Some real dumps are plain iptables-save output: the index answers for them.
  assert.ok(answered > 0, `${answered} of ${files.length} answered from the index`);
});
