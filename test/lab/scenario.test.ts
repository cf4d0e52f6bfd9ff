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
      'stale rules on a missing node',
      (s) => (s.faults = { staleRules: [{ node: 'x', services: ['default/web'] }] }),
      /^faults\.staleRules\[0\]\.node: /,
    ],
    ['missing nodeNetwork', (s) => delete s.nodeNetwork, /^nodeNetwork: is required/],
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
