/** `ip route` / `ip -6 route` / `ip route show table X` lines and their `nexthop` continuation lines. */
import { formatIp, parseCidr, parseIp } from '../common/ip';
import { ownEntry } from '../common/own';
import type { Reporter } from './report';
import { readRouteWords, type Field, type RouteWords } from './routeWords';
import type { Nexthop, Route, RouteSpans, RouteType, TableSource } from './types';
import { toInt, wordsSpan, type Word } from './words';

export interface RouteContext {
  /** Table named by the command that printed the lines (`ip route show table local`). */
  table?: string;
  /** Family given to the command (`ip -6 route`). */
  family?: 4 | 6;
}

/** Route types the kernel keeps in the `local` table unless told otherwise. */
const LOCAL_TABLE_TYPES = new Set(['local', 'broadcast', 'anycast', 'nat']);

/** Known attributes that get their own field instead of `attributes`. */
const OWN_FIELDS = new Set(['via', 'via-family', 'dev', 'proto', 'scope', 'src', 'metric', 'table']);

/** Parses the words of one `ip route` line. The caller checked `looksLikeRouteWords`. */
export function parseRouteLine(words: Word[], ctx: RouteContext, reporter: Reporter): Route {
  const rw = readRouteWords(words, reporter);
  return routeFromWords(rw, ctx, reporter);
}

/** The nexthops of a `nexthop ...` continuation line. */
export function parseNexthopLine(words: Word[], reporter: Reporter): Nexthop[] {
  return readRouteWords(words, reporter).nexthops;
}

/** Where each field of a route (or `ip route get` answer) stands; fields that did not read are left out. */
export function routeSpans(rw: RouteWords, read: { gateway?: string; src?: string; metric?: number }): RouteSpans {
  const f = rw.fields;
  return {
    ...(rw.type ? { type: rw.type.span } : {}),
    ...(rw.destination ? { destination: rw.destination.span } : {}),
    ...(read.gateway ? { gateway: f.via.span } : {}),
    ...(f.dev ? { dev: f.dev.span } : {}),
    ...(read.src ? { src: f.src.span } : {}),
    ...(f.proto ? { proto: f.proto.span } : {}),
    ...(f.scope ? { scope: f.scope.span } : {}),
    ...(read.metric !== undefined ? { metric: f.metric.span } : {}),
    ...(f.table ? { table: f.table.span } : {}),
  };
}

export function routeFromWords(rw: RouteWords, ctx: RouteContext, reporter: Reporter): Route {
  const f = rw.fields;
  const type = (rw.type?.value ?? 'unicast') as RouteType;
  const gateway = addressField(f.via, reporter);
  const src = addressField(f.src, reporter);
  const metric = toInt(f.metric?.value);
  const viaFamily = f['via-family'] ? familyOf(gateway) : undefined;
  const otherFamily = viaFamily === 6 ? 4 : viaFamily === 4 ? 6 : undefined;
  // iproute2 prints `pref` only for IPv6 routes: it tells the family of a `default` without a gateway.
  const familyHint = otherFamily ?? familyOf(gateway) ?? familyOf(src) ?? ctx.family ?? (f.pref ? 6 : 4);

  let cidr = rw.destination ? destinationCidr(rw.destination.value, familyHint) : undefined;
  if (rw.destination && !cidr) {
    reporter.report('routes-route-bad-address', 'warning', rw.destination.span, { value: rw.destination.value });
  } else if (!rw.destination) {
    reporter.report('routes-route-no-destination', 'info', wordsSpan(rw.first, rw.last), { type });
  }
  // A route whose destination is missing or unreadable is kept as what iproute2 would print as `default`, marked cut.
  const partial = !cidr;
  cidr ??= { family: familyHint, base: 0n, prefix: 0 };

  const spans = routeSpans(rw, { gateway, src, metric });
  return {
    line: rw.first.line,
    span: wordsSpan(rw.first, rw.cache?.last ?? rw.last),
    source: 'ip-route',
    type,
    family: cidr.family,
    destination: cidrText(cidr),
    destinationText: rw.destination?.value ?? '',
    prefixLength: cidr.prefix,
    ...(gateway ? { gateway } : {}),
    ...(f.dev ? { dev: f.dev.value } : {}),
    ...(f.proto ? { proto: f.proto.value } : {}),
    ...(f.scope ? { scope: f.scope.value } : {}),
    ...(src ? { src } : {}),
    ...(metric !== undefined ? { metric } : {}),
    ...tableOf(f.table, ctx, type),
    flags: rw.flags,
    nexthops: rw.nexthops,
    attributes: attributesOf(f),
    unknown: rw.unknown.map((w) => w.text),
    partial,
    spans,
  };
}

/**
 * A multipath `default` route names no gateway on its own line, so its family was only guessed (IPv4) when
 * nothing else said it; the `nexthop via` lines under it do. A hop's `via inet6` is cross-family, not a hint.
 */
export function adoptNexthopFamily(route: Route, ctx: RouteContext): void {
  if (
    route.destinationText !== 'default' ||
    route.gateway ||
    route.src ||
    ctx.family ||
    route.attributes.pref !== undefined
  )
    return;
  const hop = route.nexthops.find((h) => h.gateway && h.attributes['via-family'] === undefined);
  const family = familyOf(hop?.gateway);
  if (!family || family === route.family) return;
  route.family = family;
  route.destination = cidrText({ family, base: 0n, prefix: 0 });
}

/** The normalised form kept in `Route.destination`. */
function cidrText(cidr: { family: 4 | 6; base: bigint; prefix: number }): string {
  return `${formatIp({ family: cidr.family, value: cidr.base })}/${cidr.prefix}`;
}

/** `default`, a prefix, or a bare address (a host route: /32 or /128). */
export function destinationCidr(text: string, family: 4 | 6) {
  if (text === 'default') return { family, base: 0n, prefix: 0 };
  return parseCidr(text);
}

function familyOf(address: string | undefined): 4 | 6 | undefined {
  return address === undefined ? undefined : parseIp(address)?.family;
}

/** The value of an address field, or undefined (with a diagnostic) when it is not an address. */
export function addressField(field: Field | undefined, reporter: Reporter): string | undefined {
  if (!field) return undefined;
  if (parseIp(field.value)) return field.value;
  reporter.report('routes-route-bad-address', 'warning', field.span, { value: field.value });
  return undefined;
}

/** The kernel's reserved table ids under the names iproute2 gives them. */
const TABLE_NAMES: Record<string, string> = { '253': 'default', '254': 'main', '255': 'local' };

export function tableName(idOrName: string): string {
  return ownEntry(TABLE_NAMES, idOrName) ?? idOrName;
}

function tableOf(
  field: Field | undefined,
  ctx: RouteContext,
  type: string,
): { table: string; tableSource: TableSource } {
  if (field) return { table: tableName(field.value), tableSource: 'explicit' };
  if (ctx.table) return { table: ctx.table, tableSource: 'command' };
  if (LOCAL_TABLE_TYPES.has(type)) return { table: 'local', tableSource: 'inferred' };
  return { table: 'main', tableSource: 'default' };
}

export function attributesOf(
  fields: Record<string, Field>,
  own: ReadonlySet<string> = OWN_FIELDS,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (!own.has(k)) out[k] = v.value;
  return out;
}
