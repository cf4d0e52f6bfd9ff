/**
 * The outline of network state (`ip route`, `ip route get`, `ip rule`, `ip addr`, `conntrack -L`, `ipset list`):
 * one group per kind of output, each record under it at its line.
 */
import type { DocumentSymbol, Range } from 'vscode-languageserver';
import { SymbolKind } from '../lspConstants';
import type { Analysis } from '../../core/analyze';
import { joinHostPort } from '../../core/common/ip';
import { t, tn, type Lang } from '../../core/i18n/catalog';
import { routeDestinationText } from '../../core/netstate/explain';
import type { ConntrackEntry, NetworkState, PolicyRule, Route, RouteGet } from '../../core/netstate/types';
import { toRange } from '../convert';
import type { LineLengths } from './symbols';
import { throwIfCancelled } from '../cancellation';

/** An ipset's members are listed up to this many (a kube-proxy set can hold tens of thousands). */
const MEMBERS_LISTED = 1000;

function lineRange(lines: LineLengths, first: number, last: number): Range {
  const end = Math.max(first, last);
  return { start: { line: first, character: 0 }, end: { line: end, character: lines.lineLength(end) } };
}

/** A record at one line: its range is the whole line, its selection the record's own text. */
function record(
  name: string,
  detail: string,
  kind: SymbolKind,
  line: number,
  span: Parameters<typeof toRange>[0],
  lines: LineLengths,
  children?: DocumentSymbol[],
  lastLine = line,
): DocumentSymbol {
  // One per route, interface, flow or set member: a conntrack table of 100k flows is as many.
  throwIfCancelled();
  const sel = toRange(span);
  const range = lineRange(lines, Math.min(line, sel.start.line), Math.max(lastLine, sel.end.line));
  return {
    name: name || '?',
    ...(detail ? { detail } : {}),
    kind,
    range,
    selectionRange: sel,
    ...(children ? { children } : {}),
  };
}

/** A group over its records, from the first one's line to the last one's. */
function group(name: string, children: DocumentSymbol[], kind: SymbolKind, lines: LineLengths): DocumentSymbol[] {
  if (children.length === 0) return [];
  // Loops, not Math.min(...): a conntrack table can have more entries than a call has room for arguments.
  const first = children.reduce((m, c) => Math.min(m, c.range.start.line), Number.MAX_SAFE_INTEGER);
  const last = children.reduce((m, c) => Math.max(m, c.range.end.line), 0);
  return [
    {
      name,
      detail: String(children.length),
      kind,
      range: lineRange(lines, first, last),
      selectionRange: lineRange(lines, first, first),
      children,
    },
  ];
}

const words = (...parts: (string | number | undefined | false)[]) =>
  parts.filter((p) => p !== undefined && p !== false && p !== '').join(' ');

function routeDetail(r: Route | RouteGet, lang: Lang): string {
  const table =
    'tableSource' in r
      ? r.table !== 'main'
        ? t(lang, 'routes.outline.table', { table: r.table })
        : ''
      : r.table
        ? t(lang, 'routes.outline.table', { table: r.table })
        : '';
  const hops =
    'nexthops' in r && r.nexthops.length
      ? r.nexthops.map((h) => words(h.gateway && `via ${h.gateway}`, h.dev && `dev ${h.dev}`)).join(', ')
      : '';
  return words(
    r.type !== 'unicast' && r.type,
    r.gateway && `via ${r.gateway}`,
    r.dev && `dev ${r.dev}`,
    hops,
    r.src && `src ${r.src}`,
    table,
  );
}

function ruleName(r: PolicyRule): string {
  return words(
    `${r.priority}:`,
    r.not && 'not',
    `from ${r.from}`,
    r.to && `to ${r.to}`,
    r.fwmark && `fwmark ${r.fwmark}${r.fwmask ? `/${r.fwmask}` : ''}`,
    r.iif && `iif ${r.iif}`,
    r.oif && `oif ${r.oif}`,
  );
}

function ruleDetail(r: PolicyRule): string {
  return r.action === 'lookup' ? `lookup ${r.table ?? '?'}` : r.action === 'goto' ? `goto ${r.goto ?? '?'}` : r.action;
}

function flowName(c: ConntrackEntry): string {
  const o = c.original;
  const end = (ip?: string, port?: number) => (ip ? (port !== undefined ? joinHostPort(ip, port) : ip) : '?');
  return `${c.protocol} ${end(o.src, o.sport)} → ${end(o.dst, o.dport)}`;
}

function flowDetail(c: ConntrackEntry): string {
  const nat = (n: ConntrackEntry['dnat'], what: string) =>
    n?.toAddress ? `${what} ${n.toPort !== undefined ? joinHostPort(n.toAddress, n.toPort) : n.toAddress}` : '';
  return words(
    c.event,
    c.state,
    nat(c.dnat, 'DNAT →'),
    nat(c.snat, 'SNAT →'),
    c.unreplied && '[UNREPLIED]',
    c.assured && '[ASSURED]',
  );
}

export function networkSymbols(a: Analysis, lines: LineLengths, lang: Lang): DocumentSymbol[] {
  const n: NetworkState | undefined = a.network;
  if (!n) return [];
  const routes = n.routes.map((r) =>
    record(
      routeDestinationText(r),
      routeDetail(r, lang),
      SymbolKind.Struct,
      r.line,
      r.spans.destination ?? r.span,
      lines,
    ),
  );
  const gets = n.routeGets.map((g) =>
    record(
      g.destination ?? '?',
      g.error ? t(lang, 'routes.outline.error', { error: g.error }) : routeDetail(g, lang),
      SymbolKind.Event,
      g.line,
      g.span,
      lines,
    ),
  );
  const rules = n.policyRules.map((r) =>
    record(ruleName(r), ruleDetail(r), SymbolKind.Operator, r.line, r.span, lines),
  );
  const interfaces = n.interfaces.map((i) => {
    const addresses = i.addresses.map((x) =>
      record(
        `${x.address}/${x.prefixLength}`,
        words(x.scope && `scope ${x.scope}`, ...x.flags),
        SymbolKind.Field,
        x.line,
        x.spans.address,
        lines,
      ),
    );
    const last = i.addresses.reduce((m, x) => Math.max(m, x.line), i.line);
    return record(
      i.name,
      words(i.state, i.mtu !== undefined && `mtu ${i.mtu}`, i.master && `master ${i.master}`),
      SymbolKind.Interface,
      i.line,
      i.spans.name,
      lines,
      addresses,
      last,
    );
  });
  const flows = n.conntrack.map((c) => record(flowName(c), flowDetail(c), SymbolKind.Event, c.line, c.span, lines));
  const sets = n.ipsets.map((s) => {
    const members = s.members
      .slice(0, MEMBERS_LISTED)
      .map((m) => record(m.text, '', SymbolKind.Constant, m.line, m.span, lines));
    const last = s.members.reduce((m, x) => Math.max(m, x.line), s.line);
    return record(
      s.name,
      words(s.type, tn(lang, 'routes.outline.members', s.members.length)),
      SymbolKind.Array,
      s.line,
      s.spans.name,
      lines,
      members,
      last,
    );
  });
  return [
    ...group(t(lang, 'routes.outline.routes'), routes, SymbolKind.Module, lines),
    ...group(t(lang, 'routes.outline.route-gets'), gets, SymbolKind.Module, lines),
    ...group(t(lang, 'routes.outline.rules'), rules, SymbolKind.Module, lines),
    ...group(t(lang, 'routes.outline.interfaces'), interfaces, SymbolKind.Module, lines),
    ...group(t(lang, 'routes.outline.conntrack'), flows, SymbolKind.Module, lines),
    ...group(t(lang, 'routes.outline.ipsets'), sets, SymbolKind.Module, lines),
  ];
}
