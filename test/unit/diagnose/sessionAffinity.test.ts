// ClientIP session affinity and a Service whose endpoints partly fail: kube-proxy pins each client to one endpoint,
// so the pod whose connect answered answers every time and the clients pinned to the failing endpoints fail every
// time. The summary said "answered this time" (as if a retry could fail), which misleads with affinity. Fails on the
// code before (no affinity text).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  both,
  calicoPod,
  counters,
  CURL_OK,
  CURL_TIMEOUT,
  dnsOk,
  PLANS,
  routeGet,
  scenario,
  service,
  type AddressPlan,
} from './fixtures';

/** The ClusterIP answers; a direct connect to `far` times out (a broken path to its node), the others answer. */
function outputs(p: AddressPlan, far: string) {
  const out = { ...calicoPod(p), ...dnsOk(p) };
  out['connect-clusterip'] = CURL_OK(p.clusterIP);
  for (const ip of p.endpoints)
    out[`connect-endpoint:${ip}:${p.targetPort}`] = ip === far ? CURL_TIMEOUT(ip, p.targetPort) : CURL_OK(ip);
  out['route-endpoint'] = { exitCode: 0, stdout: routeGet(p.endpoints[0], '169.254.1.1', p.podIface, p.podIP) };
  return out;
}

describe('ClientIP session affinity with an endpoint that fails', () => {
  for (const p of PLANS) {
    test(`plan ${p.name}: the summary says the pod is pinned and the clients pinned to the failing one always fail`, () => {
      const far = p.endpoints[p.endpoints.length - 1];
      const svc = service(p, { sessionAffinity: 'ClientIP', affinityTimeoutSeconds: 600 });
      const input = scenario({ plan: p, svc, outputs: outputs(p, far), nodeEvidence: counters(p, 7, 8) });
      const { en, zh } = both(input);
      assert.equal(en.code, 'backend-unreachable', en.summary);
      assert.doesNotMatch(en.summary, /this time/);
      assert.match(en.summary, /ClientIP session affinity/);
      assert.match(en.summary, /until 600 s after its last one/);
      assert.match(en.summary, /fail on every connection, not now and then/);
      assert.ok(en.summary.includes(`peer-${p.endpoints.length - 1}`), en.summary);
      assert.match(zh.summary, /会话亲和/);
      assert.match(zh.summary, /600 秒/);
      assert.doesNotMatch(zh.summary, /这次/);
    });

    test(`plan ${p.name}: without affinity the summary is unchanged`, () => {
      const far = p.endpoints[p.endpoints.length - 1];
      const input = scenario({ plan: p, outputs: outputs(p, far), nodeEvidence: counters(p, 7, 8) });
      const { en } = both(input);
      assert.ok(en.summary.startsWith(`${p.clusterIP}:${p.port} answered this time, but `), en.summary);
      assert.doesNotMatch(en.summary, /affinity/);
    });
  }
});
