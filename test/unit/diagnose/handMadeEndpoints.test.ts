// A Service without a selector whose hand-made Endpoints or EndpointSlices name their port differently from the
// Service's (a named Service port, an unnamed slice port, or a typo): kube-proxy pairs them by name, so the port has
// no endpoints. The verdict named no cause but "nothing writes its endpoints", which sent the user looking for a
// missing object that is there. A selector's Service (whose controller names the ports right) is unchanged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { both, calicoPod, connects, PLANS, scenario, service } from './fixtures';

for (const p of PLANS) {
  describe(`hand-made endpoints under another port name (plan ${p.name}, ${p.clusterIP})`, () => {
    const svc = service(p, { ports: [{ name: 'pg', port: p.port, protocol: 'TCP', targetPort: p.targetPort }] });
    const base = () => ({ plan: p, svc, eps: [], outputs: { ...calicoPod(p), ...connects(p, 'refused', 'refused') } });

    it('names the port names the endpoints have and the one the Service wants', () => {
      const input = { ...scenario(base()), selected: { matching: 0, running: 0, ready: 0 }, endpointPortNames: [''] };
      const { en, zh } = both(input);
      assert.equal(en.code, 'no-endpoints');
      assert.match(
        en.summary,
        /list endpoints for port name "", not pg; kube-proxy pairs them with the Service port by name/,
      );
      assert.ok(en.summary.includes(`${p.clusterIP}:${p.port}`), en.summary);
      assert.ok(
        en.nextSteps[0].includes(`-n ${p.svcNamespace} -l kubernetes.io/service-name=${p.svcName}`),
        en.nextSteps[0],
      );
      assert.match(zh.summary, /按名称/);
    });

    it('a Service with a selector keeps its summary (its controller names the ports)', () => {
      const selected = { selector: `app=${p.svcName}`, matching: 2, running: 2, ready: 2 };
      const { en } = both({ ...scenario(base()), selected, endpointPortNames: ['http'] });
      assert.equal(en.code, 'no-endpoints');
      assert.doesNotMatch(en.summary, /pairs them with the Service port by name/);
    });
  });
}
