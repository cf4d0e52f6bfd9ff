// An endpoint two EndpointSlices of a Service list (slices overlap while the controller moves endpoints between
// them; an IPv6 address written two ways) is one endpoint with the conditions that say the most: ready over
// terminating over not ready, and the node of whichever listing has it. Before, the first listing won, so a stale
// "not ready" copy hid a ready endpoint (the verdict counted it not ready), and `fd00::a` / `fd00:0::A` were two.
// A dual-stack Service's IPv4 and IPv6 slices list every pod twice: the ClusterIP's family is what kube-proxy uses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointsOfFamily } from '../../../src/cluster/diagnose';
import { planChecks } from '../../../src/core/diagnose/plan';
import { decideVerdict } from '../../../src/core/diagnose/verdict';
import { normaliseCluster } from '../../../src/core/kube/objects';
import type { EndpointInfo } from '../../../src/core/kube/types';
import { ALL_TOOLS, calicoPod, CURL_OK, dnsOk, PLANS, pod, scenario, type AddressPlan, type Raw } from './fixtures';

type Conditions = { ready?: boolean; serving?: boolean; terminating?: boolean };

function slice(
  p: AddressPlan,
  name: string,
  family: 'IPv4' | 'IPv6',
  eps: { ip: string; conditions: Conditions; nodeName?: string }[],
) {
  return {
    kind: 'EndpointSlice',
    apiVersion: 'discovery.k8s.io/v1',
    addressType: family,
    metadata: { namespace: p.svcNamespace, name, labels: { 'kubernetes.io/service-name': p.svcName } },
    ports: [{ name: p.portName, port: p.targetPort, protocol: 'TCP' }],
    endpoints: eps.map((e) => ({
      addresses: [e.ip],
      conditions: e.conditions,
      ...(e.nodeName ? { nodeName: e.nodeName } : {}),
    })),
  };
}

function serviceObject(p: AddressPlan, clusterIPs = [p.clusterIP]) {
  return {
    kind: 'Service',
    metadata: { namespace: p.svcNamespace, name: p.svcName },
    spec: {
      clusterIP: clusterIPs[0],
      clusterIPs,
      selector: { app: p.svcName },
      ports: [{ name: p.portName, port: p.port, targetPort: p.targetPort, protocol: 'TCP' }],
    },
  };
}

function endpointsOf(p: AddressPlan, objects: unknown[]): EndpointInfo[] {
  const snap = normaliseCluster([serviceObject(p), ...objects]);
  return snap.endpoints[`${p.svcNamespace}/${p.svcName}`]?.[p.portName] ?? [];
}

for (const p of PLANS) {
  describe(`overlapping EndpointSlices (plan ${p.name})`, () => {
    const [a, b] = p.endpoints;

    it('stale not-ready copies do not hide the ready endpoints, whichever slice comes first', () => {
      const stale = slice(p, `${p.svcName}-old`, 'IPv4', [
        { ip: a, conditions: { ready: false }, nodeName: 'n-1' },
        { ip: b, conditions: { ready: false }, nodeName: 'n-2' },
      ]);
      const fresh = slice(p, `${p.svcName}-new`, 'IPv4', [
        { ip: a, conditions: { ready: true }, nodeName: 'n-1' },
        { ip: b, conditions: { ready: true }, nodeName: 'n-2' },
      ]);
      for (const order of [
        [stale, fresh],
        [fresh, stale],
      ]) {
        const eps = endpointsOf(p, order);
        assert.deepEqual(eps.map((e) => `${e.ip} ${e.ready}`).sort(), [`${a} true`, `${b} true`].sort());
        const outputs: Record<string, Raw> = {
          ...calicoPod(p),
          ...dnsOk(p),
          'connect-clusterip': CURL_OK(p.clusterIP),
        };
        for (const e of eps) outputs[`connect-endpoint:${e.ip}:${p.targetPort}`] = CURL_OK(e.ip);
        const input = scenario({ plan: p, eps, outputs });
        const v = decideVerdict(input, 'en');
        assert.equal(v.code, 'ok', v.summary);
        const probes = planChecks({
          service: input.service,
          port: input.port,
          endpoints: eps,
          source: pod(p),
          tools: ALL_TOOLS,
          timeoutMs: 3000,
        })
          .filter((c) => c.kind === 'connect-endpoint')
          .map((c) => c.target);
        assert.deepEqual(probes.sort(), [`${a}:${p.targetPort}`, `${b}:${p.targetPort}`].sort());
      }
    });

    it('terminating says more than not ready; the node comes from whichever listing has it', () => {
      const eps = endpointsOf(p, [
        slice(p, `${p.svcName}-x`, 'IPv4', [{ ip: a, conditions: { ready: false, serving: false }, nodeName: 'n-7' }]),
        slice(p, `${p.svcName}-y`, 'IPv4', [{ ip: a, conditions: { ready: false, serving: true, terminating: true } }]),
        slice(p, `${p.svcName}-z`, 'IPv4', [{ ip: a, conditions: { ready: false, serving: false }, nodeName: 'n-7' }]),
      ]);
      assert.equal(eps.length, 1);
      assert.deepEqual(
        { ready: eps[0].ready, serving: eps[0].serving, terminating: eps[0].terminating, node: eps[0].nodeName },
        { ready: false, serving: true, terminating: true, node: 'n-7' },
      );
    });
  });
}

describe('one address written two ways', () => {
  it('fd00:10::a and fd00:10:0::A are one endpoint', () => {
    const p = { ...PLANS[0], clusterIP: 'fd00:96::10' };
    const eps = endpointsOf(p, [
      slice(p, 'v6-a', 'IPv6', [{ ip: 'fd00:10::a', conditions: { ready: false } }]),
      slice(p, 'v6-b', 'IPv6', [{ ip: 'fd00:10:0::A', conditions: { ready: true }, nodeName: 'n-1' }]),
    ]);
    assert.equal(eps.length, 1);
    assert.equal(eps[0].ready, true);
    assert.equal(eps[0].nodeName, 'n-1');
  });
});

describe('a dual-stack Service: the endpoints of the ClusterIP family checked', () => {
  for (const p of PLANS) {
    it(`plan ${p.name}: each pod once, not once per family`, () => {
      const snap = normaliseCluster([
        serviceObject(p, [p.clusterIP, 'fd00:96::10']),
        slice(p, 'v4', 'IPv4', [
          { ip: p.endpoints[0], conditions: { ready: true } },
          { ip: p.endpoints[1], conditions: { ready: true } },
        ]),
        slice(p, 'v6', 'IPv6', [
          { ip: 'fd00:10::1', conditions: { ready: true } },
          { ip: 'fd00:10::2', conditions: { ready: true } },
        ]),
      ]);
      const all = snap.endpoints[`${p.svcNamespace}/${p.svcName}`][p.portName];
      assert.equal(all.length, 4);
      const service = snap.services[0];
      assert.deepEqual(
        endpointsOfFamily(all, service).map((e) => e.ip),
        [p.endpoints[0], p.endpoints[1]],
      );
      assert.deepEqual(
        endpointsOfFamily(all, { ...service, clusterIP: 'fd00:96::10' }).map((e) => e.ip),
        ['fd00:10::1', 'fd00:10::2'],
      );
      // Headless (no ClusterIP), or endpoints of the other family only: all kept, nothing hidden.
      assert.equal(endpointsOfFamily(all, { ...service, clusterIP: 'None' }).length, 4);
      const v6only = all.filter((e) => e.ip.includes(':'));
      assert.equal(endpointsOfFamily(v6only, service).length, 2);
    });
  }
});
