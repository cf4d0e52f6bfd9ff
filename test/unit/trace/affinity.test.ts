import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket } from '../../../src/core/iptables/trace';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';

test('ClientIP affinity: a new client passes the recent checks and is balanced 1/n, every path DNATs', () => {
  const snapshot = normaliseCluster(syntheticCluster({ services: 2, endpointsPerService: 4, affinityEvery: 1 }));
  const dump = parseIptables(generateIptablesRestore(snapshot, { clusterCidr: '10.128.0.0/9' }).text);
  const s = buildModel(dump).kube.services[0];
  assert.equal(s.sessionAffinitySeconds, 10800);
  assert.ok(
    dump.rules.some((r) => r.chain === s.chain && r.matches.some((m) => m.module === 'recent')),
    'the dump has affinity rules',
  );
  const r = tracePacket(dump, {
    src: '10.128.0.5',
    dst: s.clusterIP!,
    dport: s.port!,
    proto: 'tcp',
    hook: 'prerouting',
    localAddresses: ['192.168.0.2'],
  });
  assert.equal(r.paths.length, 4);
  for (const p of r.paths) {
    assert.ok(p.dnat, 'every path is DNATed to an endpoint');
    assert.ok(Math.abs(p.probability - 0.25) < 1e-9);
  }
});
