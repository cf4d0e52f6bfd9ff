import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRouteN } from '../../../src/core/netstate';

const TABLE = [
  'Kernel IP routing table',
  'Destination     Gateway         Genmask         Flags Metric Ref    Use Iface',
  '0.0.0.0         10.0.2.2        0.0.0.0         UG    100    0        0 enp0s3',
  '10.0.2.0        0.0.0.0         255.255.255.0   U     0      0        0 enp0s3',
  '10.0.2.2        0.0.0.0         255.255.255.255 UH    100    0        0 enp0s3',
  '172.16.0.0      0.0.0.0         255.240.0.0     !     0      -        0 -',
].join('\n');

test('route -n: Genmask becomes a prefix length; 0.0.0.0 gateway means none', () => {
  const { routes, diagnostics } = parseRouteN(TABLE);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    routes.map((r) => [r.source, r.destination, r.prefixLength, r.gateway, r.dev, r.routeFlags, r.metric, r.type]),
    [
      ['route-n', '0.0.0.0/0', 0, '10.0.2.2', 'enp0s3', 'UG', 100, 'unicast'],
      ['route-n', '10.0.2.0/24', 24, undefined, 'enp0s3', 'U', 0, 'unicast'],
      ['route-n', '10.0.2.2/32', 32, undefined, 'enp0s3', 'UH', 100, 'unicast'],
      ['route-n', '172.16.0.0/12', 12, undefined, undefined, '!', 0, 'unreachable'],
    ],
  );
  assert.equal(routes[1].ref, 0);
  assert.equal(routes[1].use, 0);
  assert.deepEqual(routes[0].spans.gateway, { line: 2, column: 16, length: 8 });
  assert.deepEqual(routes[0].spans.dev, { line: 2, column: TABLE.split('\n')[2].indexOf('enp0s3'), length: 6 });
});

test('rows without a header (a grep of route -n) are still read', () => {
  const { routes } = parseRouteN('0.0.0.0         10.132.0.1      0.0.0.0         UG    0      0        0 eth0\n');
  assert.equal(routes.length, 1);
  assert.equal(routes[0].gateway, '10.132.0.1');
});

test('netstat -rn columns (MSS Window irtt) and route without -n (names)', () => {
  const text = [
    'Kernel IP routing table',
    'Destination     Gateway         Genmask         Flags   MSS Window  irtt Iface',
    '0.0.0.0         10.244.1.1      0.0.0.0         UG        0 0          0 eth0',
    'default         _gateway        0.0.0.0         UG    0      0        0 eth0',
  ].join('\n');
  const { routes } = parseRouteN(text);
  assert.deepEqual(
    routes.map((r) => [r.destination, r.gateway, r.dev]),
    [
      ['0.0.0.0/0', '10.244.1.1', 'eth0'],
      ['0.0.0.0/0', undefined, 'eth0'],
    ],
  );
  assert.equal(routes[1].attributes.gatewayName, '_gateway');
});

test('route -n -A inet6: prefixes in the destination, Next Hop column', () => {
  const text = [
    'Kernel IPv6 routing table',
    'Destination                    Next Hop                   Flag Met Ref Use If',
    'fe80::/64                      ::                         U    256 1     0 eth0',
    '::/0                           fe80::1                    UGDAe 1024 2   0 eth0',
  ].join('\n');
  const { routes } = parseRouteN(text);
  assert.deepEqual(
    routes.map((r) => [r.family, r.destination, r.gateway, r.metric]),
    [
      [6, 'fe80::/64', undefined, 256],
      [6, '::/0', 'fe80::1', 1024],
    ],
  );
});

test('a non-contiguous Genmask is flagged, not guessed', () => {
  const { routes, diagnostics } = parseRouteN(
    'Kernel IP routing table\n10.0.0.0  0.0.0.0  255.0.255.0  U  0  0  0 eth0\n',
  );
  assert.equal(routes.length, 0);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.span.column]),
    [['routes-route-n-bad-genmask', 19]],
  );
});

test('a cut row inside a table is flagged with the column counts', () => {
  const { routes, diagnostics } = parseRouteN(`${TABLE}\n10.244.0.0      0.0.0.0         255.255.255.0   U\n`);
  assert.equal(routes.length, 4);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.span.line]),
    [['routes-route-n-bad-row', 6]],
  );
  assert.match(diagnostics[0].message, /4 columns, the header has 8/);
});
