/**
 * `kpp trace` reads only the lines a trace needs (core/iptables/traceSlice.ts): its answer must be the whole
 * text's. Checked over generated kube-proxy dumps, the samples, the test dumps, the shared corpus and mutations
 * of each (hostile fragments, broken rule lines), for Services' addresses and others: the trace (JSON and tree,
 * with its hints) and the diagnostics a trace reports (every error, and the codes the hints read) are the same as
 * when every line is read; and a kube-proxy dump is in fact read in part.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { traceJson } from '../../../src/cli/commands/trace';
import { analyzeText } from '../../../src/core/analyze';
import type { Diagnostic } from '../../../src/core/common/diagnostics';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { parseIptables } from '../../../src/core/iptables/parser';
import { formatTraceTree } from '../../../src/core/iptables/trace';
import { dumpIndex } from '../../../src/core/iptables/trace/compile';
import { distinctSteps } from '../../../src/core/iptables/trace/steps';
import type { IptablesDump } from '../../../src/core/iptables/dump';
import { parseIp } from '../../../src/core/common/ip';
import { chainKey, isTraceSlice, traceSliceOf, wordAlternation } from '../../../src/core/iptables/traceSlice';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';
import { traceAnalysis, traceText, type TraceAnswer } from '../../../src/core/traceAnalysis';
import { checkTracePacket } from '../../../src/core/tracePacketInput';
import { CORPUS_MISSING } from '../../helpers/corpus';
import { seedDump } from '../../helpers/dumps';
import { fuzzSources, mutate, Rng } from '../../helpers/mutate';

const NAMES = { src: '--src', dst: '--dst', proto: '--proto', hook: '--hook', localAddresses: '--local-ip' };

function packetOf(dst: string, proto = 'tcp', src = '10.128.0.5') {
  const checked = checkTracePacket({ src, dst, proto }, NAMES);
  assert.ok(checked.ok, dst);
  return checked.packet;
}

/** What a face shows of an answer: `kpp trace --json`, its tree in English and Chinese, IPVS paths. */
function shown(answer: TraceAnswer): unknown {
  switch (answer.engine) {
    case 'iptables':
      return {
        json: traceJson(answer.result),
        en: formatTraceTree(answer.result, 'en'),
        zh: formatTraceTree(answer.result, 'zh-CN'),
        nodeAddresses: answer.nodeAddresses,
      };
    case 'ipvs':
      return answer.resolution ? { paths: answer.paths, explanation: answer.resolution.explanation } : answer.message;
    case 'none':
      return answer.input;
  }
}

/** The diagnostics a trace reads (traceHints): every error, and the codes its hints name. */
function traced(diagnostics: readonly Diagnostic[]): unknown[] {
  const codes = new Set([
    'missing-commit',
    'cut-rule',
    'nft-incompatible',
    'nft-base-chain-not-traced',
    'listing-without-interfaces',
  ]);
  return diagnostics
    .filter((d) => d.severity === 'error' || codes.has(d.code))
    .map((d) => [d.code, d.severity, d.span.line, d.span.column, d.message]);
}

/** Service addresses the text routes (`-d IP/32 ... --dport N`), and a few that are not Services. */
function destinations(text: string, limit = 4): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/-d (\d+\.\d+\.\d+\.\d+)(?:\/32)? .*?--dport (\d+)/g)) {
    if (out.size >= limit) break;
    // A mutated value (`10.96.0.01`, port 99999) is no packet `kpp trace` takes.
    const dst = `${m[1]}:${m[2]}`;
    if (checkTracePacket({ src: '10.128.0.5', dst, proto: 'tcp' }, NAMES).ok) out.add(dst);
  }
  for (const d of ['10.96.0.1:443', '203.0.113.7:80']) out.add(d);
  return [...out];
}

/**
 * Whether, in every chain the trace entered, the tracer looks at the same rules (by line) in the sliced dump as in
 * the whole one, for every destination a walker can have there (the packet's and the DNATs'): the rules it looks
 * at count against its limits, so a slice may leave out only rules the whole text's trace never looks at.
 */
function sameCandidates(name: string, part: IptablesDump, full: IptablesDump, answer: TraceAnswer): void {
  if (answer.engine !== 'iptables') return;
  const hosts = new Set([answer.packet.dst]);
  for (const p of answer.result.paths) if (p.dnat) hosts.add(p.dnat.ip);
  const chains = new Set(distinctSteps(answer.result).map((s) => `${s.table} ${s.chain}`));
  const partIndex = dumpIndex(part);
  const fullIndex = dumpIndex(full);
  for (const key of chains) {
    const [table, chain] = key.split(' ');
    const a = partIndex.chain(table, chain);
    const b = fullIndex.chain(table, chain);
    assert.equal(!a, !b, `${name}: ${key} in both`);
    if (!a || !b) continue;
    for (const host of hosts) {
      const dst = parseIp(host)!.value;
      const lines = (c: typeof a) => c.candidates(dst).map((p) => c.rule(p).line);
      assert.deepEqual(lines(a), lines(b), `${name}: rules of ${key} looked at for ${host}`);
    }
  }
}

/** Whether the trace entered a chain the slice of `part` left out until a trace enters it. */
function enteredDeferred(part: IptablesDump, answer: TraceAnswer & { engine: 'iptables' }): boolean {
  const deferred = traceSliceOf(part)!.deferred;
  return distinctSteps(answer.result).some((s) => deferred.has(chainKey(s.table, s.chain)));
}

/** Whether `kpp trace` gives the whole text's answer for each of the packets, and how many were sliced. */
function sameAnswers(name: string, text: string, dsts = destinations(text)): number {
  let sliced = 0;
  const analysis = analyzeText(text);
  const full = parseIptables(text);
  for (const dst of dsts)
    for (const proto of ['tcp', 'udp']) {
      const packet = packetOf(dst, proto);
      const fast = traceText(text, packet, 'en').answer;
      assert.deepEqual(shown(fast), shown(traceAnalysis(analysis, packet, 'en')), `${name}: trace of ${proto} ${dst}`);
      const focus = { dst: packet.dst, dport: packet.dport, proto };
      let part = parseIptables(text, { traceFocus: focus });
      if (!isTraceSlice(part)) continue;
      // The trace entered a chain the slice left out: it was made on the same slice with that chain read.
      if (fast.engine === 'iptables' && enteredDeferred(part, fast))
        part = parseIptables(text, { traceFocus: { ...focus, again: traceSliceOf(part) } });
      sliced++;
      assert.deepEqual(traced(part.diagnostics), traced(full.diagnostics), `${name}: diagnostics`);
      assert.equal(part.family, full.family, `${name}: family`);
      sameCandidates(name, part, full, fast);
    }
  return sliced;
}

function generated(services: number, endpoints: number, seed: number): string {
  return generateIptablesRestore(
    normaliseCluster(syntheticCluster({ services, endpointsPerService: endpoints, seed, nodePortEvery: 3 })),
    { clusterCidr: '10.128.0.0/9' },
  ).text;
}

test('a generated kube-proxy dump is read in part, and traces as when read whole', () => {
  const text = generated(40, 3, 7);
  const dst = /-d (\d+\.\d+\.\d+\.\d+)(?:\/32)? .*?--dport (\d+)/.exec(text)!;
  const packet = packetOf(`${dst[1]}:${dst[2]}`);
  const { analysis, answer } = traceText(text, packet, 'en');
  assert.ok(isTraceSlice(analysis.iptables!.dump), 'the trace read only the lines it needs');
  const whole = analyzeText(text);
  assert.ok(analysis.iptables!.dump.rules.length * 2 < whole.iptables!.dump.rules.length);
  assert.ok(answer.engine === 'iptables' && answer.result.paths.some((p) => p.dnat));
  assert.deepEqual(shown(answer), shown(traceAnalysis(whole, packet, 'en')));
  // The hints in Chinese too.
  assert.deepEqual(shown(traceText(text, packet, 'zh-CN').answer), shown(traceAnalysis(whole, packet, 'zh-CN')));
  assert.ok(sameAnswers('generated', text) > 0);
});

test('a sliced read sizes its rule store for the rules of the chains it reads, not for the whole text', () => {
  const text = generated(40, 3, 7);
  const dst = /-d (\d+\.\d+\.\d+\.\d+)(?:\/32)? .*?--dport (\d+)/.exec(text)!;
  const dump = parseIptables(text, { traceFocus: { dst: dst[1], dport: Number(dst[2]), proto: 'tcp' } });
  const slice = traceSliceOf(dump)!;
  assert.ok(slice, 'sliced');
  // Every rule of a chain the slice entered is in the characters counted; the rest of the text is not.
  const entered = dump.rules.filter((r) => r.chain.startsWith('KUBE-SEP-') || r.chain.startsWith('KUBE-SVC-'));
  assert.ok(entered.length > 0);
  const enteredChars = entered.reduce((n, r) => n + r.text.length, 0);
  assert.ok(slice.ruleChars >= enteredChars, `${slice.ruleChars} >= ${enteredChars}`);
  assert.ok(slice.ruleChars * 4 < text.length, `${slice.ruleChars} of ${text.length}`);
});

test('a packet no rule DNATs is traced on the whole text (its hints name the Services)', () => {
  const text = generated(10, 2, 3);
  const { analysis } = traceText(text, packetOf('203.0.113.7:80'), 'en');
  assert.equal(isTraceSlice(analysis.iptables!.dump), false);
});

/**
 * The seed's dump with a filter table after it, traced to its Service on a slice: the answer (checked to be the
 * whole text's), and how many rules of a filter chain the slice read.
 */
function sliceWithFilter(filter: string) {
  const text = seedDump().text + filter;
  const packet = packetOf('172.16.0.1:443');
  const { analysis, answer } = traceText(text, packet, 'en');
  const dump = analysis.iptables!.dump;
  assert.ok(isTraceSlice(dump));
  assert.deepEqual(shown(answer), shown(traceAnalysis(analyzeText(text), packet, 'en')));
  const read = (chain: string) => dump.tables.find((t) => t.name === 'filter')!.chains.get(chain)?.rules.length ?? 0;
  return { answer, read };
}

test('chains entered for the address and port a DNAT wrote are read, those of other addresses are not', () => {
  // The seed's Service DNATs to 10.0.1.1x:6443; filter FORWARD then sees that destination and port.
  const filter = [
    '*filter',
    ':INPUT ACCEPT [0:0]',
    ':FORWARD ACCEPT [0:0]',
    ':OUTPUT ACCEPT [0:0]',
    ':TO-APISERVER - [0:0]',
    ':TO-PORT - [0:0]',
    ':TO-OTHER - [0:0]',
    '-A FORWARD -d 10.0.1.12/32 -p tcp -j TO-APISERVER',
    '-A FORWARD -p tcp -m tcp --dport 6443 -j TO-PORT',
    '-A FORWARD -d 10.9.9.9/32 -j TO-OTHER',
    '-A TO-APISERVER -m comment --comment "apiserver 2" -j DROP',
    '-A TO-PORT -s 10.128.0.5/32 -j REJECT --reject-with icmp-port-unreachable',
    '-A TO-OTHER -j DROP',
    'COMMIT',
    '',
  ].join('\n');
  const { answer, read } = sliceWithFilter(filter);
  assert.equal(read('TO-APISERVER'), 1);
  assert.equal(read('TO-PORT'), 1);
  assert.equal(read('TO-OTHER'), 0);
  assert.ok(answer.engine === 'iptables' && answer.result.paths.some((p) => p.verdict === 'DROP'));
});

test('a rule for another protocol, as the tracer reads -p (a number, an alias, any name) and port modules, leads nowhere', () => {
  // The seed's Service DNATs to 10.0.1.1x:6443; filter FORWARD then sees that destination and port, over tcp.
  const filter = [
    '*filter',
    ':INPUT ACCEPT [0:0]',
    ':FORWARD ACCEPT [0:0]',
    ':OUTPUT ACCEPT [0:0]',
    ':BY-NUMBER - [0:0]',
    ':BY-ALIAS - [0:0]',
    ':BY-NAME - [0:0]',
    ':OTHER-PORT - [0:0]',
    ':TCP-BY-NUMBER - [0:0]',
    ':ANY-PROTOCOL - [0:0]',
    '-A FORWARD -p 17 -j BY-NUMBER',
    '-A FORWARD -p ipv6-icmp -j BY-ALIAS',
    '-A FORWARD -p ESP -j BY-NAME',
    '-A FORWARD -p tcp -m dccp --dport 9 -j OTHER-PORT',
    '-A FORWARD -p 6 -j TCP-BY-NUMBER',
    '-A FORWARD -p all -j ANY-PROTOCOL',
    '-A BY-NUMBER -j DROP',
    '-A BY-ALIAS -j DROP',
    '-A BY-NAME -j DROP',
    '-A OTHER-PORT -j DROP',
    '-A TCP-BY-NUMBER -m comment --comment "tcp as its number" -j RETURN',
    '-A ANY-PROTOCOL -s 10.128.0.5/32 -j REJECT --reject-with icmp-port-unreachable',
    'COMMIT',
    '',
  ].join('\n');
  const { answer, read } = sliceWithFilter(filter);
  for (const chain of ['BY-NUMBER', 'BY-ALIAS', 'BY-NAME', 'OTHER-PORT']) assert.equal(read(chain), 0, chain);
  assert.equal(read('TCP-BY-NUMBER'), 1);
  assert.equal(read('ANY-PROTOCOL'), 1);
  assert.ok(answer.engine === 'iptables' && answer.result.paths.some((p) => p.verdict === 'REJECT'));
  assert.ok(sameAnswers('protocols', seedDump().text + filter, ['172.16.0.1:443']) > 0);
});

test('a rule line whose chain word the parser reads otherwise (a wrap glued back, quotes) is no chain of its own', () => {
  const filter = (chainWord: string) =>
    [
      '*filter',
      ':FORWARD ACCEPT [0:0]',
      ':TO-APISERVER - [0:0]',
      ':NEXT - [0:0]',
      '-A FORWARD -p tcp -m tcp --dport 6443 -j TO-APISERVER',
      `-A ${chainWord} -m comment --comment "second hop" -j NEXT`,
      '-A NEXT -j DROP',
      'COMMIT',
      '',
    ].join('\n');
  for (const word of [`TO-APISERV${' '.repeat(24)}ER`, '"TO-APISERVER"', "'TO-APISERVER'"]) {
    const text = seedDump().text + filter(word);
    sameAnswers(word, text, ['172.16.0.1:443']);
    const answer = traceText(text, packetOf('172.16.0.1:443'), 'en').answer;
    assert.ok(answer.engine === 'iptables' && answer.result.paths.every((p) => p.verdict === 'DROP'), word);
  }
});

test('generated dumps with one rule line broken: traces and diagnostics as when read whole', () => {
  const breaks = [
    (l: string) => `${l} "`,
    (l: string) => `${l} '`,
    (l: string) => l.replace(' -j ', ' -j X -j '),
    // A second rule command (two rules run together): the parser's error, counted by the trace either way.
    (l: string) => l.replace(/^-A (\S+)/, '-A $1 -A X'),
    (l: string) => l.replace(' -j ', ' --insert Y -j '),
    (l: string) => `${l} !`,
    (l: string) => `${l} -c 1 2`,
    (l: string) => `${l} --dport`,
    (l: string) => `${l} -m`,
    (l: string) => l.replace(/ -j \S+.*$/, ' -j'),
    (l: string) => l.replace(' --comment ', ' --comment -x '),
    (l: string) => l.replace(' ', '  '),
    (l: string) => l.replace(' -m ', '\t-m '),
    (l: string) => `${l} \\`,
    (l: string) => `${l} extra`,
    (l: string) => `  ${l}`,
    (l: string) => `${l}\r`,
    (l: string) => `${l}\n--to-destination 10.0.0.1:80`,
    (l: string) => `${l}\n# a comment after a rule`,
    (l: string) => `${l} --probability -5x`,
    (l: string) => l.replace('-A ', '-A constructor '),
    (l: string) => l.replace(/"/g, ''),
    (l: string) => l.replace('-m comment --comment', '! -m comment --comment'),
    (l: string) => `${l} --set-xmark`,
    (l: string) => `${l} --tcp-flags SYN`,
    (l: string) => `${l} ü`,
    (l: string) => l.replace(/^-A (\S+)(\S\S) /, `-A $1${' '.repeat(22)}$2 `),
    (l: string) => l.replace(/^-A (\S+) /, '-A "$1" '),
    // Values the slice must not read where the tracer cannot: a leading zero, a port past 65535.
    (l: string) => l.replace(/-d (\d+\.\d+\.\d+\.)(\d+)/, '-d $10$2'),
    (l: string) => l.replace(/--dport \d+/, '--dport 99999'),
  ];
  let sliced = 0;
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 1, max: 1e6 }),
      fc.nat(),
      fc.integer({ min: 0, max: breaks.length - 1 }),
      (services, endpoints, seed, at, how) => {
        const lines = generated(services, endpoints, seed).split('\n');
        const rules = lines.map((l, i) => (l.startsWith('-A ') ? i : -1)).filter((i) => i >= 0);
        const li = rules[at % rules.length];
        lines[li] = breaks[how](lines[li]);
        sliced += sameAnswers(`break ${how} at line ${li + 1}`, lines.join('\n'));
      },
    ),
    { numRuns: 50 },
  );
  // Most broken lines are in chains the packet does not enter: those dumps are still read in part.
  assert.ok(sliced > 0);
});

test('a -d or --dport the tracer cannot read (a leading zero, a port past 65535) may match, as the tracer follows it', () => {
  for (const [name, unreadable] of [
    ['leading zero', '-d 10.96.0.02/32'],
    ['port past 65535', '-d 10.96.0.1/32 -p tcp -m tcp --dport 99999'],
  ]) {
    const text = [
      '*nat',
      ':PREROUTING ACCEPT [0:0]',
      ':KUBE-SERVICES - [0:0]',
      ':KUBE-SVC-AAAAAAAAAAAAAAAA - [0:0]',
      ':KUBE-SVC-BBBBBBBBBBBBBBBB - [0:0]',
      '-A PREROUTING -j KUBE-SERVICES',
      `-A KUBE-SERVICES ${unreadable} -j KUBE-SVC-BBBBBBBBBBBBBBBB`,
      '-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m tcp --dport 443 -j KUBE-SVC-AAAAAAAAAAAAAAAA',
      '-A KUBE-SVC-AAAAAAAAAAAAAAAA -p tcp -j DNAT --to-destination 10.0.0.1:6443',
      '-A KUBE-SVC-BBBBBBBBBBBBBBBB -p tcp -j DNAT --to-destination 10.0.0.2:6443',
      'COMMIT',
      '',
    ].join('\n');
    sameAnswers(name, text, ['10.96.0.1:443']);
  }
});

test('samples and test dumps, whole and mutated: traces and diagnostics as when read whole', () => {
  const rng = new Rng(28);
  for (const source of fuzzSources('samples')) {
    sameAnswers(source.name, source.text);
    for (let k = 0; k < 6; k++) sameAnswers(`${source.name} mutated ${k}`, mutate(source.text, rng, 1 + rng.int(4)));
  }
});

test('the shared corpus, whole and mutated: traces and diagnostics as when read whole', (t) => {
  const files = fuzzSources('corpus').filter((f) => f.name.startsWith('corpus/iptables/'));
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  const rng = new Rng(280);
  for (const f of files) {
    sameAnswers(f.name, f.text);
    sameAnswers(`${f.name} mutated`, mutate(f.text, rng, 1 + rng.int(3)));
  }
});

test('rules of a long chain filed under destinations no walker has are not read; the tracer looks at the same rules', () => {
  // The seed's Service DNATs 172.16.0.1:443 to 10.0.1.1x:6443; filter LONG is entered with those destinations.
  const long = Array.from({ length: 36 }, (_, i) => `-A LONG -d 10.9.0.${i + 1}/32 -j DROP`);
  const filter = [
    '*filter',
    ':INPUT ACCEPT [0:0]',
    ':FORWARD ACCEPT [0:0]',
    ':OUTPUT ACCEPT [0:0]',
    ':LONG - [0:0]',
    '-A FORWARD -j LONG',
    ...long,
    '-A LONG -d 172.16.0.1/32 -j DROP',
    '-A LONG -d 10.0.1.12/32 -p tcp -m tcp --dport 6443 -j REJECT --reject-with icmp-port-unreachable',
    '-A LONG -p udp -j DROP',
    'COMMIT',
    '',
  ].join('\n');
  const text = seedDump().text + filter;
  const packet = packetOf('172.16.0.1:443');
  const { analysis, answer } = traceText(text, packet, 'en');
  const dump = analysis.iptables!.dump;
  assert.ok(isTraceSlice(dump));
  const read = dump.tables
    .find((t) => t.name === 'filter')!
    .chains.get('LONG')!
    .rules.map((r) => r.line);
  const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.startsWith(needle));
  // The Service's own address and the endpoint's stay; so does the rule filed under no host.
  assert.deepEqual(read, [
    lineOf('-A LONG -d 172.16.0.1/32'),
    lineOf('-A LONG -d 10.0.1.12/32'),
    lineOf('-A LONG -p udp'),
  ]);
  assert.ok(answer.engine === 'iptables' && answer.result.paths.some((p) => p.verdict === 'REJECT'));
  // A chain that kept 3 of its 39 rules is still looked up by destination: entered with 10.0.1.11, the tracer
  // looks at the rule filed under no host only, as in the whole text (not at the Service's or 10.0.1.12's).
  sameAnswers('long chain', text, ['172.16.0.1:443']);
});

test('generated dumps of 32 Services or more, a KUBE-SERVICES rule rewritten: as when read whole', () => {
  const rewrites = [
    (l: string) => l.replace(/-d (\S+)/, '--destination $1'),
    (l: string) => l.replace(/-d (\S+)/, '--dst $1'),
    (l: string) => l.replace(/-d (\d+\.\d+\.\d+\.\d+) /, '-d $1/32 '),
    (l: string) => l.replace(/-d (\S+)/, '-d "$1"'),
    (l: string) => l.replace(/-d (\S+)/, '! -d $1'),
    (l: string) => l.replace(/-d (\S+)/, '-d ! $1'),
    (l: string) => l.replace(/-d (\S+)/, '-d $1 -d 10.96.0.1'),
    (l: string) => l.replace(/-d (\S+)/, '-d 10.96.0.1 -d $1'),
    (l: string) => l.replace(/-d (\d+\.\d+\.\d+\.\d+)/, '-d $1/255.255.255.255'),
    (l: string) => l.replace(/-d (\d+\.\d+\.\d+\.\d+)/, '-d $1/31'),
    (l: string) => l.replace(/-d (\d+\.\d+\.\d+\.\d+)/, '-d $1,10.96.0.1'),
    (l: string) => l.replace(/-d (\d+\.\d+\.\d+\.)(\d+)/, '-d $10$2'),
    (l: string) => l.replace(/ -d (\S+)(.*)$/, '$2 -d $1'),
    (l: string) => l.replace(/-d \S+/, '-d 10.96.0.1'),
    (l: string) => l.replace(/-d \S+/, '-d ::1'),
    (l: string) => l.replace(/-d \S+ /, ''),
    (l: string) => l.replace(/-m tcp -p tcp/, '-m udp -p udp'),
    (l: string) => `${l} "`,
    // Near misses of the Service rule's one-pattern reading (readRuleWords): read word by word, judged alike.
    (l: string) => l.replace(/--dport (\S+)/, '--dport ! $1'),
    (l: string) => l.replace(/--dport (\S+)/, '--dport "$1"'),
    (l: string) => l.replace(/-p tcp/, '-p 6'),
    (l: string) => l.replace(/-p tcp/, '! -p tcp'),
    (l: string) => l.replace(/-j (\S+)/, '-j "$1"'),
    (l: string) => l.replace(/-m comment --comment (?:"[^"]*"|\S+) /, ''),
    (l: string) => l.replace(/-m tcp -p tcp/, '-m sctp -p tcp'),
    (l: string) => l.replace(/-m tcp -p tcp/, '-m tcp -p udp'),
  ];
  fc.assert(
    fc.property(
      fc.integer({ min: 32, max: 45 }),
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 1, max: 1e6 }),
      fc.nat(),
      fc.integer({ min: 0, max: rewrites.length - 1 }),
      (services, endpoints, seed, at, how) => {
        const lines = generated(services, endpoints, seed).split('\n');
        const rules = lines.map((l, i) => (l.startsWith('-A KUBE-SERVICES -') && l.includes(' -d ') ? i : -1));
        const candidates = rules.filter((i) => i >= 0);
        const li = candidates[at % candidates.length];
        const original = lines[li];
        lines[li] = rewrites[how](original);
        const text = lines.join('\n');
        // The rewritten rule's Service, and the first few of the dump.
        const own = /-d (\d+\.\d+\.\d+\.\d+)(?:\/32)? .*?--dport (\d+)/.exec(original)!;
        sameAnswers(`rewrite ${how} at line ${li + 1}`, text, [`${own[1]}:${own[2]}`, ...destinations(text, 2)]);
      },
    ),
    { numRuns: 60 },
  );
});

test('a long chain entered only through -m addrtype (KUBE-NODEPORTS) is read when a trace enters it', () => {
  // 200 Services: 67 NodePort rules. A Service's trace DNATs before it gets there: the chain is not read.
  const text = generated(200, 2, 11);
  const dst = /-d (\d+\.\d+\.\d+\.\d+)(?:\/32)? .*?--dport (\d+)/.exec(text)!;
  const packet = packetOf(`${dst[1]}:${dst[2]}`);
  const { analysis, answer } = traceText(text, packet, 'en');
  const nodePorts = (dump: IptablesDump) =>
    dump.tables.find((t) => t.name === 'nat')!.chains.get('KUBE-NODEPORTS')!.rules.length;
  assert.ok(isTraceSlice(analysis.iptables!.dump));
  assert.equal(nodePorts(analysis.iptables!.dump), 0);
  assert.ok(traceSliceOf(analysis.iptables!.dump)!.deferred.has(chainKey('nat', 'KUBE-NODEPORTS')));
  const whole = analyzeText(text);
  assert.ok(nodePorts(whole.iptables!.dump) >= 64);
  assert.deepEqual(shown(answer), shown(traceAnalysis(whole, packet, 'en')));
  sameAnswers('200 Services', text, destinations(text, 3));

  // A Service rule the packet's source fails: the trace goes on to KUBE-NODEPORTS (is the address the node's? both
  // sides), where a rule for its port DNATs. The slice left the chain out; the trace is made again with it read.
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('-A KUBE-SERVICES ') && l.includes(` -d ${dst[1]} `));
  lines[at] = lines[at].replace(' -d ', ' -s 192.168.0.0/16 -d ');
  const svc = / -j (KUBE-SVC-\S+)/.exec(lines[at])![1];
  const nodePortAt = lines.findIndex((l) => l.startsWith('-A KUBE-NODEPORTS '));
  lines.splice(nodePortAt, 0, `-A KUBE-NODEPORTS -m tcp -p tcp --dport ${dst[2]} -j ${svc}`);
  const entered = lines.join('\n');
  const again = traceText(entered, packet, 'en');
  assert.ok(isTraceSlice(again.analysis.iptables!.dump), 'read again in part');
  assert.ok(nodePorts(again.analysis.iptables!.dump) >= 64);
  assert.ok(again.answer.engine === 'iptables' && again.answer.result.paths.some((p) => p.dnat));
  assert.deepEqual(shown(again.answer), shown(traceAnalysis(analyzeText(entered), packet, 'en')));
  sameAnswers('KUBE-NODEPORTS entered', entered, [`${dst[1]}:${dst[2]}`]);
});

test('a long chain only its rules make (no declaration) is read whole: it would go missing or move without them', () => {
  const long = Array.from({ length: 32 }, (_, i) => `-A LONG -d 10.9.0.${i + 1}/32 -j DROP`);
  const svc = [
    '-A SVC -m statistic --mode random --probability 0.5 -j LONG',
    '-A SVC -p tcp -j DNAT --to-destination 10.0.0.1:8080',
  ];
  const jump = '-A PREROUTING -d 10.96.0.1/32 -p tcp -m tcp --dport 80 -j SVC';
  const texts = {
    // Every rule of LONG is filed under another host: without them the chain would not exist.
    'undeclared user chain': ['*nat', ':PREROUTING ACCEPT [0:0]', ':SVC - [0:0]', jump, ...svc, ...long, 'COMMIT'],
    // Its first rule is under another host: the chain's line (its return step) comes from that rule.
    'undeclared chain, a rule for the packet last': [
      '*nat',
      ':PREROUTING ACCEPT [0:0]',
      ':SVC - [0:0]',
      jump,
      ...svc,
      ...long,
      '-A LONG -d 10.96.0.1/32 -p udp -j DROP',
      'COMMIT',
    ],
    // A restore input without the built-in chain's declaration: its policy step's line is its first rule's.
    'undeclared built-in chain': [
      '*nat',
      ':SVC - [0:0]',
      ...long.map((l) => l.replace('-A LONG', '-A PREROUTING')),
      jump,
      ...svc.slice(1),
      'COMMIT',
    ],
  };
  for (const [name, lines] of Object.entries(texts)) {
    const text = `${lines.join('\n')}\n`;
    assert.ok(sameAnswers(name, text, ['10.96.0.1:80']) > 0, `${name}: sliced`);
  }
});

test('the option words of the clean-line pattern, written as a tree of their beginnings, match exactly those words', () => {
  const word = fc.stringMatching(/^--?[a-c0-9][a-c0-9-]{0,5}$/);
  fc.assert(
    fc.property(
      fc.uniqueArray(word, { minLength: 1, maxLength: 40 }),
      fc.array(word, { maxLength: 40 }),
      (words, others) => {
        const pattern = new RegExp(`^${wordAlternation(words)}$`);
        for (const w of words) assert.ok(pattern.test(w), `${w} in ${pattern}`);
        // Near misses: other words, each word's beginnings and longer forms, a dash more or less.
        const near = [...others, ...words.flatMap((w) => [w.slice(0, -1), `${w}a`, `-${w}`, w.slice(1)])];
        for (const w of near) assert.equal(pattern.test(w), words.includes(w), `${w} against ${pattern}`);
      },
    ),
    { numRuns: 300 },
  );
  // Both spellings of a name are written once after `--?`; a name with one spelling keeps it.
  assert.equal(wordAlternation(['--match', '-match', '-m', '--m']), '(?:--?(?:m(?:atch)?))');
  const lone = new RegExp(`^${wordAlternation(['--dport', '-s', '--set-counters', '-set-counters'])}$`);
  for (const w of ['--dport', '-s', '--set-counters', '-set-counters']) assert.ok(lone.test(w), w);
  for (const w of ['-dport', '--s', '--set', '-set-counter']) assert.ok(!lone.test(w), w);
});
