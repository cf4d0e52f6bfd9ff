/**
 * The benchmark's input: a synthetic cluster turned into the iptables-restore text kube-proxy would write, plus
 * the facts the other phases need to aim at it (Service cluster IPs and their endpoints for traces, editor
 * positions for hovers). Positions are found by scanning the text, not through the engine under test.
 */
import { syntheticCluster, type SyntheticOptions } from '../../src/core/kube/synthetic';
import { normaliseCluster } from '../../src/core/kube/objects';
import { generateIptablesRestore, type GenerateOptions } from '../../src/core/iptables/generate';
import { serviceKey, type ServiceInfo } from '../../src/core/kube/types';

/** The node kube-proxy runs on in the generated dump; the tracer is told it owns this address. */
export const NODE_IP = '192.168.0.10';

export function clusterOptions(services: number, endpointsPerService: number): SyntheticOptions {
  // A realistic mix: a fifth NodePorts, some LoadBalancers with Local policy, affinity and external IPs. The NodePort
  // range holds 2,768 ports: past 10,000 Services, there are as many NodePort and LoadBalancer Services as at 10,000.
  const spread = Math.max(1, services / 10_000);
  return {
    services,
    endpointsPerService,
    nodePortEvery: Math.ceil(5 * spread),
    loadBalancerEvery: Math.ceil(50 * spread),
    localPolicyEvery: 4,
    affinityEvery: 100,
    externalIPEvery: 200,
    nodes: 3,
  };
}

export const GENERATE_OPTIONS: GenerateOptions = {
  // Keep the per-endpoint comments kube-proxy drops above 1000 endpoints: the editor shows them, and the
  // dump then has the ~25 MB of a chatty real node.
  largeClusterMode: false,
  nodeName: 'node-0',
  nodeIPs: [NODE_IP],
};

export interface TraceTarget {
  service: string;
  clusterIP: string;
  port: number;
  /** `ip:port` of every ready endpoint: a correct trace DNATs to one of them. */
  endpoints: string[];
}

export interface Workload {
  text: string;
  rules: number;
  bytes: number;
  /** Wall time of each generation step, ms. */
  timings: { synthetic: number; normalise: number; generate: number; total: number };
  /** Services without session affinity from the middle of the dump, in dump order. */
  targets: TraceTarget[];
  /** The ClientIP-affinity Service nearest the middle (its `recent` rules make the tracer fork), if any. */
  affinityTarget?: TraceTarget;
  /** A pod IP (an endpoint of another Service) to send packets from. */
  podIP: string;
}

export function buildWorkload(services: number, endpointsPerService: number, targetCount: number): Workload {
  const t0 = performance.now();
  const list = syntheticCluster(clusterOptions(services, endpointsPerService));
  const t1 = performance.now();
  const snapshot = normaliseCluster(list);
  const t2 = performance.now();
  const generated = generateIptablesRestore(snapshot, GENERATE_OPTIONS);
  const t3 = performance.now();
  if (generated.warnings.length) console.log(`bench: generator warnings: ${generated.warnings.slice(0, 3).join('; ')}`);

  const text = generated.text;
  let rules = 0;
  for (let i = text.indexOf('\n-A '); i >= 0; i = text.indexOf('\n-A ', i + 1)) rules++;
  if (text.startsWith('-A ')) rules++;

  const withEndpoints = snapshot.services.filter((s) => s.clusterIP && s.clusterIP !== 'None' && s.ports.length);
  const toTarget = (s: ServiceInfo): TraceTarget => {
    const port = s.ports[0];
    const eps = snapshot.endpoints[serviceKey(s.namespace, s.name)]?.[port.name] ?? [];
    return {
      service: serviceKey(s.namespace, s.name),
      clusterIP: s.clusterIP,
      port: port.port,
      endpoints: eps.filter((e) => e.ready).map((e) => `${e.ip}:${e.port}`),
    };
  };
  const mid = Math.floor(withEndpoints.length / 2);
  const plainBeforeMid = withEndpoints.slice(0, mid).filter((s) => s.sessionAffinity !== 'ClientIP').length;
  const plain = withEndpoints.filter((s) => s.sessionAffinity !== 'ClientIP');
  const from = Math.max(0, Math.min(plain.length - targetCount, plainBeforeMid - Math.floor(targetCount / 2)));
  const targets = plain.slice(from, from + targetCount).map(toTarget);
  const affinity =
    withEndpoints.slice(mid).find((s) => s.sessionAffinity === 'ClientIP') ??
    withEndpoints.find((s) => s.sessionAffinity === 'ClientIP');
  const first = withEndpoints[0];
  const podIP =
    snapshot.endpoints[serviceKey(first.namespace, first.name)]?.[first.ports[0].name]?.[0]?.ip ?? '10.128.0.1';
  return {
    text,
    rules,
    bytes: Buffer.byteLength(text),
    timings: { synthetic: t1 - t0, normalise: t2 - t1, generate: t3 - t2, total: t3 - t0 },
    targets,
    ...(affinity ? { affinityTarget: toTarget(affinity) } : {}),
    podIP,
  };
}

export type PositionKind = 'service-jump' | 'probability' | 'dnat' | 'endpoint-jump' | 'endpoint-chain';

export interface EditorPosition {
  kind: PositionKind;
  line: number;
  character: number;
}

/**
 * Editor positions spread evenly over the document: the KUBE-SVC target of a KUBE-SERVICES jump, a statistic
 * probability, a DNAT destination, a KUBE-SEP jump target and the chain name of a DNAT rule. Each position
 * sits in the middle of its token.
 */
export function editorPositions(text: string, perKind: number): EditorPosition[] {
  const found: Record<PositionKind, EditorPosition[]> = {
    'service-jump': [],
    probability: [],
    dnat: [],
    'endpoint-jump': [],
    'endpoint-chain': [],
  };
  const lines = text.split('\n');
  const mid = (start: number, token: string) => start + Math.floor(token.length / 2);
  const wordAfter = (line: string, marker: string): { at: number; word: string } | undefined => {
    const i = line.indexOf(marker);
    if (i < 0) return undefined;
    const at = i + marker.length;
    const end = line.indexOf(' ', at);
    return { at, word: line.slice(at, end < 0 ? line.length : end) };
  };
  lines.forEach((l, line) => {
    if (!l.startsWith('-A KUBE-')) return;
    if (l.startsWith('-A KUBE-SERVICES ')) {
      const w = wordAfter(l, ' -j KUBE-SVC-');
      if (w) found['service-jump'].push({ kind: 'service-jump', line, character: mid(w.at - 9, 'KUBE-SVC-' + w.word) });
    } else if (l.startsWith('-A KUBE-SVC-')) {
      const p = wordAfter(l, '--probability ');
      if (p) found.probability.push({ kind: 'probability', line, character: mid(p.at, p.word) });
      const j = wordAfter(l, ' -j KUBE-SEP-');
      if (j)
        found['endpoint-jump'].push({ kind: 'endpoint-jump', line, character: mid(j.at - 9, 'KUBE-SEP-' + j.word) });
    } else if (l.startsWith('-A KUBE-SEP-')) {
      const d = wordAfter(l, '--to-destination ');
      if (d) {
        found.dnat.push({ kind: 'dnat', line, character: mid(d.at, d.word) });
        found['endpoint-chain'].push({ kind: 'endpoint-chain', line, character: 3 + 8 });
      }
    }
  });
  const spread = (list: EditorPosition[]) => {
    if (list.length <= perKind) return list;
    return Array.from({ length: perKind }, (_, i) => list[Math.floor(((i + 0.5) * list.length) / perKind)]);
  };
  return (Object.keys(found) as PositionKind[]).flatMap((k) => spread(found[k]));
}
