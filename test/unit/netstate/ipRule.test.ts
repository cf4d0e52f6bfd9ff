import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, explainLine } from '../../../src/core/analyze';
import { detectNetworkFormat, lookupWithPolicy, parseNetworkText } from '../../../src/core/netstate';
import { describeCommand } from '../../../src/core/netstate/commands';

// `ip rule` of a node where a CNI sends marked traffic to its own table, and a wg-quick style pair of rules.
const RULES = [
  '$ ip rule',
  '0:\tfrom all lookup local',
  '100:\tfrom all fwmark 0x200/0xf00 lookup 2004',
  '512:\tfrom 10.0.1.5 lookup 2',
  '32764:\tfrom all lookup main suppress_prefixlength 0',
  '32765:\tnot from all fwmark 0xca6c lookup 51820',
  '32766:\tfrom all lookup main',
  '32767:\tfrom all lookup default',
].join('\n');

const ROUTES = [
  '$ ip route show table all',
  'default via 192.168.1.1 dev eth0 proto dhcp src 192.168.1.20 metric 100',
  '10.96.0.0/12 dev cni0 scope link',
  'default dev wg0 table 51820 scope link',
  'default via 10.0.1.1 dev eth1 table 2',
  'local 192.168.1.20 dev eth0 table local proto kernel scope host src 192.168.1.20',
].join('\n');

test('ip rule lines read into policy rules: priority, selectors, negation, the action and its table', () => {
  const s = parseNetworkText(RULES);
  assert.deepEqual(s.formats, ['ip-rule']);
  assert.equal(s.diagnostics.length, 0, JSON.stringify(s.diagnostics));
  assert.deepEqual(
    s.policyRules.map((r) => [
      r.priority,
      r.not,
      r.from,
      r.fwmark ?? null,
      r.fwmask ?? null,
      r.action,
      r.table ?? null,
      r.suppressPrefixLength ?? null,
    ]),
    [
      [0, false, 'all', null, null, 'lookup', 'local', null],
      [100, false, 'all', '0x200', '0xf00', 'lookup', '2004', null],
      [512, false, '10.0.1.5', null, null, 'lookup', '2', null],
      [32764, false, 'all', null, null, 'lookup', 'main', 0],
      [32765, true, 'all', '0xca6c', null, 'lookup', '51820', null],
      [32766, false, 'all', null, null, 'lookup', 'main', null],
      [32767, false, 'all', null, null, 'lookup', 'default', null],
    ],
  );
  const mark = s.policyRules[1];
  assert.deepEqual(mark.spans.table, { line: 2, column: 40, length: 4 });
  assert.equal(s.policyRules[2].family, 4);
});

test('other actions, interfaces, flags and unknown words', () => {
  const s = parseNetworkText(
    [
      '10:\tfrom all iif eth0 [detached] lookup 100',
      '20:\tfrom all to 10.0.0.0/8 oif vrf-blue goto 30',
      '30:\tfrom 192.168.0.0/16 blackhole',
      '40:\tfrom all uidrange 0-0 unreachable',
      '50:\tfrom all prohibit',
      '60:\tfrom all lookup 252 realms 1/2 proto kernel wibble',
    ].join('\n'),
  );
  const [iif, to, bh, un, pr, other] = s.policyRules;
  assert.deepEqual([iif.iif, iif.flags, iif.table], ['eth0', ['detached'], '100']);
  assert.deepEqual([to.to, to.oif, to.action, to.goto], ['10.0.0.0/8', 'vrf-blue', 'goto', 30]);
  assert.deepEqual(
    [bh.from, bh.action, un.uidrange, un.action, pr.action],
    ['192.168.0.0/16', 'blackhole', '0-0', 'unreachable', 'prohibit'],
  );
  assert.deepEqual([other.table, other.attributes], ['252', { realms: '1/2', proto: 'kernel' }]);
  assert.deepEqual(other.unknown, ['wibble']);
  assert.deepEqual(
    s.diagnostics.map((d) => [d.code, d.span.line]),
    [['routes-rule-unknown-word', 5]],
  );
});

test('ip rule commands announce the format; rule lines are not taken for ip addr headers', () => {
  assert.equal(describeCommand('ip ru show').format, 'ip-rule');
  assert.deepEqual(describeCommand('sudo ip -6 rule list'), { family: 6, format: 'ip-rule' });
  // Without -6, `ip rule` lists the IPv4 rules.
  assert.deepEqual(describeCommand('ip rule'), { family: 4, format: 'ip-rule' });
  assert.equal(describeCommand('ip rule add fwmark 1 lookup 100').format, undefined);
  assert.equal(describeCommand('ip r').format, 'ip-route');
  const mixed = parseNetworkText(
    ['1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN', '0:\tfrom all lookup local'].join('\n'),
  );
  assert.deepEqual([mixed.interfaces.map((i) => i.name), mixed.policyRules.map((r) => r.priority)], [['lo'], [0]]);
  assert.equal(detectNetworkFormat(RULES).format, 'ip-rule');
  assert.equal(analyzeText(RULES).detection.kind, 'network');
});

test('a rule looking up a table the pasted `table all` routes do not have is noted; tables shown are not', () => {
  const s = parseNetworkText(`${RULES}\n${ROUTES}`);
  assert.deepEqual(
    s.diagnostics.map((d) => [d.code, d.span.line, d.params?.table]),
    [['routes-rule-table-not-pasted', 2, '2004']],
  );
  // Without routes that name their tables (plain `ip route`), nothing tells which tables are empty.
  const plain = parseNetworkText(`${RULES}\n$ ip route\ndefault via 192.168.1.1 dev eth0`);
  assert.equal(plain.diagnostics.length, 0);
});

test('the policy picks the table: marked packets, a source rule, suppress_prefixlength and negation', () => {
  const s = parseNetworkText(`${RULES}\n${ROUTES}`);
  const lookup = (packet: Parameters<typeof lookupWithPolicy>[2]) => lookupWithPolicy(s.policyRules, s.routes, packet);

  // wg-quick: unmarked traffic skips main's default (suppress_prefixlength 0) and goes to the tunnel's table.
  const unmarked = lookup({ src: '192.168.1.20', dst: '1.1.1.1' });
  assert.equal(unmarked.verdict, 'route');
  assert.deepEqual([unmarked.rule?.priority, unmarked.route?.table, unmarked.route?.dev], [32765, '51820', 'wg0']);
  assert.deepEqual(
    unmarked.passed.map((p) => [p.priority, p.why]),
    [
      [0, 'no-route'],
      [32764, 'suppressed'],
    ],
  );
  // The tunnel's own packets carry its mark: they use main's default route.
  const tunnel = lookup({ src: '192.168.1.20', dst: '1.1.1.1', mark: 0xca6c });
  assert.deepEqual([tunnel.rule?.priority, tunnel.route?.gateway], [32766, '192.168.1.1']);
  // A more specific route than the default is not suppressed.
  const cluster = lookup({ src: '192.168.1.20', dst: '10.96.0.1' });
  assert.deepEqual([cluster.rule?.priority, cluster.route?.dev], [32764, 'cni0']);
  // A source rule (the AWS VPC CNI's secondary ENI): the pod's traffic leaves through eth1, not eth0.
  const pod = lookup({ src: '10.0.1.5', dst: '1.1.1.1' });
  assert.deepEqual([pod.rule?.priority, pod.route?.dev, pod.route?.gateway], [512, 'eth1', '10.0.1.1']);
  // Marked 0x200 under mask 0xf00, but table 2004 has no routes here: the lookup goes on.
  const marked = lookup({ src: '10.0.1.9', dst: '10.96.0.1', mark: 0x1234 });
  assert.deepEqual(
    [marked.rule?.priority, marked.passed[1]],
    [32764, { priority: 100, table: '2004', why: 'no-route' }],
  );
  // Local addresses are found in table local by rule 0.
  assert.deepEqual(
    [lookup({ dst: '192.168.1.20' }).rule?.priority, lookup({ dst: '192.168.1.20' }).route?.type],
    [0, 'local'],
  );
});

test('without rules the kernel defaults apply; goto skips, blackhole stops, unknown selectors are not taken', () => {
  const routes = parseNetworkText('default via 10.0.0.1 dev eth0\n10.9.0.0/16 via 10.0.0.9 dev eth0 table 7').routes;
  const none = lookupWithPolicy([], routes, { dst: '8.8.8.8' });
  assert.deepEqual([none.rule?.priority, none.rule?.table, none.route?.gateway], [32766, 'main', '10.0.0.1']);
  const rules = parseNetworkText(
    [
      '5:\tfrom all goto 40',
      '10:\tfrom all lookup 7',
      '40:\tfrom all ipproto tcp lookup 7',
      '50:\tfrom 10.1.0.0/16 blackhole',
      '32766:\tfrom all lookup main',
    ].join('\n'),
  ).policyRules;
  const skipped = lookupWithPolicy(rules, routes, { src: '10.2.0.1', dst: '10.9.1.1' });
  assert.deepEqual(
    [skipped.rule?.priority, skipped.route?.gateway],
    [32766, '10.0.0.1'],
    'rule 10 skipped by goto, rule 40 needs the protocol',
  );
  const dropped = lookupWithPolicy(rules, routes, { src: '10.1.2.3', dst: '10.9.1.1' });
  assert.deepEqual([dropped.verdict, dropped.rule?.priority, dropped.route], ['blackhole', 50, undefined]);
});

test('hovers explain a rule in English and Chinese, with the warning that it comes before main', () => {
  const a = analyzeText(RULES);
  const en = explainLine(a, 2, 0, 'en')?.markdown ?? '';
  assert.match(en, /^Rule 100: packets with firewall mark `0x200\/0xf00` are routed by table 2004\./);
  assert.match(en, /comes before table main/);
  const zh = explainLine(a, 2, 0, 'zh-CN')?.markdown ?? '';
  assert.match(zh, /^规则 100：带防火墙标记 `0x200\/0xf00`的数据包由路由表 2004 决定路由。/);
  assert.match(explainLine(a, 4, 0, 'en')?.markdown ?? '', /suppress_prefixlength 0/);
  assert.match(
    explainLine(a, 5, 0, 'en')?.markdown ?? '',
    /^Rule 32765: packets except those with firewall mark `0xca6c` are routed by table 51820\./,
  );
  assert.match(
    explainLine(a, 6, 0, 'en')?.markdown ?? '',
    /^Rule 32766: all packets are routed by table main, the one `ip route` shows\.$/,
  );
});

test('unresolved goto does nothing; each family has its own rules, and the defaults when none were pasted', () => {
  const routes = parseNetworkText(
    [
      'default via 10.0.0.1 dev eth0',
      'default via 10.9.0.1 dev eth1 table 2',
      'default via fd00::1 dev eth0 metric 1024',
    ].join('\n'),
  ).routes;
  const rules = parseNetworkText(
    ['$ ip rule', '10:\tfrom all goto 50 [unresolved]', '20:\tfrom all lookup 2', '32766:\tfrom all lookup main'].join(
      '\n',
    ),
  ).policyRules;
  const v4 = lookupWithPolicy(rules, routes, { dst: '8.8.8.8' });
  assert.deepEqual([v4.rule?.priority, v4.route?.dev], [20, 'eth1']);
  // IPv4 rules (from `ip rule` without -6) say nothing of IPv6 packets: the kernel's defaults route them.
  assert.ok(rules.every((r) => r.family === 4));
  const v6 = lookupWithPolicy(rules, routes, { dst: '2001:db8::1' });
  assert.deepEqual([v6.rule?.priority, v6.rule?.table, v6.route?.gateway], [32766, 'main', 'fd00::1']);
  // A rejecting route in the table found is the answer.
  const bh = lookupWithPolicy([], parseNetworkText('blackhole 10.66.0.0/16\ndefault via 10.0.0.1 dev eth0').routes, {
    dst: '10.66.1.1',
  });
  assert.equal(bh.verdict, 'blackhole');
});

test('hovers: the place of main is read from the paste; VRF tables, unresolved gotos and `not from all` say what they do', () => {
  const a = analyzeText(
    [
      '$ ip rule',
      '0:\tfrom all lookup local',
      '200:\tnot from all lookup 5',
      '1000:\tfrom all lookup [l3mdev-table]',
      '29000:\tfrom all goto 31500 [unresolved]',
      '30000:\tfrom all lookup main',
      '31000:\tfrom all lookup 5',
    ].join('\n'),
  );
  const at = (line: number, lang: 'en' | 'zh-CN' = 'en') => explainLine(a, line, 0, lang)?.markdown ?? '';
  assert.match(at(2), /^Rule 200: no packets \(`not from all` matches nothing\) are routed by table 5\./);
  assert.match(at(2, 'zh-CN'), /没有任何数据包/);
  assert.match(at(3), /table of the VRF device/);
  assert.doesNotMatch(at(3), /ip route show table/);
  assert.match(at(4), /does not exist \(unresolved\): the rule does nothing/);
  // Rule 31000 comes after this paste's main rule (30000): no warning that it comes before main.
  assert.doesNotMatch(at(6), /comes before table main/);
  assert.match(at(2), /comes before table main \(rule 30000\)/);
});

test('newer selectors (dscp, flowlabel) are kept and keep the rule from matching unknown packets; `0/8` is a prefix', () => {
  const s = parseNetworkText(
    ['$ ip rule', '10:\tfrom all dscp 10 lookup 7', '20:\tfrom 0/8 lookup 8', '32766:\tfrom all lookup main'].join(
      '\n',
    ),
  );
  assert.deepEqual(s.diagnostics, []);
  assert.deepEqual([s.policyRules[0].attributes, s.policyRules[1].from], [{ dscp: '10' }, '0.0.0.0/8']);
  const routes = parseNetworkText(
    'default via 10.0.0.1 dev eth0\ndefault via 10.7.0.1 dev eth7 table 7\ndefault via 10.8.0.1 dev eth8 table 8',
  ).routes;
  assert.deepEqual(lookupWithPolicy(s.policyRules, routes, { src: '0.1.2.3', dst: '8.8.8.8' }).route?.dev, 'eth8');
  assert.deepEqual(lookupWithPolicy(s.policyRules, routes, { src: '10.1.2.3', dst: '8.8.8.8' }).route?.dev, 'eth0');
});
