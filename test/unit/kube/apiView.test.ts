import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { categorizeEndpoints, clusterIPForFamily, endpointString, proxyView } from '../../../src/core/kube/apiView';
import type { ServiceInfo } from '../../../src/core/kube/types';

function view(spec: Record<string, unknown>, endpoints: Record<string, unknown>[], family: 4 | 6 = 4) {
  const snapshot = normaliseCluster([
    {
      kind: 'Service',
      metadata: { name: 's', namespace: 'n' },
      spec: { clusterIP: '10.96.0.1', ports: [{ name: 'p', port: 80 }], ...spec },
    },
    {
      kind: 'EndpointSlice',
      metadata: { name: 's-1', namespace: 'n', labels: { 'kubernetes.io/service-name': 's' } },
      addressType: family === 4 ? 'IPv4' : 'IPv6',
      endpoints,
      ports: [{ name: 'p', port: 8080 }],
    },
  ]);
  assert.deepEqual(snapshot.issues, []);
  return proxyView(snapshot, family).ports[0];
}

const ep = (ip: string, nodeName?: string, conditions?: Record<string, boolean>) => ({
  addresses: [ip],
  ...(nodeName ? { nodeName } : {}),
  ...(conditions ? { conditions } : {}),
});
const ips = (eps: { ip: string }[]) => eps.map((e) => e.ip);
const TERMINATING = { ready: false, serving: true, terminating: true };

test('Cluster policy: ready endpoints, else serving-terminating ones', () => {
  const p = view({}, [ep('10.0.0.1'), ep('10.0.0.2', undefined, TERMINATING)]);
  const c = categorizeEndpoints(p, 'n1');
  assert.deepEqual([ips(c.cluster), ips(c.local), ips(c.reachable), c.hasAny], [['10.0.0.1'], [], ['10.0.0.1'], true]);
  const t = categorizeEndpoints(
    view({}, [
      ep('10.0.0.2', undefined, TERMINATING),
      ep('10.0.0.3', undefined, { ready: false, serving: false, terminating: true }),
    ]),
  );
  assert.deepEqual([ips(t.cluster), t.hasAny], [['10.0.0.2'], true]);
  assert.equal(categorizeEndpoints(view({}, [])).hasAny, false);
});

test('external Local policy: local endpoints only when externally reachable', () => {
  const eps = [ep('10.0.0.1', 'n1'), ep('10.0.0.2', 'n2')];
  const clusterOnly = categorizeEndpoints(view({ externalTrafficPolicy: 'Local' }, eps), 'n1');
  assert.deepEqual(ips(clusterOnly.local), [], 'a ClusterIP Service ignores externalTrafficPolicy');
  const np = categorizeEndpoints(
    view({ type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ name: 'p', port: 80, nodePort: 30001 }] }, eps),
    'n1',
  );
  assert.deepEqual(
    [ips(np.cluster), ips(np.local), ips(np.reachable)],
    [['10.0.0.1', '10.0.0.2'], ['10.0.0.1'], ['10.0.0.1', '10.0.0.2']],
  );
  const noName = categorizeEndpoints(
    view({ type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ name: 'p', port: 80, nodePort: 30001 }] }, eps),
  );
  assert.deepEqual(ips(noName.local), [], 'without a node name nothing is local');
});

test('a local terminating endpoint is added to the reachable set next to remote ready ones', () => {
  const p = view(
    { type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ name: 'p', port: 80, nodePort: 30001 }] },
    [ep('10.0.0.9', 'n2'), ep('10.0.0.1', 'n1', TERMINATING)],
  );
  const c = categorizeEndpoints(p, 'n1');
  assert.deepEqual(
    [ips(c.cluster), ips(c.local), ips(c.reachable)],
    [['10.0.0.9'], ['10.0.0.1'], ['10.0.0.1', '10.0.0.9']],
  );
});

test('internal Local policy without external access uses local endpoints only', () => {
  const p = view({ internalTrafficPolicy: 'Local' }, [ep('10.0.0.1', 'n1'), ep('10.0.0.2', 'n2')]);
  const c = categorizeEndpoints(p, 'n2');
  assert.deepEqual([ips(c.cluster), ips(c.local), ips(c.reachable), c.hasAny], [[], ['10.0.0.2'], ['10.0.0.2'], true]);
  const elsewhere = categorizeEndpoints(p, 'n3');
  assert.deepEqual([ips(elsewhere.local), elsewhere.hasAny], [[], true]);
});

test('family selection, canonical addresses, zero source ranges, health check only for Local LoadBalancers', () => {
  const p6 = view({ clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1', 'FD00:0:0::1'] }, [ep('fd00::a')], 6);
  assert.equal(p6.clusterIP, 'fd00::1');
  assert.equal(endpointString(p6.endpoints[0]), '[fd00::a]:8080');
  const lb = view(
    {
      type: 'LoadBalancer',
      ports: [{ name: 'p', port: 80, nodePort: 30001 }],
      healthCheckNodePort: 32000,
      loadBalancerSourceRanges: ['10.1.2.3/8', '0.0.0.0/0'],
    },
    [],
  );
  assert.deepEqual(lb.sourceRanges, []);
  assert.equal(lb.healthCheckNodePort, 0);
  const lbLocal = view(
    {
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      ports: [{ name: 'p', port: 80, nodePort: 30001 }],
      healthCheckNodePort: 32000,
      loadBalancerSourceRanges: ['10.1.2.3/8'],
    },
    [],
  );
  assert.deepEqual(lbLocal.sourceRanges, ['10.0.0.0/8']);
  assert.equal(lbLocal.healthCheckNodePort, 32000);
  const svc = { clusterIP: '10.0.0.1', clusterIPs: [] } as unknown as ServiceInfo;
  assert.equal(clusterIPForFamily(svc, 4), '10.0.0.1');
  assert.equal(clusterIPForFamily(svc, 6), undefined);
});
