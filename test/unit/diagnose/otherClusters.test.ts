// Verdicts on facts the seed lab never had: another DNS domain, a Service with one endpoint, a Service without
// endpoints whose REJECT counts the probe, a SERVFAIL, a UDP DNS port from a pod without a DNS client. Outputs are
// written here in the tools' own formats (see fixtures.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nodeCaptureChecks, nodeRulesCheck, serviceFamily } from '../../../src/core/diagnose/node';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { gatherFacts } from '../../../src/core/diagnose/verdict';
import { clusterDomainFromResolvConf } from '../../../src/core/diagnose/plan';
import {
  calicoPod,
  connects,
  counters,
  CURL_OK,
  nslookupNx,
  CURL_REFUSED,
  CURL_TIMEOUT,
  routeGet,
  dnsName,
  dnsOk,
  endpoints,
  evidence,
  nodeDump,
  PLAN_A,
  PLAN_B,
  scenario,
  service,
  type AddressPlan,
  both,
  PLANS,
  nftKubeProxyHead,
} from './fixtures';

describe("the cluster's DNS domain comes from the pod's resolv.conf", () => {
  test('ClusterFirst search lists, whatever the domain', () => {
    const rc = (ns: string, d: string) =>
      `search ${ns}.svc.${d} svc.${d} ${d}\nnameserver 10.43.0.10\noptions ndots:5\n`;
    assert.equal(clusterDomainFromResolvConf(rc('team-a', 'corp.internal'), 'team-a'), 'corp.internal');
    assert.equal(clusterDomainFromResolvConf(rc('default', 'cluster.local'), 'default'), 'cluster.local');
    assert.equal(clusterDomainFromResolvConf(rc('prod-eu', 'k8s.example.com.'), 'prod-eu'), 'k8s.example.com');
    // The node's own search domains follow the cluster's (kubelet appends the host's list).
    const withHost = `search shop.svc.kube.acme shop svc.kube.acme kube.acme eu-west-1.compute.internal\nnameserver 172.30.0.10\n`;
    assert.equal(clusterDomainFromResolvConf(withHost, 'shop'), 'kube.acme');
    // Read from another namespace's pod: the svc.<domain> + <domain> pair still says it.
    assert.equal(clusterDomainFromResolvConf(rc('other', 'corp.internal'), 'team-a'), 'corp.internal');
  });

  test('no cluster search list (dnsPolicy Default, custom dnsConfig): unknown', () => {
    assert.equal(clusterDomainFromResolvConf('nameserver 1.1.1.1\nsearch example.com\n', 'default'), undefined);
    assert.equal(clusterDomainFromResolvConf('', 'default'), undefined);
    assert.equal(clusterDomainFromResolvConf('search a.svc.$(reboot) svc.$(reboot) $(reboot)\n', 'a'), undefined);
  });
});

describe('a Service with one endpoint', () => {
  for (const p of PLANS) {
    test(`plan ${p.name}: the endpoint answered: the report says so, not that it failed`, () => {
      const one = { ...p, endpoints: [p.endpoints[0]] };
      const input = scenario({
        plan: one,
        outputs: { ...calicoPod(one), ...connects(one, 'ok', 'ok'), ...dnsOk(one) },
        nodeEvidence: evidence(one, nodeDump(one, { svcPackets: 0 }), nodeDump(one, { svcPackets: 1 })),
      });
      const { en, zh } = both(input);
      assert.equal(en.code, 'ok');
      const summary = en.evidence.find((e) => e.source === 'connect-endpoint');
      assert.equal(summary?.text, 'The only endpoint probed answered a direct connect.');
      assert.ok(!en.evidence.some((e) => /failed/.test(e.text)), JSON.stringify(en.evidence));
      assert.ok(zh.evidence.some((e) => e.text === '探测的 1 个端点都接受了直接连接。'));
    });
  }

  test('all of several endpoints answered', () => {
    const p = PLAN_B;
    const input = scenario({
      plan: p,
      outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
      nodeEvidence: evidence(p, nodeDump(p, { svcPackets: 0 }), nodeDump(p, { svcPackets: 1 })),
    });
    const { en } = both(input);
    assert.ok(
      en.evidence.some((e) => e.text === `All ${p.endpoints.length} endpoints probed answered a direct connect.`),
    );
  });
});

describe('a Service without endpoints: the REJECT rule is the counter', () => {
  for (const p of PLANS) {
    test(`plan ${p.name}: the filter REJECT counted the probe`, () => {
      const noEps = (n: number) => nodeDump(p, { eps: [], svcPackets: n });
      const input = scenario({
        plan: p,
        eps: [],
        outputs: { ...calicoPod(p), ...connects(p, 'refused', 'refused') },
        nodeEvidence: evidence(p, noEps(2), noEps(3)),
      });
      const { en } = both(input);
      assert.equal(en.code, 'no-endpoints');
      const counter = en.evidence.find((e) => e.source === 'node-rules');
      assert.ok(counter, JSON.stringify(en.evidence));
      assert.doesNotMatch(counter.text, /carry no packet counters|needs `-c`/);
      assert.match(counter.text, /KUBE-SERVICES line \d+ .*2 packets before the probe, 3 after/);
      assert.equal(counter.before, 2);
      assert.equal(counter.after, 3);
      assert.match(counter.output ?? '', /REJECT/);
    });
  }
});

describe('DNS answers read by their rcode', () => {
  test("`server can't find NAME: SERVFAIL` is a server failure, not NXDOMAIN", () => {
    const p = PLAN_B;
    const name = dnsName(p);
    const input = scenario({
      plan: p,
      outputs: {
        ...calicoPod(p),
        ...connects(p, 'ok', 'ok'),
        dns: {
          exitCode: 1,
          stdout: `;; Got SERVFAIL reply from 172.30.0.10\nServer:\t\t172.30.0.10\nAddress:\t172.30.0.10#53\n\n** server can't find ${name}: SERVFAIL\n\n`,
        },
      },
      nodeEvidence: evidence(p, nodeDump(p, { svcPackets: 0 }), nodeDump(p, { svcPackets: 1 })),
    });
    const { en } = both(input);
    assert.equal(en.code, 'dns-failure');
    assert.match(en.summary, /SERVFAIL|server failure/i);
    assert.doesNotMatch(en.summary, /NXDOMAIN/);
  });
});

describe('a UDP DNS port whose servers do not answer', () => {
  test('backend-unreachable says the DNS pods do not answer, not that a path is broken', () => {
    const p = { ...PLAN_A, port: 53, targetPort: 53, endpoints: [PLAN_A.endpoints[1]] };
    const svc = service(p, {
      name: 'dns',
      namespace: 'infra',
      ports: [{ name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 }],
    });
    const eps = endpoints(p).map((e) => ({ ...e, protocol: 'UDP' as const }));
    const silent = {
      exitCode: 1,
      stdout: ';; connection timed out; no servers could be reached\n\n',
      durationMs: 5012,
    };
    const outputs = {
      ...calicoPod(p),
      'connect-clusterip': silent,
      [`connect-endpoint:${p.endpoints[0]}:53`]: silent,
    };
    const dump = (n: number) => nodeDump(p, { svc, eps, svcPackets: n });
    const input = scenario({ plan: p, svc, eps, outputs, nodeEvidence: evidence(p, dump(0), dump(3)) });
    const { en } = both(input);
    assert.equal(en.code, 'backend-unreachable', en.summary);
    assert.match(en.summary, /does not answer a query sent to it directly either \(timed out, on node peer-0\)/);
    assert.doesNotMatch(en.summary, /path to the backend is broken|do(es)? not accept connections/);
  });
});

describe('a UDP DNS port from a pod without a DNS client', () => {
  test('tool-missing names the DNS client it needs, not a TCP tool the pod has', () => {
    const p = PLAN_A;
    const svc = service(p, {
      name: 'kube-dns',
      namespace: 'kube-system',
      ports: [{ name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 }],
    });
    const eps = endpoints({ ...p, targetPort: 53 }).map((e) => ({ ...e, protocol: 'UDP' as const }));
    const input = scenario({ plan: p, svc, eps, tools: ['wget', 'ip', 'cat'], outputs: { ...calicoPod(p) } });
    const { en, zh } = both(input);
    assert.equal(en.code, 'tool-missing');
    assert.match(en.summary, /no DNS client .*nslookup/);
    assert.doesNotMatch(en.summary, /curl, wget, nc and bash/);
    assert.match(zh.summary, /DNS 客户端/);
    assert.match(en.nextSteps[1], /has nslookup\.$/);
    assert.match(zh.nextSteps[1], /nslookup/);
  });
});

describe('endpoints on another node the pod cannot reach', () => {
  /** The pod's node has no working path to `far` (say a broken tunnel): direct connects to it time out. */
  const farOutputs = (p: AddressPlan, clusterIP: 'ok' | 'timeout', far: string[]) => {
    const out = { ...calicoPod(p), ...dnsOk(p) };
    out['connect-clusterip'] = clusterIP === 'ok' ? CURL_OK(p.clusterIP) : CURL_TIMEOUT(p.clusterIP, p.port);
    for (const ip of p.endpoints)
      out[`connect-endpoint:${ip}:${p.targetPort}`] = far.includes(ip) ? CURL_TIMEOUT(ip, p.targetPort) : CURL_OK(ip);
    out['route-endpoint'] = { exitCode: 0, stdout: routeGet(p.endpoints[0], '169.254.1.1', p.podIface, p.podIP) };
    return out;
  };

  for (const p of PLANS) {
    test(`plan ${p.name}: every endpoint times out -> backend-unreachable, the path named, with the nodes`, () => {
      const input = scenario({
        plan: p,
        outputs: farOutputs(p, 'timeout', p.endpoints),
        nodeEvidence: counters(p, 7, 8),
      });
      const { en, zh } = both(input);
      assert.equal(en.code, 'backend-unreachable');
      assert.match(en.summary, /the path to the backends? is broken/);
      assert.ok(en.summary.includes('timed out'), en.summary);
      const nodes = p.endpoints.map((_, i) => `peer-${i}`).join(', ');
      assert.ok(en.summary.includes(nodes), en.summary);
      assert.doesNotMatch(en.summary, /do not accept connections/);
      assert.ok(en.evidence.some((e) => e.source === 'route-endpoint' && e.text.includes(p.endpoints[0])));
      assert.ok(zh.summary.includes('路径'), zh.summary);
    });

    test(`plan ${p.name}: the ClusterIP answered once, one endpoint times out -> backend-unreachable, not ok`, () => {
      const far = p.endpoints[p.endpoints.length - 1];
      const input = scenario({ plan: p, outputs: farOutputs(p, 'ok', [far]), nodeEvidence: counters(p, 7, 8) });
      const { en } = both(input);
      assert.equal(en.code, 'backend-unreachable', en.summary);
      assert.ok(en.summary.startsWith(`${p.clusterIP}:${p.port} answered this time, but `), en.summary);
      assert.ok(en.summary.includes(`peer-${p.endpoints.length - 1}`), en.summary);
      assert.ok(en.evidence.some((e) => e.source === `connect-endpoint:${far}:${p.targetPort}`));
    });
  }

  test('a not-ready endpoint that does not answer does not spoil a working Service', () => {
    const p = PLAN_B;
    const eps = endpoints(p).map((e, i) => (i === 0 ? { ...e, ready: false, serving: false } : e));
    const input = scenario({
      plan: p,
      eps,
      outputs: farOutputs(p, 'ok', [p.endpoints[0]]),
      nodeEvidence: counters(p, 7, 8),
    });
    assert.equal(both(input).en.code, 'ok');
  });
});

describe('an IPv6 ClusterIP (single stack v6, or v6 first in dual stack)', () => {
  const V6: AddressPlan = {
    ...PLAN_B,
    name: 'v6',
    serviceCidr: 'fd00:10:96::/112',
    clusterCidr: 'fd00:10:244::/56',
    clusterIP: 'fd00:10:96::4a2',
    endpoints: ['fd00:10:244:2::1c', 'fd00:10:244:3::7'],
    podIP: 'fd00:10:244:1::2f',
    nodeIP: 'fd00:172:20::b',
    podCIDR: 'fd00:10:244:1::/64',
  };

  test("the node's rules are read with ip6tables-save: iptables-save holds only IPv4 rules", () => {
    const svc = service(V6);
    assert.equal(serviceFamily(svc), 6);
    assert.equal(serviceFamily(service(PLAN_A)), 4);
    assert.deepEqual(nodeCaptureChecks(undefined, 1000, 6)[0].argv, ['ip6tables-save', '-c']);
    assert.deepEqual(nodeRulesCheck('iptables', 1000, 6).argv, ['ip6tables-save', '-c']);
    assert.deepEqual(nodeRulesCheck('nftables', 1000, 6).argv, ['nft', 'list', 'ruleset']);
    assert.deepEqual(nodeRulesCheck('iptables', 1000).argv, ['iptables-save', '-c']);
  });

  test('refused after DNAT in the ip6tables rules: backend-unreachable, the expected rule in IPv6', () => {
    const p = V6;
    const svc = service(p);
    const eps = endpoints(p);
    const dump = (n: number) =>
      generateIptablesRestore(
        {
          services: [svc],
          endpoints: { [`${svc.namespace}/${svc.name}`]: { [svc.ports[0].name]: eps } },
          endpointSources: {},
          issues: [],
          warnings: [],
        },
        { ipFamily: 6, clusterCidr: p.clusterCidr, nodeName: p.nodeName },
      )
        .text.split('\n')
        .map((l) => (l.startsWith('-A ') ? `[${l.includes(p.clusterIP) ? n : 2}:${n * 80}] ${l}` : l))
        .join('\n');
    const gw = 'fe80::ecee:eeff:feee:eeee';
    const outputs = {
      'connect-clusterip': CURL_REFUSED(p.clusterIP, p.port),
      ...Object.fromEntries(
        p.endpoints.map((ip) => [`connect-endpoint:[${ip}]:${p.targetPort}`, CURL_REFUSED(ip, p.targetPort)]),
      ),
      'route-clusterip': {
        exitCode: 0,
        stdout: `${p.clusterIP} from :: via ${gw} dev ${p.podIface} proto static src ${p.podIP} metric 1024 pref medium\n`,
      },
      addresses: {
        exitCode: 0,
        stdout: `4: ${p.podIface}    inet6 ${p.podIP}/128 scope global \\       valid_lft forever preferred_lft forever\n`,
      },
    };
    const input = scenario({
      plan: p,
      outputs,
      nodeEvidence: evidence(p, dump(3), dump(4), {
        addresses: `2: eth0    inet6 ${p.nodeIP}/64 scope global \\       valid_lft forever preferred_lft forever\n`,
      }),
    });
    const { en } = both(input);
    assert.equal(en.code, 'backend-unreachable', en.summary);
    assert.ok(en.summary.startsWith(`[${p.clusterIP}]:${p.port} is DNATed on the node`), en.summary);
    assert.ok(en.evidence.some((e) => e.source === 'trace' && e.text.includes(`[${p.endpoints[0]}]:${p.targetPort}`)));
  });

  test('a dual-stack node in nftables mode: the ip6 table of `nft list ruleset` is read for the IPv6 Service', () => {
    const p = V6;
    /** kube-proxy's nftables layout for one family, written here; `services`: [cluster IP, endpoint IPs]. */
    const table = (family: 'ip' | 'ip6', services: [string, string[]][]) => {
      const host = (ip: string) => (family === 'ip6' ? `[${ip}]` : ip);
      const chains: string[] = [];
      const elements = services.map(([vip, eps], i) => {
        const svc = `service-SVC${i}ABCD-shop/s${i}/tcp/http`;
        const ep = (ip: string) => `endpoint-EP${i}ABCDE-shop/s${i}/tcp/http__${host(ip)}/${p.targetPort}`;
        chains.push(
          `\tchain ${svc} {`,
          `\t\tnumgen random mod ${eps.length} vmap { ${eps.map((ip, k) => `${k} : goto ${ep(ip)}`).join(', ')} }`,
          '\t}',
          ...eps.flatMap((ip) => [
            `\tchain ${ep(ip)} {`,
            `\t\tmeta l4proto tcp dnat to ${host(ip)}:${p.targetPort}`,
            '\t}',
          ]),
        );
        return `${vip} . tcp . ${p.port} : goto ${svc}`;
      });
      return [...nftKubeProxyHead(family, elements), ...chains, '}'].join('\n');
    };
    // The ip6 table first and smaller, as on a node whose IPv4 Services outnumber its IPv6 ones.
    const ruleset = [
      table('ip6', [[p.clusterIP, p.endpoints]]),
      table('ip', [
        ['10.43.0.10', ['10.42.0.5', '10.42.1.6']],
        ['10.43.7.7', ['10.42.2.7', '10.42.3.8']],
        ['10.43.9.9', ['10.42.4.9', '10.42.5.10']],
      ]),
      '',
    ].join('\n');
    const outputs = {
      'connect-clusterip': CURL_OK(p.clusterIP),
      ...Object.fromEntries(p.endpoints.map((ip) => [`connect-endpoint:[${ip}]:${p.targetPort}`, CURL_OK(ip)])),
      ...dnsOk(p),
    };
    const input = scenario({
      plan: p,
      outputs,
      nodeEvidence: evidence(p, ruleset, ruleset, {
        mode: 'nftables',
        addresses: `2: eth0    inet6 ${p.nodeIP}/64 scope global \\       valid_lft forever preferred_lft forever\n`,
      }),
    });
    const facts = gatherFacts(input);
    assert.equal(facts.trace.state, 'dnat');
    assert.deepEqual(
      facts.trace.dnat.map((d) => d.target).sort(),
      p.endpoints.map((ip) => `[${ip}]:${p.targetPort}`).sort(),
    );
    const { en } = both(input);
    assert.equal(en.code, 'ok', en.summary);
  });

  test('refused with no node rules read: the summary does not claim the node DNATs it', () => {
    const p = V6;
    const outputs = {
      'connect-clusterip': CURL_REFUSED(p.clusterIP, p.port),
      ...Object.fromEntries(
        p.endpoints.map((ip) => [`connect-endpoint:[${ip}]:${p.targetPort}`, CURL_REFUSED(ip, p.targetPort)]),
      ),
    };
    const input = scenario({ plan: p, outputs, nodeEvidence: { name: p.nodeName, error: 'exec timed out' } });
    const { en, zh } = both(input);
    assert.equal(en.code, 'backend-unreachable', en.summary);
    assert.ok(
      en.summary.startsWith(
        `[${p.clusterIP}]:${p.port} was not checked on the node (its rules could not be read), but`,
      ),
      en.summary,
    );
    assert.ok(!en.summary.includes('DNATed on the node'), en.summary);
    assert.ok(zh.summary.includes('未能在节点上核对'), zh.summary);
  });
});

describe('a headless Service (clusterIP None): its name and its pods decide', () => {
  for (const p of PLANS) {
    const svc = service(p, { clusterIP: 'None', clusterIPs: ['None'] });
    const resolved = (addrs: string[]) => ({
      exitCode: 0,
      stdout: `Server:\t\t10.0.0.10\nAddress:\t10.0.0.10#53\n\nName:\t${dnsName(p)}\n${addrs.map((a) => `Address: ${a}`).join(`\nName:\t${dnsName(p)}\n`)}\n\n`,
    });
    const direct = (kind: 'ok' | 'timeout', only?: string) =>
      Object.fromEntries(
        p.endpoints.map((ip) => [
          `connect-endpoint:${ip}:${p.targetPort}`,
          kind === 'timeout' && (!only || only === ip) ? CURL_TIMEOUT(ip, p.targetPort) : CURL_OK(ip),
        ]),
      );

    test(`plan ${p.name}: the name resolves to the endpoints and they answer -> ok`, () => {
      const input = scenario({
        plan: p,
        svc,
        outputs: { ...calicoPod(p), ...direct('ok'), dns: resolved(p.endpoints) },
      });
      const { en } = both(input);
      assert.equal(en.code, 'ok', en.summary);
      assert.ok(en.summary.includes(`headless ${p.svcNamespace}/${p.svcName} works`), en.summary);
      assert.doesNotMatch(en.summary, /None/);
    });

    test(`plan ${p.name}: endpoints the client may not list are no DNS mismatch: its name resolving is not dns-failure`, () => {
      const input = scenario({
        plan: p,
        svc,
        eps: [],
        endpointsKnown: false,
        outputs: { ...calicoPod(p), dns: resolved(p.endpoints) },
      });
      const { en } = both(input);
      assert.notEqual(en.code, 'dns-failure', en.summary);
    });

    test(`plan ${p.name}: a pod with no tool to connect with -> tool-missing naming the Service, as for a ClusterIP`, () => {
      const input = scenario({
        plan: p,
        svc,
        tools: ['ip', 'nslookup', 'cat'],
        outputs: { ...calicoPod(p), dns: resolved(p.endpoints) },
      });
      const { en, zh } = both(input);
      assert.equal(en.code, 'tool-missing', en.summary);
      assert.equal(zh.code, 'tool-missing');
      assert.ok(en.summary.includes(`${dnsName(p)}:${p.port}`), en.summary);
      assert.doesNotMatch(en.summary, /kube-proxy writes no rule/);
    });

    test(`plan ${p.name}: no endpoints -> no-endpoints, said for a headless Service`, () => {
      const input = scenario({
        plan: p,
        svc,
        eps: [],
        outputs: { ...calicoPod(p), dns: nslookupNx(dnsName(p), '10.0.0.10') },
      });
      const { en } = both(input);
      assert.equal(en.code, 'no-endpoints');
      assert.match(en.summary, /^Headless Service .* resolves to no pod/);
    });

    test(`plan ${p.name}: an endpoint times out -> backend-unreachable naming its node`, () => {
      const far = p.endpoints[p.endpoints.length - 1];
      const input = scenario({
        plan: p,
        svc,
        outputs: { ...calicoPod(p), ...direct('timeout', far), dns: resolved(p.endpoints) },
      });
      const { en } = both(input);
      assert.equal(en.code, 'backend-unreachable', en.summary);
      assert.ok(en.summary.includes(`on node peer-${p.endpoints.length - 1}`), en.summary);
    });

    test(`plan ${p.name}: the name does not resolve -> dns-failure`, () => {
      const input = scenario({
        plan: p,
        svc,
        outputs: { ...calicoPod(p), ...direct('ok'), dns: nslookupNx(dnsName(p), '10.0.0.10') },
      });
      const { en } = both(input);
      assert.equal(en.code, 'dns-failure', en.summary);
      assert.ok(en.summary.includes(dnsName(p)), en.summary);
    });
  }
});
