/**
 * The packet as the tracer sees it while it walks: addresses as numbers, NAT and conntrack facts, marks.
 * One `PacketState` per path; forks copy it. Its own module so the packet checks (`packet.ts`) and the ipset
 * reader (`ipsets.ts`) both read it without importing each other.
 */
import type { TraceProto } from './types';

export interface Endpoint {
  ip: string;
  port?: number;
}

export interface PacketState {
  src: bigint;
  dst: bigint;
  sport?: number;
  dport: number;
  proto: TraceProto;
  /** Before any NAT: conntrack's original tuple. */
  origSrc: bigint;
  origDst: bigint;
  origDport: number;
  /** `undefined`: not known (rules naming one fork); `''`: the packet has none at this point. */
  inIface?: string;
  outIface?: string;
  mark: number;
  ctmark: number;
  dnatDone: boolean;
  snatDone: boolean;
  untracked: boolean;
  /** REDIRECT sends the packet to the node itself whatever its address. */
  redirectedLocal: boolean;
  dnat: Endpoint | null;
  snat: Endpoint | null;
  masquerade: boolean;
}
