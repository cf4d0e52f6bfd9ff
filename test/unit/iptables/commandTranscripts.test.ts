/**
 * A shell transcript pasted into a ticket: iptables commands typed before or after the rules iptables-save or
 * iptables -S printed. The printed rules are the state; the commands are history around them, said on their lines
 * and not applied (applying them counted a rule twice, or flushed what the output shows and turned the trace's
 * verdict). A script alone is still read command by command. Samples written here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { detectDump } from '../../../src/core/detect';
import { parseIptables } from '../../../src/core/iptables/parser';
import { traceText } from '../../../src/core/traceAnalysis';

const SAVED_NAT = [
  '*nat',
  ':PREROUTING ACCEPT [0:0]',
  ':POSTROUTING ACCEPT [0:0]',
  ':KUBE-SERVICES - [0:0]',
  ':KUBE-SVC-AAAAAAAAAAAAAAAA - [0:0]',
  ':KUBE-SEP-BBBBBBBBBBBBBBBB - [0:0]',
  '-A PREROUTING -j KUBE-SERVICES',
  '-A POSTROUTING -s 10.50.0.0/16 -o ens5 -j MASQUERADE',
  '-A KUBE-SERVICES -d 10.60.0.7/32 -p tcp -m comment --comment "shop/api:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-AAAAAAAAAAAAAAAA',
  '-A KUBE-SVC-AAAAAAAAAAAAAAAA -m comment --comment "shop/api:http -> 10.50.3.4:8000" -j KUBE-SEP-BBBBBBBBBBBBBBBB',
  '-A KUBE-SEP-BBBBBBBBBBBBBBBB -p tcp -m comment --comment "shop/api:http" -m tcp -j DNAT --to-destination 10.50.3.4:8000',
  'COMMIT',
];

const notApplied = (text: string, lang: 'en' | 'zh-CN' = 'en') =>
  diagnosticsOf(analyzeText(text), lang)
    .filter((d) => d.code === 'command-not-applied')
    .map((d) => ({ line: d.span.line, column: d.span.column, severity: d.severity, message: d.message }));

/** The lines of the rules read and of the commands said not applied. */
const reading = (text: string) => ({
  rules: parseIptables(text).rules.map((r) => r.line),
  notApplied: notApplied(text).map((d) => d.line),
});

/** A trace from a pod to shop/api's ClusterIP 10.60.0.7:80 takes the DNAT to its endpoint on every path. */
function assertEveryPathReachesTheEndpoint(text: string): void {
  const { answer } = traceText(
    text,
    { src: '10.50.1.2', dst: '10.60.0.7', dport: 80, proto: 'tcp', hook: 'prerouting', localAddresses: ['10.40.0.3'] },
    'en',
  );
  assert.equal(answer.engine, 'iptables');
  if (answer.engine !== 'iptables') return;
  assert.ok(answer.result.paths.length > 0);
  for (const p of answer.result.paths) assert.deepEqual(p.dnat, { ip: '10.50.3.4', port: 8000 });
}

test('a command typed before the iptables-save it shows is not counted a second time', () => {
  const text = [
    'root@node-3:~# iptables -t nat -A POSTROUTING -s 10.50.0.0/16 -o ens5 -j MASQUERADE',
    'root@node-3:~# iptables-save -t nat',
    ...SAVED_NAT,
  ].join('\n');
  const dump = parseIptables(text);
  const nat = dump.tables.find((t) => t.name === 'nat')!;
  // The saved rule only, on its line (9): before, the command's copy came first and lint called the saved one a
  // duplicate.
  assert.deepEqual(
    nat.chains.get('POSTROUTING')!.rules.map((r) => r.line),
    [9],
  );
  assert.ok(!diagnosticsOf(analyzeText(text), 'en').some((d) => d.code === 'duplicate-rule'));
  const said = notApplied(text);
  assert.deepEqual(
    said.map(({ line, column, severity }) => [line, column, severity]),
    [[0, 15, 'info']],
  );
  assert.match(said[0].message, /This iptables -A is not applied: the text also shows rules as iptables-save/);
  assert.match(notApplied(text, 'zh-CN')[0].message, /此处的 iptables -A 未被应用/);
});

test('a flush typed after the saved rules leaves them read, and the trace still reaches the endpoint', () => {
  const text = [...SAVED_NAT, '$ sudo iptables -t nat -F', '$ sudo iptables -t nat -X KUBE-SEP-BBBBBBBBBBBBBBBB'].join(
    '\n',
  );
  const dump = parseIptables(text);
  assert.equal(dump.rules.length, 5);
  assert.deepEqual(
    notApplied(text).map((d) => d.line),
    [SAVED_NAT.length, SAVED_NAT.length + 1],
  );
  // Every path takes the saved DNAT (a flushed nat table had none: the packet left for 10.60.0.7 unchanged).
  assertEveryPathReachesTheEndpoint(text);
});

test('with iptables -S or -L output, commands around it are history too; a script alone is read command by command', () => {
  const listed = [
    '$ iptables -A INPUT -p tcp --dport 9100 -j ACCEPT',
    '$ iptables -S INPUT',
    '-P INPUT ACCEPT',
    '-A INPUT -p tcp -m tcp --dport 9100 -j ACCEPT',
  ].join('\n');
  assert.deepEqual(reading(listed), { rules: [3], notApplied: [0] });
  // And with an iptables -L listing: the listing's DNAT row is the rule, once.
  const listing = [
    'root@node-3:~# iptables -t nat -A PREROUTING -p tcp --dport 8080 -j DNAT --to-destination 10.50.3.4:8000',
    'root@node-3:~# iptables -t nat -L PREROUTING -n',
    'Chain PREROUTING (policy ACCEPT)',
    'target     prot opt source               destination',
    'DNAT       tcp  --  0.0.0.0/0            0.0.0.0/0            tcp dpt:8080 to:10.50.3.4:8000',
  ].join('\n');
  assert.deepEqual(reading(listing), { rules: [4], notApplied: [0] });
  // A command whose `\` carries `-A` to the next line's start is no printed rule: the script is applied (that `-A`
  // line read as a rule of the table the command named).
  const script = [
    'iptables -t nat \\',
    '-A PREROUTING -p tcp --dport 8080 -j DNAT --to-destination 10.50.3.4:8000',
    'iptables -A INPUT -p tcp --dport 22 -j ACCEPT',
  ].join('\n');
  assert.deepEqual(notApplied(script), []);
  assert.deepEqual(
    parseIptables(script)
      .rules.map((r) => [r.line, r.chain])
      .sort(),
    [
      [1, 'PREROUTING'],
      [2, 'INPUT'],
    ],
  );
});

test('prose whose wrapped lines start like an iptables command is neither detected as a dump nor read as commands', () => {
  const note = [
    'When the node was drained we saw that someone had run',
    'iptables -F on it before the upgrade, which removed the rules',
    'until kube-proxy wrote them again. Later a colleague ran',
    'iptables -A INPUT as a test and left it there. Please run',
    'iptables -P FORWARD ACCEPT only when the on-call engineer says so.',
  ].join('\n');
  assert.equal(detectDump(note).kind, 'unknown');
  const dump = parseIptables(note);
  assert.deepEqual(dump.rules, []);
  assert.equal(dump.tables.find((t) => t.name === 'filter')?.chains.get('FORWARD')?.policy, undefined);
  // The commands themselves, one per line, are a script.
  const commands = [
    'iptables -F',
    'iptables -A INPUT -m set --match-set allow src,dst -j ACCEPT',
    'iptables -P FORWARD DROP',
  ];
  assert.equal(detectDump(commands.join('\n')).kind, 'iptables');
  const read = parseIptables(commands.join('\n'));
  assert.deepEqual(
    read.rules.map((r) => r.line),
    [1],
  );
  assert.equal(read.tables.find((t) => t.name === 'filter')?.chains.get('FORWARD')?.policy, 'DROP');
});

test("a script's here-document of restore input is no printed output: the script's commands around it are applied", () => {
  const script = [
    '#!/bin/sh',
    'iptables -t nat -N SHOP-API',
    'iptables-restore --noflush <<RULES',
    '*nat',
    '-A SHOP-API -p tcp --dport 80 -j DNAT --to-destination 10.50.3.4:8000',
    'COMMIT',
    'RULES',
    'iptables -t nat -A PREROUTING -d 10.60.0.7/32 -j SHOP-API',
  ].join('\n');
  assert.deepEqual(notApplied(script), []);
  assertEveryPathReachesTheEndpoint(script);
  // iptables -S output of chains and policies only (no -A line) is printed output too.
  const listed = ['$ iptables -N SHOP-API', '$ iptables -S', '-P INPUT ACCEPT', '-N SHOP-API'].join('\n');
  assert.deepEqual(reading(listed), { rules: [], notApplied: [0] });
});

test("a firewall script doing both families reads its iptables commands; ip6tables' are said, not mixed in", () => {
  const script = [
    '# no IPv6 forwarding on this host',
    'ip6tables -P FORWARD DROP',
    'ip6tables -A FORWARD -j DROP',
    'iptables -A FORWARD -s 10.50.0.0/16 -j ACCEPT',
    'iptables -t nat -A PREROUTING -p tcp -d 10.60.0.7 --dport 80 -j DNAT --to-destination 10.50.3.4:8000',
  ].join('\n');
  const dump = parseIptables(script);
  const forward = dump.tables.find((t) => t.name === 'filter')!.chains.get('FORWARD')!;
  assert.deepEqual(
    forward.rules.map((r) => r.line),
    [3],
  );
  assert.notEqual(forward.policy, 'DROP');
  const said = diagnosticsOf(analyzeText(script), 'en').filter((d) => d.code === 'command-other-family');
  assert.deepEqual(
    said.map((d) => [d.span.line, d.severity]),
    [
      [1, 'info'],
      [2, 'info'],
    ],
  );
  assert.match(said[0].message, /This ip6tables -P changes IPv6 rules/);
  const zh = diagnosticsOf(analyzeText(script), 'zh-CN').find((d) => d.code === 'command-other-family');
  assert.match(zh!.message, /此处的 ip6tables -P 修改的是 IPv6 规则/);
  // A script of ip6tables alone is read.
  const v6 = ['ip6tables -P FORWARD DROP', 'ip6tables -A INPUT -p ipv6-icmp -j ACCEPT'].join('\n');
  const read = parseIptables(v6);
  assert.deepEqual(read.diagnostics, []);
  assert.equal(read.tables.find((t) => t.name === 'filter')!.chains.get('FORWARD')!.policy, 'DROP');
  assert.equal(read.rules.length, 1);
});

test('short sentences that start like a command are not commands: a word ending a clause gives them away', () => {
  const note = [
    'Never run the following on a node that kube-proxy manages:',
    'iptables -F is dangerous.',
    'iptables -X too.',
    'iptables -P INPUT DROP, then',
    'iptables -t nat -F wipes Services.',
  ].join('\n');
  assert.equal(detectDump(note).kind, 'unknown');
  const dump = parseIptables(note);
  assert.equal(dump.tables.find((t) => t.name === 'filter')?.chains.get('INPUT')?.policy, undefined);
  // A command's values end otherwise: addresses, ports, quoted text.
  const commands = [
    'iptables -A INPUT -s 10.0.0.0/8 -m comment --comment "ops: keep." -j ACCEPT',
    'iptables -t nat -A PREROUTING -p tcp --dport 80 -j DNAT --to-destination 10.50.3.4:8000',
  ].join('\n');
  assert.equal(parseIptables(commands).rules.length, 2);
});

test("an option's value may end like a clause; the family is that of the commands read, not of a mention", () => {
  const logged = [
    'iptables -N LOGDROP',
    'iptables -A LOGDROP -m limit --limit 5/min -j LOG --log-prefix iptables-dropped: --log-level 4',
    'iptables -A LOGDROP -j DROP',
  ].join('\n');
  assert.deepEqual(reading(logged), { rules: [1, 2], notApplied: [] });
  const v6 = [
    '# IPv6 twin of our iptables -A rules (see v4.sh)',
    'ip6tables -A INPUT -p ipv6-icmp -j ACCEPT',
    '[root@node-3 ~]# ip6tables -A INPUT -s fd00::/8 -j ACCEPT',
  ].join('\n');
  const read = parseIptables(v6);
  assert.deepEqual(
    read.rules.map((r) => r.line),
    [1, 2],
  );
  assert.ok(!read.diagnostics.some((d) => d.code === 'command-other-family'));
});
