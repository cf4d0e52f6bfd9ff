// Verdicts on faults between the pod and its Service's backends that the lab's first scenarios never had: a
// targetPort that does not match the container (refused), kube-proxy's REJECT for a Service without endpoints, a
// firewall rule in the node's FORWARD chain (DROP: timeouts; REJECT: an ICMP error), internalTrafficPolicy Local
// without a local endpoint, and a pod that is its own Service's only endpoint (hairpin). curl's outputs are written
// here as curl 7.88 prints them with -v (the plan asks for it: without -v a refusal and an unreachable read alike).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { connectOutcome } from '../../../src/core/diagnose/plan';
import { t } from '../../../src/core/i18n/catalog';
import type { DiagnoseInput } from '../../../src/core/diagnose/types';
import type { EndpointInfo } from '../../../src/core/kube/types';
import {
  both,
  calicoPod,
  dnsOk,
  nslookupNx,
  nslookupOk,
  endpoints,
  evidence,
  nodeDump,
  PLANS,
  pod,
  scenario,
  service,
  type AddressPlan,
  type Raw,
} from './fixtures';

/** What curl printed: a Raw whose streams are always there. */
type CurlOut = Raw & { exitCode: number; stdout: string; stderr: string; durationMs: number };

/** curl -sS -v ... as curl 7.88 prints a connect that failed with `reason` (the `* connect to` line says why). */
function curlV(ip: string, port: number, reason: 'Connection refused' | 'No route to host'): CurlOut {
  return {
    exitCode: 7,
    stdout: 'connect=0.000000 code=000\n',
    stderr: [
      `*   Trying ${ip}:${port}...`,
      `* connect to ${ip} port ${port} failed: ${reason}`,
      `* Failed to connect to ${ip} port ${port} after 2 ms: Couldn't connect to server`,
      '* Closing connection 0',
      `curl: (7) Failed to connect to ${ip} port ${port} after 2 ms: Couldn't connect to server`,
      '',
    ].join('\n'),
    durationMs: 5,
  };
}

function curlVOk(ip: string, port: number): CurlOut {
  return {
    exitCode: 0,
    stdout: 'connect=0.000412 code=200\n',
    stderr: [
      `*   Trying ${ip}:${port}...`,
      `* Connected to ${ip} (${ip}) port ${port} (#0)`,
      '> GET / HTTP/1.1',
      `> Host: ${ip}:${port}`,
      '> User-Agent: curl/7.88.1',
      '< HTTP/1.1 200 OK',
      '< Content-Length: 3',
      '* Connection #0 to host left intact',
      '',
    ].join('\n'),
    durationMs: 3,
  };
}

function curlVTimeout(ip: string, port: number): CurlOut {
  return {
    exitCode: 28,
    stdout: 'connect=0.000000 code=000\n',
    stderr: `*   Trying ${ip}:${port}...\n* Connection timed out after 3001 milliseconds\n* Closing connection 0\ncurl: (28) Connection timed out after 3001 milliseconds\n`,
    durationMs: 3005,
  };
}

type Answer = 'ok' | 'refused' | 'noroute' | 'timeout';

function answer(a: Answer, ip: string, port: number): Raw {
  if (a === 'ok') return curlVOk(ip, port);
  if (a === 'timeout') return curlVTimeout(ip, port);
  return curlV(ip, port, a === 'refused' ? 'Connection refused' : 'No route to host');
}

function connectsV(p: AddressPlan, clusterIP: Answer, endpoint: Answer, ips = p.endpoints): Record<string, Raw> {
  const out: Record<string, Raw> = { 'connect-clusterip': answer(clusterIP, p.clusterIP, p.port) };
  for (const ip of ips) out[`connect-endpoint:${ip}:${p.targetPort}`] = answer(endpoint, ip, p.targetPort);
  return out;
}

/** A node dump with `rules` appended to the filter table (a firewall's, a NetworkPolicy's). */
function withFilterRules(dump: string, rules: string[]): string {
  return dump.replace(/(\*filter\n[\s\S]*?)\nCOMMIT/, (_m, body: string) => `${body}\n${rules.join('\n')}\nCOMMIT`);
}

describe('curl -v tells a refusal from an ICMP error', () => {
  test('refused, no route to host, connected; the evidence keeps the connect lines, not the headers', () => {
    const argv = ['curl', '-sS', '-v', 'http://10.1.2.3:80/'];
    assert.equal(connectOutcome({ id: 'c', argv, ...curlV('10.1.2.3', 80, 'Connection refused') }), 'refused');
    assert.equal(connectOutcome({ id: 'c', argv, ...curlV('10.1.2.3', 80, 'No route to host') }), 'unreachable');
    assert.equal(connectOutcome({ id: 'c', argv, ...curlVOk('10.1.2.3', 80) }), 'connected');
    const p = PLANS[0];
    const { en } = both(
      scenario({
        plan: p,
        outputs: { ...calicoPod(p), ...connectsV(p, 'ok', 'ok'), ...dnsOk(p) },
        nodeEvidence: evidence(p, nodeDump(p, { svcPackets: 0 }), nodeDump(p, { svcPackets: 1 })),
      }),
    );
    const connect = en.evidence.find((e) => e.source === 'connect-clusterip');
    assert.match(connect?.output ?? '', /Connected to/);
    assert.doesNotMatch(connect?.output ?? '', /User-Agent|^> |^< /m);
  });
});

describe("a targetPort that does not match the container's port", () => {
  for (const p of PLANS) {
    const dumps = () => evidence(p, nodeDump(p, { svcPackets: 0 }), nodeDump(p, { svcPackets: 1 }));
    const declared = p.targetPort + 1;
    const podsOf = (eps: EndpointInfo[]) =>
      eps.map((e, i) => ({
        namespace: p.svcNamespace,
        name: `backend-${i}`,
        ip: e.ip,
        ports: [{ name: 'web', port: declared, protocol: 'TCP' }],
      }));

    test(`plan ${p.name}: endpoints refuse and their pods declare another port: the targetPort is named as the cause`, () => {
      const input = scenario({
        plan: p,
        outputs: { ...calicoPod(p), ...connectsV(p, 'refused', 'refused'), ...dnsOk(p) },
        nodeEvidence: dumps(),
      });
      input.endpointPods = podsOf(input.endpoints);
      const { en, zh } = both(input);
      assert.equal(en.code, 'backend-unreachable');
      assert.match(
        en.summary,
        new RegExp(`declare container ports? ${declared}/TCP, not the Service's targetPort ${p.targetPort}`),
      );
      assert.match(en.summary, /targetPort does not match/);
      assert.doesNotMatch(en.summary, /path|broken/);
      assert.ok(en.evidence.some((e) => e.text.includes(`declares container ports web ${declared}/TCP`)));
      assert.match(zh.summary, new RegExp(`${declared}/TCP.*targetPort ${p.targetPort}`));
      assert.match(en.nextSteps[0], /targetPort/);
    });

    test(`plan ${p.name}: endpoints refuse, their ports unknown: a closed targetPort, not a broken path`, () => {
      const input = scenario({
        plan: p,
        outputs: { ...calicoPod(p), ...connectsV(p, 'refused', 'refused'), ...dnsOk(p) },
        nodeEvidence: dumps(),
      });
      const { en } = both(input);
      assert.equal(en.code, 'backend-unreachable');
      assert.match(en.summary, new RegExp(`refuse a direct connect to port ${p.targetPort} too`));
      assert.match(en.summary, new RegExp(`nothing listens on the Service's targetPort ${p.targetPort}`));
      assert.doesNotMatch(en.summary, /path to the backends? is broken/);
    });

    test(`plan ${p.name}: the pods declare the targetPort and still refuse: not called a mismatch`, () => {
      const input = scenario({
        plan: p,
        outputs: { ...calicoPod(p), ...connectsV(p, 'refused', 'refused'), ...dnsOk(p) },
        nodeEvidence: dumps(),
      });
      input.endpointPods = podsOf(input.endpoints).map((q) => ({
        ...q,
        ports: [{ name: 'web', port: p.targetPort, protocol: 'TCP' }],
      }));
      const { en } = both(input);
      assert.doesNotMatch(en.summary, /does not match/);
      assert.match(en.summary, /or a REJECT rule/);
    });
  }
});

describe("kube-proxy's REJECT for a Service without endpoints", () => {
  for (const p of PLANS) {
    const noEps = (n: number) => nodeDump(p, { eps: [], svcPackets: n });
    test(`plan ${p.name}: "connection refused" at the ClusterIP is that REJECT, said as such`, () => {
      const input = scenario({
        plan: p,
        eps: [],
        outputs: { ...calicoPod(p), ...connectsV(p, 'refused', 'refused', []), ...dnsOk(p) },
        nodeEvidence: evidence(p, noEps(0), noEps(1)),
      });
      const { en } = both(input);
      assert.equal(en.code, 'no-endpoints');
      assert.ok(en.evidence.some((e) => /kube-proxy's rule for a Service port without endpoints/.test(e.text)));
      const said = en.evidence.find((e) => e.text.startsWith('The refusal the pod got'));
      assert.match(said?.text ?? '', new RegExp(`at ${p.clusterIP}:${p.port} is that REJECT on node ${p.nodeName}`));
    });

    test(`plan ${p.name}: endpoints the API would not list: the node's REJECT says there are none`, () => {
      const input = scenario({
        plan: p,
        eps: [],
        endpointsKnown: false,
        outputs: { ...calicoPod(p), ...connectsV(p, 'refused', 'refused', []), ...dnsOk(p) },
        nodeEvidence: evidence(p, noEps(0), noEps(1)),
      });
      const { en } = both(input);
      assert.equal(en.code, 'no-endpoints', en.summary);
      assert.match(en.summary, new RegExp(`node ${p.nodeName.replace(/\./g, '\\.')}'s kube-proxy rules have port`));
    });
  }
});

describe('a firewall rule in the node FORWARD chain', () => {
  for (const p of PLANS) {
    const drop = (n: number, rule: string) =>
      withFilterRules(nodeDump(p, { svcPackets: n }), [`[${n}:${n * 60}] ${rule}`]);

    test(`plan ${p.name}: a DROP: timeouts, the rule and its line named`, () => {
      const rule = `-A FORWARD -d ${p.endpoints[0]}/32 -p tcp -m tcp --dport ${p.targetPort} -j DROP`;
      const rule2 = `-A FORWARD -d ${p.endpoints.slice(1).join(',')} -j DROP`;
      const before = withFilterRules(nodeDump(p, { svcPackets: 0 }), [`[0:0] ${rule}`, `[0:0] ${rule2}`]);
      const after = withFilterRules(nodeDump(p, { svcPackets: 1 }), [`[1:60] ${rule}`, `[1:60] ${rule2}`]);
      const input = scenario({
        plan: p,
        outputs: { ...calicoPod(p), ...connectsV(p, 'timeout', 'timeout'), ...dnsOk(p) },
        nodeEvidence: evidence(p, before, after),
      });
      const { en, zh } = both(input);
      assert.equal(en.code, 'backend-unreachable');
      assert.match(en.summary, /its filter rule FORWARD line \d+ drops the packets to/);
      assert.ok(en.summary.includes(rule), en.summary);
      assert.match(en.summary, /the pod's connect: timed out/);
      assert.match(en.summary, /firewall or NetworkPolicy/);
      assert.ok(zh.summary.includes(rule));
      assert.ok(en.evidence.some((e) => /not a kube-proxy rule/.test(e.text)));
    });

    test(`plan ${p.name}: a rule that drops only some paths (an ipset the dump lacks, a statistic match) is not the cause`, () => {
      for (const rule of [
        '-A FORWARD -m set --match-set blocklist dst -j DROP',
        '-A FORWARD -m statistic --mode random --probability 0.01 -j DROP',
      ]) {
        const input = scenario({
          plan: p,
          outputs: { ...calicoPod(p), ...connectsV(p, 'timeout', 'timeout'), ...dnsOk(p) },
          nodeEvidence: evidence(
            p,
            withFilterRules(nodeDump(p, { svcPackets: 0 }), [`[0:0] ${rule}`]),
            withFilterRules(nodeDump(p, { svcPackets: 1 }), [`[0:0] ${rule}`]),
          ),
        });
        const { en } = both(input);
        assert.equal(en.code, 'backend-unreachable', rule);
        assert.ok(!/its filter rule/.test(en.summary), `${rule}: ${en.summary}`);
        assert.match(en.summary, /the path to the backends is broken/, rule);
      }
    });

    test(`plan ${p.name}: a REJECT with an ICMP error: unreachable, "rejects"`, () => {
      const rule = `-A FORWARD -d ${p.endpoints[0]}/32 -j REJECT --reject-with icmp-host-prohibited`;
      const one = { ...p, endpoints: [p.endpoints[0]] };
      const eps = endpoints(one);
      const input = scenario({
        plan: one,
        eps,
        outputs: { ...calicoPod(one), ...connectsV(one, 'noroute', 'noroute'), ...dnsOk(one) },
        nodeEvidence: evidence(one, drop(0, rule), drop(1, rule)),
      });
      const { en } = both(input);
      assert.equal(en.code, 'backend-unreachable');
      assert.match(en.summary, /FORWARD line \d+ rejects the packets to/);
      assert.match(en.summary, /the pod's connect: unreachable/);
    });
  }
});

describe('internalTrafficPolicy Local without an endpoint on the pod node', () => {
  for (const p of PLANS) {
    const svc = service(p, { internalTrafficPolicy: 'Local' });
    const unplaced = endpoints(p).map(({ nodeName: _n, ...e }) => e);
    test(`plan ${p.name}: the API does not place its endpoints; the node's "has no local endpoints" DROP does`, () => {
      const dump = (n: number) => nodeDump(p, { svc, eps: endpoints(p), svcPackets: n });
      const input = scenario({
        plan: p,
        svc,
        eps: unplaced,
        outputs: { ...calicoPod(p), ...connectsV(p, 'timeout', 'ok'), ...dnsOk(p) },
        nodeEvidence: evidence(p, dump(0), dump(1)),
      });
      const { en } = both(input);
      assert.equal(en.code, 'no-endpoints');
      assert.match(en.summary, /internalTrafficPolicy Local and no ready endpoint/);
      assert.ok(en.evidence.some((e) => /internalTrafficPolicy Local without an endpoint on this node/.test(e.text)));
    });

    test(`plan ${p.name}: endpoints not placed and no node evidence: no guess that none is local`, () => {
      const input = scenario({
        plan: p,
        svc,
        eps: unplaced,
        outputs: { ...calicoPod(p), ...connectsV(p, 'ok', 'ok'), ...dnsOk(p) },
      });
      const { en } = both(input);
      assert.equal(en.code, 'ok', en.summary);
    });
  }
});

describe("a pod that is its own Service's only endpoint (hairpin)", () => {
  for (const p of PLANS) {
    const self = { ...p, endpoints: [p.podIP] };
    const eps = endpoints(self).map((e) => ({ ...e, nodeName: p.nodeName }));
    const dumps = (eps2: EndpointInfo[]) =>
      evidence(self, nodeDump(self, { eps: eps2, svcPackets: 0 }), nodeDump(self, { eps: eps2, svcPackets: 1 }));
    const own = {
      'route-endpoint': {
        exitCode: 0,
        stdout: `local ${p.podIP} dev lo table local src ${p.podIP} uid 0 \n    cache <local> \n`,
      },
    };
    test(`plan ${p.name}: the ClusterIP times out, the pod answers itself directly: hairpin`, () => {
      const input = scenario({
        plan: self,
        eps,
        pod: pod(p),
        outputs: { ...calicoPod(self), ...own, ...connectsV(self, 'timeout', 'ok'), ...dnsOk(self) },
        nodeEvidence: dumps(eps),
      });
      const { en, zh } = both(input);
      assert.equal(en.code, 'backend-unreachable');
      assert.match(en.summary, new RegExp(`only ready endpoint is pod ${p.svcNamespace}/${p.podName} itself`));
      assert.match(en.summary, /hairpin/);
      assert.match(zh.summary, /hairpin/);
      assert.match(en.nextSteps.join(' '), /hairpin/);
    });

    test(`plan ${p.name}: the same without the node's rules read: no claim that the node DNATs it back`, () => {
      const input = scenario({
        plan: self,
        eps,
        pod: pod(p),
        outputs: { ...calicoPod(self), ...own, ...connectsV(self, 'timeout', 'ok'), ...dnsOk(self) },
        nodeEvidence: { name: p.nodeName, error: 'exec timed out' },
      });
      const { en } = both(input);
      assert.ok(!/DNATed/.test(en.summary), en.summary);
      assert.match(en.summary, /the node's rules could not be read/);
      assert.match(en.nextSteps.join(' ') + en.summary, /hairpin/);
    });

    test(`plan ${p.name}: the ClusterIP answers: ok`, () => {
      const input = scenario({
        plan: self,
        eps,
        pod: pod(p),
        outputs: { ...calicoPod(self), ...own, ...connectsV(self, 'ok', 'ok'), ...dnsOk(self) },
        nodeEvidence: dumps(eps),
      });
      assert.equal(both(input).en.code, 'ok');
    });
  }
});

describe('the next steps of a pod without a DNS client name what it lacks', () => {
  test('tool-missing-dns.1 is not tool-missing.1, in both languages', () => {
    for (const lang of ['en', 'zh-CN'] as const) {
      const dns = t(lang, 'diagnose.next.tool-missing-dns.1', { pod: 'x' });
      assert.notEqual(dns, t(lang, 'diagnose.next.tool-missing.1', { pod: 'x' }));
      assert.match(dns, /nslookup/);
      assert.match(dns, /DNS/);
    }
  });
});

describe('a client in another namespace and the bare name of the Service', () => {
  for (const p of PLANS) {
    const elsewhere = pod(p, { namespace: 'tools' });
    const run = (short: Raw) =>
      both(
        scenario({
          plan: p,
          pod: elsewhere,
          outputs: { ...calicoPod(p), ...connectsV(p, 'ok', 'ok'), ...dnsOk(p), 'dns-short': short },
          nodeEvidence: evidence(p, nodeDump(p, { svcPackets: 0 }), nodeDump(p, { svcPackets: 1 })),
        }),
      );
    test(`plan ${p.name}: the bare name does not resolve there: ok, saying clients there must qualify it`, () => {
      const { en, zh } = run(nslookupNx(`${p.svcName}.tools.svc.${p.clusterDomain}`, '10.0.0.10'));
      assert.equal(en.code, 'ok');
      assert.match(en.summary, new RegExp(`from namespace tools its bare name ${p.svcName} does not resolve`));
      assert.match(en.summary, new RegExp(`must use ${p.svcName}\\.${p.svcNamespace}\\.`));
      assert.match(en.nextSteps[0], new RegExp(`call the Service ${p.svcName}\\.${p.svcNamespace}`));
      assert.match(zh.summary, /短名称/);
    });
    test(`plan ${p.name}: the bare name is another Service there: said with its address`, () => {
      const namesake = '10.0.77.7';
      const { en } = run(nslookupOk(`${p.svcName}.tools.svc.${p.clusterDomain}`, '10.0.0.10', namesake));
      assert.equal(en.code, 'ok');
      assert.match(
        en.summary,
        new RegExp(`bare name ${p.svcName} resolves to ${namesake.replace(/\./g, '\\.')}, another Service`),
      );
    });
    test(`plan ${p.name}: the same namespace plans no bare-name lookup`, () => {
      const input = scenario({ plan: p, outputs: { ...calicoPod(p), ...connectsV(p, 'ok', 'ok'), ...dnsOk(p) } });
      assert.ok(!input.checks.some((c) => c.id === 'dns-short'));
      assert.doesNotMatch(both(input).en.summary, /bare name/);
    });
  }
});

describe('a Service without endpoints: what its selector matches', () => {
  for (const p of PLANS) {
    const noEps = (n: number) => nodeDump(p, { eps: [], svcPackets: n });
    const run = (selected: DiagnoseInput['selected']) => {
      const input = scenario({
        plan: p,
        eps: [],
        outputs: { ...calicoPod(p), ...connectsV(p, 'refused', 'refused', []), ...dnsOk(p) },
        nodeEvidence: evidence(p, noEps(0), noEps(1)),
      });
      if (selected) input.selected = selected;
      return both(input).en;
    };
    test(`plan ${p.name}: a selector that matches no pod, pods that match but are no endpoints, no selector`, () => {
      const none = run({ selector: 'app=gone,tier=web', matching: 0, running: 0, ready: 0 });
      assert.equal(none.code, 'no-endpoints');
      assert.match(
        none.summary,
        new RegExp(`selector app=gone,tier=web matches no pod in namespace ${p.svcNamespace}`),
      );
      const pending = run({ selector: 'app=web', matching: 2, running: 0, ready: 0 });
      assert.match(pending.summary, /selector app=web matches 2 pods \(0 running\)/);
      assert.match(run({ matching: 0, running: 0, ready: 0 }).summary, /has no selector/);
      assert.doesNotMatch(run(undefined).summary, /selector/);
    });
  }
});
