/**
 * `ip route get ADDR` answers: `172.16.0.1 via 192.168.10.1 dev eth0 src 10.244.1.5 uid 0` and its `    cache` line,
 * typed answers (`local 10.96.0.1 dev lo ...`) and refusals (`RTNETLINK answers: Network is unreachable`).
 */
import type { Span } from '../common/diagnostics';
import { parseIp } from '../common/ip';
import { addressField, attributesOf, routeSpans } from './ipRoute';
import type { Reporter } from './report';
import { readRouteWords, type CacheWords, type RouteWords } from './routeWords';
import type { Route, RouteCache, RouteGet, RouteType } from './types';
import { toInt, wordSpan, wordsSpan, type Word } from './words';

export interface RouteGetContext {
  /** The address named on the command line, used when the answer is an error. */
  destination?: string;
}

/** Fields that have their own property on RouteGet. */
const OWN_FIELDS = new Set([
  'via',
  'via-family',
  'dev',
  'src',
  'from',
  'proto',
  'scope',
  'table',
  'metric',
  'uid',
  'mark',
  'iif',
]);

/** Lines in which the kernel or iproute2 refuses: the text after the prefix is the reason. */
const ERROR_PREFIX = /^(?:RTNETLINK answers|Error):\s*/;
const ERROR_WHOLE = /^(?:Device ".*" does not exist\.?|Cannot find device ".*")$/;

export interface ErrorLine {
  reason: string;
  /** Column of the reason within the content given to `readErrorLine`. */
  column: number;
}

/** True when the words carry a mark only `ip route get` prints (`uid N`, or a `cache` word). */
export function hasRouteGetMarks(words: Word[]): boolean {
  return words.some(
    (w, i) => (w.text === 'uid' && /^\d+$/.test(words[i + 1]?.text ?? '')) || (w.text === 'cache' && i > 0),
  );
}

export function parseRouteGetLine(words: Word[], ctx: RouteGetContext, reporter: Reporter): RouteGet {
  return routeGetFromWords(readRouteWords(words, reporter), ctx, reporter);
}

function routeGetFromWords(rw: RouteWords, ctx: RouteGetContext, reporter: Reporter): RouteGet {
  const f = rw.fields;
  if (rw.destination && !parseIp(rw.destination.value)) {
    reporter.report('routes-route-bad-address', 'warning', rw.destination.span, { value: rw.destination.value });
  }
  const destination = rw.destination?.value ?? ctx.destination;
  const family = destination !== undefined ? parseIp(destination)?.family : undefined;
  const gateway = addressField(f.via, reporter);
  const src = addressField(f.src, reporter);
  const metric = toInt(f.metric?.value);
  const uid = toInt(f.uid?.value);
  return {
    line: rw.first.line,
    span: wordsSpan(rw.first, rw.cache?.last ?? rw.last),
    type: (rw.type?.value ?? 'unicast') as RouteType,
    ...(destination !== undefined ? { destination } : {}),
    ...(family ? { family } : {}),
    ...(gateway ? { gateway } : {}),
    ...(f.dev ? { dev: f.dev.value } : {}),
    ...(src ? { src } : {}),
    ...(f.from ? { from: f.from.value } : {}),
    ...(f.proto ? { proto: f.proto.value } : {}),
    ...(f.scope ? { scope: f.scope.value } : {}),
    ...(f.table ? { table: f.table.value } : {}),
    ...(metric !== undefined ? { metric } : {}),
    ...(uid !== undefined ? { uid } : {}),
    ...(f.mark ? { mark: f.mark.value } : {}),
    ...(f.iif ? { iif: f.iif.value } : {}),
    flags: rw.flags,
    attributes: attributesOf(f, OWN_FIELDS),
    unknown: rw.unknown.map((w) => w.text),
    ...(rw.cache ? { cache: cacheFromWords(rw.cache) } : {}),
    spans: {
      ...routeSpans(rw, { gateway, src, metric }),
      ...(uid !== undefined ? { uid: f.uid.span } : {}),
    },
  };
}

function cacheFromWords(c: CacheWords): RouteCache {
  return { line: c.word.line, span: wordsSpan(c.word, c.last), flags: c.flags, attributes: c.attributes };
}

/** The `    cache ...` line under an answer. The caller checked that the first word is `cache`. */
export function parseCacheLine(words: Word[], reporter: Reporter): RouteCache {
  const rw = readRouteWords(words, reporter);
  return rw.cache
    ? cacheFromWords(rw.cache)
    : { line: words[0].line, span: wordSpan(words[0]), flags: [], attributes: {} };
}

/** The reason of a refusal line, or undefined when the line is not one. */
export function readErrorLine(content: string): ErrorLine | undefined {
  const prefix = ERROR_PREFIX.exec(content);
  if (prefix && prefix[0].length < content.length)
    return { reason: content.slice(prefix[0].length), column: prefix[0].length };
  if (ERROR_WHOLE.test(content)) return { reason: content, column: 0 };
  return undefined;
}

/** A refusal as a route-get answer (`ip route get 10.9.9.9` -> `RTNETLINK answers: Network is unreachable`). */
export function routeGetError(error: ErrorLine, line: Span, ctx: RouteGetContext): RouteGet {
  const get: RouteGet = {
    line: line.line,
    span: line,
    type: routeTypeOfError(error.reason),
    error: error.reason,
    flags: [],
    attributes: {},
    unknown: [],
    spans: { error: { line: line.line, column: line.column + error.column, length: Math.max(1, error.reason.length) } },
  };
  if (ctx.destination !== undefined) {
    get.destination = ctx.destination;
    const family = parseIp(ctx.destination)?.family;
    if (family) get.family = family;
  }
  return get;
}

/** The kernel answers a lookup that hits a blackhole/unreachable/prohibit route with EINVAL/EHOSTUNREACH/EACCES. */
function routeTypeOfError(reason: string): RouteType {
  if (/permission denied/i.test(reason)) return 'prohibit';
  if (/invalid argument/i.test(reason)) return 'blackhole';
  return 'unreachable';
}

/** An answer that was first read as an `ip route` line (old kernels print no `uid`), recognised by its cache line. */
export function routeGetFromRoute(route: Route, cache: RouteCache): RouteGet {
  const get: RouteGet = {
    line: route.line,
    span: route.span,
    type: route.type,
    destination: route.destinationText,
    family: route.family,
    flags: route.flags,
    attributes: { ...route.attributes },
    unknown: route.unknown,
    cache,
    spans: { ...route.spans },
  };
  if (route.gateway) get.gateway = route.gateway;
  if (route.dev) get.dev = route.dev;
  if (route.src) get.src = route.src;
  if (route.proto) get.proto = route.proto;
  if (route.scope) get.scope = route.scope;
  if (route.metric !== undefined) get.metric = route.metric;
  if (route.tableSource === 'explicit') get.table = route.table;
  return get;
}
