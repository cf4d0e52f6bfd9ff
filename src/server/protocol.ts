/**
 * Custom requests between the extension and the language server, declared once and imported by both sides.
 * Lines in these messages are 0-based (LSP style).
 */
import { RequestType } from 'vscode-languageserver-protocol';
import { METHODS } from './protocolNames';

export { COMMANDS, type CommandId } from './protocolNames';

export interface TracePacketParams {
  uri: string;
  src: string;
  /** Destination `ip:port` or `[v6]:port`. */
  dst: string;
  proto?: 'tcp' | 'udp' | 'sctp';
  hook?: 'prerouting' | 'output';
  inIface?: string;
  localAddresses?: string[];
  /** The language of the answer's texts; default the server's (a view that follows a language change asks again). */
  lang?: 'en' | 'zh-CN';
}

export interface TraceStepResult {
  table: string;
  chain: string;
  /** 0-based line, or -1 for a step the dump has no line for (an implied kube-proxy jump). */
  line: number;
  rule: string;
  action: string;
  note?: string;
  /** A run of `count` statistic rules not taken, from `line` to `lastLine` (0-based). */
  skipped?: { count: number; lastLine: number };
}

/** A step several paths take, after the shared step `parent` (-1: their first step). */
export interface TraceSharedStepResult extends TraceStepResult {
  parent: number;
}

export interface TracePathResult {
  probability: number;
  verdict: string;
  dnat: { ip: string; port: number | null } | null;
  /**
   * IPVS direct routing, tunnelling or local delivery: the real server the packet is handed to with its
   * destination (the VIP) unchanged, so `dnat` is null although the packet does reach a backend.
   */
  forward?: { ip: string; port?: number; method: string };
  masquerade: boolean;
  /**
   * Index in `TracePacketResult.sharedSteps` of the last step this path has in common with others; absent or -1
   * when it shares none. Its full walk is that step's parent chain (reversed), then `steps`.
   */
  prefix?: number;
  /** The path's steps after `prefix` (all of them when it has none). */
  steps: TraceStepResult[];
  /** What the path assumed besides its `given`. */
  assumptions: string[];
  /**
   * Undecided facts the path took a side on ("if 10.96.0.10 is an address of this node"): the path applies when
   * they hold (absent: always). Not draws: under any answer to them, the probabilities of the paths that apply
   * (kube-proxy's random draws) sum to 1.
   */
  given?: string[];
  /** The endpoint chain (KUBE-SEP-...) the path was DNATed in. */
  endpointChain?: string;
}

export interface TracePacketResult {
  /** One line summary in the server's language. */
  summary: string;
  paths: TracePathResult[];
  /** Steps two or more paths take, listed once (parents first); absent when paths share none. */
  sharedSteps?: TraceSharedStepResult[];
  warnings: string[];
  /** A limit stopped the trace early; its message is also among `warnings`. */
  truncated?: { reason: string; limit: number; paths: number; probability: number; message: string };
  /** Lines of rules the packet matched on any path, for highlighting. */
  matchedLines: number[];
  /** The node addresses the trace used: the request's, or those of an `ip addr` section of the document. */
  localAddresses?: { addresses: string[]; from: 'request' | 'paste' };
  /** Paths fork on whether an address is the node's own: the node's addresses would decide them. */
  needsLocalAddresses?: boolean;
}

export const TracePacketRequest = new RequestType<TracePacketParams, TracePacketResult, void>(METHODS.tracePacket);

export interface ServiceTarget {
  name: string;
  protocol: string;
  /** `ip:port` the packet would go to. */
  destination: string;
  kind: 'cluster IP' | 'external IP' | 'load balancer IP' | 'node port' | 'ipvs virtual service';
  line: number;
  endpoints: number;
}

export interface ListTargetsParams {
  uri: string;
}

/** The Services (or IPVS virtual services) found in a dump, offered as trace destinations. */
export const ListTargetsRequest = new RequestType<ListTargetsParams, ServiceTarget[], void>(METHODS.listTargets);

/** Settings the server reads (section `kubePacketPath`). */
export interface ServerSettings {
  language: 'auto' | 'en' | 'zh-CN';
}

export interface DetectLanguageParams {
  /** The head of the document (the detector reads its first `DETECTION_SAMPLE_LINES` lines; send no more). */
  text: string;
}

export interface DetectLanguageResult {
  /** What the text is: `iptables`, `ipvs`, `network`, `nft` (rules without their table) or `unknown`. */
  kind: 'iptables' | 'ipvs' | 'network' | 'nft' | 'unknown';
  /** 0..1, share of the lines the chosen family recognises. */
  confidence: number;
  /** The editor language to open it in, when the engine reads it. */
  languageId?: string;
  /** `sure`: switch by itself; `likely`: offer; `no`: leave it. */
  certainty: 'sure' | 'likely' | 'no';
}

/** What a text is, decided by the engine's detector on its first lines (any text; the document need not be open). */
export const DetectLanguageRequest = new RequestType<DetectLanguageParams, DetectLanguageResult, void>(
  METHODS.detectLanguage,
);
