/**
 * Chain names checked against the names kube-proxy's own tests expect, not against our hashing code: the expected
 * names below were read from Kubernetes' sources, so a wrong hash, base32 alphabet, input order or protocol case in
 * `chainHashes.ts` fails here even though the generator and the model would still agree with each other.
 *
 * Where the facts come from (kubernetes/kubernetes unless said otherwise):
 * - pkg/proxy/iptables/proxier_test.go, TestOverallIPTablesRulesWithMultipleServices: ns1..ns5/svcN:p80 (TCP)
 *   and their endpoints; TestInternalTrafficPolicyE2E: ns1/svc1 with an unnamed TCP port and three endpoints.
 * - pkg/util/iptables/testing/parse_test.go: the KUBE-XLB- chain of ns2/svc2:p80 (kube-proxy <= 1.23).
 * - pkg/proxy/nftables/proxier_test.go (TestOverallNFTablesRules) and helpers_test.go: the nftables-mode names of
 *   the same five Services; kubernetes-sigs/knftables fake_test.go: two IPv6 endpoint chains of ns1/svc1:p80.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  endpointChainName,
  nftKubeChain,
  serviceChainName,
  verifyEndpointChain,
  verifyServiceChains,
  type ServiceChainPrefix,
} from '../../../src/core/iptables/chainHashes';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import { main } from '../../../src/cli/main';

interface ServicePortFact {
  namespace: string;
  name: string;
  /** '' for an unnamed port. */
  port: string;
  protocol: 'tcp';
  clusterIP: string;
  /** The 16-character hash of the Service port's KUBE-SVC-/SVL-/EXT-/FW-/XLB- chains. */
  hash: string;
  /** Prefixes kube-proxy's test shows with that hash. */
  prefixes: ServiceChainPrefix[];
  /** Endpoint `ip:port` -> the hash of its KUBE-SEP- chain. */
  endpoints: Record<string, string>;
}

const IPTABLES_FACTS: ServicePortFact[] = [
  {
    namespace: 'ns1',
    name: 'svc1',
    port: 'p80',
    protocol: 'tcp',
    clusterIP: '172.30.0.41',
    hash: 'XPGD46QRK7WJZT7O',
    prefixes: ['KUBE-SVC-', 'KUBE-SVL-', 'KUBE-EXT-'],
    endpoints: { '10.180.0.1:80': 'SXIVWICOYRO3J4NJ' },
  },
  {
    namespace: 'ns2',
    name: 'svc2',
    port: 'p80',
    protocol: 'tcp',
    clusterIP: '172.30.0.42',
    hash: 'GNZBNJ2PO5MGZ6GT',
    prefixes: ['KUBE-SVC-', 'KUBE-EXT-', 'KUBE-XLB-'],
    endpoints: { '10.180.0.2:80': 'RS4RBKLTHTF2IUXJ' },
  },
  {
    namespace: 'ns3',
    name: 'svc3',
    port: 'p80',
    protocol: 'tcp',
    clusterIP: '172.30.0.43',
    hash: 'X27LE4BHSL4DOUIK',
    prefixes: ['KUBE-SVC-', 'KUBE-EXT-'],
    endpoints: { '10.180.0.3:80': 'OYPFS5VJICHGATKP' },
  },
  {
    namespace: 'ns4',
    name: 'svc4',
    port: 'p80',
    protocol: 'tcp',
    clusterIP: '172.30.0.44',
    hash: '4SW47YFZTEDKD3PK',
    prefixes: ['KUBE-SVC-', 'KUBE-EXT-'],
    endpoints: { '10.180.0.4:80': 'UKSFD7AGPMPPLUHC', '10.180.0.5:80': 'C6EBXVWJJZMIWKLZ' },
  },
  {
    namespace: 'ns5',
    name: 'svc5',
    port: 'p80',
    protocol: 'tcp',
    clusterIP: '172.30.0.45',
    hash: 'NUKIZ6OKUXPJNT4C',
    prefixes: ['KUBE-SVC-', 'KUBE-EXT-', 'KUBE-FW-'],
    // The same endpoint address as ns3/svc3's, yet another chain: the Service port is part of the hash.
    endpoints: { '10.180.0.3:80': 'I77PXRDZVX7PMWMN' },
  },
];

/** TestInternalTrafficPolicyE2E: an unnamed port, hashed as `ns1/svc1` (no trailing colon). */
const UNNAMED_PORT_FACT: ServicePortFact = {
  namespace: 'ns1',
  name: 'svc1',
  port: '',
  protocol: 'tcp',
  clusterIP: '172.30.1.1',
  hash: 'AQI2S6QIMU7PVVRP',
  prefixes: ['KUBE-SVC-', 'KUBE-SVL-'],
  endpoints: {
    '10.0.1.1:80': '3JOIVZTXZZRGORX4',
    '10.0.1.2:80': 'IO5XOSKPAXIFQXAJ',
    '10.0.1.3:80': 'XGJFVO3L2O5SRFNT',
  },
};

const ALL_IPTABLES_FACTS = [...IPTABLES_FACTS, UNNAMED_PORT_FACT];

const spnOf = (f: ServicePortFact) => (f.port ? `${f.namespace}/${f.name}:${f.port}` : `${f.namespace}/${f.name}`);

/** nftables-mode chain names as kube-proxy's tests expect them, with what each name says. */
const NFT_FACTS: { chain: string; spn: string; kind: string; endpoint?: { ip: string; port: number } }[] = [
  { chain: 'service-ULMVA6XW-ns1/svc1/tcp/p80', spn: 'ns1/svc1:p80', kind: 'service' },
  {
    chain: 'endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80',
    spn: 'ns1/svc1:p80',
    kind: 'endpoint',
    endpoint: { ip: '10.180.0.1', port: 80 },
  },
  { chain: 'service-42NFTM6N-ns2/svc2/tcp/p80', spn: 'ns2/svc2:p80', kind: 'service' },
  { chain: 'external-42NFTM6N-ns2/svc2/tcp/p80', spn: 'ns2/svc2:p80', kind: 'external' },
  {
    chain: 'endpoint-SGOXE6O3-ns2/svc2/tcp/p80__10.180.0.2/80',
    spn: 'ns2/svc2:p80',
    kind: 'endpoint',
    endpoint: { ip: '10.180.0.2', port: 80 },
  },
  { chain: 'service-4AT6LBPK-ns3/svc3/tcp/p80', spn: 'ns3/svc3:p80', kind: 'service' },
  {
    chain: 'endpoint-UEIP74TE-ns3/svc3/tcp/p80__10.180.0.3/80',
    spn: 'ns3/svc3:p80',
    kind: 'endpoint',
    endpoint: { ip: '10.180.0.3', port: 80 },
  },
  { chain: 'service-LAUZTJTB-ns4/svc4/tcp/p80', spn: 'ns4/svc4:p80', kind: 'service' },
  {
    chain: 'endpoint-UNZV3OEC-ns4/svc4/tcp/p80__10.180.0.4/80',
    spn: 'ns4/svc4:p80',
    kind: 'endpoint',
    endpoint: { ip: '10.180.0.4', port: 80 },
  },
  {
    chain: 'endpoint-5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80',
    spn: 'ns4/svc4:p80',
    kind: 'endpoint',
    endpoint: { ip: '10.180.0.5', port: 80 },
  },
  { chain: 'service-HVFWP5L3-ns5/svc5/tcp/p80', spn: 'ns5/svc5:p80', kind: 'service' },
  { chain: 'firewall-HVFWP5L3-ns5/svc5/tcp/p80', spn: 'ns5/svc5:p80', kind: 'firewall' },
  {
    chain: 'endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80',
    spn: 'ns5/svc5:p80',
    kind: 'endpoint',
    endpoint: { ip: '10.180.0.3', port: 80 },
  },
  // IPv6: the colons of the address become dots in the name; the hash covers the name as written.
  {
    chain: 'endpoint-ZVRFLKHO-ns1/svc1/tcp/p80__fd00.10.180..1/80',
    spn: 'ns1/svc1:p80',
    kind: 'endpoint',
    endpoint: { ip: 'fd00:10:180::1', port: 80 },
  },
  {
    chain: 'endpoint-2CRNCTTE-ns1/svc1/tcp/p80__fd00.10.180..2.1/80',
    spn: 'ns1/svc1:p80',
    kind: 'endpoint',
    endpoint: { ip: 'fd00:10:180::2:1', port: 80 },
  },
];

/** One character of the hash changed (a name kube-proxy never wrote). */
function tamper(name: string, at: number): string {
  const c = name[at] === 'A' ? 'B' : 'A';
  return name.slice(0, at) + c + name.slice(at + 1);
}

test("iptables-mode chain names are the ones kube-proxy's tests expect", () => {
  for (const f of ALL_IPTABLES_FACTS) {
    const spn = spnOf(f);
    for (const prefix of f.prefixes) assert.equal(serviceChainName(prefix, spn, f.protocol), prefix + f.hash, spn);
    // kube-proxy hashes the protocol in lower case whatever case the caller has.
    assert.equal(serviceChainName('KUBE-SVC-', spn, 'TCP'), `KUBE-SVC-${f.hash}`);
    for (const [endpoint, hash] of Object.entries(f.endpoints))
      assert.equal(endpointChainName(spn, f.protocol, endpoint), `KUBE-SEP-${hash}`, `${spn} -> ${endpoint}`);
  }
});

test("kube-proxy's names verify for their own Service port, and not for a neighbour's or a tampered one", () => {
  for (const f of ALL_IPTABLES_FACTS) {
    const spn = spnOf(f);
    const names = f.prefixes.map((p) => p + f.hash);
    assert.equal(verifyServiceChains(names, spn, f.protocol), true, spn);
    assert.equal(verifyServiceChains([tamper(names[0], 12)], spn, f.protocol), false, spn);
    assert.equal(verifyServiceChains(names, spn, 'udp'), false, `${spn} over udp`);
    for (const [endpoint, hash] of Object.entries(f.endpoints)) {
      assert.equal(verifyEndpointChain(`KUBE-SEP-${hash}`, spn, f.protocol, endpoint), true);
      assert.equal(verifyEndpointChain(`KUBE-SEP-${hash}`, spn, f.protocol, '10.9.9.9:80'), false);
    }
  }
  // Two Services never share a hash, and the named and unnamed ports of ns1/svc1 differ.
  assert.equal(new Set(ALL_IPTABLES_FACTS.map((f) => f.hash)).size, ALL_IPTABLES_FACTS.length);
  assert.equal(verifyServiceChains([`KUBE-SVC-${UNNAMED_PORT_FACT.hash}`], 'ns1/svc1:p80', 'tcp'), false);
});

/** kubectl JSON for the facts' Services: a ClusterIP Service per fact, one EndpointSlice with its endpoints. */
function clusterJson(facts: ServicePortFact[]): string {
  const items: unknown[] = [];
  for (const f of facts) {
    const port = Number(Object.keys(f.endpoints)[0].split(':')[1]);
    items.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { namespace: f.namespace, name: f.name },
      spec: { clusterIP: f.clusterIP, ports: [{ name: f.port, port: 80, protocol: 'TCP' }] },
    });
    items.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { namespace: f.namespace, name: `${f.name}-1`, labels: { 'kubernetes.io/service-name': f.name } },
      addressType: 'IPv4',
      endpoints: Object.keys(f.endpoints).map((e) => ({ addresses: [e.split(':')[0]] })),
      ports: [{ name: f.port, port, protocol: 'TCP' }],
    });
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

/** `kpp generate FILE`, run in this process: its exit code and what it wrote on stdout. */
function kppGenerate(json: string): { code: number; stdout: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'kpp-names-')), 'cluster.json');
  writeFileSync(file, json);
  let stdout = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    const code = main(['generate', file]);
    assert.equal(typeof code, 'number');
    return { code: code as number, stdout };
  } finally {
    process.stdout.write = write;
  }
}

for (const [label, facts] of [
  ['named ports (TestOverallIPTablesRules)', IPTABLES_FACTS],
  ['an unnamed port (TestInternalTrafficPolicyE2E)', [UNNAMED_PORT_FACT]],
] as const) {
  test(`kpp generate writes kube-proxy's chain names for ${label}, and the model reads them back verified`, () => {
    const { code, stdout } = kppGenerate(clusterJson([...facts]));
    assert.equal(code, 0);
    const declared = new Set(
      stdout
        .split('\n')
        .filter((l) => l.startsWith(':KUBE-S'))
        .map((l) => l.slice(1).split(' ')[0]),
    );
    const want = new Set<string>();
    for (const f of facts) {
      want.add(`KUBE-SVC-${f.hash}`);
      for (const hash of Object.values(f.endpoints)) want.add(`KUBE-SEP-${hash}`);
    }
    assert.deepEqual([...declared].filter((c) => c !== 'KUBE-SERVICES').sort(), [...want].sort());

    const services = buildModel(parseIptables(stdout)).kube.services;
    for (const f of facts) {
      const s = services.find((x) => x.name === spnOf(f));
      assert.ok(s, `${spnOf(f)} is in the model`);
      assert.equal(s.chain, `KUBE-SVC-${f.hash}`);
      assert.equal(s.hashVerified, true);
      assert.deepEqual(
        Object.fromEntries(s.endpoints.map((e) => [`${e.ip}:${e.port}`, e.chain])),
        Object.fromEntries(Object.entries(f.endpoints).map(([e, hash]) => [e, `KUBE-SEP-${hash}`])),
      );
      assert.ok(s.endpoints.every((e) => e.hashVerified === true));
    }
  });
}

test('the model marks a chain name kube-proxy would not have made as unverified', () => {
  const f = IPTABLES_FACTS[0];
  const sep = `KUBE-SEP-${f.endpoints['10.180.0.1:80']}`;
  const dump = (svc: string) =>
    [
      '*nat',
      ':KUBE-SERVICES - [0:0]',
      `:${svc} - [0:0]`,
      `:${sep} - [0:0]`,
      `-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j ${svc}`,
      `-A ${svc} -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j ${sep}`,
      `-A ${sep} -m comment --comment ns1/svc1:p80 -s 10.180.0.1 -j KUBE-MARK-MASQ`,
      `-A ${sep} -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.1:80`,
      'COMMIT',
      '',
    ].join('\n');
  const serviceOf = (svc: string) => buildModel(parseIptables(dump(svc))).kube.services[0];
  assert.equal(serviceOf(`KUBE-SVC-${f.hash}`).hashVerified, true);
  assert.equal(serviceOf(tamper(`KUBE-SVC-${f.hash}`, 9)).hashVerified, false);
});

test("nftables-mode chain names are the ones kube-proxy's tests expect", () => {
  for (const fact of NFT_FACTS) {
    const chain = nftKubeChain(fact.chain);
    assert.ok(chain, fact.chain);
    assert.equal(chain.hashVerified, true, fact.chain);
    assert.equal(chain.spn, fact.spn);
    assert.equal(chain.kind, fact.kind);
    assert.equal(chain.protocol, 'tcp');
    assert.deepEqual(chain.endpoint, fact.endpoint);
    // Any other 8 characters are not kube-proxy's hash of that name.
    const hashStart = fact.chain.indexOf('-') + 1;
    assert.equal(nftKubeChain(tamper(fact.chain, hashStart + 3))?.hashVerified, false, fact.chain);
  }
});

test("an nftables-mode ruleset with kube-proxy's names gives verified Services and endpoints", () => {
  const text = `table ip kube-proxy {
	map service-ips {
		type ipv4_addr . inet_proto . inet_service : verdict
		elements = { 172.30.0.44 . tcp . 80 : goto service-LAUZTJTB-ns4/svc4/tcp/p80 }
	}

	chain service-LAUZTJTB-ns4/svc4/tcp/p80 {
		ip daddr 172.30.0.44 ip saddr != 10.0.0.0/8 jump mark-for-masquerade
		numgen random mod 2 vmap { 0 : goto endpoint-UNZV3OEC-ns4/svc4/tcp/p80__10.180.0.4/80, 1 : goto endpoint-5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80 }
	}

	chain endpoint-5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80 {
		ip saddr 10.180.0.5 jump mark-for-masquerade
		meta l4proto tcp dnat to 10.180.0.5:80
	}

	chain endpoint-UNZV3OEC-ns4/svc4/tcp/p80__10.180.0.4/80 {
		ip saddr 10.180.0.4 jump mark-for-masquerade
		meta l4proto tcp dnat to 10.180.0.4:80
	}
}
`;
  const model = buildModel(parseIptables(text));
  assert.equal(model.kube.mode, 'nftables');
  const [service] = model.kube.services;
  assert.equal(service.name, 'ns4/svc4:p80');
  assert.equal(service.chain, 'service-LAUZTJTB-ns4/svc4/tcp/p80');
  assert.equal(service.hashVerified, true);
  assert.deepEqual(service.endpoints.map((e) => [`${e.ip}:${e.port}`, e.hashVerified]).sort(), [
    ['10.180.0.4:80', true],
    ['10.180.0.5:80', true],
  ]);
});
