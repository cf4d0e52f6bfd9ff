import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, explainLine } from '../../../src/core/analyze';
import { explainNetworkAt } from '../../../src/core/netstate/explain';
import { parseNetworkText } from '../../../src/core/netstate/parse';

const explain = (text: string, line: number, lang: 'en' | 'zh-CN' = 'en') =>
  explainNetworkAt(parseNetworkText(text), line, lang)?.markdown;

test('route lines say where packets go', () => {
  const routes =
    'default via 10.0.0.1 dev eth0 proto dhcp src 10.0.0.5 metric 100\n10.0.0.0/24 dev eth0 proto kernel scope link src 10.0.0.5\nblackhole 10.244.0.0/26 proto bird\n172.16.0.0/16 nexthop via 10.0.0.7 dev eth0 weight 1 nexthop via 10.0.0.8 dev eth1 weight 1\n';
  assert.equal(
    explain(routes, 0),
    'Packets to any destination without a more specific route (the default route) go to the next hop 10.0.0.1 through eth0. The source address it picks is 10.0.0.5.',
  );
  assert.match(explain(routes, 1)!, /sent straight out of eth0, without a gateway/);
  assert.match(explain(routes, 2)!, /dropped silently \(blackhole\)/);
  assert.match(explain(routes, 3)!, /spread over 2 next hops: 10\.0\.0\.7 \(eth0\), 10\.0\.0\.8 \(eth1\)/);
  assert.match(explain(routes, 0, 'zh-CN')!, /^发往.*默认路由.*10\.0\.0\.1。选用的源地址是 10\.0\.0\.5。$/);
});

test('ip route get names the next hop and, in a session, the Service the address belongs to', () => {
  const get = '172.16.0.1 via 192.168.100.1 dev eth0 src 192.168.100.23 uid 0\n    cache\n';
  assert.match(
    explain(get, 0)!,
    /If `172\.16\.0\.1` is a Service ClusterIP, only netfilter on a host the packet passes rewrites it/,
  );
  const session = [
    'root@n:~# iptables-save -t nat | grep kubernetes',
    '-A KUBE-SERVICES -d 172.16.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y',
    'root@pod:/# ip route get 172.16.0.1',
    get,
  ].join('\n');
  const said = explainLine(analyzeText(session), 3, -1, 'en')!.markdown;
  assert.match(said, /`172\.16\.0\.1` is the ClusterIP of default\/kubernetes:https \(from the rules in this paste\)/);
  assert.match(said, /If 192\.168\.100\.1 is a router outside the cluster, the packet reaches it untranslated/);
});

test('conntrack, interfaces and ipsets explain what they show', () => {
  const flow =
    'tcp      6 118 SYN_SENT src=10.244.1.5 dst=172.16.0.1 sport=43211 dport=443 [UNREPLIED] src=172.16.0.1 dst=10.244.1.5 sport=443 dport=43211 mark=0 use=1\n';
  assert.equal(
    explain(flow, 0),
    'TCP flow from 10.244.1.5:43211 to 172.16.0.1:443, state SYN_SENT. Its reply tuple mirrors it: no NAT. A flow to a Service ClusterIP like this was never translated on this host. No reply has been seen yet (UNREPLIED).',
  );
  const addr =
    '2: eth0@if12: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default\n    link/ether 66:3a:11:22:33:44 brd ff:ff:ff:ff:ff:ff link-netnsid 0\n    inet 10.244.1.5/24 brd 10.244.1.255 scope global eth0\n';
  assert.match(
    explain(addr, 0)!,
    /Interface eth0, state UP, MTU 1450: `10\.244\.1\.5\/24`\. Its peer is interface 12 in another network namespace/,
  );
  assert.match(
    explain(addr, 2)!,
    /this host answers for 10\.244\.1\.5, and 10\.244\.1\.0\/24 is reached directly on eth0/,
  );
  const sets =
    'Name: KUBE-CLUSTER-IP\nType: hash:ip,port\nRevision: 5\nHeader: family inet hashsize 1024 maxelem 65536\nSize in memory: 600\nReferences: 2\nNumber of entries: 3\nMembers:\n10.96.0.1,tcp:443\n';
  assert.match(
    explain(sets, 0)!,
    /ipset KUBE-CLUSTER-IP \(hash:ip,port\) with 1 member\. Service ClusterIP and port pairs.*It says 3 entries but 1 were pasted/,
  );
  assert.match(explain(sets, 8, 'zh-CN')!, /是 KUBE-CLUSTER-IP 的成员/);
  assert.equal(explain(sets, 2), undefined, 'a header detail line has nothing to add');
});

test('addresses the kernel does not use say why: DAD failed or pending, interface down, no carrier', () => {
  const addr = [
    '2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP',
    '    inet6 fd00::5/64 scope global dadfailed tentative',
    '    inet6 fd00::6/64 scope global tentative',
    '    inet6 fd00::7/64 scope global',
    '3: eth1: <BROADCAST,MULTICAST> mtu 1500 qdisc mq state DOWN',
    '    inet 10.9.0.5/24 brd 10.9.0.255 scope global eth1',
    '4: eth2: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 qdisc mq state DOWN',
    '    inet 10.8.0.5/24 brd 10.8.0.255 scope global eth2',
  ].join('\n');
  assert.match(
    explain(addr, 1)!,
    /^`fd00::5\/64` is configured on eth0\. But duplicate address detection failed: another host on the link already has fd00::5/,
  );
  assert.match(explain(addr, 2)!, /still tentative/);
  assert.match(explain(addr, 3)!, /this host answers for fd00::7/);
  assert.match(explain(addr, 5)!, /eth1 is administratively down \(no UP flag\).*`ip link set eth1 up`/);
  assert.match(explain(addr, 7)!, /eth2 has no carrier/);
  assert.match(explain(addr, 1, 'zh-CN')!, /重复地址检测失败/);
  for (const line of [1, 2, 5, 7]) assert.doesNotMatch(explain(addr, line)!, /this host answers/);
  // The interface lines themselves say it too; an UP interface with carrier says nothing of the kind.
  assert.match(
    explain(addr, 4)!,
    /^Interface eth1, state DOWN.*It is administratively down \(no UP flag\).*`ip link set eth1 up`/,
  );
  assert.match(explain(addr, 6)!, /^Interface eth2.*It has no carrier/);
  assert.match(explain(addr, 4, 'zh-CN')!, /管理性关闭/);
  assert.doesNotMatch(explain(addr, 0)!, /administratively down|no carrier/);
});

test('rejecting answers and routes say what the kernel really does', () => {
  assert.match(
    explain('unreachable 10.250.0.1 from 10.244.1.5 dev cali12345 \n    cache <!> error -113 iif cali12345\n', 0)!,
    /refused with "No route to host"/,
  );
  assert.match(explain('blackhole 10.244.9.9 uid 0 \n    cache \n', 0)!, /dropped silently/);
  assert.match(explain('unreachable 192.168.99.0/24\n', 0)!, /No route to host/);
  assert.match(
    explain('172.17.0.0/16 dev docker0 proto kernel scope link src 172.17.0.1 linkdown\n', 0)!,
    /still uses this route/,
  );
  assert.match(
    explain('local 10.0.0.5 dev eth0 table local proto kernel scope host src 10.0.0.5\n', 0)!,
    /checks it before every other table/,
  );
});

test('a multipath route printed as its bare destination keeps its legs; legs after an unread line attach to nothing', () => {
  const state = parseNetworkText(
    '192.168.1.0/24 dev eth0 proto kernel scope link src 192.168.1.20\n10.96.0.0/12 \n\tnexthop via 192.168.1.1 dev eth0 weight 1 \n\tnexthop via 192.168.1.2 dev eth0 weight 1 \n',
  );
  assert.deepEqual(
    state.routes.map((r) => [r.destination, r.nexthops.map((h) => h.gateway)]),
    [
      ['192.168.1.0/24', []],
      ['10.96.0.0/12', ['192.168.1.1', '192.168.1.2']],
    ],
  );
  const cut = parseNetworkText(
    '192.168.1.0/24 dev eth0 proto kernel scope link\nsomething odd here\n\tnexthop via 192.168.1.1 dev eth0 weight 1\n',
  );
  assert.deepEqual(cut.routes[0].nexthops, []);
  assert.ok(cut.diagnostics.some((d) => d.code === 'routes-nexthop-without-route'));
});

test('route -n rows: the destination is named with its Genmask prefix; a U row with no device (*) is a blackhole', () => {
  const text = [
    'Kernel IP routing table',
    'Destination     Gateway         Genmask         Flags Metric Ref    Use Iface',
    '10.0.0.0        0.0.0.0         255.255.255.0   U     0      0        0 eth0',
    '10.1.0.0        0.0.0.0         255.255.0.0     U     0      0        0 *',
    '10.2.0.0        -               255.255.0.0     !     0      -        0 -',
  ].join('\n');
  assert.match(explain(text, 2)!, /^Packets to `10\.0\.0\.0\/24` are sent straight out of eth0/);
  assert.match(explain(text, 3)!, /^Packets to `10\.1\.0\.0\/16` are dropped silently \(blackhole\)/);
  assert.match(explain(text, 3, 'zh-CN')!, /静默丢弃/);
  assert.match(explain(text, 4)!, /refused/);
  assert.deepEqual(
    parseNetworkText(text).routes.map((r) => r.type),
    ['unicast', 'blackhole', 'unreachable'],
  );
});

test('a route printed only as a nexthop object id (nhid) is not explained as on-link', () => {
  const text = '10.1.0.0/16 nhid 12 proto bgp metric 20\n10.2.0.0/16 nhid 13 via 192.168.1.1 dev eth0 proto bgp';
  assert.match(explain(text, 0)!, /^Packets to `10\.1\.0\.0\/16` follow nexthop object 12;.*ip nexthop show id 12/);
  assert.doesNotMatch(explain(text, 0)!, /on that link/);
  assert.match(explain(text, 0, 'zh-CN')!, /下一跳对象 12/);
  assert.match(explain(text, 1)!, /go to the next hop 192\.168\.1\.1 through eth0/);
});
