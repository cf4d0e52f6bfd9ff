/** Whole-sentence descriptions of virtual services and real servers, shared by explain and resolve. */
import { parseIPv4 } from '../common/ip';
import { t, type Lang } from '../i18n/catalog';
import { distribute, formatShare, type Distribution } from './distribution';
import { realServerLabel, serviceLabel } from './identity';
import { isKnownScheduler, NODE_PORT_RANGE } from './schedulers';
import type { RealServer, VirtualService } from './types';

/** `3 h`, `6 min`, `1 h 30 min`, `45 s`. */
export function humanDuration(seconds: number, lang: Lang): string {
  const parts: string[] = [];
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) parts.push(t(lang, 'ipvs.unit.h', { n: h }));
  if (m) parts.push(t(lang, 'ipvs.unit.min', { n: m }));
  if (s || parts.length === 0) parts.push(t(lang, 'ipvs.unit.s', { n: s }));
  return parts.join(' ');
}

export function schedulerName(name: string, lang: Lang): string {
  return isKnownScheduler(name) ? t(lang, `ipvs.sched.${name}.name`) : name;
}

/** True when the port is in the default NodePort range: kube-proxy listens on node addresses, not kube-ipvs0. */
export function looksLikeNodePort(service: VirtualService): boolean {
  return service.port !== undefined && service.port >= NODE_PORT_RANGE.min && service.port <= NODE_PORT_RANGE.max;
}

function shareList(dist: Distribution, lang: Lang): string {
  return dist.entries
    .filter((e) => !e.draining && e.share !== undefined)
    .map((e) => `${realServerLabel(e.realServer)} ${formatShare(e.share!)}`)
    .join(t(lang, 'ipvs.sep.list'));
}

function allSharesEqual(dist: Distribution): boolean {
  const shares = dist.entries.filter((e) => !e.draining).map((e) => e.share);
  return shares.every((s) => s !== undefined && Math.abs(s - shares[0]!) < 1e-9);
}

function distributionText(service: VirtualService, dist: Distribution, lang: Lang): string {
  const count = service.realServers.length;
  if (count === 0) return t(lang, 'ipvs.dist.none');
  if (dist.active === 0) return t(lang, 'ipvs.dist.allDraining', { count });
  const activeCount = dist.active;
  const equalShare = allSharesEqual(dist) ? dist.entries.find((e) => !e.draining)?.share : undefined;
  let text: string;
  if (service.scheduler === undefined) text = t(lang, 'ipvs.dist.noScheduler', { count });
  else if (activeCount === 1 && dist.policy !== 'unknown') {
    const only = dist.entries.find((e) => !e.draining)!;
    text = t(lang, 'ipvs.dist.one', { address: realServerLabel(only.realServer) });
  } else {
    switch (dist.policy) {
      case 'equal':
      case 'weighted':
        text =
          equalShare !== undefined
            ? t(lang, 'ipvs.dist.equal', { count: activeCount, share: formatShare(equalShare) })
            : t(lang, 'ipvs.dist.list', { count: activeCount, list: shareList(dist, lang) });
        break;
      case 'hash-source':
      case 'hash-destination': {
        const list = equalShare !== undefined ? formatShare(equalShare) : shareList(dist, lang);
        text = t(lang, dist.policy === 'hash-source' ? 'ipvs.dist.hashSource' : 'ipvs.dist.hashDestination', {
          count: activeCount,
          list,
        });
        break;
      }
      case 'failover': {
        const best = dist.entries.find((e) => e.share === 1);
        text = t(lang, 'ipvs.dist.failover', {
          count: activeCount,
          address: best ? realServerLabel(best.realServer) : '?',
        });
        break;
      }
      case 'connections':
        text = t(lang, 'ipvs.dist.connections', { count: activeCount });
        break;
      case 'locality':
        text = t(lang, 'ipvs.dist.locality', { count: activeCount });
        break;
      case 'overflow':
        text = t(lang, 'ipvs.dist.overflow', { count: activeCount });
        break;
      case 'random':
        text = t(lang, 'ipvs.dist.random', { count: activeCount });
        break;
      default:
        text = t(lang, 'ipvs.dist.unknown', { count: activeCount });
    }
  }
  if (dist.draining > 0) text += t(lang, 'ipvs.dist.draining', { count: dist.draining });
  return text;
}

function bindingText(service: VirtualService, lang: Lang): string {
  if (service.protocol === 'FWM') return t(lang, 'ipvs.svc.bind.fwm', { mark: service.fwmark ?? '?' });
  const loopback = service.address !== undefined && (parseIPv4(service.address) ?? 0n) >> 24n === 127n;
  if (looksLikeNodePort(service) || loopback) return t(lang, 'ipvs.svc.bind.nodePort', { port: service.port ?? '?' });
  return t(lang, 'ipvs.svc.bind.kube');
}

/** "TCP 10.96.0.1:443, round robin over 3 real servers (33% each), bound by kube-proxy to kube-ipvs0." */
export function describeService(service: VirtualService, lang: Lang): string {
  const dist = distribute(service);
  const params = {
    label: serviceLabel(service),
    scheduler: service.scheduler === undefined ? '' : schedulerName(service.scheduler, lang),
    distribution: distributionText(service, dist, lang),
    persistence:
      service.persistent === undefined
        ? ''
        : t(lang, 'ipvs.svc.persistent', {
            seconds: service.persistent,
            human: humanDuration(service.persistent, lang),
          }),
    binding: bindingText(service, lang),
  };
  let sentence = t(
    lang,
    service.scheduler === undefined ? 'ipvs.line.serviceNoScheduler' : 'ipvs.line.service',
    params,
  );
  if (service.stats) {
    const { conns, inPkts, outPkts } = service.stats;
    sentence += t(lang, 'ipvs.svc.stats', { conns, inPkts, outPkts });
  }
  return sentence;
}

/** The comma-joined facts about one real server: forwarding, weight, connections, expected share. */
export function realServerDetails(service: VirtualService | undefined, rs: RealServer, lang: Lang): string {
  const parts: string[] = [];
  if (rs.forward) parts.push(t(lang, `ipvs.fwd.${rs.forward}.short`));
  if (rs.weight === 0) parts.push(t(lang, 'ipvs.rs.weightZero'));
  else if (rs.weight !== undefined) parts.push(t(lang, 'ipvs.rs.weight', { weight: rs.weight }));
  if (rs.activeConn !== undefined && rs.inactConn !== undefined) {
    parts.push(t(lang, 'ipvs.rs.conns', { active: rs.activeConn, inactive: rs.inactConn }));
  }
  if (service && rs.weight !== 0) {
    const dist = distribute(service);
    const entry = dist.entries.find((e) => e.realServer === rs);
    if (entry?.share !== undefined) {
      const hash = dist.policy === 'hash-source' || dist.policy === 'hash-destination';
      parts.push(t(lang, hash ? 'ipvs.rs.shareClients' : 'ipvs.rs.share', { share: formatShare(entry.share) }));
    } else if (service.scheduler !== undefined) {
      parts.push(t(lang, 'ipvs.rs.shareLoad', { scheduler: service.scheduler }));
    }
  }
  return parts.join(t(lang, 'ipvs.sep.list'));
}

export function describeRealServer(service: VirtualService | undefined, rs: RealServer, lang: Lang): string {
  const details = realServerDetails(service, rs, lang);
  const address = realServerLabel(rs);
  return service
    ? t(lang, 'ipvs.line.real', { address, service: serviceLabel(service), details })
    : t(lang, 'ipvs.line.orphan', { address, details });
}
