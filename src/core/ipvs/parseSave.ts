/**
 * `ipvsadm -S` / `ipvsadm-save` output and restore input: `-A -t 10.0.0.1:80 -s rr -p 10800` declares a virtual
 * service, `-a -t 10.0.0.1:80 -r 10.244.1.2:80 -m -w 1` adds a real server to it. Defaults follow ipvsadm:
 * scheduler wlc, forwarding Route (-g), weight 1, `-p` alone 360 seconds.
 */
import type { Span } from '../common/diagnostics';
import type { SourceLine } from '../common/lines';
import type { ParseContext } from './context';
import { parseEndpoint, type Endpoint } from './endpoint';
import { realServerKey, serviceKey, serviceLabel } from './identity';
import { endpointTokens } from './parseList';
import { parseUint } from './numbers';
import { DEFAULT_PERSISTENT_TIMEOUT, DEFAULT_SCHEDULER } from './schedulers';
import type { ForwardMethod, IpvsProtocol, IpvsTokenKind, RealServer, VirtualService } from './types';
import type { Word } from './words';
import { ownEntry } from '../common/own';

type Command =
  'add-service' | 'edit-service' | 'delete-service' | 'add-server' | 'edit-server' | 'delete-server' | 'clear' | 'zero';

const COMMANDS: Record<string, Command> = {
  '-A': 'add-service',
  '--add-service': 'add-service',
  '-E': 'edit-service',
  '--edit-service': 'edit-service',
  '-D': 'delete-service',
  '--delete-service': 'delete-service',
  '-a': 'add-server',
  '--add-server': 'add-server',
  '-e': 'edit-server',
  '--edit-server': 'edit-server',
  '-d': 'delete-server',
  '--delete-server': 'delete-server',
  '-C': 'clear',
  '--clear': 'clear',
  '-Z': 'zero',
  '--zero': 'zero',
};

/** Canonical option name and whether it takes a value (`optional` = a following number, as `-p [timeout]`). */
const OPTIONS: Record<string, { name: string; arg: 'none' | 'required' | 'optional' }> = {
  '-t': { name: 'tcp-service', arg: 'required' },
  '--tcp-service': { name: 'tcp-service', arg: 'required' },
  '-u': { name: 'udp-service', arg: 'required' },
  '--udp-service': { name: 'udp-service', arg: 'required' },
  '--sctp-service': { name: 'sctp-service', arg: 'required' },
  '-f': { name: 'fwmark-service', arg: 'required' },
  '--fwmark-service': { name: 'fwmark-service', arg: 'required' },
  '-6': { name: 'ipv6', arg: 'none' },
  '--ipv6': { name: 'ipv6', arg: 'none' },
  '-s': { name: 'scheduler', arg: 'required' },
  '--scheduler': { name: 'scheduler', arg: 'required' },
  '-b': { name: 'sched-flags', arg: 'required' },
  '--sched-flags': { name: 'sched-flags', arg: 'required' },
  '-p': { name: 'persistent', arg: 'optional' },
  '--persistent': { name: 'persistent', arg: 'optional' },
  '-M': { name: 'netmask', arg: 'required' },
  '--netmask': { name: 'netmask', arg: 'required' },
  '--pe': { name: 'pe', arg: 'required' },
  '-o': { name: 'ops', arg: 'none' },
  '--ops': { name: 'ops', arg: 'none' },
  ops: { name: 'ops', arg: 'none' },
  '-r': { name: 'real-server', arg: 'required' },
  '--real-server': { name: 'real-server', arg: 'required' },
  '-m': { name: 'masquerading', arg: 'none' },
  '--masquerading': { name: 'masquerading', arg: 'none' },
  '-g': { name: 'gatewaying', arg: 'none' },
  '--gatewaying': { name: 'gatewaying', arg: 'none' },
  '-i': { name: 'ipip', arg: 'none' },
  '--ipip': { name: 'ipip', arg: 'none' },
  '-w': { name: 'weight', arg: 'required' },
  '--weight': { name: 'weight', arg: 'required' },
  '-x': { name: 'u-threshold', arg: 'required' },
  '--u-threshold': { name: 'u-threshold', arg: 'required' },
  '-y': { name: 'l-threshold', arg: 'required' },
  '--l-threshold': { name: 'l-threshold', arg: 'required' },
  '--tun-type': { name: 'tun-type', arg: 'required' },
  '--tun-port': { name: 'tun-port', arg: 'required' },
  '--tun-nocsum': { name: 'tun-nocsum', arg: 'none' },
  '--tun-csum': { name: 'tun-csum', arg: 'none' },
  '--tun-remcsum': { name: 'tun-remcsum', arg: 'none' },
  '-n': { name: 'numeric', arg: 'none' },
  '--numeric': { name: 'numeric', arg: 'none' },
};

const SERVICE_OPTIONS: Record<string, IpvsProtocol> = {
  'tcp-service': 'TCP',
  'udp-service': 'UDP',
  'sctp-service': 'SCTP',
  'fwmark-service': 'FWM',
};
const FORWARD_OPTIONS: Record<string, ForwardMethod> = { masquerading: 'Masq', gatewaying: 'Route', ipip: 'Tunnel' };

export function saveCommandOf(text: string): Command | undefined {
  return ownEntry(COMMANDS, text) ?? (/^-[AaEeDd][tuf]$/.test(text) ? ownEntry(COMMANDS, text.slice(0, 2)) : undefined);
}

/** Canonical name of a rule word (`-A` gives `add-service`, `--weight=2` gives `weight`), for explanations. */
export function saveOptionName(text: string): string | undefined {
  return saveCommandOf(text) ?? ownEntry(OPTIONS, text.split('=')[0])?.name;
}

interface PendingToken {
  kind: IpvsTokenKind;
  word: Word;
  column?: string;
}

/** Everything one rule line says, before it is attached to the model. */
interface Rule {
  protocol?: IpvsProtocol;
  serviceWord?: Word;
  serviceEndpoint?: Endpoint;
  fwmark?: number;
  family?: 4 | 6;
  scheduler?: string;
  flags: string[];
  persistent?: number;
  netmask?: string;
  pe?: string;
  realWord?: Word;
  realEndpoint?: Endpoint;
  forward?: ForwardMethod;
  weight?: number;
  upper?: number;
  lower?: number;
  tunnel?: { type?: string; port?: number; flags: string[] };
  tokens: PendingToken[];
}

function wordSpanOf(line: number, w: Word): Span {
  return { line, column: w.column, length: w.text.length };
}

function readOptions(ctx: ParseContext, sl: SourceLine, words: Word[], commandWord: Word): Rule {
  const rule: Rule = { flags: [], tokens: [] };
  const bundled = /^-[AaEeDd]([tuf])$/.exec(commandWord.text);
  let i = 0;
  const value = (): Word | undefined => words[i + 1];
  const take = (handle: (w: Word) => void, name: string): void => {
    const v = value();
    if (!v) {
      ctx.diag('save-missing-value', 'warning', wordSpanOf(sl.line, words[i]), { option: name });
      return;
    }
    i++;
    handle(v);
  };
  const readService = (protocol: IpvsProtocol, w: Word): void => {
    rule.protocol = protocol;
    if (protocol === 'FWM') {
      const mark = parseUint(w.text);
      if (mark === undefined) ctx.diag('bad-number', 'warning', wordSpanOf(sl.line, w), { text: w.text });
      rule.fwmark = mark;
      rule.family ??= 4;
      rule.tokens.push({ kind: 'fwmark', word: w });
      return;
    }
    const ep = parseEndpoint(w.text);
    if (!ep) ctx.diag('bad-address', 'warning', wordSpanOf(sl.line, w), { text: w.text });
    else {
      rule.serviceWord = w;
      rule.serviceEndpoint = ep;
      rule.family = ep.family;
    }
  };
  if (bundled) {
    // `-At 10.0.0.1:80`: the command letter and the service option share one word.
    const protocol = SERVICE_OPTIONS[OPTIONS[`-${bundled[1]}`].name];
    const v = words[0];
    if (v) {
      i = 0;
      readService(protocol, v);
      i = 1;
    }
  }
  for (; i < words.length; i++) {
    const w = words[i];
    const [flag, inline] =
      w.text.startsWith('--') && w.text.includes('=') ? w.text.split(/=(.*)/s) : [w.text, undefined];
    const opt = ownEntry(OPTIONS, flag);
    if (!opt) {
      ctx.diag('save-unknown-option', 'warning', wordSpanOf(sl.line, w), { option: w.text });
      continue;
    }
    const isForward = ownEntry(FORWARD_OPTIONS, opt.name) !== undefined;
    rule.tokens.push({ kind: isForward ? 'forward' : 'option', word: w });
    if (inline !== undefined) {
      // `--weight=2`: the text after `=` becomes the option's value word.
      words.splice(i + 1, 0, { text: inline, column: w.column + flag.length + 1 });
    }
    const protocol = ownEntry(SERVICE_OPTIONS, opt.name);
    if (protocol) {
      take((v) => readService(protocol, v), w.text);
    } else if (isForward) {
      rule.forward = ownEntry(FORWARD_OPTIONS, opt.name);
    } else {
      switch (opt.name) {
        case 'ipv6':
          rule.family = 6;
          break;
        case 'scheduler':
          take((v) => {
            rule.scheduler = v.text;
            rule.tokens.push({ kind: 'scheduler', word: v });
          }, w.text);
          break;
        case 'sched-flags':
          take((v) => {
            for (const flag of v.text.split(',')) if (flag !== '') rule.flags.push(flag); // not push(...): no bound
            rule.tokens.push({ kind: 'flag', word: v });
          }, w.text);
          break;
        case 'persistent': {
          const v = value();
          const n = v ? parseUint(v.text) : undefined;
          rule.persistent = n ?? DEFAULT_PERSISTENT_TIMEOUT;
          if (v && n !== undefined) {
            i++;
            rule.tokens.push({ kind: 'persistentTimeout', word: v });
          }
          break;
        }
        case 'netmask':
          take((v) => {
            rule.netmask = v.text;
            rule.tokens.push({ kind: 'netmask', word: v });
          }, w.text);
          break;
        case 'pe':
          take((v) => {
            rule.pe = v.text;
            rule.tokens.push({ kind: 'pe', word: v });
          }, w.text);
          break;
        case 'ops':
          rule.flags.push('ops');
          rule.tokens.pop();
          rule.tokens.push({ kind: 'flag', word: w });
          break;
        case 'real-server':
          take((v) => {
            const ep = parseEndpoint(v.text);
            if (!ep) ctx.diag('bad-address', 'warning', wordSpanOf(sl.line, v), { text: v.text });
            else {
              rule.realWord = v;
              rule.realEndpoint = ep;
            }
          }, w.text);
          break;
        case 'weight':
        case 'u-threshold':
        case 'l-threshold':
        case 'tun-port':
          take((v) => {
            const n = parseUint(v.text);
            if (n === undefined) ctx.diag('bad-number', 'warning', wordSpanOf(sl.line, v), { text: v.text });
            if (opt.name === 'weight') {
              rule.weight = n;
              rule.tokens.push({ kind: 'weight', word: v, column: 'Weight' });
            } else if (opt.name === 'tun-port') {
              rule.tunnel = { ...(rule.tunnel ?? { flags: [] }), port: n };
              rule.tokens.push({ kind: 'port', word: v });
            } else {
              const column = opt.name === 'u-threshold' ? 'Uthreshold' : 'Lthreshold';
              if (opt.name === 'u-threshold') rule.upper = n;
              else rule.lower = n;
              rule.tokens.push({ kind: 'threshold', word: v, column });
            }
          }, w.text);
          break;
        case 'tun-type':
          take((v) => {
            rule.tunnel = { ...(rule.tunnel ?? { flags: [] }), type: v.text };
            rule.tokens.push({ kind: 'keyword', word: v });
          }, w.text);
          break;
        case 'tun-nocsum':
        case 'tun-csum':
        case 'tun-remcsum':
          rule.tunnel = rule.tunnel ?? { flags: [] };
          rule.tunnel.flags.push(opt.name.slice(4));
          break;
        default:
          break;
      }
    }
  }
  return rule;
}

function ruleService(rule: Rule, sl: SourceLine, span: Span): VirtualService | undefined {
  if (!rule.protocol) return undefined;
  const svc: VirtualService = { protocol: rule.protocol, flags: [], realServers: [], line: sl.line, span };
  if (rule.protocol === 'FWM') {
    svc.fwmark = rule.fwmark;
    svc.family = rule.family ?? 4;
  } else if (rule.serviceEndpoint) {
    svc.address = rule.serviceEndpoint.address;
    svc.port = rule.serviceEndpoint.port;
    svc.family = rule.serviceEndpoint.family;
  } else return undefined;
  return svc;
}

function emitTokens(
  ctx: ParseContext,
  sl: SourceLine,
  rule: Rule,
  owner: { service?: number; realServer?: number; orphan?: number },
): void {
  for (const p of rule.tokens) ctx.token(p.kind, sl.line, p.word, p.column ? { column: p.column, ...owner } : owner);
  const serviceOwner = owner.service === undefined ? owner : { service: owner.service };
  if (rule.serviceWord && rule.serviceEndpoint) {
    endpointTokens(ctx, sl.line, rule.serviceWord, rule.serviceEndpoint, 'service', serviceOwner);
  }
  if (rule.realWord && rule.realEndpoint) endpointTokens(ctx, sl.line, rule.realWord, rule.realEndpoint, 'real', owner);
}

function applyServiceRule(
  ctx: ParseContext,
  sl: SourceLine,
  command: Command,
  rule: Rule,
  candidate: VirtualService,
): number {
  const key = serviceKey(candidate);
  const existing = ctx.serviceByKey.get(key);
  if (command === 'edit-service' && existing !== undefined) {
    const svc = ctx.dump.services[existing];
    if (rule.scheduler) svc.scheduler = rule.scheduler;
    if (rule.flags.length) svc.flags = rule.flags;
    if (rule.persistent !== undefined) svc.persistent = rule.persistent;
    if (rule.netmask !== undefined) svc.netmask = rule.netmask;
    if (rule.pe !== undefined) svc.pe = rule.pe;
    return existing;
  }
  candidate.scheduler = rule.scheduler ?? DEFAULT_SCHEDULER;
  candidate.flags = rule.flags;
  candidate.persistent = rule.persistent;
  candidate.netmask = rule.netmask;
  candidate.pe = rule.pe;
  if (candidate.persistent === undefined) delete candidate.persistent;
  if (candidate.netmask === undefined) delete candidate.netmask;
  if (candidate.pe === undefined) delete candidate.pe;
  const index = ctx.addService(candidate);
  if (existing === undefined) ctx.serviceByKey.set(key, index);
  ctx.serviceOrigin.set(index, { section: ctx.section, layouts: new Set(['save']) });
  return index;
}

function applyServerRule(
  ctx: ParseContext,
  sl: SourceLine,
  command: Command,
  rule: Rule,
  candidate: VirtualService,
): { service?: number; realServer?: number; orphan?: number } | undefined {
  if (!rule.realEndpoint) {
    ctx.diag('save-missing-option', 'warning', ctx.lineSpan(sl), { option: '-r' });
    return undefined;
  }
  const forward = rule.forward ?? 'Route';
  // ipvsadm keeps the service port when -r has none, and forces it for Route/Tunnel (they cannot rewrite ports).
  const servicePort = candidate.protocol === 'FWM' ? 0 : (candidate.port ?? 0);
  const port =
    candidate.protocol !== 'FWM' && forward !== 'Masq' ? servicePort : (rule.realEndpoint.port ?? servicePort);
  const rs: RealServer = {
    address: rule.realEndpoint.address,
    port,
    forward,
    weight: rule.weight ?? 1,
    line: sl.line,
    span: ctx.lineSpan(sl),
  };
  if (rule.upper !== undefined || rule.lower !== undefined)
    rs.thresholds = { upper: rule.upper ?? 0, lower: rule.lower ?? 0 };
  if (rule.tunnel) rs.tunnel = rule.tunnel;
  const index = ctx.serviceByKey.get(serviceKey(candidate));
  if (index === undefined && command === 'edit-server') {
    // Nothing to change, and ipvsadm adds nothing either ("No such service").
    ctx.diag('save-edit-unknown', 'warning', ctx.lineSpan(sl), {
      service: `${serviceLabel(candidate)} -> ${rule.realWord?.text ?? rs.address}`,
    });
    return undefined;
  }
  if (index === undefined) {
    ctx.diag('save-unknown-service', 'warning', ctx.lineSpan(sl), {
      service: rule.serviceWord?.text ?? String(candidate.fwmark),
    });
    ctx.dump.orphanRealServers.push(rs);
    return { orphan: ctx.dump.orphanRealServers.length - 1 };
  }
  const svc = ctx.dump.services[index];
  const at = ctx.liveRealServer(index, realServerKey(rs));
  if (command === 'edit-server' && at >= 0) {
    const old = svc.realServers[at];
    if (rule.forward) old.forward = rule.forward;
    if (rule.weight !== undefined) old.weight = rule.weight;
    if (rs.thresholds) old.thresholds = rs.thresholds;
    return { service: index, realServer: at };
  }
  if (command === 'edit-server') {
    // ipvsadm -e changes a real server the service has; it adds none ("No such destination").
    ctx.diag('save-edit-unknown', 'warning', ctx.lineSpan(sl), {
      service: `${serviceLabel(candidate)} -> ${rule.realWord?.text ?? rs.address}`,
    });
    return undefined;
  }
  return { service: index, realServer: ctx.addRealServer(index, rs) };
}

/**
 * `-D -t VIP:port`: the service leaves the table (a later `-A` of it makes a new one); ipvsadm refuses a service it
 * does not have. The entry stays in `dump.services` until the parse ends (lines and tokens hold its index).
 */
function deleteService(ctx: ParseContext, sl: SourceLine, rule: Rule, candidate: VirtualService): number | undefined {
  const key = serviceKey(candidate);
  // A paste can hold the same service twice (two listings): every copy leaves.
  const copies = [...ctx.liveServicesWithKey(key)];
  if (copies.length === 0) {
    ctx.diag('save-delete-unknown', 'warning', ctx.lineSpan(sl), { service: serviceLabel(candidate) });
    return undefined;
  }
  ctx.serviceByKey.delete(key);
  if (ctx.currentService !== undefined && copies.includes(ctx.currentService)) ctx.currentService = undefined;
  return copies.map((i) => removeService(ctx, sl.line, i))[0];
}

function removeService(ctx: ParseContext, line: number, index: number): number {
  const removal = ctx.dump.removals.push({ line, service: ctx.dump.services[index] }) - 1;
  ctx.removeService(index, removal);
  return removal;
}

/** `-C`: every virtual service leaves the table. */
function clearTable(ctx: ParseContext, sl: SourceLine): void {
  for (const index of ctx.liveServices()) removeService(ctx, sl.line, index);
  ctx.serviceByKey.clear();
  ctx.currentService = undefined;
}

/** `-d -t VIP:port -r RIP[:port]`: the real server leaves its service (the port defaults to the service's). */
function deleteServer(ctx: ParseContext, sl: SourceLine, rule: Rule, candidate: VirtualService): number | undefined {
  if (!rule.realEndpoint) {
    ctx.diag('save-missing-option', 'warning', ctx.lineSpan(sl), { option: '-r' });
    return undefined;
  }
  const serviceId = serviceKey(candidate);
  const port = rule.realEndpoint.port ?? (candidate.protocol === 'FWM' ? 0 : (candidate.port ?? 0));
  const key = realServerKey({ address: rule.realEndpoint.address, port });
  const removals: number[] = [];
  // Out of every copy of the service (two listings of it in one paste).
  for (const index of ctx.liveServicesWithKey(serviceId)) {
    const svc = ctx.dump.services[index];
    const at = ctx.liveRealServer(index, key);
    if (at < 0) continue;
    const removal = ctx.dump.removals.push({ line: sl.line, service: svc, realServer: svc.realServers[at] }) - 1;
    ctx.removeRealServer(index, at, removal);
    removals.push(removal);
  }
  if (removals.length === 0) {
    const server = rule.realWord?.text ?? rule.realEndpoint.address;
    ctx.diag('save-delete-unknown', 'warning', ctx.lineSpan(sl), {
      service: `${serviceLabel(candidate)} -> ${server}`,
    });
    return undefined;
  }
  return removals[0];
}

/** Parses one rule line; `start` is the index of the command word (`-A`, `-a`, ...). */
export function parseSaveLine(ctx: ParseContext, sl: SourceLine, words: Word[], start: number): void {
  const commandWord = words[start];
  const command = saveCommandOf(commandWord.text)!;
  const rule = readOptions(ctx, sl, words.slice(start + 1), commandWord);
  ctx.sawData('save');
  const span = ctx.lineSpan(sl);
  if (command === 'clear' || command === 'zero') {
    if (command === 'clear') clearTable(ctx, sl);
    ctx.token('option', sl.line, commandWord);
    emitTokens(ctx, sl, rule, {});
    ctx.setLine(sl, { kind: 'saveOther', layout: 'save' });
    return;
  }
  const candidate = ruleService(rule, sl, span);
  if (candidate && (command === 'delete-service' || command === 'delete-server')) {
    const removal =
      command === 'delete-service' ? deleteService(ctx, sl, rule, candidate) : deleteServer(ctx, sl, rule, candidate);
    ctx.token('option', sl.line, commandWord);
    emitTokens(ctx, sl, rule, {});
    ctx.setLine(sl, { kind: 'saveOther', layout: 'save', ...(removal !== undefined ? { removal } : {}) });
    return;
  }
  if (!candidate) {
    ctx.diag('save-missing-option', 'warning', span, { option: '-t | -u | --sctp-service | -f' });
    ctx.token('option', sl.line, commandWord);
    emitTokens(ctx, sl, rule, {});
    ctx.setLine(sl, { kind: 'unknown', layout: 'save' });
    return;
  }
  if (command === 'edit-service' && !ctx.serviceByKey.has(serviceKey(candidate))) {
    // ipvsadm -E changes a service it has; it makes none ("No such service").
    ctx.diag('save-edit-unknown', 'warning', span, { service: serviceLabel(candidate) });
    ctx.token('option', sl.line, commandWord);
    emitTokens(ctx, sl, rule, {});
    ctx.setLine(sl, { kind: 'saveOther', layout: 'save' });
    return;
  }
  if (command === 'add-service' || command === 'edit-service') {
    const index = applyServiceRule(ctx, sl, command, rule, candidate);
    ctx.token('option', sl.line, commandWord, { service: index });
    emitTokens(ctx, sl, rule, { service: index });
    ctx.currentService = index;
    ctx.setLine(sl, { kind: 'saveService', layout: 'save', service: index });
    return;
  }
  const placed = applyServerRule(ctx, sl, command, rule, candidate);
  const owner = placed ?? {};
  ctx.token('option', sl.line, commandWord, owner);
  emitTokens(ctx, sl, rule, owner);
  if (!placed) return ctx.setLine(sl, { kind: 'unknown', layout: 'save' });
  ctx.setLine(
    sl,
    owner.orphan !== undefined
      ? { kind: 'saveRealServer', layout: 'save', orphan: owner.orphan }
      : { kind: 'saveRealServer', layout: 'save', service: owner.service, realServer: owner.realServer },
  );
}
