import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectNetworkFormat, lookupRoute, parseNetworkText, type NetworkState } from '../../../src/core/netstate';
import { corpusFile, corpusFiles, CORPUS_MISSING } from '../../helpers/corpus';

const files = corpusFiles('routes');

function entries(s: NetworkState): number {
  return (
    s.routes.length +
    s.routeGets.length +
    s.interfaces.length +
    s.conntrack.length +
    s.conntrackSummaries.length +
    s.ipsets.length
  );
}

test('every routes corpus file parses without throwing into a non-empty result with in-range positions', (t) => {
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  for (const f of files) {
    const s = parseNetworkText(f.text);
    const lineCount = f.text.split('\n').length;
    assert.ok(entries(s) > 0, `${f.name}: nothing read`);
    assert.ok(s.formats.length > 0, `${f.name}: no format`);
    assert.equal(detectNetworkFormat(f.text).format, s.formats[0], f.name);
    for (const d of s.diagnostics) {
      assert.ok(d.span.line >= 0 && d.span.line < lineCount, `${f.name}: ${d.code} at ${d.span.line}`);
      assert.notEqual(d.severity, 'error', `${f.name}: ${d.code}`);
    }
    for (const r of s.routes)
      assert.ok(r.span.line < lineCount && r.spans.destination !== undefined, `${f.name}: route at ${r.line}`);
    assert.deepEqual(JSON.parse(JSON.stringify(s)), s, `${f.name}: not plain JSON`);
  }
});

function load(prefix: string): NetworkState | undefined {
  const text = corpusFile('routes', prefix);
  return text === undefined ? undefined : parseNetworkText(text);
}

// Counts below were read off the files by hand.

test('corpus 001 (GKE node): ip addr then route -n', (t) => {
  const s = load('001');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.deepEqual(
    s.commands.map((c) => c.format),
    ['ip-addr', 'route-n'],
  );
  assert.equal(s.interfaces.length, 8);
  assert.deepEqual(
    s.interfaces.map((i) => i.addresses.length),
    [1, 1, 1, 0, 0, 0, 0, 0],
  );
  assert.deepEqual(s.interfaces.filter((i) => i.master === 'cbr0').length, 5);
  assert.deepEqual(
    s.routes.map((r) => [r.destination, r.gateway ?? null, r.dev]),
    [
      ['0.0.0.0/0', '10.132.0.1', 'eth0'],
      ['10.80.0.0/24', null, 'cbr0'],
      ['10.132.0.1/32', null, 'eth0'],
    ],
  );
  assert.deepEqual(s.diagnostics, []);
});

test('corpus 002 (conntrack -L): 5 entries, 4 summaries including the glued one, NAT facts', (t) => {
  const s = load('002');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.equal(s.conntrack.length, 5);
  assert.deepEqual(
    s.conntrackSummaries.map((x) => [x.version, x.count]),
    [
      ['1.4.4', 38],
      ['1.4.4', 38],
      ['1.4.2', 101],
      ['1.4.2', 97],
    ],
  );
  assert.deepEqual(
    s.conntrack.map((e) => e.protocol),
    ['icmp', 'icmp', 'tcp', 'tcp', 'tcp'],
  );
  const nodePort = s.conntrack[3];
  assert.deepEqual(nodePort.dnat, { fromAddress: '10.142.0.8', fromPort: 31830, toAddress: '10.40.0.6', toPort: 8080 });
  assert.equal(s.conntrack[2].dnat, undefined);
  assert.equal(s.conntrack[1].snat?.toAddress, '10.142.0.2');
  assert.deepEqual(s.diagnostics, []);
});

test('corpus 003 (ip route, old double spaces, linkdown)', (t) => {
  const s = load('003');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.equal(s.routes.length, 4);
  assert.deepEqual(
    [s.routes[0].destination, s.routes[0].gateway, s.routes[0].dev],
    ['0.0.0.0/0', '10.0.2.2', 'enp0s3'],
  );
  assert.deepEqual(
    s.routes.map((r) => r.flags.join()),
    ['', '', 'linkdown', ''],
  );
  assert.deepEqual(s.diagnostics, []);
});

test('corpus 005 (ip a with kube-ipvs0): 4 interfaces, 6 addresses, altname, dynamic', (t) => {
  const s = load('005');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.deepEqual(
    s.interfaces.map((i) => [i.name, i.addresses.length]),
    [
      ['lo', 2],
      ['ens5', 2],
      ['docker0', 1],
      ['kube-ipvs0', 1],
    ],
  );
  assert.deepEqual(s.interfaces[1].altnames, ['enp0s5']);
  assert.deepEqual(s.interfaces[1].addresses[0].flags, ['dynamic']);
  assert.ok(s.interfaces[2].flags.includes('NO-CARRIER'));
});

test('corpus 007 (kube-ipvs0 with 6 Service addresses)', (t) => {
  const s = load('007');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.equal(s.interfaces.length, 1);
  assert.equal(s.interfaces[0].addresses.length, 6);
  assert.ok(s.interfaces[0].addresses.every((a) => a.prefixLength === 32 && a.label === 'kube-ipvs0'));
});

test('corpus 009 (ipset list cut after 50 of 143 entries)', (t) => {
  const s = load('009');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.equal(s.ipsets.length, 1);
  assert.equal(s.ipsets[0].numberOfEntries, 143);
  assert.equal(s.ipsets[0].members.length, 50);
  assert.equal(s.ipsets[0].members.filter((m) => m.protocol === 'udp').length, 1);
  assert.equal(s.ipsets[0].kubeProxy?.canonicalName, 'KUBE-CLUSTER-IP');
  assert.deepEqual(
    s.diagnostics.map((d) => d.code),
    ['routes-ipset-count-mismatch'],
  );
});

test('corpus 012 (conntrack -L and -E, sctp states)', (t) => {
  const s = load('012');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.equal(s.conntrack.length, 8);
  assert.deepEqual(
    s.conntrack.map((e) => e.event ?? '-'),
    ['-', 'NEW', 'UPDATE', 'UPDATE', 'UPDATE', 'UPDATE', 'UPDATE', 'UPDATE'],
  );
  assert.deepEqual(
    s.conntrack.slice(1).map((e) => e.state),
    ['CLOSED', 'COOKIE_WAIT', 'COOKIE_ECHOED', 'ESTABLISHED', 'SHUTDOWN_SENT', 'SHUTDOWN_ACK_SENT', 'CLOSED'],
  );
  assert.ok(s.conntrack.every((e) => e.dnat?.toPort === 9999));
});

test('corpus 013: all 977 conntrack -E lines parse, each with DNAT to a pod on 9999 and SNAT', (t) => {
  const text = corpusFile('routes', '013');
  if (!text) return t.skip(CORPUS_MISSING);
  const s = parseNetworkText(text);
  const lines = text.split('\n').filter((l) => l.trim() !== '').length;
  assert.equal(lines, 977);
  assert.equal(s.conntrack.length, lines);
  assert.deepEqual(s.diagnostics, []);
  assert.ok(s.conntrack.every((e) => e.event === 'NEW' && e.protocol === 'sctp' && e.unreplied && !e.partial));
  assert.ok(
    s.conntrack.every(
      (e) => e.dnat?.fromAddress === '10.123.123.101' && e.dnat.toPort === 9999 && e.snat !== undefined,
    ),
  );
});

test('corpus 014 (indented ip addr + ipset list with elisions)', (t) => {
  const s = load('014');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.deepEqual(
    s.interfaces.map((i) => [i.name, i.addresses.map((a) => a.address)]),
    [['kube-ipvs0', ['10.96.0.1', '10.96.0.10']]],
  );
  assert.deepEqual(
    s.ipsets.map((x) => [x.name, x.type, x.members.length]),
    [
      ['KUBE-LOOP-BACK', 'hash:ip,port,ip', 6],
      ['KUBE-LOAD-BALANCER', 'hash:ip,port', 0],
      ['KUBE-NODE-PORT-LOCAL-SCTP-HASH', 'hash:ip,port', 0],
      ['KUBE-CLUSTER-IP', 'hash:ip,port', 4],
    ],
  );
  assert.ok(s.ipsets.every((x) => x.kubeProxy !== undefined));
  assert.deepEqual(s.diagnostics, []);
});

test('corpus 015 (conntrack with a line cut at its start and a ... line)', (t) => {
  const s = load('015');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.equal(s.conntrack.length, 6);
  assert.equal(s.conntrack[0].partial, true);
  assert.equal(s.conntrack[0].protocol, 'tcp');
  assert.equal(s.conntrack.filter((e) => e.dnat?.fromAddress === '10.0.0.10' && e.dnat.toPort === 53).length, 5);
});

test('corpus 017 (calico node ip r): /32 cali routes, blackhole proto bird', (t) => {
  const s = load('017');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.equal(s.routes.length, 12);
  assert.equal(s.routes.filter((r) => r.prefixLength === 32 && r.dev?.startsWith('cali')).length, 7);
  const bh = s.routes.filter((r) => r.type === 'blackhole');
  assert.deepEqual(
    bh.map((r) => [r.destination, r.proto]),
    [['10.233.84.0/24', 'bird']],
  );
  assert.equal(lookupRoute(s.routes, '10.233.84.50')?.type, 'blackhole');
  assert.equal(lookupRoute(s.routes, '10.233.84.171')?.dev, 'cali9f51b4e5693');
  assert.deepEqual(s.diagnostics, []);
});

test('corpus 019 (multus pod ip r): secondary default route and bare blackholes', (t) => {
  const s = load('019');
  if (!s) return t.skip(CORPUS_MISSING);
  assert.equal(s.routes.length, 14);
  assert.deepEqual(
    s.routes.filter((r) => r.type === 'blackhole').map((r) => r.destination),
    ['21.23.90.200/32', '22.8.0.0/16'],
  );
  assert.deepEqual(
    [lookupRoute(s.routes, '10.96.0.1')?.gateway, lookupRoute(s.routes, '10.96.0.1')?.dev],
    ['10.244.0.1', 'eth0'],
  );
  assert.equal(lookupRoute(s.routes, '1.1.1.1')?.dev, 'net1');
});

test('iptables and ipvsadm corpus files are not taken for network output', (t) => {
  const others = [...corpusFiles('iptables'), ...corpusFiles('ipvs')];
  if (others.length === 0) return t.skip(CORPUS_MISSING);
  for (const f of others) {
    const d = detectNetworkFormat(f.text);
    assert.equal(d.format, undefined, `${f.name}: ${d.format} ${d.confidence}`);
    assert.ok(d.confidence < 0.1, `${f.name}: ${d.confidence}`);
  }
});
