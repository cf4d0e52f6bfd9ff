/**
 * The trace request as the Packet Trace view reads it, over stdio from the real server: alternatives under their
 * condition (not 50/50), the endpoint chain of each path, the no-endpoints summary, the node's addresses from the
 * request or from an `ip addr` section of the same paste, and the answer's language on request.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CodeLensRequest } from 'vscode-languageserver-protocol/node';
import { TracePacketRequest } from '../../src/server/protocol';
import { startSession, type LspSession } from './client';

const FILTER = [
  '*filter',
  ':INPUT ACCEPT [0:0]',
  ':FORWARD ACCEPT [0:0]',
  ':OUTPUT ACCEPT [0:0]',
  ':KUBE-FORWARD - [0:0]',
  ':KUBE-SERVICES - [0:0]',
  '-A FORWARD -m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD',
  '-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
  '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT',
  '-A KUBE-SERVICES -d 10.96.0.10/32 -p tcp -m comment --comment "default/checkout:http has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable',
  'COMMIT',
];
const NAT = [
  '*nat',
  ':PREROUTING ACCEPT [0:0]',
  ':KUBE-SERVICES - [0:0]',
  ':KUBE-NODEPORTS - [0:0]',
  ':KUBE-SVC-WEB - [0:0]',
  ':KUBE-SEP-PNVO2D3C2MVULPBS - [0:0]',
  ':KUBE-SEP-JPICTQTYOLMYNIJ7 - [0:0]',
  '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
  '-A KUBE-SERVICES -d 10.96.0.20/32 -p tcp -m comment --comment "default/web:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-WEB',
  '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
  '-A KUBE-SVC-WEB -m comment --comment "default/web:http -> 10.244.1.11:6443" -m statistic --mode random --probability 0.5 -j KUBE-SEP-PNVO2D3C2MVULPBS',
  '-A KUBE-SVC-WEB -m comment --comment "default/web:http -> 10.244.2.12:6443" -j KUBE-SEP-JPICTQTYOLMYNIJ7',
  '-A KUBE-SEP-PNVO2D3C2MVULPBS -p tcp -m comment --comment "default/web:http" -m tcp -j DNAT --to-destination 10.244.1.11:6443',
  '-A KUBE-SEP-JPICTQTYOLMYNIJ7 -p tcp -m comment --comment "default/web:http" -m tcp -j DNAT --to-destination 10.244.2.12:6443',
  'COMMIT',
];
const DUMP = [...FILTER, ...NAT, ''].join('\n');
const URI = 'file:///work/trace-alternatives.iptables';
const SESSION_URI = 'file:///work/trace-session.txt';
const SESSION = [
  '$ ip -o addr',
  '2: eth0    inet 192.168.0.5/24 brd 192.168.0.255 scope global eth0\\       valid_lft forever preferred_lft forever',
  '$ iptables-save',
  DUMP,
].join('\n');

let s: LspSession;
before(async () => {
  s = await startSession();
  await s.open(URI, 'iptables', DUMP);
  await s.open(SESSION_URI, 'iptables', SESSION);
});
after(async () => {
  await s.close();
});

test('an undecided local address gives alternatives under their condition, not 50% ACCEPT / 50% REJECT', async () => {
  const r = await s.connection.sendRequest(TracePacketRequest, { uri: URI, src: '10.244.0.9', dst: '10.96.0.10:80' });
  const rows = r.paths.map((p) => [p.verdict, p.probability, p.given]).sort();
  assert.deepEqual(rows, [
    ['ACCEPT', 1, ['if 10.96.0.10 is an address of this node']],
    ['REJECT', 1, ['if 10.96.0.10 is not an address of this node']],
  ]);
  // The condition heads the path's group; it is not repeated among its other assumptions.
  for (const p of r.paths)
    assert.ok(!p.assumptions.some((a) => /10\.96\.0\.10 is (not )?an address/.test(a)), p.assumptions.join('\n'));
  assert.equal(r.needsLocalAddresses, true);
  assert.equal(r.localAddresses, undefined);
  assert.equal(
    r.summary,
    'default/checkout:http has no endpoints: kube-proxy rejects the connection (filter/KUBE-SERVICES line 10, icmp-port-unreachable). Give the Service ready endpoints (pods matching its selector that pass their readiness probe).',
  );
  assert.ok(!r.warnings.some((w) => /Check the port and protocol/.test(w)), r.warnings.join('\n'));
});

test('the node addresses given decide it: one REJECT path, the addresses said, nothing to ask', async () => {
  const r = await s.connection.sendRequest(TracePacketRequest, {
    uri: URI,
    src: '10.244.0.9',
    dst: '10.96.0.10:80',
    localAddresses: ['192.168.0.5'],
  });
  assert.deepEqual(
    r.paths.map((p) => [p.verdict, p.probability, p.given]),
    [['REJECT', 1, undefined]],
  );
  assert.deepEqual(r.localAddresses, { addresses: ['192.168.0.5'], from: 'request' });
  assert.equal(r.needsLocalAddresses, undefined);
  assert.match(r.summary, /^default\/checkout:http has no endpoints: kube-proxy rejects the connection/);
});

test("an ip addr section of the same paste gives the node's addresses", async () => {
  const r = await s.connection.sendRequest(TracePacketRequest, {
    uri: SESSION_URI,
    src: '10.244.0.9',
    dst: '10.96.0.10:80',
  });
  assert.deepEqual(
    r.paths.map((p) => p.verdict),
    ['REJECT'],
  );
  assert.deepEqual(r.localAddresses, { addresses: ['192.168.0.5'], from: 'paste' });
});

test('each path names its endpoint chain; draws keep their probabilities; the summary counts paths without "(s)"', async () => {
  const r = await s.connection.sendRequest(TracePacketRequest, {
    uri: URI,
    src: '10.244.0.9',
    dst: '10.96.0.20:80',
    localAddresses: ['192.168.0.5'],
  });
  assert.deepEqual(
    r.paths.map((p) => [p.probability, p.dnat && `${p.dnat.ip}:${p.dnat.port}`, p.endpointChain]),
    [
      [0.5, '10.244.1.11:6443', 'KUBE-SEP-PNVO2D3C2MVULPBS'],
      [0.5, '10.244.2.12:6443', 'KUBE-SEP-JPICTQTYOLMYNIJ7'],
    ],
  );
  assert.equal(r.summary, 'TCP 10.244.0.9 → 10.96.0.20:80: 2 paths → 10.244.1.11:6443, 10.244.2.12:6443');
});

test('the answer comes in the language asked for (a view that follows a language change asks again)', async () => {
  const r = await s.connection.sendRequest(TracePacketRequest, {
    uri: URI,
    src: '10.244.0.9',
    dst: '10.96.0.10:80',
    lang: 'zh-CN',
  });
  assert.match(r.summary, /没有端点：kube-proxy 拒绝该连接/);
  assert.ok(
    r.paths.some((p) => (p.given ?? []).includes('若 10.96.0.10 不是本节点的地址')),
    JSON.stringify(r.paths.map((p) => p.given)),
  );
  const zh = await s.connection.sendRequest(TracePacketRequest, {
    uri: URI,
    src: '10.244.0.9',
    dst: '10.96.0.20:80',
    localAddresses: ['192.168.0.5'],
    lang: 'zh-CN',
  });
  assert.match(zh.summary, /2 条路径/);
});

test('a packet the CLI would refuse is refused with the same reason, naming the request fields', async () => {
  const refused = async (params: Partial<Parameters<typeof s.connection.sendRequest>[1]>) => {
    const e = await s.connection
      .sendRequest(TracePacketRequest, { uri: URI, src: '10.244.0.9', dst: '10.96.0.20:80', ...params })
      .then(
        () => undefined,
        (x: { code: number; message: string }) => x,
      );
    return e && [e.code, e.message];
  };
  assert.deepEqual(await refused({ dst: '[fd00::1]:80' }), [-32602, 'src and dst must be both IPv4 or both IPv6']);
  assert.deepEqual(await refused({ dst: '10.96.0.20:70000' }), [
    -32602,
    'dst: "10.96.0.20:70000" is not IP:PORT (use [v6]:PORT for IPv6)',
  ]);
  assert.deepEqual(await refused({ proto: 'icmp' as 'tcp' }), [-32602, 'proto must be one of tcp, udp, sctp']);
  // As on the command line, the protocol may come in capitals.
  const r = await s.connection.sendRequest(TracePacketRequest, {
    uri: URI,
    src: '10.244.0.9',
    dst: '10.96.0.20:80',
    proto: 'TCP' as 'tcp',
    localAddresses: ['192.168.0.5'],
  });
  assert.equal(r.paths.length, 2);
});

test('an IPVS paste without the virtual service says so in the language asked for', async () => {
  const uri = 'file:///work/trace-miss.ipvs';
  await s.open(uri, 'ipvs', 'TCP  10.96.0.5:80 rr\n  -> 10.244.1.1:80   Masq    1      0          0\n');
  const miss = (lang: 'en' | 'zh-CN') =>
    s.connection.sendRequest(TracePacketRequest, { uri, src: '10.244.0.9', dst: '10.96.0.6:80', lang });
  assert.equal((await miss('en')).summary, 'No virtual service for TCP 10.96.0.6:80 in this dump.');
  assert.equal((await miss('zh-CN')).summary, '此转储中没有 TCP 10.96.0.6:80 的虚拟服务。');
});

test('a text with neither rules nor chain policies is not traced to a made-up ACCEPT, as on the command line', async () => {
  const uri = 'file:///work/trace-notes.iptables';
  await s.open(uri, 'iptables', 'notes about the node\nnothing from iptables-save here\n');
  const r = await s.connection.sendRequest(TracePacketRequest, { uri, src: '10.244.0.9', dst: '10.96.0.6:80' });
  assert.deepEqual([r.summary, r.paths.length], ['No iptables rules or IPVS services in this document', 0]);
});

test('code lenses in Chinese, counted without "(s)" in English', async () => {
  const zh = await startSession({ locale: 'zh-cn' });
  try {
    await zh.open(URI, 'iptables', DUMP);
    const lenses = (await zh.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: URI } })) ?? [];
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(titles.includes('2 个端点，每个 50%，1 处引用'), titles.join(' | '));
    assert.ok(titles.includes('从 Pod 追踪到 default/web:http...'), titles.join(' | '));
  } finally {
    await zh.close();
  }
  const en = ((await s.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: URI } })) ?? []).map(
    (l) => l.command?.title ?? '',
  );
  assert.ok(en.includes('2 endpoints, 50% each, 1 reference'), en.join(' | '));
  assert.ok(!en.some((x) => /\(s\)/.test(x)), en.join(' | '));
});
