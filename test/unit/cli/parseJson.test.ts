import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText } from '../../../src/core/analyze';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';
import { parseResultJson, parseResultJsonBytes, type ServiceJson } from '../../../src/cli/commands/parseJson';
import { NFT_RULESET, ODD_SERVICES, seedDump, SESSION_PASTE } from '../../helpers/dumps';
import { kubeProxyDump } from '../trace/helpers';

/** The bytes `kpp parse --json` prints must be those of JSON.stringify over the answer's objects. */
function assertSameBytes(text: string): void {
  for (const lang of ['en', 'zh-CN'] as const) {
    const want = JSON.stringify(parseResultJson(analyzeText(text), lang), null, 2);
    // Both ways of printing: through objects (small answers) and the byte writer (large ones).
    for (const objectsUpTo of [Infinity, 0])
      assert.equal(parseResultJsonBytes(analyzeText(text), lang, objectsUpTo).toString('utf8'), want);
  }
}

test('parse --json bytes: a generated cluster (node ports, external and load-balancer IPs, Local policy, affinity)', () => {
  const snapshot = normaliseCluster(
    syntheticCluster({
      services: 40,
      endpointsPerService: 3,
      ...ODD_SERVICES,
    }),
  );
  const text = generateIptablesRestore(snapshot, { clusterCidr: '10.128.0.0/9', largeClusterMode: false }).text;
  const json = parseResultJsonBytes(analyzeText(text), 'en', 0).toString('utf8');
  // Every field of a Service is in the answer at least once: a field added to ServiceJson must be listed here
  // (tsc says so), and then the byte writer must write it for these bytes to pass.
  const SERVICE_KEYS = {
    name: true,
    protocol: true,
    clusterIP: true,
    port: true,
    nodePort: true,
    externalIPs: true,
    loadBalancerIPs: true,
    trafficPolicy: true,
    sessionAffinitySeconds: true,
    noEndpoints: true,
    chain: true,
    hashVerified: true,
    endpoints: true,
  } satisfies Record<keyof ServiceJson, true>;
  // A Service without endpoints (kube-proxy's REJECT) too.
  const empty = kubeProxyDump([{ ns: 'shop', name: 'empty', clusterIP: '10.96.0.99', port: 80, endpoints: [] }]);
  const both = json + parseResultJsonBytes(analyzeText(empty), 'en', 0).toString('utf8');
  for (const key of Object.keys(SERVICE_KEYS)) assert.match(both, new RegExp(`\n      "${key}": `), key);
  assertSameBytes(empty);
  assertSameBytes(text);
});

test('parse --json bytes: the seed dump, a session paste, an nft ruleset, no dump at all', () => {
  for (const text of [seedDump().text, SESSION_PASTE, NFT_RULESET, '', 'hello\n']) assertSameBytes(text);
});

test('parse --json bytes: escapes, non-ASCII names, a port range (NaN port), a partial ladder', () => {
  const svc = 'KUBE-SVC-AAAAAAAAAAAAAAAA';
  const text = [
    '*nat',
    ':KUBE-SERVICES - [0:0]',
    `:${svc} - [0:0]`,
    ':KUBE-SEP-BBBBBBBBBBBBBBBB - [0:0]',
    `-A KUBE-SERVICES -d 10.0.0.1/32 -p tcp -m comment --comment "ns/wéb:\\"q\\" cluster IP" -m tcp --dport 80:90 -j ${svc}`,
    `-A KUBE-SERVICES -d 10.0.0.2/32 -p udp -m comment --comment "ns/tab\\there cluster IP" -m udp --dport 53 -j ${svc}`,
    '-A KUBE-SERVICES -d 10.0.0.3/32 -p tcp -m comment --comment "ns/empty:p has no endpoints" -m tcp --dport 81 -j REJECT',
    `-A ${svc} -m comment --comment "ns/wéb -> 10.1.0.1:80" -m statistic --mode random --probability 0.5 -j KUBE-SEP-BBBBBBBBBBBBBBBB`,
    '-A KUBE-SEP-BBBBBBBBBBBBBBBB -p tcp -m tcp -j DNAT --to-destination [fd00::1]:8080',
    'COMMIT',
    '',
  ].join('\n');
  const json = parseResultJsonBytes(analyzeText(text), 'en', 0).toString('utf8');
  for (const field of [
    '"port": null',
    '"noEndpoints": true',
    '"share": null',
    '"hashVerified": false',
    '\\"q\\"',
    '\\t',
  ])
    assert.ok(json.includes(field), field);
  assertSameBytes(text);
});
