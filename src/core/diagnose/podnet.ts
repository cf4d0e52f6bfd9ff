/**
 * The pod's network as its checks printed it: the route the kernel picks for an address (`ip route get`, else a
 * lookup in `ip route` or `/proc/net/route`), the pod's interfaces and their link kinds (`ip -o addr`, `ip -d link`,
 * `/proc/net/fib_trie`), neighbours and resolv.conf. Pure parsing of text the caller passes in.
 */
import { cidrContains, formatIp, parseCidr, parseIp } from '../common/ip';
import { lookupRoute, parseIpAddr, parseIpRoute, parseIpRouteGet } from '../netstate';
import { safeIp } from './plan';
import type { CheckKind, CheckResult } from './types';

/** The result of the check of this kind (or id), when it ran. */
export function findCheck(checks: readonly CheckResult[], kind: CheckKind): CheckResult | undefined {
  return checks.find((r) => r.kind === kind || r.id === kind || (r.kind === undefined && r.id.startsWith(`${kind}:`)));
}

/** The last result of this kind: a second tool probe (in a debug container) replaces the first. */
export function lastCheck(checks: readonly CheckResult[], kind: CheckKind): CheckResult | undefined {
  const all = findChecks(checks, kind);
  return all[all.length - 1];
}

export function findChecks(checks: readonly CheckResult[], kind: CheckKind): CheckResult[] {
  return checks.filter(
    (r) => r.kind === kind || r.id === kind || (r.kind === undefined && r.id.startsWith(`${kind}:`)),
  );
}

export interface RouteFact {
  dst: string;
  /** Where the answer came from. */
  source: 'ip route get' | 'ip route' | '/proc/net/route';
  check: CheckResult;
  /** False when no route matched or the kernel refused (`error`). */
  found: boolean;
  type?: string;
  gateway?: string;
  dev?: string;
  src?: string;
  error?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// /proc/net/route and /proc/net/fib_trie (containers without `ip`)

export interface ProcRoute {
  dev: string;
  destination: string;
  prefix: number;
  gateway?: string;
  metric: number;
  reject: boolean;
}

/** `/proc/net/route` stores IPv4 addresses as little-endian hex (`0101FEA9` is 169.254.1.1). */
function hexIPv4(hex: string): string | undefined {
  if (!/^[0-9A-Fa-f]{8}$/.test(hex)) return undefined;
  const bytes = [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return bytes.join('.');
}

function maskPrefix(mask: string): number | undefined {
  const m = parseIp(mask);
  if (!m || m.family !== 4) return undefined;
  let p = 0;
  for (let bit = 31; bit >= 0; bit--) {
    if ((m.value >> BigInt(bit)) & 1n) p++;
    else break;
  }
  return p;
}

export function parseProcNetRoute(text: string): ProcRoute[] {
  const out: ProcRoute[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8 || f[0] === 'Iface') continue;
    const dst = hexIPv4(f[1]);
    const gw = hexIPv4(f[2]);
    const flags = parseInt(f[3], 16);
    const mask = hexIPv4(f[7]);
    if (!dst || !gw || !mask || Number.isNaN(flags) || !(flags & 0x1)) continue;
    const prefix = maskPrefix(mask);
    if (prefix === undefined) continue;
    out.push({
      dev: f[0],
      destination: dst,
      prefix,
      ...(flags & 0x2 && gw !== '0.0.0.0' ? { gateway: gw } : {}),
      metric: Number(f[6]) || 0,
      reject: (flags & 0x200) !== 0,
    });
  }
  return out;
}

export function lookupProcRoute(routes: readonly ProcRoute[], dst: string): ProcRoute | undefined {
  const ip = parseIp(dst);
  if (!ip || ip.family !== 4) return undefined;
  let best: ProcRoute | undefined;
  for (const r of routes) {
    const c = parseCidr(`${r.destination}/${r.prefix}`);
    if (!c || !cidrContains(c, ip)) continue;
    if (!best || r.prefix > best.prefix || (r.prefix === best.prefix && r.metric < best.metric)) best = r;
  }
  return best;
}

/** The addresses `/proc/net/fib_trie` marks `/32 host LOCAL` (the namespace's own IPv4 addresses). */
export function parseFibTrieLocal(text: string): string[] {
  const out: string[] = [];
  let last: string | undefined;
  for (const line of text.split('\n')) {
    const leaf = /\|--\s+(\S+)/.exec(line);
    if (leaf) {
      last = leaf[1];
      continue;
    }
    if (last && /\/32\s+host\s+LOCAL/.test(line)) {
      const ip = safeIp(last);
      if (ip && !ip.startsWith('127.') && !out.includes(ip)) out.push(ip);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Routes

function output(r: CheckResult): string {
  return `${r.stdout}\n${r.stderr}`;
}

function ran(r: CheckResult | undefined): r is CheckResult {
  return !!r && r.exitCode !== null;
}

/**
 * The route the pod's kernel takes to `dst`: the `ip route get` check of that kind when it ran, else (or without a
 * kind) a lookup in the `routes` check (`ip route` or `/proc/net/route`). Undefined when neither says anything.
 */
export function routeTo(
  checks: readonly CheckResult[],
  dst: string,
  kind?: 'route-clusterip' | 'route-endpoint',
): RouteFact | undefined {
  const get = kind ? findCheck(checks, kind) : undefined;
  if (ran(get)) {
    const text = output(get);
    const kernelSaid = /RTNETLINK answers:\s*(.+)/i.exec(text);
    const parsed = parseIpRouteGet(text).routeGets[0];
    // Only the kernel's own refusal is an answer; `Error: ...` / `Command "get" is unknown` are the tool failing.
    const answer = parsed && (!parsed.error || kernelSaid) ? parsed : undefined;
    if (answer) {
      const fact: RouteFact = {
        dst,
        source: 'ip route get',
        check: get,
        found:
          !answer.error && answer.type !== 'unreachable' && answer.type !== 'blackhole' && answer.type !== 'prohibit',
        type: answer.type,
      };
      if (answer.gateway) fact.gateway = answer.gateway;
      if (answer.dev) fact.dev = answer.dev;
      if (answer.src) fact.src = answer.src;
      if (answer.error) fact.error = answer.error;
      else if (!fact.found) fact.error = answer.type;
      return fact;
    }
    if (kernelSaid) return { dst, source: 'ip route get', check: get, found: false, error: kernelSaid[1].trim() };
  }
  const table = findCheck(checks, 'routes');
  if (!ran(table) || table.exitCode !== 0) return undefined;
  // `ip route` and /proc/net/route list IPv4 routes only: they cannot say anything about an IPv6 destination.
  if (parseIp(dst)?.family !== 4) return undefined;
  if (/^\s*Iface\s+Destination/m.test(table.stdout)) {
    const r = lookupProcRoute(parseProcNetRoute(table.stdout), dst);
    if (!r) return { dst, source: '/proc/net/route', check: table, found: false };
    return {
      dst,
      source: '/proc/net/route',
      check: table,
      found: !r.reject,
      type: r.reject ? 'unreachable' : 'unicast',
      dev: r.dev,
      ...(r.gateway ? { gateway: r.gateway } : {}),
    };
  }
  const routes = parseIpRoute(table.stdout).routes;
  if (routes.length === 0) return undefined;
  const r = lookupRoute(routes, dst);
  if (!r) return { dst, source: 'ip route', check: table, found: false };
  const found = r.type === 'unicast' || r.type === 'local';
  return {
    dst,
    source: 'ip route',
    check: table,
    found,
    type: r.type,
    ...(r.gateway ? { gateway: r.gateway } : r.nexthops[0]?.gateway ? { gateway: r.nexthops[0].gateway } : {}),
    ...(r.dev ? { dev: r.dev } : r.nexthops[0]?.dev ? { dev: r.nexthops[0].dev } : {}),
    ...(r.src ? { src: r.src } : {}),
    ...(found ? {} : { error: r.type }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Interfaces, links, neighbours

export interface PodInterface {
  name: string;
  addresses: string[];
  /** Link kind from `ip -d link` (`veth`, `macvlan`, `ipvlan`, `vlan`, ...); undefined when not printed. */
  kind?: string;
  /** `mode bridge`, `mode l2`, ... of macvlan/ipvlan. */
  mode?: string;
  /** `@ifN`: the peer's ifindex in another namespace (veth) or the parent's (macvlan/ipvlan). */
  peerIndex?: number;
  mac?: string;
}

/** Link kinds `ip -d link` prints as the first word of the details line. */
const LINK_KINDS = new Set([
  'veth',
  'macvlan',
  'macvtap',
  'ipvlan',
  'ipvtap',
  'vlan',
  'vxlan',
  'bridge',
  'bond',
  'team',
  'dummy',
  'tun',
  'geneve',
  'ipip',
  'sit',
  'gre',
  'gretap',
  'ip6tnl',
  'ip6gre',
  'wireguard',
  'vrf',
  'netkit',
  'ifb',
  'nlmon',
  'macsec',
  'xfrm',
]);

/** The pod's interfaces (without `lo`) from the `addresses` and `links` checks, or `/proc/net/fib_trie`. */
export function podInterfaces(checks: readonly CheckResult[]): {
  interfaces: PodInterface[];
  localAddresses: string[];
} {
  const byName = new Map<string, PodInterface>();
  const get = (name: string) => {
    let i = byName.get(name);
    if (!i) byName.set(name, (i = { name, addresses: [] }));
    return i;
  };
  const localAddresses: string[] = [];
  const addrs = findCheck(checks, 'addresses');
  if (ran(addrs) && addrs.exitCode === 0) {
    if (/^\s*(Main|Local):/m.test(addrs.stdout) || /\|--/.test(addrs.stdout)) {
      // Not push(...): an IPVS node holds every ClusterIP on kube-ipvs0, more than a call has arguments for.
      for (const a of parseFibTrieLocal(addrs.stdout)) localAddresses.push(a);
    } else {
      for (const iface of parseIpAddr(addrs.stdout).interfaces) {
        if (iface.name === 'lo') continue;
        const i = get(iface.name);
        for (const a of iface.addresses) {
          const ip = safeIp(a.address);
          if (ip && !i.addresses.includes(ip)) i.addresses.push(ip);
          if (ip && !localAddresses.includes(ip)) localAddresses.push(ip);
        }
      }
    }
  }
  const links = findCheck(checks, 'links');
  if (ran(links) && links.exitCode === 0) {
    for (const iface of parseIpAddr(links.stdout).interfaces) {
      if (iface.name === 'lo') continue;
      const i = get(iface.name);
      if (iface.peerIndex !== undefined) i.peerIndex = iface.peerIndex;
      if (iface.mac) i.mac = iface.mac;
      for (const d of iface.details) {
        const words = d.trim().split(/\s+/);
        if (!LINK_KINDS.has(words[0])) continue;
        i.kind = words[0];
        const m = words.indexOf('mode');
        if (m > 0 && words[m + 1])
          i.mode =
            words
              .slice(m + 1, m + 3)
              .filter((w) => /^(bridge|private|vepa|passthru|source|l2|l3|l3s)$/.test(w))
              .join(' ') || words[m + 1];
        break;
      }
    }
  }
  return { interfaces: [...byName.values()], localAddresses };
}

export interface Neighbour {
  ip: string;
  dev?: string;
  lladdr?: string;
  state?: string;
}

/** `ip neigh`: `169.254.1.1 dev eth0 lladdr ee:ee:ee:ee:ee:ee STALE`. */
export function parseNeighbours(text: string): Neighbour[] {
  const out: Neighbour[] = [];
  for (const line of text.split('\n')) {
    const w = line.trim().split(/\s+/);
    const ip = safeIp(w[0]);
    if (!ip) continue;
    const n: Neighbour = { ip };
    const dev = w.indexOf('dev');
    if (dev > 0 && w[dev + 1]) n.dev = w[dev + 1];
    const ll = w.indexOf('lladdr');
    if (ll > 0 && w[ll + 1]) n.lladdr = w[ll + 1];
    const last = w[w.length - 1];
    if (/^[A-Z_]+$/.test(last)) n.state = last;
    out.push(n);
  }
  return out;
}

export interface ResolvConf {
  nameservers: string[];
  search: string[];
  options: string[];
}

export function parseResolvConf(text: string): ResolvConf {
  const out: ResolvConf = { nameservers: [], search: [], options: [] };
  for (const line of text.split('\n')) {
    const w = line
      .replace(/[#;].*$/, '')
      .trim()
      .split(/\s+/);
    if (w[0] === 'nameserver' && w[1]) out.nameservers.push(w[1]);
    else if (w[0] === 'search' || w[0] === 'domain') out.search.push(...w.slice(1));
    else if (w[0] === 'options') out.options.push(...w.slice(1));
  }
  return out;
}

/** Whether an address is link-local (169.254.0.0/16, fe80::/10): Calico's 169.254.1.1 next hop is one. */
export function isLinkLocal(ip: string): boolean {
  const a = parseIp(ip);
  if (!a) return false;
  const c = parseCidr(a.family === 4 ? '169.254.0.0/16' : 'fe80::/10')!;
  return cidrContains(c, a);
}

/** Canonical form for comparisons (`fd00:0::1` and `fd00::1` are one address). */
export function canonicalIp(ip: string): string | undefined {
  const a = parseIp(ip);
  return a ? formatIp(a) : undefined;
}
