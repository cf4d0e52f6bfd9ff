/**
 * A running lab: the scenario's data plane (namespaces, veths, routes, kube-proxy rules from the engine's
 * generator, backends, cluster DNS) plus the lab API server serving the scenario's objects, with exec into pods
 * and privileged hostNetwork pods that exec in their node's namespace.
 *
 * `startLab` tears down whatever it built when it fails; `stop()` tears down everything, and exit/signal hooks do
 * the same if the process ends first.
 */
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatIp, parseCidr } from '../../../src/core/common/ip';
import {
  startLabApiServer,
  viewerContextName,
  type ExecHandler,
  type KubeObject,
  type LabApiServer,
} from '../apiserver';
import { TOOLS, type Scenario, type ScenarioNode } from '../scenario';
import { makeServingCert } from './certs';
import { NETNS_ETC, registerTeardown, removeLabNamespaces, workDirPrefix } from './cleanup';
import { clusterDnsZone } from './dns';
import { KUBE_PROXY_BINARIES, makeExecHandler, type ExecContainer } from './exec';
import { addPodNetwork, buildNetwork, createNamespaces } from './network';
import { clusterObjects } from './objects';
import { allNamespaces, netnsName, newRunId, planLab, podKey, type LabPlan, type PodPlan } from './plan';
import { filterCommands, loadNodeRules, nodeRules } from './rules';
import { startPodServer, type RunningServer } from './servers';
import { labSupport, nsExec, type RunOptions, type RunResult } from './sys';

export interface LabOptions {
  runId?: string;
  /** Certificates, kubeconfig, server configs; default a fresh folder under the OS temp folder, removed at stop. */
  workDir?: string;
  /** Where to write the kubeconfig (context `kpp-lab`); default `<workDir>/kubeconfig`. */
  kubeconfigPath?: string;
  /** Progress lines (phase timings, generator warnings). */
  log?: (line: string) => void;
  /** Request lines of the API server. */
  apiLog?: (line: string) => void;
}

/** A pod as the lab runs it: the scenario's pods and the ones created through the API. */
export interface RuntimePod {
  key: string;
  netns: string;
  node: ScenarioNode;
  ip: string;
  hostNetwork: boolean;
  containers: ExecContainer[];
  /** Created through the API (removed by deletePod or at teardown). */
  created: boolean;
}

export interface Lab {
  runId: string;
  plan: LabPlan;
  workDir: string;
  kubeconfig: string;
  api: LabApiServer;
  exec: ExecHandler;
  /** Every namespace of this lab that exists now. */
  namespaces(): string[];
  nodeNetns(node: string): string;
  podNetns(namespace: string, name: string): string;
  /** Runs argv in a node's namespace (as the node itself: `iptables-save -c`, curl from the host). */
  onNode(node: string, argv: string[], opts?: RunOptions): Promise<RunResult>;
  stop(): Promise<void>;
}

const RESOLV_OPTIONS = 'options ndots:5';

export async function startLab(scenario: Scenario, opts: LabOptions = {}): Promise<Lab> {
  const support = labSupport();
  if (!support.ok) throw new Error(support.reason);

  const runId = opts.runId ?? newRunId();
  const log = opts.log ?? (() => undefined);
  const ownWorkDir = !opts.workDir;
  const workDir = opts.workDir ?? fs.mkdtempSync(workDirPrefix(runId));
  fs.mkdirSync(workDir, { recursive: true });
  const plan = planLab(scenario, runId);
  const created = new Date().toISOString();
  const started = Date.now();
  const phase = (what: string) => log(`${what} (${Date.now() - started} ms)`);

  const namespaces = allNamespaces(plan);
  const servers = new Map<string, RunningServer>();
  const children = new Set<ChildProcess>();
  const pods = new Map<string, RuntimePod>();
  let api: LabApiServer | undefined;
  let linkCounter = 0;
  const unregister = registerTeardown({
    pids: () =>
      [...[...servers.values()].map((s) => s.pid), ...[...children].map((c) => c.pid ?? 0)].filter((p) => p > 0),
    namespaces,
    ...(ownWorkDir ? { workDir } : {}),
  });

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all([...servers.values()].map((s) => stopServer(s)));
    await api?.close().catch(() => undefined);
    removeLabNamespaces(namespaces);
    if (ownWorkDir) fs.rmSync(workDir, { recursive: true, force: true });
    unregister();
    log(`lab ${runId} removed`);
  };

  try {
    const kubernetes = plan.services.find((s) => s.key === 'default/kubernetes');
    const [tls] = await Promise.all([
      makeServingCert(
        path.join(workDir, 'tls'),
        [
          ...(kubernetes ? [kubernetes.service.clusterIP] : []),
          ...plan.pods.filter((p) => p.pod.role === 'apiserver').map((p) => p.pod.ip),
        ],
        [
          'kubernetes',
          'kubernetes.default',
          'kubernetes.default.svc',
          `kubernetes.default.svc.${scenario.clusterDomain}`,
        ],
      ),
      createNamespaces(plan),
    ]);
    phase('namespaces created');
    // Servers bind 0.0.0.0 inside their pod's namespace, which works before its links exist: start them now so
    // their start-up overlaps the network build.
    const zone = clusterDnsZone(plan);
    const serving = Promise.allSettled(
      plan.pods
        .filter((p) => p.listeners.length > 0)
        .map(async (p) => servers.set(p.key, await startPodServer(p, workDir, tls, zone))),
    );
    const networkBuilt = (async () => {
      await buildNetwork(plan);
      phase('network built');
      await Promise.all(
        plan.nodes.map(async (n) => {
          const rules = nodeRules(plan, n, created);
          for (const w of rules.warnings) log(`rules for ${n.node.name}: ${w}`);
          await loadNodeRules(n, rules);
        }),
      );
      for (const c of filterCommands(plan)) await nsExec(c.netns, c.argv);
      phase('kube-proxy rules loaded');
    })();
    // Wait for both before judging, so a failure never leaves a server starting behind the teardown.
    const [networkError, serverResults] = await Promise.all([
      networkBuilt.then(
        () => undefined,
        (e: unknown) => e ?? new Error('network build failed'),
      ),
      serving,
    ]);
    if (networkError) throw networkError;
    const failed = serverResults.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    phase('pod servers listening');

    for (const p of plan.pods) {
      pods.set(p.key, {
        key: p.key,
        netns: p.netns,
        node: p.node,
        ip: p.pod.ip,
        hostNetwork: false,
        containers: [{ name: p.pod.container, tools: p.pod.tools, ...(p.pod.distroless ? { base: false } : {}) }],
        created: false,
      });
      writeResolvConf(plan, p.netns, p.pod.namespace);
    }
    for (const n of plan.nodes) {
      writeResolvConf(plan, n.netns, 'default');
      // kube-proxy runs in the node's network namespace: its exec is the node's view (iptables-save -c, nft, ip).
      if (n.kubeProxyPod)
        pods.set(`kube-system/${n.kubeProxyPod}`, {
          key: `kube-system/${n.kubeProxyPod}`,
          netns: n.netns,
          node: n.node,
          ip: n.node.ip,
          hostNetwork: true,
          containers: [{ name: 'kube-proxy', tools: [], binaries: KUBE_PROXY_BINARIES }],
          created: false,
        });
    }

    const exec = makeExecHandler({
      findPod: (ns, name) => pods.get(`${ns}/${name}`),
      binDir: path.join(workDir, 'bin'),
      track: (child) => {
        children.add(child);
        child.on('close', () => children.delete(child));
      },
    });

    const createPod = async (pod: KubeObject): Promise<KubeObject> => {
      const runtime = await addPod(plan, pod, pods, namespaces, ++linkCounter);
      return withRunningStatus(pod, runtime, created);
    };
    const deletePod = async (namespace: string, name: string): Promise<void> => {
      const key = `${namespace}/${name}`;
      const runtime = pods.get(key);
      if (!runtime) return;
      pods.delete(key);
      const server = servers.get(key);
      if (server) {
        servers.delete(key);
        await stopServer(server);
      }
      if (!runtime.hostNetwork) {
        removeLabNamespaces([runtime.netns]);
        const at = namespaces.indexOf(runtime.netns);
        if (at >= 0) namespaces.splice(at, 1);
      }
    };
    const addEphemeralContainer = async (namespace: string, pod: string, container: Record<string, unknown>) => {
      const runtime = pods.get(`${namespace}/${pod}`);
      if (!runtime) throw new Error(`pods "${pod}" not found`);
      const name = typeof container.name === 'string' ? container.name : `debugger-${runtime.containers.length}`;
      if (!runtime.containers.some((c) => c.name === name)) runtime.containers.push({ name, tools: 'all' });
    };

    const server = await startLabApiServer({
      objects: clusterObjects(plan, created),
      exec,
      createPod,
      deletePod,
      addEphemeralContainer,
      mode: plan.apiMode,
      ...(scenario.faults.apiGoesAway
        ? {
            goAwayAfterRequests: scenario.faults.apiGoesAway.afterRequests,
            ...(scenario.faults.apiGoesAway.downForMs !== undefined
              ? { downForMs: scenario.faults.apiGoesAway.downForMs }
              : {}),
          }
        : {}),
      workDir,
      ...(opts.apiLog ? { log: opts.apiLog } : {}),
    });
    api = server;
    const kubeconfig = server.writeKubeconfig(opts.kubeconfigPath ?? path.join(workDir, 'kubeconfig'), {
      ...(scenario.faults.execDenied ? { currentContext: viewerContextName } : {}),
    });
    phase(`API server at ${server.url}`);

    const nodeNetns = (node: string): string => {
      const n = plan.nodes.find((x) => x.node.name === node);
      if (!n) throw new Error(`no node "${node}" in scenario ${scenario.name}`);
      return n.netns;
    };
    return {
      runId,
      plan,
      workDir,
      kubeconfig,
      api: server,
      exec,
      namespaces: () => [...namespaces],
      nodeNetns,
      podNetns: (namespace, name) => {
        const p = pods.get(`${namespace}/${name}`);
        if (!p) throw new Error(`no pod ${namespace}/${name} in the lab`);
        return p.netns;
      },
      onNode: (node, argv, runOpts) => nsExec(nodeNetns(node), argv, { check: false, ...runOpts }),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

function stopServer(s: RunningServer): Promise<void> {
  s.stop();
  return new Promise((resolve) => {
    const deadline = Date.now() + 2000;
    const poll = () => {
      let alive = true;
      try {
        process.kill(s.pid, 0);
      } catch {
        alive = false;
      }
      if (!alive || Date.now() > deadline) {
        if (alive) {
          try {
            process.kill(s.pid, 'SIGKILL');
          } catch {
            // gone meanwhile
          }
        }
        resolve();
      } else setTimeout(poll, 20);
    };
    poll();
  });
}

/** The pod's resolv.conf (kube-dns ClusterIP, cluster search path), bind-mounted by `ip netns exec`. */
function writeResolvConf(plan: LabPlan, netns: string, namespace: string): void {
  const dns = plan.services.find((s) => s.key === 'kube-system/kube-dns');
  if (!dns) return;
  const d = plan.scenario.clusterDomain;
  const dir = path.join(NETNS_ETC, netns);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new Error(
      `cannot create ${dir} for the pods' resolv.conf (${(e as Error).message}); without root, give the lab a ` +
        'writable /etc first (overlay mount, see test/lab/README.md)',
    );
  }
  fs.writeFileSync(
    path.join(dir, 'resolv.conf'),
    `search ${namespace}.svc.${d} svc.${d} ${d}\nnameserver ${dns.service.clusterIP}\n${RESOLV_OPTIONS}\n`,
  );
}

function freePodIp(node: ScenarioNode, pods: Map<string, RuntimePod>): string {
  const cidr = parseCidr(node.podCidr)!;
  const used = new Set([...pods.values()].map((p) => p.ip));
  const size = 1n << BigInt(32 - cidr.prefix);
  for (let host = 100n; host < size - 1n; host++) {
    const ip = formatIp({ family: 4, value: cidr.base + host });
    if (!used.has(ip)) return ip;
  }
  throw new Error(`no free pod IP left in ${node.podCidr}`);
}

type Json = Record<string, unknown>;

/** A pod created through the API: hostNetwork pods run in their node's namespace, others get their own. */
async function addPod(
  plan: LabPlan,
  pod: KubeObject,
  pods: Map<string, RuntimePod>,
  namespaces: string[],
  linkIndex: number,
): Promise<RuntimePod> {
  const spec = (pod.spec ?? {}) as Json;
  const namespace = pod.metadata.namespace ?? 'default';
  const name = pod.metadata.name;
  const key = `${namespace}/${name}`;
  if (pods.has(key)) throw new Error(`pod ${key} already runs in the lab`);
  const nodeName = typeof spec.nodeName === 'string' ? spec.nodeName : plan.nodes[0].node.name;
  const nodePlan = plan.nodes.find((n) => n.node.name === nodeName);
  if (!nodePlan) throw new Error(`node "${nodeName}" is not a node of this lab`);
  const containers: ExecContainer[] = ((spec.containers ?? []) as Json[]).map((c, i) => ({
    name: typeof c.name === 'string' ? c.name : `c${i}`,
    tools: 'all',
  }));
  if (spec.hostNetwork === true) {
    const runtime: RuntimePod = {
      key,
      netns: nodePlan.netns,
      node: nodePlan.node,
      ip: nodePlan.node.ip,
      hostNetwork: true,
      containers,
      created: true,
    };
    pods.set(key, runtime);
    return runtime;
  }
  const ip = freePodIp(nodePlan.node, pods);
  const podPlan: PodPlan = {
    pod: {
      namespace,
      name,
      node: nodeName,
      ip,
      role: 'client',
      labels: {},
      tools: [...TOOLS],
      ready: true,
      container: containers[0]?.name ?? 'main',
      network: 'veth',
      distroless: false,
    },
    key: podKey({ namespace, name }),
    netns: netnsName(plan.runId, `p-${namespace}-${name}`),
    node: nodePlan.node,
    ready: true,
    listeners: [],
  };
  namespaces.push(podPlan.netns);
  await addPodNetwork(plan, podPlan, linkIndex);
  writeResolvConf(plan, podPlan.netns, namespace);
  const runtime: RuntimePod = {
    key,
    netns: podPlan.netns,
    node: nodePlan.node,
    ip,
    hostNetwork: false,
    containers,
    created: true,
  };
  pods.set(key, runtime);
  return runtime;
}

function withRunningStatus(pod: KubeObject, runtime: RuntimePod, now: string): KubeObject {
  const spec = (pod.spec ?? {}) as Json;
  const containers = (spec.containers ?? []) as Json[];
  const condition = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: now });
  return {
    ...pod,
    spec: { ...spec, nodeName: runtime.node.name },
    status: {
      phase: 'Running',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(condition),
      hostIP: runtime.node.ip,
      hostIPs: [{ ip: runtime.node.ip }],
      podIP: runtime.ip,
      podIPs: [{ ip: runtime.ip }],
      startTime: now,
      containerStatuses: containers.map((c) => ({
        name: c.name,
        image: c.image,
        imageID: '',
        ready: true,
        started: true,
        restartCount: 0,
        state: { running: { startedAt: now } },
      })),
    },
  };
}
