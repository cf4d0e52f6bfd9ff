import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { syntheticCluster, type SyntheticOptions } from '../../../src/core/kube/synthetic';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';

// Loosely typed on purpose: the tests read into the generated JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Item = Record<string, any>;
const kinds = (items: Item[], kind: string) => items.filter((i) => i.kind === kind);

test('unique, valid cluster IPs, pod IPs, NodePorts and LB IPs; the snapshot has no issues', () => {
  const list = syntheticCluster({
    services: 500,
    endpointsPerService: 4,
    nodePortEvery: 3,
    loadBalancerEvery: 7,
    externalIPEvery: 11,
    localPolicyEvery: 2,
  });
  const services = kinds(list.items, 'Service');
  const slices = kinds(list.items, 'EndpointSlice');
  assert.equal(services.length, 500);
  assert.equal(slices.length, 500);
  const clusterIPs = services.map((s) => s.spec.clusterIP);
  assert.equal(new Set(clusterIPs).size, 500);
  const podIPs = slices.flatMap((s) => s.endpoints.map((e: Item) => e.addresses[0]));
  assert.equal(podIPs.length, 2000);
  assert.equal(new Set(podIPs).size, 2000);
  const nodePorts = services
    .flatMap((s) => [...s.spec.ports.map((p: Item) => p.nodePort), s.spec.healthCheckNodePort])
    .filter((n) => n !== undefined);
  assert.equal(new Set(nodePorts).size, nodePorts.length);
  assert.ok(nodePorts.every((n: number) => n >= 30000 && n <= 32767));
  const lbIPs = services.flatMap((s) => s.status?.loadBalancer.ingress.map((i: Item) => i.ip) ?? []);
  assert.equal(new Set(lbIPs).size, kinds(services, 'Service').filter((s) => s.spec.type === 'LoadBalancer').length);
  const snapshot = normaliseCluster(list);
  assert.deepEqual(snapshot.issues, []);
  assert.equal(snapshot.services.length, 500);
  assert.equal(snapshot.nodes?.length, 3);
});

test('deterministic for a seed, different across seeds', () => {
  const opts: SyntheticOptions = { services: 50, endpointsPerService: 3, notReadyOneIn: 4, seed: 7 };
  assert.deepEqual(syntheticCluster(opts), syntheticCluster(opts));
  assert.notDeepEqual(syntheticCluster(opts), syntheticCluster({ ...opts, seed: 8 }));
});

test('Endpoints and EndpointSlice variants give the same rules', () => {
  const opts: SyntheticOptions = {
    services: 40,
    endpointsPerService: 3,
    notReadyOneIn: 3,
    nodePortEvery: 5,
    affinityEvery: 4,
    seed: 3,
  };
  const a = generateIptablesRestore(normaliseCluster(syntheticCluster(opts)), { clusterCidr: '10.128.0.0/9' });
  const b = generateIptablesRestore(normaliseCluster(syntheticCluster({ ...opts, endpointKind: 'Endpoints' })), {
    clusterCidr: '10.128.0.0/9',
  });
  assert.equal(b.text, a.text);
});

test('impossible sizes throw RangeError', () => {
  assert.throws(() => syntheticCluster({ services: 3000, endpointsPerService: 0, nodePortEvery: 1 }), RangeError);
  assert.throws(
    () => syntheticCluster({ services: 20, endpointsPerService: 1, serviceCidr: '10.96.0.0/28' }),
    RangeError,
  );
  assert.throws(() => syntheticCluster({ services: -1, endpointsPerService: 1 }), RangeError);
});

/** Chains and rules of the nat table, by chain. */
function natChains(text: string): Map<string, string[]> {
  const lines = text.split('\n');
  const nat = lines.slice(lines.indexOf('*nat'));
  const chains = new Map<string, string[]>();
  for (const l of nat) if (l.startsWith(':')) chains.set(l.slice(1).split(' ')[0], []);
  for (const l of nat) if (l.startsWith('-A ')) chains.get(l.split(' ')[1])!.push(l);
  return chains;
}

test('property: one KUBE-SEP per usable endpoint, a complete ladder per KUBE-SVC, REJECT for the rest', () => {
  fc.assert(
    fc.property(
      fc.record({
        services: fc.integer({ min: 0, max: 25 }),
        endpointsPerService: fc.integer({ min: 0, max: 6 }),
        seed: fc.integer({ min: 1, max: 1_000_000 }),
        notReadyOneIn: fc.integer({ min: 0, max: 4 }),
        nodePortEvery: fc.integer({ min: 0, max: 4 }),
        loadBalancerEvery: fc.integer({ min: 0, max: 5 }),
        affinityEvery: fc.integer({ min: 0, max: 3 }),
        portsPerService: fc.integer({ min: 1, max: 3 }),
      }),
      (opts) => {
        const list = syntheticCluster(opts);
        const snapshot = normaliseCluster(list);
        assert.deepEqual(snapshot.issues, []);
        const { text } = generateIptablesRestore(snapshot, { clusterCidr: '10.128.0.0/9' });
        const chains = natChains(text);
        const slices = kinds(list.items, 'EndpointSlice');
        const readyPerService = slices.map((s) => s.endpoints.filter((e: Item) => e.conditions.ready).length);
        const ports = opts.portsPerService;
        const expectedSeps = readyPerService.reduce((n, r) => n + r * ports, 0);
        const withEndpoints = readyPerService.filter((r) => r > 0).length * ports;
        const sepChains = [...chains.keys()].filter((c) => c.startsWith('KUBE-SEP-'));
        const svcChains = [...chains.keys()].filter((c) => c.startsWith('KUBE-SVC-'));
        assert.equal(sepChains.length, expectedSeps);
        assert.equal(svcChains.length, withEndpoints);
        assert.equal(
          (text.match(/^-A KUBE-SERVICES -m comment --comment "[^"]+ has no endpoints"/gm) ?? []).length,
          opts.services * ports - withEndpoints,
        );
        for (const chain of svcChains) {
          const ladder = chains.get(chain)!.filter((l) => l.includes(' -> ') && !l.includes('--rcheck'));
          const n = ladder.length;
          ladder.forEach((l, i) => {
            const prob = / --probability (\S+) /.exec(l)?.[1];
            assert.equal(prob, i < n - 1 ? (1 / (n - i)).toFixed(10) : undefined, l);
            assert.ok(chains.has(/ -j (KUBE-SEP-\S+)$/.exec(l)![1]));
          });
        }
        for (const chain of sepChains)
          assert.match(chains.get(chain)!.at(-1)!, /-j DNAT --to-destination 10\.\d+\.\d+\.\d+:\d+$/);
      },
    ),
    { numRuns: 60 },
  );
});

test('benchmark size: 10k Services x 5 endpoints give about 170k rules and 25 MB', () => {
  // CPU time, not wall time: shared CI machines run other work next to the tests.
  const started = process.cpuUsage();
  const snapshot = normaliseCluster(syntheticCluster({ services: 10_000, endpointsPerService: 5 }));
  const { text, stats } = generateIptablesRestore(snapshot, { clusterCidr: '10.128.0.0/9', largeClusterMode: false });
  const seconds = process.cpuUsage(started).user / 1e6;
  // KUBE-SERVICES jump + masquerade rule + 5 ladder rules + 5 x 2 endpoint rules per Service.
  assert.equal(stats.natRules - 8, 10_000 * 17);
  assert.equal(stats.endpointChains, 50_000);
  assert.ok(text.length > 20e6 && text.length < 30e6, `${text.length} bytes`);
  // The target is well under 3 s; the bound only catches a pathological slowdown.
  assert.ok(seconds < 6, `took ${seconds.toFixed(1)} s of CPU`);
});
