// A Service port the pod cannot probe (UDP other than 53: statsd, syslog, SIP): the whole diagnosis against a cluster
// answering like a real one (a session stub built from the diagnose fixtures' address plans). The node's rules are
// the only evidence for such a port, so they are read once, and the verdict comes from them: ok where the node
// DNATs the ClusterIP, clusterip-dnat-missing where its rules lack the Service. Before, the node was read only when
// the pod probed the ClusterIP, and every such port was inconclusive.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterSession, ExecResult, KubeObject } from '../../../src/cluster';
import { diagnoseService } from '../../../src/cluster/diagnose';
import type { EndpointInfo, ServiceInfo } from '../../../src/core/kube/types';
import {
  calicoPod,
  dnsName,
  endpoints,
  nodeAddresses,
  nodeDump,
  nslookupOk,
  PLAN_A,
  PLAN_B,
  service,
  type AddressPlan,
  type Raw,
} from './fixtures';

const UDP_PORT = { name: 'statsd', port: 8125, protocol: 'UDP' as const, targetPort: 8125 };

function udpService(p: AddressPlan): ServiceInfo {
  return service(p, { ports: [UDP_PORT] });
}

function udpEndpoints(p: AddressPlan): EndpointInfo[] {
  return endpoints(p).map((e) => ({ ...e, port: UDP_PORT.targetPort, protocol: 'UDP' }));
}

const PROXY_POD = 'kube-proxy-q7x2m';
const PATHS: Record<string, string> = {
  curl: '/usr/bin/curl',
  ip: '/sbin/ip',
  nslookup: '/usr/bin/nslookup',
  cat: '/bin/cat',
};

/** A session that answers the API reads and execs of one Service, its client pod and the node's kube-proxy pod. */
function session(p: AddressPlan, rules: string, proxyPods = true): { session: ClusterSession; execs: string[] } {
  const execs: string[] = [];
  const svc = udpService(p);
  const eps = udpEndpoints(p);
  const ok = (stdout: string): ExecResult => ({ argv: [], stdout, stderr: '', exitCode: 0, durationMs: 4 });
  const missing = (argv: string[]): ExecResult => ({
    argv,
    stdout: '',
    stderr: `exec: "${argv[0]}": executable file not found in $PATH`,
    exitCode: 127,
    durationMs: 2,
  });
  const podOutputs: Record<string, Raw> = calicoPod(p);
  const podAnswer = (argv: string[]): ExecResult => {
    const line = argv.join(' ');
    if (argv[0] === 'sh') return ok(Object.values(PATHS).join('\n') + '\n');
    if (line === 'cat /etc/resolv.conf') return ok(podOutputs['resolv-conf'].stdout ?? '');
    if (line === `ip route get ${p.clusterIP}`) return ok(podOutputs['route-clusterip'].stdout ?? '');
    if (line.startsWith('ip route get ')) return ok(podOutputs['route-endpoint'].stdout ?? '');
    if (line === 'ip -o addr') return ok(podOutputs.addresses.stdout ?? '');
    if (line === 'ip -d link') return ok(podOutputs.links.stdout ?? '');
    if (line === 'ip neigh') return ok(podOutputs.neighbours.stdout ?? '');
    if (line === 'ip route') return ok(podOutputs.routes.stdout ?? '');
    if (line === `nslookup ${dnsName(p)}`) {
      const r = nslookupOk(dnsName(p), p.clusterIP.replace(/\.\d+$/, '.10'), p.clusterIP);
      return ok(r.stdout ?? '');
    }
    return missing(argv);
  };
  const nodeAnswer = (argv: string[]): ExecResult => {
    const line = argv.join(' ');
    if (line === 'ip -o addr') return ok(nodeAddresses(p));
    if (line === 'ip route') return ok(`default via ${p.router} dev ${p.nodeIface} \n`);
    if (line === 'iptables-save -c') return ok(rules);
    return missing(argv);
  };
  const podObject = (name: string, ip: string, nodeName: string, extra: Record<string, unknown> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: p.svcNamespace, name, uid: `uid-${name}` },
    spec: { nodeName, containers: [{ name: 'app' }], ...extra },
    status: { phase: 'Running', podIP: ip, podIPs: [{ ip }] },
  });
  const stub = {
    namespace: 'default',
    getService: async () => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { namespace: svc.namespace, name: svc.name, uid: 'svc-uid', resourceVersion: '5' },
      spec: {
        type: 'ClusterIP',
        clusterIP: svc.clusterIP,
        clusterIPs: [svc.clusterIP],
        ports: [UDP_PORT],
        selector: { app: svc.name },
      },
    }),
    getServiceEndpoints: async () => [
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          namespace: svc.namespace,
          name: `${svc.name}-x8k2p`,
          labels: { 'kubernetes.io/service-name': svc.name },
        },
        addressType: 'IPv4',
        endpoints: eps.map((e, i) => ({
          addresses: [e.ip],
          conditions: { ready: true, serving: true, terminating: false },
          nodeName: e.nodeName,
          targetRef: { kind: 'Pod', namespace: svc.namespace, name: `${svc.name}-${i}` },
        })),
        ports: [{ name: UDP_PORT.name, port: UDP_PORT.targetPort, protocol: 'UDP' }],
      },
    ],
    getPod: async (_ns: string, name: string) =>
      name === p.podName
        ? podObject(p.podName, p.podIP, p.nodeName)
        : podObject(name, eps[Number(name.split('-').pop())]?.ip ?? p.endpoints[0], 'peer-0'),
    getNode: async () => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: p.nodeName },
      spec: { podCIDR: p.podCIDR, podCIDRs: [p.podCIDR] },
      status: { addresses: [{ type: 'InternalIP', address: p.nodeIP }] },
    }),
    findPods: async (ns: string) =>
      ns === 'kube-system' && proxyPods
        ? [
            {
              ...podObject(PROXY_POD, p.nodeIP, p.nodeName, { hostNetwork: true }),
              metadata: { namespace: 'kube-system', name: PROXY_POD, labels: { 'k8s-app': 'kube-proxy' } },
              spec: { nodeName: p.nodeName, hostNetwork: true, containers: [{ name: 'kube-proxy' }] },
            },
          ]
        : [],
    exec: async (ns: string, pod: string, argv: string[]) => {
      execs.push(`${ns}/${pod}: ${argv.join(' ')}`);
      const r = pod === PROXY_POD ? nodeAnswer(argv) : podAnswer(argv);
      return { ...r, argv };
    },
  };
  return { session: stub as unknown as ClusterSession, execs };
}

function diagnose(p: AddressPlan, rules: string, opts: { proxyPods?: boolean; lang?: 'en' | 'zh-CN' } = {}) {
  const { session: s, execs } = session(p, rules, opts.proxyPods ?? true);
  return diagnoseService(s, {
    namespace: p.svcNamespace,
    service: p.svcName,
    from: p.podName,
    timeoutMs: 3000,
    ...(opts.lang ? { lang: opts.lang } : {}),
  }).then((report) => ({ report, execs }));
}

for (const p of [PLAN_A, PLAN_B]) {
  describe(`a UDP port other than 53 (plan ${p.name}, ${p.clusterIP}:${UDP_PORT.port})`, () => {
    const svc = udpService(p);
    const eps = udpEndpoints(p);

    it('is ok from a pod whose route enters the node that DNATs it, read from the node once', async () => {
      const { report, execs } = await diagnose(p, nodeDump(p, { svc, eps }));
      assert.equal(report.verdict.code, 'ok', report.verdict.summary);
      assert.ok(report.verdict.summary.includes(`${p.clusterIP}:${UDP_PORT.port}`), report.verdict.summary);
      assert.match(report.verdict.summary, /UDP cannot be probed with a connect/);
      assert.equal(report.node?.name, p.nodeName);
      assert.ok((report.node?.counters.before.length ?? 0) > 0);
      // Nothing probed the port, so there is no "after" to compare: the rules are read once.
      assert.equal(execs.filter((e) => e.endsWith('iptables-save -c')).length, 1);
      assert.ok(!report.checks.some((c) => c.id === 'connect-clusterip'));
    });

    it('says what was checked and what was not, in both languages', async () => {
      const rules = nodeDump(p, { svc, eps });
      const { report } = await diagnose(p, rules);
      const { summary, nextSteps } = report.verdict;
      // The node's DNAT targets are named; the endpoints' answers are said to be unchecked.
      for (const e of eps) assert.ok(summary.includes(`${e.ip}:${UDP_PORT.targetPort}`), summary);
      assert.match(summary, /Not checked: whether the endpoints receive and answer/);
      assert.doesNotMatch(summary, /nothing is wrong/);
      assert.ok(!nextSteps.some((n) => /works from this pod/.test(n)), nextSteps.join('\n'));
      assert.ok(nextSteps[0].includes(`conntrack -L -p udp --orig-dst ${p.clusterIP}`), nextSteps[0]);
      assert.ok(nextSteps[0].includes(p.nodeName), nextSteps[0]);
      const zh = (await diagnose(p, rules, { lang: 'zh-CN' })).report.verdict;
      assert.equal(zh.code, 'ok');
      assert.match(zh.summary, /未检查：端点是否收到并应答/);
      assert.ok(zh.nextSteps[0].includes('conntrack'), zh.nextSteps[0]);
      assert.ok(!zh.nextSteps.some((n) => /访问该 Service 正常/.test(n)), zh.nextSteps.join('\n'));
    });

    it('without a kube-proxy pod and no --yes, the first next step says how to let a debug pod read the node', async () => {
      const { report, execs } = await diagnose(p, nodeDump(p, { svc, eps }), { proxyPods: false });
      assert.equal(report.verdict.code, 'inconclusive', report.verdict.summary);
      assert.ok(!execs.some((e) => e.endsWith('iptables-save -c')));
      assert.match(report.verdict.nextSteps[0], /`--yes`/);
      assert.ok(report.verdict.nextSteps[0].includes(p.nodeName), report.verdict.nextSteps[0]);
      const zh = (await diagnose(p, nodeDump(p, { svc, eps }), { proxyPods: false, lang: 'zh-CN' })).report.verdict;
      assert.match(zh.nextSteps[0], /`--yes`.*特权调试 Pod|特权调试 Pod.*`--yes`/);
    });

    it("is clusterip-dnat-missing where the node's rules lack the Service", async () => {
      const { report } = await diagnose(p, nodeDump(p, { svc, eps, omitService: true }));
      assert.equal(report.verdict.code, 'clusterip-dnat-missing', report.verdict.summary);
      assert.ok(report.verdict.summary.includes(`${p.clusterIP}:${UDP_PORT.port}`), report.verdict.summary);
    });
  });
}
