/** The tracer behind the custom requests: trace a packet through the open dump, list trace destinations. */
import type { Analysis } from '../../core/analyze';
import { joinHostPort, parseIp, type IpFamily } from '../../core/common/ip';
import type { Lang } from '../../core/i18n/catalog';
import { distinctSteps, renderTraceMessage } from '../../core/iptables/trace';
import { noEndpointsSummary } from '../../core/iptables/traceHints';
import { tn } from '../../core/i18n/catalog';
import { serviceLabel } from '../../core/ipvs/identity';
import { textLineOf, traceAnalysis } from '../../core/traceAnalysis';
import { checkTracePacket, type TraceInputNames } from '../../core/tracePacketInput';
import type { TraceStep } from '../../core/iptables/trace';
import type { ServiceTarget, TracePacketParams, TracePacketResult, TraceStepResult } from '../protocol';
import { throwIfCancelled } from '../cancellation';

export class TraceInputError extends Error {}

/** The request's fields, as its error messages name them. */
const PARAM_NAMES: TraceInputNames = {
  src: 'src',
  dst: 'dst',
  proto: 'proto',
  hook: 'hook',
  localAddresses: 'localAddresses',
};

/**
 * `forFamily`: the analysis a packet of a family is traced through, when it is not `held` (an nft ruleset read for
 * the other family's tables: see `heldDocument`).
 */
export function tracePacketRequest(
  held: Analysis,
  p: TracePacketParams,
  serverLang: Lang,
  forFamily?: (family: IpFamily) => Analysis,
): TracePacketResult {
  const lang: Lang = p.lang === 'en' || p.lang === 'zh-CN' ? p.lang : serverLang;
  const checked = checkTracePacket(p, PARAM_NAMES);
  if (!checked.ok) throw new TraceInputError(checked.message);
  const family = parseIp(checked.packet.dst)?.family;
  const a = (family && forFamily?.(family)) || held;
  const answer = traceAnalysis(a, checked.packet, lang);
  // The trace itself runs in the engine, which knows nothing of requests: it stops here, before its answer is made.
  throwIfCancelled();
  if (answer.engine === 'none')
    return {
      summary: 'No iptables rules or IPVS services in this document',
      paths: [],
      warnings: [],
      matchedLines: [],
    };
  if (answer.engine === 'ipvs') {
    if (!answer.resolution) return { summary: answer.message, paths: [], warnings: [], matchedLines: [] };
    const { resolution, paths } = answer;
    return {
      summary: resolution.explanation,
      paths: paths.map((x) => ({
        probability: x.probability,
        verdict: 'ACCEPT',
        // A port name ipvsadm printed without -n and no known number: the port is unknown (null), not 0.
        dnat: x.dnat ? { ip: x.dnat.ip, port: x.dnat.port ?? null } : null,
        ...(!x.dnat && x.forward
          ? { forward: { ip: x.realServer.ip, port: x.realServer.port, method: x.forward } }
          : {}),
        // IPVS never rewrites the source; only iptables rules (not part of this output) masquerade.
        masquerade: false,
        steps: x.steps,
        assumptions: [],
      })),
      warnings: [],
      matchedLines: [resolution.service.line, ...paths.map((x) => x.realServerLine)],
    };
  }
  const { packet, result, nodeAddresses } = answer;
  const empty = noEndpointsSummary(answer.model, packet, result, lang, textLineOf(a));
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
        proto: packet.proto.toUpperCase(),
        src: packet.src,
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
    ...(nodeAddresses ? { localAddresses: nodeAddresses } : {}),
    ...(!nodeAddresses &&
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
