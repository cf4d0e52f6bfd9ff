/**
 * kube-proxy's nftables mode: Services, ports, NodePorts, endpoints and their shares read from the maps and
 * chains of `nft list ruleset`. The sample was printed by the real nft (see samples/README.md); the hashes in its
 * chain names were computed apart from this code (Python's hashlib and base64), so a match here is evidence.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { explainAt } from '../../../src/core/iptables/explain';
import { buildModel } from '../../../src/core/iptables/model';
import { bracedElements, nftSeconds, readNftObject } from '../../../src/core/nft/objects';
import { nftKubeChain } from '../../../src/core/iptables/chainHashes';
import { parseIptables } from '../../../src/core/iptables/parser';
import { nftPriority } from '../../../src/core/nft/ruleset';
import type { NftBaseChain } from '../../../src/core/nft/objects';
import { tracePacket } from '../../../src/core/iptables/trace';
import {
  FORWARD_STAGES,
  LOOPBACK_STAGES,
  PREROUTING_STAGES,
  stagesWithBaseChains,
} from '../../../src/core/iptables/trace/hooks';
import { LineIndex } from '../../../src/core/common/lines';
import { repoRoot } from '../../helpers/corpus';

const SAMPLE = readFileSync(path.join(repoRoot(), 'samples', 'kube-proxy-nftables.nft'), 'utf8');
const modelOf = (text: string) => buildModel(parseIptables(text));
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));

test('nftables mode: every Service port of the maps, with ClusterIP, port, NodePort, external IP and affinity', () => {
  const kube = modelOf(SAMPLE).kube;
  assert.equal(kube.mode, 'nftables');
  const byName = new Map(kube.services.map((s) => [s.name, s]));
  assert.deepEqual([...byName.keys()].sort(), [
    'default/empty:http',
    'default/kubernetes:https',
    'kube-system/kube-dns:dns',
    'shop/web:http',
  ]);
  const api = byName.get('default/kubernetes:https')!;
  assert.deepEqual(
    [api.protocol, api.clusterIP, api.port, api.chain, api.hashVerified, api.trafficPolicy],
    ['tcp', '10.96.0.1', 443, 'service-2QRHZV4L-default/kubernetes/tcp/https', true, 'Cluster'],
  );
  const web = byName.get('shop/web:http')!;
  assert.deepEqual(
    [web.clusterIP, web.port, web.nodePort, web.externalIPs, web.sessionAffinitySeconds],
    ['10.96.12.34', 80, 30080, ['192.0.2.10'], 10800],
  );
  assert.deepEqual(web.chains.map((c) => c.kind).sort(), ['external', 'service']);
  const empty = byName.get('default/empty:http')!;
  assert.deepEqual(
    [empty.clusterIP, empty.port, empty.noEndpoints, empty.endpoints.length],
    ['10.96.0.77', 80, true, 0],
  );
  // The outline and the tracer's hints go by a Service's lines: the map element and the chains' rules.
  assert.ok(web.lines.includes(lineOf(SAMPLE, 'tcp . 30080 : goto')));
  assert.ok(web.lines.includes(lineOf(SAMPLE, 'dnat to 10.244.2.7:8080')));
});

test('nftables mode: endpoints from the numgen ladder share 1/N; addresses from the DNAT; chain hashes recomputed', () => {
  const kube = modelOf(SAMPLE).kube;
  const dns = kube.services.find((s) => s.name === 'kube-system/kube-dns:dns')!;
  assert.deepEqual(
    dns.endpoints.map((e) => [e.ip, e.port, e.share, e.hashVerified]),
    [
      ['10.244.0.2', 53, 0.5, true],
      ['10.244.0.3', 53, 0.5, true],
    ],
  );
  const web = kube.services.find((s) => s.name === 'shop/web:http')!;
  assert.equal(web.endpoints.length, 3);
  assert.ok(web.endpoints.every((e) => Math.abs(e.share! - 1 / 3) < 1e-12));
  assert.equal(web.endpoints.reduce((sum, e) => sum + e.share!, 0).toFixed(9), '1.000000000');
  const sep = 'endpoint-KJBNWEXB-default/kubernetes/tcp/https__172.18.0.2/6443';
  assert.equal(kube.endpointByChain.get(sep)?.service.name, 'default/kubernetes:https');
  assert.equal(kube.serviceByChain.get('external-KHN6ECMT-shop/web/tcp/http')?.name, 'shop/web:http');
});

test('nftables mode: a chain whose hash is not its name, a grep without the ladder, IPv6, Local policy without local endpoints', () => {
  const text = [
    'table ip6 kube-proxy {',
    '\tmap no-endpoint-services {',
    '\t\ttype ipv6_addr . inet_proto . inet_service : verdict',
    '\t\telements = { fd00::77 . tcp . 80 comment "ns/local-only:web" : drop }',
    '\t}',
    '\tchain service-AAAAAAAA-ns/forged/tcp/web {',
    '\t\tip6 daddr fd00::10 tcp dport 80 jump mark-for-masquerade',
    '\t}',
    '\tchain endpoint-AAAAAAAA-ns/forged/tcp/web__fd00.10..5/8080 {',
    '\t\tmeta l4proto tcp dnat to [fd00:10::5]:8080',
    '\t}',
    '}',
  ].join('\n');
  const kube = modelOf(text).kube;
  const forged = kube.services.find((s) => s.name === 'ns/forged:web')!;
  assert.equal(forged.hashVerified, false);
  assert.equal(forged.clusterIP, 'fd00::10');
  assert.deepEqual(
    forged.endpoints.map((e) => [e.ip, e.port, e.share, e.hashVerified]),
    [['fd00:10::5', 8080, undefined, false]],
  );
  const local = kube.services.find((s) => s.name === 'ns/local-only:web')!;
  assert.deepEqual(
    [local.noLocalEndpoints, local.noEndpoints, local.trafficPolicy, local.clusterIP],
    [true, false, 'Local', 'fd00::77'],
  );
});

test('nftables mode chain names: kinds, endpoints with IPv6 restored, hashes as kube-proxy makes them', () => {
  assert.deepEqual(nftKubeChain('service-2QRHZV4L-default/kubernetes/tcp/https'), {
    kind: 'service',
    namespace: 'default',
    service: 'kubernetes',
    protocol: 'tcp',
    portName: 'https',
    spn: 'default/kubernetes:https',
    hashVerified: true,
  });
  assert.equal(nftKubeChain('local-2QRHZV4L-default/kubernetes/tcp/https')?.kind, 'service-local');
  assert.deepEqual(nftKubeChain('endpoint-2GKX576Q-kube-system/kube-dns/udp/dns__10.244.0.2/53')?.endpoint, {
    ip: '10.244.0.2',
    port: 53,
  });
  assert.equal(nftKubeChain('endpoint-2GKX576Q-kube-system/kube-dns/udp/dns__10.244.0.2/53')?.hashVerified, true);
  assert.equal(nftKubeChain('endpoint-2GKX576Q-kube-system/kube-dns/udp/dns__10.244.0.9/53')?.hashVerified, false);
  // An unnamed port is empty after the protocol; its Service port name has no `:port`.
  assert.equal(nftKubeChain('service-ABCDEFGH-ns/svc/tcp/')?.spn, 'ns/svc');
  for (const name of [
    'services',
    'mark-for-masquerade',
    'KUBE-SVC-ABCDEFGHIJKLMNOP',
    'service-2QRHZV4L-default/kubernetes/icmp/x',
    'endpoint-2GKX576Q-a/b/tcp/p',
  ]) {
    assert.equal(nftKubeChain(name), undefined, name);
  }
});

test('nft sets and maps: elements over lines with their positions, comments, verdicts, timeouts', () => {
  const text = [
    'map m {',
    '\ttype ipv4_addr . inet_proto . inet_service : verdict',
    '\telements = { 10.0.0.1 . tcp . 80 : goto a,',
    '\t\t     10.0.0.2 . udp . 53 comment "ns/x:dns" : drop }',
    '}',
    'set s {',
    '\ttimeout 1h30m',
    '\telements = { 10.0.0.1 timeout 1h expires 59m, 10.0.0.2 }',
    '}',
  ].join('\n');
  const lines = new LineIndex(text).all();
  const map = readNftObject(lines, 0, 4, 'kube-proxy')!;
  assert.equal(map.kind, 'map');
  assert.deepEqual(
    map.elements.map((e) => [
      e.key,
      e.verdict,
      e.chain,
      e.comment,
      e.line,
      text.split('\n')[e.line].slice(e.column, e.column + e.length),
    ]),
    [
      [['10.0.0.1', 'tcp', '80'], 'goto', 'a', undefined, 2, '10.0.0.1 . tcp . 80 : goto a'],
      [['10.0.0.2', 'udp', '53'], 'drop', undefined, 'ns/x:dns', 3, '10.0.0.2 . udp . 53 comment "ns/x:dns" : drop'],
    ],
  );
  const set = readNftObject(lines, 5, 8, 'kube-proxy')!;
  assert.equal(set.timeoutSeconds, 5400);
  assert.deepEqual(
    set.elements.map((e) => e.key),
    [['10.0.0.1'], ['10.0.0.2']],
  );
  assert.deepEqual(
    bracedElements('{ 0 : goto a/b__1.2.3.4/80, 1 : goto c }').map((e) => [e.key, e.chain]),
    [
      [['0'], 'a/b__1.2.3.4/80'],
      [['1'], 'c'],
    ],
  );
  assert.deepEqual(
    [nftSeconds('3h'), nftSeconds('1d2h3m4s'), nftSeconds('10800s'), nftSeconds('soon')],
    [10800, 93784, 10800, undefined],
  );
});

test('nftables mode: hovers name the Service and endpoint of kube-proxy chains, in both languages', () => {
  const model = modelOf(SAMPLE);
  const line = lineOf(SAMPLE, 'chain service-FY5PMXPG-kube-system/kube-dns/udp/dns {');
  const column = SAMPLE.split('\n')[line].indexOf('service-') + 2;
  const en = explainAt(model, line, column, 'en')!.markdown;
  assert.match(en, /kube-system\/kube-dns:dns/);
  assert.match(en, /it matches/);
  assert.match(en, /10\.244\.0\.3:53/);
  const zh = explainAt(model, line, column, 'zh-CN')!.markdown;
  assert.match(zh, /负载均衡链/);
});

test('nftables mode: every cut of the sample reads without throwing, and never invents a Service', () => {
  const lines = SAMPLE.split('\n');
  for (let cut = 0; cut < lines.length; cut += 3) {
    const text = [...lines.slice(0, cut), ...lines.slice(cut + 1)].join('\n');
    const kube = modelOf(text).kube;
    for (const s of kube.services)
      assert.match(s.name, /^(default\/(empty|kubernetes)|kube-system\/kube-dns|shop\/web):/);
  }
});

test('nftables mode traces: ClusterIP to endpoints 1/N each, a Service without endpoints rejected, a NodePort masqueraded', () => {
  const dump = parseIptables(SAMPLE);
  const fromPod = {
    src: '10.244.1.9',
    inIface: 'cali0',
    hook: 'prerouting' as const,
    localAddresses: ['192.168.0.11'],
  };
  const dns = tracePacket(dump, { ...fromPod, dst: '10.96.0.10', dport: 53, proto: 'udp' });
  assert.deepEqual(
    dns.paths.map((p) => [p.probability, p.verdict, p.dnat, p.masquerade]),
    [
      [0.5, 'ACCEPT', { ip: '10.244.0.2', port: 53 }, false],
      [0.5, 'ACCEPT', { ip: '10.244.0.3', port: 53 }, false],
    ],
  );
  // filter-prerouting (dstnat - 10) runs before nat-prerouting (dstnat), as netfilter orders them by priority.
  assert.deepEqual(dns.paths[0].steps.map((s) => s.chain).slice(0, 5), [
    'filter-prerouting',
    'firewall-check',
    'firewall-check',
    'filter-prerouting',
    'nat-prerouting',
  ]);
  const empty = tracePacket(dump, { ...fromPod, dst: '10.96.0.77', dport: 80, proto: 'tcp' });
  assert.deepEqual(
    empty.paths.map((p) => [p.verdict, p.steps[p.steps.length - 1].chain]),
    [['REJECT', 'reject-chain']],
  );
  // From outside to the NodePort: the affinity sets hold no entry for a client's first connection.
  const nodePort = tracePacket(dump, {
    src: '203.0.113.5',
    inIface: 'eth0',
    hook: 'prerouting',
    localAddresses: ['192.168.0.11'],
    dst: '192.168.0.11',
    dport: 30080,
    proto: 'tcp',
  });
  assert.deepEqual(
    nodePort.paths.map((p) => [p.probability.toFixed(6), p.dnat?.ip, p.masquerade]),
    [
      ['0.333333', '10.244.1.5', true],
      ['0.333333', '10.244.1.6', true],
      ['0.333333', '10.244.2.7', true],
    ],
  );
  // From the node itself (hook output) to the API server's ClusterIP: masqueraded, since the source is no pod.
  const fromNode = tracePacket(dump, {
    src: '192.168.0.11',
    hook: 'output',
    localAddresses: ['192.168.0.11'],
    dst: '10.96.0.1',
    dport: 443,
    proto: 'tcp',
  });
  assert.deepEqual(
    fromNode.paths.map((p) => [p.probability, p.dnat, p.masquerade]),
    [[1, { ip: '172.18.0.2', port: 6443 }, true]],
  );
});

test('nft base chains take their place among iptables tables by hook and priority', () => {
  const base: NftBaseChain[] = [
    { table: 'kube-proxy', chain: 'filter-prerouting', type: 'filter', hook: 'prerouting', priority: -110 },
    { table: 'kube-proxy', chain: 'nat-prerouting', type: 'nat', hook: 'prerouting', priority: -100 },
    { table: 'kube-proxy', chain: 'nat-postrouting', type: 'nat', hook: 'postrouting', priority: 100 },
    { table: 'kube-proxy', chain: 'filter-forward', type: 'filter', hook: 'forward', priority: -110 },
  ];
  const name = (s: { table: string; chain: string }) => `${s.table}/${s.chain}`;
  assert.deepEqual(stagesWithBaseChains(PREROUTING_STAGES, base, false).map(name), [
    'raw/PREROUTING',
    'mangle/PREROUTING',
    'kube-proxy/filter-prerouting',
    'nat/PREROUTING',
    'kube-proxy/nat-prerouting',
  ]);
  assert.deepEqual(stagesWithBaseChains(FORWARD_STAGES, base, false).map(name), [
    'mangle/FORWARD',
    'kube-proxy/filter-forward',
    'filter/FORWARD',
    'security/FORWARD',
    'mangle/POSTROUTING',
    'nat/POSTROUTING',
    'kube-proxy/nat-postrouting',
  ]);
  // Back through loopback, nat is not consulted again.
  assert.deepEqual(stagesWithBaseChains(LOOPBACK_STAGES, base, true).map(name), [
    'raw/PREROUTING',
    'mangle/PREROUTING',
    'kube-proxy/filter-prerouting',
    'mangle/INPUT',
    'filter/INPUT',
    'security/INPUT',
  ]);
  assert.deepEqual(
    [
      nftPriority('dstnat - 10'),
      nftPriority('srcnat'),
      nftPriority('-110'),
      nftPriority('filter + 5'),
      nftPriority('later'),
    ],
    [-110, 100, -110, 5, undefined],
  );
});

test('nft verdict maps count as references: map elements with their positions, numgen rules as rules', () => {
  const model = buildModel(parseIptables(SAMPLE));
  const lines = SAMPLE.split('\n');
  const dns = 'service-FY5PMXPG-kube-system/kube-dns/udp/dns';
  // The Service chain is reached only from the service-ips map: one element, pointing at its own text.
  assert.deepEqual(model.references('kube-proxy', dns), []);
  const [element, ...more] = model.mapReferences('kube-proxy', dns);
  assert.equal(more.length, 0);
  assert.equal(
    lines[element.line].slice(element.column, element.column + element.length),
    `10.96.0.10 . udp . 53 : goto ${dns}`,
  );
  // Each endpoint chain is named once, by the numgen rule of its Service chain.
  for (const endpoint of [
    'endpoint-2GKX576Q-kube-system/kube-dns/udp/dns__10.244.0.2/53',
    'endpoint-SHKW4FT7-kube-system/kube-dns/udp/dns__10.244.0.3/53',
  ]) {
    const rules = model.references('kube-proxy', endpoint);
    assert.deepEqual(
      rules.map((r) => [r.chain, r.target?.name]),
      [[dns, 'NUMGEN']],
    );
    assert.deepEqual(model.mapReferences('kube-proxy', endpoint), []);
  }
  // reject-chain: the no-endpoint-services element and any rule jumping there directly.
  assert.ok(
    model.mapReferences('kube-proxy', 'reject-chain').some((e) => e.key.join(' . ') === '10.96.0.77 . tcp . 80'),
  );
  // The hover of the chain counts the map element as a place that jumps to it (it said 0 before).
  const declLine = lines.findIndex((l) => l.trim() === `chain ${dns} {`);
  const hover = explainAt(model, declLine, lines[declLine].indexOf(dns) + 2, 'en');
  assert.match(hover?.markdown ?? '', /jumped to from 1 place\./);
});

test('callees follow nft verdict maps (inline and named); in iptables `-j VMAP` stays a jump to a chain', () => {
  const model = modelOf(SAMPLE);
  const dns = 'service-FY5PMXPG-kube-system/kube-dns/udp/dns';
  assert.deepEqual(
    model.callees('kube-proxy', dns).map((c) => c.name),
    [
      'mark-for-masquerade',
      'endpoint-2GKX576Q-kube-system/kube-dns/udp/dns__10.244.0.2/53',
      'endpoint-SHKW4FT7-kube-system/kube-dns/udp/dns__10.244.0.3/53',
    ],
  );
  // `services` looks up service-ips and service-nodeports: their elements' chains, declared ones only.
  const fromServices = model.callees('kube-proxy', 'services').map((c) => c.name);
  assert.ok(fromServices.includes(dns), fromServices.join(' '));
  assert.ok(fromServices.every((name) => model.chain('kube-proxy', name)));
  assert.deepEqual(
    model.namedMapCallers('kube-proxy', dns).map((r) => [r.chain, r.line]),
    [['services', lineOf(SAMPLE, 'vmap @service-ips')]],
  );
  const iptables = modelOf('*filter\n:INPUT ACCEPT [0:0]\n:VMAP - [0:0]\n-A INPUT -j VMAP\nCOMMIT\n');
  assert.deepEqual(
    iptables.callees('filter', 'INPUT').map((c) => c.name),
    ['VMAP'],
  );
});

test('nftables mode: a Service without endpoints takes its ClusterIP from the cluster-ips set, not the first address', () => {
  const ruleset = (withSet: boolean) =>
    [
      'table ip kube-proxy {',
      ...(withSet
        ? ['\tset cluster-ips {', '\t\ttype ipv4_addr', '\t\telements = { 10.96.0.1, 10.96.0.77 }', '\t}', '']
        : []),
      '\tmap no-endpoint-services {',
      '\t\ttype ipv4_addr . inet_proto . inet_service : verdict',
      '\t\telements = { 192.0.2.20 . tcp . 80 comment "default/empty:http" : goto reject-chain,',
      '\t\t\t     10.96.0.77 . tcp . 80 comment "default/empty:http" : goto reject-chain }',
      '\t}',
      '',
      '\tchain reject-chain {',
      '\t\treject',
      '\t}',
      '}',
      '',
    ].join('\n');
  const empty = (withSet: boolean) =>
    modelOf(ruleset(withSet)).kube.services.find((s) => s.name === 'default/empty:http')!;
  assert.deepEqual(
    [empty(true).clusterIP, empty(true).externalIPs, empty(true).noEndpoints],
    ['10.96.0.77', ['192.0.2.20'], true],
  );
  // Without the set (kube-proxy before 1.31) nothing tells the addresses apart: the first one nft prints.
  assert.equal(empty(false).clusterIP, '192.0.2.20');
});
