// Services whose endpoints or kind are not the usual ClusterIP with ready pods.
// - Every endpoint terminating but still serving (a rollout or scale-down with no new pod ready): kube-proxy 1.28+
//   sends the connections to them, so the summary may not say it sends no traffic (it did).
// - ExternalName: a DNS alias with nothing of kube-proxy's. It read as a headless Service with ClusterIP "—".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  both,
  calicoPod,
  connects,
  dnsName,
  endpoints,
  nslookupNx,
  PLANS,
  scenario,
  service,
  type AddressPlan,
  type Raw,
} from './fixtures';

function cname(p: AddressPlan, target: string, addr: string): Raw {
  const server = p.clusterIP.replace(/\.\d+$/, '.10');
  return {
    exitCode: 0,
    stdout: `Server:\t\t${server}\nAddress:\t${server}#53\n\n${dnsName(p)}\tcanonical name = ${target}.\nName:\t${target}\nAddress: ${addr}\n\n`,
    stderr: '',
    durationMs: 11,
  };
}

for (const p of PLANS) {
  describe(`terminating and ExternalName Services (plan ${p.name})`, () => {
    it('every endpoint terminating and serving: said so, not "sends no traffic"', () => {
      const eps = endpoints(p).map((e) => ({ ...e, ready: false, serving: true, terminating: true }));
      const { en, zh } = both(scenario({ plan: p, eps, outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok') } }));
      assert.equal(en.code, 'endpoints-not-ready');
      assert.match(en.summary, new RegExp(`${eps.length} terminating endpoints still serve`));
      assert.doesNotMatch(en.summary, /sends no traffic/);
      assert.match(zh.summary, /正在终止的端点仍在服务/);
    });

    it('endpoints not ready and not serving: still "sends no traffic"', () => {
      const eps = endpoints(p, false);
      const { en } = both(scenario({ plan: p, eps, outputs: calicoPod(p) }));
      assert.equal(en.code, 'endpoints-not-ready');
      assert.match(en.summary, /sends no traffic/);
    });

    const external = 'db.partner.example';
    const svc = service(p, { type: 'ExternalName', clusterIP: '', clusterIPs: [], externalName: external });

    it('ExternalName that resolves: names the alias and the far end, not a headless Service', () => {
      const input = scenario({
        plan: p,
        svc,
        eps: [],
        outputs: { ...calicoPod(p), dns: cname(p, external, '192.0.2.77') },
      });
      const { en, zh } = both(input);
      assert.equal(en.code, 'inconclusive');
      assert.match(
        en.summary,
        new RegExp(`ExternalName, a DNS alias \\(CNAME\\) of ${external.replace(/\./g, '\\.')}`),
      );
      assert.ok(en.summary.includes('192.0.2.77'), en.summary);
      assert.doesNotMatch(en.summary, /headless/);
      assert.ok(en.nextSteps[0].includes(`kubectl exec -n ${p.svcNamespace} ${p.podName} -- nslookup ${external}`));
      assert.match(zh.summary, /ExternalName/);
    });

    it('ExternalName whose name does not resolve: dns-failure', () => {
      const input = scenario({
        plan: p,
        svc,
        eps: [],
        outputs: { ...calicoPod(p), dns: nslookupNx(dnsName(p), p.clusterIP.replace(/\.\d+$/, '.10')) },
      });
      const { en } = both(input);
      assert.equal(en.code, 'dns-failure');
      assert.ok(en.summary.includes(external), en.summary);
    });
  });
}
