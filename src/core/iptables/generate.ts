/**
 * The iptables rules kube-proxy (iptables mode, 1.28+) writes for a cluster snapshot, as iptables-restore input:
 * `*filter` then `*nat`, chain declarations, rules, COMMIT. Follows syncProxyRules in
 * kubernetes/kubernetes pkg/proxy/iptables/proxier.go rule for rule, so the text can be compared with a node's
 * real dump (drift), loaded into a lab namespace, or used as benchmark input.
 * Not modelled: topology-aware hints, the nfacct counters of later releases, the KUBE-PROXY-CANARY chains.
 */
import { formatIp, parseCidr, parseIp, type IpFamily } from '../common/ip';
import type { ClusterSnapshot, EndpointInfo } from '../kube/types';
import {
  categorizeEndpoints,
  endpointString,
  externallyAccessible,
  ipInAny,
  proxyView,
  usesClusterEndpoints,
  usesLocalEndpoints,
  type ProxyServicePort,
} from '../kube/apiView';
import { endpointChainName, serviceChainName } from './chainHashes';

export interface GenerateOptions {
  /** 4 (default) writes iptables-restore input; 6 writes ip6tables-restore input. Other families are skipped. */
  ipFamily?: IpFamily;
  /** `--cluster-cidr` (local traffic detected by source CIDR); a dual-stack `v4,v6` pair is accepted. */
  clusterCidr?: string;
  /** Local traffic detected by pod interface name prefix (`--pod-interface-name-prefix`), e.g. `veth`. */
  podInterfacePrefix?: string;
  /** `--masquerade-all`: SNAT every packet sent to a cluster IP. */
  masqueradeAll?: boolean;
  /** `--iptables-masquerade-bit`, default 14 (mark 0x4000). */
  masqueradeBit?: number;
  /** The node kube-proxy runs on: endpoints with this nodeName are local (Local traffic policies). */
  nodeName?: string;
  /** The node's addresses: the first of the family is the node IP (LoadBalancer source ranges). */
  nodeIPs?: readonly string[];
  /** `--nodeport-addresses` CIDRs; NodePorts then answer only on `nodeIPs` inside them. Default: every local address. */
  nodePortAddresses?: readonly string[];
  /** `--iptables-localhost-nodeports` (default true, IPv4 only): NodePorts on 127.0.0.1 plus the KUBE-FIREWALL guard. */
  localhostNodePorts?: boolean;
  /** MASQUERADE with `--random-fully` (kube-proxy adds it when iptables supports it); default false. */
  randomFully?: boolean;
  /** The node runs with `nf_conntrack_tcp_be_liberal=1`: kube-proxy then writes no INVALID drop rule. */
  conntrackTcpBeLiberal?: boolean;
  /**
   * kube-proxy drops per-endpoint comments when the cluster has more than 1000 endpoints ('auto', the default).
   * `false` keeps them (readable benchmark inputs), `true` always drops them.
   */
  largeClusterMode?: boolean | 'auto';
  /**
   * Also declare the builtin chains and write the jumps into them (PREROUTING/OUTPUT -> KUBE-SERVICES, ...) that
   * kube-proxy and the kubelet add outside the restore, so the file loads into an empty namespace. Default true.
   */
  builtinJumps?: boolean;
  /**
   * 'kube-proxy' (default): the order kube-proxy writes (declarations, then rules as syncProxyRules emits them).
   * 'by-chain': rules grouped per chain, chains in the order kube-proxy's unit tests sort them
   * (KUBE-NODEPORTS, KUBE-SERVICES, other KUBE-* alphabetically, then the rest).
   */
  order?: 'kube-proxy' | 'by-chain';
}

export interface GenerateStats {
  servicePorts: number;
  endpointChains: number;
  filterRules: number;
  natRules: number;
  filterChains: number;
  natChains: number;
  largeClusterMode: boolean;
}

export interface GenerateResult {
  text: string;
  warnings: string[];
  stats: GenerateStats;
}

const KUBE_SERVICES = 'KUBE-SERVICES';
const KUBE_EXTERNAL_SERVICES = 'KUBE-EXTERNAL-SERVICES';
const KUBE_NODEPORTS = 'KUBE-NODEPORTS';
const KUBE_POSTROUTING = 'KUBE-POSTROUTING';
const KUBE_MARK_MASQ = 'KUBE-MARK-MASQ';
const KUBE_FORWARD = 'KUBE-FORWARD';
const KUBE_PROXY_FIREWALL = 'KUBE-PROXY-FIREWALL';
const KUBELET_FIREWALL = 'KUBE-FIREWALL';
const LARGE_CLUSTER_ENDPOINTS = 1000;
const NODEPORTS_LAST_RULE_COMMENT = '"kubernetes service nodeports; NOTE: this must be the last rule in this chain"';

const BUILTIN_CHAINS: Record<'filter' | 'nat', string[]> = {
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
};

/**
 * The jumps from builtin chains, in the order a node shows them: kube-proxy prepends its jumps (so its list comes
 * out reversed per chain) after the kubelet has put in KUBE-FIREWALL, which therefore ends up last.
 */
const BUILTIN_JUMPS: Record<'filter' | 'nat', [chain: string, rule: string][]> = {
  filter: [
    [
      'INPUT',
      '-m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
    ],
    ['INPUT', '-m comment --comment "kubernetes health check service ports" -j KUBE-NODEPORTS'],
    [
      'INPUT',
      '-m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES',
    ],
    ['INPUT', '-j KUBE-FIREWALL'],
    [
      'FORWARD',
      '-m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
    ],
    ['FORWARD', '-m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD'],
    ['FORWARD', '-m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES'],
    [
      'FORWARD',
      '-m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES',
    ],
    [
      'OUTPUT',
      '-m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
    ],
    ['OUTPUT', '-m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES'],
    ['OUTPUT', '-j KUBE-FIREWALL'],
  ],
  nat: [
    ['PREROUTING', '-m comment --comment "kubernetes service portals" -j KUBE-SERVICES'],
    ['OUTPUT', '-m comment --comment "kubernetes service portals" -j KUBE-SERVICES'],
    ['POSTROUTING', '-m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING'],
  ],
};

/** One table being written: chain declarations and rules, each in emission order. */
class TableText {
  readonly chains: string[] = [];
  private readonly policies = new Map<string, string>();
  /** Parallel arrays (chain of each rule, rule text): fewer objects for clusters with 100k+ rules. */
  private readonly ruleChains: string[] = [];
  readonly lines: string[] = [];

  constructor(readonly name: 'filter' | 'nat') {}

  declare(chain: string, policy = '-'): void {
    if (this.policies.has(chain)) return;
    this.policies.set(chain, policy);
    this.chains.push(chain);
  }

  add(chain: string, rest: string): void {
    this.ruleChains.push(chain);
    this.lines.push(rest ? `-A ${chain} ${rest}` : `-A ${chain}`);
  }

  /** Rules grouped by chain, chains ordered as kube-proxy's sortIPTablesRules test helper orders them. */
  private byChain(): { chains: string[]; lines: string[] } {
    const rank = (c: string) => (c === KUBE_NODEPORTS ? 0 : c === KUBE_SERVICES ? 1 : c.startsWith('KUBE-') ? 2 : 3);
    const chains = [...this.chains].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    const grouped = new Map<string, string[]>(chains.map((c) => [c, []]));
    this.lines.forEach((line, i) => grouped.get(this.ruleChains[i])?.push(line));
    return { chains, lines: chains.flatMap((c) => grouped.get(c) ?? []) };
  }

  render(order: 'kube-proxy' | 'by-chain', out: string[]): void {
    out.push(`*${this.name}`);
    const { chains, lines } = order === 'by-chain' ? this.byChain() : this;
    for (const c of chains) out.push(`:${c} ${this.policies.get(c)} [0:0]`);
    for (const l of lines) out.push(l);
    out.push('COMMIT');
  }
}

/**
 * `fmt.Sprintf("%0.10f", 1/n)` as Go prints it. JavaScript's toFixed rounds exact ties up where Go rounds them to
 * even; a tie at the 10th decimal only happens when 1/n is exact in binary with 11 decimals, i.e. n = 2^11.
 */
function formatProbability(n: number): string {
  if ((n & (n - 1)) === 0 && n >= 2048) {
    const k = Math.log2(n);
    const digits = (5n ** BigInt(k)).toString().padStart(k, '0'); // 1/2^k = 5^k / 10^k exactly
    let head = BigInt(digits.slice(0, 10) || '0');
    const rest = digits.slice(10);
    const half = '5'.padEnd(rest.length, '0');
    if (rest > half || (rest === half && head % 2n === 1n)) head += 1n;
    return `0.${head.toString().padStart(10, '0')}`;
  }
  return (1 / n).toFixed(10);
}

interface LocalDetector {
  ifLocal: string;
  ifNotLocal: string;
}

interface Resolved {
  family: IpFamily;
  detector?: LocalDetector;
  masqueradeAll: boolean;
  mark: string;
  nodeName?: string;
  nodeIP?: string;
  nodeIPs: string[];
  nodePortAddresses?: readonly string[];
  localhostNodePorts: boolean;
  randomFully: boolean;
  conntrackTcpBeLiberal: boolean;
  largeClusterMode: boolean | 'auto';
  builtinJumps: boolean;
  order: 'kube-proxy' | 'by-chain';
}

function resolveOptions(o: GenerateOptions, warnings: string[]): Resolved {
  const family: IpFamily = o.ipFamily === 6 ? 6 : 4;
  if (o.ipFamily !== undefined && o.ipFamily !== 4 && o.ipFamily !== 6)
    warnings.push(`ipFamily ${String(o.ipFamily)} is not 4 or 6; using 4`);
  let detector: LocalDetector | undefined;
  if (o.clusterCidr !== undefined) {
    const parts = o.clusterCidr
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const parsed = parts.map((p) => (p.includes('/') ? parseCidr(p) : undefined));
    const bad = parts.filter((_, i) => !parsed[i]);
    if (bad.length) warnings.push(`cluster CIDR ${bad.join(', ')} is not a CIDR; ignored`);
    const cidr = parsed.find((c) => c?.family === family);
    if (cidr) {
      const text = `${formatIp({ family, value: cidr.base })}/${cidr.prefix}`;
      detector = { ifLocal: `-s ${text}`, ifNotLocal: `! -s ${text}` };
    } else if (!bad.length)
      warnings.push(`cluster CIDR ${o.clusterCidr} has no IPv${family} range; local traffic is not detected`);
  }
  if (!detector && o.podInterfacePrefix !== undefined) {
    if (/^[A-Za-z0-9_.:-]{1,14}$/.test(o.podInterfacePrefix)) {
      detector = { ifLocal: `-i ${o.podInterfacePrefix}+`, ifNotLocal: `! -i ${o.podInterfacePrefix}+` };
    } else
      warnings.push(`pod interface prefix ${JSON.stringify(o.podInterfacePrefix)} is not an interface name; ignored`);
  }
  let bit = 14;
  if (o.masqueradeBit !== undefined) {
    if (Number.isInteger(o.masqueradeBit) && o.masqueradeBit >= 0 && o.masqueradeBit <= 31) bit = o.masqueradeBit;
    else warnings.push(`masquerade bit ${String(o.masqueradeBit)} is not 0-31; using 14`);
  }
  const nodeIPs = (o.nodeIPs ?? []).filter((ip) => {
    const ok = parseIp(ip) !== undefined;
    if (!ok) warnings.push(`node IP ${JSON.stringify(ip)} is not an IP address; ignored`);
    return ok;
  });
  let nodePortAddresses: string[] | undefined;
  if (o.nodePortAddresses !== undefined) {
    const valid = o.nodePortAddresses.filter((c) => {
      const ok = c.includes('/') && parseCidr(c) !== undefined;
      if (!ok) warnings.push(`nodePort address ${JSON.stringify(c)} is not a CIDR; ignored`);
      return ok;
    });
    const ofFamily = valid.filter((c) => parseCidr(c)!.family === family);
    // No range of this family, or a zero-length prefix, means every local address (kube-proxy's MatchAll).
    if (ofFamily.length && !ofFamily.some((c) => parseCidr(c)!.prefix === 0)) nodePortAddresses = ofFamily;
  }
  let localhostNodePorts = family === 4 && (o.localhostNodePorts ?? true);
  if (localhostNodePorts && nodePortAddresses && !ipInAny('127.0.0.1', nodePortAddresses)) localhostNodePorts = false;
  return {
    family,
    detector,
    masqueradeAll: o.masqueradeAll === true,
    mark: `0x${(2 ** bit).toString(16)}`,
    nodeName: o.nodeName || undefined,
    nodeIP: nodeIPs.find((ip) => parseIp(ip)!.family === family),
    nodeIPs: nodeIPs.filter((ip) => parseIp(ip)!.family === family),
    nodePortAddresses,
    localhostNodePorts,
    randomFully: o.randomFully === true,
    conntrackTcpBeLiberal: o.conntrackTcpBeLiberal === true,
    largeClusterMode: o.largeClusterMode ?? 'auto',
    builtinJumps: o.builtinJumps ?? true,
    order: o.order === 'by-chain' ? 'by-chain' : 'kube-proxy',
  };
}

/** Writes the rules of one Service port, in the order syncProxyRules writes them. */
class ServicePortWriter {
  private readonly probabilities: string[] = [];
  endpointChains = 0;

  constructor(
    private readonly filter: TableText,
    private readonly nat: TableText,
    private readonly opt: Resolved,
    private readonly withComments: boolean,
  ) {}

  private probability(n: number): string {
    return (this.probabilities[n] ??= formatProbability(n));
  }

  /** `-m comment --comment X ` when comments are kept (kube-proxy drops these in large clusters). */
  private comment(text: string): string {
    return this.withComments ? `-m comment --comment ${text} ` : '';
  }

  write(p: ProxyServicePort): void {
    const { filter, nat, opt } = this;
    const proto = p.protocol;
    const spn = p.spn;
    const match = `-m ${proto} -p ${proto}`;
    // Hashing is the costly part of large dumps: name only the chains this port uses, each endpoint once.
    const names = new Map<string, string>();
    const chainOf = (prefix: 'KUBE-SVC-' | 'KUBE-SVL-' | 'KUBE-EXT-' | 'KUBE-FW-') => {
      let c = names.get(prefix);
      if (c === undefined) names.set(prefix, (c = serviceChainName(prefix, spn, proto)));
      return c;
    };
    const endpointNames = new Map<EndpointInfo, { text: string; chain: string }>();
    const endpointOf = (ep: EndpointInfo) => {
      let e = endpointNames.get(ep);
      if (!e) {
        const text = endpointString(ep);
        endpointNames.set(ep, (e = { text, chain: endpointChainName(spn, proto, text) }));
      }
      return e;
    };

    const { cluster, local, reachable, hasAny } = categorizeEndpoints(p, opt.nodeName);
    const usesClusterChain = cluster.length > 0 && usesClusterEndpoints(p);
    const usesLocalChain = local.length > 0 && usesLocalEndpoints(p);
    const hasInternal = hasAny && (!p.internalPolicyLocal || local.length > 0);
    const internalChain = hasInternal ? chainOf(p.internalPolicyLocal ? 'KUBE-SVL-' : 'KUBE-SVC-') : '';
    const hasExternal = hasAny && (!p.externalPolicyLocal || local.length > 0);
    const usesExtChain = hasAny && externallyAccessible(p);
    const usesFwChain = hasAny && p.loadBalancerVIPs.length > 0 && p.sourceRanges.length > 0;
    const extChain = usesExtChain ? chainOf('KUBE-EXT-') : '';
    const fwChain = usesFwChain ? chainOf('KUBE-FW-') : '';
    const lbChain = usesFwChain ? fwChain : extChain;

    // The filter verdict for traffic with nowhere to go: no endpoint at all, or none on this node for a Local policy.
    const nowhere = hasAny
      ? { target: 'DROP', comment: `"${spn} has no local endpoints"` }
      : { target: 'REJECT', comment: `"${spn} has no endpoints"` };

    const toClusterIP = `-d ${p.clusterIP} --dport ${p.port.port}`;
    if (hasInternal)
      nat.add(KUBE_SERVICES, `-m comment --comment "${spn} cluster IP" ${match} ${toClusterIP} -j ${internalChain}`);
    else
      filter.add(KUBE_SERVICES, `-m comment --comment ${nowhere.comment} ${match} ${toClusterIP} -j ${nowhere.target}`);

    for (const ip of p.externalIPs) {
      const to = `-d ${ip} --dport ${p.port.port}`;
      if (hasAny) nat.add(KUBE_SERVICES, `-m comment --comment "${spn} external IP" ${match} ${to} -j ${extChain}`);
      if (!hasExternal)
        filter.add(
          KUBE_EXTERNAL_SERVICES,
          `-m comment --comment ${nowhere.comment} ${match} ${to} -j ${nowhere.target}`,
        );
    }
    for (const ip of p.loadBalancerVIPs) {
      const to = `-d ${ip} --dport ${p.port.port}`;
      if (hasAny) nat.add(KUBE_SERVICES, `-m comment --comment "${spn} loadbalancer IP" ${match} ${to} -j ${lbChain}`);
      if (usesFwChain)
        filter.add(
          KUBE_PROXY_FIREWALL,
          `-m comment --comment "${spn} traffic not accepted by ${fwChain}" ${match} ${to} -j DROP`,
        );
    }
    if (!hasExternal) {
      for (const ip of p.loadBalancerVIPs) {
        filter.add(
          KUBE_EXTERNAL_SERVICES,
          `-m comment --comment ${nowhere.comment} ${match} -d ${ip} --dport ${p.port.port} -j ${nowhere.target}`,
        );
      }
    }
    if (p.nodePort !== 0) {
      if (hasAny) nat.add(KUBE_NODEPORTS, `-m comment --comment ${spn} ${match} --dport ${p.nodePort} -j ${extChain}`);
      if (!hasExternal) {
        filter.add(
          KUBE_EXTERNAL_SERVICES,
          `-m comment --comment ${nowhere.comment} -m addrtype --dst-type LOCAL ${match} --dport ${p.nodePort} -j ${nowhere.target}`,
        );
      }
    }
    if (p.healthCheckNodePort !== 0) {
      filter.add(
        KUBE_NODEPORTS,
        `-m comment --comment "${spn} health check node port" -m tcp -p tcp --dport ${p.healthCheckNodePort} -j ACCEPT`,
      );
    }

    // Masquerade off-cluster traffic to the cluster IP (or all of it with --masquerade-all).
    if (hasInternal) {
      const head = `-m comment --comment "${spn} cluster IP" ${match} ${toClusterIP}`;
      if (opt.masqueradeAll) nat.add(internalChain, `${head} -j ${KUBE_MARK_MASQ}`);
      else if (opt.detector) nat.add(internalChain, `${head} ${opt.detector.ifNotLocal} -j ${KUBE_MARK_MASQ}`);
    }

    if (usesExtChain) {
      nat.declare(extChain);
      if (!p.externalPolicyLocal) {
        nat.add(
          extChain,
          `-m comment --comment "masquerade traffic for ${spn} external destinations" -j ${KUBE_MARK_MASQ}`,
        );
      } else {
        const svcChain = chainOf('KUBE-SVC-');
        if (opt.detector)
          nat.add(
            extChain,
            `-m comment --comment "pod traffic for ${spn} external destinations" ${opt.detector.ifLocal} -j ${svcChain}`,
          );
        nat.add(
          extChain,
          `-m comment --comment "masquerade LOCAL traffic for ${spn} external destinations" -m addrtype --src-type LOCAL -j ${KUBE_MARK_MASQ}`,
        );
        nat.add(
          extChain,
          `-m comment --comment "route LOCAL traffic for ${spn} external destinations" -m addrtype --src-type LOCAL -j ${svcChain}`,
        );
      }
      if (hasExternal) nat.add(extChain, `-j ${chainOf(p.externalPolicyLocal ? 'KUBE-SVL-' : 'KUBE-SVC-')}`);
    }

    if (usesFwChain) {
      nat.declare(fwChain);
      const head = `-m comment --comment "${spn} loadbalancer IP"`;
      let allowFromNode = false;
      for (const cidr of p.sourceRanges) {
        nat.add(fwChain, `${head} -s ${cidr} -j ${extChain}`);
        if (opt.nodeIP && ipInAny(opt.nodeIP, [cidr])) allowFromNode = true;
      }
      // A node reaching its own VIP-style load balancer loops back with the VIP as source.
      if (allowFromNode) for (const ip of p.loadBalancerVIPs) nat.add(fwChain, `${head} -s ${ip} -j ${extChain}`);
      nat.add(fwChain, `-m comment --comment "other traffic to ${spn} will be dropped by KUBE-PROXY-FIREWALL"`);
    }

    if (usesClusterChain) {
      nat.declare(chainOf('KUBE-SVC-'));
      this.writeServiceToEndpoints(p, chainOf('KUBE-SVC-'), cluster, endpointOf);
    }
    if (usesLocalChain) {
      nat.declare(chainOf('KUBE-SVL-'));
      this.writeServiceToEndpoints(p, chainOf('KUBE-SVL-'), local, endpointOf);
    }

    const c = this.comment(spn);
    for (const ep of reachable) {
      const { text, chain } = endpointOf(ep);
      nat.declare(chain);
      this.endpointChains++;
      nat.add(chain, `${c}-s ${ep.ip} -j ${KUBE_MARK_MASQ}`);
      const affinity = p.affinitySeconds ? `-m recent --name ${chain} --set ` : '';
      nat.add(chain, `${c}${affinity}${match} -j DNAT --to-destination ${text}`);
    }
  }

  private writeServiceToEndpoints(
    p: ProxyServicePort,
    chain: string,
    eps: EndpointInfo[],
    endpointOf: (ep: EndpointInfo) => { text: string; chain: string },
  ): void {
    const { nat } = this;
    if (p.affinitySeconds) {
      for (const ep of eps) {
        const { text, chain: sep } = endpointOf(ep);
        nat.add(
          chain,
          `${this.comment(`"${p.spn} -> ${text}"`)}-m recent --name ${sep} --rcheck --seconds ${p.affinitySeconds} --reap -j ${sep}`,
        );
      }
    }
    const n = eps.length;
    eps.forEach((ep, i) => {
      const { text, chain: sep } = endpointOf(ep);
      // Each rule takes 1/(remaining) of what reaches it; the last takes everything left.
      const stat = i < n - 1 ? `-m statistic --mode random --probability ${this.probability(n - i)} ` : '';
      nat.add(chain, `${this.comment(`"${p.spn} -> ${text}"`)}${stat}-j ${sep}`);
    });
  }
}

/** Generates iptables-restore input for `snapshot` as kube-proxy would write it on one node. */
export function generateIptablesRestore(snapshot: ClusterSnapshot, options: GenerateOptions = {}): GenerateResult {
  const warnings: string[] = [];
  const opt = resolveOptions(options, warnings);
  const view = proxyView(snapshot, opt.family);
  if (view.otherFamilyServices.length) {
    const n = view.otherFamilyServices.length;
    warnings.push(
      `${n} Service${n === 1 ? ' has' : 's have'} no IPv${opt.family} cluster IP and get${n === 1 ? 's' : ''} no rules in this dump (e.g. ${view.otherFamilyServices[0]})`,
    );
  }

  const filter = new TableText('filter');
  const nat = new TableText('nat');
  if (opt.builtinJumps) {
    for (const t of [filter, nat]) {
      for (const c of BUILTIN_CHAINS[t.name]) t.declare(c, 'ACCEPT');
      for (const [chain, rule] of BUILTIN_JUMPS[t.name]) t.add(chain, rule);
    }
  }
  for (const c of [KUBE_SERVICES, KUBE_EXTERNAL_SERVICES, KUBE_FORWARD, KUBE_NODEPORTS, KUBE_PROXY_FIREWALL])
    filter.declare(c);
  for (const c of [KUBE_SERVICES, KUBE_NODEPORTS, KUBE_POSTROUTING, KUBE_MARK_MASQ]) nat.declare(c);

  const mark = opt.mark;
  nat.add(KUBE_POSTROUTING, `-m mark ! --mark ${mark}/${mark} -j RETURN`);
  // Clear the mark so a packet that re-traverses the stack is not masqueraded twice.
  nat.add(KUBE_POSTROUTING, `-j MARK --xor-mark ${mark}`);
  nat.add(
    KUBE_POSTROUTING,
    `-m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE${opt.randomFully ? ' --random-fully' : ''}`,
  );
  nat.add(KUBE_MARK_MASQ, `-j MARK --or-mark ${mark}`);

  if (opt.family === 4 && opt.localhostNodePorts) {
    // route_localnet=1 (needed for NodePorts on localhost) would let martian packets in; this closes that hole.
    filter.declare(KUBELET_FIREWALL);
    filter.add(
      KUBELET_FIREWALL,
      '-m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
    );
  } else if (opt.builtinJumps) filter.declare(KUBELET_FIREWALL); // the kubelet's chain, jumped to from INPUT/OUTPUT

  const totalEndpoints = view.ports.reduce((n, p) => n + p.endpoints.length, 0);
  const large = opt.largeClusterMode === 'auto' ? totalEndpoints > LARGE_CLUSTER_ENDPOINTS : opt.largeClusterMode;
  const writer = new ServicePortWriter(filter, nat, opt, !large);
  for (const p of view.ports) writer.write(p);

  // The jump to KUBE-NODEPORTS must stay last: it matches every packet to a local address.
  if (!opt.nodePortAddresses) {
    let dest = '-m addrtype --dst-type LOCAL';
    if (opt.family === 6) dest += ' ! -d ::1/128';
    else if (!opt.localhostNodePorts) dest += ' ! -d 127.0.0.0/8';
    nat.add(KUBE_SERVICES, `-m comment --comment ${NODEPORTS_LAST_RULE_COMMENT} ${dest} -j ${KUBE_NODEPORTS}`);
  } else {
    const ips = opt.nodeIPs.filter((ip) => ipInAny(ip, opt.nodePortAddresses!));
    if (!ips.length)
      warnings.push('no node IP lies in the nodePort addresses; NodePorts get no entry rule (pass nodeIPs)');
    for (const ip of ips) {
      if (ip.startsWith('127.') || ip === '::1') {
        if (opt.family === 6 || !opt.localhostNodePorts) {
          warnings.push(`nodePort addresses include ${ip} but localhost NodePorts are off; skipped`);
          continue;
        }
      }
      nat.add(KUBE_SERVICES, `-m comment --comment ${NODEPORTS_LAST_RULE_COMMENT} -d ${ip} -j ${KUBE_NODEPORTS}`);
    }
  }

  // Without a liberal TCP conntrack, out-of-window packets are INVALID and could reset connections.
  if (!opt.conntrackTcpBeLiberal) filter.add(KUBE_FORWARD, '-m conntrack --ctstate INVALID -j DROP');
  filter.add(
    KUBE_FORWARD,
    `-m comment --comment "kubernetes forwarding rules" -m mark --mark ${mark}/${mark} -j ACCEPT`,
  );
  filter.add(
    KUBE_FORWARD,
    '-m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
  );

  const out: string[] = [];
  filter.render(opt.order, out);
  nat.render(opt.order, out);
  out.push('');
  return {
    text: out.join('\n'),
    warnings,
    stats: {
      servicePorts: view.ports.length,
      endpointChains: writer.endpointChains,
      filterRules: filter.lines.length,
      natRules: nat.lines.length,
      filterChains: filter.chains.length,
      natChains: nat.chains.length,
      largeClusterMode: large,
    },
  };
}
