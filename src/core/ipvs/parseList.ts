/**
 * Virtual-service and real-server lines of the `ipvsadm -L` family (`-Ln`, `--stats`, `--rate`, `--thresholds`,
 * `--persistent-conn`). Column meaning comes from the layout in force, or from the line's own shape when the
 * person left the header lines out.
 */
import { ownEntry } from '../common/own';
import type { SourceLine } from '../common/lines';
import { columnTokenKind, RATE_COLUMNS, realServerColumns, STATS_COLUMNS } from './columns';
import type { ParseContext } from './context';
import { parseEndpoint, type Endpoint } from './endpoint';
import { realServerKey, serviceKey } from './identity';
import { parseCounter, parseUint } from './numbers';
import { isKnownFlag } from './schedulers';
import type {
  EndpointRole,
  ForwardMethod,
  IpvsLayout,
  IpvsProtocol,
  IpvsRates,
  IpvsStats,
  RealServer,
  VirtualService,
} from './types';
import type { Word } from './words';

const FORWARD: Record<string, ForwardMethod> = { masq: 'Masq', route: 'Route', tunnel: 'Tunnel', local: 'Local' };
const NUMERIC_LAYOUTS: readonly IpvsLayout[] = ['stats', 'rate', 'thresholds', 'persistent-conn'];

export function forwardMethod(text: string): ForwardMethod | undefined {
  return ownEntry(FORWARD, text.toLowerCase());
}

interface Owner {
  service?: number;
  realServer?: number;
  orphan?: number;
}

/** Emits address/port tokens (and name diagnostics) for an endpoint word. */
export function endpointTokens(
  ctx: ParseContext,
  line: number,
  word: Word,
  ep: Endpoint,
  role: EndpointRole,
  owner: Owner | { connection: number },
): void {
  const hostText = word.text.slice(ep.hostStart, ep.hostStart + ep.hostLength);
  ctx.tokenAt(
    'address',
    hostText,
    { line, column: word.column + ep.hostStart, length: ep.hostLength },
    { role, ...owner },
  );
  if (ep.portStart !== undefined && ep.portLength !== undefined) {
    const portSpan = { line, column: word.column + ep.portStart, length: ep.portLength };
    ctx.tokenAt('port', word.text.slice(ep.portStart), portSpan, { role, ...owner });
    if (ep.portName !== undefined && ep.port === undefined) {
      ctx.diag('unknown-port-name', 'info', portSpan, { name: ep.portName });
    }
  }
  if (ep.isName) {
    ctx.diagOnce('host-name', 'info', { line, column: word.column, length: word.text.length }, { text: word.text });
  }
}

function readCounters(
  ctx: ParseContext,
  sl: SourceLine,
  tail: Word[],
  columns: readonly string[],
  owner: Owner,
): { values: (number | undefined)[]; approximate: boolean; rounded: boolean[] } {
  const values: (number | undefined)[] = [];
  const rounded: boolean[] = [];
  let approximate = false;
  columns.forEach((column, i) => {
    const w = tail[i];
    if (!w) return;
    const c = parseCounter(w.text);
    if (!c) {
      ctx.diag('bad-number', 'warning', { line: sl.line, column: w.column, length: w.text.length }, { text: w.text });
      values.push(undefined);
      return;
    }
    approximate ||= c.approximate;
    rounded[i] = c.approximate;
    values.push(c.value);
    ctx.token(columnTokenKind(column), sl.line, w, { column, ...owner });
  });
  return { values, approximate, rounded };
}

function toStats(v: (number | undefined)[], approximate: boolean, rounded: boolean[]): IpvsStats {
  const [conns = 0, inPkts = 0, outPkts = 0, inBytes = 0, outBytes = 0] = v;
  const countsApproximate = rounded[0] === true || rounded[1] === true || rounded[2] === true;
  return {
    conns,
    inPkts,
    outPkts,
    inBytes,
    outBytes,
    approximate,
    ...(countsApproximate ? { countsApproximate } : {}),
  };
}

function toRates(v: (number | undefined)[], approximate: boolean): IpvsRates {
  const [cps = 0, inPps = 0, outPps = 0, inBps = 0, outBps = 0] = v;
  return { cps, inPps, outPps, inBps, outBps, approximate };
}

function reportLength(ctx: ParseContext, sl: SourceLine, tail: Word[], expected: readonly string[]): boolean {
  if (tail.length < expected.length) {
    ctx.diag('truncated-line', 'info', ctx.lineSpan(sl), { missing: expected.slice(tail.length).join(', ') });
    return true;
  }
  for (const w of tail.slice(expected.length)) {
    ctx.diag(
      'unexpected-token',
      'warning',
      { line: sl.line, column: w.column, length: w.text.length },
      { text: w.text },
    );
  }
  return false;
}

/** Scheduler, `(flags)`, `persistent N`, `mask M`, `pe NAME`, `ops` after the service address. */
function readSchedulerTail(ctx: ParseContext, sl: SourceLine, tail: Word[], svc: VirtualService, index: number): void {
  const owner = { service: index };
  svc.scheduler = tail[0].text;
  ctx.token('scheduler', sl.line, tail[0], owner);
  for (let i = 1; i < tail.length; i++) {
    const w = tail[i];
    const next = tail[i + 1];
    const bare = w.text.replace(/^\(|\)$/g, '');
    if (w.text === 'persistent' || w.text === 'mask' || w.text === 'pe') {
      ctx.token('keyword', sl.line, w, owner);
      if (!next) {
        ctx.diag('truncated-line', 'info', ctx.lineSpan(sl), { missing: w.text });
        svc.truncated = true;
        break;
      }
      i++;
      if (w.text === 'persistent') {
        const n = parseUint(next.text);
        if (n === undefined)
          ctx.diag(
            'bad-number',
            'warning',
            { line: sl.line, column: next.column, length: next.text.length },
            { text: next.text },
          );
        else svc.persistent = n;
        ctx.token('persistentTimeout', sl.line, next, owner);
      } else if (w.text === 'mask') {
        svc.netmask = next.text;
        ctx.token('netmask', sl.line, next, owner);
      } else {
        svc.pe = next.text;
        ctx.token('pe', sl.line, next, owner);
      }
    } else if (bare.split(',').every((f) => isKnownFlag(f))) {
      svc.flags.push(...bare.split(','));
      ctx.token('flag', sl.line, w, owner);
    } else {
      ctx.diag(
        'unexpected-token',
        'warning',
        { line: sl.line, column: w.column, length: w.text.length },
        { text: w.text },
      );
    }
  }
}

/** Copies what a later listing adds (scheduler, counters) into a service first seen in another listing. */
function mergeService(into: VirtualService, from: VirtualService): void {
  into.scheduler ??= from.scheduler;
  if (into.flags.length === 0) into.flags.push(...from.flags);
  into.persistent ??= from.persistent;
  into.netmask ??= from.netmask;
  into.pe ??= from.pe;
  if (from.stats) into.stats = from.stats;
  if (from.rates) into.rates = from.rates;
}

function mergeRealServer(into: RealServer, from: RealServer): void {
  into.forward ??= from.forward;
  into.weight ??= from.weight;
  if (from.activeConn !== undefined) into.activeConn = from.activeConn;
  if (from.inactConn !== undefined) into.inactConn = from.inactConn;
  into.persistConn ??= from.persistConn;
  if (from.stats) into.stats = from.stats;
  if (from.rates) into.rates = from.rates;
  into.thresholds ??= from.thresholds;
}

/** Decides whether a service line continues an earlier listing of the same service or is a new entry. */
function placeService(ctx: ParseContext, svc: VirtualService, layout: IpvsLayout): number {
  const key = serviceKey(svc);
  const existing = ctx.serviceByKey.get(key);
  const origin = existing === undefined ? undefined : ctx.serviceOrigin.get(existing);
  if (existing !== undefined && origin && origin.section !== ctx.section && !origin.layouts.has(layout)) {
    origin.layouts.add(layout);
    ctx.currentServiceMerged = true;
    return existing;
  }
  const index = ctx.addService(svc);
  if (existing === undefined) ctx.serviceByKey.set(key, index);
  ctx.serviceOrigin.set(index, { section: ctx.section, layouts: new Set([layout]) });
  ctx.currentServiceMerged = false;
  return index;
}

/** `TCP  10.96.0.1:443 rr persistent 10800`, `FWM  1481 IPv6 rr`, `TCP  10.3.0.1:443  0 0 0 0 0`. */
export function parseServiceLine(ctx: ParseContext, sl: SourceLine, words: Word[]): void {
  const protocol = words[0].text as IpvsProtocol;
  const svc: VirtualService = { protocol, flags: [], realServers: [], line: sl.line, span: ctx.lineSpan(sl) };
  let rest = 2;
  let endpointWord: Word | undefined;
  let endpoint: Endpoint | undefined;
  if (protocol === 'FWM') {
    const mark = words[1] ? parseUint(words[1].text) : undefined;
    if (mark === undefined) return unreadableService(ctx, sl, words[1] ?? words[0]);
    svc.fwmark = mark;
    svc.family = 4;
    if (words[2]?.text === 'IPv6') {
      svc.family = 6;
      rest = 3;
    }
  } else {
    endpoint = words[1] ? parseEndpoint(words[1].text) : undefined;
    if (!endpoint) return unreadableService(ctx, sl, words[1] ?? words[0]);
    endpointWord = words[1];
    svc.address = endpoint.address;
    svc.port = endpoint.port;
    svc.family = endpoint.family;
  }
  const tail = words.slice(rest);
  const numeric = tail.length > 0 && parseCounter(tail[0].text) !== undefined;
  const layout: IpvsLayout = numeric
    ? ctx.layout === 'rate'
      ? 'rate'
      : 'stats'
    : ctx.layout === 'thresholds' || ctx.layout === 'persistent-conn'
      ? ctx.layout
      : 'list';
  const index = placeService(ctx, svc, layout);
  const owner = { service: index };
  ctx.token('protocol', sl.line, words[0], owner);
  if (protocol === 'FWM') {
    ctx.token('fwmark', sl.line, words[1], owner);
    if (rest === 3) ctx.token('family', sl.line, words[2], owner);
  } else if (endpointWord && endpoint) {
    endpointTokens(ctx, sl.line, endpointWord, endpoint, 'service', owner);
  }
  if (tail.length === 0) {
    ctx.diag('truncated-line', 'info', ctx.lineSpan(sl), { missing: 'Scheduler' });
    svc.truncated = true;
  } else if (numeric) {
    const columns = layout === 'rate' ? RATE_COLUMNS : STATS_COLUMNS;
    const { values, approximate, rounded } = readCounters(ctx, sl, tail, columns, owner);
    if (layout === 'rate') svc.rates = toRates(values, approximate);
    else svc.stats = toStats(values, approximate, rounded);
    if (reportLength(ctx, sl, tail, columns)) svc.truncated = true;
  } else {
    readSchedulerTail(ctx, sl, tail, svc, index);
  }
  if (ctx.dump.services[index] !== svc) mergeService(ctx.dump.services[index], svc);
  ctx.currentService = index;
  ctx.sawData(layout);
  ctx.setLine(sl, { kind: 'service', layout, service: index });
}

function unreadableService(ctx: ParseContext, sl: SourceLine, word: Word): void {
  ctx.diag(
    'bad-address',
    'warning',
    { line: sl.line, column: word.column, length: word.text.length },
    { text: word.text },
  );
  // Real servers below it must not attach to the service above.
  ctx.currentService = undefined;
  ctx.setLine(sl, { kind: 'unknown' });
}

/** Which numeric layout a real-server line with `count` numbers is, when no header said so. */
function numericLayout(ctx: ParseContext, sl: SourceLine, count: number): IpvsLayout {
  if (ctx.layout && NUMERIC_LAYOUTS.includes(ctx.layout)) return ctx.layout;
  if (count >= 5) return 'stats';
  ctx.diagOnce('ambiguous-columns', 'info', ctx.lineSpan(sl));
  return 'thresholds';
}

function fillRealServer(
  rs: RealServer,
  layout: IpvsLayout,
  values: (number | undefined)[],
  approximate: boolean,
  rounded: boolean[],
): void {
  switch (layout) {
    case 'stats':
      rs.stats = toStats(values, approximate, rounded);
      break;
    case 'rate':
      rs.rates = toRates(values, approximate);
      break;
    case 'thresholds':
      rs.thresholds = { upper: values[0] ?? 0, lower: values[1] ?? 0 };
      rs.activeConn = values[2];
      rs.inactConn = values[3];
      break;
    case 'persistent-conn':
      rs.weight = values[0];
      rs.persistConn = values[1];
      rs.activeConn = values[2];
      rs.inactConn = values[3];
      break;
    default:
      break;
  }
}

/** Attaches a real server to the current service (merging into an earlier listing), or keeps it as an orphan. */
function placeRealServer(ctx: ParseContext, rs: RealServer): Owner {
  if (ctx.currentService === undefined) {
    ctx.dump.orphanRealServers.push(rs);
    return { orphan: ctx.dump.orphanRealServers.length - 1 };
  }
  const svc = ctx.dump.services[ctx.currentService];
  if (ctx.currentServiceMerged) {
    // Not into one a restore line took out (`-d`): a later listing shows it back in the table.
    const at = ctx.liveRealServer(ctx.currentService, realServerKey(rs));
    if (at >= 0) {
      mergeRealServer(svc.realServers[at], rs);
      return { service: ctx.currentService, realServer: at };
    }
  }
  return { service: ctx.currentService, realServer: ctx.addRealServer(ctx.currentService, rs) };
}

/** `-> 10.244.0.2:53  Masq 1 0 0` and its numeric variants. */
export function parseRealServerLine(ctx: ParseContext, sl: SourceLine, words: Word[]): void {
  const endpoint = words[1] ? parseEndpoint(words[1].text) : undefined;
  if (!endpoint) {
    const w = words[1] ?? words[0];
    ctx.diag('bad-address', 'warning', { line: sl.line, column: w.column, length: w.text.length }, { text: w.text });
    ctx.setLine(sl, { kind: 'unknown' });
    return;
  }
  const tail = words.slice(2);
  const fwd = tail[0] ? forwardMethod(tail[0].text) : undefined;
  const allNumbers = tail.length > 0 && tail.every((w) => parseCounter(w.text) !== undefined);
  let layout: IpvsLayout;
  if (fwd) layout = 'list';
  else if (allNumbers) layout = numericLayout(ctx, sl, tail.length);
  else layout = ctx.layout ?? 'list';

  const svc = ctx.currentService === undefined ? undefined : ctx.dump.services[ctx.currentService];
  // ipvsadm prints fwmark real servers with port 0 when the packet's own port is kept; a port name without a known
  // number is no port 0 (the service's port): it stays unknown.
  const rs: RealServer =
    endpoint.port === undefined && endpoint.portName !== undefined
      ? { address: endpoint.address, portName: endpoint.portName, line: sl.line, span: ctx.lineSpan(sl) }
      : { address: endpoint.address, port: endpoint.port ?? 0, line: sl.line, span: ctx.lineSpan(sl) };
  const owner = placeRealServer(ctx, rs);
  const target =
    owner.orphan !== undefined ? ctx.dump.orphanRealServers[owner.orphan] : svc!.realServers[owner.realServer!];
  ctx.token('arrow', sl.line, words[0], owner);
  endpointTokens(ctx, sl.line, words[1], endpoint, 'real', owner);

  const columns = realServerColumns(layout);
  if (layout === 'list') {
    if (tail.length > 0 && !fwd) {
      const w = tail[0];
      ctx.diag(
        'unknown-forward',
        'warning',
        { line: sl.line, column: w.column, length: w.text.length },
        { text: w.text },
      );
    } else if (fwd) {
      target.forward = fwd;
      ctx.token('forward', sl.line, tail[0], { column: 'Forward', ...owner });
    }
    const numbers = tail.slice(1);
    const { values } = readCounters(ctx, sl, numbers, columns.slice(1), owner);
    if (values[0] !== undefined) target.weight = values[0];
    if (values[1] !== undefined) target.activeConn = values[1];
    if (values[2] !== undefined) target.inactConn = values[2];
    if (reportLength(ctx, sl, tail, columns)) target.truncated = true;
  } else {
    const { values, approximate, rounded } = readCounters(ctx, sl, tail, columns, owner);
    fillRealServer(target, layout, values, approximate, rounded);
    if (reportLength(ctx, sl, tail, columns)) target.truncated = true;
  }
  ctx.sawData(layout);
  if (owner.orphan !== undefined) {
    ctx.diag('orphan-real-server', 'info', ctx.lineSpan(sl), { address: words[1].text });
    ctx.setLine(sl, { kind: 'orphanRealServer', layout, orphan: owner.orphan });
  } else {
    ctx.setLine(sl, { kind: 'realServer', layout, service: owner.service, realServer: owner.realServer });
  }
}
