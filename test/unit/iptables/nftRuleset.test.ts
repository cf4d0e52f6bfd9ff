import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { detectDump } from '../../../src/core/detect';
import { explainAt } from '../../../src/core/iptables/explain';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket } from '../../../src/core/iptables/trace';
import { traceHints } from '../../../src/core/iptables/traceHints';
import { findOption, targetOption } from '../../../src/core/iptables/dump';
import { NFT_RULESET } from '../../helpers/dumps';

const RULESET = NFT_RULESET;

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));

test('nft list ruleset of iptables-nft rules: tables, chains with hooks and policies, rules with counters', () => {
  const d = parseIptables(RULESET);
  assert.equal(d.format, 'nft');
  assert.equal(d.family, 4);
  assert.deepEqual(
    d.tables.map((t) => t.name),
    ['nat', 'filter'],
  );
  const nat = d.tables[0];
  assert.deepEqual([...nat.chains.keys()].slice(0, 3), ['PREROUTING', 'POSTROUTING', 'KUBE-MARK-MASQ']);
  assert.equal(nat.chains.get('PREROUTING')!.builtin, true);
  assert.equal(nat.chains.get('PREROUTING')!.policy, 'ACCEPT');
  assert.equal(d.tables[1].chains.get('INPUT')!.policy, 'DROP');
  assert.equal(nat.chains.get('KUBE-NODEPORTS')!.rules.length, 0);
  assert.equal(nat.chains.get('KUBE-SVC-TCOU7JCQXEZGVUNU')!.rules.length, 3);
  assert.equal(d.rules.length, 19);
  const first = nat.chains.get('PREROUTING')!.rules[0];
  assert.deepEqual([first.counters?.packets, first.counters?.bytes], [120, 7200]);
  assert.equal(first.comment, 'kubernetes service portals');
  assert.equal(first.target?.name, 'KUBE-SERVICES');
  assert.equal(first.line, lineOf(RULESET, 'jump KUBE-SERVICES'));
  // Nothing is left unread in this ruleset.
  assert.deepEqual(
    d.diagnostics.map((x) => x.code),
    [],
  );
});

test('nft expressions are read back into the iptables matches and targets they came from', () => {
  const d = parseIptables(RULESET);
  const rule = (needle: string) => d.rules.find((r) => r.line === lineOf(RULESET, needle))!;
  const masq = rule('ip saddr != 10.244.0.0/16');
  assert.deepEqual(findOption(masq, 'source')?.values, ['10.244.0.0/16']);
  assert.equal(findOption(masq, 'source')?.negated, true);
  assert.deepEqual(findOption(masq, 'destination')?.values, ['10.96.0.10']);
  assert.deepEqual(findOption(masq, 'protocol')?.values, ['udp']);
  assert.deepEqual(findOption(masq, 'dport', 'udp')?.values, ['53']);
  const ladder = rule('meta random');
  assert.deepEqual(findOption(ladder, 'probability', 'statistic')?.values, ['0.5']);
  assert.deepEqual(findOption(rule('meta mark &'), 'mark', 'mark')?.values, ['0x00004000/0x00004000']);
  assert.equal(findOption(rule('meta mark &'), 'mark', 'mark')?.negated, true);
  assert.deepEqual(targetOption(rule('set mark or'), 'or-mark')?.values, ['0x4000']);
  assert.deepEqual(targetOption(rule('set mark xor'), 'xor-mark')?.values, ['0x4000']);
  assert.equal(rule('masquerade').target?.name, 'MASQUERADE');
  assert.ok(targetOption(rule('masquerade'), 'random-fully'));
  assert.deepEqual(targetOption(rule('dnat to 10.244.0.2'), 'to-destination')?.values, ['10.244.0.2:53']);
  assert.deepEqual(findOption(rule('fib daddr'), 'dst-type', 'addrtype')?.values, ['LOCAL']);
  assert.deepEqual(findOption(rule('ct state'), 'ctstate', 'conntrack')?.values, ['ESTABLISHED,RELATED']);
  const web = rule('iifname');
  assert.deepEqual(findOption(web, 'in-interface')?.values, ['cali+']);
  assert.deepEqual(findOption(web, 'dports', 'multiport')?.values, ['80,443']);
  // `tcp dport` without `meta l4proto tcp`: the protocol is implied, as `-p tcp` would say.
  assert.deepEqual(findOption(web, 'protocol')?.values, ['tcp']);
  assert.deepEqual(targetOption(rule('reject with'), 'reject-with')?.values, ['icmp-host-unreachable']);
  assert.equal(rule('return').target?.name, 'RETURN');
});

test('the kube view, the tracer and hovers read an nft ruleset as they read iptables-save', () => {
  const model = buildModel(parseIptables(RULESET));
  const dns = model.kube.services.find((s) => s.name === 'kube-system/kube-dns:dns')!;
  assert.equal(dns.clusterIP, '10.96.0.10');
  assert.equal(dns.protocol, 'udp');
  assert.equal(dns.port, 53);
  assert.equal(dns.hashVerified, true);
  assert.deepEqual(dns.endpoints.map((e) => [e.ip, e.port, e.share]).sort(), [
    ['10.244.0.2', 53, 0.5],
    ['10.244.0.3', 53, 0.5],
  ]);
  const web = model.kube.services.find((s) => s.name === 'ns/web:http');
  assert.equal(web?.noEndpoints, true);

  const result = tracePacket(
    model.dump,
    {
      src: '192.168.5.5',
      dst: '10.96.0.10',
      dport: 53,
      proto: 'udp',
      hook: 'prerouting',
      inIface: 'eth0',
      localAddresses: ['192.168.0.10'],
    },
    { lang: 'en' },
  );
  const dnats = result.paths.map((p) => `${p.dnat?.ip}:${p.dnat?.port}`).sort();
  assert.deepEqual(dnats, ['10.244.0.2:53', '10.244.0.3:53']);
  assert.ok(Math.abs(result.paths.reduce((a, p) => a + p.probability, 0) - 1) < 1e-9);
  assert.ok(
    result.paths.every((p) => p.masquerade),
    'from outside the pod CIDR the ladder marks for masquerade',
  );

  const line = lineOf(RULESET, 'udp dport 53 counter packets 5');
  const hover = explainAt(model, line, RULESET.split('\n')[line].indexOf('10.96.0.10'), 'en');
  assert.match(hover!.markdown, /10\.96\.0\.10/);
  assert.match(hover!.markdown, /kube-system\/kube-dns/);
  const zh = explainAt(model, line, RULESET.split('\n')[line].indexOf('KUBE-SVC-'), 'zh-CN');
  assert.match(zh!.markdown, /[\u4e00-\u9fff]/);
  // The jump's target is a token the editor can follow to the chain's `chain ... {` line.
  const target = model.tokenAt(line, RULESET.split('\n')[line].indexOf('KUBE-SVC-'));
  assert.equal(target?.kind, 'target');
  assert.equal(model.chain('nat', target!.text)?.declSpan?.line, lineOf(RULESET, 'chain KUBE-SVC-TCOU7JCQXEZGVUNU {'));
});

test('the analysis and the editor take a ruleset with table blocks for the iptables engine; loose nft lines stay named', () => {
  const found = detectDump(RULESET);
  assert.equal(found.kind, 'nft');
  assert.equal(found.languageId, 'iptables');
  assert.equal(
    detectDump('    ip daddr 10.43.0.1 tcp dport 443 counter packets 0 bytes 0 jump KUBE-SVC-X\n').languageId,
    undefined,
  );
  const a = analyzeText(RULESET);
  assert.equal(a.iptables?.kube.services.length, 2);
  assert.deepEqual(
    diagnosticsOf(a, 'en').filter((d) => d.severity === 'error'),
    [],
  );
});

test('sets, maps and handles are skipped; xt extensions and unmapped text are said, and the rule stays uncertain', () => {
  const text = `table ip filter { # handle 3
	set allowed { # handle 5
		type ipv4_addr
		elements = { 10.0.0.1, 10.0.0.2,
			     10.0.0.3 }
	}
	chain FORWARD { # handle 1
		type filter hook forward priority filter; policy accept;
		ip saddr @allowed counter packets 0 bytes 0 accept # handle 7
		xt match "recent" counter packets 0 bytes 0 jump KUBE-SEP-X # handle 8
		ct state new counter packets 0 bytes 0 xt target "LOG" # handle 9
		meta skuid 1000 counter packets 0 bytes 0 accept
	}
	chain KUBE-SEP-X {
	}
}
`;
  const d = parseIptables(text);
  assert.equal(d.rules.length, 4);
  assert.equal(d.tables[0].chains.size, 2);
  const [setRule, recent, log, owner] = d.rules;
  assert.deepEqual(findOption(setRule, 'match-set', 'set')?.values, ['allowed', 'src']);
  assert.equal(setRule.target?.name, 'ACCEPT');
  assert.equal(
    owner.matches.some((m) => m.module === 'unparsed'),
    true,
  );
  assert.equal(owner.target, undefined, 'what follows unmapped text is not guessed at');
  assert.equal(
    recent.matches.some((m) => m.module === 'recent'),
    true,
  );
  assert.equal(recent.target?.name, 'KUBE-SEP-X');
  assert.equal(log.target?.name, 'LOG');
  assert.ok(!log.text.includes('handle'), 'the `# handle N` of nft -a is not rule text');
  const codes = d.diagnostics.map((x) => x.code).sort();
  assert.deepEqual(codes, ['nft-text-unmapped', 'nft-xt-extension', 'nft-xt-extension']);
});

test("one family per dump: the other family's tables are said and skipped; an ip6-only ruleset is IPv6; an unclosed table keeps its rules", () => {
  const both =
    'table ip nat {\n\tchain OUTPUT {\n\t\tip daddr 10.96.0.1 tcp dport 443 counter packets 0 bytes 0 accept\n\t}\n}\ntable ip6 nat {\n\tchain OUTPUT {\n\t\tip6 daddr fd00::1 tcp dport 443 counter packets 0 bytes 0 accept\n\t}\n}\n';
  const d = parseIptables(both);
  assert.equal(d.rules.length, 1);
  assert.equal(d.family, 4);
  assert.deepEqual(
    d.diagnostics.map((x) => [x.code, x.span.line]),
    [['nft-table-skipped', 5]],
  );
  const v6 = parseIptables(both.slice(both.indexOf('table ip6')));
  assert.equal(v6.family, 6);
  assert.deepEqual(findOption(v6.rules[0], 'destination')?.values, ['fd00::1']);
  const cut = parseIptables(
    'table ip filter {\n\tchain INPUT {\n\t\ttype filter hook input priority 0; policy accept;\n\t\ttcp dport 22 accept\n',
  );
  assert.equal(cut.rules.length, 1);
  assert.deepEqual(
    cut.diagnostics.map((x) => x.code),
    ['nft-table-unclosed'],
  );
  // An unclosed table ends where the next table or an iptables-save dump begins: their lines are theirs.
  const then = parseIptables(
    'table ip filter {\n\tchain INPUT {\n\t\ttcp dport 22 accept\n*nat\n:PREROUTING ACCEPT [0:0]\n-A PREROUTING -d 10.0.0.1/32 -j DNAT --to-destination 10.1.1.1\nCOMMIT\ntable ip mangle {\n\tchain PREROUTING {\n\t\tmeta mark 0x1 accept\n\t}\n}\n',
  );
  assert.deepEqual(
    then.rules.map((r) => [r.table, r.chain, r.line]),
    [
      ['filter', 'INPUT', 2],
      ['nat', 'PREROUTING', 5],
      ['mangle', 'PREROUTING', 9],
    ],
  );
  assert.deepEqual(
    then.diagnostics.map((x) => x.code),
    ['nft-table-unclosed'],
  );
});

test('broken nft never throws: every cut and every doubled line of a ruleset parses', () => {
  const lines = RULESET.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const cut = lines.slice(0, i).join('\n');
    const doubled = [...lines.slice(0, i), lines[i], ...lines.slice(i)].join('\n');
    for (const text of [cut, doubled, cut.replace(/[{}]/g, '')]) {
      const m = buildModel(parseIptables(text));
      assert.ok(m.dump.rules.every((r) => r.line >= 0));
    }
  }
});

test("kube-proxy's nftables mode: base chains are walked at their hook, verdict maps are looked up", () => {
  const text = `table ip kube-proxy {
	map service-ips {
		type ipv4_addr . inet_proto . inet_service : verdict
		elements = { 172.30.0.41 . tcp . 80 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }
	}
	chain nat-prerouting {
		type nat hook prerouting priority dstnat; policy accept;
		jump services
	}
	chain services {
		ip daddr . meta l4proto . th dport vmap @service-ips
	}
	chain mark-for-masquerade {
		meta mark set meta mark | 0x00004000
	}
	chain service-ULMVA6XW-ns1/svc1/tcp/p80 {
		ip daddr 172.30.0.41 tcp dport 80 ip saddr != 10.0.0.0/8 jump mark-for-masquerade
		numgen random mod 1 vmap { 0 : goto endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 }
	}
}
`;
  const d = parseIptables(text);
  assert.deepEqual(
    d.diagnostics.map((x) => [x.code, x.span.line]),
    [],
  );
  assert.deepEqual(d.nftBaseChains, [
    { table: 'kube-proxy', chain: 'nat-prerouting', type: 'nat', hook: 'prerouting', priority: -100 },
  ]);
  const [, services, mark, masq, ladder] = d.rules;
  assert.equal(findOption(services, 'destination'), undefined, 'a concatenation is no destination match');
  assert.equal(services.target?.name, 'VMAP');
  assert.deepEqual(targetOption(services, 'selector')?.values, ['ip daddr', 'meta l4proto', 'th dport']);
  assert.deepEqual(targetOption(services, 'map')?.values, ['service-ips']);
  assert.deepEqual(targetOption(mark, 'or-mark')?.values, ['0x00004000']);
  assert.deepEqual(findOption(masq, 'source')?.values, ['10.0.0.0/8']);
  assert.equal(masq.target?.name, 'mark-for-masquerade');
  assert.deepEqual([ladder.target?.name, targetOption(ladder, 'mod')?.values], ['NUMGEN', ['1']]);
  // The trace enters nat-prerouting, finds the Service in @service-ips, and follows the ladder to an endpoint
  // chain this paste lacks: that path cannot be known.
  const packet = { src: '10.0.0.5', dst: '172.30.0.41', dport: 80, proto: 'tcp' as const, hook: 'prerouting' as const };
  const result = tracePacket(d, packet, { lang: 'en' });
  assert.deepEqual(
    result.paths.map((p) => p.verdict),
    ['UNKNOWN'],
  );
  const steps = result.paths[0].steps;
  assert.deepEqual(
    steps.slice(0, 2).map((s) => [s.chain, s.action]),
    [
      ['nat-prerouting', 'jump'],
      ['services', 'goto'],
    ],
  );
  assert.match(steps[1].note ?? '', /172\.30\.0\.41 \. tcp \. 80 is in service-ips: goto service-ULMVA6XW/);
  assert.ok(result.warnings.some((w) => w.includes('endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80')));
  // Another port of the address is in no element: the chains go on and nothing rewrites the packet.
  const other = tracePacket(d, { ...packet, dport: 81 }, { lang: 'zh-CN' });
  assert.deepEqual(
    other.paths.map((p) => [p.verdict, p.dnat]),
    [['ACCEPT', null]],
  );
  assert.match(other.paths[0].steps[1].note ?? '', /不在 service-ips 中/);
  // A base chain at a hook the tracer does not walk (ingress) is still said to be outside it.
  const ingress = parseIptables(
    'table inet edge {\n\tchain ing {\n\t\ttype filter hook ingress device "eth0" priority -500; policy accept;\n\t}\n}\n',
  );
  assert.deepEqual(
    ingress.diagnostics.map((x) => x.code),
    ['nft-base-chain-not-traced'],
  );
  const edgeResult = tracePacket(ingress, packet, { lang: 'en' });
  assert.equal(
    traceHints(buildModel(ingress), packet, edgeResult, 'en').filter((h) => h.includes('Chain ing of table edge'))
      .length,
    1,
  );
  // An iptables-nft table's builtin chains are traced: no such warning for them.
  assert.ok(!parseIptables(RULESET).diagnostics.some((x) => x.code === 'nft-base-chain-not-traced'));
});

test('nat statements: nft prints the flags after the address and joins them with commas', () => {
  // nft's nat_stmt_print: `masquerade to :10-20 random`, `snat to 1.2.3.4 random,persistent` (iptables' own txlate tests).
  const text = `table ip nat {
	chain POSTROUTING {
		type nat hook postrouting priority srcnat; policy accept;
		oifname "eth0" counter packets 0 bytes 0 masquerade to :1024-65535 fully-random
		oifname "eth1" counter packets 0 bytes 0 masquerade random,fully-random
		oifname "eth2" counter packets 0 bytes 0 snat to 1.2.3.4 random,persistent
	}
	chain PREROUTING {
		type nat hook prerouting priority dstnat; policy accept;
		ip daddr 10.0.0.1 tcp dport 80 counter packets 0 bytes 0 dnat to 10.244.0.2:8080 persistent comment "x"
	}
}
`;
  const d = parseIptables(text);
  assert.deepEqual(
    d.diagnostics.map((x) => x.code),
    [],
  );
  const [toPorts, both, snat, dnat] = d.rules;
  assert.deepEqual(targetOption(toPorts, 'to-ports')?.values, ['1024-65535']);
  assert.ok(targetOption(toPorts, 'random-fully'));
  assert.deepEqual(
    both.target?.options.map((o) => o.name),
    ['random', 'random-fully'],
  );
  assert.deepEqual(
    snat.target?.options.map((o) => o.name),
    ['to-source', 'random', 'persistent'],
  );
  assert.deepEqual(targetOption(snat, 'to-source')?.values, ['1.2.3.4']);
  assert.deepEqual(
    dnat.target?.options.map((o) => o.name),
    ['to-destination', 'persistent'],
  );
  assert.equal(dnat.comment, 'x');
  assert.ok(dnat.matches.every((m) => m.module !== 'unparsed'));
});

test('bitmask negations: `ct state ! new,related` and `ct state & (new|related) == 0` are `! --ctstate NEW,RELATED`', () => {
  const text = `table ip filter {
	chain INPUT {
		type filter hook input priority filter; policy accept;
		ct state ! new,related counter packets 0 bytes 0 accept
		ct state & (new|related) == 0 counter packets 0 bytes 0 accept
		ct status ! confirmed counter packets 0 bytes 0 drop
		ct status & (assured|confirmed) == 0 counter packets 0 bytes 0 drop
		ct status seen-reply counter packets 0 bytes 0 accept
		ct state & established != 0 counter packets 0 bytes 0 accept
	}
}
`;
  const d = parseIptables(text);
  assert.deepEqual(
    d.diagnostics.map((x) => x.code),
    [],
  );
  const read = d.rules.map((r) => {
    const o = r.matches.find((m) => m.module === 'conntrack')?.options[0];
    return [o?.name, o?.values.join(' '), o?.negated, r.target?.name];
  });
  assert.deepEqual(read, [
    ['ctstate', 'NEW,RELATED', true, 'ACCEPT'],
    ['ctstate', 'NEW,RELATED', true, 'ACCEPT'],
    ['ctstatus', 'CONFIRMED', true, 'DROP'],
    ['ctstatus', 'ASSURED,CONFIRMED', true, 'DROP'],
    // iptables spells the status SEEN_REPLY.
    ['ctstatus', 'SEEN_REPLY', false, 'ACCEPT'],
    ['ctstate', 'ESTABLISHED', false, 'ACCEPT'],
  ]);
});

test("`log ... group N` is NFLOG (Calico's policy logs), and LOG's flags are its options", () => {
  const text = `table ip filter {
	chain cali-pi {
		meta mark & 0x00010000 == 0x00010000 counter packets 0 bytes 0 log prefix "ARE0|kns.calico-system" group 2 snaplen 80
		counter packets 0 bytes 0 log queue-threshold 2 group 0
		counter packets 0 bytes 0 log prefix "dropped: " level debug flags all
		counter packets 0 bytes 0 log flags tcp sequence,options flags ip options
	}
}
`;
  const d = parseIptables(text);
  assert.deepEqual(
    d.diagnostics.map((x) => x.code),
    [],
  );
  const [nflog, threshold, log, tcp] = d.rules;
  assert.equal(nflog.target?.name, 'NFLOG');
  assert.deepEqual(
    nflog.target?.options.map((o) => [o.name, o.values.join(' ')]),
    [
      ['nflog-prefix', 'ARE0|kns.calico-system'],
      ['nflog-group', '2'],
      ['nflog-size', '80'],
    ],
  );
  assert.deepEqual(
    threshold.target?.options.map((o) => [o.name, o.values.join(' ')]),
    [
      ['nflog-threshold', '2'],
      ['nflog-group', '0'],
    ],
  );
  assert.equal(log.target?.name, 'LOG');
  assert.deepEqual(
    log.target?.options.map((o) => o.name),
    ['log-prefix', 'log-level', 'log-tcp-sequence', 'log-tcp-options', 'log-ip-options', 'log-uid', 'log-macdecode'],
  );
  assert.deepEqual(
    tcp.target?.options.map((o) => o.name),
    ['log-tcp-sequence', 'log-tcp-options', 'log-ip-options'],
  );
});

test("MARK's `--set-xmark V/M` is `mark and ~M xor V`; addrtype lists are sets; icmpv6 reject codes are ip6tables'", () => {
  const text = `table ip mangle {
	chain OUTPUT {
		type route hook output priority mangle; policy accept;
		counter packets 0 bytes 0 meta mark set mark and 0xffffffcd xor 0x40
		fib daddr type != { local, anycast } counter packets 0 bytes 0 accept
	}
}
`;
  const d = parseIptables(text);
  assert.deepEqual(
    d.diagnostics.map((x) => x.code),
    [],
  );
  const [xmark, addrtype] = d.rules;
  assert.deepEqual(
    xmark.target?.options.map((o) => [o.name, o.values.join(' ')]),
    [['set-xmark', '0x40/0x32']],
  );
  const types = findOption(addrtype, 'dst-type', 'addrtype');
  assert.deepEqual([types?.values, types?.negated], [['LOCAL,ANYCAST'], true]);

  const v6 = parseIptables(`table ip6 filter {
	chain INPUT {
		type filter hook input priority filter; policy accept;
		tcp dport 22 counter packets 0 bytes 0 reject with icmpv6 type admin-prohibited
		tcp dport 23 counter packets 0 bytes 0 reject with icmpv6 port-unreachable
		tcp dport 24 counter packets 0 bytes 0 reject with tcp reset
	}
}
`);
  assert.deepEqual(
    v6.rules.map((r) => targetOption(r, 'reject-with')?.values[0]),
    ['icmp6-adm-prohibited', 'icmp6-port-unreachable', 'tcp-reset'],
  );
});

test("words named like Object's own properties are text, not verdicts or options, and hovers on them do not throw", () => {
  const words = [
    'constructor',
    'toString accept',
    'log flags constructor',
    'log constructor x',
    'meta mark set mark constructor 0x1',
    'reject with icmp type constructor',
    '__proto__',
  ];
  const text = `table ip filter {\n\tchain INPUT {\n${words.map((w) => `\t\t${w}\n`).join('')}\t}\n}\n`;
  const model = buildModel(parseIptables(text));
  const rules = model.dump.rules;
  assert.equal(rules.length, words.length);
  for (const r of rules) {
    assert.ok(r.target === undefined || typeof r.target.name === 'string', r.text);
    for (const o of [...r.matches.flatMap((m) => m.options), ...(r.target?.options ?? [])]) {
      assert.equal(typeof o.name, 'string', r.text);
      assert.ok(
        o.values.every((x) => typeof x === 'string'),
        r.text,
      );
    }
    for (let c = 0; c < r.text.length + 4; c++) explainAt(model, r.line, c, 'en');
  }
  assert.equal(rules[0].target, undefined);
  assert.equal(rules[1].target, undefined);
  assert.deepEqual(targetOption(rules[5], 'reject-with')?.values, ['constructor']);
});
