import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectNetworkFormat, parseNetworkText } from '../../../src/core/netstate';

/** A node paste: prompt lines, ip addr then route -n, a blank line, an elision, CRLF and trailing spaces. */
const NODE_PASTE = [
  'root@node-1:~# ip addr sh',
  '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN ',
  '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00',
  '    inet 127.0.0.1/8 scope host lo',
  '       valid_lft forever preferred_lft forever',
  '...',
  '2: ens4: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1460 qdisc mq state UP qlen 1000',
  '    link/ether 42:01:0a:84:00:02 brd ff:ff:ff:ff:ff:ff',
  '    inet 10.128.0.2/32 brd 10.128.0.2 scope global ens4',
  '       valid_lft forever preferred_lft forever',
  'root@node-1:~# ',
  '',
  'root@node-1:~# route -n',
  'Kernel IP routing table',
  'Destination     Gateway         Genmask         Flags Metric Ref    Use Iface',
  '0.0.0.0         10.128.0.1      0.0.0.0         UG    0      0        0 ens4',
  '10.128.0.1      0.0.0.0         255.255.255.255 UH    0      0        0 ens4  ',
].join('\r\n');

test('mixed paste: prompts announce each part; no diagnostics for prompts, blank or elision lines', () => {
  const s = parseNetworkText(NODE_PASTE);
  assert.deepEqual(s.diagnostics, []);
  assert.deepEqual(
    s.commands.map((c) => [c.line, c.command, c.format]),
    [
      [0, 'ip addr sh', 'ip-addr'],
      [12, 'route -n', 'route-n'],
    ],
  );
  assert.deepEqual(s.commands[1].span, { line: 12, column: 15, length: 8 });
  assert.deepEqual(
    s.interfaces.map((i) => [i.name, i.addresses.map((a) => a.address)]),
    [
      ['lo', ['127.0.0.1']],
      ['ens4', ['10.128.0.2']],
    ],
  );
  assert.deepEqual(
    s.routes.map((r) => [r.destination, r.gateway ?? null, r.dev]),
    [
      ['0.0.0.0/0', '10.128.0.1', 'ens4'],
      ['10.128.0.1/32', null, 'ens4'],
    ],
  );
  assert.deepEqual(s.formats, ['ip-addr', 'route-n']);
});

test('the result is plain JSON data', () => {
  const s = parseNetworkText(NODE_PASTE);
  assert.deepEqual(JSON.parse(JSON.stringify(s)), s);
});

test('indented pastes (markdown lists) keep columns in the original line', () => {
  const text =
    '   root@cp:/# ip route\n   default via 172.18.0.1 dev eth0 \n   10.244.0.0/24 via 172.18.0.2 dev eth0 \n';
  const s = parseNetworkText(text);
  assert.equal(s.routes.length, 2);
  assert.deepEqual(s.routes[0].spans.gateway, { line: 1, column: 15, length: 10 });
  assert.deepEqual(s.diagnostics, []);
});

test('bare commands and odd prompts are recognised: `host sudo ip r`, `[root@h ~]# ip netns exec x ip r`, `# ip route`', () => {
  const text =
    'node7 sudo ip r\n10.1.0.0/16 dev eth0 scope link\n[root@kh1 ~]# ip netns exec aa41 ip -6 r\ndefault via fe80::1 dev net1\n# ip route get 10.96.0.1\n10.96.0.1 via 10.0.0.1 dev eth0 src 10.0.0.5\n';
  const s = parseNetworkText(text);
  assert.deepEqual(
    s.commands.map((c) => c.format),
    ['ip-route', 'ip-route', 'ip-route-get'],
  );
  assert.equal(s.routes.length, 2);
  assert.equal(s.routes[1].family, 6);
  assert.equal(s.routeGets.length, 1);
  assert.equal(s.routeGets[0].gateway, '10.0.0.1');
  assert.deepEqual(s.diagnostics, []);
});

test('commands that print nothing we read reset the section; their output falls back to shapes', () => {
  const text =
    'ubuntu@vm1:~$ sudo nsenter -t 555 -n\nroot@vm1:/# ip link add br0 type bridge\nroot@vm1:/# ip -s neigh\n10.42.0.1 dev eth0 lladdr 0a:58:0a:2a:00:01 REACHABLE\n';
  const s = parseNetworkText(text);
  assert.deepEqual(
    s.commands.map((c) => c.format ?? null),
    [null, null, null],
  );
  assert.equal(s.routes.length, 0, 'a neigh line starts like a route but has words no route has');
  assert.deepEqual(
    s.diagnostics.map((d) => [d.code, d.severity]),
    [['routes-unrecognized-line', 'info']],
  );
});

test('unreadable lines become diagnostics with stable codes, never exceptions', () => {
  const text =
    'root@n:~# ip route\nthis is not a route\n$ conntrack -L\ngarbage line here\nsome chatter outside any command\n';
  const s = parseNetworkText(text);
  assert.deepEqual(
    s.diagnostics.map((d) => [d.code, d.severity, d.span.line, d.span.column, d.span.length]),
    [
      ['routes-unrecognized-line', 'warning', 1, 0, 19],
      ['routes-unrecognized-line', 'warning', 3, 0, 17],
      ['routes-unrecognized-line', 'warning', 4, 0, 32],
    ],
  );
  const quiet = parseNetworkText('hello world\n');
  assert.deepEqual(
    quiet.diagnostics.map((d) => [d.code, d.severity]),
    [['routes-unrecognized-line', 'info']],
  );
});

test('diagnostic messages follow the language option', () => {
  const en = parseNetworkText('$ ip route\nnonsense\n');
  const zh = parseNetworkText('$ ip route\nnonsense\n', { lang: 'zh-CN' });
  assert.equal(en.diagnostics[0].code, zh.diagnostics[0].code);
  assert.match(en.diagnostics[0].message, /not understood/);
  assert.match(zh.diagnostics[0].message, /无法识别/);
});

test('command errors outside route get are info diagnostics', () => {
  const s = parseNetworkText('$ ip addr show dev kube-ipvs0\nDevice "kube-ipvs0" does not exist.\n');
  assert.deepEqual(
    s.diagnostics.map((d) => [d.code, d.severity]),
    [['routes-command-error', 'info']],
  );
  assert.equal(s.interfaces.length, 0);
});

test('detectNetworkFormat: the kind most lines are, with a confidence', () => {
  const d = detectNetworkFormat(NODE_PASTE);
  assert.equal(d.format, 'ip-addr');
  assert.equal(d.counts['ip-addr'], 8);
  assert.equal(d.counts['route-n'], 4);
  assert.ok(Math.abs(d.confidence - 8 / 12) < 1e-9);
  assert.equal(detectNetworkFormat('default via 10.0.0.1 dev eth0\n').format, 'ip-route');
  assert.equal(
    detectNetworkFormat('10.0.0.1 via 10.0.0.254 dev eth0 src 10.0.0.2 uid 0\n    cache\n').format,
    'ip-route-get',
  );
  assert.equal(
    detectNetworkFormat(
      'tcp 6 5 CLOSE src=1.1.1.1 dst=2.2.2.2 sport=1 dport=2 src=2.2.2.2 dst=1.1.1.1 sport=2 dport=1\n',
    ).format,
    'conntrack',
  );
  assert.equal(detectNetworkFormat('Name: x\nType: hash:ip\nMembers:\n10.0.0.1\n').format, 'ipset');
});

test('detectNetworkFormat: other dumps are not network output', () => {
  const iptables =
    '*nat\n:PREROUTING ACCEPT [0:0]\n-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y\nCOMMIT\n';
  const ipvs =
    'IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\nTCP  10.96.0.1:443 rr\n  -> 172.18.0.3:6443              Masq    1      0          0\n';
  for (const text of [iptables, ipvs, '', '\n\n']) {
    const d = detectNetworkFormat(text);
    assert.equal(d.format, undefined, text);
    assert.equal(d.confidence, 0, text);
  }
});

test('without prompts: ip addr followed by ip route and by indented conntrack -E lines', () => {
  const text = [
    '2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP',
    '    inet 10.0.0.5/24 brd 10.0.0.255 scope global eth0',
    'default via 10.0.0.1 dev eth0',
    '3: cni0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP',
    '    inet 10.244.0.1/24 scope global cni0',
    ' [NEW] udp      17 30 src=10.244.0.7 dst=10.96.0.10 sport=4000 dport=53 [UNREPLIED] src=10.244.0.3 dst=10.244.0.7 sport=53 dport=4000',
    '10.244.0.2,tcp:53',
  ].join('\n');
  const s = parseNetworkText(text);
  assert.deepEqual(
    s.interfaces.map((i) => [i.name, i.addresses.length, i.details]),
    [
      ['eth0', 1, []],
      ['cni0', 1, []],
    ],
  );
  assert.equal(s.routes.length, 1);
  assert.equal(s.conntrack.length, 1);
  assert.equal(s.conntrack[0].dnat?.toAddress, '10.244.0.3');
  assert.deepEqual(
    s.diagnostics.map((d) => [d.code, d.span.line]),
    [['routes-ipset-member-outside-set', 6]],
  );
});

test('a multipath IPv6 default route without a prompt is IPv6 (told by pref or its nexthops), a via inet6 hop is not', () => {
  const withPref = parseNetworkText(
    'default proto ra metric 1024 expires 1797sec pref medium\n\tnexthop via fe80::1 dev eth0 weight 1\n\tnexthop via fe80::2 dev eth1 weight 1\n',
  );
  assert.deepEqual(
    withPref.routes.map((r) => [r.family, r.destination, r.nexthops.length]),
    [[6, '::/0', 2]],
  );
  const bird = parseNetworkText(
    'default proto bird metric 32\n\tnexthop via fd00::1 dev eth0 weight 1\n\tnexthop via fd00::2 dev eth1 weight 1\n',
  );
  assert.deepEqual(
    bird.routes.map((r) => [r.family, r.destination]),
    [[6, '::/0']],
  );
  // RFC 5549: an IPv4 route over an IPv6 next hop says so with `via inet6`.
  const crossFamily = parseNetworkText(
    'default proto bgp metric 20\n\tnexthop via inet6 fe80::1 dev eth0 weight 1\n\tnexthop via inet6 fe80::2 dev eth1 weight 1\n',
  );
  assert.deepEqual(
    crossFamily.routes.map((r) => [r.family, r.destination]),
    [[4, '0.0.0.0/0']],
  );
  const v4 = parseNetworkText('default proto bgp metric 20\n\tnexthop via 10.0.0.1 dev eth0 weight 1\n');
  assert.deepEqual(
    v4.routes.map((r) => [r.family, r.destination]),
    [[4, '0.0.0.0/0']],
  );
});
