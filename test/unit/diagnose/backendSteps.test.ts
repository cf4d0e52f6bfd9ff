// The next steps of backend-unreachable follow what the probes found: endpoints that time out over TCP (the kernel
// of a live pod answers a SYN by itself) point at the path from the pod's node to them (its route, the tunnel
// between nodes, a policy that drops), as the summary says; before, they said to check that the pods listen on the
// targetPort (`ss -ltn`), the steps of a refusal (hdiag11's lab matrix, x04: a blackholed route between two nodes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { both, calicoPod, connects, dnsOk, nodeAddresses, nodeDump, PLANS, scenario } from './fixtures';

for (const p of PLANS) {
  describe(`next steps of unreachable backends (plan ${p.name})`, () => {
    const nodeEvidence = {
      name: p.nodeName,
      before: nodeDump(p, { svcPackets: 1 }),
      after: nodeDump(p, { svcPackets: 2 }),
      addresses: nodeAddresses(p),
    };
    const run = (clusterIP: 'ok' | 'timeout' | 'refused', endpoint: 'ok' | 'timeout' | 'refused') =>
      both(
        scenario({
          plan: p,
          outputs: { ...calicoPod(p), ...dnsOk(p), ...connects(p, clusterIP, endpoint) },
          nodeEvidence,
        }),
      );

    it('timeouts: the path from the pod node to the endpoint', () => {
      const { en, zh } = run('timeout', 'timeout');
      assert.equal(en.code, 'backend-unreachable', en.summary);
      assert.ok(
        en.nextSteps[0].includes(`Check the path from node ${p.nodeName} to ${p.endpoints[0]}`),
        en.nextSteps[0],
      );
      assert.ok(en.nextSteps[0].includes(`ip route get ${p.endpoints[0]}`));
      assert.ok(en.nextSteps[1].includes(`kubectl get networkpolicy -n ${p.svcNamespace}`), en.nextSteps[1]);
      assert.ok(!en.nextSteps.some((s) => s.includes('ss -ltn')));
      assert.ok(zh.nextSteps[0].includes(`检查从节点 ${p.nodeName}`), zh.nextSteps[0]);
    });

    it('the ClusterIP answered but endpoints time out: the path too', () => {
      const { en } = run('ok', 'timeout');
      assert.equal(en.code, 'backend-unreachable', en.summary);
      assert.match(en.nextSteps[0], /^Check the path from node/);
    });

    it('refusals keep the listening-port steps', () => {
      const { en } = run('refused', 'refused');
      assert.equal(en.code, 'backend-unreachable', en.summary);
      assert.doesNotMatch(en.nextSteps.join('\n'), /Check the path/);
      assert.match(en.nextSteps[0], /target ?port/i);
    });
  });
}
