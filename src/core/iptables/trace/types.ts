/**
 * Public shapes of the packet tracer. Texts (notes, assumptions, warnings) come twice: rendered in the requested
 * language (`note`, `assumptions`, `warnings`) and as stable codes with parameters (`*Message(s)`), so a face that
 * switches language later can re-render them with `renderTraceMessage` without tracing again.
 */
import type { Lang } from '../../i18n/catalog';
import type { KnownSet } from './ipsets';

export type TraceProto = 'tcp' | 'udp' | 'sctp' | 'icmp';
export type TraceHook = 'prerouting' | 'output';

export interface Packet {
  src: string;
  dst: string;
  dport: number;
  /** Unknown when absent: rules that test it fork with an assumption. */
  sport?: number;
  proto: TraceProto;
  /** `prerouting`: arrives on an interface (from a pod or the network); `output`: sent by a process on the node. */
  hook: TraceHook;
  inIface?: string;
  outIface?: string;
  mark?: number;
  /** The node's own addresses: decide routing (INPUT vs FORWARD) and `addrtype LOCAL`. */
  localAddresses?: string[];
}

/** A stable message code (the catalog key without the `trace.` prefix) and its parameters. */
export interface TraceMessage {
  code: string;
  params: Record<string, string | number>;
}

export type TraceAction =
  'match' | 'jump' | 'goto' | 'return' | 'policy' | 'fork' | 'terminal' | 'mark' | 'nat' | 'continue';

export interface TraceStep {
  table: string;
  chain: string;
  /** 0-based line of the rule or chain declaration; -1 when the step has no text in the dump (implied jumps). */
  line: number;
  ruleId?: number;
  /** Rule text, or a policy description for `policy` steps. */
  rule: string;
  action: TraceAction;
  note?: string;
  noteMessage?: TraceMessage;
}

export type TraceVerdict = 'ACCEPT' | 'DROP' | 'REJECT' | 'QUEUE' | 'UNKNOWN';

/** Where the packet went after the routing decision, when the path got that far. */
export type TraceRoute = 'input' | 'forward' | 'output';

export interface TracePath {
  probability: number;
  verdict: TraceVerdict;
  dnat: { ip: string; port?: number } | null;
  snat: { ip: string; port?: number } | null;
  masquerade: boolean;
  /** Packet mark at the end of the path. */
  mark: number;
  route?: TraceRoute;
  steps: TraceStep[];
  /**
   * Facts the path had to assume (ipset membership, local addresses, unknown modules...). Each such unknown splits
   * its path 50/50 so probabilities still sum to 1; only `statistic` forks carry real probabilities.
   */
  assumptions: string[];
  assumptionMessages: TraceMessage[];
}

export interface TraceResult {
  packet: Packet;
  paths: TracePath[];
  warnings: string[];
  warningMessages: TraceMessage[];
}

export interface TraceOptions {
  /** Language of the rendered texts; default English. */
  lang?: Lang;
  /** Stop forking beyond this many paths (default 4096). */
  maxPaths?: number;
  /** Chain nesting depth (jumps + gotos) that counts as a loop (default 64). */
  maxDepth?: number;
  /** Rule evaluations per trace before giving up (default 2,000,000). */
  maxEvaluations?: number;
  /** Members of ipsets (an `ipset list` pasted with the dump): `-m set` is decided by them instead of assumed. */
  ipsets?: readonly KnownSet[];
}
