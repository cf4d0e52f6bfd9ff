/**
 * Findings about a parsed IPVS table that a person debugging kube-proxy should see: services that cannot answer,
 * draining servers, duplicates from double pastes, impossible addresses. Parse problems are in `dump.diagnostics`;
 * this adds the semantic ones (publish both).
 */
import type { Diagnostic, Severity, Span } from '../common/diagnostics';
import { cidrContains, parseCidr, parseIp } from '../common/ip';
import { t, type Lang } from '../i18n/catalog';
import { realServerKey, realServerLabel, serviceKey, serviceLabel } from './identity';
import { overloadOf } from './distribution';
import { flagBelongsElsewhere, isKnownScheduler, KNOWN_SCHEDULERS } from './schedulers';
import type { IpvsDump, RealServer, VirtualService } from './types';

const RESERVED_CLASS_E = parseCidr('240.0.0.0/4')!;

class Findings {
  readonly list: Diagnostic[] = [];
  constructor(private readonly lang: Lang) {}

  add(
    name: string,
    severity: Severity,
    span: Span,
    params: Record<string, string | number>,
    related?: Diagnostic['related'],
    messageKey = `ipvs.lint.${name}`,
  ): void {
    const d: Diagnostic = { span, severity, code: `ipvs-${name}`, message: t(this.lang, messageKey, params) };
    if (related) d.related = related;
    this.list.push(d);
  }
}

/** True when nothing but blank lines or a `...` follows the line: the paste may have been cut right there. */
function endsThePaste(dump: IpvsDump, line: number): boolean {
  // A walk, not a copy of the lines after it: thousands of emptied services copied the rest of the text each.
  for (let l = line + 1; l < dump.lines.length; l++) {
    const kind = dump.lines[l]?.kind;
    if (kind !== 'blank') return kind === undefined || kind === 'ellipsis';
  }
  return true;
}

function lintService(f: Findings, dump: IpvsDump, svc: VirtualService): void {
  const service = serviceLabel(svc);
  if (svc.realServers.length === 0) {
    if (endsThePaste(dump, svc.line)) {
      f.add('no-real-servers', 'info', svc.span, { service }, undefined, 'ipvs.lint.no-real-servers-cut');
    } else f.add('no-real-servers', 'warning', svc.span, { service });
  } else if (svc.realServers.every((r) => r.weight === 0)) {
    f.add('all-weights-zero', 'warning', svc.span, { service, count: svc.realServers.length });
  } else {
    for (const r of svc.realServers) {
      if (r.weight === 0) f.add('weight-zero', 'info', r.span, { address: realServerLabel(r), service });
    }
    const open = svc.realServers.filter((r) => r.weight !== 0);
    if (open.every((r) => overloadOf(r) === 'yes'))
      f.add('all-overloaded', 'warning', svc.span, { service, count: open.length });
  }
  if (svc.scheduler !== undefined && !isKnownScheduler(svc.scheduler)) {
    f.add('unknown-scheduler', 'warning', svc.span, { name: svc.scheduler, known: KNOWN_SCHEDULERS.join(', ') });
  }
  for (const flag of svc.flags) {
    if (flagBelongsElsewhere(flag, svc.scheduler))
      f.add('flag-other-scheduler', 'info', svc.span, { flag, scheduler: svc.scheduler ?? '' });
  }
  const firstSeen = new Map<string, RealServer>();
  for (const r of svc.realServers) {
    const key = realServerKey(r);
    const first = firstSeen.get(key);
    if (first !== undefined) {
      f.add(
        'duplicate-real-server',
        'warning',
        r.span,
        { address: realServerLabel(r), service, line: first.line + 1 },
        [{ span: first.span, message: realServerLabel(r) }],
      );
    } else firstSeen.set(key, r);
    const ip = parseIp(r.address);
    if (ip && cidrContains(RESERVED_CLASS_E, ip)) f.add('reserved-address', 'warning', r.span, { address: r.address });
    if (ip && svc.family !== undefined && ip.family !== svc.family && r.forward !== 'Tunnel') {
      f.add('family-mismatch', 'warning', r.span, {
        service,
        address: r.address,
        serviceFamily: svc.family,
        realFamily: ip.family,
      });
    }
  }
}

export function lintIpvs(dump: IpvsDump, lang: Lang = 'en'): Diagnostic[] {
  const f = new Findings(lang);
  const firstSeen = new Map<string, VirtualService>();
  for (const svc of dump.services) {
    lintService(f, dump, svc);
    const key = serviceKey(svc);
    const first = firstSeen.get(key);
    if (first) {
      f.add('duplicate-virtual-service', 'warning', svc.span, { service: serviceLabel(svc), line: first.line + 1 }, [
        { span: first.span, message: serviceLabel(first) },
      ]);
    } else firstSeen.set(key, svc);
  }
  const listing = dump.format === 'list' || dump.format === 'save';
  if (dump.header && listing && dump.services.length === 0 && dump.orphanRealServers.length === 0) {
    f.add('empty-table', 'info', dump.header.span, {});
  }
  return f.list;
}
