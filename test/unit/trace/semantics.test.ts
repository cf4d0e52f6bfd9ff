import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket } from '../../../src/core/iptables/trace';
import { assertSumsToOne, saveText, TCP, trace } from './helpers';

const BUILTIN_NAT = { PREROUTING: 'ACCEPT', INPUT: 'ACCEPT', OUTPUT: 'ACCEPT', POSTROUTING: 'ACCEPT' };
const BUILTIN_FILTER = { INPUT: 'ACCEPT', FORWARD: 'ACCEPT', OUTPUT: 'ACCEPT' };

/** A filter table whose FORWARD chain holds `rules`; a path that reaches the end is accepted by policy. */
function forward(rules: string[], chains: string[] = [], policy = 'ACCEPT'): string {
  return saveText({ filter: { policies: { ...BUILTIN_FILTER, FORWARD: policy }, chains, rules } });
}

const PKT = TCP('10.1.1.1', '10.2.2.2', 80);

function verdicts(text: string, packet = PKT): string[] {
  const r = trace(text, packet);
  assertSumsToOne(r);
  return r.paths.map((p) => p.verdict);
}

describe('trace: chains, jumps, gotos, policies', () => {
  it('jump returns to the caller; goto does not', () => {
    const chains = ['A', 'B'];
    const viaJump = forward(['-A FORWARD -j A', '-A FORWARD -j DROP', '-A A -j B', '-A A -j ACCEPT'], chains);
    // A jumps B (empty), back in A: ACCEPT.
    assert.deepEqual(verdicts(viaJump), ['ACCEPT']);
    const viaGoto = forward(['-A FORWARD -j A', '-A FORWARD -j DROP', '-A A -g B', '-A A -j ACCEPT'], chains);
    // A goes to B; B ends and returns to FORWARD (A's caller), skipping A's ACCEPT: DROP.
    const r = trace(viaGoto, PKT);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['DROP'],
    );
    assert.deepEqual(
      r.paths[0].steps.map((s) => `${s.chain}:${s.action}`),
      ['FORWARD:jump', 'A:goto', 'B:return', 'FORWARD:terminal'],
    );
  });

  it('goto from a builtin chain: the end of the target chain applies the builtin policy', () => {
    const text = forward(['-A FORWARD -g A', '-A FORWARD -j ACCEPT'], ['A'], 'DROP');
    const r = trace(text, PKT);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['DROP'],
    );
    assert.equal(r.paths[0].steps.at(-1)?.action, 'policy');
  });

  it('RETURN from a builtin chain applies the policy (DROP)', () => {
    const text = forward(['-A FORWARD -s 10.1.1.0/24 -j RETURN', '-A FORWARD -j ACCEPT'], [], 'DROP');
    const r = trace(text, PKT);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['DROP'],
    );
    const steps = r.paths[0].steps;
    assert.deepEqual(
      steps.map((s) => s.action),
      ['return', 'policy'],
    );
    assert.equal(steps[1].rule, '-P FORWARD DROP');
    // The policy step points at the chain's declaration line.
    assert.match(text.split('\n')[steps[1].line], /^:FORWARD DROP/);
    // A source outside 10.1.1.0/24 skips the RETURN and is accepted.
    assert.deepEqual(verdicts(text, TCP('10.9.9.9', '10.2.2.2', 80)), ['ACCEPT']);
  });

  it('a loop of jumps is stopped with UNKNOWN at the jump back, naming the chains of the loop', () => {
    const text = forward(['-A FORWARD -j A', '-A A -j B', '-A B -j C', '-A C -j B'], ['A', 'B', 'C']);
    const r = trace(text, PKT);
    assertSumsToOne(r);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['UNKNOWN'],
    );
    assert.deepEqual(
      r.paths[0].steps.map((s) => `${s.chain}:${s.action}`),
      ['FORWARD:jump', 'A:jump', 'B:jump', 'C:jump'],
    );
    const loop = r.warningMessages.find((m) => m.code === 'warn.loop');
    assert.deepEqual(loop?.params, { where: 'filter/C:11', cycle: 'B -> C -> B', count: 2 });
    assert.ok(r.warnings.some((w) => /a loop of 2 chains \(B -> C -> B\).*Too many levels of symbolic links/.test(w)));
  });

  it('a loop of gotos is stopped too, the chains left by goto counted in it', () => {
    const text = forward(['-A FORWARD -j A', '-A A -g B', '-A B -g A'], ['A', 'B']);
    const r = trace(text, PKT);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['UNKNOWN'],
    );
    assert.equal(r.warningMessages.find((m) => m.code === 'warn.loop')?.params.cycle, 'A -> B -> A');
    const self = trace(forward(['-A FORWARD -j A', '-A A -g A'], ['A']), PKT);
    assert.match(self.warnings.join('\n'), /jumps back to its own chain \(A -> A\)/);
  });

  it('a chain entered again after its call returned is no loop, also when that call went on by goto', () => {
    const text = forward(
      ['-A FORWARD -j A', '-A FORWARD -j A', '-A FORWARD -j B', '-A FORWARD -j DROP', '-A A -g B', '-A B -j RETURN'],
      ['A', 'B'],
    );
    const r = trace(text, PKT);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['DROP'],
    );
    assert.deepEqual(
      r.warningMessages.filter((m) => m.code === 'warn.loop'),
      [],
    );
  });

  it('a ladder of chains deeper than nf_tables allows is followed as iptables-legacy does, and said of', () => {
    // 20,000 chains deep, by jumps and by gotos: each is followed to the DROP at its end.
    const n = 20000;
    const names = Array.from({ length: n }, (_, i) => `C${i}`);
    for (const how of ['-j', '-g']) {
      const rules = ['-A FORWARD -j C0', ...names.slice(1).map((c, i) => `-A C${i} -p tcp ${how} ${c}`)];
      const r = trace(forward([...rules, `-A C${n - 1} -j DROP`], names), PKT);
      assert.deepEqual(
        r.paths.map((p) => p.verdict),
        ['DROP'],
        how,
      );
      assert.equal(r.paths[0].steps.length, n + 1);
      // The 16th level (C15) is where iptables-nft refuses the ruleset: said once, without stopping.
      const deep = r.warningMessages.filter((m) => m.code.startsWith('warn.nft'));
      assert.deepEqual(
        deep.map((m) => [m.code, m.params.chain, m.params.depth, m.params.base]),
        [['warn.nft-would-refuse', 'C15', 16, 'FORWARD']],
      );
    }
  });

  it('past 16 levels a dump of iptables-nft stops as UNKNOWN, saying why; one of iptables-legacy goes on quietly', () => {
    const names = Array.from({ length: 20 }, (_, i) => `C${i}`);
    const rules = ['-A FORWARD -j C0', ...names.slice(1).map((c, i) => `-A C${i} -p tcp -j ${c}`), '-A C19 -j DROP'];
    const dump = forward(rules, names);
    const nft = trace(`# Generated by iptables-nft-save v1.8.7 on Mon Dec  7 10:00:00 2026\n${dump}`, PKT);
    assert.deepEqual(
      nft.paths.map((p) => p.verdict),
      ['UNKNOWN'],
    );
    assert.equal(nft.paths[0].steps.at(-1)?.chain, 'C14');
    assert.match(nft.warnings.join('\n'), /C15, 16 jumps and gotos below FORWARD: nf_tables .* refuses/);
    const legacy = trace(`# Generated by iptables-save v1.8.7 (legacy) on Mon Dec  7 10:00:00 2026\n${dump}`, PKT);
    assert.deepEqual(
      legacy.paths.map((p) => p.verdict),
      ['DROP'],
    );
    assert.deepEqual(
      legacy.warningMessages.filter((m) => m.code.startsWith('warn.nft')),
      [],
    );
  });

  it('an unknown target warns and continues; a jump to a chain missing from the paste ends the path as UNKNOWN', () => {
    const unknown = trace(forward(['-A FORWARD -j WEIRD --weird-opt 1', '-A FORWARD -j DROP']), PKT);
    assert.deepEqual(
      unknown.paths.map((p) => p.verdict),
      ['DROP'],
    );
    assert.deepEqual(
      unknown.warningMessages.map((m) => m.code).filter((c) => c !== 'warn.no-local-addresses'),
      ['warn.unknown-target'],
    );
    const missing = trace(forward(['-A FORWARD -j NOSUCHCHAIN', '-A FORWARD -j DROP']), PKT);
    assert.deepEqual(
      missing.paths.map((p) => p.verdict),
      ['UNKNOWN'],
    );
    assert.deepEqual(
      missing.warningMessages.map((m) => m.code).filter((c) => c !== 'warn.no-local-addresses'),
      ['warn.undefined-chain'],
    );
  });

  it('KUBE-MARK-MASQ missing from a paste still sets the masquerade bit', () => {
    const r = trace(forward(['-A FORWARD -j KUBE-MARK-MASQ', '-A FORWARD -m mark --mark 0x4000/0x4000 -j DROP']), PKT);
    assert.deepEqual(
      r.paths.map((p) => [p.verdict, p.mark]),
      [['DROP', 0x4000]],
    );
  });

  it('a table absent from the dump accepts untouched; a builtin chain absent from a present table too', () => {
    const onlyNat = saveText({ nat: { policies: { PREROUTING: 'ACCEPT' }, rules: [] } });
    const r = trace(onlyNat, PKT);
    assert.equal(r.paths.length, 1);
    assert.equal(r.paths[0].verdict, 'ACCEPT');
    assert.equal(r.paths.length, 1);
  });

  it('policy unknown (rule lines without declarations) is assumed ACCEPT and said so', () => {
    const r = tracePacket(parseIptables('-A FORWARD -s 10.9.0.0/16 -j DROP\n'), PKT);
    assert.equal(r.paths[0].verdict, 'ACCEPT');
    assert.ok(r.paths[0].assumptionMessages.some((m) => m.code === 'assume.policy-accept'));
  });

  it('LOG and rules without a target continue; QUEUE ends the path', () => {
    const text = forward([
      '-A FORWARD -j LOG --log-prefix "x: "',
      '-A FORWARD -s 10.1.1.1',
      '-A FORWARD -j NFQUEUE --queue-num 1',
    ]);
    const r = trace(text, PKT);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['QUEUE'],
    );
    assert.deepEqual(
      r.paths[0].steps.map((s) => s.action),
      ['continue', 'match', 'terminal'],
    );
  });

  it('NOTRACK in raw skips the nat table', () => {
    const text = saveText({
      raw: {
        policies: { PREROUTING: 'ACCEPT', OUTPUT: 'ACCEPT' },
        rules: ['-A PREROUTING -d 10.2.2.2 -j CT --notrack'],
      },
      nat: { policies: BUILTIN_NAT, rules: ['-A PREROUTING -j DNAT --to-destination 10.3.3.3'] },
      filter: {
        policies: BUILTIN_FILTER,
        rules: ['-A FORWARD -m conntrack --ctstate UNTRACKED -j ACCEPT', '-A FORWARD -j DROP'],
      },
    });
    const r = trace(text, PKT);
    assert.equal(r.paths[0].dnat, null);
    assert.equal(r.paths[0].verdict, 'ACCEPT');
  });
});

describe('trace: matches', () => {
  it('addresses, CIDRs, netmasks and negations', () => {
    const rules = (m: string) => forward([`-A FORWARD ${m} -j DROP`]);
    assert.deepEqual(verdicts(rules('-s 10.1.0.0/16')), ['DROP']);
    assert.deepEqual(verdicts(rules('-s 10.1.0.0/255.255.0.0')), ['DROP']);
    assert.deepEqual(verdicts(rules('! -s 10.1.0.0/16')), ['ACCEPT']);
    assert.deepEqual(verdicts(rules('-d 10.2.2.2/32')), ['DROP']);
    assert.deepEqual(verdicts(rules('! -d 10.2.2.3')), ['DROP']);
    assert.deepEqual(verdicts(rules('-s 10.5.0.0/16,10.1.1.1')), ['DROP']);
  });

  it('protocols by name and number, with negation', () => {
    const rules = (m: string) => forward([`-A FORWARD ${m} -j DROP`]);
    assert.deepEqual(verdicts(rules('-p tcp')), ['DROP']);
    assert.deepEqual(verdicts(rules('-p 6')), ['DROP']);
    assert.deepEqual(verdicts(rules('-p udp')), ['ACCEPT']);
    assert.deepEqual(verdicts(rules('! -p udp')), ['DROP']);
    assert.deepEqual(verdicts(rules('-p all')), ['DROP']);
    assert.deepEqual(verdicts(rules('-p 17'), { ...PKT, proto: 'udp' }), ['DROP']);
  });

  it('ports: single, ranges, open ranges and negation', () => {
    const rules = (m: string) => forward([`-A FORWARD -p tcp ${m} -j DROP`]);
    assert.deepEqual(verdicts(rules('--dport 80')), ['DROP']);
    assert.deepEqual(verdicts(rules('-m tcp --dport 70:90')), ['DROP']);
    assert.deepEqual(verdicts(rules('-m tcp --dport 81:90')), ['ACCEPT']);
    assert.deepEqual(verdicts(rules('--dport :80')), ['DROP']);
    assert.deepEqual(verdicts(rules('--dport 81:')), ['ACCEPT']);
    assert.deepEqual(verdicts(rules('! --dport 443')), ['DROP']);
    assert.deepEqual(verdicts(rules('--sport 1000:2000'), { ...PKT, sport: 1500 }), ['DROP']);
  });

  it('multiport lists with ranges', () => {
    const rules = (m: string) => forward([`-A FORWARD -p tcp -m multiport ${m} -j DROP`]);
    assert.deepEqual(verdicts(rules('--dports 22,443,8000:9000'), { ...PKT, dport: 8080 }), ['DROP']);
    assert.deepEqual(verdicts(rules('--dports 22,443,8000:9000')), ['ACCEPT']);
    assert.deepEqual(verdicts(rules('! --dports 22,443')), ['DROP']);
    assert.deepEqual(verdicts(rules('--ports 53,80')), ['DROP']);
    assert.deepEqual(verdicts(rules('--sports 53,80'), { ...PKT, sport: 53 }), ['DROP']);
  });

  it('an unknown source port forks with an assumption', () => {
    const r = trace(forward(['-A FORWARD -p tcp --sport 1024:65535 -j DROP']), PKT);
    assertSumsToOne(r);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['DROP', 'ACCEPT'],
    );
    assert.match(r.paths[0].assumptions[0], /assumed `.*--sport 1024:65535` matches/);
  });

  it('interfaces with + wildcards; an unknown interface forks unless the packet gives it', () => {
    const text = forward(['-A FORWARD -i cali+ -j DROP']);
    assert.deepEqual(verdicts(text, { ...PKT, inIface: 'cali1234' }), ['DROP']);
    assert.deepEqual(verdicts(text, { ...PKT, inIface: 'eth0' }), ['ACCEPT']);
    const r = trace(text, PKT);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['DROP', 'ACCEPT'],
    );
    assert.match(r.paths[0].assumptions[0], /came in on an interface matching cali\+/);
    assert.match(r.paths[1].assumptions[0], /did not come in/);
    // Negated: `! -o eth0` with the out interface given.
    const out = forward(['-A FORWARD ! -o eth0 -j DROP']);
    assert.deepEqual(verdicts(out, { ...PKT, outIface: 'eth0' }), ['ACCEPT']);
    assert.deepEqual(verdicts(out, { ...PKT, outIface: 'eth1' }), ['DROP']);
  });

  it('an interface fact is decided once per path', () => {
    const text = forward(['-A FORWARD -i eth0 -j A', '-A FORWARD -i eth0 -j DROP'], ['A']);
    const r = trace(text, PKT);
    assertSumsToOne(r);
    assert.equal(r.paths.length, 2);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['DROP', 'ACCEPT'],
    );
  });

  it('mark matches with masks and negation', () => {
    const text = forward(['-A FORWARD -m mark --mark 0x4000/0x4000 -j DROP']);
    assert.deepEqual(verdicts(text, { ...PKT, mark: 0x4001 }), ['DROP']);
    assert.deepEqual(verdicts(text, { ...PKT, mark: 0x1 }), ['ACCEPT']);
    const neg = forward(['-A FORWARD -m mark ! --mark 0x8000/0x8000 -j DROP']);
    assert.deepEqual(verdicts(neg, { ...PKT, mark: 0x4000 }), ['DROP']);
  });

  it('MARK targets: set-xmark, set-mark, or, and, xor', () => {
    const markAfter = (target: string, start: number) => {
      const r = trace(forward([`-A FORWARD -j MARK ${target}`]), { ...PKT, mark: start });
      return r.paths[0].mark;
    };
    assert.equal(markAfter('--set-xmark 0x4000/0x4000', 0x1), 0x4001);
    assert.equal(markAfter('--set-xmark 0x4000/0x0', 0x4001), 0x0001);
    assert.equal(markAfter('--set-xmark 0x10/0xffffffff', 0xff), 0x10);
    assert.equal(markAfter('--set-mark 0x2/0x3', 0xf1), 0xf2);
    assert.equal(markAfter('--or-mark 0x4000', 0x1), 0x4001);
    assert.equal(markAfter('--and-mark 0xff', 0x4f01), 0x01);
    assert.equal(markAfter('--xor-mark 0x4000', 0x4001), 0x1);
  });

  it('conntrack: NEW matches, ESTABLISHED/RELATED/INVALID do not, DNAT after a DNAT happened', () => {
    const rules = (m: string) => forward([`-A FORWARD -m conntrack ${m} -j DROP`]);
    assert.deepEqual(verdicts(rules('--ctstate NEW')), ['DROP']);
    assert.deepEqual(verdicts(rules('--ctstate RELATED,ESTABLISHED')), ['ACCEPT']);
    assert.deepEqual(verdicts(rules('--ctstate INVALID')), ['ACCEPT']);
    assert.deepEqual(verdicts(rules('! --ctstate RELATED,ESTABLISHED')), ['DROP']);
    assert.deepEqual(verdicts(forward(['-A FORWARD -m state --state NEW -j DROP'])), ['DROP']);
    const dnat = saveText({
      nat: {
        policies: BUILTIN_NAT,
        rules: ['-A PREROUTING -d 10.2.2.2 -p tcp -j DNAT --to-destination 10.3.3.3:8080'],
      },
      filter: {
        policies: BUILTIN_FILTER,
        rules: ['-A FORWARD -m conntrack --ctstate DNAT --ctorigdst 10.2.2.2 --ctorigdstport 80 -j DROP'],
      },
    });
    assert.deepEqual(verdicts(dnat), ['DROP']);
    assert.deepEqual(verdicts(rules('--ctstate DNAT')), ['ACCEPT']);
  });

  it('DNAT rewrites the destination for later tables; ranges take the first address and port', () => {
    const text = saveText({
      nat: {
        policies: BUILTIN_NAT,
        rules: ['-A PREROUTING -p tcp -j DNAT --to-destination 10.3.3.3-10.3.3.9:8080-8090'],
      },
      filter: { policies: BUILTIN_FILTER, rules: ['-A FORWARD -d 10.3.3.3 -p tcp --dport 8080 -j REJECT'] },
    });
    const r = trace(text, PKT);
    assert.deepEqual(r.paths[0].dnat, { ip: '10.3.3.3', port: 8080 });
    assert.equal(r.paths[0].verdict, 'REJECT');
    assert.match(r.paths[0].steps[0].note ?? '', /first of the range/);
  });

  it('DNAT ends the nat chain for this hook like ACCEPT', () => {
    const text = saveText({
      nat: {
        policies: BUILTIN_NAT,
        rules: ['-A PREROUTING -j DNAT --to-destination 10.3.3.3', '-A PREROUTING -j DNAT --to-destination 10.4.4.4'],
      },
    });
    assert.deepEqual(trace(text, PKT).paths[0].dnat, { ip: '10.3.3.3', port: PKT.dport });
  });

  it("DNAT and REDIRECT without a port keep the packet's destination port", () => {
    const dnat = saveText({
      nat: { policies: BUILTIN_NAT, rules: ['-A PREROUTING -p tcp -j DNAT --to-destination 10.3.3.3'] },
    });
    assert.deepEqual(trace(dnat, { ...PKT, dport: 8443 }).paths[0].dnat, { ip: '10.3.3.3', port: 8443 });
    const redirect = saveText({ nat: { policies: BUILTIN_NAT, rules: ['-A PREROUTING -p tcp -j REDIRECT'] } });
    const r = trace(redirect, { ...PKT, dport: 8443, localAddresses: ['192.168.10.20'] }).paths[0].dnat;
    assert.equal(r?.port, 8443);
  });

  it('routing: a destination among localAddresses goes to INPUT, else FORWARD', () => {
    const text = saveText({
      filter: { policies: BUILTIN_FILTER, rules: ['-A INPUT -j REJECT', '-A FORWARD -j DROP'] },
    });
    assert.deepEqual(verdicts(text, { ...PKT, localAddresses: ['10.2.2.2'] }), ['REJECT']);
    assert.deepEqual(verdicts(text, { ...PKT, localAddresses: ['10.2.2.5'] }), ['DROP']);
  });

  it('hook output to one of the node addresses comes back through loopback into INPUT, without nat', () => {
    const text = saveText({
      nat: {
        policies: BUILTIN_NAT,
        rules: ['-A INPUT -j SNAT --to-source 10.9.9.9', '-A OUTPUT -o lo -j MARK --or-mark 0x1'],
      },
      filter: { policies: BUILTIN_FILTER, rules: ['-A INPUT -i lo -m mark --mark 0x1 -j REJECT'] },
    });
    const r = trace(text, {
      src: '10.2.2.2',
      dst: '10.2.2.2',
      dport: 22,
      proto: 'tcp',
      hook: 'output',
      localAddresses: ['10.2.2.2'],
    });
    assertSumsToOne(r);
    assert.deepEqual(
      r.paths.map((p) => [p.verdict, p.route, p.snat]),
      [['REJECT', 'input', null]],
    );
  });

  it('REDIRECT sends the packet to the node; SNAT and MASQUERADE record the new source', () => {
    const text = saveText({
      nat: {
        policies: BUILTIN_NAT,
        rules: [
          '-A PREROUTING -p tcp --dport 80 -j REDIRECT --to-ports 15001',
          '-A POSTROUTING -o eth1 -j SNAT --to-source 192.0.2.1:1000-2000',
          '-A POSTROUTING -o eth0 -j MASQUERADE',
        ],
      },
    });
    const local = trace(text, { ...PKT, localAddresses: ['10.0.0.9'] });
    assert.deepEqual(
      local.paths.map((p) => [p.route, p.dnat]),
      [['input', { ip: '10.0.0.9', port: 15001 }]],
    );
    const out = (outIface: string) => trace(text, { ...PKT, dport: 443, outIface }).paths[0];
    assert.deepEqual(out('eth1').snat, { ip: '192.0.2.1', port: 1000 });
    assert.equal(out('eth0').masquerade, true);
    assert.equal(out('eth2').masquerade, false);
  });

  it('IPv6 dumps: addresses, DNAT to [v6]:port', () => {
    const text = [
      '# Generated by ip6tables-save v1.8.7',
      '*nat',
      ':PREROUTING ACCEPT [0:0]',
      ':KUBE-SVC-X - [0:0]',
      '-A PREROUTING -d fd00:10:96::a/128 -p tcp -m tcp --dport 53 -j KUBE-SVC-X',
      '-A KUBE-SVC-X -p tcp -m tcp -j DNAT --to-destination [fd00:10:244::5]:53',
      'COMMIT',
      '',
    ].join('\n');
    const r = trace(text, { src: 'fd00:10:244::9', dst: 'fd00:10:96::a', dport: 53, proto: 'tcp', hook: 'prerouting' });
    assert.deepEqual(r.paths[0].dnat, { ip: 'fd00:10:244::5', port: 53 });
  });

  it('tcp flags: the first packet is a SYN', () => {
    assert.deepEqual(verdicts(forward(['-A FORWARD -p tcp --syn -j DROP'])), ['DROP']);
    assert.deepEqual(verdicts(forward(['-A FORWARD -p tcp -m tcp --tcp-flags SYN,ACK SYN,ACK -j DROP'])), ['ACCEPT']);
    assert.deepEqual(verdicts(forward(['-A FORWARD -p tcp -m tcp --tcp-flags FIN,SYN,RST,ACK SYN -j DROP'])), ['DROP']);
    assert.deepEqual(verdicts(forward(['-A FORWARD -p tcp -m tcp ! --syn -j DROP'])), ['ACCEPT']);
  });

  it('comments always match; fragments never match a first packet', () => {
    assert.deepEqual(verdicts(forward(['-A FORWARD -m comment --comment "anything" -j DROP'])), ['DROP']);
    assert.deepEqual(verdicts(forward(['-A FORWARD -f -j DROP'])), ['ACCEPT']);
  });
});

describe('trace: forks', () => {
  it('an ipset match forks with an assumption naming the set, decided once per path', () => {
    const text = forward(
      [
        '-A FORWARD -m set --match-set KUBE-CLUSTER-IP dst,dst -j A',
        '-A FORWARD -m set --match-set KUBE-CLUSTER-IP dst,dst -j DROP',
      ],
      ['A'],
    );
    const r = trace(text, PKT);
    assertSumsToOne(r);
    assert.equal(r.paths.length, 2);
    assert.deepEqual(
      r.paths.map((p) => p.verdict),
      ['DROP', 'ACCEPT'],
    );
    assert.match(r.paths[0].assumptions[0], /is in ipset KUBE-CLUSTER-IP/);
    assert.match(r.paths[1].assumptions[0], /is not in ipset KUBE-CLUSTER-IP/);
    assert.equal(r.paths[0].assumptionMessages[0].code, 'assume.in-set');
    // Membership is a fact the dump cannot decide, not a draw: two alternatives, each certain under its condition.
    for (const p of r.paths) assert.equal(p.probability, 1);
    assert.deepEqual(
      r.paths.map((p) => p.given.map((g) => g.replace(/\(.*\)/, '()'))),
      [['if dst,dst () is in ipset KUBE-CLUSTER-IP'], ['if dst,dst () is not in ipset KUBE-CLUSTER-IP']],
    );
  });

  it('recent: a new client is not in the list (--rcheck fails), --set always matches', () => {
    const check = trace(forward(['-A FORWARD -m recent --name x --rcheck --seconds 10 -j DROP']), PKT);
    assert.deepEqual(
      check.paths.map((p) => p.verdict),
      ['ACCEPT'],
    );
    const set = trace(forward(['-A FORWARD -m recent --name x --set -j DROP']), PKT);
    assert.deepEqual(
      set.paths.map((p) => p.verdict),
      ['DROP'],
    );
  });

  it('owner, physdev and unknown modules fork with an assumption', () => {
    for (const m of ['-m owner --uid-owner 0', '-m physdev --physdev-is-bridged', '-m frobnicate --level 3']) {
      const r = trace(forward([`-A FORWARD ${m} -j DROP`]), PKT);
      assertSumsToOne(r);
      assert.deepEqual(
        r.paths.map((p) => p.verdict),
        ['DROP', 'ACCEPT'],
        m,
      );
      assert.equal(r.paths[0].assumptionMessages[0].code, 'assume.holds');
      assert.equal(r.paths[1].assumptionMessages[0].code, 'assume.fails');
    }
  });

  it('an unknown match on a rule that cannot change the path does not fork', () => {
    const r = trace(forward(['-A FORWARD -m limit --limit 5/min -j LOG', '-A FORWARD -j DROP']), PKT);
    assert.equal(r.paths.length, 1);
    assert.equal(r.paths[0].steps[0].action, 'continue');
  });

  it('a definite mismatch elsewhere in the rule avoids the fork', () => {
    const r = trace(forward(['-A FORWARD -m set --match-set X src -p udp -j DROP']), PKT);
    assert.equal(r.paths.length, 1);
  });

  it('statistic random probabilities multiply; nth forks 1/n with an assumption', () => {
    const text = forward(
      [
        '-A FORWARD -m statistic --mode random --probability 0.25 -j A',
        '-A FORWARD -j ACCEPT',
        '-A A -m statistic --mode random --probability 0.5 -j DROP',
      ],
      ['A'],
    );
    const r = trace(text, PKT);
    assertSumsToOne(r);
    assert.deepEqual(
      r.paths.map((p) => [p.verdict, p.probability]),
      [
        ['DROP', 0.125],
        ['ACCEPT', 0.125],
        ['ACCEPT', 0.75],
      ],
    );
    assert.deepEqual(r.paths[0].assumptions, [], 'random draws are probabilities, not assumptions');
    const nth = trace(forward(['-A FORWARD -m statistic --mode nth --every 4 --packet 0 -j DROP']), PKT);
    assertSumsToOne(nth);
    assert.deepEqual(
      nth.paths.map((p) => [p.verdict, p.probability]),
      [
        ['DROP', 0.25],
        ['ACCEPT', 0.75],
      ],
    );
    assert.equal(nth.paths[0].assumptionMessages[0].code, 'assume.nth');
  });

  it('the path limit stops forking but keeps the sum at 1', () => {
    const rules = Array.from(
      { length: 20 },
      (_, i) => `-A FORWARD -m statistic --mode random --probability 0.5 -j MARK --or-mark ${1 << i}`,
    );
    // A rule reads the bits, so each draw leads to a different walk (unread bits would not fork).
    rules.push('-A FORWARD -m mark --mark 0x0/0xfffff -j ACCEPT');
    const r = tracePacket(parseIptables(forward(rules)), PKT, { maxPaths: 50 });
    assertSumsToOne(r);
    assert.ok(r.paths.length <= 50);
    assert.ok(r.paths.some((p) => p.verdict === 'UNKNOWN'));
    assert.ok(r.warningMessages.some((m) => m.code === 'truncated.paths'));
    assert.equal(r.truncated?.reason, 'paths');
    const cut = r.paths.filter((p) => p.verdict === 'UNKNOWN');
    assert.equal(r.truncated?.paths, cut.length);
    assert.ok(Math.abs(r.truncated!.probability - cut.reduce((a, p) => a + p.probability, 0)) < 1e-12);
    assert.equal(
      r.truncated?.message,
      `The trace stopped forking at 50 paths: ${cut.length} paths are left unfinished where they would have split and end as UNKNOWN; they depend on 0 facts the paste does not decide (each path lists its own).`,
    );
  });
});

describe('trace: bad input', () => {
  it('a bad packet gives one UNKNOWN path with a warning instead of throwing', () => {
    const r = trace(forward([]), { ...PKT, dst: 'not-an-ip', dport: 70000 });
    assertSumsToOne(r);
    assert.equal(r.paths[0].verdict, 'UNKNOWN');
    assert.deepEqual(
      r.warningMessages.map((m) => m.params.field),
      ['dst', 'dport'],
    );
  });

  it('unreadable rule values fork with a warning', () => {
    const r = trace(forward(['-A FORWARD -s some.host.name -j DROP']), PKT);
    assertSumsToOne(r);
    assert.equal(r.paths.length, 2);
    assert.ok(r.warningMessages.some((m) => m.code === 'warn.bad-value'));
  });

  it('an IPv6 packet on an IPv4 dump is not walked through rules it never meets', () => {
    const r = trace(forward(['-A FORWARD -s 10.0.0.0/8 -j DROP']), TCP('fd00::1', 'fd00::2', 80));
    assertSumsToOne(r);
    assert.deepEqual(
      r.paths.map((p) => [p.verdict, p.steps.length]),
      [['UNKNOWN', 0]],
    );
    assert.deepEqual(
      r.warningMessages.map((m) => m.code),
      ['warn.other-family.address'],
    );
  });
});
