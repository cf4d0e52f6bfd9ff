/**
 * `address:port` as ipvsadm prints it: `10.0.0.1:80`, `[fd00::1]:443`, or names (`kubernetes:https`) when the
 * listing ran without `-n`. Offsets are relative to the start of the text so callers can build token spans.
 */
import { parseIPv4, parseIPv6 } from '../common/ip';
import { ownEntry } from '../common/own';

export interface Endpoint {
  /** Host without brackets. */
  address: string;
  port?: number;
  /** The port as written when it is a service name (`https`). */
  portName?: string;
  family?: 4 | 6;
  /** True when the host is a name rather than an address. */
  isName: boolean;
  hostStart: number;
  hostLength: number;
  portStart?: number;
  portLength?: number;
}

/** The /etc/services names ipvsadm prints most often for Kubernetes services (facts, not a full table). */
const SERVICE_PORTS: Record<string, number> = {
  ftp: 21,
  ssh: 22,
  smtp: 25,
  domain: 53,
  http: 80,
  pop3: 110,
  ntp: 123,
  imap: 143,
  imap2: 143,
  snmp: 161,
  ldap: 389,
  https: 443,
  submission: 587,
  ldaps: 636,
  imaps: 993,
  pop3s: 995,
  mysql: 3306,
  postgresql: 5432,
  'http-alt': 8080,
  webcache: 8080,
};

export function servicePort(name: string): number | undefined {
  return ownEntry(SERVICE_PORTS, name.toLowerCase());
}

const HOST_NAME = /^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;

function familyOf(host: string): 4 | 6 | undefined {
  if (parseIPv4(host) !== undefined) return 4;
  if (parseIPv6(host) !== undefined) return 6;
  return undefined;
}

function withPort(ep: Endpoint, text: string, start: number): Endpoint | undefined {
  const portText = text.slice(start);
  if (portText === '') return undefined;
  ep.portStart = start;
  ep.portLength = portText.length;
  if (/^\d{1,5}$/.test(portText)) {
    const n = Number(portText);
    if (n > 65535) return undefined;
    ep.port = n;
  } else if (HOST_NAME.test(portText)) {
    ep.portName = portText;
    ep.port = servicePort(portText);
  } else return undefined;
  return ep;
}

/** Parses one endpoint; undefined when the text is not an address (or host name), with or without a port. */
export function parseEndpoint(text: string): Endpoint | undefined {
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return undefined;
    const host = text.slice(1, close);
    if (parseIPv6(host) === undefined) return undefined;
    const ep: Endpoint = { address: host, family: 6, isName: false, hostStart: 0, hostLength: close + 1 };
    if (close === text.length - 1) return ep;
    if (text[close + 1] !== ':') return undefined;
    return withPort(ep, text, close + 2);
  }
  // A bare IPv6 address has no port (ipvsadm brackets IPv6 whenever it prints a port).
  if (text.split(':').length > 2) {
    return parseIPv6(text) === undefined
      ? undefined
      : { address: text, family: 6, isName: false, hostStart: 0, hostLength: text.length };
  }
  const colon = text.indexOf(':');
  const host = colon < 0 ? text : text.slice(0, colon);
  const family = familyOf(host);
  if (family === undefined && (!HOST_NAME.test(host) || /^[\d.]+$/.test(host))) return undefined;
  const ep: Endpoint = { address: host, family, isName: family === undefined, hostStart: 0, hostLength: host.length };
  return colon < 0 ? ep : withPort(ep, text, colon + 1);
}

/** How ipvsadm writes an endpoint: IPv6 in brackets. */
export function formatEndpoint(address: string | undefined, port: number | string | undefined): string {
  if (address === undefined) return port === undefined ? '' : `:${port}`;
  const host = address.includes(':') ? `[${address}]` : address;
  return port === undefined ? host : `${host}:${port}`;
}
