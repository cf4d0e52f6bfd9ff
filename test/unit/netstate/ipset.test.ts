import assert from 'node:assert/strict';
import { test } from 'node:test';
import { t } from '../../../src/core/i18n/catalog';
import { kubeProxySetInfo, parseIpset } from '../../../src/core/netstate';

const LIST = [
  'Name: KUBE-CLUSTER-IP',
  'Type: hash:ip,port',
  'Revision: 5',
  'Header: family inet hashsize 1024 maxelem 65536 bucketsize 12 initval 0x2a4b7c1d',
  'Size in memory: 448',
  'References: 2',
  'Number of entries: 3',
  'Members:',
  '10.96.0.1,tcp:443',
  '10.96.0.10,udp:53',
  '10.96.0.10,tcp:9153',
  '',
  'Name: KUBE-LOOP-BACK',
  'Type: hash:ip,port,ip',
  'Revision: 5',
  'Header: family inet hashsize 1024 maxelem 65536',
  'Size in memory: 360',
  'References: 1',
  'Number of entries: 1',
  'Members:',
  '10.244.0.2,tcp:53,10.244.0.2',
].join('\n');

test('ipset list: header fields and a set with 3 members', () => {
  const { ipsets, diagnostics } = parseIpset(LIST);
  assert.deepEqual(diagnostics, []);
  assert.equal(ipsets.length, 2);
  const s = ipsets[0];
  assert.equal(s.name, 'KUBE-CLUSTER-IP');
  assert.equal(s.type, 'hash:ip,port');
  assert.equal(s.revision, 5);
  assert.deepEqual(s.header, {
    extra: { bucketsize: '12', initval: '0x2a4b7c1d' },
    family: 'inet',
    hashsize: 1024,
    maxelem: 65536,
  });
  assert.equal(s.sizeInMemory, 448);
  assert.equal(s.references, 2);
  assert.equal(s.numberOfEntries, 3);
  assert.deepEqual(
    s.members.map((m) => [m.text, m.address, m.protocol, m.port, m.line]),
    [
      ['10.96.0.1,tcp:443', '10.96.0.1', 'tcp', 443, 8],
      ['10.96.0.10,udp:53', '10.96.0.10', 'udp', 53, 9],
      ['10.96.0.10,tcp:9153', '10.96.0.10', 'tcp', 9153, 10],
    ],
  );
  assert.deepEqual(s.spans.name, { line: 0, column: 6, length: 15 });
  assert.deepEqual(s.members[0].span, { line: 8, column: 0, length: 17 });
});

test('hash:ip,port,ip members keep the third part; kube-proxy sets get a purpose', () => {
  const loop = parseIpset(LIST).ipsets[1];
  assert.deepEqual(loop.members[0].elements, ['10.244.0.2', 'tcp:53', '10.244.0.2']);
  assert.equal(loop.members[0].second, '10.244.0.2');
  assert.equal(loop.kubeProxy?.purposeKey, 'routes.ipset.purpose.loop-back');
  assert.match(t('en', loop.kubeProxy!.purposeKey), /hairpin/);
  assert.notEqual(t('zh-CN', loop.kubeProxy!.purposeKey), loop.kubeProxy!.purposeKey);
});

test('kube-proxy set names: IPv6 prefix, the 31-character cut, and non-kube names', () => {
  assert.deepEqual(kubeProxySetInfo('KUBE-NODE-PORT-TCP'), {
    canonicalName: 'KUBE-NODE-PORT-TCP',
    ipv6: false,
    purposeKey: 'routes.ipset.purpose.node-port-tcp',
  });
  assert.equal(kubeProxySetInfo('KUBE-6-CLUSTER-IP')?.canonicalName, 'KUBE-CLUSTER-IP');
  assert.equal(kubeProxySetInfo('KUBE-6-LOAD-BALANCER-SOURCE-CID')?.canonicalName, 'KUBE-LOAD-BALANCER-SOURCE-CIDR');
  assert.equal(kubeProxySetInfo('cali40all-ipam-pools'), undefined);
});

test('bitmap:port, hash:net with options, plain IPs, and a cut listing', () => {
  const text = [
    'Name: KUBE-NODE-PORT-TCP',
    'Type: bitmap:port',
    'Header: range 0-65535',
    'Number of entries: 5',
    'Members:',
    '30080',
    '31443',
    '',
    'Name: my-nets',
    'Type: hash:net',
    'Header: family inet hashsize 1024 maxelem 65536 timeout 300 comment',
    'Members:',
    '10.0.0.0/8 timeout 120 comment "pod net"',
    '192.168.1.1 nomatch',
  ].join('\n');
  const { ipsets, diagnostics } = parseIpset(text);
  assert.deepEqual(
    ipsets[0].members.map((m) => [m.port, m.protocol]),
    [
      [30080, undefined],
      [31443, undefined],
    ],
  );
  assert.deepEqual(ipsets[1].header.timeout, 300);
  assert.deepEqual(
    ipsets[1].members.map((m) => [m.address, m.options]),
    [
      ['10.0.0.0/8', { timeout: '120', comment: 'pod net' }],
      ['192.168.1.1', { nomatch: '' }],
    ],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.severity, d.span.line]),
    [['routes-ipset-count-mismatch', 'info', 3]],
  );
});

test('ipset save: create and add lines', () => {
  const { ipsets } = parseIpset(
    'create KUBE-CLUSTER-IP hash:ip,port family inet hashsize 1024 maxelem 65536\nadd KUBE-CLUSTER-IP 10.96.0.1,tcp:443\nadd KUBE-CLUSTER-IP 10.96.0.10,udp:53\n',
  );
  assert.equal(ipsets.length, 1);
  assert.equal(ipsets[0].type, 'hash:ip,port');
  assert.deepEqual(
    ipsets[0].members.map((m) => m.text),
    ['10.96.0.1,tcp:443', '10.96.0.10,udp:53'],
  );
});

test('a cut member inside a listing is flagged and the listing goes on', () => {
  const { ipsets, diagnostics } = parseIpset(
    'Name: s\nType: hash:ip,port\nMembers:\n10.96.0.1,tcp:443\n10.96.0.10,tc\n10.96.0.10,udp:53\n',
  );
  assert.deepEqual(
    ipsets[0].members.map((m) => m.text),
    ['10.96.0.1,tcp:443', '10.96.0.10,udp:53'],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.span.line]),
    [['routes-ipset-bad-member', 4]],
  );
});

test('ipset save: each add goes to the last set made under its name, over thousands of sets', () => {
  // Each add once searched a reversed copy of every set read so far: 32k sets ran for minutes.
  const n = 5000;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`create S${i} hash:ip family inet hashsize 1024 maxelem 65536`);
  lines.push('create S7 hash:net family inet hashsize 1024 maxelem 65536'); // made again: the adds go to this one
  for (let i = 0; i < n; i++) lines.push(`add S${i % 50} 10.4.${i >> 8}.${i & 255}`);
  const { ipsets } = parseIpset(lines.join('\n') + '\n');
  assert.equal(ipsets.length, n + 1);
  assert.equal(ipsets[3].members.length, n / 50);
  assert.equal(ipsets[3].members[1].text, '10.4.0.53');
  assert.equal(ipsets[7].members.length, 0);
  assert.equal(ipsets[n].type, 'hash:net');
  assert.equal(ipsets[n].members.length, n / 50);
});
