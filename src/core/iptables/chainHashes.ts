/**
 * kube-proxy's chain names. A Service port's chains are a prefix plus the first 16 characters of
 * base32(sha256(servicePortName + lowercase protocol)); an endpoint chain also hashes the endpoint `ip:port`.
 * Recomputing them lets the engine say whether a chain really belongs to the Service its comment names.
 */
import { sha256 } from '../common/sha256';

export const SERVICE_CHAIN_PREFIXES = ['KUBE-SVC-', 'KUBE-SVL-', 'KUBE-EXT-', 'KUBE-FW-', 'KUBE-XLB-'] as const;
export type ServiceChainPrefix = (typeof SERVICE_CHAIN_PREFIXES)[number];
export const ENDPOINT_CHAIN_PREFIX = 'KUBE-SEP-';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (with the standard alphabet) of the first `length` bytes, enough for the first 16 characters. */
function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  // An indexed loop over the bytes, not a subarray and its iterator: 10,000 Services of a big dump are hashed.
  for (let i = 0; i < length; i++) {
    buffer = (buffer << 8) | bytes[i];
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

const BASE32_CODES = Array.from(BASE32, (c) => c.charCodeAt(0));

/** base32 of the 5 bytes (40 bits) at `at`: 8 characters made as one string instead of 8 appended ones. */
function base32Of40Bits(b: Uint8Array, at: number): string {
  const c = BASE32_CODES;
  // 40 bits do not fit an int: they are split 20/20.
  const high = (b[at] << 12) | (b[at + 1] << 4) | (b[at + 2] >>> 4);
  const low = ((b[at + 2] & 15) << 16) | (b[at + 3] << 8) | b[at + 4];
  return String.fromCharCode(
    c[high >>> 15],
    c[(high >>> 10) & 31],
    c[(high >>> 5) & 31],
    c[high & 31],
    c[low >>> 15],
    c[(low >>> 10) & 31],
    c[(low >>> 5) & 31],
    c[low & 31],
  );
}

/** Length of the hash kube-proxy appends to a chain prefix. */
const HASH_LENGTH = 16;

/** The 16-character hash kube-proxy appends to a chain prefix. */
export function chainHash(...parts: string[]): string {
  // 16 base32 characters carry 80 bits: only the digest's first 10 bytes are needed.
  const digest = sha256(parts.length === 2 ? parts[0] + parts[1] : parts.join(''));
  return base32Of40Bits(digest, 0) + base32Of40Bits(digest, 5);
}

/** `ns/name:port` (or `ns/name` when the port has no name), as kube-proxy's ServicePortName.String(). */
export function servicePortName(namespace: string, name: string, portName: string): string {
  return portName ? `${namespace}/${name}:${portName}` : `${namespace}/${name}`;
}

export function serviceChainName(prefix: ServiceChainPrefix, spn: string, protocol: string): string {
  return prefix + chainHash(spn, protocol.toLowerCase());
}

export function endpointChainName(spn: string, protocol: string, endpoint: string): string {
  return ENDPOINT_CHAIN_PREFIX + chainHash(spn, protocol.toLowerCase(), endpoint);
}

/**
 * Service port names as they may appear in comments, in the forms kube-proxy versions hashed:
 * modern `ns/name:port` / `ns/name`, and old releases' `ns/name:` for an unnamed port.
 */
export function spnCandidates(spn: string): string[] {
  const other = otherSpnForm(spn);
  return other === undefined ? [spn] : [spn, other];
}

/** Whether `chain` is the name kube-proxy derives for the service port `spn` (any known form, any protocol given). */
export function verifyServiceChain(chain: string, spn: string, protocol: string): boolean {
  return verifyServiceChains([chain], spn, protocol);
}

/**
 * Whether every chain is a name kube-proxy derives for the service port `spn`. A Service's SVC, SVL, EXT, FW and
 * XLB chains share one hash: it is computed once per form of `spn`, not once per chain.
 */
export function verifyServiceChains(chains: readonly string[], spn: string, protocol: string): boolean {
  return verifyNamedServiceChains(
    chains.map((name) => ({ name })),
    spn,
    protocol,
  );
}

/**
 * `verifyServiceChains` of the chains' names, without a list of them (asked for each of 10,000 Services): the
 * forms of `spnCandidates` and their hashes are made only as far as a chain needs them.
 */
export function verifyNamedServiceChains(chains: readonly { name: string }[], spn: string, protocol: string): boolean {
  let hash = '';
  let otherHash = '';
  let proto = '';
  for (let c = 0; c < chains.length; c++) {
    const chain = chains[c].name;
    const prefixLength = serviceChainPrefixLength(chain);
    if (prefixLength === 0 || chain.length !== prefixLength + HASH_LENGTH) return false;
    if (c === 0) {
      proto = protocol.toLowerCase();
      hash = chainHash(spn, proto);
    }
    if (chain.endsWith(hash)) continue;
    const other = otherSpnForm(spn);
    if (other === undefined) return false;
    if (!otherHash) otherHash = chainHash(other, proto);
    if (!chain.endsWith(otherHash)) return false;
  }
  return true;
}

/** The other form kube-proxy may have hashed for `spn`: with or without an unnamed port's trailing colon. */
function otherSpnForm(spn: string): string | undefined {
  if (spn.endsWith(':')) return spn.slice(0, -1);
  // A port name is a colon after the last slash.
  return spn.lastIndexOf(':') > spn.lastIndexOf('/') ? undefined : `${spn}:`;
}

/** The length of the SERVICE_CHAIN_PREFIXES prefix `chain` starts with, 0 for none. */
function serviceChainPrefixLength(chain: string): number {
  const kind = kubeChainKind(chain);
  if (kind === 'firewall') return 'KUBE-FW-'.length;
  return kind === 'service' || kind === 'service-local' || kind === 'external' || kind === 'external-local'
    ? 'KUBE-SVC-'.length
    : 0;
}

export function verifyEndpointChain(chain: string, spn: string, protocol: string, endpoint: string): boolean {
  if (!chain.startsWith(ENDPOINT_CHAIN_PREFIX)) return false;
  return spnCandidates(spn).some((s) => endpointChainName(s, protocol, endpoint) === chain);
}

export type KubeChainKind =
  | 'service' // KUBE-SVC-
  | 'service-local' // KUBE-SVL-
  | 'external' // KUBE-EXT-
  | 'firewall' // KUBE-FW-
  | 'external-local' // KUBE-XLB- (<= 1.23)
  | 'endpoint' // KUBE-SEP-
  | 'kube-fixed' // KUBE-SERVICES, KUBE-MARK-MASQ, ...
  | undefined;

export function kubeChainKind(chain: string): KubeChainKind {
  // Asked for every rule's chain and target: look at the characters after `KUBE-` instead of trying each prefix
  // (and without slicing them out: this runs ~200k times on a big dump).
  if (!chain.startsWith('KUBE-')) return undefined;
  const c5 = chain.charCodeAt(5);
  const c6 = chain.charCodeAt(6);
  const c7 = chain.charCodeAt(7);
  if (c7 === 45 && c5 === 70 && c6 === 87) return 'firewall'; // KUBE-FW-
  if (chain.charCodeAt(8) === 45) {
    if (c5 === 83 && c6 === 86 && c7 === 67) return 'service'; // SVC
    if (c5 === 83 && c6 === 69 && c7 === 80) return 'endpoint'; // SEP
    if (c5 === 83 && c6 === 86 && c7 === 76) return 'service-local'; // SVL
    if (c5 === 69 && c6 === 88 && c7 === 84) return 'external'; // EXT
    if (c5 === 88 && c6 === 76 && c7 === 66) return 'external-local'; // XLB
  }
  return 'kube-fixed';
}

/** A chain of kube-proxy's nftables mode, read from its name (`service-HASH-ns/name/proto/port[__ip/port]`). */
export interface NftKubeChain {
  kind: 'service' | 'service-local' | 'external' | 'firewall' | 'endpoint';
  namespace: string;
  service: string;
  protocol: string;
  /** '' for an unnamed port. */
  portName: string;
  /** Service port name as kube-proxy prints it: `ns/name:port`, or `ns/name` for an unnamed port. */
  spn: string;
  /** An endpoint chain's `ip` and `port` (IPv6 addresses have their colons back). */
  endpoint?: { ip: string; port: number };
  /** The name's 8-character hash is base32(sha256) of the rest of the name, as kube-proxy makes it. */
  hashVerified: boolean;
}

const NFT_CHAIN_KINDS: Readonly<Record<string, NftKubeChain['kind']>> = {
  service: 'service',
  local: 'service-local',
  external: 'external',
  firewall: 'firewall',
  endpoint: 'endpoint',
};
const NFT_KUBE_CHAIN =
  /^(service|local|external|firewall|endpoint)-([A-Z2-7]{8})-([a-z0-9][-a-z0-9.]*)\/([a-z0-9][-a-z0-9.]*)\/(tcp|udp|sctp)\/([-a-z0-9]*)(?:__([0-9A-Fa-f.]+)\/(\d+))?$/;

/**
 * kube-proxy's nftables mode names a Service port's chains `PREFIX-HASH-ns/name/protocol/port` and an endpoint's
 * `endpoint-HASH-ns/name/protocol/port__ip/port` (an IPv6 address with dots for colons), HASH being the first 8
 * characters of base32(sha256) of what follows it. Undefined for other names.
 */
export function nftKubeChain(name: string): NftKubeChain | undefined {
  const m = NFT_KUBE_CHAIN.exec(name);
  if (!m) return undefined;
  const kind = NFT_CHAIN_KINDS[m[1]];
  if ((kind === 'endpoint') !== (m[7] !== undefined)) return undefined;
  const rest = name.slice(m[1].length + 10);
  const [, , , namespace, service, protocol, portName, ip, port] = m;
  const chain: NftKubeChain = {
    kind,
    namespace,
    service,
    protocol,
    portName,
    spn: servicePortName(namespace, service, portName),
    hashVerified: base32(sha256(rest), 5) === m[2],
  };
  if (ip !== undefined)
    chain.endpoint = { ip: ip.split('.').length === 4 ? ip : ip.replace(/\./g, ':'), port: Number(port) };
  return chain;
}
