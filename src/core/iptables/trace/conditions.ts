/**
 * Turns a rule's matches into conditions on the packet. A condition answers yes, no, or "uncertain": a statistic
 * draw with a real probability, or a fact the dump cannot tell (ipset membership, local addresses, unknown modules)
 * that the engine forks on and records as an assumption.
 */
import { ownEntry } from '../../common/own';
import type { IpFamily } from '../../common/ip';
import type { Match, OptionArg } from '../dump';
import { formatProbability } from '../../common/shares';
import { msg } from './message';
import { addressType, ipText, type TraceEnv } from './packet';
import type { PacketState } from './state';
import type { TraceMessage } from './types';
import { inSet } from './ipsets';
import { isIcmpv6Value, PORT_MODULES, protocolOfValue } from './protocols';
import {
  blockContains,
  parseAddressList,
  parseIpRange,
  parsePortList,
  parsePortRange,
  parseValueMask,
  portIn,
  type AddressBlock,
  type PortRange,
} from './values';

export interface Uncertain {
  /** Probability that the fact is true. */
  p: number;
  /** Facts with the same key are decided once per path; undefined for independent draws (statistic random). */
  key?: string;
  /** Whether the rule's condition holds when the fact is true (false for negated conditions). */
  holdsIfTrue: boolean;
  whenTrue: TraceMessage;
  whenFalse: TraceMessage;
  /** A real probability (statistic), recorded as a fork note rather than an assumption. */
  random: boolean;
}

export type CondResult = boolean | Uncertain;
export type Cond = (s: PacketState, env: TraceEnv) => CondResult;

/** Collected while compiling; the engine turns them into warnings once per trace. */
export interface CompileProblem {
  message: TraceMessage;
}

const ALWAYS: Cond = () => true;
const NEVER: Cond = () => false;

/** `! --opt v` as written, for messages. */
export function describeOption(module: string, o: OptionArg, implicit = false): string {
  const head = module && !implicit ? `-m ${module} ` : '';
  const neg = o.negated ? '! ' : '';
  return `${head}${neg}${o.written}${o.values.length ? ' ' + o.values.join(' ') : ''}`.trim();
}

function describeMatch(m: Match): string {
  const opts = m.options.map(
    (o) => `${o.negated ? '! ' : ''}${o.written}${o.values.length ? ' ' + o.values.join(' ') : ''}`,
  );
  return [m.module ? `-m ${m.module}` : '', ...opts].filter(Boolean).join(' ');
}

/** A fact the dump cannot decide, split 50/50; the assumption says which way the path went. */
export function unknownFact(key: string, description: string, negated = false): Uncertain {
  return {
    p: 0.5,
    key,
    holdsIfTrue: !negated,
    whenTrue: msg('assume.holds', { cond: description }),
    whenFalse: msg('assume.fails', { cond: description }),
    random: false,
  };
}

function fact(key: string, holdsIfTrue: boolean, whenTrue: TraceMessage, whenFalse: TraceMessage, p = 0.5): Uncertain {
  return { p, key, holdsIfTrue, whenTrue, whenFalse, random: false };
}

function unparsable(module: string, o: OptionArg, problems: CompileProblem[]): Cond {
  const description = describeOption(module, o);
  problems.push({ message: msg('warn.bad-value', { option: description }) });
  const u = unknownFact(`cond:${description}`, description);
  return () => u;
}

function ifaceMatches(pattern: string, name: string): boolean {
  if (pattern.endsWith('+')) return name.startsWith(pattern.slice(0, -1));
  return name === pattern;
}

function protoCond(o: OptionArg, family: IpFamily): Cond {
  const raw = (o.values[0] ?? '').toLowerCase();
  let name = protocolOfValue(raw);
  if (name === undefined) return o.negated ? NEVER : ALWAYS;
  // The packet's `icmp` is ICMP in an IPv4 dump and ICMPv6 in an IPv6 one.
  if (name === 'icmp' && isIcmpv6Value(raw) !== (family === 6)) name = 'icmp-of-the-other-family';
  const neg = o.negated;
  return (s) => (s.proto === name) !== neg;
}

function addressCond(
  module: string,
  o: OptionArg,
  which: 'src' | 'dst',
  problems: CompileProblem[],
): { cond: Cond; blocks?: AddressBlock[] } {
  const blocks = parseAddressList(o.values[0] ?? '');
  if (!blocks) return { cond: unparsable(module, o, problems) };
  const neg = o.negated;
  const cond: Cond = (s, env) => {
    const v = which === 'src' ? s.src : s.dst;
    let inside = false;
    for (const b of blocks) if (blockContains(b, env.family, v)) inside = true;
    return inside !== neg;
  };
  return { cond, blocks };
}

function ifaceCond(o: OptionArg, dir: 'in' | 'out'): Cond {
  const pattern = o.values[0] ?? '';
  const neg = o.negated;
  const u = fact(
    `iface:${dir}:${pattern}`,
    !neg,
    msg(`assume.${dir}-iface`, { pattern }),
    msg(`assume.not-${dir}-iface`, { pattern }),
  );
  return (s) => {
    const name = dir === 'in' ? s.inIface : s.outIface;
    if (name === undefined) return u;
    return ifaceMatches(pattern, name) !== neg;
  };
}

/** Port tests of the tcp/udp/sctp/dccp modules (explicit or implied by `-p`). */
function portCond(
  module: string,
  o: OptionArg,
  which: 'sport' | 'dport',
  ranges: PortRange[],
  protoName: string | undefined,
): Cond {
  const neg = o.negated;
  const description = describeOption(module, o);
  const u = unknownFact(`sport:${description}`, description);
  return (s) => {
    if (protoName !== undefined && s.proto !== protoName) return false;
    const port = which === 'dport' ? s.dport : s.sport;
    if (port === undefined) return u;
    return portIn(ranges, port) !== neg;
  };
}

const TCP_FLAG_BITS: Record<string, number> = { FIN: 1, SYN: 2, RST: 4, PSH: 8, ACK: 16, URG: 32, ECE: 64, CWR: 128 };

function parseTcpFlags(text: string): number | undefined {
  let bits = 0;
  for (const f of text.toUpperCase().split(',')) {
    if (f === 'ALL') bits |= 0xff;
    else if (f === 'NONE') continue;
    else if (ownEntry(TCP_FLAG_BITS, f) !== undefined) bits |= TCP_FLAG_BITS[f];
    else return undefined;
  }
  return bits;
}

/** The first packet of a TCP connection carries SYN alone. */
const FIRST_PACKET_FLAGS = TCP_FLAG_BITS.SYN;

function portModuleConds(m: Match, problems: CompileProblem[], implicit: boolean): Cond[] {
  const protoName = m.module === '' ? undefined : m.module;
  const conds: Cond[] = [];
  for (const o of m.options) {
    const name = o.name;
    if (name === 'dport' || name === 'destination-port' || name === 'sport' || name === 'source-port') {
      const ranges = parsePortRange(o.values[0] ?? '');
      if (!ranges) {
        conds.push(unparsable(m.module, o, problems));
        continue;
      }
      const which = name === 'dport' || name === 'destination-port' ? 'dport' : 'sport';
      conds.push(portCond(implicit ? '' : m.module, o, which, [ranges], protoName));
    } else if (name === 'tcp-flags' && protoName === 'tcp') {
      const mask = parseTcpFlags(o.values[0] ?? '');
      const comp = parseTcpFlags(o.values[1] ?? '');
      if (mask === undefined || comp === undefined) {
        conds.push(unparsable(m.module, o, problems));
        continue;
      }
      const holds = ((FIRST_PACKET_FLAGS & mask) === comp) !== o.negated;
      conds.push((s) => s.proto === 'tcp' && holds);
    } else if (name === 'syn' && protoName === 'tcp') {
      const holds = !o.negated;
      conds.push((s) => s.proto === 'tcp' && holds);
    } else {
      const description = describeOption(m.module, o, implicit);
      const u = unknownFact(`cond:${description}`, description);
      conds.push((s) => (protoName !== undefined && s.proto !== protoName ? false : u));
    }
  }
  if (conds.length === 0 && protoName !== undefined) conds.push((s) => s.proto === protoName);
  return conds;
}

function multiportConds(m: Match, problems: CompileProblem[]): Cond[] {
  const conds: Cond[] = [];
  for (const o of m.options) {
    const ranges = parsePortList(o.values[0] ?? '');
    if (!ranges) {
      conds.push(unparsable(m.module, o, problems));
      continue;
    }
    const neg = o.negated;
    const description = describeOption(m.module, o);
    const u = unknownFact(`sport:${description}`, description);
    const name = o.name;
    const onPorts = (s: PacketState): CondResult => {
      if (s.proto === 'icmp') return false;
      if (name === 'dports' || name === 'destination-ports') return portIn(ranges, s.dport) !== neg;
      if (name === 'sports' || name === 'source-ports')
        return s.sport === undefined ? u : portIn(ranges, s.sport) !== neg;
      // --ports: either port in the list.
      if (portIn(ranges, s.dport)) return !neg;
      if (s.sport === undefined) return u;
      return portIn(ranges, s.sport) !== neg;
    };
    conds.push(onPorts);
  }
  return conds;
}

function markConds(m: Match, problems: CompileProblem[], onConnection: boolean): Cond[] {
  const conds: Cond[] = [];
  for (const o of m.options) {
    if (o.name !== 'mark') {
      conds.push(genericOptionCond(m, o));
      continue;
    }
    const vm = parseValueMask(o.values[0] ?? '');
    if (!vm) {
      conds.push(unparsable(m.module, o, problems));
      continue;
    }
    const neg = o.negated;
    conds.push((s) => {
      const mark = onConnection ? s.ctmark : s.mark;
      return ((mark & vm.mask) >>> 0 === vm.value) !== neg;
    });
  }
  return conds;
}

function statisticConds(m: Match, problems: CompileProblem[]): Cond[] {
  const opt = (n: string) => m.options.find((o) => o.name === n);
  const mode = opt('mode')?.values[0] ?? 'random';
  if (mode === 'random') {
    const o = opt('probability');
    if (!o) return [ALWAYS];
    const p = Number(o.values[0]);
    if (!Number.isFinite(p) || p < 0 || p > 1) return [unparsable(m.module, o, problems)];
    const taken = o.negated ? 1 - p : p;
    if (taken >= 1) return [ALWAYS];
    if (taken <= 0) return [NEVER];
    const u: Uncertain = {
      p: taken,
      holdsIfTrue: true,
      whenTrue: msg('note.random-taken', { p: formatProbability(taken) }),
      whenFalse: msg('note.random-not-taken', { p: formatProbability(1 - taken) }),
      random: true,
    };
    return [() => u];
  }
  if (mode === 'nth') {
    const every = opt('every');
    const n = Number(every?.values[0]);
    if (!every || !Number.isInteger(n) || n < 1) return [unknownFactCond(m)];
    const packet = Number(opt('packet')?.values[0] ?? 0);
    const neg = every.negated;
    if (n === 1) return [neg ? NEVER : ALWAYS];
    // Each nth rule keeps its own counter: its draws are independent across rules, like random ones.
    const u: Uncertain = {
      p: 1 / n,
      holdsIfTrue: !neg,
      whenTrue: msg('assume.nth', { every: n, packet }),
      whenFalse: msg('assume.not-nth', { every: n, packet }),
      random: false,
    };
    return [() => u];
  }
  return [unknownFactCond(m)];
}

function addrtypeConds(m: Match): Cond[] {
  const conds: Cond[] = [];
  for (const o of m.options) {
    if (o.name !== 'src-type' && o.name !== 'dst-type') continue; // limit-iface-*: the trace has no per-interface routes
    const types = new Set((o.values[0] ?? '').toUpperCase().split(','));
    const which = o.name === 'src-type' ? 'src' : 'dst';
    const neg = o.negated;
    const wantsLocal = types.has('LOCAL');
    const wantsUnicast = types.has('UNICAST');
    conds.push((s, env) => {
      const v = which === 'src' ? s.src : s.dst;
      const type = addressType(env, v);
      if (type !== undefined) return types.has(type) !== neg;
      if (wantsLocal === wantsUnicast) return wantsLocal !== neg; // either way the same answer
      const addr = ipText(env, v);
      // The fact is "addr is local"; the condition holds on that fact when it asks for LOCAL (and is not negated).
      return fact(
        localFactKey(addr),
        wantsLocal !== neg,
        msg('assume.local', { addr }),
        msg('assume.not-local', { addr }),
      );
    });
  }
  return conds;
}

/** The fact "this address belongs to the node", shared by addrtype tests and the routing decision. */
export function localFactKey(addr: string): string {
  return `local:${addr}`;
}

const CT_STATES = ['NEW', 'ESTABLISHED', 'RELATED', 'INVALID', 'UNTRACKED', 'SNAT', 'DNAT'];

/** Conntrack states of the first packet of a connection. */
function stateHolds(state: string, s: PacketState): boolean {
  switch (state) {
    case 'NEW':
      return !s.untracked;
    case 'UNTRACKED':
      return s.untracked;
    case 'DNAT':
      return !s.untracked && s.dnatDone;
    case 'SNAT':
      return !s.untracked && s.snatDone;
    default:
      return false;
  }
}

function conntrackConds(m: Match, family: IpFamily, problems: CompileProblem[]): Cond[] {
  const conds: Cond[] = [];
  for (const o of m.options) {
    const neg = o.negated;
    const v = o.values[0] ?? '';
    switch (o.name) {
      case 'ctstate':
      case 'state': {
        const states = v.toUpperCase().split(',');
        if (states.some((st) => !CT_STATES.includes(st))) {
          conds.push(unparsable(m.module, o, problems));
          break;
        }
        conds.push((s) => states.some((st) => stateHolds(st, s)) !== neg);
        break;
      }
      case 'ctproto': {
        conds.push(protoCond(o, family));
        break;
      }
      case 'ctorigsrc':
      case 'ctorigdst':
      case 'ctreplsrc':
      case 'ctrepldst': {
        const blocks = parseAddressList(v);
        if (!blocks) {
          conds.push(unparsable(m.module, o, problems));
          break;
        }
        const name = o.name;
        const description = describeOption(m.module, o);
        const u = unknownFact(`cond:${description}`, description);
        conds.push((s, env) => {
          let addr: bigint;
          if (name === 'ctorigsrc') addr = s.origSrc;
          else if (name === 'ctorigdst') addr = s.origDst;
          else if (name === 'ctreplsrc') addr = s.dst;
          else if (s.masquerade) return u;
          else addr = s.snat?.ip ? (parseAddressList(s.snat.ip)?.[0]?.base ?? s.src) : s.src;
          return blocks.some((b) => blockContains(b, env.family, addr)) !== neg;
        });
        break;
      }
      case 'ctorigdstport':
      case 'ctorigsrcport':
      case 'ctreplsrcport':
      case 'ctrepldstport': {
        const range = parsePortRange(v);
        if (!range) {
          conds.push(unparsable(m.module, o, problems));
          break;
        }
        const name = o.name;
        const description = describeOption(m.module, o);
        const u = unknownFact(`sport:${description}`, description);
        conds.push((s) => {
          const port = name === 'ctorigdstport' ? s.origDport : name === 'ctreplsrcport' ? s.dport : s.sport;
          if (port === undefined) return u;
          return portIn([range], port) !== neg;
        });
        break;
      }
      case 'ctdir': {
        const original = v.toUpperCase() === 'ORIGINAL';
        conds.push(() => original !== neg);
        break;
      }
      case 'ctstatus': {
        const statuses = v.toUpperCase().split(',');
        // A first packet is neither confirmed, assured, expected nor seen a reply.
        if (statuses.every((st) => ['EXPECTED', 'SEEN_REPLY', 'ASSURED', 'CONFIRMED'].includes(st))) {
          conds.push(() => neg);
        } else conds.push(genericOptionCond(m, o));
        break;
      }
      default:
        conds.push(genericOptionCond(m, o));
    }
  }
  return conds;
}

function setConds(m: Match): Cond[] {
  const conds: Cond[] = [];
  for (const o of m.options) {
    if (o.name !== 'match-set') continue; // counters options and return-nomatch do not change membership
    const set = o.values[0] ?? '?';
    const flags = o.values[1] ?? 'src';
    const neg = o.negated;
    const directions = flags.split(',').map((f) => (f === 'src' ? 'src' : 'dst'));
    conds.push((s, env) => {
      const known = env.sets?.get(set);
      const member = known ? inSet(known, directions, s, env.family) : undefined;
      if (member !== undefined) return member !== neg;
      // The members are not known (or do not tell): membership of these packet fields is a fact to assume.
      const fields = flags.split(',').map((f, i) => {
        const ip = f === 'src' ? ipText(env, s.src) : ipText(env, s.dst);
        if (i === 0) return ip;
        const port = f === 'src' ? s.sport : s.dport;
        return port === undefined ? f : `${s.proto}:${port}`;
      });
      const what = `${flags} (${fields.join(',')})`;
      return fact(
        `set:${set}:${what}`,
        !neg,
        msg('assume.in-set', { set, what }),
        msg('assume.not-in-set', { set, what }),
      );
    });
  }
  return conds;
}

function iprangeConds(m: Match, problems: CompileProblem[]): Cond[] {
  const conds: Cond[] = [];
  for (const o of m.options) {
    const range = parseIpRange(o.values[0] ?? '');
    if (!range || (o.name !== 'src-range' && o.name !== 'dst-range')) {
      conds.push(range ? genericOptionCond(m, o) : unparsable(m.module, o, problems));
      continue;
    }
    const which = o.name;
    const neg = o.negated;
    conds.push((s, env) => {
      const v = which === 'src-range' ? s.src : s.dst;
      return (env.family === range.family && v >= range.lo && v <= range.hi) !== neg;
    });
  }
  return conds;
}

function pkttypeConds(m: Match): Cond[] {
  return m.options.map((o) => {
    if (o.name !== 'pkt-type') return genericOptionCond(m, o);
    const want = (o.values[0] ?? '').toLowerCase();
    const neg = o.negated;
    return (s: PacketState, env: TraceEnv) => {
      const type = addressType(env, s.dst);
      const kind = type === 'MULTICAST' ? 'multicast' : type === 'BROADCAST' ? 'broadcast' : 'unicast';
      return (kind === want) !== neg;
    };
  });
}

function icmpConds(m: Match): Cond[] {
  return m.options.map((o) => {
    const anyType = (o.values[0] ?? '').toLowerCase() === 'any';
    const description = describeOption(m.module, o);
    const u = unknownFact(`cond:${description}`, description, o.negated);
    return (s: PacketState): CondResult => {
      if (s.proto !== 'icmp') return false;
      return anyType ? !o.negated : u;
    };
  });
}

function genericOptionCond(m: Match, o: OptionArg): Cond {
  const description = describeOption(m.module, o);
  const u = unknownFact(`cond:${description}`, description);
  return () => u;
}

function unknownFactCond(m: Match): Cond {
  const description = describeMatch(m);
  const u = unknownFact(`cond:${description}`, description);
  return () => u;
}

/**
 * `-m recent`: `--set`/`--remove` record the source and always match; `--rcheck`/`--update` ask whether this
 * source was seen. The tracer follows the first connection of a client, so it was not: kube-proxy's affinity
 * rules are passed and the probability ladder decides, as for a new client.
 */
function recentCond(m: Match): Cond {
  const asks = m.options.some((o) => o.name === 'rcheck' || o.name === 'update');
  return asks ? NEVER : ALWAYS;
}

/** Modules that never change whether a rule matches. */
const ALWAYS_MATCH_MODULES = new Set(['comment', 'nfacct']);

export interface GenericInfo {
  /** The single destination host of `-d`, for the chain index. */
  dstHost?: AddressBlock[];
  dstNegated?: boolean;
}

function genericConds(m: Match, family: IpFamily, problems: CompileProblem[], info: GenericInfo): Cond[] {
  const conds: Cond[] = [];
  const ports: OptionArg[] = [];
  for (const o of m.options) {
    switch (o.name) {
      case 'source':
        conds.push(addressCond('', o, 'src', problems).cond);
        break;
      case 'destination': {
        const { cond, blocks } = addressCond('', o, 'dst', problems);
        conds.push(cond);
        if (blocks) {
          info.dstHost = blocks;
          info.dstNegated = o.negated;
        }
        break;
      }
      case 'protocol':
        conds.push(protoCond(o, family));
        break;
      case 'in-interface':
        conds.push(ifaceCond(o, 'in'));
        break;
      case 'out-interface':
        conds.push(ifaceCond(o, 'out'));
        break;
      case 'fragment':
        conds.push(o.negated ? ALWAYS : NEVER); // a connection's first packet is not a later fragment
        break;
      // `-4`/`-6`, negated or not, are nothing in their own family's tables; iptables-restore skips a rule of the
      // other family (a rules file for both tools), so it never matches.
      case 'ipv4':
        conds.push(family === 4 ? ALWAYS : NEVER);
        break;
      case 'ipv6':
        conds.push(family === 6 ? ALWAYS : NEVER);
        break;
      case 'dport':
      case 'sport':
      case 'destination-port':
      case 'source-port':
        ports.push(o);
        break;
      default:
        conds.push(genericOptionCond(m, o));
    }
  }
  if (ports.length > 0) conds.push(...portModuleConds({ module: '', options: ports }, problems, true));
  return conds;
}

/**
 * Conditions of one rule: the generic part first (the kernel checks the IP header before any match module),
 * then the modules in the order written.
 */
export function compileConditions(
  matches: Match[],
  family: IpFamily,
  problems: CompileProblem[],
  info: GenericInfo,
): Cond[] {
  const conds: Cond[] = [];
  for (const m of matches) if (m.module === '') conds.push(...genericConds(m, family, problems, info));
  for (const m of matches) {
    if (m.module === '') continue;
    const module = m.module.toLowerCase();
    if (ALWAYS_MATCH_MODULES.has(module)) continue;
    if (PORT_MODULES.has(module)) conds.push(...portModuleConds({ ...m, module }, problems, !m.moduleSpan));
    else if (module === 'multiport') conds.push(...multiportConds(m, problems));
    else if (module === 'mark') conds.push(...markConds(m, problems, false));
    else if (module === 'connmark') conds.push(...markConds(m, problems, true));
    else if (module === 'statistic') conds.push(...statisticConds(m, problems));
    else if (module === 'addrtype') conds.push(...addrtypeConds(m));
    else if (module === 'conntrack' || module === 'state') conds.push(...conntrackConds(m, family, problems));
    else if (module === 'set') conds.push(...setConds(m));
    else if (module === 'iprange') conds.push(...iprangeConds(m, problems));
    else if (module === 'pkttype') conds.push(...pkttypeConds(m));
    else if (module === 'icmp' || module === 'icmp6' || module === 'icmpv6') conds.push(...icmpConds(m));
    else if (module === 'recent') conds.push(recentCond(m));
    else conds.push(unknownFactCond(m));
  }
  return conds;
}
