/** The tracer behind the custom requests: trace a packet through the open dump, list trace destinations. */
import type { Analysis } from '../../core/analyze';
import { isIp, splitHostPort, joinHostPort } from '../../core/common/ip';
import type { Lang } from '../../core/i18n/catalog';
import { distinctSteps, renderTraceMessage, tracePacket } from '../../core/iptables/trace';
import { noEndpointsSummary, traceHints } from '../../core/iptables/traceHints';
import { tn } from '../../core/i18n/catalog';
import { nodeAddressesFromPaste } from '../../core/nodeAddresses';
import { serviceLabel } from '../../core/ipvs/identity';
import { resolveVirtual } from '../../core/ipvs/resolve';
import { ipvsTracePaths } from '../../core/ipvs/tracePaths';
import type { TraceStep } from '../../core/iptables/trace';
import type { ServiceTarget, TracePacketParams, TracePacketResult, TraceStepResult } from '../protocol';

export class TraceInputError extends Error {}

export function tracePacketRequest(a: Analysis, p: TracePacketParams, serverLang: Lang): TracePacketResult {
  const lang: Lang = p.lang === 'en' || p.lang === 'zh-CN' ? p.lang : serverLang;
  if (!isIp(p.src)) throw new TraceInputError(`"${p.src}" is not an IP address`);
  const hp = splitHostPort(p.dst);
  if (!hp || !isIp(hp.host) || hp.port === undefined) throw new TraceInputError(`"${p.dst}" is not IP:PORT`);
  const proto = p.proto ?? 'tcp';
  const query = { ip: hp.host, port: hp.port, protocol: proto.toUpperCase() as 'TCP' | 'UDP' | 'SCTP' };
  // A session paste may hold both: IPVS answers for the VIPs it holds, the rules for the rest.
  if (a.ipvs && (!a.iptables?.dump.rules.length || resolveVirtual(a.ipvs, query, lang))) {
    const r = resolveVirtual(a.ipvs, query, lang);
    if (!r)
      return {
        summary: `No IPVS virtual service for ${proto.toUpperCase()} ${p.dst}`,
        paths: [],
        warnings: [],
        matchedLines: [],
      };
    const paths = ipvsTracePaths(r);
    const label = serviceLabel(r.service);
    return {
      summary: r.explanation,
      paths: paths.map((p) => ({
        probability: p.probability,
        verdict: 'ACCEPT',
        dnat: p.dnat,
        ...(!p.dnat && p.forward ? { forward: { ...p.realServer, method: p.forward } } : {}),
        // IPVS never rewrites the source; only iptables rules (not part of this output) masquerade.
        masquerade: false,
        steps: [
          { table: 'ipvs', chain: label, line: p.serviceLine, rule: label, action: 'match' },
          {
            table: 'ipvs',
            chain: label,
            line: p.realServerLine,
            rule: `-> ${joinHostPort(p.realServer.ip, p.realServer.port)} ${p.forward ?? ''}`.trim(),
            action: p.dnat ? 'nat' : 'forward',
          },
        ],
        assumptions: [],
      })),
      warnings: [],
      matchedLines: [r.service.line, ...paths.map((p) => p.realServerLine)],
    };
  }
  if (!a.iptables)
    return {
      summary: 'No iptables rules or IPVS services in this document',
      paths: [],
      warnings: [],
      matchedLines: [],
    };
  const dump = a.iptables.dump;
  // The node's addresses: the caller's, else an `ip addr` section of the same paste.
  const pasted = p.localAddresses ? undefined : nodeAddressesFromPaste(a.network);
  const localAddresses = p.localAddresses ?? pasted;
  const result = tracePacket(
    dump,
    {
      src: p.src,
      dst: hp.host,
      dport: hp.port,
      proto,
      hook: p.hook ?? 'prerouting',
      ...(p.inIface ? { inIface: p.inIface } : {}),
      ...(localAddresses ? { localAddresses } : {}),
    },
    { lang, ipsets: a.network?.ipsets },
  );
  const packet = { src: p.src, dst: hp.host, dport: hp.port, proto, hook: p.hook ?? 'prerouting' } as const;
  result.warnings.push(...traceHints(a.iptables, packet, result, lang));
  const empty = noEndpointsSummary(a.iptables, packet, result, lang);
  const dnats = new Set(result.paths.map((x) => (x.dnat ? joinHostPort(x.dnat.ip, x.dnat.port) : x.verdict)));
  const stepResult = (s: TraceStep): TraceStepResult => ({
    table: s.table,
    chain: s.chain,
    line: s.line,
    rule: s.rule,
    action: s.action,
    ...(s.noteMessage ? { note: renderTraceMessage(s.noteMessage, lang) } : s.note ? { note: s.note } : {}),
    ...(s.skipped ? { skipped: { ...s.skipped } } : {}),
  });
  const t = result.truncated;
  return {
    summary:
      empty ??
      tn(lang, 'trace.summary', result.paths.length, {
        proto: proto.toUpperCase(),
        src: p.src,
        dst: p.dst,
        targets: summariseTargets([...dnats]),
      }),
    paths: result.paths.map((x) => {
      const sep = endpointChain(x.ownSteps);
      // The facts of its alternative (`given`) head the path's group; `assumptions` are the others.
      const given = new Set(x.givenMessages.map((m) => JSON.stringify(m)));
      return {
        probability: x.probability,
        verdict: x.verdict,
        dnat: x.dnat ? { ip: x.dnat.ip, port: x.dnat.port ?? null } : null,
        masquerade: x.masquerade,
        ...(x.prefix >= 0 ? { prefix: x.prefix } : {}),
        steps: x.ownSteps.map(stepResult),
        assumptions: x.assumptions.filter((_, i) => !given.has(JSON.stringify(x.assumptionMessages[i]))),
        ...(x.given.length ? { given: x.given } : {}),
        ...(sep ? { endpointChain: sep } : {}),
      };
    }),
    ...(localAddresses ? { localAddresses: { addresses: localAddresses, from: pasted ? 'paste' : 'request' } } : {}),
    ...(!localAddresses &&
    result.paths.some((x) => x.givenMessages.some((m) => m.code === 'assume.local' || m.code === 'assume.not-local'))
      ? { needsLocalAddresses: true }
      : {}),
    ...(result.sharedSteps.length
      ? { sharedSteps: result.sharedSteps.map((s) => ({ ...stepResult(s.step), parent: s.parent })) }
      : {}),
    warnings: result.warnings,
    ...(t
      ? {
          truncated: {
            reason: t.reason,
            limit: t.limit,
            paths: t.paths,
            probability: t.probability,
            message: t.message,
          },
        }
      : {}),
    matchedLines: matchedLines(distinctSteps(result)),
  };
}

/** The endpoint chain the path DNATed in (kube-proxy's KUBE-SEP-...), from its own steps (the DNAT is never shared). */
function endpointChain(steps: readonly TraceStep[]): string | undefined {
  for (let i = steps.length - 1; i >= 0; i--)
    if (steps[i].action === 'nat' && steps[i].noteMessage?.code.startsWith('note.dnat')) return steps[i].chain;
  return undefined;
}

/** Lines of the rules the steps stand for; a run of rules not taken covers its whole range (merged, so linear). */
function matchedLines(steps: readonly TraceStep[]): number[] {
  const ranges: [number, number][] = [];
  for (const s of steps)
    if (s.line >= 0 && s.ruleId !== undefined) ranges.push([s.line, s.skipped ? s.skipped.lastLine : s.line]);
  ranges.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  let next = -1;
  for (const [from, to] of ranges) {
    for (let l = Math.max(from, next); l <= to; l++) out.push(l);
    next = Math.max(next, to + 1);
  }
  return out;
}

/** The summary names a few targets, not thousands. */
const SUMMARY_TARGETS = 5;
function summariseTargets(targets: string[]): string {
  if (targets.length <= SUMMARY_TARGETS) return targets.join(', ');
  return `${targets.slice(0, SUMMARY_TARGETS).join(', ')}, … (${targets.length})`;
}

export function listTargets(a: Analysis): ServiceTarget[] {
  const out: ServiceTarget[] = [];
  for (const s of a.iptables?.kube.services ?? []) {
    const line = s.lines[0] ?? 0;
    const base = { name: s.name || s.chain || '?', protocol: s.protocol ?? 'tcp', line, endpoints: s.endpoints.length };
    if (s.clusterIP && s.port !== undefined)
      out.push({ ...base, destination: joinHostPort(s.clusterIP, s.port), kind: 'cluster IP' });
    for (const ip of s.externalIPs)
      if (s.port !== undefined) out.push({ ...base, destination: joinHostPort(ip, s.port), kind: 'external IP' });
    for (const ip of s.loadBalancerIPs)
      if (s.port !== undefined) out.push({ ...base, destination: joinHostPort(ip, s.port), kind: 'load balancer IP' });
  }
  for (const v of a.ipvs?.services ?? []) {
    if (v.address === undefined || v.port === undefined) continue;
    out.push({
      name: serviceLabel(v),
      protocol: v.protocol.toLowerCase(),
      destination: joinHostPort(v.address, v.port),
      kind: 'ipvs virtual service',
      line: v.line,
      endpoints: v.realServers.length,
    });
  }
  return out;
}
