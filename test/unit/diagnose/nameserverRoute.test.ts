// A name that does not resolve because the pod's DNS queries leave it another way than into the node: the Service's
// own ClusterIP is routed through the node (and answers), but the route to the nameserver of the pod's resolv.conf
// goes to another gateway. That is where a pod lands when only the Service CIDR was routed back through the node
// after the seed case, while a node-local DNS cache (a link-local address) still follows the second interface's
// default route. The verdict names that route; "check CoreDNS" would send the user to healthy DNS pods.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  connects,
  counters,
  dnsName,
  NSLOOKUP_TIMEOUT,
  routeGet,
  scenario,
  secondInterfacePod,
  both,
  PLANS,
  type AddressPlan,
  type Raw,
} from './fixtures';

const NODE_LOCAL_DNS = '169.254.20.10';

/** A pod with a second interface whose default route goes to another gateway; pod and Service CIDRs via the node. */
function serviceCidrFixed(p: AddressPlan, nameserver: string): Record<string, Raw> {
  // The seed pod's interfaces, its neighbours left out: here only the routes differ.
  const { neighbours: _neighbours, ...seedPod } = secondInterfacePod(p);
  return {
    ...seedPod,
    'route-clusterip': { exitCode: 0, stdout: routeGet(p.clusterIP, '169.254.1.1', p.podIface, p.podIP) },
    routes: {
      exitCode: 0,
      stdout:
        `default via ${p.extraGateway} dev ${p.extraIface} \n` +
        `${p.serviceCidr} via 169.254.1.1 dev ${p.podIface} \n` +
        `${p.clusterCidr} via 169.254.1.1 dev ${p.podIface} \n` +
        `169.254.1.1 dev ${p.podIface} scope link \n`,
    },
    'resolv-conf': {
      exitCode: 0,
      stdout: `search ${p.svcNamespace}.svc.${p.clusterDomain} svc.${p.clusterDomain} ${p.clusterDomain}\nnameserver ${nameserver}\noptions ndots:5\n`,
    },
    dns: NSLOOKUP_TIMEOUT,
  };
}

for (const p of PLANS) {
  describe(`a name that does not resolve (plan ${p.name})`, () => {
    it("names the pod's route to its nameserver when it leaves by another gateway than the node", () => {
      const input = scenario({
        plan: p,
        outputs: { ...serviceCidrFixed(p, NODE_LOCAL_DNS), ...connects(p, 'ok', 'ok') },
        nodeEvidence: counters(p, 4, 5),
      });
      const { en, zh } = both(input);
      assert.equal(en.code, 'dns-failure', en.summary);
      assert.ok(en.summary.startsWith(`${p.clusterIP}:${p.port} answers, but ${dnsName(p)} does not resolve`));
      assert.ok(
        en.summary.endsWith(
          `The pod's route to ${NODE_LOCAL_DNS} goes via ${p.extraGateway} on ${p.extraIface}, which is not this node: its queries to the nameserver ${NODE_LOCAL_DNS} (resolv.conf) never reach the node.`,
        ),
        en.summary,
      );
      assert.ok(zh.summary.includes(`${NODE_LOCAL_DNS}（resolv.conf）`), zh.summary);
      assert.ok(
        en.evidence.some(
          (e) =>
            e.source === 'routes' &&
            e.text.includes(`sends ${NODE_LOCAL_DNS} via ${p.extraGateway} on ${p.extraIface}`),
        ),
        en.evidence.map((e) => e.text).join('\n'),
      );
      assert.match(
        en.nextSteps[0],
        new RegExp(`route to its nameserver ${NODE_LOCAL_DNS.replace(/\./g, '\\.')} go through the node`),
      );
      assert.ok(!en.nextSteps.some((s) => /CoreDNS/.test(s)), en.nextSteps.join('\n'));
    });

    it('stays the plain DNS failure when the route to the nameserver leads into the node', () => {
      const nameserver = p.clusterIP.replace(/\.\d+$/, '.10');
      const input = scenario({
        plan: p,
        outputs: { ...serviceCidrFixed(p, nameserver), ...connects(p, 'ok', 'ok') },
        nodeEvidence: counters(p, 4, 5),
      });
      const { en } = both(input);
      assert.equal(en.code, 'dns-failure');
      assert.equal(
        en.summary,
        `${p.clusterIP}:${p.port} answers, but ${dnsName(p)} does not resolve from the pod (no DNS server answered).`,
      );
      assert.match(en.nextSteps[0], /CoreDNS/);
    });
  });
}
