/**
 * The network-state model: what the route/address/conntrack/ipset parsers produce from pasted command output.
 * Everything is plain JSON data (no Map, no bigint) so the CLI can print it and the server can send it.
 * Positions are 0-based `{line, column, length}` into the original text.
 */
import type { Diagnostic, Span } from '../common/diagnostics';

/** Which kind of output a text (or a part of it) is. */
export type NetworkFormat = 'ip-route' | 'ip-route-get' | 'ip-rule' | 'ip-addr' | 'route-n' | 'conntrack' | 'ipset';

export const NETWORK_FORMATS: readonly NetworkFormat[] = [
  'ip-route',
  'ip-route-get',
  'ip-rule',
  'ip-addr',
  'route-n',
  'conntrack',
  'ipset',
];

/** Kernel route types as `ip route` names them (`unicast` is never printed: it is the default). */
export type RouteType =
  | 'unicast'
  | 'local'
  | 'broadcast'
  | 'multicast'
  | 'anycast'
  | 'blackhole'
  | 'unreachable'
  | 'prohibit'
  | 'throw'
  | 'nat';

/** Where a route's table name came from: the line itself, the command that printed it, or a guess. */
export type TableSource = 'explicit' | 'command' | 'inferred' | 'default';

/** Spans of the fields that hovers and diagnostics point at; a field's span exists when the field was written. */
export interface RouteSpans {
  type?: Span;
  destination?: Span;
  gateway?: Span;
  dev?: Span;
  src?: Span;
  proto?: Span;
  scope?: Span;
  metric?: Span;
  table?: Span;
}

/** One leg of a multipath route (`nexthop via 10.0.0.1 dev eth0 weight 1`). */
export interface Nexthop {
  line: number;
  span: Span;
  gateway?: string;
  dev?: string;
  weight?: number;
  /** `onlink`, `dead`, `linkdown`, ... */
  flags: string[];
  attributes: Record<string, string>;
  spans: { gateway?: Span; dev?: Span; weight?: Span };
}

export interface Route {
  line: number;
  /** The route text on its line. */
  span: Span;
  /** Which output the route was read from. */
  source: 'ip-route' | 'route-n';
  type: RouteType;
  family: 4 | 6;
  /** Normalised network, e.g. `0.0.0.0/0`, `10.233.84.1/32`, `fe80::/64`. */
  destination: string;
  /** The destination as written: `default`, `10.233.84.1`, `10.0.0.0/24` (route -n: the Destination column). */
  destinationText: string;
  prefixLength: number;
  gateway?: string;
  dev?: string;
  proto?: string;
  scope?: string;
  /** Preferred source address (`src`). */
  src?: string;
  metric?: number;
  /** `main` unless the line, the command or the route type says otherwise. */
  table: string;
  tableSource: TableSource;
  /** Route flags written as words: `linkdown`, `onlink`, `dead`, `pervasive`, `offload`, ... */
  flags: string[];
  /** Legs of a multipath route; empty for single-path routes. */
  nexthops: Nexthop[];
  /** Other attributes as written (`pref`, `mtu`, `expires`, `error`, `nhid`, ...). */
  attributes: Record<string, string>;
  /** Words the parser did not know, kept verbatim (each also has a diagnostic). */
  unknown: string[];
  /** `route -n` only: the Flags column (`UG`, `UH`, `!H`), Ref and Use columns. */
  routeFlags?: string;
  ref?: number;
  use?: number;
  /** True when the line was cut (e.g. a type word with no destination). */
  partial: boolean;
  spans: RouteSpans;
}

/** The `cache` line (or words) of `ip route get`. */
export interface RouteCache {
  line: number;
  span: Span;
  /** Words inside `<...>` such as `local`, `brd`. */
  flags: string[];
  attributes: Record<string, string>;
}

/** One answer of `ip route get ADDR`: the route the kernel picked, or the error it gave. */
export interface RouteGet {
  line: number;
  span: Span;
  type: RouteType;
  /** The address asked about: from the answer line, else from the command line. */
  destination?: string;
  family?: 4 | 6;
  gateway?: string;
  dev?: string;
  src?: string;
  /** `from` address (IPv6 answers and `ip route get X from Y`). */
  from?: string;
  proto?: string;
  scope?: string;
  table?: string;
  metric?: number;
  uid?: number;
  mark?: string;
  iif?: string;
  flags: string[];
  attributes: Record<string, string>;
  unknown: string[];
  cache?: RouteCache;
  /** The kernel's refusal, e.g. `Network is unreachable` from `RTNETLINK answers: Network is unreachable`. */
  error?: string;
  spans: RouteSpans & { error?: Span; uid?: Span };
}

/** What a policy rule does with a packet it matches. */
export type PolicyRuleAction = 'lookup' | 'goto' | 'blackhole' | 'unreachable' | 'prohibit' | 'nop';

/** One rule of `ip rule`: packets it matches are looked up in `table` (or dropped, or sent on to rule `goto`). */
export interface PolicyRule {
  line: number;
  span: Span;
  /** Lower first: the kernel tries rules in this order (0 local, 32766 main, 32767 default by default). */
  priority: number;
  family?: 4 | 6;
  /** `not from ...`: the rule applies to packets its selector does not match. */
  not: boolean;
  /** Source selector: `all` or a prefix. */
  from: string;
  to?: string;
  tos?: string;
  fwmark?: string;
  /** Mask of `fwmark 0x200/0xf00`; without one the whole mark is compared. */
  fwmask?: string;
  iif?: string;
  oif?: string;
  uidrange?: string;
  ipproto?: string;
  sport?: string;
  dport?: string;
  action: PolicyRuleAction;
  /** The table of a `lookup` rule (`main`, `local`, `default` or the number or name written). */
  table?: string;
  /** The priority a `goto` rule continues at. */
  goto?: number;
  /** `suppress_prefixlength N`: a route this table finds with a prefix of N bits or fewer is not taken. */
  suppressPrefixLength?: number;
  /** `detached` (iif/oif not present), `unresolved` (goto target missing), `l3mdev`. */
  flags: string[];
  /** Other keys as written: `realms`, `proto`, `tun_id`, `suppress_ifgroup`, ... */
  attributes: Record<string, string>;
  unknown: string[];
  spans: { priority: Span; from?: Span; to?: Span; fwmark?: Span; table?: Span; action?: Span };
}

export interface InterfaceAddress {
  line: number;
  span: Span;
  /** Name of the interface the address is on. */
  interface: string;
  family: 4 | 6;
  address: string;
  prefixLength: number;
  /** Normalised network of the address, e.g. `10.80.0.0/24`. */
  network: string;
  /** Point-to-point peer (`inet 10.0.0.1 peer 10.0.0.2/32`). */
  peer?: string;
  broadcast?: string;
  scope?: string;
  /** The IPv4 label (`eth0`, `eth0:1`). */
  label?: string;
  /** `dynamic`, `secondary`, `noprefixroute`, `tentative`, ... */
  flags: string[];
  validLft?: string;
  preferredLft?: string;
  attributes: Record<string, string>;
  spans: { address: Span; broadcast?: Span; scope?: Span; label?: Span; peer?: Span };
}

export interface NetworkInterface {
  /** Line of the interface header (or of its first `ip -o` / `ip -br` line). */
  line: number;
  span: Span;
  index?: number;
  name: string;
  /** The part after `@`: `if12` (a veth peer in another namespace) or a parent device name (`eth0.100@eth0`). */
  peer?: string;
  /** The peer's ifindex when written as `@ifN`. */
  peerIndex?: number;
  /** Words inside `<...>`: `BROADCAST`, `MULTICAST`, `UP`, `LOWER_UP`, `NOARP`, `NO-CARRIER`, ... */
  flags: string[];
  mtu?: number;
  qdisc?: string;
  master?: string;
  state?: string;
  group?: string;
  qlen?: number;
  mode?: string;
  /** From the `link/TYPE` line: `ether`, `loopback`, `none`, `ipip`, ... */
  linkType?: string;
  mac?: string;
  linkBroadcast?: string;
  linkNetnsId?: string;
  altnames: string[];
  addresses: InterfaceAddress[];
  attributes: Record<string, string>;
  /** Lines under the header that were not understood (e.g. `ip -d` details), kept verbatim. */
  details: string[];
  spans: { index?: Span; name: Span; peer?: Span; flags?: Span; mac?: Span; state?: Span; master?: Span; mtu?: Span };
}

export interface ConntrackTuple {
  span: Span;
  src?: string;
  dst?: string;
  sport?: number;
  dport?: number;
  /** ICMP type, code and id. */
  icmpType?: number;
  icmpCode?: number;
  icmpId?: number;
  packets?: number;
  bytes?: number;
  /** Other `key=value` words of this direction (`srckey`, `dstkey`, `zone-orig`, ...). */
  extra: Record<string, string>;
  spans: { src?: Span; dst?: Span; sport?: Span; dport?: Span };
}

/** An address (and port) rewritten by NAT, as conntrack's reply tuple shows it. */
export interface NatTranslation {
  fromAddress?: string;
  fromPort?: number;
  toAddress?: string;
  toPort?: number;
}

export interface ConntrackEntry {
  line: number;
  span: Span;
  /** `NEW`, `UPDATE`, `DESTROY` for `conntrack -E` lines. */
  event?: string;
  /** `[1617711432.123456]` timestamps of `conntrack -E -o timestamp`. */
  timestamp?: string;
  /** `ipv4`/`ipv6` from `/proc/net/nf_conntrack` or `-o extended`. */
  l3?: string;
  protocol: string;
  protocolNumber?: number;
  /** Seconds left; absent on DESTROY events. */
  timeout?: number;
  /** Protocol state for tcp/sctp/dccp (`ESTABLISHED`, `TIME_WAIT`, `COOKIE_WAIT`, ...). */
  state?: string;
  original: ConntrackTuple;
  reply?: ConntrackTuple;
  /** Bracketed flags other than the event: `ASSURED`, `UNREPLIED`, `OFFLOAD`, ... */
  flags: string[];
  assured: boolean;
  unreplied: boolean;
  mark?: string;
  zone?: string;
  use?: number;
  id?: string;
  extra: Record<string, string>;
  /** Destination NAT: the reply comes from someone other than the original destination. */
  dnat?: NatTranslation;
  /** Source NAT: the reply goes to someone other than the original source. */
  snat?: NatTranslation;
  /** True when the line was cut (e.g. its protocol name is missing) or has no reply tuple. */
  partial: boolean;
  spans: { event?: Span; protocol?: Span; state?: Span; timeout?: Span };
}

/** `conntrack v1.4.4 (conntrack-tools): 38 flow entries have been shown.` */
export interface ConntrackSummary {
  line: number;
  span: Span;
  version?: string;
  count?: number;
  kind: 'entries' | 'events';
}

export interface IpSetHeader {
  family?: string;
  hashsize?: number;
  maxelem?: number;
  timeout?: number;
  /** Other header words: `bucketsize`, `initval`, `range`, `netmask`, flags like `comment`/`counters`. */
  extra: Record<string, string>;
}

export interface IpSetMember {
  line: number;
  span: Span;
  /** The member as written (first word), e.g. `10.68.135.246,tcp:39080`. */
  text: string;
  /** The comma-separated parts of `text`. */
  elements: string[];
  /** First IP or CIDR of the member. */
  address?: string;
  protocol?: string;
  port?: number;
  /** Third part of `hash:ip,port,ip` / `hash:ip,port,net` members, or the iface of `hash:net,iface`. */
  second?: string;
  /** Options after the member: `timeout`, `packets`, `bytes`, `comment`, `nomatch`, ... */
  options: Record<string, string>;
}

/** What kube-proxy uses a set for, when the set name is one kube-proxy's IPVS mode creates. */
export interface KubeProxySetInfo {
  /** The IPv4 name of the set (`KUBE-6-CLUSTER-IP` gives `KUBE-CLUSTER-IP`). */
  canonicalName: string;
  ipv6: boolean;
  /** i18n key of a one-line purpose, in `core/i18n/messages/netstate.ts`. */
  purposeKey: string;
}

export interface IpSet {
  line: number;
  span: Span;
  name: string;
  type?: string;
  revision?: number;
  header: IpSetHeader;
  sizeInMemory?: number;
  references?: number;
  /** `Number of entries:` as printed (may exceed `members.length` when the paste was cut). */
  numberOfEntries?: number;
  members: IpSetMember[];
  kubeProxy?: KubeProxySetInfo;
  spans: { name: Span; type?: Span };
}

/** A shell command seen in the paste (prompt line or bare command) and the output kind it announces. */
export interface CommandLine {
  line: number;
  span: Span;
  command: string;
  format?: NetworkFormat;
}

export interface NetworkState {
  /** The kinds of output found, the one with the most lines first. */
  formats: NetworkFormat[];
  routes: Route[];
  routeGets: RouteGet[];
  /** `ip rule` output: the policy rules, in the order listed (which is priority order). */
  policyRules: PolicyRule[];
  interfaces: NetworkInterface[];
  conntrack: ConntrackEntry[];
  conntrackSummaries: ConntrackSummary[];
  ipsets: IpSet[];
  commands: CommandLine[];
  diagnostics: Diagnostic[];
}
