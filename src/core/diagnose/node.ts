/**
 * The node side: what to run in the node's namespace (through its kube-proxy pod or a hostNetwork debug pod), and
 * how the rule counters of two captures pair up. What the dumps say is read in nodeDumps.ts, with the engine.
 */
import { safeIp } from './plan';
import type { CheckSpec, NodeEvidence, RuleCounter } from './types';
import type { ServiceInfo } from '../kube/types';

export type ProxyMode = NonNullable<NodeEvidence['mode']>;

/** The address family of the Service's ClusterIP: iptables keeps IPv6 rules apart, in `ip6tables-save`. */
export type IpFamily = 4 | 6;

const RULES_ARGV: Record<ProxyMode, string[]> = {
  iptables: ['iptables-save', '-c'],
  ipvs: ['ipvsadm', '-Ln', '--stats'],
  nftables: ['nft', 'list', 'ruleset'],
};

/** The dump command of a mode for a family (ipvsadm and nft list both families at once). */
function rulesArgv(mode: ProxyMode, family: IpFamily): string[] {
  return mode === 'iptables' && family === 6 ? ['ip6tables-save', '-c'] : [...RULES_ARGV[mode]];
}

/** Ids of the node checks when the mode is not known yet: one per dump tool. */
export const NODE_RULE_CHECK_IDS: Record<ProxyMode, string> = {
  iptables: 'node-iptables',
  ipvs: 'node-ipvs',
  nftables: 'node-nft',
};

/**
 * The node captures. With a mode: `node-rules` (that mode's dump with counters), `node-addresses` (`ip -o addr`),
 * `node-routes` (`ip route`; `ip -6 route` for IPv6). Without: one check per dump tool (`node-iptables`, `node-ipvs`, `node-nft`; the ones
 * whose tool is missing simply fail) and the same address/route checks; `nodeModeOf` then picks the mode, and the
 * capture after the probe runs `nodeRulesCheck(mode)` only.
 */
export function nodeCaptureChecks(mode?: ProxyMode, timeoutMs = 30_000, family: IpFamily = 4): CheckSpec[] {
  const rules: CheckSpec[] = mode
    ? [nodeRulesCheck(mode, timeoutMs, family)]
    : (Object.keys(RULES_ARGV) as ProxyMode[]).map((m) => ({
        id: NODE_RULE_CHECK_IDS[m],
        kind: 'node-rules',
        argv: rulesArgv(m, family),
        timeoutMs,
      }));
  return [
    ...rules,
    { id: 'node-addresses', kind: 'node-addresses', argv: ['ip', '-o', 'addr'], timeoutMs },
    { id: 'node-routes', kind: 'node-routes', argv: family === 6 ? ['ip', '-6', 'route'] : ['ip', 'route'], timeoutMs },
  ];
}

/** The dump of one mode (`iptables-save -c` or for IPv6 `ip6tables-save -c`, `ipvsadm -Ln --stats`, `nft list ruleset`). */
export function nodeRulesCheck(mode: ProxyMode, timeoutMs = 30_000, family: IpFamily = 4): CheckSpec {
  return { id: 'node-rules', kind: 'node-rules', argv: rulesArgv(mode, family), timeoutMs };
}

/** The family of a Service's ClusterIP (its primary one, which the diagnosis probes); 4 when it has none. */
export function serviceFamily(service: ServiceInfo): IpFamily {
  return safeIp(service.clusterIP)?.includes(':') ? 6 : 4;
}

/** The ClusterIPs of the Service that parse (dual-stack: one per family). */
export function serviceClusterIPs(service: ServiceInfo): string[] {
  const out: string[] = [];
  for (const raw of [service.clusterIP, ...(service.clusterIPs ?? [])]) {
    const ip = safeIp(raw);
    if (ip && !out.includes(ip)) out.push(ip);
  }
  return out;
}

export interface CounterChange {
  counter: RuleCounter;
  before?: number;
  after?: number;
  /** after - before; undefined when the rule is in only one of the dumps. */
  delta?: number;
}

function counterKey(c: RuleCounter): string {
  return `${c.table ?? ''}\u0000${c.chain}\u0000${c.rule.replace(/\s+/g, ' ')}`;
}

/** Pairs the counters of two captures by rule (table, chain, text: lines may shift when kube-proxy resyncs). */
export function compareCounters(before: readonly RuleCounter[], after: readonly RuleCounter[]): CounterChange[] {
  const byKey = new Map<string, RuleCounter>();
  for (const c of before) if (!byKey.has(counterKey(c))) byKey.set(counterKey(c), c);
  const out: CounterChange[] = [];
  const used = new Set<string>();
  for (const c of after) {
    const k = counterKey(c);
    const b = byKey.get(k);
    used.add(k);
    out.push({ counter: c, ...(b ? { before: b.packets, delta: c.packets - b.packets } : {}), after: c.packets });
  }
  for (const c of before) if (!used.has(counterKey(c))) out.push({ counter: c, before: c.packets });
  return out;
}
