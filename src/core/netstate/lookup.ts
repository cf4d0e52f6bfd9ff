/**
 * Questions the diagnose engine asks of parsed network state: which route carries a packet to an address,
 * which addresses a host has, and which interface owns (or is on the link of) an address.
 */
import { cidrContains, parseCidr, parseIp } from '../common/ip';
import type { InterfaceAddress, NetworkInterface, Nexthop, PolicyRule, Route, RouteType } from './types';

export interface RouteLookupOptions {
  /**
   * Tables to search, in the order the kernel's rules would (e.g. `['local', 'main']`); the first table with a
   * match decides, except that a `throw` route passes on to the next table. Default: `['main']`.
   */
  tables?: readonly string[];
  /** Also consider routes read from cut lines (`partial`). Default false. */
  includePartial?: boolean;
}

export interface RouteLookup {
  route: Route;
  type: RouteType;
  table: string;
  destination: string;
  prefixLength: number;
  gateway?: string;
  dev?: string;
  src?: string;
  /** Legs of a multipath route (the kernel picks one per flow). */
  nexthops: Nexthop[];
  /**
   * The route forwards through nexthop object N (`nhid N`, iproute2 5.x+ with nexthop objects): its gateway and
   * device are in `ip nexthop show id N`, not in the route list. A missing `gateway` then does not mean on-link.
   */
  nexthopId?: number;
}

/**
 * Longest-prefix match for `dst` among `routes`, like the kernel's FIB lookup: same family, longest prefix,
 * then the lowest metric. Returns undefined when `dst` is not an address or no route matches.
 */
export function lookupRoute(
  routes: readonly Route[],
  dst: string,
  options: RouteLookupOptions = {},
): RouteLookup | undefined {
  const ip = parseIp(dst);
  if (!ip) return undefined;
  const tables = options.tables ?? ['main'];
  for (const table of tables) {
    let best: Route | undefined;
    for (const route of routes) {
      if (route.table !== table || route.family !== ip.family) continue;
      if (route.partial && !options.includePartial) continue;
      const cidr = parseCidr(route.destination);
      if (!cidr || !cidrContains(cidr, ip)) continue;
      if (!best || isBetter(route, best)) best = route;
    }
    if (!best || best.type === 'throw') continue;
    const found: RouteLookup = {
      route: best,
      type: best.type,
      table,
      destination: best.destination,
      prefixLength: best.prefixLength,
      nexthops: best.nexthops,
    };
    if (best.gateway) found.gateway = best.gateway;
    if (best.dev) found.dev = best.dev;
    if (best.src) found.src = best.src;
    const nhid = best.attributes.nhid;
    if (nhid !== undefined && /^\d+$/.test(nhid)) found.nexthopId = Number(nhid);
    return found;
  }
  return undefined;
}

/** A packet as the routing policy sees it. Unknown fields match no rule that selects on them. */
export interface PolicyPacket {
  src?: string;
  dst: string;
  /** The packet's firewall mark (0 when unmarked). */
  mark?: number;
  /** Interface it arrived on; undefined for a packet this host sends (which `iif lo` rules match). */
  iif?: string;
  oif?: string;
}

/** The kernel's rules when `ip rule` was never changed. */
const DEFAULT_RULES: readonly Pick<PolicyRule, 'priority' | 'action' | 'table' | 'from' | 'not' | 'flags'>[] = [
  { priority: 0, action: 'lookup', table: 'local', from: 'all', not: false, flags: [] },
  { priority: 32766, action: 'lookup', table: 'main', from: 'all', not: false, flags: [] },
  { priority: 32767, action: 'lookup', table: 'default', from: 'all', not: false, flags: [] },
];

export interface PolicyLookup {
  /** The rule that decided: its table had the route, or it drops the packet. Undefined when no rule did. */
  rule?: Pick<PolicyRule, 'priority' | 'action' | 'table'> & { line?: number };
  /** The route found (a `lookup` rule's decision). */
  route?: RouteLookup;
  /**
   * `route`, or the terminal action of the deciding rule or route (a `blackhole`/`unreachable`/`prohibit` route in
   * the table found); `none` when every rule passed the packet on.
   */
  verdict: 'route' | 'blackhole' | 'unreachable' | 'prohibit' | 'none';
  /** Lookup rules that matched the packet but whose table gave no usable route, in the order tried. */
  passed: { priority: number; table: string; why: 'no-route' | 'suppressed' }[];
}

/**
 * The route a packet takes under the routing policy: rules by priority, each matching rule's table tried with
 * `lookupRoute`, as the kernel's fib_rules do (a `goto` skips ahead, `suppress_prefixlength` refuses short
 * prefixes, a terminal action stops). Without rules, the kernel's three default rules apply.
 */
export function lookupWithPolicy(
  rules: readonly PolicyRule[],
  routes: readonly Route[],
  packet: PolicyPacket,
  options: Omit<RouteLookupOptions, 'tables'> = {},
): PolicyLookup {
  const ip = parseIp(packet.dst);
  const family = ip?.family;
  const ofFamily = rules.filter((r) => r.family === undefined || r.family === family);
  // Rules pasted for the other family only say nothing of this one: the kernel's defaults apply to it.
  const sorted = [...(ofFamily.length ? ofFamily : DEFAULT_RULES)].sort((a, b) => a.priority - b.priority);
  const passed: PolicyLookup['passed'] = [];
  let skipBelow = -1;
  for (const rule of sorted) {
    if (rule.priority < skipBelow || !ruleMatches(rule, packet)) continue;
    if (rule.action === 'nop') continue;
    if (rule.action === 'goto') {
      // A goto whose target rule is gone (`[unresolved]`) does nothing, as in the kernel.
      if (!rule.flags.includes('unresolved')) skipBelow = (rule as PolicyRule).goto ?? -1;
      continue;
    }
    if (rule.action !== 'lookup') return { rule: ruleRef(rule), verdict: rule.action, passed };
    const table = rule.table ?? 'main';
    const found = lookupRoute(routes, packet.dst, { ...options, tables: [table] });
    if (!found) {
      passed.push({ priority: rule.priority, table, why: 'no-route' });
      continue;
    }
    const suppress = (rule as PolicyRule).suppressPrefixLength;
    if (suppress !== undefined && found.prefixLength <= suppress) {
      passed.push({ priority: rule.priority, table, why: 'suppressed' });
      continue;
    }
    // A rejecting route in the table is the answer too: the packet is dropped or refused there.
    const verdict =
      found.type === 'blackhole' || found.type === 'unreachable' || found.type === 'prohibit' ? found.type : 'route';
    return { rule: ruleRef(rule), route: found, verdict, passed };
  }
  return { verdict: 'none', passed };
}

function ruleRef(rule: Pick<PolicyRule, 'priority' | 'action' | 'table'> & { line?: number }): PolicyLookup['rule'] {
  return {
    priority: rule.priority,
    action: rule.action,
    ...(rule.table ? { table: rule.table } : {}),
    ...(rule.line !== undefined ? { line: rule.line } : {}),
  };
}

/** Whether the rule's selector (inverted by `not`) matches the packet. */
function ruleMatches(rule: Partial<PolicyRule> & Pick<PolicyRule, 'from' | 'not'>, packet: PolicyPacket): boolean {
  return selectorMatches(rule, packet) !== rule.not;
}

function selectorMatches(rule: Partial<PolicyRule> & Pick<PolicyRule, 'from'>, packet: PolicyPacket): boolean {
  if (rule.flags?.includes('detached')) return false;
  if (rule.from !== 'all' && !addressIn(packet.src, rule.from)) return false;
  if (rule.to !== undefined && rule.to !== 'all' && !addressIn(packet.dst, rule.to)) return false;
  if (rule.fwmark !== undefined) {
    const mark = Number(rule.fwmark);
    const mask = rule.fwmask !== undefined ? Number(rule.fwmask) : 0xffffffff;
    if (!Number.isFinite(mark) || !Number.isFinite(mask) || ((packet.mark ?? 0) & mask) >>> 0 !== (mark & mask) >>> 0)
      return false;
  }
  if (rule.iif !== undefined && (packet.iif ?? 'lo') !== rule.iif) return false;
  if (rule.oif !== undefined && packet.oif !== rule.oif) return false;
  // Selectors the packet does not tell (uid, protocol, ports, TOS/DSCP, flow label): a rule that needs them is not taken.
  const other = rule.attributes;
  return (
    rule.uidrange === undefined &&
    rule.ipproto === undefined &&
    rule.sport === undefined &&
    rule.dport === undefined &&
    rule.tos === undefined &&
    other?.dscp === undefined &&
    other?.flowlabel === undefined
  );
}

function addressIn(address: string | undefined, prefix: string): boolean {
  const ip = address ? parseIp(address) : undefined;
  const cidr = parseCidr(prefix);
  return ip !== undefined && cidr !== undefined && cidrContains(cidr, ip);
}

function isBetter(candidate: Route, current: Route): boolean {
  if (candidate.prefixLength !== current.prefixLength) return candidate.prefixLength > current.prefixLength;
  return (candidate.metric ?? 0) < (current.metric ?? 0);
}

/** Every address of every interface, in listing order. */
export function addressesOf(interfaces: readonly NetworkInterface[]): InterfaceAddress[] {
  return interfaces.flatMap((i) => i.addresses);
}

export interface InterfaceMatch {
  interface: NetworkInterface;
  address: InterfaceAddress;
}

export interface InterfaceForAddressOptions {
  /**
   * Also match an interface whose address's subnet contains `ip` (the link `ip` is on), preferring the longest
   * prefix. Default false: only the interface that has `ip` itself.
   */
  onLink?: boolean;
}

/** The interface that has address `ip` (or, with `onLink`, whose subnet holds it). */
export function interfaceForAddress(
  interfaces: readonly NetworkInterface[],
  ip: string,
  options: InterfaceForAddressOptions = {},
): InterfaceMatch | undefined {
  const target = parseIp(ip);
  if (!target) return undefined;
  let onLink: InterfaceMatch | undefined;
  for (const iface of interfaces) {
    for (const address of iface.addresses) {
      const own = parseIp(address.address);
      if (own && own.family === target.family && own.value === target.value) return { interface: iface, address };
      if (!options.onLink) continue;
      const net = parseCidr(address.network);
      if (net && cidrContains(net, target) && (!onLink || address.prefixLength > onLink.address.prefixLength)) {
        onLink = { interface: iface, address };
      }
    }
  }
  return onLink;
}

/** Why an address listed on an interface does not work as one of this host's, or undefined when nothing says so. */
export type AddressProblem = 'dadfailed' | 'tentative' | 'admin-down' | 'no-carrier';

/**
 * What the listing says against an address: IPv6 duplicate address detection failed or has not finished (the
 * kernel does not use the address), or its interface is administratively down or has no carrier (nothing is
 * sent or received on it). Flags an output did not print (`ip -o addr` has no `<...>`) tell nothing.
 */
export function addressProblem(iface: NetworkInterface, address: InterfaceAddress): AddressProblem | undefined {
  if (address.flags.includes('dadfailed')) return 'dadfailed';
  if (address.flags.includes('tentative') && !address.flags.includes('optimistic')) return 'tentative';
  return linkProblem(iface);
}

/** Whether the interface passes packets: administratively down (no UP flag) or without carrier; else undefined. */
export function linkProblem(iface: NetworkInterface): 'admin-down' | 'no-carrier' | undefined {
  const flagsShown = iface.flags.length > 0;
  if ((flagsShown && !iface.flags.includes('UP')) || (!flagsShown && iface.state === 'DOWN')) return 'admin-down';
  if (iface.flags.includes('NO-CARRIER') || iface.state === 'LOWERLAYERDOWN' || (flagsShown && iface.state === 'DOWN'))
    return 'no-carrier';
  return undefined;
}
