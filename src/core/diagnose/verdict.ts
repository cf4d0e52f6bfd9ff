/**
 * The verdict: one code, a one-line summary, the evidence that proves it and next steps, from the API's objects,
 * the checks run in the pod and the node's dumps before and after them. Everything is derived from that data (the
 * pod's own interfaces, routes and link kinds, the node's addresses and pod CIDRs, the node's rules read with the
 * project's engines); nothing depends on particular addresses.
 *
 * Order of the decision (the first that holds wins):
 *  1. exec refused (403) -> `exec-forbidden`; exec failed otherwise -> `inconclusive`.
 *  2. The API: no endpoints -> `no-endpoints`; endpoints but none ready -> `endpoints-not-ready`. A headless
 *     Service (no ClusterIP, nothing of kube-proxy's) is judged by its endpoints, their direct connects and its name.
 *  3. The ClusterIP connect did not succeed and the pod's route to the ClusterIP does not lead into the node
 *     (no route; a macvlan/ipvlan interface; another interface than the pod's own; a gateway that is not one of the
 *     node's addresses) -> `pod-route-bypasses-node`. A gateway that cannot be placed (the node's own address list
 *     was not captured) counts only when the node's KUBE-SERVICES rule for ClusterIP:port did not move during the
 *     probe; a gateway that is only "not a node address" is doubted when the node has no kube-proxy rules or the
 *     probe was refused after the Service's rule counted (bridged pod networks with br_netfilter). Healthy forms never
 *     fire: a gateway that is a node address, a link-local next hop over a veth (Calico's 169.254.1.1), a gateway
 *     inside the node's pod CIDR (a bridge such as cni0), an on-link route over a veth.
 *  4. Tracing the pod's packet through the node's rules gives no DNAT to a current endpoint -> `clusterip-dnat-missing`,
 *     naming what differs from what kube-proxy would write for the API's Service and endpoints (`generate`).
 *  5. No tool could probe -> `tool-missing`.
 *  6. The ClusterIP connect failed after the packet reached the node (counters moved, or the route leads there and
 *     the rules DNAT) and endpoints fail when connected to directly too -> `backend-unreachable`.
 *     The ClusterIP answered but ready endpoints fail when connected to directly -> `backend-unreachable` too.
 *  7. The ClusterIP answers but the Service's name does not resolve (or resolves elsewhere) -> `dns-failure`.
 *  8. The ClusterIP answers -> `ok`. Anything else -> `inconclusive`, with what is known.
 */
import { analyzeText, type Analysis } from '../analyze';
import { cidrContains, joinHostPort, parseCidr, parseIp, splitHostPort } from '../common/ip';
import { formatShare } from '../common/shares';
import { generateIptablesRestore } from '../iptables/generate';
import { buildModel, type IptablesModel } from '../iptables/model';
import { parseIptables } from '../iptables/parser';
import { tracePacket } from '../iptables/trace';
import { displayRuleText, ruleTargetName } from '../iptables/dump';
import type { IpvsDump } from '../ipvs/types';
import { t, type Lang } from '../i18n/catalog';
import type { ClusterSnapshot, EndpointInfo, ServicePortSpec } from '../kube/types';
import { parseIpAddr } from '../netstate';
import { isWhiteCode } from '../common/chars';
import { compareCounters, serviceClusterIPs, serviceFamily, type CounterChange } from './node';
import { ruleCountersOf, serviceEntryRules } from './nodeDumps';
import {
  connectOutcome,
  curlConnectLines,
  hasConnectTool,
  MAX_ENDPOINT_CHECKS,
  probedLikeTcp,
  readTools,
  resolvedAddresses,
  safeIp,
  serviceDnsName,
  toolOf,
  TOOL_NAMES,
  type ConnectOutcome,
} from './plan';
import {
  canonicalIp,
  findCheck,
  findChecks,
  lastCheck,
  isLinkLocal,
  parseNeighbours,
  parseResolvConf,
  podInterfaces,
  routeTo,
  type PodInterface,
  type RouteFact,
} from './podnet';
import { endpointKey, traceOutcome, type TraceAlternative, type TraceOutcome, type TraceStop } from './traceOutcomes';
import type { CheckResult, DiagnoseInput, EndpointPodPorts, Evidence, Verdict, VerdictCode } from './types';

/** Link kinds that put the pod beside the node on the parent network instead of behind it. */
const BESIDE_NODE_KINDS = new Set(['macvlan', 'macvtap', 'ipvlan', 'ipvtap']);
/** Link kinds whose other end is in the node's namespace (Cilium's netkit replaces veth). */
const VETH_LIKE = new Set(['veth', 'netkit']);

type Params = Record<string, string | number>;

export type RouteClass =
  | {
      kind: 'node';
      reason: 'host-network' | 'local' | 'gateway-is-node' | 'proxy-arp' | 'node-bridge' | 'onlink-veth';
      cidr?: string;
    }
  | {
      kind: 'bypass';
      strong: boolean;
      reason: 'no-route' | 'link-kind' | 'second-interface' | 'foreign-gateway' | 'unknown-gateway';
      iface?: PodInterface;
    }
  | { kind: 'unknown'; reason: 'no-route-info' | 'onlink-unknown' | 'gateway-unknown' };

export type CounterState =
  'still' | 'moved' | 'reset' | 'one-capture' | 'no-rule' | 'no-counters' | 'other-node' | 'none';

export type TraceState = 'dnat' | 'stale' | 'none' | 'no-kube' | 'unknown';

/** Everything the decision reads, gathered once (exported for tests and for faces that show the facts). */
export interface DiagnoseFacts {
  clusterIP?: string;
  target: string;
  podIP?: string;
  nodeName?: string;
  connect?: { result: CheckResult; outcome: ConnectOutcome };
  endpointConnects: { result: CheckResult; outcome: ConnectOutcome }[];
  route?: RouteFact;
  routeClass: RouteClass;
  counters: { state: CounterState; entry?: CounterChange; rule: 'kube-services' | 'ipvs' | 'nft' };
  trace: {
    state: TraceState;
    dnat: { target: string; share: number }[];
    verdicts: string[];
    missing?: { key: string; params: Params };
    /** The rules that dropped or rejected the traced packet (iptables dumps only). */
    stops?: TraceStop[];
    /**
     * Set when the trace's alternatives (sides of facts the dump cannot decide) end differently: each one's own
     * outcome. `dnat` and `stops` then hold mean shares over them (see traceOutcome).
     */
    alternatives?: TraceAlternative[];
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

function trimOutput(text: string, maxLines = 8, maxChars = 800): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  let out = lines.slice(0, maxLines).join('\n');
  if (out.length > maxChars) out = `${out.slice(0, maxChars)}…`;
  if (lines.length > maxLines) out += '\n…';
  return out;
}

function outputOf(r: CheckResult): string {
  const stderr = toolOf(r.argv) === 'curl' ? curlConnectLines(r.stderr) : r.stderr;
  return trimOutput([r.stdout.trim(), stderr.trim()].filter(Boolean).join('\n'));
}

function ran(r: CheckResult | undefined): r is CheckResult {
  return !!r && (r.exitCode !== null || r.error === 'timeout');
}

function inAnyCidr(ip: string, cidrs: readonly string[]): string | undefined {
  const a = parseIp(ip);
  if (!a) return undefined;
  for (const c of cidrs) {
    const cidr = parseCidr(c);
    if (cidr && c.includes('/') && cidrContains(cidr, a)) return c;
  }
  return undefined;
}

/** The endpoints kube-proxy uses: the ready ones, else serving terminating ones (ProxyTerminatingEndpoints). */
function usedEndpoints(endpoints: readonly EndpointInfo[]): EndpointInfo[] {
  const ready = endpoints.filter((e) => e.ready);
  return ready.length ? ready : endpoints.filter((e) => e.serving && e.terminating);
}

// ---------------------------------------------------------------------------------------------------------------
// Facts

export interface NodeView {
  /** Addresses the node's own `ip -o addr` shows (authoritative when non-empty). */
  captured: string[];
  /** Addresses the API gives (InternalIP, ExternalIP). */
  api: string[];
  podCIDRs: string[];
  name?: string;
  /** The node evidence describes the pod's node. */
  usable: boolean;
}

function nodeView(input: DiagnoseInput): NodeView {
  const ev = input.nodeEvidence;
  const podNode = input.source.nodeName ?? input.node?.name;
  const usable = !!ev && (!podNode || !ev.name || ev.name === podNode);
  const captured: string[] = [];
  if (usable && ev?.addresses) {
    for (const i of parseIpAddr(ev.addresses).interfaces) {
      for (const a of i.addresses) {
        const ip = safeIp(a.address);
        if (ip && !captured.includes(ip)) captured.push(ip);
      }
    }
  }
  const api: string[] = [];
  for (const raw of [...(input.node?.internalIPs ?? []), ...(input.node?.externalIPs ?? [])]) {
    const ip = safeIp(raw);
    if (ip && !api.includes(ip)) api.push(ip);
  }
  const name = input.node?.name ?? ev?.name ?? input.source.nodeName;
  return { captured, api, podCIDRs: input.node?.podCIDRs ?? [], usable, ...(name ? { name } : {}) };
}

function podIPs(input: DiagnoseInput): string[] {
  const out: string[] = [];
  for (const raw of [input.source.ip, ...(input.source.ips ?? [])]) {
    const ip = raw ? safeIp(raw) : undefined;
    if (ip && !out.includes(ip)) out.push(ip);
  }
  return out;
}

export function classifyRoute(input: DiagnoseInput, route: RouteFact | undefined, node: NodeView): RouteClass {
  if (input.source.hostNetwork) return { kind: 'node', reason: 'host-network' };
  if (!route) return { kind: 'unknown', reason: 'no-route-info' };
  if (!route.found) return { kind: 'bypass', strong: true, reason: 'no-route' };
  if (route.type === 'local') return { kind: 'node', reason: 'local' };
  const { interfaces } = podInterfaces(input.checks);
  const iface = route.dev ? interfaces.find((i) => i.name === route.dev) : undefined;
  const own = podIPs(input);
  const primary = interfaces.find((i) => i.addresses.some((a) => own.includes(a)));
  // A pod address held by a dummy device (unnumbered designs) says nothing about which link is the primary one.
  const otherInterface = !!primary && primary.kind !== 'dummy' && !!route.dev && route.dev !== primary.name;
  const vethLike = !iface?.kind || VETH_LIKE.has(iface.kind);
  const beside = !!iface?.kind && BESIDE_NODE_KINDS.has(iface.kind);
  const gw = route.gateway ? canonicalIp(route.gateway) : undefined;
  if (gw) {
    if (node.captured.includes(gw) || node.api.includes(gw)) return { kind: 'node', reason: 'gateway-is-node' };
    if (beside) return { kind: 'bypass', strong: true, reason: 'link-kind', ...(iface ? { iface } : {}) };
    if (otherInterface)
      return { kind: 'bypass', strong: true, reason: 'second-interface', ...(iface ? { iface } : {}) };
    if (isLinkLocal(gw) && vethLike) return { kind: 'node', reason: 'proxy-arp' };
    // A gateway inside the node's own pod CIDR is the node's bridge or host-side address (cni0, cilium_host).
    const cidr = inAnyCidr(gw, node.podCIDRs);
    if (cidr) return { kind: 'node', reason: 'node-bridge', cidr };
    if (node.captured.length > 0)
      return { kind: 'bypass', strong: true, reason: 'foreign-gateway', ...(iface ? { iface } : {}) };
    if (node.api.length > 0 || node.podCIDRs.length > 0)
      return { kind: 'bypass', strong: false, reason: 'unknown-gateway', ...(iface ? { iface } : {}) };
    return { kind: 'unknown', reason: 'gateway-unknown' };
  }
  // On-link: the destination is resolved on the device itself.
  if (beside) return { kind: 'bypass', strong: true, reason: 'link-kind', ...(iface ? { iface } : {}) };
  if (otherInterface) return { kind: 'bypass', strong: true, reason: 'second-interface', ...(iface ? { iface } : {}) };
  if (iface?.kind && VETH_LIKE.has(iface.kind)) return { kind: 'node', reason: 'onlink-veth' };
  return { kind: 'unknown', reason: 'onlink-unknown' };
}

function counterFacts(
  input: DiagnoseInput,
  node: NodeView,
  probeRan: boolean,
  read: (text: string) => Analysis,
): DiagnoseFacts['counters'] {
  const ev = input.nodeEvidence;
  const dumpText = ev?.after || ev?.before || '';
  const rule: DiagnoseFacts['counters']['rule'] =
    ev?.mode === 'ipvs' ? 'ipvs' : ev?.mode === 'nftables' ? 'nft' : 'kube-services';
  if (!ev || (!ev.before && !ev.after)) return { state: 'none', rule };
  if (!node.usable) return { state: 'other-node', rule };
  const before = ev.before ? ruleCountersOf(read(ev.before), input.service, input.port) : [];
  const after = ev.after ? ruleCountersOf(read(ev.after), input.service, input.port) : [];
  const isEntry = (c: CounterChange) => c.counter.role === 'service' || c.counter.role === 'ipvs-service';
  const changes: CounterChange[] =
    ev.before && ev.after
      ? compareCounters(before, after)
      : (ev.after ? after : before).map((c) => ({
          counter: c,
          ...(ev.after ? { after: c.packets } : { before: c.packets }),
        }));
  // A Service without endpoints has no nat rule: the filter table's REJECT for ClusterIP:port is what the probe hits.
  const entry = changes.find(isEntry) ?? changes.find((c) => c.counter.role === 'no-endpoints');
  const detected: DiagnoseFacts['counters']['rule'] = entry?.counter.role === 'ipvs-service' ? 'ipvs' : rule;
  if (!entry) {
    const a = read(dumpText);
    const ips = serviceClusterIPs(input.service);
    const hasRule = a.iptables
      ? serviceEntryRules(a.iptables, input.service, input.port).some((r) => r.table === 'nat') ||
        a.iptables.kube.services.some(
          (k) => !!k.clusterIP && ips.includes(safeIp(k.clusterIP) ?? '') && k.port === input.port.port,
        )
      : false;
    return {
      state: hasRule ? 'no-counters' : 'no-rule',
      rule: a.iptables?.kube.mode === 'nftables' ? 'nft' : detected,
    };
  }
  if (entry.delta === undefined) return { state: 'one-capture', entry, rule: detected };
  if (entry.delta < 0) return { state: 'reset', entry, rule: detected };
  if (entry.delta === 0) return { state: probeRan ? 'still' : 'one-capture', entry, rule: detected };
  return { state: 'moved', entry, rule: detected };
}

/** What kube-proxy would write for this Service port (the nat KUBE-SERVICES rule, its chain, the endpoints). */
function expectedRules(input: DiagnoseInput): { rule?: string; chain?: string; endpoints: string[] } {
  const endpoints = usedEndpoints(input.endpoints).map((e) => endpointKey(e.ip, e.port));
  try {
    const key = `${input.service.namespace}/${input.service.name}`;
    const snapshot: ClusterSnapshot = {
      services: [input.service],
      endpoints: { [key]: { [input.port.name]: input.endpoints } },
      endpointSources: {},
      issues: [],
      warnings: [],
    };
    const generated = generateIptablesRestore(snapshot, {
      ipFamily: serviceFamily(input.service),
      ...(input.source.nodeName ? { nodeName: input.source.nodeName } : {}),
    });
    const model = buildModel(parseIptables(generated.text));
    const entry = serviceEntryRules(model, input.service, input.port).find((r) => r.table === 'nat');
    if (!entry) return { endpoints };
    return { rule: displayRuleText(entry), chain: ruleTargetName(entry) ?? '', endpoints };
  } catch {
    return { endpoints };
  }
}

function ipvsTrace(
  dump: IpvsDump,
  input: DiagnoseInput,
  expected: string[],
): DiagnoseFacts['trace'] & { servers?: string[] } {
  const ips = serviceClusterIPs(input.service);
  const vs = dump.services.find(
    (s) =>
      s.address &&
      ips.includes(safeIp(s.address) ?? '') &&
      s.port === input.port.port &&
      s.protocol.toUpperCase() === input.port.protocol,
  );
  const expectedText = expected.join(', ') || '—';
  if (!vs)
    return {
      state: 'none',
      dnat: [],
      verdicts: [],
      missing: { key: 'diagnose.missing.ipvs-no-service', params: { expected: expectedText } },
    };
  const servers = vs.realServers.filter((r) => (r.weight ?? 1) > 0).map((r) => endpointKey(r.address, r.port));
  if (servers.length === 0)
    return {
      state: 'none',
      dnat: [],
      verdicts: [],
      servers,
      missing: { key: 'diagnose.missing.ipvs-no-real-servers', params: { expected: expectedText } },
    };
  const current = servers.filter((s) => expected.includes(s));
  const dnat = servers.map((s) => ({ target: s, share: 1 / servers.length }));
  if (current.length === 0 && expected.length > 0) {
    return {
      state: 'stale',
      dnat,
      verdicts: [],
      servers,
      missing: { key: 'diagnose.missing.stale', params: { stale: servers.join(', '), expected: expectedText } },
    };
  }
  return { state: 'dnat', dnat, verdicts: [], servers };
}

function iptablesTrace(
  model: IptablesModel,
  input: DiagnoseInput,
  src: string,
  node: NodeView,
  lang: Lang,
  expected: ReturnType<typeof expectedRules>,
): DiagnoseFacts['trace'] {
  const clusterIP = safeIp(input.service.clusterIP)!;
  // kube-proxy's own nftables table counts even when it holds no Service yet.
  const nftMode = model.kube.mode === 'nftables' || model.dump.tables.some((t) => t.name === 'kube-proxy');
  const hasKube = nftMode || model.kube.mode !== 'none' || model.chainsNamed('KUBE-SERVICES').length > 0;
  if (!hasKube) return { state: 'no-kube', dnat: [], verdicts: [] };
  const local = node.captured.length ? node.captured : node.api;
  const proto = input.port.protocol.toLowerCase() as 'tcp' | 'udp' | 'sctp';
  const result = tracePacket(
    model.dump,
    {
      src,
      dst: clusterIP,
      dport: input.port.port,
      proto,
      hook: input.source.hostNetwork ? 'output' : 'prerouting',
      ...(local.length ? { localAddresses: local } : {}),
    },
    { lang },
  );
  const { dnat, verdicts, stops, alternatives } = traceOutcome(result.paths, input.port.port);
  const apart = alternatives ? { alternatives } : {};
  // A trace a limit stopped early proves nothing by what it did not find.
  if (dnat.length === 0 && result.truncated) return { state: 'unknown', dnat, verdicts, stops, ...apart };
  const expectedText = expected.endpoints.join(', ') || '—';
  const current = dnat.filter((d) => expected.endpoints.includes(d.target));
  if (current.length > 0 || (dnat.length > 0 && expected.endpoints.length === 0))
    return { state: 'dnat', dnat, verdicts, stops, ...apart };
  if (dnat.length > 0) {
    return {
      state: 'stale',
      dnat,
      verdicts,
      stops,
      ...apart,
      missing: {
        key: 'diagnose.missing.stale',
        params: { stale: dnat.map((d) => d.target).join(', '), expected: expectedText },
      },
    };
  }
  // No DNAT: say what is missing compared with what kube-proxy would write.
  const entries = serviceEntryRules(model, input.service, input.port);
  const natEntry = entries.find((r) => r.table === 'nat');
  const reject = entries.find((r) => r.table === 'filter' && /REJECT|DROP/.test(ruleTargetName(r) ?? ''));
  let missing: { key: string; params: Params };
  const ips = serviceClusterIPs(input.service);
  const inMap = model.kube.services.some(
    (k) => !!k.clusterIP && ips.includes(safeIp(k.clusterIP) ?? '') && k.port === input.port.port,
  );
  if (nftMode && !natEntry && !inMap) {
    missing = { key: 'diagnose.missing.no-map-element', params: { expected: expectedText } };
  } else if (!natEntry && reject && expected.endpoints.length > 0) {
    missing = { key: 'diagnose.missing.reject', params: { line: reject.line + 1, count: expected.endpoints.length } };
  } else if (!natEntry && !nftMode) {
    missing = { key: 'diagnose.missing.no-entry', params: { chain: expected.chain || 'KUBE-SVC-…' } };
  } else if (natEntry && !model.chain('nat', ruleTargetName(natEntry) ?? '')) {
    missing = { key: 'diagnose.missing.no-chain', params: { chain: ruleTargetName(natEntry) ?? '?' } };
  } else {
    missing = {
      key: 'diagnose.missing.no-dnat',
      params: { verdicts: verdicts.join(', ') || '—', expected: expectedText },
    };
  }
  return { state: 'none', dnat, verdicts, missing, stops, ...apart };
}

export function gatherFacts(
  input: DiagnoseInput,
  lang: Lang = 'en',
): DiagnoseFacts & { node: NodeView; expected: ReturnType<typeof expectedRules>; servers?: string[] } {
  const clusterIP = safeIp(input.service.clusterIP);
  const port = input.port.port;
  const target = clusterIP ? joinHostPort(clusterIP, port) : `${input.service.clusterIP || '—'}:${port}`;
  const node = nodeView(input);
  const connectCheck = findCheck(input.checks, 'connect-clusterip');
  const connect = ran(connectCheck) ? { result: connectCheck, outcome: connectOutcome(connectCheck) } : undefined;
  const endpointConnects = findChecks(input.checks, 'connect-endpoint')
    .filter(ran)
    .map((result) => ({ result, outcome: connectOutcome(result) }));
  const route = clusterIP ? routeTo(input.checks, clusterIP, 'route-clusterip') : undefined;
  const routeClass = classifyRoute(input, route, node);
  const probeRan = !!connect && connect.outcome !== 'error' && connect.outcome !== 'not-run';
  // Each dump is read once per decision (big nodes have dumps of tens of MB); `nft list ruleset` of a dual-stack
  // node for the Service's family.
  const parsed = new Map<string, Analysis>();
  const packetFamily = clusterIP ? parseIp(clusterIP)?.family : undefined;
  const read = (text: string): Analysis => {
    let a = parsed.get(text);
    if (!a) parsed.set(text, (a = analyzeText(text, undefined, { packetFamily })));
    return a;
  };
  const counters = counterFacts(input, node, probeRan, read);
  const expected = expectedRules(input);
  const own = podIPs(input);
  const src = own.find((ip) => clusterIP && parseIp(ip)?.family === parseIp(clusterIP)?.family) ?? route?.src;
  let trace: DiagnoseFacts['trace'] & { servers?: string[] } = { state: 'unknown', dnat: [], verdicts: [] };
  const dumpText = node.usable ? input.nodeEvidence?.after || input.nodeEvidence?.before : undefined;
  if (dumpText && clusterIP) {
    const a = read(dumpText);
    if (a.ipvs) trace = ipvsTrace(a.ipvs, input, expected.endpoints);
    else if (a.iptables && src && parseIp(src)?.family === parseIp(clusterIP)?.family)
      trace = iptablesTrace(a.iptables, input, src, node, lang, expected);
  }
  const podIP = own[0];
  const nodeName = node.name;
  return {
    ...(clusterIP ? { clusterIP } : {}),
    target,
    ...(podIP ? { podIP } : {}),
    ...(nodeName ? { nodeName } : {}),
    ...(connect ? { connect } : {}),
    endpointConnects,
    ...(route ? { route } : {}),
    routeClass,
    counters,
    trace,
    node,
    expected,
    ...(trace.servers ? { servers: trace.servers } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The decision

class Texts {
  readonly evidence: Evidence[] = [];
  constructor(readonly lang: Lang) {}
  t(key: string, params?: Params): string {
    return t(this.lang, key, params);
  }
  add(source: string, key: string, params: Params, extra: Omit<Evidence, 'source' | 'text'> = {}): void {
    this.evidence.push({ source, text: this.t(key, params), ...extra });
  }
}

function outcomeText(x: Texts, o: ConnectOutcome): string {
  return x.t(`diagnose.outcome.${o}`);
}

function podLabel(input: DiagnoseInput): string {
  return `${input.source.namespace}/${input.source.name}`;
}

function serviceLabel(input: DiagnoseInput): string {
  return `${input.service.namespace}/${input.service.name}`;
}

function nextSteps(x: Texts, code: string, count: number, params: Params = {}): string[] {
  return Array.from({ length: count }, (_, i) => x.t(`diagnose.next.${code}.${i + 1}`, params));
}

function addApiEvidence(x: Texts, input: DiagnoseInput): void {
  const portLabel = input.port.name || String(input.port.port);
  if (!input.endpointsKnown) return x.add('api', 'diagnose.ev.api-endpoints-unknown', {});
  if (input.endpoints.length === 0)
    return x.add('api', 'diagnose.ev.api-no-endpoints', { port: portLabel, service: serviceLabel(input) });
  const list = input.endpoints
    .slice(0, 6)
    .map((e) => `${endpointKey(e.ip, e.port)}${e.ready ? '' : ` (${x.t('diagnose.word.not-ready')})`}`)
    .join(', ');
  x.add('api', 'diagnose.ev.api-endpoints', {
    count: input.endpoints.length,
    port: portLabel,
    ready: input.endpoints.filter((e) => e.ready).length,
    list: input.endpoints.length > 6 ? `${list}, …` : list,
  });
}

function addConnectEvidence(x: Texts, c: { result: CheckResult; outcome: ConnectOutcome }): void {
  x.add(
    c.result.id,
    'diagnose.ev.connect',
    {
      tool: toolOf(c.result.argv) ?? '?',
      target: c.result.target ?? c.result.id,
      // A DNS query over UDP has no connection: its server answered.
      outcome:
        c.outcome === 'connected' && toolOf(c.result.argv) === 'nslookup'
          ? x.t('diagnose.outcome.answered')
          : outcomeText(x, c.outcome),
      code: c.result.exitCode ?? '—',
      ms: Math.round(c.result.durationMs),
    },
    { argv: c.result.argv, output: outputOf(c.result) },
  );
}

function addEndpointEvidence(x: Texts, input: DiagnoseInput, f: DiagnoseFacts, onlyFailed = false): void {
  for (const c of f.endpointConnects) if (!onlyFailed || c.outcome !== 'connected') addConnectEvidence(x, c);
  const failed = f.endpointConnects.filter((c) => c.outcome !== 'connected').length;
  if (f.endpointConnects.length)
    x.add('connect-endpoint', failed ? 'diagnose.ev.connect-summary' : 'diagnose.ev.connect-summary-ok', {
      failed,
      count: f.endpointConnects.length,
    });
  const distinct = new Set(input.endpoints.map((e) => endpointKey(e.ip, e.port))).size;
  if (distinct > MAX_ENDPOINT_CHECKS && f.endpointConnects.length >= MAX_ENDPOINT_CHECKS) {
    x.add('connect-endpoint', 'diagnose.ev.endpoint-cap', {
      probed: f.endpointConnects.length,
      total: distinct,
      cap: MAX_ENDPOINT_CHECKS,
    });
  }
}

function addRouteEvidence(x: Texts, input: DiagnoseInput, f: DiagnoseFacts & { node: NodeView }): void {
  const r = f.route;
  const dst = f.clusterIP ?? f.target;
  if (input.source.hostNetwork) x.add('api', 'diagnose.ev.host-network', { pod: podLabel(input) });
  if (!r) {
    if (!input.source.hostNetwork) x.add('route-clusterip', 'diagnose.ev.no-route-check', { dst });
    return;
  }
  const extra = { argv: r.check.argv, output: outputOf(r.check) };
  const source = r.check.id;
  if (!r.found) x.add(source, 'diagnose.ev.route-error', { dst, error: r.error ?? '?' }, extra);
  else if (r.type === 'local') x.add(source, 'diagnose.ev.route-local', { dst }, extra);
  else if (r.source === 'ip route get') {
    if (r.gateway)
      x.add(source, 'diagnose.ev.route-get', { dst, gateway: r.gateway, dev: r.dev ?? '?', src: r.src ?? '?' }, extra);
    else x.add(source, 'diagnose.ev.route-get-onlink', { dst, dev: r.dev ?? '?', src: r.src ?? '?' }, extra);
  } else if (r.gateway)
    x.add(source, 'diagnose.ev.route-table', { source: r.source, dst, gateway: r.gateway, dev: r.dev ?? '?' }, extra);
  else x.add(source, 'diagnose.ev.route-table-onlink', { source: r.source, dst, dev: r.dev ?? '?' }, extra);

  const { interfaces } = podInterfaces(input.checks);
  const iface = r.dev ? interfaces.find((i) => i.name === r.dev) : undefined;
  const links = findCheck(input.checks, 'links');
  const linkExtra = links ? { argv: links.argv, output: trimOutput(linkBlock(links.stdout, r.dev ?? '')) } : {};
  const mode = iface?.mode ? ` (mode ${iface.mode})` : '';
  const nodeName = f.nodeName ?? '?';
  const rc = f.routeClass;
  if (iface?.kind) {
    if (BESIDE_NODE_KINDS.has(iface.kind))
      x.add('links', 'diagnose.ev.link-bypass', { dev: iface.name, kind: iface.kind, mode }, linkExtra);
    else x.add('links', 'diagnose.ev.link-kind', { dev: iface.name, kind: iface.kind, mode }, linkExtra);
  }
  if (rc.kind === 'bypass' && rc.reason === 'second-interface') {
    const own = podIPs(input);
    const primary = interfaces.find((i) => i.addresses.some((a) => own.includes(a)));
    const addrs = findCheck(input.checks, 'addresses');
    x.add(
      'addresses',
      'diagnose.ev.second-interface',
      { podIP: own[0] ?? '?', primary: primary?.name ?? '?', dst, dev: r.dev ?? '?' },
      addrs ? { argv: addrs.argv, output: outputOf(addrs) } : {},
    );
  }
  const gw = r.gateway;
  if (gw && r.found) {
    if (rc.kind === 'node' && rc.reason === 'gateway-is-node')
      x.add('node-addresses', 'diagnose.ev.gateway-is-node', { gateway: gw, node: nodeName });
    else if (rc.kind === 'node' && rc.reason === 'proxy-arp')
      x.add('route-clusterip', 'diagnose.ev.proxy-arp', { gateway: gw, dev: r.dev ?? '?' });
    else if (rc.kind === 'node' && rc.reason === 'node-bridge')
      x.add('api', 'diagnose.ev.node-bridge', { gateway: gw, node: nodeName, cidr: rc.cidr ?? '?' });
    else if (f.node.captured.length > 0) {
      x.add(
        'node-addresses',
        'diagnose.ev.gateway-not-node',
        {
          gateway: gw,
          node: nodeName,
          addresses: f.node.captured.filter((a) => !a.startsWith('127.') && a !== '::1').join(', '),
        },
        input.nodeEvidence?.addresses ? { output: trimOutput(input.nodeEvidence.addresses) } : {},
      );
    } else if (rc.kind === 'bypass') {
      x.add('api', 'diagnose.ev.gateway-unknown', {
        gateway: gw,
        node: nodeName,
        addresses: f.node.api.join(', ') || '—',
        cidrs: f.node.podCIDRs.join(', ') || '—',
      });
    }
    const neigh = findCheck(input.checks, 'neighbours');
    if (neigh && neigh.exitCode === 0) {
      const n = parseNeighbours(neigh.stdout).find((e) => canonicalIp(e.ip) === canonicalIp(gw));
      if (n)
        x.add(
          'neighbours',
          'diagnose.ev.neighbour',
          { gateway: gw, dev: n.dev ?? r.dev ?? '?', lladdr: n.lladdr ?? '—', state: n.state ?? '—' },
          { argv: neigh.argv },
        );
    }
  } else if (rc.kind === 'node' && rc.reason === 'onlink-veth')
    x.add('links', 'diagnose.ev.onlink-veth', { dev: r.dev ?? '?' });
}

/** The lines of one interface in `ip -d link` output. */
function linkBlock(text: string, dev: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^\\d+:\\s+${dev.replace(/[^\w.-]/g, '')}[@:]`).test(l));
  if (start < 0) return '';
  let end = start + 1;
  while (end < lines.length && isWhiteCode(lines[end].charCodeAt(0))) end++;
  return lines.slice(start, end).join('\n');
}

function addCounterEvidence(x: Texts, input: DiagnoseInput, f: DiagnoseFacts): void {
  const ev = input.nodeEvidence;
  const node = ev?.name ?? f.nodeName ?? '?';
  const c = f.counters;
  if (!ev) return x.add('node-rules', 'diagnose.ev.node-none', {});
  if (ev.error && !ev.before && !ev.after) return x.add('node-rules', 'diagnose.ev.node-missing', { error: ev.error });
  if (c.state === 'other-node')
    return x.add('node-rules', 'diagnose.ev.node-other', {
      evidenceNode: ev.name,
      podNode: input.source.nodeName ?? '?',
    });
  if (c.state === 'no-rule') return x.add('node-rules', 'diagnose.ev.counter-no-rule', { node, target: f.target });
  if (c.state === 'no-counters')
    return x.add(
      'node-rules',
      c.rule === 'nft' ? 'diagnose.ev.counter-no-counters.nft' : 'diagnose.ev.counter-no-counters',
      { node, target: f.target },
    );
  if (!c.entry) return;
  const e = c.entry;
  if (e.before !== undefined && e.after !== undefined) {
    x.add(
      'node-rules',
      'diagnose.ev.counter',
      { node, chain: e.counter.chain, line: e.counter.line, target: f.target, count: e.before, after: e.after },
      { line: e.counter.line, before: e.before, after: e.after, output: e.counter.rule },
    );
  } else {
    x.add(
      'node-rules',
      'diagnose.ev.counter-one',
      { node, chain: e.counter.chain, line: e.counter.line, target: f.target, count: e.after ?? e.before ?? 0 },
      { line: e.counter.line, output: e.counter.rule },
    );
  }
}

/** What the API, the pod's connect, the trace and the counters say, in that order (kube-proxy's own rules decide). */
function addKubeProxyEvidence(x: Texts, input: DiagnoseInput, f: ReturnType<typeof gatherFacts>): void {
  addApiEvidence(x, input);
  if (f.connect) addConnectEvidence(x, f.connect);
  addTraceEvidence(x, input, f);
  addCounterEvidence(x, input, f);
}

function addTraceEvidence(x: Texts, input: DiagnoseInput, f: ReturnType<typeof gatherFacts>): void {
  const node = input.nodeEvidence?.name ?? f.nodeName ?? '?';
  const src = f.podIP ?? f.route?.src ?? '?';
  const tr = f.trace;
  if (f.servers)
    x.add('trace', 'diagnose.ev.ipvs-service', {
      node,
      target: f.target,
      servers: f.servers.join(', ') || x.t('diagnose.word.none'),
    });
  else if (tr.state === 'no-kube') x.add('trace', 'diagnose.ev.trace-no-kube', { node });
  const traced = !f.servers && (tr.state === 'dnat' || tr.state === 'stale' || tr.state === 'none');
  // Alternatives are not shares of one whole: each says its own, under its condition.
  const apart = traced && tr.alternatives ? tr.alternatives : undefined;
  if (apart) {
    for (const a of apart.slice(0, MAX_ALTERNATIVES_SHOWN)) {
      const given = a.given.join('; ');
      addTraceOutcome(x, a, { src, target: f.target, node, given }, '-if');
      for (const s of a.stops.slice(0, 3)) addStopEvidence(x, s, { node, target: f.target, given }, '-if');
    }
    if (apart.length > MAX_ALTERNATIVES_SHOWN)
      x.add('trace', 'diagnose.ev.trace-more-alternatives', { count: apart.length - MAX_ALTERNATIVES_SHOWN });
  } else if (traced) addTraceOutcome(x, tr, { src, target: f.target, node }, '');
  if ((tr.state === 'none' || tr.state === 'stale') && f.expected.rule)
    x.add('api', 'diagnose.ev.expected', { rule: f.expected.rule });
  const stops = tr.stops ?? [];
  if (!apart) for (const s of stops.slice(0, 3)) addStopEvidence(x, s, { node, target: f.target }, '');
  // kube-proxy's REJECT answers with an ICMP port unreachable, which the pod's tools report as "refused".
  const refused = f.connect?.outcome === 'refused' || f.connect?.outcome === 'no-connect';
  if (refused && stops.some((s) => s.kind === 'no-endpoints' && s.verdict === 'REJECT' && !s.dnat))
    x.add('trace', 'diagnose.ev.refused-by-node', { target: f.target, node });
}

/** Alternatives of a trace shown one by one; past this many, a count. */
const MAX_ALTERNATIVES_SHOWN = 4;

/** Where the traced packet went: DNATed (with each target's share) or not (with the paths' verdicts). */
function addTraceOutcome(x: Texts, o: Omit<TraceOutcome, 'stops'>, params: Params, suffix: '' | '-if'): void {
  if (o.dnat.length > 0)
    x.add('trace', `diagnose.ev.trace-dnat${suffix}`, {
      ...params,
      dnat: o.dnat.map((d) => d.target).join(', '),
      share: o.dnat.map((d) => formatShare(d.share)).join(', '),
    });
  else x.add('trace', `diagnose.ev.trace-none${suffix}`, { ...params, verdicts: o.verdicts.join(', ') || '—' });
}

function addStopEvidence(x: Texts, s: TraceStop, params: Params, suffix: '' | '-if'): void {
  x.add(
    'trace',
    `diagnose.ev.stop.${s.kind}${suffix}`,
    {
      ...params,
      table: s.table,
      chain: s.chain,
      line: s.line,
      action: x.t(s.verdict === 'REJECT' ? 'diagnose.word.rejects' : 'diagnose.word.drops'),
      target: s.dnat ?? params.target,
      share: formatShare(s.share),
    },
    { line: s.line, output: s.rule },
  );
}

type EndpointConnect = { result: CheckResult; outcome: ConnectOutcome };

/**
 * A headless Service (`clusterIP: None`): kube-proxy writes nothing for it; clients resolve its name to the ready
 * endpoints' addresses and connect to them directly. So the verdict reads the API's endpoints, the DNS answer and
 * the direct connects.
 */
/** Ports the pod's probe opens like TCP: TCP, and UDP 53 (a DNS query). */
function probedLikeTcpPort(input: DiagnoseInput): boolean {
  return probedLikeTcp(input.port.protocol, input.port.port);
}

/** The pod cannot probe `target`: its tools probe failed, or found no tool for the port. */
function toolMissingVerdict(
  x: Texts,
  input: DiagnoseInput,
  probe: CheckResult | undefined,
  probeFailed: boolean,
  target: string,
  names: Params,
): Verdict {
  // A UDP 53 port is probed with a DNS query, which needs a DNS client, not a TCP one.
  const summary = probeFailed
    ? x.t('diagnose.summary.tool-missing.probe-failed', { why: probeWhy(probe!) })
    : x.t(input.port.protocol === 'UDP' ? 'diagnose.summary.tool-missing.dns' : 'diagnose.summary.tool-missing', {
        target,
      });
  const steps = !probeFailed && input.port.protocol === 'UDP' ? 'tool-missing-dns' : 'tool-missing';
  return verdict('tool-missing', summary, x, nextSteps(x, steps, 2, names));
}

function headlessVerdict(x: Texts, input: DiagnoseInput, f: ReturnType<typeof gatherFacts>, names: Params): Verdict {
  const pod = podLabel(input);
  const service = serviceLabel(input);
  const port = input.port.name || String(input.port.port);
  const name = serviceDnsName(input.service.namespace, input.service.name, input.clusterDomain) ?? service;
  addApiEvidence(x, input);
  if (input.endpointsKnown && input.endpoints.length === 0)
    return verdict(
      'no-endpoints',
      x.t('diagnose.summary.headless.no-endpoints', { service, port, name }),
      x,
      nextSteps(x, 'no-endpoints', 3, names),
    );
  const ready = input.endpoints.filter((e) => e.ready);
  if (input.endpointsKnown && ready.length === 0) {
    addEndpointEvidence(x, input, f);
    return verdict(
      'endpoints-not-ready',
      x.t('diagnose.summary.headless.not-ready', { service, port, name, count: input.endpoints.length }),
      x,
      nextSteps(x, 'endpoints-not-ready', 2, names),
    );
  }
  const readyKeys = new Set(ready.map((e) => endpointKey(e.ip, e.port)));
  const failed = f.endpointConnects.filter(
    (c) =>
      ['refused', 'unreachable', 'timeout', 'no-connect'].includes(c.outcome) && readyKeys.has(c.result.target ?? ''),
  );
  if (failed.length > 0) {
    addEndpointEvidence(x, input, f);
    addEndpointRouteEvidence(x, input, failed);
    return verdict(
      'backend-unreachable',
      x.t('diagnose.summary.headless.backend', {
        service,
        failed: failed.length,
        count: f.endpointConnects.filter((c) => readyKeys.has(c.result.target ?? '')).length,
        ...failureParams(x, input, failed),
      }),
      x,
      nextSteps(x, 'backend-unreachable', 2, names),
    );
  }
  const dns = findCheck(input.checks, 'dns');
  const dnsRan = ran(dns) && dns.exitCode !== 126 && dns.exitCode !== 127;
  if (dnsRan) {
    addDnsEvidence(x, input);
    const addrs = resolvedAddresses(dns);
    const readyIps = new Set(ready.map((e) => canonicalIp(e.ip) ?? e.ip));
    if (addrs.length === 0)
      return verdict(
        'dns-failure',
        x.t('diagnose.summary.dns-failure.not-checkable', { name, why: dnsWhy(x, dns) }),
        x,
        nextSteps(x, 'dns-failure', 3, names),
      );
    // Only against endpoints the API showed: unread ones (no right to list them) are no evidence of a mismatch.
    if (input.endpointsKnown && !addrs.some((a) => readyIps.has(a)))
      return verdict(
        'dns-failure',
        x.t('diagnose.summary.headless.dns-mismatch', {
          name,
          addresses: addrs.join(', '),
          endpoints: [...readyIps].join(', '),
        }),
        x,
        nextSteps(x, 'dns-failure', 3, names),
      );
  }
  const answered = f.endpointConnects.filter((c) => c.outcome === 'connected' && readyKeys.has(c.result.target ?? ''));
  if (answered.length > 0) {
    addEndpointEvidence(x, input, f);
    return verdict(
      'ok',
      x.t(dnsRan ? 'diagnose.summary.headless.ok' : 'diagnose.summary.headless.ok.no-dns', {
        pod,
        service,
        name,
        count: answered.length,
      }),
      x,
      nextSteps(x, 'ok', 2),
    );
  }
  addToolsEvidence(x, input);
  // No endpoint was probed: the pod has no tool to, as for a ClusterIP.
  const probe = lastCheck(input.checks, 'tools');
  const probeFailed = !!probe && (probe.exitCode !== 0 || !!probe.error);
  if (probe && (probeFailed || (probedLikeTcpPort(input) && !hasConnectTool(readTools(probe)))))
    return toolMissingVerdict(x, input, probe, probeFailed, `${name}:${input.port.port}`, names);
  return verdict(
    'inconclusive',
    x.t('diagnose.summary.inconclusive', {
      target: name,
      pod,
      reason: x.t('diagnose.reason.headless', { clusterIP: input.service.clusterIP }),
    }),
    x,
    nextSteps(x, 'inconclusive', 2),
  );
}

/**
 * An ExternalName Service: a DNS alias (CNAME) the cluster DNS answers, with nothing of kube-proxy's: no ClusterIP,
 * no endpoints. Its name not resolving is a DNS failure; else nothing here can be probed, and the far end is named.
 */
function externalNameVerdict(x: Texts, input: DiagnoseInput, names: Params): Verdict {
  const service = serviceLabel(input);
  const externalName = input.service.externalName ?? '—';
  const name = serviceDnsName(input.service.namespace, input.service.name, input.clusterDomain) ?? service;
  const dns = findCheck(input.checks, 'dns');
  const dnsRan = ran(dns) && dns.exitCode !== 126 && dns.exitCode !== 127;
  addDnsEvidence(x, input);
  const steps = [x.t('diagnose.next.external-name.1', { ...names, externalName })];
  const addrs = dnsRan ? resolvedAddresses(dns) : [];
  if (dnsRan && addrs.length === 0)
    return verdict(
      'dns-failure',
      x.t('diagnose.summary.external-name.dns', { service, externalName, name, why: dnsWhy(x, dns) }),
      x,
      [...steps, ...nextSteps(x, 'dns-failure', 2, names)],
    );
  const reason = x.t('diagnose.reason.external-name', {
    externalName,
    addresses: addrs.join(', ') || x.t('diagnose.word.none'),
  });
  return verdict(
    'inconclusive',
    x.t('diagnose.summary.inconclusive', { target: name, pod: podLabel(input), reason }),
    x,
    steps,
  );
}

/** The failed endpoints' outcomes and nodes (as the API places them), for a backend summary. */
function failureParams(x: Texts, input: DiagnoseInput, failed: readonly EndpointConnect[]): Params {
  const outcomes = [...new Set(failed.map((c) => outcomeText(x, c.outcome)))].join(', ');
  const nodes: string[] = [];
  for (const c of failed) {
    const e = input.endpoints.find((ep) => endpointKey(ep.ip, ep.port) === c.result.target);
    if (e?.nodeName && !nodes.includes(e.nodeName)) nodes.push(e.nodeName);
  }
  const where = nodes.length ? x.t('diagnose.word.on-nodes', { nodes: nodes.join(', '), count: nodes.length }) : '';
  return { outcome: outcomes, where };
}

/**
 * Next steps for endpoints that fail a direct connect: a refusal points at the port the pods listen on; a timeout or
 * an unreachable over TCP at the path between the pod's node and theirs (the kernel of a live pod answers a SYN by
 * itself); anything else (a DNS server that does not answer) at both.
 */
function backendSteps(
  x: Texts,
  input: DiagnoseInput,
  failed: readonly EndpointConnect[],
  refused: boolean,
  pathBroken: boolean,
  names: Params,
): string[] {
  if (refused) return nextSteps(x, 'backend-refused', 2, names);
  if (!pathBroken || input.port.protocol !== 'TCP') return nextSteps(x, 'backend-unreachable', 2, names);
  const endpoint = splitHostPort(failed[0]?.result.target ?? '')?.host ?? '?';
  return nextSteps(x, 'backend-path', 2, { ...names, node: input.source.nodeName ?? '?', endpoint });
}

/** The pods behind refused endpoints, as the API gave them (with the container ports they declare). */
function podsOfEndpoints(input: DiagnoseInput, failed: readonly EndpointConnect[]): EndpointPodPorts[] {
  const out: EndpointPodPorts[] = [];
  for (const c of failed) {
    const e = input.endpoints.find((ep) => endpointKey(ep.ip, ep.port) === c.result.target);
    const ip = e ? (canonicalIp(e.ip) ?? e.ip) : undefined;
    const p = (input.endpointPods ?? []).find(
      (q) => (!!e?.pod && q.name === e.pod) || (!!ip && !!q.ip && canonicalIp(q.ip) === ip),
    );
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/**
 * The ports of refused endpoints and the Service's targetPort, and (`declared`) the container ports their pods
 * declare when every such pod declares ports and none of them is the port the endpoints were refused on.
 */
function refusedPorts(
  input: DiagnoseInput,
  failed: readonly EndpointConnect[],
): { port: string; targetPort: string; declared?: string } {
  const ports = [
    ...new Set(failed.map((c) => splitHostPort(c.result.target ?? '')?.port).filter((p) => p !== undefined)),
  ];
  const tp = input.port.targetPort;
  const targetPort =
    typeof tp === 'string' ? `${tp} (${ports.join(', ') || '?'})` : String(tp ?? ports[0] ?? input.port.port);
  const out: { port: string; targetPort: string; declared?: string } = { port: ports.join(', ') || '?', targetPort };
  const pods = podsOfEndpoints(input, failed);
  const proto = input.port.protocol;
  const declared = pods.map((p) => p.ports.filter((q) => q.protocol === proto));
  if (
    pods.length > 0 &&
    pods.length === failed.length &&
    declared.every((d) => d.length > 0 && !d.some((q) => ports.includes(q.port)))
  )
    out.declared = [...new Set(declared.flat().map((q) => `${q.port}/${q.protocol}`))].join(', ');
  return out;
}

function addContainerPortEvidence(x: Texts, input: DiagnoseInput, failed: readonly EndpointConnect[]): void {
  for (const p of podsOfEndpoints(input, failed).slice(0, 3)) {
    const ports = p.ports.map((q) => `${q.name ? `${q.name} ` : ''}${q.port}/${q.protocol}`).join(', ');
    x.add('api', ports ? 'diagnose.ev.container-ports' : 'diagnose.ev.container-ports-none', {
      pod: `${p.namespace}/${p.name}`,
      ports,
    });
  }
}

/** The pod's route to a failed endpoint, when the plan asked the kernel about that one (it asks for the first). */
function addEndpointRouteEvidence(x: Texts, input: DiagnoseInput, failed: readonly EndpointConnect[]): void {
  const asked = findCheck(input.checks, 'route-endpoint')?.target;
  const askedIp = asked ? canonicalIp(asked) : undefined;
  const hit = failed.some((c) => {
    const host = splitHostPort(c.result.target ?? '')?.host;
    return !!host && canonicalIp(host) === askedIp;
  });
  const r = hit && asked ? routeTo(input.checks, asked, 'route-endpoint') : undefined;
  if (!r || !r.found || r.source !== 'ip route get') return;
  const extra = { argv: r.check.argv, output: outputOf(r.check) };
  const where = { dst: r.dst, dev: r.dev ?? '?', src: r.src ?? '?' };
  if (r.gateway) x.add(r.check.id, 'diagnose.ev.route-get', { ...where, gateway: r.gateway }, extra);
  else x.add(r.check.id, 'diagnose.ev.route-get-onlink', where, extra);
}

function dnsWhy(x: Texts, r: CheckResult): string {
  const text = `${r.stdout}\n${r.stderr}`;
  if (r.error === 'timeout' || /timed out|no servers could be reached/i.test(text)) return x.t('diagnose.dns.timeout');
  // `** server can't find NAME: SERVFAIL`: the rcode decides, not the words before it.
  if (/SERVFAIL/i.test(text)) return x.t('diagnose.dns.servfail');
  if (/NXDOMAIN|can't find|not found|Non-existent/i.test(text)) return x.t('diagnose.dns.nxdomain');
  if (toolOf(r.argv) === 'getent' && r.exitCode === 2) return x.t('diagnose.dns.not-found');
  return x.t('diagnose.dns.other', { code: r.exitCode ?? '—' });
}

function addDnsEvidence(x: Texts, input: DiagnoseInput): void {
  const dns = findCheck(input.checks, 'dns');
  const name = serviceDnsName(input.service.namespace, input.service.name, input.clusterDomain);
  if (!name) {
    x.add('dns', 'diagnose.ev.dns-invalid', { name: `${input.service.name}.${input.service.namespace}` });
    return;
  }
  if (!ran(dns)) return;
  const addrs = resolvedAddresses(dns);
  const extra = { argv: dns.argv, output: outputOf(dns) };
  if (addrs.length)
    x.add('dns', 'diagnose.ev.dns-ok', { tool: toolOf(dns.argv) ?? '?', name, addresses: addrs.join(', ') }, extra);
  else x.add('dns', 'diagnose.ev.dns-failed', { tool: toolOf(dns.argv) ?? '?', name, why: dnsWhy(x, dns) }, extra);
  const short = findCheck(input.checks, 'dns-short');
  if (ran(short) && short.exitCode !== 126 && short.exitCode !== 127) {
    const found = resolvedAddresses(short);
    const params = { name: input.service.name, namespace: input.source.namespace, addresses: found.join(', ') };
    const shortExtra = { argv: short.argv, output: outputOf(short) };
    x.add(short.id, found.length ? 'diagnose.ev.dns-short-ok' : 'diagnose.ev.dns-short-failed', params, shortExtra);
  }
  const resolv = findCheck(input.checks, 'resolv-conf');
  if (resolv && resolv.exitCode === 0) {
    const rc = parseResolvConf(resolv.stdout);
    x.add(
      'resolv-conf',
      'diagnose.ev.resolv-conf',
      {
        servers: rc.nameservers.join(' ') || '—',
        search: rc.search.join(' ') || '—',
        options: rc.options.join(' ') || '—',
      },
      { argv: resolv.argv, output: trimOutput(resolv.stdout) },
    );
  }
}

/**
 * What the Service's bare name gives a pod of another namespace, when it is not this Service: its search list
 * tries the pod's own namespace first, so the name resolves to nothing or to a namesake there.
 */
function shortNameFact(input: DiagnoseInput): { kind: 'none' | 'other'; addresses: string[] } | undefined {
  const short = findCheck(input.checks, 'dns-short');
  if (!ran(short) || short.exitCode === 126 || short.exitCode === 127 || short.error === 'timeout') return undefined;
  const addrs = resolvedAddresses(short);
  if (addrs.length === 0) return { kind: 'none', addresses: [] };
  const ips = serviceClusterIPs(input.service);
  return addrs.some((a) => ips.includes(a)) ? undefined : { kind: 'other', addresses: addrs };
}

/** Why a Service has no endpoints, from its selector and the pods it matches when those were read. */
function noEndpointsSummary(x: Texts, input: DiagnoseInput, port: string, target: string): string {
  const service = serviceLabel(input);
  const s = input.selected;
  if (!s) return x.t('diagnose.summary.no-endpoints', { service, port, target });
  if (s.selector === undefined) return x.t('diagnose.summary.no-endpoints.no-selector', { service, port, target });
  const key = s.matching === 0 ? 'diagnose.summary.no-endpoints.no-match' : 'diagnose.summary.no-endpoints.pods-match';
  return x.t(key, {
    service,
    port,
    target,
    selector: s.selector,
    namespace: input.service.namespace,
    count: s.matching,
    running: s.running,
    targetPort: String(input.port.targetPort ?? input.port.port),
  });
}

function addToolsEvidence(x: Texts, input: DiagnoseInput): void {
  const probe = lastCheck(input.checks, 'tools');
  if (!probe) return;
  const extra = { argv: probe.argv, output: outputOf(probe) };
  if (probe.exitCode !== 0 || probe.error) {
    x.add('tools', 'diagnose.ev.tools-failed', { why: probeWhy(probe) }, extra);
    return;
  }
  const tools = readTools(probe);
  const found = TOOL_NAMES.filter((n) => tools[n]);
  if (found.length) x.add('tools', 'diagnose.ev.tools', { tools: found.join(', ') }, extra);
  else x.add('tools', 'diagnose.ev.tools-none', {}, extra);
}

function probeWhy(r: CheckResult): string {
  const msg = (r.stderr.trim() || r.stdout.trim()).split('\n')[0];
  const parts = [r.exitCode !== null ? `exit ${r.exitCode}` : '', r.error ?? '', msg].filter(Boolean);
  return parts.join(': ').slice(0, 200) || '?';
}

function verdict(code: VerdictCode, summary: string, x: Texts, steps: string[]): Verdict {
  return { code, summary, evidence: x.evidence, nextSteps: steps };
}

/** Where the pod's route to `dst` goes instead of into the node (no route, a gateway, an interface), unfinished. */
function bypassHead(x: Texts, dst: string, r: RouteFact | undefined, rc: RouteClass): string {
  if (rc.kind === 'bypass' && rc.reason === 'no-route')
    return x.t('diagnose.summary.bypass.no-route', { dst, error: r?.error ?? '?' });
  if (rc.kind !== 'bypass' || !r) return x.t('diagnose.summary.bypass.counters-only', { dst });
  if (r.gateway) {
    const kind = rc.iface?.kind;
    return kind && BESIDE_NODE_KINDS.has(kind)
      ? x.t('diagnose.summary.bypass.gateway-kind', { dst, gateway: r.gateway, dev: r.dev ?? '?', kind })
      : x.t('diagnose.summary.bypass.gateway', { dst, gateway: r.gateway, dev: r.dev ?? '?' });
  }
  if (rc.iface?.kind) return x.t('diagnose.summary.bypass.onlink', { dst, dev: r.dev ?? '?', kind: rc.iface.kind });
  return x.t('diagnose.summary.bypass.onlink-plain', { dst, dev: r.dev ?? '?' });
}

/**
 * The pod's nameserver (the first of its resolv.conf) when the pod's route to it does not lead into the node (a
 * second interface, a gateway that is not the node, macvlan): its DNS queries, to kube-dns's ClusterIP or a
 * node-local cache, then never reach the node, whatever the route to the Service's own ClusterIP does.
 */
function nameserverBypass(
  input: DiagnoseInput,
  f: ReturnType<typeof gatherFacts>,
): { server: string; route: RouteFact; rc: RouteClass } | undefined {
  const conf = findCheck(input.checks, 'resolv-conf');
  if (!ran(conf) || conf.exitCode !== 0) return undefined;
  const first = parseResolvConf(conf.stdout).nameservers[0];
  const server = first ? canonicalIp(first) : undefined;
  if (!server) return undefined;
  const route = routeTo(input.checks, server);
  if (!route) return undefined;
  const rc = classifyRoute(input, route, f.node);
  return rc.kind === 'bypass' && rc.strong ? { server, route, rc } : undefined;
}

function addNameserverRouteEvidence(x: Texts, r: RouteFact): void {
  const extra = { argv: r.check.argv, output: outputOf(r.check) };
  const params = { source: r.source, dst: r.dst, dev: r.dev ?? '?' };
  if (!r.found) x.add(r.check.id, 'diagnose.ev.route-table-none', params, extra);
  else if (r.gateway) x.add(r.check.id, 'diagnose.ev.route-table', { ...params, gateway: r.gateway }, extra);
  else x.add(r.check.id, 'diagnose.ev.route-table-onlink', params, extra);
}

/** Whether the pod's route fact says the packet does not go through the node. */
function bypassSummary(x: Texts, f: ReturnType<typeof gatherFacts>): string {
  const rc = f.routeClass;
  const head = bypassHead(x, f.clusterIP ?? f.target, f.route, rc);
  if (rc.kind === 'bypass' && rc.reason === 'no-route') return `${head}.`;
  const rule = x.t(`diagnose.rule.${f.counters.rule}`);
  if (f.counters.state === 'still') return head + x.t('diagnose.summary.tail.still', { rule, target: f.target });
  if (f.counters.state === 'moved')
    return head + x.t('diagnose.summary.tail.moved', { rule, target: f.target, count: f.counters.entry?.delta ?? 0 });
  return head + x.t('diagnose.summary.tail.unknown');
}

/** Verdicts the node's rules could change or decide (the others rest on the API, the pod's route or its tools). */
const NODE_DECIDES: ReadonlySet<VerdictCode> = new Set([
  'inconclusive',
  'backend-unreachable',
  'clusterip-dnat-missing',
]);

/**
 * When the Service serves the checked port number over another protocol too (kube-dns: 53/UDP and 53/TCP), which
 * protocol this report checked and the command that checks the other: the packets of one never say anything about
 * the other (their own rules, their own listeners).
 */
function otherProtocolEvidence(input: DiagnoseInput, lang: Lang): Evidence | undefined {
  const { port } = input;
  const others = input.service.ports.filter((p) => p.port === port.port && p.protocol !== port.protocol);
  if (!others.length) return undefined;
  const named = (p: ServicePortSpec) => `${p.port}/${p.protocol}${p.name ? ` (${p.name})` : ''}`;
  const { namespace, name } = input.service;
  const commands = others.map(
    (o) =>
      `\`kpp diagnose svc/${name} -n ${namespace} --port ${o.port}/${o.protocol.toLowerCase()} --from pod/${input.source.name} --from-namespace ${input.source.namespace}\``,
  );
  return {
    source: 'api',
    text: t(lang, 'diagnose.ev.api-other-protocol', {
      checked: named(port),
      others: others.map(named).join(', '),
      commands: commands.join(', '),
    }),
  };
}

export function decideVerdict(input: DiagnoseInput, lang: Lang): Verdict {
  const decided = decide(input, lang);
  const other = otherProtocolEvidence(input, lang);
  const v = other ? { ...decided, evidence: [other, ...decided.evidence] } : decided;
  // The pod had no tool and the debug container that brings them was not allowed: say how to allow it, first.
  if (input.debugUnconfirmed && v.code === 'tool-missing')
    return { ...v, nextSteps: [t(lang, 'diagnose.next.debug-unconfirmed', {}), ...v.nextSteps] };
  const ev = input.nodeEvidence;
  // The node was not read because its debug pod was not allowed: say how to allow it, first.
  if (ev?.unconfirmed && !ev.before && !ev.after && NODE_DECIDES.has(v.code))
    return { ...v, nextSteps: [t(lang, 'diagnose.next.node-unconfirmed', { node: ev.name }), ...v.nextSteps] };
  return v;
}

function decide(input: DiagnoseInput, lang: Lang): Verdict {
  const x = new Texts(lang);
  const pod = podLabel(input);
  const service = serviceLabel(input);
  // `namespace` is the pod's (exec rights, a debug container), `svcNamespace` the Service's (its selector, slices).
  const names = {
    pod,
    podName: input.source.name,
    namespace: input.source.namespace,
    svcNamespace: input.service.namespace,
    name: input.service.name,
  };

  // 1. Exec (refused before any check ran, or for the checks themselves).
  const refusedCheck = input.execError
    ? undefined
    : input.checks.find((c) => c.exitCode === null && c.error === 'forbidden');
  const execError =
    input.execError ??
    (refusedCheck
      ? { status: 403, message: (refusedCheck.stderr.trim() || refusedCheck.error || 'forbidden').split('\n')[0] }
      : undefined);
  if (execError) {
    const { status, message } = execError;
    x.add('exec', 'diagnose.ev.exec', { message, status: status ?? '—' });
    if (status === 403 || /forbidden/i.test(message)) {
      return verdict(
        'exec-forbidden',
        x.t('diagnose.summary.exec-forbidden', { pod, status: status ?? 403, message }),
        x,
        nextSteps(x, 'exec-forbidden', 2, names),
      );
    }
    addApiEvidence(x, input);
    const target = joinHostPort(input.service.clusterIP, input.port.port);
    return verdict(
      'inconclusive',
      x.t('diagnose.summary.inconclusive', { target, pod, reason: x.t('diagnose.reason.exec-failed', { message }) }),
      x,
      nextSteps(x, 'inconclusive', 2),
    );
  }

  const f = gatherFacts(input, lang);

  // 2. The API.
  if (input.service.type === 'ExternalName') return externalNameVerdict(x, input, names);
  if (!f.clusterIP && input.service.clusterIP === 'None') return headlessVerdict(x, input, f, names);
  if (!f.clusterIP) {
    addApiEvidence(x, input);
    return verdict(
      'inconclusive',
      x.t('diagnose.summary.inconclusive', {
        target: f.target,
        pod,
        reason: x.t('diagnose.reason.headless', { clusterIP: input.service.clusterIP || '—' }),
      }),
      x,
      nextSteps(x, 'inconclusive', 2),
    );
  }
  const portLabel = input.port.name
    ? `${input.port.name} (${input.port.port}/${input.port.protocol})`
    : `${input.port.port}/${input.port.protocol}`;
  if (input.endpointsKnown && input.endpoints.length === 0) {
    addKubeProxyEvidence(x, input, f);
    // Hand-made endpoints (a Service without a selector) under another port name than the Service's back nothing.
    // A selector's controller names them right; its slices lack a port whose named targetPort no pod declares.
    const handMade = !!input.selected && input.selected.selector === undefined;
    const others = handMade ? (input.endpointPortNames ?? []).filter((n) => n !== input.port.name) : [];
    if (others.length > 0) {
      const shown = (n: string) => (n ? n : '""');
      const params = { ...names, portName: shown(input.port.name) };
      return verdict(
        'no-endpoints',
        x.t('diagnose.summary.no-endpoints.port-name', {
          service,
          port: portLabel,
          target: f.target,
          names: others.map(shown).join(', '),
          portName: params.portName,
        }),
        x,
        [x.t('diagnose.next.no-endpoints.port-name', params), ...nextSteps(x, 'no-endpoints', 3, names).slice(1)],
      );
    }
    return verdict(
      'no-endpoints',
      noEndpointsSummary(x, input, portLabel, f.target),
      x,
      nextSteps(x, 'no-endpoints', 3, names),
    );
  }
  const stops = f.trace.stops ?? [];
  const stoppedAll = (kind: TraceStop['kind']) =>
    f.trace.dnat.length === 0 && stops.length > 0 && stops.every((s) => s.kind === kind);
  if (!input.endpointsKnown && stoppedAll('no-endpoints')) {
    // The API would not say, but the node's kube-proxy has the Service port as one without endpoints.
    addKubeProxyEvidence(x, input, f);
    return verdict(
      'no-endpoints',
      x.t('diagnose.summary.no-endpoints.node', {
        service,
        port: portLabel,
        target: f.target,
        node: input.nodeEvidence?.name ?? f.nodeName ?? '?',
        line: stops[0].line,
      }),
      x,
      nextSteps(x, 'no-endpoints', 3, names),
    );
  }
  const podNode = input.source.nodeName ?? f.nodeName;
  const readyEndpoints = input.endpoints.filter((e) => e.ready);
  // internalTrafficPolicy Local with ready endpoints on the pod's node: kube-proxy there sends the pod's connections
  // to those alone, so only they can explain or spoil the ClusterIP's answer; the others are probed for reference.
  const localKeys =
    input.service.internalTrafficPolicy === 'Local' &&
    !input.source.hostNetwork &&
    !!podNode &&
    readyEndpoints.every((e) => !!e.nodeName) &&
    readyEndpoints.some((e) => e.nodeName === podNode)
      ? new Set(readyEndpoints.filter((e) => e.nodeName === podNode).map((e) => endpointKey(e.ip, e.port)))
      : undefined;
  const usedByNode = (c: EndpointConnect) => !localKeys || localKeys.has(c.result.target ?? '');
  const addLocalOnly = () => {
    if (localKeys && f.endpointConnects.some((c) => !usedByNode(c)))
      x.add('api', 'diagnose.ev.local-endpoints-used', { node: podNode ?? '?', endpoints: [...localKeys].join(', ') });
  };
  // internalTrafficPolicy Local: kube-proxy on this node uses only this node's endpoints. The API says there are
  // none here only when it places every ready endpoint on a node; else the node's "has no local endpoints" rule.
  const noLocalByApi =
    !!podNode &&
    readyEndpoints.length > 0 &&
    readyEndpoints.every((e) => !!e.nodeName) &&
    !readyEndpoints.some((e) => e.nodeName === podNode);
  if (
    input.endpointsKnown &&
    input.service.internalTrafficPolicy === 'Local' &&
    !input.source.hostNetwork &&
    readyEndpoints.length > 0 &&
    (noLocalByApi || stoppedAll('no-local-endpoints'))
  ) {
    addKubeProxyEvidence(x, input, f);
    return verdict(
      'no-endpoints',
      x.t('diagnose.summary.no-local-endpoints', {
        service,
        port: portLabel,
        node: podNode ?? '?',
        target: f.target,
        nodes: readyEndpoints.every((e) => !!e.nodeName)
          ? x.t('diagnose.word.endpoint-nodes', {
              nodes: [...new Set(readyEndpoints.map((e) => e.nodeName))].join(', '),
            })
          : '',
      }),
      x,
      nextSteps(x, 'no-local-endpoints', 3, names),
    );
  }
  if (input.endpointsKnown && !input.endpoints.some((e) => e.ready)) {
    addApiEvidence(x, input);
    if (f.connect) addConnectEvidence(x, f.connect);
    addEndpointEvidence(x, input, f);
    // Terminating endpoints that still serve are what kube-proxy uses when none is ready (usedEndpoints).
    const terminating = input.endpoints.filter((e) => e.serving && e.terminating).length;
    return verdict(
      'endpoints-not-ready',
      x.t(terminating ? 'diagnose.summary.endpoints-terminating' : 'diagnose.summary.endpoints-not-ready', {
        service,
        port: portLabel,
        count: terminating || input.endpoints.length,
        target: f.target,
      }),
      x,
      nextSteps(x, 'endpoints-not-ready', 2, names),
    );
  }

  const connected = f.connect?.outcome === 'connected';
  const connectFailed = !!f.connect && !['connected', 'error', 'not-run'].includes(f.connect.outcome);
  const rc = f.routeClass;

  // 3. The pod's route.
  // A gateway that is merely not one of the node's addresses is the weakest proof: a bridged pod network with
  // br_netfilter (Azure CNI bridge mode) has one and still passes the node's rules. It does not count when the node
  // has no kube-proxy rules at all (Services are translated elsewhere), nor when the probe was refused after the
  // Service's rule counted packets (a refusal comes from a host that owns the address: the node's REJECT or a
  // backend, not a router that drops; a blackholed probe times out).
  const gatewayOnly = rc.kind === 'bypass' && (rc.reason === 'foreign-gateway' || rc.reason === 'unknown-gateway');
  // curl 7.8x says "Couldn't connect" for refused and unreachable alike (`no-connect`): either is an answer.
  const refusedAfterRule =
    f.counters.state === 'moved' && (f.connect?.outcome === 'refused' || f.connect?.outcome === 'no-connect');
  const gatewayDoubted = gatewayOnly && (f.trace.state === 'no-kube' || refusedAfterRule);
  const strongBypass = rc.kind === 'bypass' && rc.strong && !gatewayDoubted;
  const weakBypass =
    rc.kind === 'bypass' && !rc.strong && !gatewayDoubted && f.counters.state === 'still' && connectFailed;
  if (!connected && (strongBypass || weakBypass)) {
    if (f.connect) addConnectEvidence(x, f.connect);
    addRouteEvidence(x, input, f);
    addCounterEvidence(x, input, f);
    addEndpointEvidence(x, input, f);
    addApiEvidence(x, input);
    return verdict('pod-route-bypasses-node', bypassSummary(x, f), x, nextSteps(x, 'bypass', 4, names));
  }

  // 4. The node's rules.
  if (!connected && (f.trace.state === 'none' || f.trace.state === 'stale') && f.trace.missing) {
    const missing = x.t(f.trace.missing.key, f.trace.missing.params);
    if (f.connect) addConnectEvidence(x, f.connect);
    addTraceEvidence(x, input, f);
    addCounterEvidence(x, input, f);
    addApiEvidence(x, input);
    addRouteEvidence(x, input, f);
    return verdict(
      'clusterip-dnat-missing',
      x.t('diagnose.summary.dnat-missing', { target: f.target, missing }),
      x,
      nextSteps(x, 'dnat-missing', 3, names),
    );
  }

  // 5. Tools.
  const probe = lastCheck(input.checks, 'tools');
  const probeFailed = !!probe && (probe.exitCode !== 0 || !!probe.error);
  const tcpLike = probedLikeTcpPort(input);
  const noConnectTool = probe && !probeFailed ? !hasConnectTool(readTools(probe)) : false;
  if (!f.connect || f.connect.outcome === 'error') {
    if (probeFailed || (tcpLike && (noConnectTool || !f.connect || f.connect.outcome === 'error'))) {
      addToolsEvidence(x, input);
      if (f.connect) addConnectEvidence(x, f.connect);
      addRouteEvidence(x, input, f);
      addTraceEvidence(x, input, f);
      return toolMissingVerdict(x, input, probe, probeFailed, f.target, names);
    }
  }

  // 6. Backends.
  if (connectFailed) {
    const entered =
      f.counters.state === 'moved' ||
      ((f.counters.state === 'none' ||
        f.counters.state === 'one-capture' ||
        f.counters.state === 'reset' ||
        f.counters.state === 'no-counters') &&
        rc.kind !== 'bypass' &&
        f.trace.state !== 'no-kube');
    const failed = f.endpointConnects.filter(
      (c) => c.outcome !== 'connected' && c.outcome !== 'error' && c.outcome !== 'not-run' && usedByNode(c),
    );
    const answered = f.endpointConnects.filter((c) => c.outcome === 'connected' && usedByNode(c));
    // A filter rule on the node (FORWARD, a NetworkPolicy chain) that drops or rejects the DNATed packet.
    // Named as the cause only for an endpoint whose every DNATed path stops at such a rule: a rule that drops
    // some of them (a statistic match, an ipset the dump does not hold, a fork the trace assumed) is evidence in
    // the trace's lines, not the cause.
    const dnatTo = new Map(f.trace.dnat.map((d) => [d.target, d.share]));
    const blockedTo = new Map<string, number>();
    for (const s of stops)
      if (s.kind === 'filter' && s.dnat) blockedTo.set(s.dnat, (blockedTo.get(s.dnat) ?? 0) + s.share);
    const filtered = stops.filter(
      (s) =>
        s.kind === 'filter' &&
        s.dnat !== undefined &&
        (dnatTo.get(s.dnat) ?? 0) > 0 &&
        blockedTo.get(s.dnat)! >= dnatTo.get(s.dnat)! * 0.99,
    );
    if (filtered.length > 0 && (entered || rc.kind === 'node')) {
      addConnectEvidence(x, f.connect!);
      addCounterEvidence(x, input, f);
      addTraceEvidence(x, input, f);
      addEndpointEvidence(x, input, f);
      addApiEvidence(x, input);
      const first = filtered[0];
      return verdict(
        'backend-unreachable',
        x.t('diagnose.summary.backend-filtered', {
          target: f.target,
          node: input.nodeEvidence?.name ?? f.nodeName ?? '?',
          table: first.table,
          chain: first.chain,
          line: first.line,
          action: x.t(first.verdict === 'REJECT' ? 'diagnose.word.rejects' : 'diagnose.word.drops'),
          endpoints: [...new Set(filtered.map((s) => s.dnat))].join(', '),
          outcome: outcomeText(x, f.connect!.outcome),
          rule: first.rule,
        }),
        x,
        nextSteps(x, 'backend-filtered', 2, names),
      );
    }
    // Without the node's rules (its exec failed, timed out) a DNAT is assumed, not seen: summaries say so.
    const nodeRead = Boolean(input.nodeEvidence?.before || input.nodeEvidence?.after);
    const own = podIPs(input);
    const selfOnly =
      readyEndpoints.length > 0 &&
      readyEndpoints.every((e) => own.includes(canonicalIp(e.ip) ?? e.ip)) &&
      answered.length > 0 &&
      failed.length === 0;
    // Only with the node's rules read: without them the DNAT back to the pod is not seen (kube-proxy may have no rule).
    if (entered && selfOnly && nodeRead) {
      // Hairpin: the pod is its Service's only endpoint, so the DNATed packet must go back out the way it came.
      addConnectEvidence(x, f.connect!);
      addEndpointEvidence(x, input, f);
      addCounterEvidence(x, input, f);
      addTraceEvidence(x, input, f);
      addRouteEvidence(x, input, f);
      addApiEvidence(x, input);
      return verdict(
        'backend-unreachable',
        x.t('diagnose.summary.hairpin', {
          target: f.target,
          pod,
          endpoint: answered.map((c) => c.result.target ?? '?').join(', '),
          outcome: outcomeText(x, f.connect!.outcome),
          node: f.nodeName ?? '?',
        }),
        x,
        nextSteps(x, 'hairpin', 2, names),
      );
    }
    if (entered && failed.length > 0) {
      addConnectEvidence(x, f.connect!);
      addCounterEvidence(x, input, f);
      addTraceEvidence(x, input, f);
      addEndpointEvidence(x, input, f);
      addLocalOnly();
      addEndpointRouteEvidence(x, input, failed);
      addApiEvidence(x, input);
      // TCP refused: the backends' host answered, nothing listens. TCP timed out / unreachable: the kernel of a live
      // pod completes a handshake by itself, so the path to them is broken. A DNS query (UDP) that gets no answer
      // cannot tell a dead server from a broken path.
      const pathBroken = failed.every((c) => c.outcome === 'timeout' || c.outcome === 'unreachable');
      // Refused: a host answered for the endpoint's address with a RST (or a port unreachable): the pod is there
      // and nothing listens on the port (or a REJECT in that pod refuses it). Not a broken path.
      const refused = failed.every((c) => c.outcome === 'refused');
      const ports = refusedPorts(input, failed);
      const key =
        input.port.protocol === 'UDP'
          ? 'diagnose.summary.backend-no-answer'
          : pathBroken
            ? 'diagnose.summary.backend-path'
            : refused && ports.declared
              ? 'diagnose.summary.backend-port-mismatch'
              : refused
                ? 'diagnose.summary.backend-refused'
                : 'diagnose.summary.backend-unreachable';
      if (refused) addContainerPortEvidence(x, input, failed);
      return verdict(
        'backend-unreachable',
        x.t(key, {
          target: f.target,
          dnatted: x.t(nodeRead ? 'diagnose.dnatted.read' : 'diagnose.dnatted.unread'),
          failed: failed.length,
          count: failed.length + answered.length,
          ...failureParams(x, input, failed),
          ...ports,
        }),
        x,
        backendSteps(x, input, failed, refused, pathBroken, names),
      );
    }
    addConnectEvidence(x, f.connect!);
    addRouteEvidence(x, input, f);
    addCounterEvidence(x, input, f);
    addTraceEvidence(x, input, f);
    addEndpointEvidence(x, input, f);
    addLocalOnly();
    addDnsEvidence(x, input);
    addApiEvidence(x, input);
    const outcome = outcomeText(x, f.connect!.outcome);
    let reason: string;
    if (f.trace.state === 'no-kube') reason = x.t('diagnose.reason.no-kube-rules', { outcome });
    else if (f.counters.state === 'still') reason = x.t('diagnose.reason.counters-still-route-node', { outcome });
    else if (entered && answered.length > 0)
      reason = x.t(nodeRead ? 'diagnose.reason.endpoints-answer' : 'diagnose.reason.endpoints-answer-unread', {
        outcome,
      });
    else reason = x.t('diagnose.reason.connect-failed', { outcome });
    return verdict(
      'inconclusive',
      x.t('diagnose.summary.inconclusive', { target: f.target, pod, reason }),
      x,
      nextSteps(x, 'inconclusive', 2),
    );
  }

  // 6b. The ClusterIP answered, but ready endpoints fail when connected to directly: kube-proxy spreads connections
  // over all of them, so that share fails (an endpoint on a node the pod's node cannot reach; this probe was lucky).
  if (connected) {
    const readyKeys = localKeys ?? new Set(readyEndpoints.map((e) => endpointKey(e.ip, e.port)));
    const failedReady = f.endpointConnects.filter(
      (c) =>
        ['refused', 'unreachable', 'timeout', 'no-connect'].includes(c.outcome) && readyKeys.has(c.result.target ?? ''),
    );
    if (failedReady.length > 0) {
      addConnectEvidence(x, f.connect!);
      addEndpointEvidence(x, input, f);
      addEndpointRouteEvidence(x, input, failedReady);
      addCounterEvidence(x, input, f);
      addApiEvidence(x, input);
      // ClientIP affinity pins this pod to one endpoint, the one that answered: it answers every time, and the
      // clients pinned to the failing ones fail every time (not "now and then").
      const affinity = input.service.sessionAffinity === 'ClientIP';
      return verdict(
        'backend-unreachable',
        x.t(affinity ? 'diagnose.summary.backend-partly.affinity' : 'diagnose.summary.backend-partly', {
          ...(affinity ? { timeout: input.service.affinityTimeoutSeconds } : {}),
          target: f.target,
          failed: failedReady.length,
          count: f.endpointConnects.filter((c) => readyKeys.has(c.result.target ?? '')).length,
          ...failureParams(x, input, failedReady),
        }),
        x,
        backendSteps(
          x,
          input,
          failedReady,
          false,
          failedReady.every((c) => c.outcome === 'timeout' || c.outcome === 'unreachable'),
          names,
        ),
      );
    }
  }

  // 7. DNS, 8. ok.
  const dns = findCheck(input.checks, 'dns');
  const dnsName = serviceDnsName(input.service.namespace, input.service.name, input.clusterDomain);
  const checkable = !!f.connect;
  // A DNS tool that could not run (126/127: missing, or a wrapper it did not understand) says nothing about DNS.
  const dnsRan = ran(dns) && dns.exitCode !== 126 && dns.exitCode !== 127;
  if (dnsRan && dnsName) {
    const addrs = resolvedAddresses(dns);
    const ips = serviceClusterIPs(input.service);
    const resolved = addrs.length > 0;
    if (!resolved || !addrs.some((a) => ips.includes(a))) {
      if (f.connect) addConnectEvidence(x, f.connect);
      addDnsEvidence(x, input);
      const summary = resolved
        ? x.t('diagnose.summary.dns-mismatch', {
            target: f.target,
            name: dnsName,
            addresses: addrs.join(', '),
            ip: f.clusterIP,
          })
        : checkable
          ? x.t('diagnose.summary.dns-failure', { target: f.target, name: dnsName, why: dnsWhy(x, dns) })
          : x.t('diagnose.summary.dns-failure.not-checkable', { name: dnsName, why: dnsWhy(x, dns) });
      // No answer at all, and the queries leave the pod another way than into the node.
      const ns = resolved ? undefined : nameserverBypass(input, f);
      if (ns) {
        addNameserverRouteEvidence(x, ns.route);
        const route = bypassHead(x, ns.server, ns.route, ns.rc);
        return verdict(
          'dns-failure',
          `${summary} ${x.t('diagnose.summary.tail.nameserver-bypass', { route, server: ns.server })}`,
          x,
          [x.t('diagnose.next.dns-bypass.1', { server: ns.server }), x.t('diagnose.next.bypass.2')],
        );
      }
      return verdict('dns-failure', summary, x, nextSteps(x, 'dns-failure', 3, names));
    }
  }
  if (connected) {
    addConnectEvidence(x, f.connect!);
    addDnsEvidence(x, input);
    addRouteEvidence(x, input, f);
    if (rc.kind === 'bypass') x.add('route-clusterip', 'diagnose.ev.connect-ok-despite-route', {});
    addCounterEvidence(x, input, f);
    addEndpointEvidence(x, input, f, true);
    addLocalOnly();
    const summary =
      dnsRan && dnsName
        ? x.t('diagnose.summary.ok', { pod, service, target: f.target, name: dnsName })
        : x.t('diagnose.summary.ok.no-dns', { pod, service, target: f.target });
    const short = shortNameFact(input);
    if (!short) return verdict('ok', summary, x, nextSteps(x, 'ok', 2));
    const params = {
      name: input.service.name,
      namespace: input.source.namespace,
      qualified: `${input.service.name}.${input.service.namespace}`,
      addresses: short.addresses.join(', '),
    };
    return verdict('ok', `${summary} ${x.t(`diagnose.summary.tail.short-${short.kind}`, params)}`, x, [
      x.t('diagnose.next.short-name', params),
      ...nextSteps(x, 'ok', 2),
    ]);
  }

  // Not checkable with a connect (UDP other than 53, SCTP) or the tool could not tell.
  addToolsEvidence(x, input);
  if (f.connect) addConnectEvidence(x, f.connect);
  if (!tcpLike)
    x.add('connect-clusterip', 'diagnose.ev.not-checkable', { proto: input.port.protocol, port: input.port.port });
  addRouteEvidence(x, input, f);
  addCounterEvidence(x, input, f);
  addTraceEvidence(x, input, f);
  addDnsEvidence(x, input);
  addApiEvidence(x, input);
  if (!tcpLike && rc.kind === 'node' && f.trace.state === 'dnat') {
    return verdict(
      'ok',
      x.t('diagnose.summary.ok.not-checkable', {
        pod,
        service,
        target: f.target,
        proto: input.port.protocol,
        dnat: f.trace.dnat.map((d) => d.target).join(', '),
      }),
      x,
      [
        x.t('diagnose.next.ok-unprobed.1', {
          protocol: input.port.protocol.toLowerCase(),
          ip: f.clusterIP ?? f.target,
          node: f.nodeName ?? '?',
        }),
        x.t('diagnose.next.ok.2'),
      ],
    );
  }
  const reason = !tcpLike
    ? x.t('diagnose.reason.not-checkable', { proto: input.port.protocol })
    : f.connect
      ? x.t('diagnose.reason.connect-error', { outcome: outcomeText(x, f.connect.outcome) })
      : x.t('diagnose.reason.nothing');
  return verdict(
    'inconclusive',
    x.t('diagnose.summary.inconclusive', { target: f.target, pod, reason }),
    x,
    nextSteps(x, 'inconclusive', 2),
  );
}
