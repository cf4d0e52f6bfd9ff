import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { buildModel } from '../../../src/core/iptables/model';
import { servicePortName } from '../../../src/core/iptables/chainHashes';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket } from '../../../src/core/iptables/trace';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';

/** What the API says: spn -> sorted ready `ip:port` endpoints, for every port with a ClusterIP. */
function expectedFromSnapshot(snapshot: ReturnType<typeof normaliseCluster>) {
  const out = new Map<string, { clusterIP: string; port: number; protocol: string; endpoints: string[] }>();
  for (const s of snapshot.services) {
    if (!s.clusterIP || s.clusterIP === 'None') continue;
    for (const p of s.ports) {
      const eps = (snapshot.endpoints[`${s.namespace}/${s.name}`]?.[p.name] ?? [])
        .filter((e) => e.ready)
        .map((e) => `${e.ip}:${e.port}`);
      out.set(servicePortName(s.namespace, s.name, p.name), {
        clusterIP: s.clusterIP,
        port: p.port,
        protocol: p.protocol.toLowerCase(),
        endpoints: [...new Set(eps)].sort(),
      });
    }
  }
  return out;
}

test('property: generate -> parse -> model gives back the same Services, endpoints and chain names', () => {
  fc.assert(
    fc.property(
      fc.record({
        services: fc.integer({ min: 1, max: 12 }),
        endpointsPerService: fc.integer({ min: 0, max: 7 }),
        seed: fc.integer({ min: 1, max: 1e6 }),
        nodePortEvery: fc.integer({ min: 0, max: 4 }),
        affinityEvery: fc.integer({ min: 0, max: 5 }),
        notReadyOneIn: fc.integer({ min: 0, max: 4 }),
        portsPerService: fc.integer({ min: 1, max: 2 }),
      }),
      (opts) => {
        const snapshot = normaliseCluster(syntheticCluster(opts));
        const { text } = generateIptablesRestore(snapshot, { clusterCidr: '10.128.0.0/9' });
        const model = buildModel(parseIptables(text));
        assert.deepEqual(
          model.dump.diagnostics.filter((d) => d.severity === 'error'),
          [],
        );
        const declared = new Set(text.match(/^:\S+/gm)?.map((d) => d.slice(1)));
        const want = expectedFromSnapshot(snapshot);
        const got = new Map(model.kube.services.map((s) => [s.name, s]));
        for (const [spn, w] of want) {
          const s = got.get(spn);
          assert.ok(s, `service ${spn} missing from the model`);
          assert.equal(s.clusterIP, w.clusterIP);
          assert.equal(s.port, w.port);
          assert.equal(s.protocol, w.protocol);
          assert.deepEqual(s.endpoints.map((e) => `${e.ip}:${e.port}`).sort(), w.endpoints, spn);
          if (w.endpoints.length) {
            // Whether these are kube-proxy's names is checked against kube-proxy's own examples in
            // test/unit/iptables/kubeProxyChainNames.test.ts; here the model finds the chains the generator wrote.
            assert.ok(s.chain?.startsWith('KUBE-SVC-') && declared.has(s.chain), `${spn}: ${s.chain}`);
            assert.equal(s.hashVerified, true);
            for (const e of s.endpoints) {
              assert.ok(e.chain.startsWith('KUBE-SEP-') && declared.has(e.chain), `${spn}: ${e.chain}`);
              assert.equal(e.hashVerified, true);
              assert.ok(e.share !== undefined && Math.abs(e.share - 1 / s.endpoints.length) < 1e-9);
            }
          } else assert.equal(s.noEndpoints, true, `${spn} without endpoints gets the REJECT rule`);
        }
      },
    ),
    { numRuns: 40 },
  );
});

test('property: traced shares are 1/n for every Service of a generated cluster', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 1, max: 9 }),
      fc.integer({ min: 1, max: 1e6 }),
      (services, endpointsPerService, seed) => {
        const snapshot = normaliseCluster(syntheticCluster({ services, endpointsPerService, seed }));
        const dump = parseIptables(generateIptablesRestore(snapshot, { clusterCidr: '10.128.0.0/9' }).text);
        const model = buildModel(dump);
        for (const s of model.kube.services) {
          if (!s.clusterIP || s.port === undefined || s.endpoints.length === 0) continue;
          const r = tracePacket(dump, {
            src: '10.128.0.5',
            dst: s.clusterIP,
            dport: s.port,
            proto: (s.protocol ?? 'tcp') as 'tcp',
            hook: 'prerouting',
            localAddresses: ['192.168.0.2'],
          });
          const byTarget = new Map<string, number>();
          for (const p of r.paths)
            if (p.dnat)
              byTarget.set(
                `${p.dnat.ip}:${p.dnat.port}`,
                (byTarget.get(`${p.dnat.ip}:${p.dnat.port}`) ?? 0) + p.probability,
              );
          assert.equal(byTarget.size, s.endpoints.length, s.name);
          for (const share of byTarget.values())
            assert.ok(Math.abs(share - 1 / s.endpoints.length) < 1e-9, `${s.name}: ${share}`);
        }
      },
    ),
    { numRuns: 25 },
  );
});
