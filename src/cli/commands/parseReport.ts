/** The readable (non-JSON) output of `kpp parse`: one line per Service, endpoint, virtual service, route, flow, ... */
import type { Analysis } from '../../core/analyze';
import { joinHostPort } from '../../core/common/ip';
import { formatShare } from '../../core/common/shares';
import { countedEn } from '../../core/i18n/english';
import type { IpvsRates, IpvsStats } from '../../core/ipvs/types';
import { routeDestinationText } from '../../core/netstate/explain';
import type { ParseJson } from './parseJson';

/** Routes (and conntrack entries) listed; a node can hold thousands (--json has every one). */
const ROUTES_SHOWN = 50;
/** Members of each ipset shown. */
const IPSET_MEMBERS_SHOWN = 5;

export function parseReport(result: ParseJson, a: Analysis): string {
  const lines: string[] = [];
  const sections = result.sections?.map((x) => `${x.kind} ${x.firstLine}-${x.lastLine}`).join(', ');
  lines.push(`format: ${result.format}${sections ? ` (lines ${sections})` : ''}`);
  lines.push(`tables: ${result.counts.tables}, chains: ${result.counts.chains}, rules: ${result.counts.rules}`);
  for (const s of result.services) {
    const addr = s.clusterIP ? joinHostPort(s.clusterIP, s.port ?? '?') : '(no cluster IP in dump)';
    const np = 'nodePort' in s ? ` nodePort ${s.nodePort}` : '';
    const verified = s.hashVerified === null ? '' : s.hashVerified ? ' (hash verified)' : ' (HASH MISMATCH)';
    lines.push(`service ${s.name || '(unnamed)'} ${s.protocol ?? ''} ${addr}${np} -> ${s.chain ?? '-'}${verified}`);
    for (const e of s.endpoints)
      lines.push(
        `  endpoint ${joinHostPort(e.ip, e.port ?? '?')} ${e.share == null ? 'share unknown (partial ladder)' : formatShare(e.share)} via ${e.chain}`,
      );
  }
  if (result.ipvs) {
    for (const v of result.ipvs.services) {
      const where = v.fwmark !== undefined ? `fwmark ${v.fwmark}` : joinHostPort(v.address ?? '?', v.port);
      lines.push(
        fields(`virtual ${v.protocol} ${where}`, [
          v.scheduler,
          v.persistent && `persistent ${v.persistent}`,
          v.netmask && `mask ${v.netmask}`,
          v.pe && `pe ${v.pe}`,
          countersText(v),
        ]),
      );
      for (const r of v.realServers) {
        const conns =
          r.activeConn !== undefined || r.inactConn !== undefined
            ? `active ${r.activeConn ?? '?'} inactive ${r.inactConn ?? '?'}`
            : undefined;
        lines.push(
          fields(`  -> ${joinHostPort(r.address, r.port ?? r.portName)}`, [
            r.forward,
            r.weight !== undefined && `weight ${r.weight}`,
            conns,
            r.persistConn !== undefined && `persistent ${r.persistConn}`,
            r.thresholds && `thresholds ${r.thresholds.upper}/${r.thresholds.lower}`,
            countersText(r),
          ]),
        );
      }
    }
  }
  for (const g of a.network?.routeGets ?? []) {
    const via = g.gateway ? ` via ${g.gateway}` : '';
    lines.push(
      `route get ${g.destination ?? '?'}:${via}${g.dev ? ` dev ${g.dev}` : ''}${g.src ? ` src ${g.src}` : ''} (${g.type ?? 'unicast'}, line ${g.line + 1})`,
    );
  }
  for (const r of a.network?.policyRules ?? []) {
    const selector = [
      r.not ? 'not' : '',
      `from ${r.from}`,
      r.to && `to ${r.to}`,
      r.fwmark && `fwmark ${r.fwmark}${r.fwmask ? `/${r.fwmask}` : ''}`,
      r.iif && `iif ${r.iif}`,
      r.oif && `oif ${r.oif}`,
    ]
      .filter(Boolean)
      .join(' ');
    const action =
      r.action === 'lookup' ? `lookup ${r.table ?? '?'}` : r.action === 'goto' ? `goto ${r.goto ?? '?'}` : r.action;
    const more = [
      ...(['uidrange', 'ipproto', 'sport', 'dport', 'tos'] as const).map((k) => r[k] && `${k} ${r[k]}`),
      r.suppressPrefixLength !== undefined && `suppress_prefixlength ${r.suppressPrefixLength}`,
      ...r.flags.map((f) => `[${f}]`),
    ].filter(Boolean);
    lines.push(
      `rule ${r.priority}: ${selector} ${action}${more.length ? ` ${more.join(' ')}` : ''} (line ${r.line + 1})`,
    );
  }
  const routes = a.network?.routes ?? [];
  for (const r of routes.slice(0, ROUTES_SHOWN)) {
    // A multipath route's next hops are on the route itself (`nexthop via ... weight 1` in ip route's text).
    const hops = r.nexthops?.length
      ? ` nexthops ${r.nexthops.map((h) => `${h.gateway ? `via ${h.gateway} ` : ''}${h.dev ? `dev ${h.dev} ` : ''}weight ${h.weight ?? 1}`.trim()).join(', ')}`
      : '';
    const table = r.table && r.table !== 'main' ? ` table ${r.table}` : '';
    lines.push(
      `route ${routeDestinationText(r)}${r.gateway ? ` via ${r.gateway}` : ''}${r.dev ? ` dev ${r.dev}` : ''}${hops}${table}${r.type && r.type !== 'unicast' ? ` (${r.type})` : ''} (line ${r.line + 1})`,
    );
  }
  if (routes.length > ROUTES_SHOWN)
    lines.push(`... ${countedEn(routes.length - ROUTES_SHOWN, 'more route', 'more routes')}: --json lists them all`);
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
    lines.push(
      `conntrack ${c.protocol} ${joinHostPort(o.src ?? '?', o.sport)} -> ${joinHostPort(o.dst ?? '?', o.dport)}${state ? ` ${state}` : ''}, ${natText} (line ${c.line + 1})`,
    );
  }
  if (flows.length > ROUTES_SHOWN)
    lines.push(
      `... ${countedEn(flows.length - ROUTES_SHOWN, 'more conntrack entry', 'more conntrack entries')}: --json lists them all`,
    );
  for (const i of a.network?.interfaces ?? []) {
    const state = [i.state && `state ${i.state}`, i.mtu !== undefined && `mtu ${i.mtu}`].filter(Boolean).join(', ');
    const addresses = i.addresses.map((x) => `${x.address}/${x.prefixLength}`).join(', ') || 'no addresses';
    lines.push(
      `interface ${i.name}${i.peer ? `@${i.peer}` : ''}${state ? ` (${state})` : ''}: ${addresses} (line ${i.line + 1})`,
    );
  }
  for (const set of a.network?.ipsets ?? []) {
    const shown = set.members.slice(0, IPSET_MEMBERS_SHOWN).map((m) => m.text);
    const more = set.members.length > shown.length ? ` ... ${set.members.length - shown.length} more` : '';
    // `Number of entries` above the members listed means the paste was cut.
    const cut =
      set.numberOfEntries !== undefined && set.numberOfEntries > set.members.length
        ? ` (${set.numberOfEntries} entries said, ${set.members.length} pasted)`
        : '';
    lines.push(
      `ipset ${set.name}${set.type ? ` ${set.type}` : ''}, ${countedEn(set.members.length, 'member')}:${shown.length ? ` ${shown.join(' ')}${more}` : ''}${cut} (line ${set.line + 1})`,
    );
  }
  if (result.routes)
    lines.push(
      `routes: ${result.routes.length}, route lookups: ${result.routeGets?.length ?? 0}, policy rules: ${result.policyRules?.length ?? 0}, interfaces: ${result.addresses?.length ?? 0}, conntrack: ${result.conntrack?.length ?? 0}, ipsets: ${result.ipsets?.length ?? 0}`,
    );
  return `${lines.join('\n')}\n`;
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
    out.push(
      `conns ${s.conns} inpkts ${s.inPkts} outpkts ${s.outPkts} inbytes ${s.inBytes} outbytes ${s.outBytes}${s.approximate ? ' (rounded)' : ''}`,
    );
  }
  if (x.rates) {
    const r = x.rates;
    out.push(
      `cps ${r.cps} inpps ${r.inPps} outpps ${r.outPps} inbps ${r.inBps} outbps ${r.outBps}${r.approximate ? ' (rounded)' : ''}`,
    );
  }
  return out.length ? out.join(' ') : undefined;
}
