import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressesOf, interfaceForAddress, lookupRoute, parseNetworkText } from '../../../src/core/netstate';

const POD_ROUTES = parseNetworkText(
  [
    'default via 10.10.0.1 dev net1',
    '10.244.1.0/24 dev eth0 proto kernel scope link src 10.244.1.5',
    '10.244.0.0/16 via 10.244.1.1 dev eth0',
    '10.96.0.0/12 via 10.244.1.1 dev eth0 metric 200',
    '10.96.0.0/12 via 10.244.1.254 dev eth0 metric 100',
    'blackhole 10.244.9.0/24',
    'fd00::/64 dev eth0 proto kernel metric 256',
    'default via fd00::1 dev eth0 metric 1024',
  ].join('\n'),
).routes;

const NODE = parseNetworkText(
  [
    '2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP',
    '    inet 192.168.10.20/24 brd 192.168.10.255 scope global eth0',
    '4: cni0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP',
    '    inet 10.244.1.1/24 brd 10.244.1.255 scope global cni0',
    '    inet6 fd00::1/64 scope global',
  ].join('\n'),
).interfaces;

test('longest prefix wins; the seed case: the ClusterIP goes via a gateway that is not this node', () => {
  const toApi = lookupRoute(POD_ROUTES, '172.16.0.1');
  assert.ok(toApi);
  assert.deepEqual(
    [toApi.destination, toApi.gateway, toApi.dev, toApi.type, toApi.table],
    ['0.0.0.0/0', '10.10.0.1', 'net1', 'unicast', 'main'],
  );
  assert.equal(interfaceForAddress(NODE, toApi.gateway!), undefined);
  const toPod = lookupRoute(POD_ROUTES, '10.244.3.7');
  assert.equal(toPod?.destination, '10.244.0.0/16');
  assert.equal(interfaceForAddress(NODE, toPod!.gateway!)?.interface.name, 'cni0');
  const onLink = lookupRoute(POD_ROUTES, '10.244.1.9');
  assert.deepEqual([onLink?.destination, onLink?.gateway, onLink?.src], ['10.244.1.0/24', undefined, '10.244.1.5']);
});

test('equal prefixes: the lowest metric wins; blackhole routes are answers too', () => {
  assert.equal(lookupRoute(POD_ROUTES, '10.96.0.10')?.gateway, '10.244.1.254');
  assert.equal(lookupRoute(POD_ROUTES, '10.244.9.3')?.type, 'blackhole');
});

test('families stay apart; invalid input gives undefined', () => {
  assert.equal(lookupRoute(POD_ROUTES, 'fd00::9')?.destination, 'fd00::/64');
  assert.equal(lookupRoute(POD_ROUTES, '2001:db8::1')?.gateway, 'fd00::1');
  assert.equal(lookupRoute(POD_ROUTES, 'not-an-ip'), undefined);
  assert.equal(lookupRoute([], '10.0.0.1'), undefined);
});

test('other tables are ignored unless asked; local before main like the kernel rules; throw passes on', () => {
  const routes = parseNetworkText(
    [
      '$ ip route show table all',
      'local 10.96.0.1 dev kube-ipvs0 table local proto kernel scope host src 10.96.0.1',
      'throw 10.50.0.0/16 table 100',
      '10.0.0.0/8 via 10.1.1.1 dev eth1 table 100',
      'default via 192.168.10.1 dev eth0',
    ].join('\n'),
  ).routes;
  assert.equal(lookupRoute(routes, '10.96.0.1')?.gateway, '192.168.10.1');
  const local = lookupRoute(routes, '10.96.0.1', { tables: ['local', 'main'] });
  assert.deepEqual([local?.type, local?.table, local?.dev], ['local', 'local', 'kube-ipvs0']);
  assert.equal(lookupRoute(routes, '10.50.1.1', { tables: ['100', 'main'] })?.gateway, '192.168.10.1');
  assert.equal(lookupRoute(routes, '10.60.1.1', { tables: ['100', 'main'] })?.gateway, '10.1.1.1');
});

test('partial routes (cut lines) are skipped unless asked for', () => {
  const routes = parseNetworkText('$ ip route\nunreachable\n10.0.0.0/8 dev eth0\n').routes;
  assert.equal(lookupRoute(routes, '1.2.3.4'), undefined);
  assert.equal(lookupRoute(routes, '1.2.3.4', { includePartial: true })?.type, 'unreachable');
});

test('multipath routes return their nexthops', () => {
  const routes = parseNetworkText(
    'default proto static metric 100\n\tnexthop via 10.0.0.1 dev eth0 weight 1\n\tnexthop via 10.0.1.1 dev eth1 weight 1\n',
  ).routes;
  const hit = lookupRoute(routes, '8.8.8.8');
  assert.deepEqual(
    hit?.nexthops.map((n) => n.gateway),
    ['10.0.0.1', '10.0.1.1'],
  );
});

test('addressesOf and interfaceForAddress (own address, on-link subnet, IPv6)', () => {
  assert.deepEqual(
    addressesOf(NODE).map((a) => `${a.interface} ${a.address}/${a.prefixLength}`),
    ['eth0 192.168.10.20/24', 'cni0 10.244.1.1/24', 'cni0 fd00::1/64'],
  );
  assert.equal(interfaceForAddress(NODE, '192.168.10.20')?.interface.name, 'eth0');
  assert.equal(interfaceForAddress(NODE, '192.168.10.99'), undefined);
  assert.equal(interfaceForAddress(NODE, '192.168.10.99', { onLink: true })?.interface.name, 'eth0');
  assert.equal(interfaceForAddress(NODE, 'fd00::1')?.address.family, 6);
  assert.equal(interfaceForAddress(NODE, 'bogus'), undefined);
});

test('a route through a nexthop object says so: no gateway shown is not on-link', () => {
  const routes = parseNetworkText(
    ['default nhid 12 proto static metric 20', '10.244.1.0/24 dev eth0 proto kernel scope link src 10.244.1.5'].join(
      '\n',
    ),
  ).routes;
  const viaObject = lookupRoute(routes, '172.16.0.1');
  assert.deepEqual(
    [viaObject?.destination, viaObject?.gateway, viaObject?.dev, viaObject?.nexthopId],
    ['0.0.0.0/0', undefined, undefined, 12],
  );
  const onLink = lookupRoute(routes, '10.244.1.9');
  assert.deepEqual([onLink?.dev, onLink?.nexthopId], ['eth0', undefined]);
});
