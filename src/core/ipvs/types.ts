/**
 * The IPVS dump model: what `parseIpvs` produces from pasted `ipvsadm` output and every other IPVS module reads.
 * Fields that a given ipvsadm output does not print (e.g. the scheduler in `--stats`, counters in `-S`) are
 * left undefined rather than guessed.
 */
import type { Diagnostic, Span } from '../common/diagnostics';
import type { IpvsTokens } from './tokenStore';

export type { EndpointRole, IpvsToken, IpvsTokenKind } from './tokenTypes';

export type IpvsProtocol = 'TCP' | 'UDP' | 'SCTP' | 'FWM';
export type ForwardMethod = 'Masq' | 'Route' | 'Tunnel' | 'Local';

/**
 * Which ipvsadm output a block of lines is. `list` is `-Ln`; `stats`, `rate`, `thresholds`, `persistent-conn`
 * are `-Ln --stats` etc.; `connections` is `-Lnc`; `save` is `-S` / restore input; `timeout` is `-L --timeout`;
 * `daemon` is `-L --daemon`.
 */
export type IpvsLayout =
  'list' | 'stats' | 'rate' | 'thresholds' | 'persistent-conn' | 'connections' | 'timeout' | 'daemon' | 'save';

/** The whole dump's format: one layout, several (`mixed`, e.g. a session transcript), or none recognised. */
export type IpvsFormat = IpvsLayout | 'mixed' | 'unknown';

/** `--stats` columns; values are expanded from ipvsadm's K/M/G/T suffixes (powers of 1000). */
export interface IpvsStats {
  conns: number;
  inPkts: number;
  outPkts: number;
  inBytes: number;
  outBytes: number;
  /** True when a value was printed with a K/M/G/T suffix and so is rounded down. */
  approximate: boolean;
  /** Conns, InPkts or OutPkts among the rounded ones (the figures explanations quote). */
  countsApproximate?: boolean;
}

/** `--rate` columns (per second). */
export interface IpvsRates {
  cps: number;
  inPps: number;
  outPps: number;
  inBps: number;
  outBps: number;
  approximate: boolean;
}

export interface IpvsThresholds {
  upper: number;
  lower: number;
}

export interface RealServer {
  /** Address without brackets (`fd00::1`), or a host name when ipvsadm ran without `-n`. */
  address: string;
  /**
   * Port; 0 for fwmark services where the packet's own port is kept; undefined when ipvsadm without `-n` printed a
   * port name this reader cannot map (`portName`): 0 would say "the service's port".
   */
  port?: number;
  /** The port name as ipvsadm printed it, when it has no known number. */
  portName?: string;
  forward?: ForwardMethod;
  weight?: number;
  activeConn?: number;
  inactConn?: number;
  /** `--persistent-conn`: connections held by persistence templates. */
  persistConn?: number;
  stats?: IpvsStats;
  rates?: IpvsRates;
  thresholds?: IpvsThresholds;
  /** Tunnel options from the save format (`--tun-type gue --tun-port 6080`). */
  tunnel?: { type?: string; port?: number; flags: string[] };
  /** True when the line ended before all its columns (a cut paste). */
  truncated?: boolean;
  line: number;
  span: Span;
}

export interface VirtualService {
  protocol: IpvsProtocol;
  address?: string;
  port?: number;
  fwmark?: number;
  /** 4 or 6 when known from the address or `IPv6` / `-6` on fwmark services. */
  family?: 4 | 6;
  scheduler?: string;
  /** Scheduler flags (`sh-fallback`, `sh-port`, `mh-fallback`, `mh-port`, `flag-N`) and `ops`. */
  flags: string[];
  /** Persistence timeout in seconds (`persistent 10800`, kube-proxy's sessionAffinity ClientIP). */
  persistent?: number;
  /** Persistence granularity: a dotted IPv4 mask or an IPv6 prefix length, as printed. */
  netmask?: string;
  /** Persistence engine (`pe sip`). */
  pe?: string;
  realServers: RealServer[];
  stats?: IpvsStats;
  rates?: IpvsRates;
  truncated?: boolean;
  line: number;
  span: Span;
}

export interface ConnectionEndpoint {
  address: string;
  port?: number;
}

export interface ConnectionEntry {
  /** As printed: TCP, UDP, SCTP, or another IP protocol name. */
  protocol: string;
  /** Seconds until the entry expires (`mm:ss` in the output). */
  expire: number;
  state: string;
  source?: ConnectionEndpoint;
  virtual?: ConnectionEndpoint;
  destination?: ConnectionEndpoint;
  /** `--persistent-conn` extra columns. */
  peName?: string;
  peData?: string;
  truncated?: boolean;
  line: number;
  span: Span;
}

export interface IpvsHeader {
  version: string;
  /** Connection hash table size (buckets). */
  size: number;
  line: number;
  span: Span;
}

/** Values missing from a cut line are left undefined. */
export interface IpvsTimeouts {
  tcp?: number;
  tcpFin?: number;
  udp?: number;
  line: number;
  span: Span;
}

export interface SyncDaemon {
  state: 'master' | 'backup';
  mcastInterface?: string;
  syncId?: number;
  line: number;
  span: Span;
}

export type IpvsLineKind =
  | 'blank'
  | 'prompt'
  | 'command'
  | 'comment'
  | 'ellipsis'
  | 'header'
  | 'columnHeader'
  | 'service'
  | 'realServer'
  | 'orphanRealServer'
  | 'connection'
  | 'timeout'
  | 'daemon'
  | 'saveService'
  | 'saveRealServer'
  | 'saveOther'
  | 'error'
  | 'refusal' // ipvsadm's answer to a command it refused (`No such service`): no sign of a dump by itself
  | 'foreign' // output of another command in a session transcript
  | 'unknown';

/** What a restore-input `-D`, `-d` or `-C` line took out of the table (kept for its explanations). */
export interface IpvsRemoval {
  /** 0-based line of the `-D` / `-d` / `-C`. */
  line: number;
  service: VirtualService;
  /** Set for `-d`: the real server taken out of `service`. */
  realServer?: RealServer;
}

export interface IpvsLine {
  kind: IpvsLineKind;
  /** The meaningful part of the line (prompt-free text without indentation or trailing blanks). */
  span: Span;
  /** The layout in force for this line (from a command, a column header, or the line's own shape). */
  layout?: IpvsLayout;
  service?: number;
  realServer?: number;
  orphan?: number;
  connection?: number;
  /**
   * Index into `IpvsDump.removals`: on a `-D`/`-d` line, what it took out; on the `-A`/`-a` line of an entry a
   * later line took out (its `service`/`realServer` are then unset: the entry is not in the final table).
   */
  removal?: number;
}

export interface IpvsDump {
  format: IpvsFormat;
  header?: IpvsHeader;
  services: VirtualService[];
  connections: ConnectionEntry[];
  timeouts?: IpvsTimeouts;
  daemons: SyncDaemon[];
  /** Real servers listed before any virtual service (a paste that starts mid-list). */
  orphanRealServers: RealServer[];
  /** True when `--exact` was seen, so counters are not rounded. */
  exact: boolean;
  diagnostics: Diagnostic[];
  /** In document order, found by line (`onLine`). */
  tokens: IpvsTokens;
  /** One entry per line of the input, same index. */
  lines: IpvsLine[];
  /** Entries restore input took out again (`-D`, `-d`, `-C`), in line order; `services` is what is left. */
  removals: IpvsRemoval[];
}
