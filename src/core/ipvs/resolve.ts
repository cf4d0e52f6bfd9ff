/**
 * Which virtual service a packet to ip:port/protocol hits, and how it would be spread over the real servers.
 * An exact address/port match wins; a persistent port-0 service on the same address matches any port.
 */
import { t, type Lang } from '../i18n/catalog';
import { describeService } from './describe';
import { distribute, type ShareEntry } from './distribution';
import { formatEndpoint } from './endpoint';
import { canonicalAddress, serviceLabel } from './identity';
import type { SchedulerPolicy } from './schedulers';
import type { IpvsDump, VirtualService } from './types';

export interface VirtualQuery {
  ip?: string;
  port?: number;
  /** Default TCP. */
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  /** Look up a firewall-mark service instead of an address. */
  fwmark?: number;
}

export interface VirtualResolution {
  service: VirtualService;
  /** How the service was found: its own address and port, a port-0 persistent service, or its fwmark. */
  matchedBy: 'exact' | 'port-zero' | 'fwmark';
  policy: SchedulerPolicy | 'unknown';
  /** Every real server with its expected share; draining ones (weight 0) have share 0. */
  realServers: ShareEntry[];
  explanation: string;
}

export function findVirtual(
  dump: IpvsDump,
  query: VirtualQuery,
): { service: VirtualService; matchedBy: VirtualResolution['matchedBy'] } | undefined {
  if (query.fwmark !== undefined) {
    const service = dump.services.find((s) => s.protocol === 'FWM' && s.fwmark === query.fwmark);
    return service && { service, matchedBy: 'fwmark' };
  }
  if (query.ip === undefined) return undefined;
  const protocol = query.protocol ?? 'TCP';
  const address = canonicalAddress(query.ip);
  const candidates = dump.services.filter(
    (s) => s.protocol === protocol && s.address !== undefined && canonicalAddress(s.address) === address,
  );
  const exact = candidates.find((s) => s.port === query.port);
  if (exact) return { service: exact, matchedBy: 'exact' };
  const anyPort = candidates.find((s) => s.port === 0 && s.persistent !== undefined);
  return anyPort && { service: anyPort, matchedBy: 'port-zero' };
}

export function resolveVirtual(dump: IpvsDump, query: VirtualQuery, lang: Lang = 'en'): VirtualResolution | undefined {
  const found = findVirtual(dump, query);
  if (!found) return undefined;
  const dist = distribute(found.service);
  let explanation = describeService(found.service, lang);
  if (found.matchedBy === 'port-zero')
    explanation += ` ${t(lang, 'ipvs.resolve.portZero', { service: serviceLabel(found.service) })}`;
  return {
    service: found.service,
    matchedBy: found.matchedBy,
    policy: dist.policy,
    realServers: dist.entries,
    explanation,
  };
}

/** A sentence for when nothing matches (for CLIs and hovers). */
export function explainNoVirtual(query: VirtualQuery, lang: Lang = 'en'): string {
  const target = query.fwmark !== undefined ? `fwmark ${query.fwmark}` : formatEndpoint(query.ip, query.port);
  return t(lang, 'ipvs.resolve.none', {
    protocol: query.fwmark !== undefined ? 'FWM' : (query.protocol ?? 'TCP'),
    target,
  });
}
