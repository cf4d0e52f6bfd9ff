/**
 * What the parser knows about iptables options: canonical names and how many arguments each takes.
 * One place for these facts; the explainer and linter read the same tables.
 */

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

/** Long-option aliases inside match modules (`--destination-port` is `--dport`). */
export const OPTION_ALIASES: Readonly<Record<string, string>> = {
  'destination-port': 'dport',
  'source-port': 'sport',
  'destination-ports': 'dports',
  'source-ports': 'sports',
  'ctstate': 'ctstate',
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
]);

/** Options that take two arguments. */
export const TWO_ARG_OPTIONS = new Set(['set-counters', 'match-set', 'tcp-flags']);

/** Generic options that are valid before any `-m` and do not belong to a module. */
export const GENERIC_CANONICAL = new Set(Object.values(GENERIC_OPTION_NAMES));

export function canonicalOptionName(written: string): string {
  const generic = GENERIC_OPTION_NAMES[written];
  if (generic) return generic;
  const bare = written.replace(/^--?/, '');
  return OPTION_ALIASES[bare] ?? bare;
}

export function optionArity(canonical: string): 0 | 1 | 2 {
  if (FLAG_OPTIONS.has(canonical)) return 0;
  if (TWO_ARG_OPTIONS.has(canonical)) return 2;
  return 1;
}

/** Protocols whose options (`--dport`, `--sport`, ...) iptables loads implicitly after `-p`. */
export const IMPLICIT_PROTOCOL_MODULES = new Set(['tcp', 'udp', 'sctp', 'icmp', 'icmpv6', 'udplite', 'dccp']);

/** Targets provided by xtables extensions (not chains). A target that is neither these, nor standard, is a chain. */
export const EXTENSION_TARGETS = new Set([
  'DNAT', 'SNAT', 'MASQUERADE', 'REDIRECT', 'NETMAP', 'MARK', 'CONNMARK', 'CONNSECMARK', 'SECMARK', 'LOG', 'NFLOG',
  'ULOG', 'NFQUEUE', 'QUEUE', 'REJECT', 'CT', 'NOTRACK', 'CHECKSUM', 'TPROXY', 'TRACE', 'TCPMSS', 'TOS', 'DSCP',
  'TTL', 'HL', 'CLASSIFY', 'CLUSTERIP', 'SET', 'AUDIT', 'IDLETIMER', 'LED', 'RATEEST', 'TEE', 'HMARK', 'SYNPROXY',
  'ECN', 'TCPOPTSTRIP', 'DNPT', 'SNPT', 'MIRROR', 'NOP',
]);
