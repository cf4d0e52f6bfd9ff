import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIpAddr } from '../../../src/core/netstate';

const POD = [
  '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000',
  '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00',
  '    inet 127.0.0.1/8 scope host lo',
  '       valid_lft forever preferred_lft forever',
  '3: eth0@if12: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default ',
  '    link/ether 0a:58:0a:f4:01:05 brd ff:ff:ff:ff:ff:ff link-netnsid 0',
  '    altname enp0s3',
  '    inet 10.244.1.5/24 brd 10.244.1.255 scope global eth0',
  '       valid_lft forever preferred_lft forever',
  '    inet 10.244.1.77/24 scope global secondary dynamic noprefixroute eth0:1',
  '       valid_lft 3264sec preferred_lft 3264sec',
  '    inet6 fe80::858:aff:fef4:105/64 scope link ',
  '       valid_lft forever preferred_lft forever',
].join('\n');

test('interfaces: index, name, @peer, flags, mtu, qdisc, state, group, qlen, mac, altname', () => {
  const { interfaces, diagnostics } = parseIpAddr(POD);
  assert.deepEqual(diagnostics, []);
  assert.equal(interfaces.length, 2);
  const eth0 = interfaces[1];
  assert.equal(eth0.index, 3);
  assert.equal(eth0.name, 'eth0');
  assert.equal(eth0.peer, 'if12');
  assert.equal(eth0.peerIndex, 12);
  assert.deepEqual(eth0.flags, ['BROADCAST', 'MULTICAST', 'UP', 'LOWER_UP']);
  assert.equal(eth0.mtu, 1450);
  assert.equal(eth0.qdisc, 'noqueue');
  assert.equal(eth0.state, 'UP');
  assert.equal(eth0.group, 'default');
  assert.equal(eth0.linkType, 'ether');
  assert.equal(eth0.mac, '0a:58:0a:f4:01:05');
  assert.equal(eth0.linkNetnsId, '0');
  assert.deepEqual(eth0.altnames, ['enp0s3']);
  assert.deepEqual(eth0.spans.name, { line: 4, column: 3, length: 4 });
  assert.deepEqual(eth0.spans.peer, { line: 4, column: 8, length: 4 });
  assert.deepEqual(eth0.spans.mac, { line: 5, column: 15, length: 17 });
  assert.equal(interfaces[0].qlen, 1000);
  assert.equal(interfaces[0].linkType, 'loopback');
});

test('addresses: prefix, network, brd, scope, label, flags and lifetimes', () => {
  const eth0 = parseIpAddr(POD).interfaces[1];
  assert.deepEqual(
    eth0.addresses.map((a) => [
      a.family,
      a.address,
      a.prefixLength,
      a.network,
      a.broadcast,
      a.scope,
      a.label,
      a.flags,
      a.validLft,
    ]),
    [
      [4, '10.244.1.5', 24, '10.244.1.0/24', '10.244.1.255', 'global', 'eth0', [], 'forever'],
      [
        4,
        '10.244.1.77',
        24,
        '10.244.1.0/24',
        undefined,
        'global',
        'eth0:1',
        ['secondary', 'dynamic', 'noprefixroute'],
        '3264sec',
      ],
      [6, 'fe80::858:aff:fef4:105', 64, 'fe80::/64', undefined, 'link', undefined, [], 'forever'],
    ],
  );
  assert.deepEqual(eth0.addresses[0].spans.address, { line: 7, column: 9, length: 10 });
  assert.equal(eth0.addresses[0].interface, 'eth0');
});

test('master and a point-to-point peer address', () => {
  const text = [
    '6: veth49e9114@if5: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1460 qdisc noqueue master cbr0 state UP ',
    '    link/ether b2:ef:f1:7c:bb:1e brd ff:ff:ff:ff:ff:ff',
    '7: tun0: <POINTOPOINT,UP> mtu 1400 qdisc fq state UNKNOWN',
    '    link/none ',
    '    inet 10.8.0.1 peer 10.8.0.2/32 scope global tun0',
  ].join('\n');
  const { interfaces } = parseIpAddr(text);
  assert.equal(interfaces[0].master, 'cbr0');
  assert.equal(interfaces[1].linkType, 'none');
  assert.deepEqual(
    [interfaces[1].addresses[0].address, interfaces[1].addresses[0].peer, interfaces[1].addresses[0].prefixLength],
    ['10.8.0.1', '10.8.0.2/32', 32],
  );
});

test('ip -o addr: one line per address, merged by interface', () => {
  const text = [
    '1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever',
    '3: eth0    inet 10.244.1.5/24 brd 10.244.1.255 scope global eth0\\       valid_lft forever preferred_lft forever',
    '3: eth0    inet6 fe80::1/64 scope link \\       valid_lft forever preferred_lft forever',
  ].join('\n');
  const { interfaces, diagnostics } = parseIpAddr(text);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    interfaces.map((i) => [i.index, i.name, i.addresses.map((a) => `${a.address}/${a.prefixLength}`)]),
    [
      [1, 'lo', ['127.0.0.1/8']],
      [3, 'eth0', ['10.244.1.5/24', 'fe80::1/64']],
    ],
  );
  assert.equal(interfaces[1].addresses[1].validLft, 'forever');
  assert.deepEqual(interfaces[1].addresses[0].spans.address, { line: 1, column: 16, length: 10 });
});

test('ip -o link: header and link line on one line', () => {
  const text =
    '3: eth0@if12: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP mode DEFAULT group default \\    link/ether 0a:58:0a:f4:01:05 brd ff:ff:ff:ff:ff:ff link-netnsid 0';
  const [eth0] = parseIpAddr(text).interfaces;
  assert.equal(eth0.mode, 'DEFAULT');
  assert.equal(eth0.mac, '0a:58:0a:f4:01:05');
  assert.equal(eth0.spans.mac?.column, text.indexOf('0a:58'));
});

test('ip -br addr and ip -br link', () => {
  const text =
    'lo               UNKNOWN        127.0.0.1/8 ::1/128 \neth0@if12        UP             10.244.1.5/24 \neth1             DOWN           0a:58:0a:f4:01:06 <BROADCAST,MULTICAST>\n';
  const { interfaces } = parseIpAddr(text);
  assert.deepEqual(
    interfaces.map((i) => [i.name, i.peer, i.state, i.addresses.map((a) => a.address), i.mac, i.flags]),
    [
      ['lo', undefined, 'UNKNOWN', ['127.0.0.1', '::1'], undefined, []],
      ['eth0', 'if12', 'UP', ['10.244.1.5'], undefined, []],
      ['eth1', undefined, 'DOWN', [], '0a:58:0a:f4:01:06', ['BROADCAST', 'MULTICAST']],
    ],
  );
});

test('ip -d details are kept verbatim with an info diagnostic; stray lifetimes are flagged', () => {
  const text =
    '5: vxlan.calico: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UNKNOWN\n    link/ether 66:1e:af:00:00:01 brd ff:ff:ff:ff:ff:ff promiscuity 0\n    vxlan id 4096 local 10.0.0.5 dev eth0 srcport 0 0 dstport 4789 nolearning\n';
  const { interfaces, diagnostics } = parseIpAddr(text);
  assert.deepEqual(interfaces[0].details, [
    'vxlan id 4096 local 10.0.0.5 dev eth0 srcport 0 0 dstport 4789 nolearning',
  ]);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.severity, d.span.line]),
    [['routes-addr-unknown-detail', 'info', 2]],
  );
  const stray = parseIpAddr('    valid_lft forever preferred_lft forever\n');
  assert.deepEqual(
    stray.diagnostics.map((d) => [d.code, d.severity]),
    [['routes-addr-outside-interface', 'warning']],
  );
});
