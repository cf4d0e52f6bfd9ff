import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideVerdict, gatherFacts } from '../../../src/core/diagnose/verdict';
import { classifyCheck } from '../../../src/core/diagnose/classify';
import { toolProbeCheck } from '../../../src/core/diagnose/plan';
import { VERDICT_CODES } from '../../../src/core/diagnose/types';
import { catalogs } from '../../../src/core/i18n/catalog';
import {
  besideNodePod,
  bridgePod,
  calicoPod,
  connects,
  counters,
  dnsName,
  dnsOk,
  endpoints,
  evidence,
  ipOAddr,
  nodeAddresses,
  nodeDump,
  nslookupNx,
  NSLOOKUP_TIMEOUT,
  PLAN_A,
  PLAN_B,
  routeGet,
  scenario,
  secondInterfacePod,
  service,
  toolsProbe,
  type AddressPlan,
  both,
  PLANS,
  nftKubeProxyHead,
} from './fixtures';

describe('seed case: a second interface takes the ClusterIP to another gateway', () => {
  for (const p of PLANS) {
    test(`plan ${p.name}: default route via the second interface`, () => {
      const input = scenario({
        plan: p,
        outputs: { ...secondInterfacePod(p), ...connects(p, 'timeout', 'ok'), dns: NSLOOKUP_TIMEOUT },
        nodeEvidence: counters(p, 7, 7),
      });
      const { en, zh } = both(input);
      assert.equal(en.code, 'pod-route-bypasses-node');
      assert.equal(
        en.summary,
        `The pod's route to ${p.clusterIP} goes via ${p.extraGateway} on ${p.extraIface}, which is not this node; the node's KUBE-SERVICES rule for ${p.clusterIP}:${p.port} counted 0 packets during the probe: kube-proxy's rules never saw it.`,
      );
      assert.ok(zh.summary.includes(p.extraGateway) && zh.summary.includes('0 个包'), zh.summary);
      const route = en.evidence.find((e) => e.source === 'route-clusterip');
      assert.deepEqual(route?.argv, ['ip', 'route', 'get', p.clusterIP]);
      assert.ok(route?.output?.includes(`via ${p.extraGateway} dev ${p.extraIface}`));
      const counter = en.evidence.find((e) => e.source === 'node-rules');
      assert.equal(counter?.before, 7);
      assert.equal(counter?.after, 7);
      assert.ok(counter?.line && counter.line > 0);
      assert.match(counter?.output ?? '', /-A KUBE-SERVICES .*--dport/);
      assert.ok(
        en.evidence.some(
          (e) => e.source === 'addresses' && e.text.includes(p.podIface) && e.text.includes(p.extraIface),
        ),
      );
      assert.ok(en.evidence.some((e) => e.text.includes(`${p.extraGateway} is not an address of node ${p.nodeName}`)));
    });

    test(`plan ${p.name}: only the Service CIDR is routed to the other gateway`, () => {
      const input = scenario({
        plan: p,
        outputs: { ...secondInterfacePod(p, true), ...connects(p, 'timeout', 'ok'), ...dnsOk(p) },
        nodeEvidence: counters(p, 0, 0),
      });
      const v = both(input).en;
      assert.equal(v.code, 'pod-route-bypasses-node');
      assert.match(v.summary, new RegExp(`via ${p.extraGateway.replace(/\./g, '\\.')} on ${p.extraIface}`));
    });
  }

  test('without node evidence the route alone decides, and the summary says so', () => {
    const input = scenario({
      plan: PLAN_B,
      outputs: { ...secondInterfacePod(PLAN_B), ...connects(PLAN_B, 'timeout', 'ok') },
    });
    const v = both(input).en;
    assert.equal(v.code, 'pod-route-bypasses-node');
    assert.ok(v.summary.endsWith(": kube-proxy's rules on the node never see the packet."), v.summary);
  });

  test('counters that moved (other clients) do not hide the route', () => {
    const input = scenario({
      outputs: { ...secondInterfacePod(PLAN_A), ...connects(PLAN_A, 'timeout', 'ok') },
      nodeEvidence: counters(PLAN_A, 10, 14),
    });
    const v = both(input).en;
    assert.equal(v.code, 'pod-route-bypasses-node');
    assert.match(v.summary, /counted 4 packets during the probe/);
  });

  test('the /proc fallback (no ip): /proc/net/route and fib_trie decide the same', () => {
    const p = PLAN_A;
    const hex = (ip: string) =>
      ip
        .split('.')
        .map((o) => Number(o).toString(16).padStart(2, '0').toUpperCase())
        .reverse()
        .join('');
    const procRoute = [
      'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT                                                       ',
      `${p.extraIface}\t00000000\t${hex(p.extraGateway)}\t0003\t0\t0\t0\t00000000\t0\t0\t0                                                                               `,
      `${p.podIface}\t${hex('10.42.0.0')}\t${hex('169.254.1.1')}\t0003\t0\t0\t0\t${hex('255.255.0.0')}\t0\t0\t0`,
      `${p.podIface}\t${hex('169.254.1.1')}\t00000000\t0005\t0\t0\t0\tFFFFFFFF\t0\t0\t0`,
      `${p.extraIface}\t${hex('198.51.100.0')}\t00000000\t0001\t0\t0\t0\t${hex('255.255.255.0')}\t0\t0\t0`,
      '',
    ].join('\n');
    const fib = `Main:\n  +-- 0.0.0.0/0 3 0 5\n     |-- 0.0.0.0\n        /0 universe UNICAST\n     |-- ${p.podIP}\n        /32 host LOCAL\n     |-- ${p.extraIP}\n        /32 host LOCAL\nLocal:\n  +-- 0.0.0.0/0 3 0 5\n`;
    const input = scenario({
      plan: p,
      tools: ['wget', 'cat'],
      outputs: {
        routes: { exitCode: 0, stdout: procRoute },
        addresses: { exitCode: 0, stdout: fib },
        'connect-clusterip': {
          exitCode: 1,
          stdout: '',
          stderr: `Connecting to ${p.clusterIP}:80 (${p.clusterIP}:80)\nwget: download timed out\n`,
        },
        'resolv-conf': { exitCode: 0, stdout: 'nameserver 10.96.0.10\n' },
      },
      nodeEvidence: counters(p, 2, 2),
    });
    assert.ok(!input.checks.some((c) => c.argv[0] === 'ip'));
    const v = both(input).en;
    assert.equal(v.code, 'pod-route-bypasses-node');
    assert.match(v.summary, new RegExp(`goes via ${p.extraGateway.replace(/\./g, '\\.')} on ${p.extraIface}`));
    assert.ok(v.evidence.some((e) => e.text.includes('/proc/net/route')));
  });

  test('no route at all: the packet never leaves the pod', () => {
    const p = PLAN_B;
    const input = scenario({
      plan: p,
      outputs: {
        ...calicoPod(p),
        'route-clusterip': { exitCode: 2, stdout: '', stderr: 'RTNETLINK answers: Network is unreachable\n' },
        ...connects(p, 'refused', 'ok'),
      },
    });
    const v = both(input).en;
    assert.equal(v.code, 'pod-route-bypasses-node');
    assert.match(v.summary, /no usable route to 172\.30\.44\.5 \(Network is unreachable\)/);
  });
});

describe('macvlan / ipvlan: the pod sits beside the node', () => {
  test('plan A: macvlan eth0 on the node network, gateway = the router', () => {
    const p = PLAN_A;
    const input = scenario({
      plan: p,
      outputs: { ...besideNodePod(p, 'macvlan bridge', '172.20.5.40'), ...connects(p, 'timeout', 'timeout') },
      nodeEvidence: counters(p, 3, 3),
    });
    const v = both(input).en;
    assert.equal(v.code, 'pod-route-bypasses-node');
    assert.match(v.summary, /via 172\.20\.5\.1 on eth0, a macvlan interface/);
    assert.ok(
      v.evidence.some(
        (e) =>
          e.source === 'links' &&
          /macvlan interface \(mode bridge\)/.test(e.text) &&
          e.argv?.join(' ') === 'ip -d link',
      ),
    );
  });

  test('plan B: ipvlan l2 without node evidence (the link kind decides)', () => {
    const p = PLAN_B;
    const input = scenario({
      plan: p,
      pod: {
        namespace: p.svcNamespace,
        name: p.podName,
        ip: '10.10.8.77',
        ips: ['10.10.8.77'],
        nodeName: p.nodeName,
        hostNetwork: false,
      },
      outputs: { ...besideNodePod(p, 'ipvlan l2', '10.10.8.77'), ...connects(p, 'timeout', 'ok') },
    });
    const v = both(input).en;
    assert.equal(v.code, 'pod-route-bypasses-node');
    assert.match(v.summary, /ipvlan/);
  });

  test('ipvlan l3s with an on-link default route', () => {
    const p = PLAN_B;
    const input = scenario({
      plan: p,
      outputs: { ...besideNodePod(p, 'ipvlan l3s', '10.10.8.78', true), ...connects(p, 'timeout', 'ok') },
      nodeEvidence: counters(p, 0, 0),
    });
    const v = both(input).en;
    assert.equal(v.code, 'pod-route-bypasses-node');
    assert.match(v.summary, /leaves directly on ens-pod \(ipvlan\)/);
  });

  test('a macvlan pod whose Service CIDR is routed back through the node is fine', () => {
    const p = PLAN_A;
    const out = besideNodePod(p, 'macvlan bridge', '172.20.5.40');
    out['route-clusterip'] = { exitCode: 0, stdout: routeGet(p.clusterIP, p.nodeIP, p.podIface, '172.20.5.40') };
    const input = scenario({
      plan: p,
      outputs: { ...out, ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
      nodeEvidence: counters(p, 3, 4),
    });
    assert.equal(both(input).en.code, 'ok');
  });
});

describe('healthy networks give ok', () => {
  for (const p of PLANS) {
    test(`plan ${p.name}: Calico-style 169.254.1.1 over a veth`, () => {
      const input = scenario({
        plan: p,
        outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
        nodeEvidence: counters(p, 120, 121),
      });
      const { en, zh } = both(input);
      assert.equal(en.code, 'ok');
      assert.equal(
        en.summary,
        `From pod ${p.svcNamespace}/${p.podName}, ${p.svcNamespace}/${p.svcName} answers on ${p.clusterIP}:${p.port}, and its name ${dnsName(p)} resolves.`,
      );
      assert.ok(zh.summary.startsWith('从 Pod'));
      assert.ok(en.evidence.some((e) => /proxy ARP/.test(e.text)));
    });

    test(`plan ${p.name}: bridge style (gateway = the node's bridge address)`, () => {
      const ev = counters(p, 0, 1, {
        addresses: nodeAddresses(p, [
          `5: ${p.bridgeIface}    inet ${p.bridgeIP}/24 brd ${p.bridgeIP.replace(/\d+$/, '255')} scope global ${p.bridgeIface}\\       valid_lft forever preferred_lft forever`,
        ]),
      });
      const input = scenario({
        plan: p,
        outputs: { ...bridgePod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
        nodeEvidence: ev,
      });
      const v = both(input).en;
      assert.equal(v.code, 'ok');
      assert.ok(v.evidence.some((e) => e.text.includes(`${p.bridgeIP} is an address of node`)));
    });

    test(`plan ${p.name}: bridge style without node capture (the pod CIDR places the gateway)`, () => {
      const input = scenario({ plan: p, outputs: { ...bridgePod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) } });
      const v = both(input).en;
      assert.equal(v.code, 'ok');
      assert.ok(v.evidence.some((e) => e.text.includes(`pod CIDR ${p.podCIDR}`)));
    });
  }

  test('a gateway that is the node address (ptp style)', () => {
    const p = PLAN_B;
    const out = calicoPod(p);
    out['route-clusterip'] = { exitCode: 0, stdout: routeGet(p.clusterIP, p.nodeIP, p.podIface, p.podIP) };
    const input = scenario({
      plan: p,
      outputs: { ...out, ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
      nodeEvidence: counters(p, 1, 2),
    });
    assert.equal(both(input).en.code, 'ok');
  });

  test('Calico-style route, slow service, connect ok: ok even when the counters did not move (conntrack reuse)', () => {
    const p = PLAN_A;
    const input = scenario({
      plan: p,
      outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
      nodeEvidence: counters(p, 5, 5),
    });
    assert.equal(both(input).en.code, 'ok');
  });

  test('a healthy route never fires the bypass, whatever the connect does', () => {
    for (const p of PLANS) {
      for (const pod of [calicoPod(p), bridgePod(p)]) {
        for (const c of ['timeout', 'refused'] as const) {
          const v = decideVerdict(
            scenario({ plan: p, outputs: { ...pod, ...connects(p, c, c) }, nodeEvidence: counters(p, 2, 2) }),
            'en',
          );
          assert.notEqual(v.code, 'pod-route-bypasses-node', `${p.name} ${c}: ${v.summary}`);
        }
      }
    }
  });
});

describe('node rules', () => {
  for (const p of PLANS) {
    test(`plan ${p.name}: the node has no rule for the Service (stale) -> clusterip-dnat-missing naming the chain`, () => {
      const stale = nodeDump(p, { omitService: true });
      const input = scenario({
        plan: p,
        outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'ok') },
        nodeEvidence: evidence(p, stale, stale),
      });
      const v = both(input).en;
      assert.equal(v.code, 'clusterip-dnat-missing');
      assert.match(
        v.summary,
        new RegExp(
          `^The node's rules do not DNAT ${p.clusterIP.replace(/\./g, '\\.')}:${p.port}: there is no KUBE-SERVICES rule for it \\(kube-proxy would write one jumping to KUBE-SVC-[A-Z0-9]{16}\\)\\.$`,
        ),
      );
      const expected = v.evidence.find((e) => e.text.startsWith('kube-proxy would write'));
      assert.ok(expected?.text.includes(`-d ${p.clusterIP}`), expected?.text);
      assert.ok(v.evidence.some((e) => e.source === 'trace' && /no path is DNATed/.test(e.text)));
    });
  }

  test('the node still rejects the Service as endpoint-less while the API lists ready endpoints', () => {
    const p = PLAN_A;
    const dump = nodeDump(p, { eps: [] });
    const input = scenario({
      plan: p,
      outputs: { ...calicoPod(p), ...connects(p, 'refused', 'ok') },
      nodeEvidence: evidence(p, dump, dump),
    });
    const v = both(input).en;
    assert.equal(v.code, 'clusterip-dnat-missing');
    assert.match(
      v.summary,
      /still treat it as a Service without endpoints \(line \d+\), while the API lists 2 ready endpoint/,
    );
  });

  test('the node DNATs to endpoints the API no longer lists', () => {
    const p = PLAN_B;
    const old = nodeDump(p, { eps: endpoints(p, true, ['100.65.77.1']) });
    const input = scenario({
      plan: p,
      outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'ok') },
      nodeEvidence: evidence(p, old, old),
    });
    const v = both(input).en;
    assert.equal(v.code, 'clusterip-dnat-missing');
    assert.match(v.summary, /they send it to 100\.65\.77\.1:9443, which the API does not list/);
  });

  test('DNAT happened, counters moved, endpoints refuse directly too -> backend-unreachable', () => {
    for (const p of PLANS) {
      const input = scenario({
        plan: p,
        outputs: { ...calicoPod(p), ...connects(p, 'refused', 'refused') },
        nodeEvidence: counters(p, 40, 41),
      });
      const v = both(input).en;
      assert.equal(v.code, 'backend-unreachable', v.summary);
      const probed =
        p.endpoints.length === 1 ? 'the only endpoint' : `${p.endpoints.length} of ${p.endpoints.length} endpoints`;
      assert.ok(v.summary.includes(`but ${probed} probed also fail`), v.summary);
      assert.ok(v.evidence.some((e) => e.source.startsWith('connect-endpoint:') && e.argv?.[0] === 'curl'));
    }
  });

  test('counters still while the route leads to the node: inconclusive, not a bypass', () => {
    const p = PLAN_B;
    const input = scenario({
      plan: p,
      outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'ok') },
      nodeEvidence: counters(p, 9, 9),
    });
    const v = both(input).en;
    assert.equal(v.code, 'inconclusive');
    assert.match(v.summary, /counted no packet, although the pod's route leads to the node/);
  });

  test('a node without kube-proxy rules: inconclusive naming the replacement', () => {
    const p = PLAN_A;
    const bare =
      '*nat\n:PREROUTING ACCEPT [0:0]\n:INPUT ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\n:POSTROUTING ACCEPT [0:0]\nCOMMIT\n';
    const input = scenario({
      plan: p,
      outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'ok') },
      nodeEvidence: evidence(p, bare, bare, { mode: undefined }),
    });
    const v = both(input).en;
    assert.equal(v.code, 'inconclusive');
    assert.match(v.summary, /no kube-proxy rules at all/);
  });

  test('gateway not placeable (no node capture) and counters still -> bypass; counters moved -> not', () => {
    const p = PLAN_A;
    const out = calicoPod(p);
    out['route-clusterip'] = { exitCode: 0, stdout: routeGet(p.clusterIP, '10.250.0.1', p.podIface, p.podIP) };
    const still = scenario({
      plan: p,
      outputs: { ...out, ...connects(p, 'timeout', 'ok') },
      nodeEvidence: counters(p, 4, 4, { addresses: undefined }),
    });
    assert.equal(gatherFacts(still).routeClass.kind, 'bypass');
    assert.equal(both(still).en.code, 'pod-route-bypasses-node');
    const moved = scenario({
      plan: p,
      outputs: { ...out, ...connects(p, 'timeout', 'timeout') },
      nodeEvidence: counters(p, 4, 5, { addresses: undefined }),
    });
    assert.notEqual(both(moved).en.code, 'pod-route-bypasses-node');
  });

  test('evidence from another node is not used', () => {
    const p = PLAN_A;
    const input = scenario({
      plan: p,
      outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
      nodeEvidence: counters(p, 1, 1, { name: 'w9' }),
    });
    const v = both(input).en;
    assert.equal(v.code, 'ok');
    assert.ok(v.evidence.some((e) => /from w9, but the pod runs on w1/.test(e.text)));
  });

  test('IPVS mode: the virtual service counters tell the bypass', () => {
    const p = PLAN_A;
    const stats = (n: number) =>
      `IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes\n  -> RemoteAddress:Port\nTCP  ${p.clusterIP}:${p.port}                   ${n}       ${n * 6}        ${n * 4}     ${n * 420}     ${n * 900}\n` +
      p.endpoints
        .map(
          (ip) =>
            `  -> ${ip}:${p.targetPort}                    ${n}       ${n * 3}        ${n * 2}     ${n * 210}     ${n * 450}\n`,
        )
        .join('');
    const input = scenario({
      plan: p,
      outputs: { ...secondInterfacePod(p), ...connects(p, 'timeout', 'ok') },
      nodeEvidence: evidence(p, stats(2), stats(2), { mode: 'ipvs' }),
    });
    const v = both(input).en;
    assert.equal(v.code, 'pod-route-bypasses-node');
    assert.match(v.summary, /the node's IPVS virtual service for 10\.100\.12\.34:80 counted 0 packets/);
    const missing = scenario({
      plan: p,
      outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'ok') },
      nodeEvidence: evidence(
        p,
        'IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n',
        '',
        { mode: 'ipvs' },
      ),
    });
    const m = decideVerdict(missing, 'en');
    assert.equal(m.code, 'clusterip-dnat-missing', m.summary);
    assert.match(m.summary, /IPVS has no virtual service/);
  });
});

describe('API verdicts', () => {
  for (const p of PLANS) {
    test(`plan ${p.name}: no endpoints`, () => {
      const input = scenario({
        plan: p,
        eps: [],
        outputs: { ...calicoPod(p), ...connects(p, 'refused', 'refused') },
        nodeEvidence: counters(p, 0, 1),
      });
      const { en, zh } = both(input);
      assert.equal(en.code, 'no-endpoints');
      assert.ok(
        en.summary.includes(`${p.svcNamespace}/${p.svcName}`) && en.summary.includes(`${p.clusterIP}:${p.port}`),
      );
      assert.ok(zh.summary.includes('没有端点'));
      assert.ok(en.nextSteps[0].includes(`-n ${p.svcNamespace}`));
    });

    test(`plan ${p.name}: endpoints exist, none ready`, () => {
      const input = scenario({
        plan: p,
        eps: endpoints(p, false),
        outputs: { ...calicoPod(p), ...connects(p, 'refused', 'ok') },
      });
      const v = both(input).en;
      assert.equal(v.code, 'endpoints-not-ready');
      const has = p.endpoints.length === 1 ? 'has 1 endpoint for' : `has ${p.endpoints.length} endpoints for`;
      assert.ok(v.summary.includes(has), v.summary);
      assert.ok(
        v.evidence.some((e) => e.source.startsWith('connect-endpoint:') && /connected/.test(e.text)),
        'the pods answer on their own IPs',
      );
    });
  }
});

describe('DNS', () => {
  for (const p of PLANS) {
    test(`plan ${p.name}: ClusterIP answers, name does not resolve`, () => {
      const input = scenario({
        plan: p,
        outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), dns: nslookupNx(dnsName(p), '10.0.0.10') },
        nodeEvidence: counters(p, 0, 1),
      });
      const v = both(input).en;
      assert.equal(v.code, 'dns-failure');
      assert.equal(
        v.summary,
        `${p.clusterIP}:${p.port} answers, but ${dnsName(p)} does not resolve from the pod (no such name (NXDOMAIN)).`,
      );
      assert.ok(v.evidence.some((e) => e.source === 'resolv-conf' && e.text.includes('ndots:5')));
    });
  }

  test('busybox nslookup exits 1 after the A answer (no AAAA): resolved, ok', () => {
    const p = PLAN_A;
    const out = {
      exitCode: 1,
      stdout: `Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\t${dnsName(p)}\nAddress: ${p.clusterIP}\n\n*** Can't find ${dnsName(p)}: No answer\n\n`,
    };
    const input = scenario({ plan: p, outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), dns: out } });
    assert.equal(input.checks.find((c) => c.id === 'dns')?.ok, true);
    assert.equal(both(input).en.code, 'ok');
  });

  test('a DNS tool that cannot run says nothing about DNS', () => {
    const p = PLAN_B;
    const input = scenario({
      plan: p,
      outputs: {
        ...calicoPod(p),
        ...connects(p, 'ok', 'ok'),
        dns: { exitCode: 127, stderr: 'exec: "nslookup": executable file not found in $PATH' },
      },
    });
    const v = both(input).en;
    assert.equal(v.code, 'ok');
    assert.equal(
      v.summary,
      `From pod ${p.svcNamespace}/${p.podName}, ${p.svcNamespace}/${p.svcName} answers on ${p.clusterIP}:${p.port}; its name was not looked up (no nslookup or getent ran in the pod).`,
    );
  });

  // A DNS that is down looks healthy from such a pod: the ok says the name was not checked.
  for (const p of PLANS)
    test(`a pod without a DNS client: the ok says its name was not looked up (plan ${p.name})`, () => {
      const input = scenario({
        plan: p,
        tools: ['curl', 'ip', 'cat'],
        outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok') },
        nodeEvidence: counters(p, 2, 3),
      });
      assert.ok(!input.checks.some((c) => c.kind === 'dns'));
      const { en, zh } = both(input);
      assert.equal(en.code, 'ok');
      assert.ok(en.summary.endsWith('its name was not looked up (no nslookup or getent ran in the pod).'), en.summary);
      assert.match(zh.summary, /没有查询它的名称/);
    });

  test('getent only: not found (exit 2)', () => {
    const p = PLAN_A;
    const input = scenario({
      plan: p,
      tools: ['curl', 'getent', 'ip'],
      outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), dns: { exitCode: 2, stdout: '' } },
    });
    const dns = input.checks.find((c) => c.id === 'dns');
    assert.deepEqual(dns?.argv, ['getent', 'hosts', dnsName(p)]);
    const v = both(input).en;
    assert.equal(v.code, 'dns-failure');
    assert.match(v.summary, /\(not found\)/);
  });

  test('the name resolves to another address', () => {
    const p = PLAN_B;
    const input = scenario({
      plan: p,
      outputs: {
        ...calicoPod(p),
        ...connects(p, 'ok', 'ok'),
        dns: {
          exitCode: 0,
          stdout: `Server:\t\t172.30.0.10\nAddress:\t172.30.0.10#53\n\nName:\t${dnsName(p)}\nAddress: 172.30.9.9\n`,
        },
      },
    });
    const v = both(input).en;
    assert.equal(v.code, 'dns-failure');
    assert.match(v.summary, /resolves to 172\.30\.9\.9, not to the ClusterIP 172\.30\.44\.5/);
  });
});

describe('tools and exec', () => {
  test('no connect tool -> tool-missing (route known, nothing probed)', () => {
    const p = PLAN_A;
    const input = scenario({ plan: p, tools: ['ip', 'cat'], outputs: calicoPod(p), nodeEvidence: counters(p, 0, 0) });
    assert.ok(!input.checks.some((c) => c.kind === 'connect-clusterip'));
    const v = both(input).en;
    assert.equal(v.code, 'tool-missing');
    assert.match(v.summary, /looked for curl, wget, nc and bash/);
    assert.ok(v.evidence.some((e) => e.source === 'tools' && e.text.includes('ip, cat')));
    assert.ok(v.nextSteps.some((s) => s.includes('kubectl debug')));
  });

  test('a container without a shell: the probe fails, nothing is known -> tool-missing', () => {
    const spec = toolProbeCheck();
    const failed = classifyCheck(spec, {
      id: 'tools',
      argv: spec.argv,
      exitCode: 126,
      durationMs: 40,
      stdout: '',
      stderr:
        'OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in $PATH: unknown\n',
    });
    const input = scenario({ plan: PLAN_B, toolsResult: failed, outputs: {} });
    assert.equal(input.checks.length, 1, 'no check planned');
    const v = both(input).en;
    assert.equal(v.code, 'tool-missing');
    assert.match(v.summary, /tool probe could not run .*exit 126/);
  });

  test('checks run in a debug container: its tool probe is the one that counts', () => {
    const p = PLAN_A;
    const probe = toolsProbe(['curl', 'ip', 'nslookup', 'cat']);
    const input = scenario({
      plan: p,
      toolsResult: { ...probe, id: 'tools-debug' },
      outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
    });
    input.checks.unshift(toolsProbe(['cat']));
    assert.equal(both(input).en.code, 'ok');
  });

  test('a route that bypasses the node wins over a missing connect tool', () => {
    const p = PLAN_A;
    const input = scenario({ plan: p, tools: ['ip'], outputs: secondInterfacePod(p), nodeEvidence: counters(p, 0, 0) });
    const v = both(input).en;
    assert.equal(v.code, 'pod-route-bypasses-node');
  });

  for (const p of PLANS) {
    test(`plan ${p.name}: exec refused with 403`, () => {
      const message = `pods "${p.podName}" is forbidden: User "dev" cannot create resource "pods/exec" in API group "" in the namespace "${p.svcNamespace}"`;
      const input = scenario({ plan: p, outputs: {}, execError: { status: 403, message } });
      input.checks = [];
      const { en, zh } = both(input);
      assert.equal(en.code, 'exec-forbidden');
      assert.equal(en.summary, `Exec into pod ${p.svcNamespace}/${p.podName} was refused (403): ${message}`);
      assert.ok(zh.summary.includes('被拒绝'));
      assert.ok(en.nextSteps.some((s) => s.includes(`kubectl auth can-i create pods/exec -n ${p.svcNamespace}`)));
    });
  }

  test('exec failing otherwise is inconclusive', () => {
    const v = decideVerdict(scenario({ outputs: {}, execError: { message: 'container not found ("app")' } }), 'en');
    assert.equal(v.code, 'inconclusive');
    assert.match(v.summary, /container not found/);
  });
});

describe('other inputs', () => {
  test('a headless Service the pod has no tool to probe is tool-missing, as a ClusterIP is', () => {
    const p = PLAN_A;
    const v = decideVerdict(
      scenario({
        plan: p,
        tools: ['cat'],
        svc: service(p, { clusterIP: 'None', clusterIPs: ['None'] }),
        outputs: calicoPod(p),
      }),
      'en',
    );
    assert.equal(v.code, 'tool-missing');
    assert.doesNotMatch(v.summary, /kube-proxy writes no rule/);
  });

  test('a UDP port other than 53 is not probed; healthy facts give ok(not checkable)', () => {
    const p = PLAN_B;
    const svc = service(p, { ports: [{ name: 'syslog', port: 514, protocol: 'UDP', targetPort: 5514 }] });
    const eps = p.endpoints.map((ip) => ({
      ip,
      port: 5514,
      protocol: 'UDP' as const,
      ready: true,
      serving: true,
      terminating: false,
    }));
    const dump = nodeDump(p, { svc, eps, svcPackets: 3 });
    const input = scenario({
      plan: p,
      svc,
      eps,
      outputs: { ...calicoPod(p), ...dnsOk(p) },
      nodeEvidence: evidence(p, dump, dump),
    });
    assert.ok(!input.checks.some((c) => c.kind === 'connect-clusterip' || c.kind === 'connect-endpoint'));
    const v = both(input).en;
    assert.equal(v.code, 'ok');
    assert.match(v.summary, /UDP cannot be probed/);
    const noNode = decideVerdict(scenario({ plan: p, svc, eps, outputs: { ...calicoPod(p), ...dnsOk(p) } }), 'en');
    assert.equal(noNode.code, 'inconclusive');
  });

  test('every verdict code has a title and next steps in both languages', () => {
    for (const code of VERDICT_CODES) {
      for (const lang of ['en', 'zh-CN'] as const)
        assert.ok(catalogs[lang][`diagnose.title.${code}`], `${lang} title of ${code}`);
    }
  });

  test('hostile pod addresses from the API are ignored, not used', () => {
    const p = PLAN_A;
    const input = scenario({
      plan: p,
      pod: {
        namespace: p.svcNamespace,
        name: p.podName,
        ip: '10.42.1.17;reboot',
        ips: ['$(id)'],
        nodeName: p.nodeName,
        hostNetwork: false,
      },
      outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
    });
    const v = both(input).en;
    assert.equal(v.code, 'ok');
    assert.ok(!JSON.stringify(v).includes('reboot') && !JSON.stringify(v).includes('$(id)'));
  });

  test('ip -o addr with several addresses: the pod IP found on the second address', () => {
    const p = PLAN_B;
    const out = calicoPod(p);
    out.addresses = {
      exitCode: 0,
      stdout: ipOAddr([
        [4, p.podIface, '100.66.3.200/32'],
        [4, p.podIface, `${p.podIP}/32`],
      ]),
    };
    const v = decideVerdict(scenario({ plan: p, outputs: { ...out, ...connects(p, 'ok', 'ok'), ...dnsOk(p) } }), 'en');
    assert.equal(v.code, 'ok');
  });
});

describe('route lookups without ip route get', () => {
  test('an IPv6 ClusterIP is not judged from an IPv4 route table', () => {
    const p = PLAN_A;
    const svc = service(p, { clusterIP: 'fd00:10:96::1f', clusterIPs: ['fd00:10:96::1f'] });
    const input = scenario({
      plan: p,
      svc,
      tools: ['curl', 'cat'],
      outputs: {
        routes: {
          exitCode: 0,
          stdout:
            'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\neth0\t00000000\t0101FEA9\t0003\t0\t0\t0\t00000000\t0\t0\t0\n',
        },
        'connect-clusterip': CURL_OK_V6,
      },
    });
    const f = gatherFacts(input);
    assert.equal(f.route, undefined);
    assert.notEqual(decideVerdict(input, 'en').code, 'pod-route-bypasses-node');
  });

  test('ip route (no route get): the table lookup decides, longest prefix first', () => {
    const p = PLAN_B;
    const out = secondInterfacePod(p, true);
    delete out['route-clusterip'];
    const input = scenario({
      plan: p,
      outputs: {
        ...out,
        'route-clusterip': { exitCode: 1, stdout: '', stderr: 'Command "get" is unknown, try "ip route help".\n' },
        ...connects(p, 'timeout', 'ok'),
      },
      nodeEvidence: counters(p, 1, 1),
    });
    const f = gatherFacts(input);
    assert.equal(f.route?.source, 'ip route');
    assert.equal(f.route?.gateway, p.extraGateway);
    assert.equal(decideVerdict(input, 'en').code, 'pod-route-bypasses-node');
  });
});

const CURL_OK_V6 = { exitCode: 0, stdout: 'connect=0.000400 code=200\n', stderr: '' };

describe('a gateway that is only "not a node address" is doubted when the node shows otherwise', () => {
  // A bridged pod network (the node's NIC on a bridge with the pods, br_netfilter on): the gateway is the
  // network's router, and the node's rules still see the packets.
  function bridged(p: AddressPlan) {
    const out = calicoPod(p);
    out['route-clusterip'] = { exitCode: 0, stdout: routeGet(p.clusterIP, p.router, p.podIface, p.podIP) };
    return out;
  }
  for (const p of PLANS) {
    test(`plan ${p.name}: refused after the rule counted -> backend-unreachable, not a bypass`, () => {
      const v = decideVerdict(
        scenario({
          plan: p,
          outputs: { ...bridged(p), ...connects(p, 'refused', 'refused') },
          nodeEvidence: counters(p, 3, 4),
        }),
        'en',
      );
      assert.equal(v.code, 'backend-unreachable', v.summary);
    });
    test(`plan ${p.name}: timed out with still counters -> bypass`, () => {
      const v = decideVerdict(
        scenario({
          plan: p,
          outputs: { ...bridged(p), ...connects(p, 'timeout', 'ok') },
          nodeEvidence: counters(p, 3, 3),
        }),
        'en',
      );
      assert.equal(v.code, 'pod-route-bypasses-node', v.summary);
      assert.match(
        v.summary,
        new RegExp(
          `goes via ${p.router.replace(/\./g, '\\.')} on ${p.podIface}, which is not this node; the node's KUBE-SERVICES rule`,
        ),
      );
    });
  }
  test('no kube-proxy rules on the node: the gateway alone proves nothing', () => {
    const p = PLAN_A;
    const bare =
      '*nat\n:PREROUTING ACCEPT [0:0]\n:INPUT ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\n:POSTROUTING ACCEPT [0:0]\nCOMMIT\n';
    const v = decideVerdict(
      scenario({
        plan: p,
        outputs: { ...bridged(p), ...connects(p, 'timeout', 'ok') },
        nodeEvidence: evidence(p, bare, bare),
      }),
      'en',
    );
    assert.equal(v.code, 'inconclusive', v.summary);
  });
});

test('a check refused by the API (error forbidden) is exec-forbidden too', () => {
  const p = PLAN_B;
  const input = scenario({
    plan: p,
    outputs: {
      'connect-clusterip': {
        exitCode: null,
        error: 'forbidden',
        stderr: 'pods "batch-runner-0" is forbidden: exec not allowed\n',
      },
    },
  });
  const v = decideVerdict(input, 'en');
  assert.equal(v.code, 'exec-forbidden');
  assert.match(v.summary, /refused \(403\): pods "batch-runner-0" is forbidden/);
});

test("internalTrafficPolicy Local without an endpoint on the pod's node: no-endpoints, saying so", () => {
  for (const p of PLANS) {
    const svc = service(p, { internalTrafficPolicy: 'Local' });
    const dump = nodeDump(p, { svc, svcPackets: 2 });
    const input = scenario({
      plan: p,
      svc,
      outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'ok') },
      nodeEvidence: evidence(p, dump, dump),
    });
    const v = both(input).en;
    assert.equal(v.code, 'no-endpoints', v.summary);
    assert.match(
      v.summary,
      new RegExp(
        `internalTrafficPolicy Local and no ready endpoint for port .* on node ${p.nodeName.replace(/\./g, '\\.')}`,
      ),
    );
    const local = scenario({
      plan: p,
      svc,
      eps: endpoints(p).map((e, i) => (i === 0 ? { ...e, nodeName: p.nodeName } : e)),
      outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
    });
    assert.equal(decideVerdict(local, 'en').code, 'ok');
  }
});

describe("kube-proxy's nftables mode on the node", () => {
  /** A small `nft list ruleset` in kube-proxy's nftables layout, written for this test. */
  function nftRuleset(p: AddressPlan, eps: string[], withService = true): string {
    const svcChain = `service-ABCD2345-${p.svcNamespace}/${p.svcName}/tcp/${p.portName || 'p'}`;
    const epChain = (ip: string) =>
      `endpoint-EFGH67AB-${p.svcNamespace}/${p.svcName}/tcp/${p.portName || 'p'}__${ip}/${p.targetPort}`;
    const lines = [
      ...nftKubeProxyHead('ip', withService ? [`${p.clusterIP} . tcp . ${p.port} : goto ${svcChain}`] : []),
      '\tchain mark-for-masquerade {',
      '\t\tmeta mark set meta mark | 0x00004000',
      '\t}',
    ];
    if (withService) {
      lines.push(
        `\tchain ${svcChain} {`,
        `\t\tip daddr ${p.clusterIP} tcp dport ${p.port} ip saddr != ${p.clusterCidr} jump mark-for-masquerade`,
      );
      lines.push(
        `\t\tnumgen random mod ${eps.length} vmap { ${eps.map((ip, i) => `${i} : goto ${epChain(ip)}`).join(', ')} }`,
        '\t}',
      );
      for (const ip of eps)
        lines.push(
          `\tchain ${epChain(ip)} {`,
          `\t\tip saddr ${ip} jump mark-for-masquerade`,
          `\t\tmeta l4proto tcp dnat to ${ip}:${p.targetPort}`,
          '\t}',
        );
    }
    lines.push('}', '');
    return lines.join('\n');
  }

  for (const p of PLANS) {
    test(`plan ${p.name}: current rules and a working connect give ok; stale or missing rules give clusterip-dnat-missing`, () => {
      const good = nftRuleset(p, p.endpoints);
      const ok = scenario({
        plan: p,
        outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
        nodeEvidence: evidence(p, good, good, { mode: 'nftables' }),
      });
      const f = gatherFacts(ok);
      assert.equal(f.trace.state, 'dnat');
      assert.equal(f.counters.state, 'no-counters');
      assert.equal(both(ok).en.code, 'ok');
      // The counters' note speaks of nft, not of iptables-save's -c.
      const note = both(
        scenario({
          plan: p,
          outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'timeout') },
          nodeEvidence: evidence(p, good, good, { mode: 'nftables' }),
        }),
      ).en.evidence.find((e) => e.source === 'node-rules');
      assert.match(note?.text ?? '', /nftables rules for .* carry no packet counters \(kube-proxy writes none/);
      assert.doesNotMatch(note?.text ?? '', /iptables-save/);

      const stale = nftRuleset(p, ['10.250.7.7']);
      const v = both(
        scenario({
          plan: p,
          outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'ok') },
          nodeEvidence: evidence(p, stale, stale, { mode: 'nftables' }),
        }),
      ).en;
      assert.equal(v.code, 'clusterip-dnat-missing');
      assert.match(
        v.summary,
        new RegExp(`they send it to 10\\.250\\.7\\.7:${p.targetPort}, which the API does not list`),
      );

      const none = nftRuleset(p, [], false);
      const m = both(
        scenario({
          plan: p,
          outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'ok') },
          nodeEvidence: evidence(p, none, none, { mode: 'nftables' }),
        }),
      ).en;
      assert.equal(m.code, 'clusterip-dnat-missing');
      assert.match(m.summary, /kube-proxy's `service-ips` map has no element for it/);
    });
  }
});
