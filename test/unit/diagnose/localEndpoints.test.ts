// internalTrafficPolicy Local, the client on a node that has a ready endpoint: kube-proxy there sends the pod's
// connections to that node's endpoints alone, so endpoints elsewhere that fail a direct connect (a broken tunnel to
// their node) do not spoil the Service for this pod. It was backend-unreachable ("the connections kube-proxy sends
// to them fail"), which kube-proxy never does from here (hdiag11's lab matrix, x04: the client's node had an
// endpoint, the path to a third node was down).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointKey } from '../../../src/core/diagnose/traceOutcomes';
import {
  both,
  calicoPod,
  connects,
  CURL_OK,
  CURL_TIMEOUT,
  dnsOk,
  endpoints,
  nodeAddresses,
  nodeDump,
  PLANS,
  scenario,
  service,
} from './fixtures';

for (const p of PLANS) {
  describe(`internalTrafficPolicy Local with an endpoint on the client's node (plan ${p.name})`, () => {
    const svc = service(p, { internalTrafficPolicy: 'Local' });
    // The first endpoint is on the client's node; the others on peers.
    const eps = endpoints(p).map((e, i) => (i === 0 ? { ...e, nodeName: p.nodeName } : e));
    const local = endpointKey(eps[0].ip, eps[0].port);
    const nodeEvidence = {
      name: p.nodeName,
      before: nodeDump(p, { svc, eps, svcPackets: 2 }),
      after: nodeDump(p, { svc, eps, svcPackets: 3 }),
      addresses: nodeAddresses(p),
    };
    const outputs = (clusterIP: 'ok' | 'timeout', localOk: boolean) => ({
      ...calicoPod(p),
      ...dnsOk(p),
      ...connects(p, clusterIP, 'timeout'),
      [`connect-endpoint:${local}`]: localOk ? CURL_OK(eps[0].ip) : CURL_TIMEOUT(eps[0].ip, eps[0].port),
    });

    it('remote endpoints that time out do not count: ok, saying which endpoints this node uses', () => {
      const { en, zh } = both(scenario({ plan: p, svc, eps, outputs: outputs('ok', true), nodeEvidence }));
      assert.equal(en.code, 'ok', en.summary);
      const said = en.evidence.find((e) => /internalTrafficPolicy Local: kube-proxy on node/.test(e.text));
      assert.ok(said?.text.includes(`(${local})`), said?.text);
      assert.ok(zh.evidence.some((e) => e.text.includes('internalTrafficPolicy 为 Local')));
    });

    it('the local endpoint failing still is backend-unreachable', () => {
      const { en } = both(scenario({ plan: p, svc, eps, outputs: outputs('timeout', false), nodeEvidence }));
      assert.equal(en.code, 'backend-unreachable', en.summary);
      assert.match(en.summary, /the only endpoint probed/);
    });

    it('with internalTrafficPolicy Cluster the remote failures still count', () => {
      const cluster = service(p);
      const ev = { ...nodeEvidence, before: nodeDump(p, { svc: cluster, eps, svcPackets: 2 }) };
      const { en } = both(
        scenario({
          plan: p,
          svc: cluster,
          eps,
          outputs: outputs('ok', true),
          nodeEvidence: { ...ev, after: nodeDump(p, { svc: cluster, eps, svcPackets: 3 }) },
        }),
      );
      assert.equal(en.code, 'backend-unreachable', en.summary);
    });
  });
}
