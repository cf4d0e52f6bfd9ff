// Scenario files, their validation, the plan a lab builds from them, and the lab DNS responder. No root needed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { namespaceOwner } from './dataplane/cleanup';
import { answerDnsQuery, clusterDnsZone, frameTcpMessage, splitTcpMessages } from './dataplane/dns';
import { clusterObjects, endpointsObject } from './dataplane/objects';
import { ownerPid, planLab, runIdOf } from './dataplane/plan';
import { filterCommands } from './dataplane/rules';
import { listScenarios, loadScenario, scenariosDir, validateScenario, type Scenario } from './scenario';

const CONTRACT_NAMES = [
  'healthy',
  'seed-gateway-bypass',
  'no-endpoints',
  'endpoints-not-ready',
  'backend-down',
  'stale-rules',
  'dns-broken',
  'nodeport',
  'legacy-1.20',
];

// The validation cases poke at arbitrary places of untyped scenario JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LooseJson = Record<string, any>;

function healthyJson(): LooseJson {
  return JSON.parse(fs.readFileSync(path.join(scenariosDir(), 'healthy.json'), 'utf8'));
}

function problemsOf(data: unknown): string[] {
  const r = validateScenario(data);
  return r.ok ? [] : r.problems.map((p) => `${p.path}: ${p.message}`);
}

describe('shipped scenarios', () => {
  it('include every name the contract promises, each valid', () => {
    const names = listScenarios().map((s) => s.name);
    for (const n of CONTRACT_NAMES) assert.ok(names.includes(n), `missing scenario ${n}`);
    for (const n of names) assert.equal(loadScenario(n).name, n, `file name and "name" differ for ${n}`);
  });

  for (const name of CONTRACT_NAMES) {
    it(`${name}: has kubernetes, web, kube-dns and the client as promised`, () => {
      const s = loadScenario(name);
      const plan = planLab(s, 'p1r0000');
      const svc = (key: string) => plan.services.find((x) => x.key === key)!;
      const k8s = svc('default/kubernetes');
      assert.equal(k8s.service.clusterIP, '172.16.0.1');
      assert.deepEqual(
        k8s.service.ports.map((p) => [p.port, p.targetPort, p.protocol]),
        [[443, 6443, 'TCP']],
      );
      assert.equal(k8s.endpoints.length, 3);
      assert.ok(k8s.endpoints.every((e) => e.listeners.some((l) => l.kind === 'https' && l.port === 6443)));
      const web = svc('default/web');
      assert.deepEqual(
        web.service.ports.map((p) => [p.port, p.targetPort]),
        [[80, 8080]],
      );
      if (!s.faults.noEndpoints.includes('default/web')) {
        assert.equal(web.endpoints.length, 3);
        assert.equal(new Set(web.endpoints.map((e) => e.node.name)).size, 2, 'web spans two nodes');
      }
      const dns = svc('kube-system/kube-dns');
      assert.deepEqual(dns.service.ports.map((p) => `${p.port}/${p.protocol}`).sort(), ['53/TCP', '53/UDP']);
      assert.ok(plan.pods.some((p) => p.key === 'default/client' && p.pod.role === 'client'));
      for (const cidr of [s.serviceCidr, s.clusterCidr, s.nodeNetwork.cidr]) {
        assert.match(cidr, /^(172\.16\.|10\.244\.|192\.168\.10\.)/, 'lab-only address plan');
      }
    });
  }
});

describe('scenario validation names the bad field', () => {
  it('accepts the healthy file as it is', () => {
    assert.deepEqual(problemsOf(healthyJson()), []);
  });

  const cases: [string, (s: LooseJson) => void, RegExp][] = [
    ['pod IP outside its node', (s) => (s.pods[1].ip = '10.244.9.9'), /^pods\[1\]\.ip: .*node-a's podCidr/],
    ['unknown pod field', (s) => (s.pods[0].tool = ['curl']), /^pods\[0\]\.tool: unknown field/],
    ['unknown tool', (s) => (s.pods[0].tools = ['curl', 'dig']), /^pods\[0\]\.tools\[1\]: "dig"/],
    ['bad role', (s) => (s.pods[0].role = 'frontend'), /^pods\[0\]\.role: /],
    ['pod on a missing node', (s) => (s.pods[2].node = 'node-z'), /^pods\[2\]\.node: no node named "node-z"/],
    [
      'ClusterIP outside the service CIDR',
      (s) => (s.services[1].clusterIP = '10.96.0.10'),
      /^services\[1\]\.clusterIP: /,
    ],
    ['port out of range', (s) => (s.services[1].ports[0].port = 70000), /^services\[1\]\.ports\[0\]\.port: /],
    [
      'nodePort on a ClusterIP Service',
      (s) => (s.services[1].ports[0].nodePort = 30080),
      /^services\[1\]\.ports\[0\]\.nodePort: /,
    ],
    [
      'endpointPods naming a missing pod',
      (s) => (s.services[0].endpointPods[2] = 'kube-system/nope'),
      /^services\[0\]\.endpointPods\[2\]: no pod/,
    ],
    ['node IP off the node network', (s) => (s.nodes[1].ip = '192.168.11.12'), /^nodes\[1\]\.ip: .*nodeNetwork\.cidr/],
    ['duplicate pod IP', (s) => (s.pods[3].ip = s.pods[2].ip), /^pods\[3\]\.ip: duplicate pod IP/],
    [
      'fault naming a missing Service',
      (s) => (s.faults = { backendDown: ['default/nope'] }),
      /^faults\.backendDown\[0\]: no Service/,
    ],
    [
      'custom gateway segment overlapping the node network',
      (s) =>
        (s.faults = {
          customGateway: {
            pod: 'default/client',
            segment: '192.168.10.0/25',
            gateway: '192.168.10.1',
            podAddress: '192.168.10.2',
            routes: ['default'],
          },
        }),
      /^faults\.customGateway\.segment: overlaps nodeNetwork\.cidr/,
    ],
    [
      'a broken node path to a missing node',
      (s) => (s.faults = { nodePathDown: [{ from: 'node-a', to: 'node-z' }] }),
      /^faults\.nodePathDown\[0\]\.to: no node named "node-z"/,
    ],
    [
      'a broken node path from a node to itself',
      (s) => (s.faults = { nodePathDown: [{ from: 'node-a', to: 'node-a' }] }),
      /^faults\.nodePathDown\[0\]\.to: must differ/,
    ],
    ['a kube-proxy mode the kernel has not', (s) => (s.kubeProxyMode = 'ipvs'), /^kubeProxyMode: "ipvs" is not/],
    ['a node name that is no DNS name', (s) => (s.nodes[0].name = 'Node_A'), /^nodes\[0\]\.name: /],
    [
      'stale rules on a missing node',
      (s) => (s.faults = { staleRules: [{ node: 'x', services: ['default/web'] }] }),
      /^faults\.staleRules\[0\]\.node: /,
    ],
    ['missing nodeNetwork', (s) => delete s.nodeNetwork, /^nodeNetwork: is required/],
    ['unknown pod network of a node', (s) => (s.nodes[0].podNetwork = 'overlay'), /^nodes\[0\]\.podNetwork: "overlay"/],
    [
      "a pod on the bridge node's cni0 address",
      (s) => {
        s.nodes[0].podNetwork = 'bridge';
        s.pods[0].ip = '10.244.1.1';
      },
      /^pods\[0\]\.ip: 10\.244\.1\.1 is node-a's bridge address/,
    ],
    [
      'unknown pod link',
      (s) => (s.pods[0].network = 'sriov'),
      /^pods\[0\]\.network: "sriov" is not one of veth, macvlan/,
    ],
    [
      'a macvlan pod with a pod-CIDR address',
      (s) => (s.pods[0].network = 'macvlan'),
      /^pods\[0\]\.ip: a macvlan pod's ip must be inside nodeNetwork\.cidr/,
    ],
    [
      "a macvlan pod on a node's address",
      (s) => {
        s.pods[0].network = 'macvlan';
        s.pods[0].ip = '192.168.10.12';
      },
      /^pods\[0\]\.ip: 192\.168\.10\.12 is already the router's or a node's address/,
    ],
    [
      'a macvlan backend',
      (s) => {
        s.pods[1].network = 'macvlan';
        s.pods[1].ip = '192.168.10.60';
      },
      /^pods\[1\]\.network: only a client pod can be macvlan-attached/,
    ],
    ['a distroless pod with tools', (s) => (s.pods[0].distroless = true), /^pods\[0\]\.tools: a distroless image/],
    [
      'distroless not a boolean',
      (s) => (s.pods[0].distroless = 'yes'),
      /^pods\[0\]\.distroless: must be true or false/,
    ],
    ['kubeProxyPods not a boolean', (s) => (s.kubeProxyPods = 1), /^kubeProxyPods: must be true or false/],
    [
      'the API going away after 0 requests',
      (s) => (s.faults = { apiGoesAway: { afterRequests: 0 } }),
      /^faults\.apiGoesAway\.afterRequests: must be an integer >= 1/,
    ],
    [
      'the API going away with an unknown field',
      (s) => (s.faults = { apiGoesAway: { afterRequests: 3, forever: true } }),
      /^faults\.apiGoesAway\.forever: unknown field/,
    ],
    [
      'execDenied not a boolean',
      (s) => (s.faults = { execDenied: 'viewer' }),
      /^faults\.execDenied: must be true or false/,
    ],
    [
      'a custom gateway on eth0',
      (s) =>
        (s.faults = {
          customGateway: {
            pod: 'default/client',
            segment: '192.168.100.0/24',
            gateway: '192.168.100.1',
            podAddress: '192.168.100.10',
            routes: ['default'],
            interface: 'eth0',
          },
        }),
      /^faults\.customGateway\.interface: "eth0" is not a free interface name/,
    ],
  ];
  for (const [what, mutate, expected] of cases) {
    it(what, () => {
      const s = healthyJson();
      mutate(s);
      const problems = problemsOf(s);
      assert.ok(
        problems.some((p) => expected.test(p)),
        `expected ${expected} in:\n${problems.join('\n')}`,
      );
    });
  }

  it('reports broken JSON instead of throwing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-scenario-'));
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, '{ "name": ');
    assert.throws(() => loadScenario(file), /not JSON/);
    fs.rmSync(dir, { recursive: true });
  });
});

describe('new options in the plan and the objects', () => {
  it('kube-proxy pods: one per node in kube-system, hostNetwork, on the node IP; none with kubeProxyPods false', () => {
    const p = planLab(loadScenario('healthy'), 'p42r00ab');
    const pods = clusterObjects(p, 'now').filter(
      (o) => o.kind === 'Pod' && (o.metadata.labels as Record<string, string>)['k8s-app'] === 'kube-proxy',
    );
    assert.deepEqual(
      pods.map((o) => [
        o.metadata.namespace,
        /^kube-proxy-[a-z0-9]{5}$/.test(o.metadata.name),
        (o.spec as { nodeName: string; hostNetwork: boolean }).nodeName,
        (o.spec as { hostNetwork: boolean }).hostNetwork,
        (o.status as { podIP: string }).podIP,
      ]),
      [
        ['kube-system', true, 'node-a', true, '192.168.10.11'],
        ['kube-system', true, 'node-b', true, '192.168.10.12'],
      ],
    );
    const none = planLab({ ...loadScenario('healthy'), kubeProxyPods: false }, 'p42r00ab');
    assert.ok(!clusterObjects(none, 'now').some((o) => o.metadata.name.startsWith('kube-proxy-')));
  });

  it('macvlan-pod: the client is on the node network; bridge-healthy: both nodes bridge; no-tools: distroless', () => {
    const client = (name: string) => loadScenario(name).pods.find((x) => x.name === 'client')!;
    assert.deepEqual([client('macvlan-pod').network, client('macvlan-pod').ip], ['macvlan', '192.168.10.50']);
    assert.deepEqual(
      loadScenario('bridge-healthy').nodes.map((n) => n.podNetwork),
      ['bridge', 'bridge'],
    );
    assert.deepEqual([client('no-tools').distroless, client('no-tools').tools], [true, []]);
    assert.equal(loadScenario('exec-denied').faults.execDenied, true);
    assert.deepEqual(loadScenario('api-goes-away').faults.apiGoesAway, { afterRequests: 10 });
    assert.equal(loadScenario('healthy').nodes[0].podNetwork, 'routed', 'the default');
  });

  it('the alt-address scenarios share no address plan with the others', () => {
    for (const name of ['healthy-alt-addresses', 'seed-gateway-bypass-alt-addresses']) {
      const s = loadScenario(name);
      assert.equal(s.serviceCidr, '10.96.0.0/12');
      assert.equal(s.clusterCidr, '100.64.0.0/16');
      assert.equal(s.nodeNetwork.cidr, '10.10.0.0/24');
      assert.ok(s.pods.some((p) => p.namespace === 'shop' && p.name === 'toolbox' && p.node === 'worker-2'));
    }
    assert.equal(loadScenario('seed-gateway-bypass-alt-addresses').faults.customGateway?.interface, 'net1');
  });
});

describe('faults in the path: container ports, internalTrafficPolicy, filter rules', () => {
  it('pods listen on and declare containerPort; the Service keeps its targetPort and its policy', () => {
    const p = planLab(loadScenario('faults-in-the-path'), 'p42r00ab');
    const invoices = p.services.find((s) => s.key === 'billing/invoices')!;
    assert.deepEqual(
      invoices.endpoints.map((e) => e.listeners.map((l) => l.port)),
      [
        [8081, 9090],
        [8081, 9090],
      ],
    );
    const objects = clusterObjects(p, 'now');
    const pod = objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'invoices-0')!;
    const declared = (pod.spec as { containers: { ports: { containerPort: number }[] }[] }).containers[0].ports;
    assert.deepEqual(
      declared.map((d) => d.containerPort),
      [8081, 9090],
    );
    const svc = (name: string) => objects.find((o) => o.kind === 'Service' && o.metadata.name === name)!;
    const spec = (name: string) => svc(name).spec as { internalTrafficPolicy: string; ports: { targetPort: number }[] };
    assert.equal(spec('invoices').ports[0].targetPort, 8080);
    assert.equal(spec('ledger').internalTrafficPolicy, 'Local');
    assert.equal(spec('audit').internalTrafficPolicy, 'Cluster');
  });

  it('filter faults become iptables inserts in the node FORWARD or the pod INPUT chain', () => {
    const p = planLab(loadScenario('faults-in-the-path'), 'p42r00ab');
    const cmds = filterCommands(p);
    assert.deepEqual(
      cmds.map((c) => [
        c.netns.endsWith('-n-k8s-node-01.dc2.example') || c.netns.endsWith('-p-billing-reports-0'),
        c.argv.join(' '),
      ]),
      [
        [true, 'iptables -w -I FORWARD 1 -d 10.233.65.13/32 -p tcp --dport 8080 -j DROP'],
        [true, 'iptables -w -I FORWARD 1 -d 10.233.65.14/32 -j REJECT --reject-with icmp-host-prohibited'],
        [true, 'iptables -w -I INPUT 1 -p tcp --dport 8080 -j REJECT --reject-with tcp-reset'],
      ],
    );
  });

  it('a bad filter names its field', () => {
    const data = healthyJson();
    data.faults = { filters: [{ in: 'node-z', target: 'ACCEPT', rejectWith: 'icmp-nonsense', to: 'default/nope' }] };
    const problems = problemsOf(data);
    for (const field of ['in', 'target', 'rejectWith', 'to'])
      assert.ok(
        problems.some((m) => m.startsWith(`faults.filters[0].${field}:`)),
        problems.join('\n'),
      );
    const itp = healthyJson();
    itp.services[1].internalTrafficPolicy = 'Nearby';
    assert.ok(problemsOf(itp).some((m) => m.startsWith('services[1].internalTrafficPolicy:')));
  });
});

describe('lab plan', () => {
  const plan = (name: string): ReturnType<typeof planLab> => planLab(loadScenario(name), 'p42r00ab');

  it('names every namespace kpp-<run>-..., with the owner pid recoverable', () => {
    const p = plan('seed-gateway-bypass');
    const names = [p.hostNetns, p.gatewayNetns!, ...p.nodes.map((n) => n.netns), ...p.pods.map((x) => x.netns)];
    for (const n of names) {
      assert.ok(n.startsWith('kpp-p42r00ab-'), n);
      assert.equal(ownerPid(n), 42);
      assert.equal(runIdOf(n), 'p42r00ab');
    }
    assert.equal(ownerPid('kpp-something-else'), undefined);
  });

  it('tells owners of other kpp- namespaces, and never guesses one', () => {
    assert.equal(namespaceOwner('kpp-p42r00ab-n-node-a'), 42);
    assert.equal(namespaceOwner('kpp-gen-1234'), undefined, 'other tools clean their own namespaces');
    assert.equal(namespaceOwner('kpp-probe-a'), undefined);
    assert.equal(namespaceOwner('other-1234'), undefined);
  });

  it('no-endpoints: the web pods do not exist and Endpoints have no subsets', () => {
    const p = plan('no-endpoints');
    assert.ok(!p.pods.some((x) => x.pod.labels.app === 'web'));
    const web = p.services.find((s) => s.key === 'default/web')!;
    assert.equal(endpointsObject(p, web, 'now').subsets, undefined);
  });

  it('endpoints-not-ready: web endpoints are notReadyAddresses, the pods still serve', () => {
    const p = plan('endpoints-not-ready');
    const web = p.services.find((s) => s.key === 'default/web')!;
    const ep = endpointsObject(p, web, 'now') as unknown as {
      subsets: { addresses?: unknown[]; notReadyAddresses: unknown[] }[];
    };
    assert.equal(ep.subsets[0].addresses, undefined);
    assert.equal(ep.subsets[0].notReadyAddresses.length, 3);
    assert.ok(web.endpoints.every((e) => !e.ready && e.listeners.length === 1));
  });

  it('backend-down: web endpoints are ready but nothing listens', () => {
    const web = plan('backend-down').services.find((s) => s.key === 'default/web')!;
    assert.ok(web.endpoints.every((e) => e.ready && e.listeners.length === 0));
  });

  it('stale-rules: only node-a leaves out default/web', () => {
    const p = plan('stale-rules');
    assert.deepEqual(
      p.nodes.map((n) => [n.node.name, [...n.missingServices]]),
      [
        ['node-a', ['default/web']],
        ['node-b', []],
      ],
    );
  });

  it('dns-broken: the dns pod serves nothing; legacy-1.20: legacy API mode and 1.20 nodes', () => {
    assert.ok(
      plan('dns-broken')
        .pods.filter((x) => x.pod.role === 'dns')
        .every((x) => x.listeners.length === 0),
    );
    const legacy = plan('legacy-1.20');
    assert.equal(legacy.apiMode, 'legacy-1.20');
    const node = clusterObjects(legacy, 'now').find((o) => o.kind === 'Node') as unknown as {
      status: { nodeInfo: { kubeletVersion: string } };
    };
    assert.match(node.status.nodeInfo.kubeletVersion, /^v1\.20\./);
  });
});

describe('lab DNS responder', () => {
  const zone = clusterDnsZone(planLab(loadScenario('healthy') as Scenario, 'p1r0000'));

  function query(name: string, type = 1, id = 0x1234): Buffer {
    const labels = name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)]));
    const header = Buffer.from([id >> 8, id & 0xff, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]);
    return Buffer.concat([header, ...labels, Buffer.from([0, 0, type, 0, 1])]);
  }
  const rcode = (b: Buffer) => b.readUInt16BE(2) & 0xf;
  const answers = (b: Buffer) => b.readUInt16BE(6);

  it('answers a Service name with its ClusterIP', () => {
    const a = answerDnsQuery(query('web.default.svc.cluster.local'), zone)!;
    assert.equal(a.readUInt16BE(0), 0x1234);
    assert.equal(rcode(a), 0);
    assert.equal(answers(a), 1);
    assert.deepEqual([...a.subarray(a.length - 4)], [172, 16, 0, 80]);
  });

  it('NXDOMAIN for unknown cluster names, NODATA for AAAA and for names above records, SERVFAIL outside', () => {
    assert.equal(rcode(answerDnsQuery(query('nope.default.svc.cluster.local'), zone)!), 3);
    const aaaa = answerDnsQuery(query('kubernetes.default.svc.cluster.local', 28), zone)!;
    assert.deepEqual([rcode(aaaa), answers(aaaa)], [0, 0]);
    const above = answerDnsQuery(query('default.svc.cluster.local'), zone)!;
    assert.deepEqual([rcode(above), answers(above)], [0, 0]);
    assert.equal(rcode(answerDnsQuery(query('example.com'), zone)!), 2);
  });

  it('frames TCP messages and splits them back, keeping a partial rest', () => {
    const q = query('web.default.svc.cluster.local');
    const stream = Buffer.concat([frameTcpMessage(q), frameTcpMessage(q).subarray(0, 5)]);
    const { messages, rest } = splitTcpMessages(stream);
    assert.equal(messages.length, 1);
    assert.deepEqual(messages[0], q);
    assert.equal(rest.length, 5);
  });

  it('ignores responses and short packets', () => {
    assert.equal(answerDnsQuery(Buffer.alloc(5), zone), undefined);
    const response = query('web.default.svc.cluster.local');
    response[2] |= 0x80;
    assert.equal(answerDnsQuery(response, zone), undefined);
  });
});
