/**
 * Public shapes of the packet tracer. Texts (notes, assumptions, warnings) come twice: rendered in the requested
 * language (`note`, `assumptions`, `warnings`) and as stable codes with parameters (`*Message(s)`), so a face that
 * switches language later can re-render them with `renderTraceMessage` without tracing again.
 */
import type { Lang } from '../../i18n/catalog';

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
  /**
   * A run of consecutive `statistic --mode random` rules of one chain that the path did not take (a load-balancing
   * ladder), kept as one step: `line`/`ruleId`/`rule` are the first of them, `lastLine` (0-based) the last. Set
   * from two rules on (one rule not taken is an ordinary `fork` step). Without it a path to the k-th endpoint
   * would repeat k-1 such steps, and a trace would grow with n².
   */
  skipped?: { count: number; lastLine: number };
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
  /**
   * Every step of the path from the first: the shared steps up to `prefix`, then `ownSteps`. Built when first
   * read (it costs the path's length); faces that show many paths read `prefix`, `ownSteps` and
   * `TraceResult.sharedSteps` instead, so a trace of n paths costs O(n) and not n times its common part.
   */
  readonly steps: TraceStep[];
  /**
   * Index in `TraceResult.sharedSteps` of the last step this path has in common with another path (where it
   * leaves the shared tree); -1 when it shares none.
   */
  prefix: number;
  /** The steps of this path after `prefix`, which no other path takes. */
  ownSteps: TraceStep[];
  /**
   * Facts the path had to assume (ipset membership, local addresses, unknown modules, a policy the paste left
   * out...), rendered and as codes.
   */
  assumptions: string[];
  assumptionMessages: TraceMessage[];
  /**
   * The facts the dump cannot decide that this path took a side on, as conditions ("if 10.96.0.10 is an address
   * of this node"), rendered and as codes (`if.*`; `givenMessages` keeps the `assume.*` codes). Such a fork is
   * not a coin flip: the paths with the same `given` are one alternative, and `probability` is the path's share
   * within it (from `statistic` / `numgen` draws), so each alternative's probabilities sum to 1. Empty when the
   * path assumed nothing undecided.
   */
  given: string[];
  givenMessages: TraceMessage[];
}

/** A step that two or more paths take, after the shared step `parent` (-1: it is their first step). */
export interface TraceSharedStep {
  step: TraceStep;
  parent: number;
}

export type TraceLimit = 'paths' | 'facts' | 'evaluations' | 'steps' | 'time';

/** A limit stopped the trace before every path ended; the cut paths end as UNKNOWN (probabilities still sum to 1). */
export interface TraceTruncation {
  reason: TraceLimit;
  /** The limit's value: paths, undecided facts on one path, rule evaluations, steps, or milliseconds. */
  limit: number;
  /** How many paths the limit cut short (their verdict is UNKNOWN). */
  paths: number;
  /**
   * Their probabilities added up. Paths under different `given` are alternatives, not shares of one whole, so past
   * a fork on an undecided fact this is no probability (it can exceed 1); the message does not show it.
   */
  probability: number;
  /** Rendered in the trace's language, and as a code with parameters (`renderTraceMessage`). */
  message: string;
  messageCode: TraceMessage;
}

export interface TraceResult {
  packet: Packet;
  paths: TracePath[];
  /**
   * The steps paths have in common, as a tree (each names its parent; parents come first). A path's steps are
   * the chain from its `prefix` up to the root, reversed, then its `ownSteps`.
   */
  sharedSteps: TraceSharedStep[];
  warnings: string[];
  warningMessages: TraceMessage[];
  /** Set when a limit (paths, evaluations, steps, time) stopped the trace early. */
  truncated?: TraceTruncation;
}

export interface TraceOptions {
  /** Language of the rendered texts; default English. */
  lang?: Lang;
  /** Stop forking beyond this many paths (default 16,384: a Service with thousands of endpoints traces whole). */
  maxPaths?: number;
  /**
   * Undecided facts one path may take sides on (default 10): each doubles the paths, so past this the path ends
   * as UNKNOWN instead of forking again (an `ipset list` or the node's addresses in the paste decide them).
   */
  maxFacts?: number;
  /** Rule evaluations per trace before giving up (default 2,000,000). */
  maxEvaluations?: number;
  /** Steps recorded per trace (shared steps count once) before giving up (default 500,000). */
  maxSteps?: number;
  /** Wall time per trace in milliseconds before giving up (default 10,000). */
  maxMillis?: number;
  /** The clock `maxMillis` is measured with, in milliseconds (default `Date.now`); tests pass their own. */
  now?: () => number;
  /** Members of ipsets (an `ipset list` pasted with the dump): `-m set` is decided by them instead of assumed. */
  ipsets?: readonly KnownSet[];
}

/** A set as `ipset list` shows it (the network parser's `IpSet` fits). */
export interface KnownSet {
  name: string;
  type?: string;
  /** `Number of entries:` as printed; more than the members listed means the paste was cut. */
  numberOfEntries?: number;
  members: readonly { elements: readonly string[] }[];
}
