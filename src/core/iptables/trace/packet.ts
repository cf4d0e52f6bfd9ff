/**
 * The caller's packet checked and turned into what the tracer walks with (`PacketState`, `state.ts`), and the
 * facts every path of one trace shares (`TraceEnv`): the family, the hook, the node's addresses, the ipsets given.
 */
import { formatIp, isValidPort, parseIp, type IpFamily } from '../../common/ip';
import type { CompiledSet } from './ipsets';
import { msg } from './message';
import type { PacketState } from './state';
import type { Packet, TraceHook, TraceMessage, TraceProto } from './types';

/** Facts shared by every path of one trace. */
export interface TraceEnv {
  hook: TraceHook;
  family: IpFamily;
  /** The node's addresses; undefined when the caller did not give them. */
  local?: Set<bigint>;
  firstLocalAddress?: string;
  /** ipsets whose members were given (TraceOptions.ipsets), by name. */
  sets?: Map<string, CompiledSet>;
}

const PROTOS: readonly TraceProto[] = ['tcp', 'udp', 'sctp', 'icmp'];

export type PacketCheck = { ok: true; env: TraceEnv; state: PacketState } | { ok: false; problems: TraceMessage[] };

/** Validates the caller's packet; problems become warnings of an UNKNOWN result instead of exceptions. */
export function preparePacket(packet: Packet): PacketCheck {
  const problems: TraceMessage[] = [];
  const bad = (field: string, value: unknown) => problems.push(msg('warn.bad-packet', { field, value: String(value) }));
  const src = typeof packet.src === 'string' ? parseIp(packet.src.trim()) : undefined;
  const dst = typeof packet.dst === 'string' ? parseIp(packet.dst.trim()) : undefined;
  if (!src) bad('src', packet.src);
  if (!dst) bad('dst', packet.dst);
  if (src && dst && src.family !== dst.family) bad('dst', packet.dst);
  if (!isValidPort(packet.dport)) bad('dport', packet.dport);
  if (packet.sport !== undefined && !isValidPort(packet.sport)) bad('sport', packet.sport);
  if (!PROTOS.includes(packet.proto)) bad('proto', packet.proto);
  if (packet.hook !== 'prerouting' && packet.hook !== 'output') bad('hook', packet.hook);
  const mark = packet.mark ?? 0;
  if (!Number.isInteger(mark) || mark < 0 || mark > 0xffffffff) bad('mark', packet.mark);
  let local: Set<bigint> | undefined;
  let firstLocalAddress: string | undefined;
  if (packet.localAddresses) {
    local = new Set();
    for (const text of packet.localAddresses) {
      const a = parseIp(
        String(text)
          .trim()
          .replace(/\/\d+$/, ''),
      );
      if (!a) {
        bad('localAddresses', text);
        continue;
      }
      if (src && a.family !== src.family) continue;
      local.add(a.value);
      firstLocalAddress ??= formatIp(a);
    }
  }
  if (problems.length > 0 || !src || !dst) return { ok: false, problems };
  const env: TraceEnv = { hook: packet.hook, family: src.family, local, firstLocalAddress };
  const state: PacketState = {
    src: src.value,
    dst: dst.value,
    sport: packet.sport,
    dport: packet.dport,
    proto: packet.proto,
    origSrc: src.value,
    origDst: dst.value,
    origDport: packet.dport,
    inIface: packet.hook === 'output' ? '' : packet.inIface,
    outIface: packet.hook === 'output' ? packet.outIface : '',
    mark: mark >>> 0,
    ctmark: 0,
    dnatDone: false,
    snatDone: false,
    untracked: false,
    redirectedLocal: false,
    dnat: null,
    snat: null,
    masquerade: false,
  };
  return { ok: true, env, state };
}

export function ipText(env: TraceEnv, value: bigint): string {
  return formatIp({ family: env.family, value });
}

const V4_LOOPBACK = 0x7f000000n;
const V4_MULTICAST = 0xe0000000n;
const V4_BROADCAST = 0xffffffffn;

export type AddrType = 'LOCAL' | 'UNICAST' | 'MULTICAST' | 'BROADCAST';

/** The kernel's route type of an address as far as the trace knows it; undefined when local-or-not is unknown. */
export function addressType(env: TraceEnv, value: bigint): AddrType | undefined {
  if (env.family === 4) {
    if (value >> 24n === V4_LOOPBACK >> 24n) return 'LOCAL';
    if (value >> 28n === V4_MULTICAST >> 28n) return 'MULTICAST';
    if (value === V4_BROADCAST) return 'BROADCAST';
  } else {
    if (value === 1n) return 'LOCAL';
    if (value >> 120n === 0xffn) return 'MULTICAST';
  }
  if (!env.local) return undefined;
  return env.local.has(value) ? 'LOCAL' : 'UNICAST';
}

/** Routing's question: is the packet for this node? Unknown locality counts as remote (and is warned about). */
export function isForThisNode(env: TraceEnv, s: PacketState): boolean {
  return s.redirectedLocal || addressType(env, s.dst) === 'LOCAL';
}
