/**
 * How the tracer reads a rule's protocol (`-p`) and which match modules test the packet's ports, shared with the
 * reader that leaves out the rules a trace cannot match (traceSlice.ts): both must judge a rule alike.
 */
import { ownEntry } from '../../common/own';

const PROTO_NUMBERS: Record<string, string> = { '6': 'tcp', '17': 'udp', '132': 'sctp', '1': 'icmp', '58': 'icmp' };
const PROTO_ALIASES: Record<string, string> = { icmpv6: 'icmp', 'ipv6-icmp': 'icmp' };

/**
 * The protocol a lower-case `-p` value names, as the tracer compares it with the packet's (`tcp`, `udp`, `sctp`,
 * `icmp`, or the value itself, which no packet has); undefined for `all` and 0, which any packet matches.
 */
export function protocolOfValue(raw: string): string | undefined {
  if (raw === 'all' || raw === '0') return undefined;
  return ownEntry(PROTO_NUMBERS, raw) ?? ownEntry(PROTO_ALIASES, raw) ?? raw;
}

/** Whether a lower-case `-p` value names ICMPv6 only (the packet's `icmp` is ICMPv6 in an IPv6 dump). */
export function isIcmpv6Value(raw: string): boolean {
  return raw === '58' || ownEntry(PROTO_ALIASES, raw) !== undefined;
}

/** Match modules whose `--dport` and `--sport` test the packet's ports, and only a packet of their protocol. */
export const PORT_MODULES: ReadonlySet<string> = new Set(['tcp', 'udp', 'sctp', 'udplite', 'dccp']);
