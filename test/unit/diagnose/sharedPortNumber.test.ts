// One port number over two protocols (kube-dns: 53/UDP and 53/TCP): `--port 53` checked the first silently. Now
// `--port 53/tcp` (or `dns/udp`) chooses, and the report says which protocol it checked and gives the command that
// checks the other. Both fail on the code before (no protocol suffix; no such evidence).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pickPort } from '../../../src/cluster/diagnose';
import { isClusterError } from '../../../src/cluster/errors';
import { decideVerdict } from '../../../src/core/diagnose/verdict';
import { calicoPod, endpoints, PLANS, scenario, service, both, type AddressPlan } from './fixtures';

function dnsService(p: AddressPlan) {
  return service(p, {
    ports: [
      { name: 'dns', port: 53, protocol: 'UDP', targetPort: 5353 },
      { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 5353 },
      { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
    ],
  });
}

for (const p of PLANS) {
  describe(`port 53 over UDP and TCP (plan ${p.name}, ${p.clusterIP})`, () => {
    const svc = dnsService(p);

    it('--port 53/tcp, 53/UDP, dns-tcp/tcp and the targetPort with a protocol pick that protocol', () => {
      assert.equal(pickPort(svc, '53/tcp').name, 'dns-tcp');
      assert.equal(pickPort(svc, '53/TCP').name, 'dns-tcp');
      assert.equal(pickPort(svc, '53/udp').name, 'dns');
      assert.equal(pickPort(svc, 'dns-tcp/tcp').name, 'dns-tcp');
      assert.equal(pickPort(svc, '5353/tcp').name, 'dns-tcp');
      // A number alone still picks the first as listed (what kubectl users expect of kube-dns: UDP).
      assert.equal(pickPort(svc, '53').protocol, 'UDP');
    });

    it('a protocol the port is not served over is no port of the Service', () => {
      for (const wanted of ['53/sctp', 'dns/tcp', '9153/udp']) {
        try {
          pickPort(svc, wanted);
          assert.fail(`${wanted} picked a port`);
        } catch (e) {
          assert.ok(isClusterError(e), String(e));
          assert.equal(e.code, 'not-found');
          assert.ok(e.message.includes(`has no port ${wanted}`), e.message);
          assert.match(e.hint, /53\/tcp/);
        }
      }
    });

    it('a targetPort two ports share names both by their names', () => {
      try {
        pickPort(svc, '5353');
        assert.fail('picked');
      } catch (e) {
        assert.ok(isClusterError(e));
        assert.match(e.hint, /one of them: dns, dns-tcp$/);
      }
    });

    for (const [checked, other] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const port = svc.ports[checked];
      it(`the report checking ${port.port}/${port.protocol} says so and how to check ${svc.ports[other].protocol}`, () => {
        const eps = endpoints({ ...p, targetPort: 5353 }).map((e) => ({ ...e, protocol: port.protocol }));
        const input = { ...scenario({ plan: p, svc, eps, outputs: calicoPod(p) }), port };
        const { en, zh } = both(input);
        const first = en.evidence[0];
        assert.equal(first.source, 'api');
        assert.ok(first.text.startsWith(`This report checks 53/${port.protocol} (${port.name});`), first.text);
        assert.ok(first.text.includes(`53/${svc.ports[other].protocol} (${svc.ports[other].name})`), first.text);
        const want = `kpp diagnose svc/${p.svcName} -n ${p.svcNamespace} --port 53/${svc.ports[other].protocol.toLowerCase()} --from pod/${p.podName} --from-namespace ${p.svcNamespace}`;
        assert.ok(first.text.includes(`\`${want}\``), first.text);
        assert.ok(zh.evidence[0].text.includes(want) && /本报告/.test(zh.evidence[0].text), zh.evidence[0].text);
      });
    }

    it('a port no other protocol shares gets no such line', () => {
      const input = { ...scenario({ plan: p, svc, outputs: calicoPod(p) }), port: svc.ports[2] };
      const v = decideVerdict(input, 'en');
      assert.ok(!v.evidence.some((e) => /This report checks/.test(e.text)));
    });
  });
}
