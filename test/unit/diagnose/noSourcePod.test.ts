// A Service whose namespace has no pod to check from (default/kubernetes on most clusters): the error says that a
// pod of another namespace will do, and how to name it; it said to pass a pod of the Service's namespace, which has
// none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isClusterError, type ClusterSession } from '../../../src/cluster';
import { diagnoseService } from '../../../src/cluster/diagnose';

/** The API of a cluster whose namespace `platform` holds Service `gateway` (10.252.0.40:443, one endpoint) and no pod. */
const session = {
  getService: async () => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { namespace: 'platform', name: 'gateway', uid: 'u-gw', resourceVersion: '3' },
    spec: { type: 'ClusterIP', clusterIP: '10.252.0.40', ports: [{ name: 'https', port: 443, protocol: 'TCP' }] },
  }),
  getServiceEndpoints: async () => [
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { namespace: 'platform', name: 'gateway-7fq2x', labels: { 'kubernetes.io/service-name': 'gateway' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['172.28.14.9'], conditions: { ready: true } }],
      ports: [{ name: 'https', port: 8443, protocol: 'TCP' }],
    },
  ],
  listRaw: async () => ({ items: [] }),
} as unknown as ClusterSession;

async function failure(opts: { fromNamespace?: string }): Promise<{ message: string; hint: string }> {
  try {
    await diagnoseService(session, { namespace: 'platform', service: 'gateway', ...opts });
  } catch (e) {
    assert.ok(isClusterError(e), String(e));
    return { message: e.message, hint: e.hint };
  }
  throw new Error('diagnoseService did not fail');
}

describe('no pod to check from', () => {
  it("in the Service's namespace: says a pod of another namespace will do, and how", async () => {
    const { message, hint } = await failure({});
    assert.equal(message, 'no running pod in namespace platform to check from');
    assert.equal(hint, 'pass --from pod/NAME, with --from-namespace NS for a pod of another namespace');
  });

  it('in the namespace given with --from-namespace: names that namespace', async () => {
    const { message, hint } = await failure({ fromNamespace: 'tools' });
    assert.equal(message, 'no running pod in namespace tools to check from');
    assert.equal(hint, 'pass --from pod/NAME (a pod of namespace tools)');
  });
});
