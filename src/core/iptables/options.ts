/**
 * What the parser knows about iptables options: canonical names and how many arguments each takes.
 * One place for these facts; the explainer and linter read the same tables.
 */
import { ownEntry } from '../common/own';

/** Short and alias spellings of generic options, mapped to their canonical long name. */
export const GENERIC_OPTION_NAMES: Readonly<Record<string, string>> = {
  '-s': 'source',
  '--source': 'source',
  '--src': 'source',
  '-d': 'destination',
  '--destination': 'destination',
  '--dst': 'destination',
  '-p': 'protocol',
  '--protocol': 'protocol',
  '-i': 'in-interface',
  '--in-interface': 'in-interface',
  '-o': 'out-interface',
  '--out-interface': 'out-interface',
  '-f': 'fragment',
  '--fragment': 'fragment',
  '-4': 'ipv4',
  '--ipv4': 'ipv4',
  '-6': 'ipv6',
  '--ipv6': 'ipv6',
};

/** The family options' spellings (`-4`, `--ipv6`) and the family each names. */
export const FAMILY_OPTIONS: ReadonlyMap<string, 4 | 6> = new Map([
  ['-4', 4],
  ['--ipv4', 4],
  ['-6', 6],
  ['--ipv6', 6],
]);

/**
 * The family option written at text[at, at + length) (`-4`, `--ipv6`), or undefined. iptables-restore takes one
 * before a line's command as well as after it (`-4 -A FWR ...`, as a rules file for both tools writes them).
 */
export function familyOptionAt(text: string, at: number, length: number): 4 | 6 | undefined {
  if (text.charCodeAt(at) !== 45 || (length !== 2 && length !== 6)) return undefined;
  return FAMILY_OPTIONS.get(text.slice(at, at + length));
}

/** Long-option aliases inside match modules (`--destination-port` is `--dport`). */
export const OPTION_ALIASES: Readonly<Record<string, string>> = {
  'destination-port': 'dport',
  'source-port': 'sport',
  'destination-ports': 'dports',
  'source-ports': 'sports',
  ctstate: 'ctstate',
};

/** Options that take no argument. */
export const FLAG_OPTIONS = new Set([
  'fragment',
  'ipv4',
  'ipv6',
  'syn',
  'rcheck',
  'set',
  'update',
  'remove',
  'rsource',
  'rdest',
  'reap',
  'rttl',
  'random',
  'random-fully',
  'persistent',
  'limit-iface-in',
  'limit-iface-out',
  'log-uid',
  'log-tcp-sequence',
  'log-tcp-options',
  'log-ip-options',
  'log-macdecode',
  'checksum-fill',
  'notrack',
  'clamp-mss-to-pmtu',
  'physdev-is-in',
  'physdev-is-out',
  'physdev-is-bridged',
  'return-nomatch',
  'restore-mark',
  'save-mark',
  'kerneltz',
  'nodst',
  'queue-bypass',
  'fully-random',
  'validmark',
  'invert',
  'loose',
  'accept-local',
  // Flags of other extensions (iptables-extensions(8)): socket, owner, set/SET, connlimit, string, NFQUEUE,
  // ipvs, ecn, policy, time, SYNPROXY, frag, rt.
  'transparent',
  'nowildcard',
  'restore-skmark',
  'socket-exists',
  'suppl-groups',
  'exist',
  'update-counters',
  'update-subcounters',
  'connlimit-saddr',
  'connlimit-daddr',
  'icase',
  'fail-open',
  'queue-cpu-fanout',
  'ipvs',
  'ecn-tcp-cwr',
  'ecn-tcp-ece',
  'strict',
  'next',
  'contiguous',
  'utc',
  'localtz',
  'sack-perm',
  'timestamp',
  'ecn',
  'fragfirst',
  'fragmore',
  'fraglast',
  'fragres',
  'rt-0-not-strict',
]);

/** Options that take two arguments. */
export const TWO_ARG_OPTIONS = new Set(['set-counters', 'match-set', 'tcp-flags']);

/** Generic options that are valid before any `-m` and do not belong to a module. */
export const GENERIC_CANONICAL = new Set(Object.values(GENERIC_OPTION_NAMES));

const canonicalCache = new Map<string, string>();

export function canonicalOptionName(written: string): string {
  let name = canonicalCache.get(written);
  if (name === undefined) {
    const bare = written.replace(/^--?/, '');
    name = ownEntry(GENERIC_OPTION_NAMES, written) ?? ownEntry(OPTION_ALIASES, bare) ?? bare;
    // Option spellings are few; the cache stays small even on huge dumps.
    if (canonicalCache.size < 4096) canonicalCache.set(written, name);
  }
  return name;
}

/**
 * Options whose value is free text: iptables takes the word after them whatever it looks like (getopt), and
 * iptables-save writes a value of letters, digits, `-` and `_` unquoted (`--comment -A`), so such a value may be
 * spelt like an option. Other options' values never are: a word like an option after them is the next option.
 */
const TEXT_VALUE_OPTIONS = new Set(['comment', 'log-prefix', 'nflog-prefix', 'string', 'name', 'hashlimit-name']);

/** Whether the option's value may be any word, one spelt like an option too (see TEXT_VALUE_OPTIONS). */
export function takesAnyWordAsValue(canonical: string): boolean {
  return TEXT_VALUE_OPTIONS.has(canonical);
}

export function optionArity(canonical: string): 0 | 1 | 2 {
  if (FLAG_OPTIONS.has(canonical)) return 0;
  if (TWO_ARG_OPTIONS.has(canonical)) return 2;
  return 1;
}

/**
 * Options of the iptables command itself, not of the rule (`iptables -t nat -w 5 -A ...`, also written after the
 * rule command), and how many values each takes: -1 for `-w`'s optional number of seconds. `--table=nat` and
 * `--wait=5` carry theirs.
 */
export const COMMAND_OPTION_VALUES: ReadonlyMap<string, -1 | 0 | 1> = new Map<string, -1 | 0 | 1>([
  ['-t', 1],
  ['--table', 1],
  ['-w', -1],
  ['--wait', -1],
  ['-W', 1],
  ['--wait-interval', 1],
  ['-v', 0],
  ['--verbose', 0],
  ['--modprobe', 1],
]);

/** The commands a rule line holds, as iptables spells them, and what each does with its rule. */
export const RULE_COMMAND_OF: ReadonlyMap<string, 'append' | 'insert' | 'delete' | 'replace' | 'check'> = new Map([
  ['-A', 'append'],
  ['--append', 'append'],
  ['-I', 'insert'],
  ['--insert', 'insert'],
  ['-D', 'delete'],
  ['--delete', 'delete'],
  ['-R', 'replace'],
  ['--replace', 'replace'],
  ['-C', 'check'],
  ['--check', 'check'],
] as const);
/** Those that change the chain (`-C` only checks): a line holds one; a second is no option of the first. */
export const RULE_CHANGING_COMMANDS: readonly string[] = [...RULE_COMMAND_OF]
  .filter(([, c]) => c !== 'check')
  .map(([w]) => w);

/** Protocols whose options (`--dport`, `--sport`, ...) iptables loads implicitly after `-p`. */
export const IMPLICIT_PROTOCOL_MODULES = new Set(['tcp', 'udp', 'sctp', 'icmp', 'icmpv6', 'udplite', 'dccp']);

/** Targets provided by xtables extensions (not chains). A target that is neither these, nor standard, is a chain. */
export const EXTENSION_TARGETS = new Set([
  'DNAT',
  'SNAT',
  'MASQUERADE',
  'REDIRECT',
  'NETMAP',
  'MARK',
  'CONNMARK',
  'CONNSECMARK',
  'SECMARK',
  'LOG',
  'NFLOG',
  'ULOG',
  'NFQUEUE',
  'QUEUE',
  'REJECT',
  'CT',
  'NOTRACK',
  'CHECKSUM',
  'TPROXY',
  'TRACE',
  'TCPMSS',
  'TOS',
  'DSCP',
  'TTL',
  'HL',
  'CLASSIFY',
  'CLUSTERIP',
  'SET',
  'AUDIT',
  'IDLETIMER',
  'LED',
  'RATEEST',
  'TEE',
  'HMARK',
  'SYNPROXY',
  'ECN',
  'TCPOPTSTRIP',
  'DNPT',
  'SNPT',
  'MIRROR',
  'NOP',
  // nft's verdict maps, as the nft reader writes them (`vmap @service-ips`, `numgen random mod N vmap { ... }`).
  'VMAP',
  'NUMGEN',
]);

/**
 * Match modules and the options each accepts (canonical names). Lint flags modules and options not listed;
 * the explainer has a sentence for each (`iptables.module.<name>`, `iptables.option.<module>.<option>`).
 */
export const MODULE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  '': ['source', 'destination', 'protocol', 'in-interface', 'out-interface', 'fragment', 'ipv4', 'ipv6'],
  tcp: ['dport', 'sport', 'tcp-flags', 'syn', 'tcp-option'],
  udp: ['dport', 'sport'],
  sctp: ['dport', 'sport', 'chunk-types'],
  udplite: ['dport', 'sport'],
  dccp: ['dport', 'sport', 'dccp-types', 'dccp-option'],
  icmp: ['icmp-type'],
  icmpv6: ['icmpv6-type'],
  icmp6: ['icmpv6-type'],
  comment: ['comment'],
  statistic: ['mode', 'probability', 'every', 'packet'],
  mark: ['mark'],
  connmark: ['mark'],
  conntrack: [
    'ctstate',
    'ctproto',
    'ctorigsrc',
    'ctorigdst',
    'ctreplsrc',
    'ctrepldst',
    'ctorigsrcport',
    'ctorigdstport',
    'ctreplsrcport',
    'ctrepldstport',
    'ctstatus',
    'ctexpire',
    'ctdir',
  ],
  state: ['state'],
  addrtype: ['src-type', 'dst-type', 'limit-iface-in', 'limit-iface-out'],
  multiport: ['dports', 'sports', 'ports'],
  set: [
    'match-set',
    'return-nomatch',
    'update-counters',
    'update-subcounters',
    'packets-eq',
    'packets-lt',
    'packets-gt',
    'bytes-eq',
    'bytes-lt',
    'bytes-gt',
  ],
  recent: [
    'name',
    'set',
    'rcheck',
    'update',
    'remove',
    'seconds',
    'reap',
    'hitcount',
    'rttl',
    'rsource',
    'rdest',
    'mask',
  ],
  physdev: ['physdev-in', 'physdev-out', 'physdev-is-in', 'physdev-is-out', 'physdev-is-bridged'],
  owner: ['uid-owner', 'gid-owner', 'socket-exists', 'suppl-groups'],
  limit: ['limit', 'limit-burst'],
  hashlimit: [
    'hashlimit-upto',
    'hashlimit-above',
    'hashlimit-burst',
    'hashlimit-mode',
    'hashlimit-srcmask',
    'hashlimit-dstmask',
    'hashlimit-name',
    'hashlimit-htable-size',
    'hashlimit-htable-max',
    'hashlimit-htable-expire',
    'hashlimit-htable-gcinterval',
    'hashlimit',
  ],
  mac: ['mac-source'],
  iprange: ['src-range', 'dst-range'],
  length: ['length'],
  ttl: ['ttl-eq', 'ttl-gt', 'ttl-lt'],
  hl: ['hl-eq', 'hl-gt', 'hl-lt'],
  tos: ['tos'],
  dscp: ['dscp', 'dscp-class'],
  pkttype: ['pkt-type'],
  string: ['algo', 'string', 'hex-string', 'from', 'to', 'icase'],
  u32: ['u32'],
  rpfilter: ['loose', 'validmark', 'accept-local', 'invert'],
  socket: ['transparent', 'nowildcard', 'restore-skmark'],
  policy: ['dir', 'pol', 'strict', 'reqid', 'spi', 'proto', 'mode', 'tunnel-src', 'tunnel-dst', 'next'],
  nfacct: ['nfacct-name'],
  cgroup: ['path', 'cgroup'],
  cpu: ['cpu'],
  devgroup: ['src-group', 'dst-group'],
  ipvs: ['ipvs', 'vproto', 'vaddr', 'vport', 'vdir', 'vmethod', 'vportctl'],
  quota: ['quota'],
  time: ['datestart', 'datestop', 'timestart', 'timestop', 'monthdays', 'weekdays', 'kerneltz', 'contiguous'],
  helper: ['helper'],
  ecn: ['ecn-tcp-cwr', 'ecn-tcp-ece', 'ecn-ip-ect'],
  esp: ['espspi'],
  ah: ['ahspi'],
  connbytes: ['connbytes', 'connbytes-dir', 'connbytes-mode'],
  connlimit: ['connlimit-upto', 'connlimit-above', 'connlimit-mask', 'connlimit-saddr', 'connlimit-daddr'],
  bpf: ['bytecode', 'object-pinned'],
  tcpmss: ['mss'],
  realm: ['realm'],
  cluster: ['cluster-total-nodes', 'cluster-local-node', 'cluster-local-nodemask', 'cluster-hash-seed'],
};

/** Options of extension targets (canonical names). */
export const TARGET_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  DNAT: ['to-destination', 'random', 'persistent'],
  SNAT: ['to-source', 'random', 'random-fully', 'persistent'],
  MASQUERADE: ['to-ports', 'random', 'random-fully'],
  REDIRECT: ['to-ports', 'random'],
  MARK: ['set-xmark', 'set-mark', 'and-mark', 'or-mark', 'xor-mark'],
  CONNMARK: [
    'set-xmark',
    'set-mark',
    'save-mark',
    'restore-mark',
    'and-mark',
    'or-mark',
    'xor-mark',
    'nfmask',
    'ctmask',
    'mask',
  ],
  REJECT: ['reject-with'],
  LOG: ['log-level', 'log-prefix', 'log-tcp-sequence', 'log-tcp-options', 'log-ip-options', 'log-uid', 'log-macdecode'],
  NFLOG: ['nflog-group', 'nflog-prefix', 'nflog-range', 'nflog-size', 'nflog-threshold'],
  CT: ['notrack', 'helper', 'ctevents', 'expevents', 'zone', 'zone-orig', 'zone-reply', 'timeout'],
  CHECKSUM: ['checksum-fill'],
  TPROXY: ['on-port', 'on-ip', 'tproxy-mark'],
  TCPMSS: ['set-mss', 'clamp-mss-to-pmtu'],
  NFQUEUE: ['queue-num', 'queue-balance', 'queue-bypass', 'fail-open', 'queue-cpu-fanout'],
  NETMAP: ['to'],
  SET: ['add-set', 'del-set', 'map-set', 'exist', 'timeout'],
};

/** A table's lists as sets, by name: a Map does not find `constructor` or `__proto__` the way a record would. */
function asSets(table: Readonly<Record<string, readonly string[]>>): ReadonlyMap<string, ReadonlySet<string>> {
  return new Map(Object.entries(table).map(([name, options]) => [name, new Set(options)]));
}

const MODULE_OPTION_SETS = asSets(MODULE_OPTIONS);
const TARGET_OPTION_SETS = asSets(TARGET_OPTIONS);

/** The options a known match module accepts; undefined for a module not in MODULE_OPTIONS. */
export function knownModuleOptions(module: string): ReadonlySet<string> | undefined {
  return MODULE_OPTION_SETS.get(module);
}

/** The options a known extension target accepts; undefined for a target not in TARGET_OPTIONS. */
export function knownTargetOptions(target: string): ReadonlySet<string> | undefined {
  return TARGET_OPTION_SETS.get(target);
}

let knownOptions: Set<string> | undefined;

/** Whether `word` spells an option iptables has (`-m`, `--comment`, `--to-destination`, ...), by any module or target. */
export function isKnownOptionSpelling(word: string): boolean {
  if (word.length < 2 || word.charCodeAt(0) !== 45 || !/^--?[a-zA-Z][\w-]*$/.test(word)) return false;
  knownOptions ??= new Set([
    ...GENERIC_CANONICAL,
    ...Object.values(MODULE_OPTIONS).flat(),
    ...Object.values(TARGET_OPTIONS).flat(),
    ...FLAG_OPTIONS,
    ...TWO_ARG_OPTIONS,
    'match',
    'jump',
    'goto',
    // `-m`, `-j`, `-g` and `-c` have no long alias in the tables above.
    'm',
    'j',
    'g',
    'c',
  ]);
  return knownOptions.has(canonicalOptionName(word));
}
