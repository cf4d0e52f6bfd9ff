/**
 * Checks on names and numbers taken from cluster objects. Whatever passes here is later written into
 * iptables rules and comments, so the character sets are those the Kubernetes API itself enforces.
 */
import { isDigitCode } from '../common/chars';
import { isValidPort, parseCidr, parseIp } from '../common/ip';
import type { Protocol } from './types';

/** RFC 1123 label (namespaces, port names): lowercase alphanumerics and `-`, at most 63 characters. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** RFC 1035 label (Service names): as above but starting with a letter. */
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** RFC 1123 subdomain (node and object names): labels joined by dots, at most 253 characters. */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function isNamespaceName(s: unknown): s is string {
  return typeof s === 'string' && s.length <= 63 && DNS1123_LABEL.test(s);
}

export function isServiceName(s: unknown): s is string {
  return typeof s === 'string' && s.length <= 63 && DNS1035_LABEL.test(s);
}

/** Port names: IANA service names are at most 15 characters; accept any RFC 1123 label, as old clusters did. */
export function isPortName(s: unknown): s is string {
  return typeof s === 'string' && (s === '' || (s.length <= 63 && DNS1123_LABEL.test(s)));
}

export function isSubdomainName(s: unknown): s is string {
  return typeof s === 'string' && s.length <= 253 && DNS1123_SUBDOMAIN.test(s);
}

export function isPortNumber(n: unknown): n is number {
  return typeof n === 'number' && isValidPort(n) && n > 0;
}

/** Dotted quad without leading zeros; checked by hand because cluster dumps hold 100k addresses. */
function isIPv4Text(s: string): boolean {
  let parts = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 46; // a final '.' closes the last part
    if (c === 46) {
      if (digits === 0 || value > 255 || (digits > 1 && s.charCodeAt(i - digits) === 48)) return false;
      parts++;
      value = 0;
      digits = 0;
    } else if (isDigitCode(c) && digits < 3) {
      value = value * 10 + (c - 48);
      digits++;
    } else return false;
  }
  return parts === 4;
}

export function isIpText(s: unknown): s is string {
  return typeof s === 'string' && (isIPv4Text(s) || (s.includes(':') && parseIp(s) !== undefined));
}

/** Longer than any address with padded parts Kubernetes could have stored; keeps a hostile field cheap. */
const MAX_LEGACY_IPV4_LENGTH = 64;

/**
 * Dotted quad whose parts may carry leading zeros, read as decimal, as Kubernetes reads addresses it stored
 * (netutils.ParseIPSloppy, Go's parser before 1.17): `010.096.000.010` is 10.96.0.10, never octal. The
 * canonical text, or undefined.
 */
function legacyIPv4Text(s: string): string | undefined {
  if (s.length > MAX_LEGACY_IPV4_LENGTH) return undefined;
  const parts = s.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d+$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number).join('.');
}

/**
 * An address from a cluster object as Kubernetes reads it, in canonical text (what iptables, ipvsadm and `ip`
 * print): IPv4 with leading zeros, which the API accepted for years, reads as decimal. Undefined when it is no
 * address. IPv6 text is kept as written.
 */
export function kubeIpText(s: unknown): string | undefined {
  if (typeof s !== 'string') return undefined;
  return isIpText(s) ? s : legacyIPv4Text(s as string);
}

export function isCidrText(s: unknown): s is string {
  return typeof s === 'string' && s.includes('/') && parseCidr(s) !== undefined;
}

/** A CIDR as Kubernetes reads it (netutils.ParseCIDRSloppy): its IPv4 address may be legacy text too. */
export function kubeCidrText(s: unknown): string | undefined {
  if (typeof s !== 'string') return undefined;
  if (s.includes('/') && parseCidr(s) !== undefined) return s;
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const ip = legacyIPv4Text(s.slice(0, slash));
  const canonical = ip && `${ip}${s.slice(slash)}`;
  return canonical && isCidrText(canonical) ? canonical : undefined;
}

/** The API's protocol, defaulting to TCP when absent; undefined when present but unknown. */
export function protocolOf(value: unknown): Protocol | undefined {
  if (value === undefined || value === null || value === '') return 'TCP';
  return value === 'TCP' || value === 'UDP' || value === 'SCTP' ? value : undefined;
}

/** Zone names and label values: safe printable characters only (they appear in explanations). */
export function isLabelValue(s: unknown): s is string {
  return typeof s === 'string' && s.length <= 63 && /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/.test(s);
}
