// A Service with more endpoints than the plan probes directly (12 over 4 nodes, 8 probes) whose last node in the
// API's list cannot be reached from the pod (a broken tunnel): a quarter of the connections time out. The probes
// are spread over the endpoints' nodes, so that node is probed and the verdict names it; the first 8 listed were
// all on the healthy nodes, and a ClusterIP probe that landed elsewhere gave ok.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ENDPOINT_CHECKS, planChecks, probeOrder, readTools } from '../../../src/core/diagnose/plan';
import type { EndpointInfo } from '../../../src/core/kube/types';
import {
  ALL_TOOLS,
  calicoPod,
  counters,
  CURL_OK,
  CURL_TIMEOUT,
  dnsOk,
  pod,
  scenario,
  service,
  both,
  PLANS,
  toolsProbe,
  type AddressPlan,
  type Raw,
} from './fixtures';

/** Three endpoints on each of four nodes, listed node by node; the pod's address plan gives the prefix. */
function spreadEndpoints(p: AddressPlan): EndpointInfo[] {
  const prefix = p.endpoints[0].split('.').slice(0, 2).join('.');
  const out: EndpointInfo[] = [];
  for (let n = 0; n < 4; n++)
    for (let j = 0; j < 3; j++)
      out.push({
        ip: `${prefix}.${40 + n}.${21 + j}`,
        port: p.targetPort,
        protocol: 'TCP',
        ready: true,
        serving: true,
        terminating: false,
        nodeName: `pool-b-node-${n}`,
        pod: `${p.svcName}-${n}${j}`,
      });
  return out;
}

for (const p of PLANS) {
  describe(`12 endpoints over 4 nodes, 8 probes (plan ${p.name})`, () => {
    const eps = spreadEndpoints(p);

    it('probes an endpoint of every node before a second one of any, ready ones first', () => {
      const notReady = { ...eps[0], ip: eps[0].ip.replace(/\d+$/, '99'), ready: false, nodeName: 'pool-b-node-9' };
      const order = probeOrder([notReady, ...eps]);
      assert.deepEqual(
        order.slice(0, 4).map((e) => e.nodeName),
        ['pool-b-node-0', 'pool-b-node-1', 'pool-b-node-2', 'pool-b-node-3'],
      );
      assert.equal(order.at(-1)?.ip, notReady.ip, 'not-ready endpoints come last');
      const plan = planChecks({
        service: service(p),
        port: service(p).ports[0],
        endpoints: eps,
        source: pod(p),
        tools: readTools(toolsProbe(Object.keys(ALL_TOOLS))),
        timeoutMs: 3000,
      });
      const probed = plan.filter((c) => c.kind === 'connect-endpoint').map((c) => c.target);
      assert.equal(probed.length, MAX_ENDPOINT_CHECKS);
      for (let n = 0; n < 4; n++)
        assert.equal(
          probed.filter((t) => eps.some((e) => e.nodeName === `pool-b-node-${n}` && t?.startsWith(`${e.ip}:`))).length,
          2,
        );
    });

    it('names the node whose endpoints time out although the ClusterIP probe landed on a healthy one', () => {
      const bad = eps.filter((e) => e.nodeName === 'pool-b-node-3').map((e) => e.ip);
      const outputs: Record<string, Raw> = { ...calicoPod(p), ...dnsOk(p), 'connect-clusterip': CURL_OK(p.clusterIP) };
      for (const e of eps)
        outputs[`connect-endpoint:${e.ip}:${p.targetPort}`] = bad.includes(e.ip)
          ? CURL_TIMEOUT(e.ip, p.targetPort)
          : CURL_OK(e.ip);
      const input = scenario({ plan: p, eps, outputs, nodeEvidence: counters(p, 7, 8) });
      const { en } = both(input);
      assert.equal(en.code, 'backend-unreachable', en.summary);
      assert.ok(en.summary.includes('pool-b-node-3'), en.summary);
      assert.ok(!/pool-b-node-[012]/.test(en.summary), en.summary);
    });
  });
}
