// A client pod with several containers: the checks run in kubectl's default one (the
// kubectl.kubernetes.io/default-container annotation, else the first), and when that one has no tool to connect
// with (a distroless app beside a sidecar with a shell), in the first other container that has one: they share the
// pod's network. Before, the first container alone was probed and the verdict was tool-missing (or a debug
// container was offered) although the pod had the tools. --container still decides alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterSession, ExecResult, KubeObject } from '../../../src/cluster';
import { diagnoseService } from '../../../src/cluster/diagnose';
import { calicoPod, CURL_OK, dnsName, endpoints, nslookupOk, PLANS, service, type AddressPlan } from './fixtures';

const NO_SH: ExecResult = {
  argv: [],
  stdout: '',
  stderr:
    'OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in $PATH: unknown',
  exitCode: 127,
  durationMs: 3,
};

/** Containers and what each has: `null` a distroless one (no sh), else the tools' paths. */
type Containers = Record<string, string[] | null>;

function session(p: AddressPlan, containers: Containers, annotations: Record<string, string> = {}) {
  const svc = service(p);
  const eps = endpoints(p);
  const used: string[] = [];
  const ok = (stdout: string): ExecResult => ({ argv: [], stdout, stderr: '', exitCode: 0, durationMs: 4 });
  const outputs = calicoPod(p);
  const answer = (argv: string[], tools: string[]): ExecResult => {
    const line = argv.join(' ');
    if (argv[0] === 'sh') return ok(tools.map((t) => `/usr/bin/${t}`).join('\n') + '\n');
    if (!tools.includes(argv[0])) return { ...NO_SH, stderr: `exec: "${argv[0]}": executable file not found` };
    if (argv[0] === 'curl') return ok(CURL_OK(argv[argv.length - 1]).stdout ?? '');
    if (line === 'cat /etc/resolv.conf') return ok(outputs['resolv-conf'].stdout ?? '');
    if (line === `ip route get ${p.clusterIP}`) return ok(outputs['route-clusterip'].stdout ?? '');
    if (line.startsWith('ip route get ')) return ok(outputs['route-endpoint'].stdout ?? '');
    if (line === 'ip -o addr') return ok(outputs.addresses.stdout ?? '');
    if (line === 'ip -d link') return ok(outputs.links.stdout ?? '');
    if (line === 'ip neigh') return ok(outputs.neighbours.stdout ?? '');
    if (line === 'ip route') return ok(outputs.routes.stdout ?? '');
    if (line === `nslookup ${dnsName(p)}`)
      return ok(nslookupOk(dnsName(p), p.clusterIP.replace(/\.\d+$/, '.10'), p.clusterIP).stdout ?? '');
    return { ...NO_SH, exitCode: 1, stderr: 'unexpected' };
  };
  const podObject: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: p.svcNamespace, name: p.podName, uid: 'uid-client', annotations },
    spec: { nodeName: p.nodeName, containers: Object.keys(containers).map((name) => ({ name })) },
    status: { phase: 'Running', podIP: p.podIP, podIPs: [{ ip: p.podIP }] },
  };
  const stub = {
    namespace: 'default',
    getService: async () => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { namespace: svc.namespace, name: svc.name, uid: 'svc-uid' },
      spec: { type: 'ClusterIP', clusterIP: svc.clusterIP, clusterIPs: [svc.clusterIP], ports: svc.ports },
    }),
    getServiceEndpoints: async () => [
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          namespace: svc.namespace,
          name: `${svc.name}-a1`,
          labels: { 'kubernetes.io/service-name': svc.name },
        },
        addressType: 'IPv4',
        endpoints: eps.map((e) => ({ addresses: [e.ip], conditions: { ready: true }, nodeName: e.nodeName })),
        ports: [{ name: p.portName, port: p.targetPort, protocol: 'TCP' }],
      },
    ],
    getPod: async () => podObject,
    getNode: async () => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: p.nodeName },
      spec: { podCIDR: p.podCIDR },
      status: { addresses: [{ type: 'InternalIP', address: p.nodeIP }] },
    }),
    findPods: async () => [],
    exec: async (_ns: string, _pod: string, argv: string[], o: { container?: string } = {}) => {
      const c = o.container ?? Object.keys(containers)[0];
      used.push(`${c}: ${argv[0]}`);
      const tools = containers[c];
      return { ...(tools === null ? NO_SH : answer(argv, tools)), argv };
    },
  };
  return { session: stub as unknown as ClusterSession, used };
}

async function diagnose(
  p: AddressPlan,
  containers: Containers,
  opts: { container?: string; annotations?: Record<string, string>; declined?: boolean; lang?: 'en' | 'zh-CN' } = {},
) {
  const { session: s, used } = session(p, containers, opts.annotations);
  const report = await diagnoseService(s, {
    namespace: p.svcNamespace,
    service: p.svcName,
    from: p.podName,
    timeoutMs: 3000,
    nodeEvidence: false,
    ...(opts.container ? { container: opts.container } : {}),
    // What kpp diagnose without --yes (and no terminal to ask on) answers.
    ...(opts.declined ? { confirm: async () => false } : {}),
    ...(opts.lang ? { lang: opts.lang } : {}),
  });
  return { report, used };
}

const SHELL = ['curl', 'ip', 'nslookup', 'cat'];

for (const p of PLANS) {
  describe(`a client pod with several containers (plan ${p.name}, ${p.clusterIP})`, () => {
    it('a distroless first container: the checks run in the sidecar that has the tools', async () => {
      const { report, used } = await diagnose(p, { app: null, 'debug-sidecar': SHELL });
      assert.equal(report.verdict.code, 'ok', report.verdict.summary);
      assert.equal(report.source.container, 'debug-sidecar');
      assert.ok(used.some((u) => u === 'debug-sidecar: curl'));
      assert.ok(!used.some((u) => u.startsWith('app: curl')));
    });

    it("the default-container annotation is kubectl's default", async () => {
      const { report, used } = await diagnose(
        p,
        { 'istio-proxy': ['cat'], web: SHELL },
        { annotations: { 'kubectl.kubernetes.io/default-container': 'web' } },
      );
      assert.equal(report.verdict.code, 'ok', report.verdict.summary);
      assert.equal(report.source.container, 'web');
      assert.equal(used[0], 'web: sh');
    });

    it('--container decides alone: no other container is tried', async () => {
      const { report, used } = await diagnose(p, { app: null, 'debug-sidecar': SHELL }, { container: 'app' });
      assert.equal(report.verdict.code, 'tool-missing', report.verdict.summary);
      assert.ok(!used.some((u) => u.startsWith('debug-sidecar')));
    });

    it('a debug container not allowed: the first next step says --yes brings one', async () => {
      const { report } = await diagnose(p, { app: null }, { declined: true });
      assert.equal(report.verdict.code, 'tool-missing', report.verdict.summary);
      assert.match(report.verdict.nextSteps[0], /ephemeral debug container kpp offers \(pass `--yes`/);
      const zh = (await diagnose(p, { app: null }, { declined: true, lang: 'zh-CN' })).report.verdict;
      assert.match(zh.nextSteps[0], /临时调试容器.*`--yes`/);
      // Nothing was declined when nobody was asked (no confirm callback): the steps are as they were.
      const asked = (await diagnose(p, { app: null })).report.verdict;
      assert.doesNotMatch(asked.nextSteps[0], /--yes/);
    });

    it('no container has a tool: tool-missing, from the default container probe', async () => {
      const { report } = await diagnose(p, { app: null, other: ['cat'] });
      assert.equal(report.verdict.code, 'tool-missing', report.verdict.summary);
      assert.equal(report.source.container, 'app');
    });
  });
}
