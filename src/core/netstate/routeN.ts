/**
 * net-tools routing tables: `route -n` (Destination Gateway Genmask Flags Metric Ref Use Iface), `netstat -rn`
 * (... MSS Window irtt Iface) and `route -n -A inet6` (Destination Next Hop Flag Met Ref Use If).
 * Columns are read from the header line, so any of these layouts works.
 */
import { formatIp, parseCidr, parseIp } from '../common/ip';
import { ownEntry } from '../common/own';
import type { Reporter } from './report';
import type { Route, RouteSpans } from './types';
import { toInt, wordSpan, wordsSpan, type Word } from './words';

export type RouteNColumn =
  'destination' | 'gateway' | 'genmask' | 'flags' | 'metric' | 'ref' | 'use' | 'iface' | 'other';

/** The column layout of `route -n` when no header line was pasted. */
export const ROUTE_N_DEFAULT_COLUMNS: readonly RouteNColumn[] = [
  'destination',
  'gateway',
  'genmask',
  'flags',
  'metric',
  'ref',
  'use',
  'iface',
];

const COLUMN_NAMES: Record<string, RouteNColumn> = {
  destination: 'destination',
  gateway: 'gateway',
  'next hop': 'gateway',
  nexthop: 'gateway',
  genmask: 'genmask',
  flags: 'flags',
  flag: 'flags',
  metric: 'metric',
  met: 'metric',
  ref: 'ref',
  use: 'use',
  iface: 'iface',
  if: 'iface',
};

export function isRouteNTitle(content: string): boolean {
  return /^Kernel IP(?:v6)? routing table$/i.test(content);
}

/** Reads a column header line (`Destination Gateway Genmask Flags ...`); undefined when the line is not one. */
export function readRouteNHeader(words: Word[]): RouteNColumn[] | undefined {
  if (words[0]?.text !== 'Destination' || words.length < 4) return undefined;
  const names: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i].text === 'Next' && words[i + 1]?.text === 'Hop') {
      names.push('next hop');
      i++;
    } else names.push(words[i].text.toLowerCase());
  }
  const columns = names.map((n) => ownEntry(COLUMN_NAMES, n) ?? 'other');
  return columns.includes('gateway') && columns.includes('flags') ? columns : undefined;
}

/** A `route -n` row without a header above it: `0.0.0.0  10.0.0.1  0.0.0.0  UG  0  0  0  eth0`. */
export function looksLikeRouteNRow(words: Word[]): boolean {
  if (words.length !== ROUTE_N_DEFAULT_COLUMNS.length) return false;
  const [dst, gw, mask, flags, metric, ref, use] = words.map((w) => w.text);
  return (
    (dst === 'default' || parseIp(dst)?.family === 4) &&
    (gw === '*' || parseIp(gw)?.family === 4) &&
    parseIp(mask)?.family === 4 &&
    /^[A-Za-z!]+$/.test(flags) &&
    [metric, ref, use].every((n) => /^\d+$/.test(n))
  );
}

/** True when the words can be a row of a table with these columns (right count, a destination, a flags word). */
export function fitsRouteNColumns(words: Word[], columns: readonly RouteNColumn[]): boolean {
  if (words.length !== columns.length) return false;
  const at = (c: RouteNColumn) => words[columns.indexOf(c)]?.text;
  const dst = at('destination');
  const flags = at('flags');
  return (
    dst !== undefined &&
    (dst === 'default' || parseCidr(dst) !== undefined) &&
    (flags === undefined || /^[A-Za-z!]+$/.test(flags))
  );
}

/** Parses one row with the given columns; undefined (with a diagnostic) when the row does not fit them. */
export function parseRouteNRow(words: Word[], columns: readonly RouteNColumn[], reporter: Reporter): Route | undefined {
  const span = wordsSpan(words[0], words[words.length - 1]);
  if (words.length !== columns.length) {
    reporter.report('routes-route-n-bad-row', 'warning', span, { expected: columns.length, found: words.length });
    return undefined;
  }
  const cell: Partial<Record<RouteNColumn, Word>> = {};
  columns.forEach((c, i) => {
    if (c !== 'other') cell[c] = words[i];
  });
  const dst = cell.destination;
  if (!dst) return undefined;
  const cidr = destinationOf(dst.text, cell.genmask?.text);
  if (!cidr) {
    const bad = cell.genmask && parseIp(dst.text) ? cell.genmask : dst;
    const code = bad === dst ? 'routes-route-bad-address' : 'routes-route-n-bad-genmask';
    reporter.report(code, 'warning', wordSpan(bad), { value: bad.text });
    return undefined;
  }
  const flags = cell.flags?.text ?? '';
  const spans: RouteSpans = { destination: wordSpan(dst) };
  const route: Route = {
    line: dst.line,
    span,
    source: 'route-n',
    type: flags.includes('!') ? 'unreachable' : 'unicast',
    family: cidr.family,
    destination: `${formatIp({ family: cidr.family, value: cidr.base })}/${cidr.prefix}`,
    destinationText: dst.text,
    prefixLength: cidr.prefix,
    table: 'main',
    tableSource: 'default',
    flags: [],
    nexthops: [],
    attributes: {},
    unknown: [],
    routeFlags: flags,
    partial: false,
    spans,
  };
  const gw = cell.gateway;
  if (gw && parseIp(gw.text) && !isUnspecified(gw.text)) {
    route.gateway = gw.text;
    spans.gateway = wordSpan(gw);
  } else if (gw && gw.text !== '*' && !parseIp(gw.text)) route.attributes.gatewayName = gw.text;
  const iface = cell.iface;
  // The kernel prints `*` for a route without a device; up (U), not rejecting (!) and with no gateway, that is
  // a blackhole route (`ip route add blackhole ...`): packets to it are dropped silently.
  if (iface?.text === '*' && route.type === 'unicast' && !route.gateway && flags.includes('U'))
    route.type = 'blackhole';
  if (iface && iface.text !== '-' && iface.text !== '*') {
    route.dev = iface.text;
    spans.dev = wordSpan(iface);
  }
  const metric = toInt(cell.metric?.text);
  if (metric !== undefined && cell.metric) {
    route.metric = metric;
    spans.metric = wordSpan(cell.metric);
  }
  const ref = toInt(cell.ref?.text);
  if (ref !== undefined) route.ref = ref;
  const use = toInt(cell.use?.text);
  if (use !== undefined) route.use = use;
  if (cell.genmask) route.attributes.genmask = cell.genmask.text;
  return route;
}

/** Destination + Genmask as a prefix; IPv6 tables write the prefix in the destination. */
function destinationOf(dst: string, genmask: string | undefined) {
  if (dst === 'default') return parseCidr(genmask ? `0.0.0.0/${genmask}` : '0.0.0.0/0');
  if (genmask === undefined) return parseCidr(dst);
  if (dst.includes('/')) return undefined;
  return parseCidr(`${dst}/${genmask}`);
}

function isUnspecified(address: string): boolean {
  return parseIp(address)?.value === 0n;
}
