/** How services and real servers are named and compared: one place for keys and labels. */
import { formatIp, parseIp } from '../common/ip';
import { formatEndpoint } from './endpoint';
import type { RealServer, VirtualService } from './types';

/** Canonical address text so `fd00:0::1` and `fd00::1` compare equal; names are kept as written. */
export function canonicalAddress(address: string): string {
  const ip = parseIp(address);
  return ip ? formatIp(ip) : address.toLowerCase();
}

export function serviceKey(s: Pick<VirtualService, 'protocol' | 'address' | 'port' | 'fwmark' | 'family'>): string {
  if (s.protocol === 'FWM') return `FWM|${s.fwmark ?? ''}|${s.family ?? 4}`;
  return `${s.protocol}|${s.address === undefined ? '' : canonicalAddress(s.address)}|${s.port ?? ''}`;
}

export function realServerKey(r: Pick<RealServer, 'address' | 'port' | 'portName'>): string {
  return `${canonicalAddress(r.address)}|${r.port ?? r.portName}`;
}

/** `TCP 10.96.0.1:443`, `UDP [fd00::a]:53`, `FWM 1481`. */
export function serviceLabel(s: Pick<VirtualService, 'protocol' | 'address' | 'port' | 'fwmark' | 'family'>): string {
  if (s.protocol === 'FWM') return `FWM ${s.fwmark ?? '?'}${s.family === 6 ? ' IPv6' : ''}`;
  return `${s.protocol} ${formatEndpoint(s.address, s.port)}`;
}

/** `10.244.1.5:8080`; a port name with no known number as ipvsadm printed it (`10.244.1.5:myport`). */
export function realServerLabel(r: Pick<RealServer, 'address' | 'port' | 'portName'>): string {
  return formatEndpoint(r.address, r.port ?? r.portName);
}
