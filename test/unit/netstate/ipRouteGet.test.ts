import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIpRouteGet, parseNetworkText } from '../../../src/core/netstate';

test('route get via a gateway: fields, uid and the cache line', () => {
  const text = '172.16.0.1 via 192.168.10.1 dev eth0 src 10.244.1.5 uid 0 \n    cache \n';
  const { routeGets, diagnostics } = parseIpRouteGet(text);
  assert.equal(routeGets.length, 1);
  const g = routeGets[0];
  assert.equal(g.type, 'unicast');
  assert.equal(g.destination, '172.16.0.1');
  assert.equal(g.family, 4);
  assert.equal(g.gateway, '192.168.10.1');
  assert.equal(g.dev, 'eth0');
  assert.equal(g.src, '10.244.1.5');
  assert.equal(g.uid, 0);
  assert.deepEqual(g.spans.gateway, { line: 0, column: 15, length: 12 });
  assert.deepEqual(g.cache, { line: 1, span: { line: 1, column: 4, length: 5 }, flags: [], attributes: {} });
  assert.deepEqual(diagnostics, []);
});

test('without a command line, `uid` alone tells a route-get answer from a route', () => {
  const s = parseNetworkText('10.96.0.1 via 169.254.1.1 dev eth0 src 10.244.0.9 uid 1000\n');
  assert.equal(s.routes.length, 0);
  assert.equal(s.routeGets.length, 1);
  assert.equal(s.routeGets[0].uid, 1000);
});

test('an old answer without uid becomes a route-get answer when its cache line follows', () => {
  const s = parseNetworkText('10.0.0.5 dev eth0  src 10.0.0.1 \n    cache  mtu 1500 advmss 1460 hoplimit 64\n');
  assert.equal(s.routes.length, 0);
  assert.equal(s.routeGets.length, 1);
  assert.equal(s.routeGets[0].destination, '10.0.0.5');
  assert.deepEqual(s.routeGets[0].cache?.attributes, { mtu: '1500', advmss: '1460', hoplimit: '64' });
  assert.deepEqual(s.formats, ['ip-route-get']);
});

test('a local answer with `cache <local>`', () => {
  const { routeGets } = parseIpRouteGet(
    'local 10.96.0.1 dev lo table local src 10.96.0.1 uid 0 \n    cache <local> \n',
  );
  assert.equal(routeGets[0].type, 'local');
  assert.equal(routeGets[0].table, 'local');
  assert.equal(routeGets[0].dev, 'lo');
  assert.deepEqual(routeGets[0].cache?.flags, ['local']);
});

test('errors after `ip route get ADDR` are answers with the address from the command', () => {
  const text = [
    'root@pod:/# ip route get 10.9.9.9',
    'RTNETLINK answers: Network is unreachable',
    'root@pod:/# ip route get 10.8.0.1',
    'RTNETLINK answers: Invalid argument',
    'root@pod:/# ip route get 10.7.0.1',
    'RTNETLINK answers: Permission denied',
  ].join('\n');
  const { routeGets, diagnostics } = parseIpRouteGet(text);
  assert.deepEqual(
    routeGets.map((g) => [g.destination, g.type, g.error, g.line]),
    [
      ['10.9.9.9', 'unreachable', 'Network is unreachable', 1],
      ['10.8.0.1', 'blackhole', 'Invalid argument', 3],
      ['10.7.0.1', 'prohibit', 'Permission denied', 5],
    ],
  );
  assert.deepEqual(routeGets[0].spans.error, { line: 1, column: 19, length: 22 });
  assert.deepEqual(diagnostics, []);
});

test('IPv6 answer with from, proto, metric and pref', () => {
  const { routeGets } = parseIpRouteGet(
    '2001:db8::1 from :: via fe80::1 dev eth0 proto ra src 2001:db8::2 metric 1024 pref medium\n',
  );
  const g = routeGets[0];
  assert.equal(g.family, 6);
  assert.equal(g.from, '::');
  assert.equal(g.gateway, 'fe80::1');
  assert.equal(g.proto, 'ra');
  assert.equal(g.metric, 1024);
  assert.deepEqual(g.attributes, { pref: 'medium' });
});

test('a cache line with nothing above it is flagged', () => {
  const s = parseNetworkText('    cache\n');
  assert.deepEqual(
    s.diagnostics.map((d) => d.code),
    ['routes-cache-without-route-get'],
  );
});

test('under `ip route show cache`, cache lines stay with their cached routes', () => {
  const s = parseNetworkText(
    '$ ip -6 route show cache\n2001:db8::1 via fe80::1 dev eth0 metric 0 \n    cache expires 295sec mtu 1400 pref medium\n',
  );
  assert.equal(s.routeGets.length, 0);
  assert.equal(s.routes.length, 1);
  assert.equal(s.routes[0].attributes.cache, 'expires 295sec mtu 1400 pref medium');
});
