/**
 * Resolves a scenario into what the lab builds: namespace names, which pods exist, which are ready, what each pod
 * serves, each Service's endpoints, and which Services each node's rules leave out. Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import type { Scenario, ScenarioNode, ScenarioPod, ScenarioService } from '../scenario';

/** Every lab namespace starts with this; `down` and the tests look for it. */
export const LAB_PREFIX = 'kpp-';
/** `kpp-p<owner pid>r<random>-...`: the owner pid tells a live lab from a stale one. */
const RUN_ID = /^p(\d+)r[0-9a-f]+$/;

export type ListenerKind = 'http' | 'https' | 'dns-udp' | 'dns-tcp' | 'udp-echo';

export interface Listener {
  port: number;
  kind: ListenerKind;
}

export interface PodPlan {
  pod: ScenarioPod;
  /** `namespace/name` */
  key: string;
  netns: string;
  node: ScenarioNode;
  ready: boolean;
  /** What the pod's server listens on (empty when it serves nothing or its service is down). */
  listeners: Listener[];
}

export interface ServicePlan {
  service: ScenarioService;
  key: string;
  endpoints: PodPlan[];
}

export interface NodePlan {
  node: ScenarioNode;
  netns: string;
  /** Services (`ns/name`) this node's kube-proxy rules leave out (staleRules). */
  missingServices: Set<string>;
  /** The name of the node's kube-proxy pod in kube-system (hostNetwork), unless the scenario has none. */
  kubeProxyPod?: string;
}

export interface LabPlan {
  runId: string;
  scenario: Scenario;
  /** The namespace holding the node network's bridge and the upstream router address. */
  hostNetns: string;
  /** The seed case's custom gateway, on its own segment. */
  gatewayNetns?: string;
  nodes: NodePlan[];
  pods: PodPlan[];
  services: ServicePlan[];
  apiMode: 'current' | 'legacy-1.20';
}

export function newRunId(pid: number = process.pid): string {
  const random = Math.floor(Math.random() * 0x10000)
    .toString(16)
    .padStart(4, '0');
  return `p${pid}r${random}`;
}

export function netnsName(runId: string, short: string): string {
  return `${LAB_PREFIX}${runId}-${short}`;
}

/** The pid that owns a lab namespace, or undefined when the name is not in this lab's format. */
export function ownerPid(netns: string): number | undefined {
  if (!netns.startsWith(LAB_PREFIX)) return undefined;
  const runId = netns.slice(LAB_PREFIX.length).split('-')[0];
  const m = RUN_ID.exec(runId);
  return m ? Number(m[1]) : undefined;
}

export function runIdOf(netns: string): string | undefined {
  if (!netns.startsWith(LAB_PREFIX)) return undefined;
  const runId = netns.slice(LAB_PREFIX.length).split('-')[0];
  return RUN_ID.test(runId) ? runId : undefined;
}

/**
 * `kube-proxy-<5 chars>` as a DaemonSet names its pods (the generateName alphabet), derived from the node name so
 * a node's kube-proxy pod keeps its name across runs.
 */
export function kubeProxyPodName(node: string): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const hash = createHash('sha256').update(`kube-proxy/${node}`).digest();
  return `kube-proxy-${[...hash.subarray(0, 5)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

export function podKey(p: { namespace: string; name: string }): string {
  return `${p.namespace}/${p.name}`;
}

function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

function listenerKind(pod: ScenarioPod, protocol: 'TCP' | 'UDP'): ListenerKind {
  if (pod.role === 'dns') return protocol === 'UDP' ? 'dns-udp' : 'dns-tcp';
  if (protocol === 'UDP') return 'udp-echo';
  return pod.role === 'apiserver' ? 'https' : 'http';
}

export function planLab(scenario: Scenario, runId: string): LabPlan {
  const f = scenario.faults;
  const podPlans: PodPlan[] = [];
  const servicePlans: ServicePlan[] = [];

  const endpointPodsOf = (svc: ScenarioService): ScenarioPod[] =>
    svc.endpointPods
      ? scenario.pods.filter((p) => svc.endpointPods!.includes(podKey(p)))
      : svc.selector
        ? scenario.pods.filter((p) => p.namespace === svc.namespace && selects(svc.selector!, p.labels))
        : [];

  // Scaled to zero: the pods behind a noEndpoints Service do not exist at all.
  const removed = new Set(
    scenario.services.filter((s) => f.noEndpoints.includes(podKey(s))).flatMap((s) => endpointPodsOf(s).map(podKey)),
  );
  const notReady = new Set(
    scenario.services
      .filter((s) => f.endpointsNotReady.includes(podKey(s)))
      .flatMap((s) => endpointPodsOf(s).map(podKey)),
  );

  for (const pod of scenario.pods) {
    const key = podKey(pod);
    if (removed.has(key)) continue;
    const node = scenario.nodes.find((n) => n.name === pod.node)!;
    podPlans.push({
      pod,
      key,
      netns: netnsName(runId, `p-${pod.namespace}-${pod.name}`),
      node,
      ready: pod.ready && !notReady.has(key),
      listeners: [],
    });
  }

  for (const service of scenario.services) {
    const key = podKey(service);
    const members = new Set(endpointPodsOf(service).map(podKey));
    const endpoints = podPlans.filter((p) => members.has(p.key));
    servicePlans.push({ service, key, endpoints });
    const down = f.backendDown.includes(key);
    for (const ep of endpoints) {
      if (down || (f.dnsDown && ep.pod.role === 'dns')) continue;
      for (const port of service.ports) {
        const kind = listenerKind(ep.pod, port.protocol);
        const listen = port.containerPort ?? port.targetPort;
        if (!ep.listeners.some((l) => l.port === listen && l.kind === kind)) ep.listeners.push({ port: listen, kind });
      }
    }
  }

  const nodes: NodePlan[] = scenario.nodes.map((node) => ({
    node,
    netns: netnsName(runId, `n-${node.name}`),
    missingServices: new Set(f.staleRules.filter((s) => s.node === node.name).flatMap((s) => s.services)),
    ...(scenario.kubeProxyPods ? { kubeProxyPod: kubeProxyPodName(node.name) } : {}),
  }));

  return {
    runId,
    scenario,
    hostNetns: netnsName(runId, 'hostnet'),
    ...(f.customGateway ? { gatewayNetns: netnsName(runId, 'gw') } : {}),
    nodes,
    pods: podPlans,
    services: servicePlans,
    apiMode: f.legacyApi ? 'legacy-1.20' : 'current',
  };
}

/** Every namespace the plan creates, the shared ones first. */
export function allNamespaces(plan: LabPlan): string[] {
  return [
    plan.hostNetns,
    ...(plan.gatewayNetns ? [plan.gatewayNetns] : []),
    ...plan.nodes.map((n) => n.netns),
    ...plan.pods.map((p) => p.netns),
  ];
}
