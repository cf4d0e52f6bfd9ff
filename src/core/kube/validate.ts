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

export function isCidrText(s: unknown): s is string {
  return typeof s === 'string' && s.includes('/') && parseCidr(s) !== undefined;
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
