/** `kpp parse FILE [--json]`: what the dump is, its counts, its Services and endpoints, and parse diagnostics. */
import { analyzeText, type Analysis } from '../../core/analyze';
import type { Diagnostic } from '../../core/common/diagnostics';
import { ipvsToJson } from '../../core/ipvs/json';
import type { KubeService } from '../../core/iptables/kubeproxy';
import { parseArgs } from '../args';
import { diagnosticJson, formatDiagnostic, printJson, readInput } from '../io';
import { joinHostPort } from '../../core/common/ip';
import type { IpvsRates, IpvsStats } from '../../core/ipvs/types';

/** Routes (and conntrack entries) listed in the text output; a node can hold thousands (--json has every one). */
const ROUTES_SHOWN = 50;
/** Members of each ipset shown in the text output. */
const IPSET_MEMBERS_SHOWN = 5;

export interface ParseJson {
  format: string;
  counts: { tables: number; chains: number; rules: number };
  services: ReturnType<typeof serviceJson>[];
  ipvs?: ReturnType<typeof ipvsToJson>;
  routes?: unknown[];
  routeGets?: unknown[];
  addresses?: unknown[];
  conntrack?: unknown[];
  ipsets?: unknown[];
  diagnostics: ReturnType<typeof diagnosticJson>[];
  /** A session paste (format `session`): which lines (1-based, inclusive) each engine read. */
  sections?: { kind: string; firstLine: number; lastLine: number }[];
}

export function serviceJson(s: KubeService) {
  return {
    name: s.name,
    protocol: s.protocol ?? null,
    clusterIP: s.clusterIP ?? null,
    port: s.port ?? null,
    ...(s.nodePort !== undefined ? { nodePort: s.nodePort } : {}),
    ...(s.externalIPs.length ? { externalIPs: s.externalIPs } : {}),
    ...(s.loadBalancerIPs.length ? { loadBalancerIPs: s.loadBalancerIPs } : {}),
    ...(s.trafficPolicy ? { trafficPolicy: s.trafficPolicy } : {}),
    ...(s.sessionAffinitySeconds !== undefined ? { sessionAffinitySeconds: s.sessionAffinitySeconds } : {}),
    ...(s.noEndpoints ? { noEndpoints: true } : {}),
    chain: s.chain ?? null,
    hashVerified: s.hashVerified,
    endpoints: s.endpoints.map((e) => ({ ip: e.ip, port: e.port ?? null, chain: e.chain, share: round(e.share) })),
  };
}

/** Engine records as the CLI prints them: positions dropped except `line`, which becomes 1-based. */
function forPeople<T>(items: T[]): unknown[] {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'span' || k === 'spans' || k === 'valueSpans' || k === 'tokens') continue;
      out[k] = k === 'line' && typeof x === 'number' ? x + 1 : walk(x);
    }
    return out;
  };
  return items.map(walk);
}

function round(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

export function parseResultJson(a: Analysis): ParseJson {
  const diagnostics: Diagnostic[] = [];
  const out: ParseJson = { format: 'unknown', counts: { tables: 0, chains: 0, rules: 0 }, services: [], diagnostics: [] };
  if (a.iptables) {
    const d = a.iptables.dump;
    out.format = a.detection.kind === 'nft' ? 'nft' : d.rules.length || d.tables.length ? d.format : a.detection.kind === 'unknown' ? 'unknown' : d.format;
    out.counts = { tables: d.tables.filter((t) => t.span).length, chains: d.tables.reduce((n, t) => n + t.chains.size, 0), rules: d.rules.length };
    out.services = a.iptables.kube.services.map(serviceJson);
    for (const x of d.diagnostics) diagnostics.push(x);
  }
  if (a.ipvs) {
    out.format = a.ipvs.format === 'unknown' ? 'ipvsadm' : `ipvsadm-${a.ipvs.format}`;
    out.ipvs = ipvsToJson(a.ipvs);
    for (const x of a.ipvs.diagnostics) diagnostics.push(x);
  }
  if (a.network) {
    const n = a.network;
    out.format = n.formats?.[0] ?? 'network';
    out.routes = forPeople(n.routes);
    out.routeGets = forPeople(n.routeGets);
    out.addresses = forPeople(n.interfaces);
    out.conntrack = forPeople(n.conntrack);
    out.ipsets = forPeople(n.ipsets);
    for (const x of n.diagnostics) diagnostics.push(x);
  }
  if (a.session) {
    out.format = 'session';
    out.sections = a.session.map((x) => ({ kind: x.kind, firstLine: x.firstLine + 1, lastLine: x.endLine }));
  }
  out.diagnostics = diagnostics.sort((x, y) => x.span.line - y.span.line || x.span.column - y.span.column).map(diagnosticJson);
  return out;
}

export function runParse(argv: string[]): number {
  const args = parseArgs(argv, ['lang'], ['json']);
  const file = args.positionals[0];
  const a = analyzeText(readInput(file));
  const result = parseResultJson(a);
  if (args.flags.has('json')) {
    printJson(result);
    return 0;
  }
  const lines: string[] = [];
  const sections = result.sections?.map((x) => `${x.kind} ${x.firstLine}-${x.lastLine}`).join(', ');
  lines.push(`format: ${result.format}${sections ? ` (lines ${sections})` : ''}`);
  lines.push(`tables: ${result.counts.tables}, chains: ${result.counts.chains}, rules: ${result.counts.rules}`);
  for (const s of result.services) {
    const addr = s.clusterIP ? joinHostPort(s.clusterIP, s.port ?? '?') : '(no cluster IP in dump)';
    const np = 'nodePort' in s ? ` nodePort ${s.nodePort}` : '';
    const verified = s.hashVerified === null ? '' : s.hashVerified ? ' (hash verified)' : ' (HASH MISMATCH)';
    lines.push(`service ${s.name || '(unnamed)'} ${s.protocol ?? ''} ${addr}${np} -> ${s.chain ?? '-'}${verified}`);
    for (const e of s.endpoints) lines.push(`  endpoint ${joinHostPort(e.ip, e.port ?? '?')} ${(e.share * 100).toFixed(1)}% via ${e.chain}`);
  }
  if (result.ipvs) {
    for (const v of result.ipvs.services) {
      const where = v.fwmark !== undefined ? `fwmark ${v.fwmark}` : joinHostPort(v.address ?? '?', v.port);
      lines.push(fields(`virtual ${v.protocol} ${where}`, [v.scheduler, v.persistent && `persistent ${v.persistent}`, countersText(v)]));
      for (const r of v.realServers) {
        const conns = r.activeConn !== undefined || r.inactConn !== undefined ? `active ${r.activeConn ?? '?'} inactive ${r.inactConn ?? '?'}` : undefined;
        lines.push(fields(`  -> ${joinHostPort(r.address, r.port)}`, [r.forward, r.weight !== undefined && `weight ${r.weight}`, conns, countersText(r)]));
      }
    }
  }
  for (const g of a.network?.routeGets ?? []) {
    const via = g.gateway ? ` via ${g.gateway}` : '';
    lines.push(`route get ${g.destination ?? '?'}:${via}${g.dev ? ` dev ${g.dev}` : ''}${g.src ? ` src ${g.src}` : ''} (${g.type ?? 'unicast'}, line ${g.line + 1})`);
  }
  const routes = a.network?.routes ?? [];
  for (const r of routes.slice(0, ROUTES_SHOWN)) {
    // A multipath route's next hops are on the route itself (`nexthop via ... weight 1` in ip route's text).
    const hops = r.nexthops?.length ? ` nexthops ${r.nexthops.map((h) => `${h.gateway ? `via ${h.gateway} ` : ''}${h.dev ? `dev ${h.dev} ` : ''}weight ${h.weight ?? 1}`.trim()).join(', ')}` : '';
    const table = r.table && r.table !== 'main' ? ` table ${r.table}` : '';
    lines.push(`route ${r.destinationText ?? r.destination ?? '?'}${r.gateway ? ` via ${r.gateway}` : ''}${r.dev ? ` dev ${r.dev}` : ''}${hops}${table}${r.type && r.type !== 'unicast' ? ` (${r.type})` : ''} (line ${r.line + 1})`);
  }
  if (routes.length > ROUTES_SHOWN) lines.push(`... ${routes.length - ROUTES_SHOWN} more route(s): --json lists them all`);
  const flows = a.network?.conntrack ?? [];
  for (const c of flows.slice(0, ROUTES_SHOWN)) {
    const o = c.original;
    const nat = [
      c.dnat && `DNAT to ${joinHostPort(c.dnat.toAddress ?? '?', c.dnat.toPort)}`,
      c.snat && `SNAT to ${joinHostPort(c.snat.toAddress ?? '?', c.snat.toPort)}`,
    ].filter(Boolean);
    // A reply tuple that mirrors the original means no NAT: a flow to a ClusterIP that kube-proxy never rewrote.
    const natText = nat.length ? nat.join(', ') : c.reply ? 'no NAT' : 'no reply tuple';
    const state = [c.state, ...c.flags].filter(Boolean).join(' ');
    lines.push(`conntrack ${c.protocol} ${joinHostPort(o.src ?? '?', o.sport)} -> ${joinHostPort(o.dst ?? '?', o.dport)}${state ? ` ${state}` : ''}, ${natText} (line ${c.line + 1})`);
  }
  if (flows.length > ROUTES_SHOWN) lines.push(`... ${flows.length - ROUTES_SHOWN} more conntrack entr(ies): --json lists them all`);
  for (const i of a.network?.interfaces ?? []) {
    const state = [i.state && `state ${i.state}`, i.mtu !== undefined && `mtu ${i.mtu}`].filter(Boolean).join(', ');
    const addresses = i.addresses.map((x) => `${x.address}/${x.prefixLength}`).join(', ') || 'no addresses';
    lines.push(`interface ${i.name}${i.peer ? `@${i.peer}` : ''}${state ? ` (${state})` : ''}: ${addresses} (line ${i.line + 1})`);
  }
  for (const set of a.network?.ipsets ?? []) {
    const shown = set.members.slice(0, IPSET_MEMBERS_SHOWN).map((m) => m.text);
    const more = set.members.length > shown.length ? ` ... ${set.members.length - shown.length} more` : '';
    // `Number of entries` above the members listed means the paste was cut.
    const cut = set.numberOfEntries !== undefined && set.numberOfEntries > set.members.length ? ` (${set.numberOfEntries} entries said, ${set.members.length} pasted)` : '';
    lines.push(`ipset ${set.name}${set.type ? ` ${set.type}` : ''}, ${set.members.length} member(s):${shown.length ? ` ${shown.join(' ')}${more}` : ''}${cut} (line ${set.line + 1})`);
  }
  if (result.routes) lines.push(`routes: ${result.routes.length}, route lookups: ${result.routeGets?.length ?? 0}, interfaces: ${result.addresses?.length ?? 0}, conntrack: ${result.conntrack?.length ?? 0}, ipsets: ${result.ipsets?.length ?? 0}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  for (const list of [a.iptables?.dump.diagnostics, a.ipvs?.diagnostics, a.network?.diagnostics]) {
    for (const d of list ?? []) process.stderr.write(`${formatDiagnostic(file ?? '-', d)}\n`);
  }
  return 0;
}

/** `head` and the parts an output printed: ipvsadm's --stats has no scheduler, -S no connection counts. */
function fields(head: string, parts: (string | false | 0 | undefined)[]): string {
  return [head, ...parts.filter((p): p is string => typeof p === 'string' && p !== '')].join(' ');
}

/** `--stats` / `--rate` figures in ipvsadm's column names, saying so where ipvsadm rounded them (K/M/G suffixes). */
function countersText(x: { stats?: IpvsStats; rates?: IpvsRates }): string | undefined {
  const out: string[] = [];
  if (x.stats) {
    const s = x.stats;
    out.push(`conns ${s.conns} inpkts ${s.inPkts} outpkts ${s.outPkts} inbytes ${s.inBytes} outbytes ${s.outBytes}${s.approximate ? ' (rounded)' : ''}`);
  }
  if (x.rates) {
    const r = x.rates;
    out.push(`cps ${r.cps} inpps ${r.inPps} outpps ${r.outPps} inbps ${r.inBps} outbps ${r.outBps}${r.approximate ? ' (rounded)' : ''}`);
  }
  return out.length ? out.join(' ') : undefined;
}

