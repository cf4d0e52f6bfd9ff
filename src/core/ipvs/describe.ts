/** Whole-sentence descriptions of virtual services and real servers, shared by explain and resolve. */
import { parseIPv4 } from '../common/ip';
import { t, type Lang } from '../i18n/catalog';
import { formatShare } from '../common/shares';
import { distribute, overloadOf, type Distribution, type ShareEntry } from './distribution';
import { realServerLabel, serviceLabel } from './identity';
import { isKnownScheduler, NODE_PORT_RANGE } from './schedulers';
import type { IpvsStats, RealServer, VirtualService } from './types';

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

/** Whether the scheduler can pick this server for a new connection now (not draining, not overloaded). */
function takesNew(e: ShareEntry): boolean {
  return !e.draining && e.overloaded !== 'yes';
}

function shareList(dist: Distribution, lang: Lang): string {
  return dist.entries
    .filter((e) => takesNew(e) && e.share !== undefined)
    .map((e) => `${realServerLabel(e.realServer)} ${formatShare(e.share!)}`)
    .join(t(lang, 'ipvs.sep.list'));
}

function allSharesEqual(dist: Distribution): boolean {
  const shares = dist.entries.filter(takesNew).map((e) => e.share);
  return shares.every((s) => s !== undefined && Math.abs(s - shares[0]!) < 1e-9);
}

function distributionText(service: VirtualService, dist: Distribution, lang: Lang): string {
  const count = service.realServers.length;
  if (count === 0) return t(lang, 'ipvs.dist.none');
  const overloaded = dist.entries.filter((e) => e.overloaded === 'yes').length;
  if (dist.active === 0) {
    return overloaded > 0
      ? t(lang, 'ipvs.dist.allOverloaded', { count, overloaded })
      : t(lang, 'ipvs.dist.allDraining', { count });
  }
  const activeCount = dist.active;
  const equalShare = allSharesEqual(dist) ? dist.entries.find(takesNew)?.share : undefined;
  let text: string;
  if (service.scheduler === undefined)
    text = t(lang, count === 1 ? 'ipvs.dist.noSchedulerOne' : 'ipvs.dist.noScheduler', { count });
  else if (activeCount === 1 && dist.policy !== 'unknown') {
    const only = dist.entries.find(takesNew)!;
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
  if (overloaded > 0) text += t(lang, 'ipvs.dist.overloaded', { count: overloaded });
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
  if (service.stats) sentence += t(lang, 'ipvs.svc.stats', countParams(service.stats, lang));
  return sentence;
}

/** Conns and packet counts for a sentence, with "about" when the listing rounded them (12K). */
function countParams(stats: IpvsStats, lang: Lang) {
  const about = stats.countsApproximate ? t(lang, 'ipvs.stats.about') : '';
  return { about, conns: stats.conns, inPkts: stats.inPkts, outPkts: stats.outPkts };
}

/** The comma-joined facts about one real server: forwarding, weight, connections, expected share. */
export function realServerDetails(service: VirtualService | undefined, rs: RealServer, lang: Lang): string {
  const parts: string[] = [];
  const tunnelType = rs.forward === 'Tunnel' ? rs.tunnel?.type : undefined;
  if (tunnelType) parts.push(t(lang, 'ipvs.fwd.Tunnel.typed.short', { type: tunnelType.toUpperCase() }));
  else if (rs.forward) parts.push(t(lang, `ipvs.fwd.${rs.forward}.short`));
  if (rs.weight === 0) parts.push(t(lang, 'ipvs.rs.weightZero'));
  else if (rs.weight !== undefined) parts.push(t(lang, 'ipvs.rs.weight', { weight: rs.weight }));
  if (rs.activeConn !== undefined && rs.inactConn !== undefined) {
    parts.push(t(lang, 'ipvs.rs.conns', { active: rs.activeConn, inactive: rs.inactConn }));
  }
  if (rs.stats) parts.push(t(lang, 'ipvs.rs.stats', countParams(rs.stats, lang)));
  const overloaded = overloadOf(rs);
  if (overloaded) {
    const total = (rs.activeConn ?? 0) + (rs.inactConn ?? 0);
    const { upper, lower } = rs.thresholds!;
    // Without an Lthreshold the kernel clears the flag once connections fall below 3/4 of Uthreshold.
    const clearsBelow = lower || Math.ceil((upper * 3) / 4);
    const key = overloaded === 'yes' ? 'ipvs.rs.overloaded' : 'ipvs.rs.maybeOverloaded';
    parts.push(t(lang, key, { total, upper, clearsBelow }));
  }
  if (service && rs.weight !== 0 && overloaded !== 'yes') {
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
