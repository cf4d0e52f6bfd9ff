import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIpRoute } from '../../../src/core/netstate';

test('default route: gateway, dev and the 0.0.0.0/0 prefix with positions', () => {
  const { routes, diagnostics } = parseIpRoute('default via 10.0.2.2 dev enp0s3\n');
  assert.equal(routes.length, 1);
  const r = routes[0];
  assert.equal(r.destination, '0.0.0.0/0');
  assert.equal(r.destinationText, 'default');
  assert.equal(r.prefixLength, 0);
  assert.equal(r.gateway, '10.0.2.2');
  assert.equal(r.dev, 'enp0s3');
  assert.equal(r.type, 'unicast');
  assert.equal(r.table, 'main');
  assert.deepEqual(r.spans.gateway, { line: 0, column: 12, length: 8 });
  assert.deepEqual(r.spans.dev, { line: 0, column: 25, length: 6 });
  assert.deepEqual(r.span, { line: 0, column: 0, length: 31 });
  assert.deepEqual(diagnostics, []);
});

test('old iproute2 double spaces, proto/scope/src and the linkdown flag', () => {
  const line = '172.17.0.0/16 dev docker0  proto kernel  scope link  src 172.17.0.1 linkdown';
  const [r] = parseIpRoute(line).routes;
  assert.equal(r.destination, '172.17.0.0/16');
  assert.equal(r.dev, 'docker0');
  assert.equal(r.proto, 'kernel');
  assert.equal(r.scope, 'link');
  assert.equal(r.src, '172.17.0.1');
  assert.deepEqual(r.flags, ['linkdown']);
  assert.deepEqual(r.spans.src, { line: 0, column: line.indexOf('172.17.0.1'), length: 10 });
});

test('bare addresses are host routes (/32 and /128) as calico prints them', () => {
  const { routes } = parseIpRoute(
    '10.233.84.1 dev cali4b0be4db682 scope link\n2001:db8::5 dev cali1 metric 1024 pref medium\n',
  );
  assert.deepEqual(
    routes.map((r) => [r.destination, r.destinationText, r.prefixLength, r.family, r.dev]),
    [
      ['10.233.84.1/32', '10.233.84.1', 32, 4, 'cali4b0be4db682'],
      ['2001:db8::5/128', '2001:db8::5', 128, 6, 'cali1'],
    ],
  );
  assert.deepEqual(routes[1].attributes, { pref: 'medium' });
});

test('route types: blackhole with proto bird, and a blackhole with nothing after it', () => {
  const { routes, diagnostics } = parseIpRoute(
    'blackhole 10.233.84.0/24 proto bird\nblackhole 21.23.90.200 \nunreachable 10.1.0.0/16\nprohibit 10.2.0.0/16 metric 5\n',
  );
  assert.deepEqual(
    routes.map((r) => [r.type, r.destination, r.proto, r.metric, r.dev]),
    [
      ['blackhole', '10.233.84.0/24', 'bird', undefined, undefined],
      ['blackhole', '21.23.90.200/32', undefined, undefined, undefined],
      ['unreachable', '10.1.0.0/16', undefined, undefined, undefined],
      ['prohibit', '10.2.0.0/16', undefined, 5, undefined],
    ],
  );
  assert.deepEqual(routes[0].spans.type, { line: 0, column: 0, length: 9 });
  assert.deepEqual(diagnostics, []);
});

test('a lone type word is kept as a partial default route with an info diagnostic', () => {
  const { routes, diagnostics } = parseIpRoute('blackhole\n');
  assert.equal(routes.length, 1);
  assert.equal(routes[0].type, 'blackhole');
  assert.equal(routes[0].partial, true);
  assert.equal(routes[0].destination, '0.0.0.0/0');
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.severity]),
    [['routes-route-no-destination', 'info']],
  );
});

test('local-table types: table from the line, from the command, or inferred', () => {
  const text = [
    'local 10.0.0.5 dev eth0 table local proto kernel scope host src 10.0.0.5',
    'broadcast 10.0.0.255 dev eth0 proto kernel scope link src 10.0.0.5',
    'multicast ff00::/8 dev eth0 table local proto kernel metric 256 pref medium',
    '$ ip route show table 100',
    '10.9.0.0/16 via 10.0.0.1 dev eth0',
  ].join('\n');
  const { routes } = parseIpRoute(text);
  assert.deepEqual(
    routes.map((r) => [r.type, r.destination, r.table, r.tableSource]),
    [
      ['local', '10.0.0.5/32', 'local', 'explicit'],
      ['broadcast', '10.0.0.255/32', 'local', 'inferred'],
      ['multicast', 'ff00::/8', 'local', 'explicit'],
      ['unicast', '10.9.0.0/16', '100', 'command'],
    ],
  );
});

test('multipath: nexthop lines attach to the route above, with onlink/dead flags', () => {
  const text =
    'default proto static metric 100 \n\tnexthop via 10.0.0.1 dev eth0 weight 1 \n\tnexthop via 10.0.1.1 dev eth1 weight 2 dead onlink\n10.5.0.0/16 dev eth0\n';
  const { routes, diagnostics } = parseIpRoute(text);
  assert.equal(routes.length, 2);
  const r = routes[0];
  assert.equal(r.gateway, undefined);
  assert.equal(r.metric, 100);
  assert.deepEqual(
    r.nexthops.map((n) => [n.line, n.gateway, n.dev, n.weight, n.flags]),
    [
      [1, '10.0.0.1', 'eth0', 1, []],
      [2, '10.0.1.1', 'eth1', 2, ['dead', 'onlink']],
    ],
  );
  assert.deepEqual(r.nexthops[0].spans.gateway, { line: 1, column: 13, length: 8 });
  assert.deepEqual(diagnostics, []);
});

test('ip -6 route: default route family from the command and the gateway; attributes kept', () => {
  const text =
    '$ ip -6 route\ndefault via fe80::1 dev eth0 proto ra metric 1024 expires 1796sec hoplimit 64 pref medium\nunreachable ::/96 dev lo metric 1024 error -113 pref medium\n';
  const { routes } = parseIpRoute(text);
  assert.equal(routes[0].destination, '::/0');
  assert.equal(routes[0].family, 6);
  assert.deepEqual(routes[0].attributes, { expires: '1796sec', hoplimit: '64', pref: 'medium' });
  assert.equal(routes[1].type, 'unreachable');
  assert.equal(routes[1].attributes.error, '-113');
});

test('onlink gateway, mtu lock and unknown words (kept and flagged)', () => {
  const line = '10.0.0.0/8 via 169.254.1.1 dev eth0 onlink mtu lock 1400 frobnicate';
  const { routes, diagnostics } = parseIpRoute(line);
  const r = routes[0];
  assert.deepEqual(r.flags, ['onlink']);
  assert.equal(r.attributes.mtu, '1400');
  assert.deepEqual(r.unknown, ['frobnicate']);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.span.column]),
    [['routes-route-unknown-word', line.indexOf('frob')]],
  );
});

test('a cut line: key without value, bad address', () => {
  const { routes, diagnostics } = parseIpRoute('10.0.0.0/8 via 10.0.0.300 dev\n');
  assert.equal(routes.length, 1);
  assert.equal(routes[0].gateway, undefined);
  assert.deepEqual(diagnostics.map((d) => d.code).sort(), ['routes-route-bad-address', 'routes-route-missing-value']);
});

test('an IPv4 default route via an IPv6 link-local gateway (`via inet6`) stays IPv4', () => {
  const [r] = parseIpRoute('default via inet6 fe80::1 dev eth0 proto bird\n').routes;
  assert.equal(r.family, 4);
  assert.equal(r.destination, '0.0.0.0/0');
  assert.equal(r.gateway, 'fe80::1');
  assert.deepEqual(r.attributes, {});
});
