/**
 * What a trace alone does not say: the dump left out tables iptables cannot show (nft-written), an nft ruleset
 * hooks chains in that the tracer does not walk, or the
 * destination is a Service address but no path was DNATed (wrong port or protocol, or no rule for it on this
 * node). Read from the dump's diagnostics and the kube-proxy view, in the caller's language.
 */
import { t, type Lang } from '../i18n/catalog';
import type { IptablesModel } from './model';
import { kubeChainKind } from './chainHashes';
import { optionValue, ruleTargetName, targetOptionValue } from './dump';
import { distinctSteps } from './trace/steps';
import type { Packet, TraceResult } from './trace/types';
import { joinHostPort } from '../common/ip';

/**
 * The text's 0-based line of an engine line: the same line, unless the engines read a dump a kube-proxy log
 * carried on one line (`Analysis.positions`). The lines the hints quote are the text's, as a person looks them up.
 */
export type TextLine = (engineLine: number) => number;

const sameLine: TextLine = (line) => line;

export function traceHints(
  model: IptablesModel,
  packet: Packet,
  result: TraceResult,
  lang: Lang,
  textLine: TextLine = sameLine,
): string[] {
  // Rules the dump could not show still act on the packet, DNAT or not.
  const hidden = model.dump.diagnostics
    .filter(
      (d, i, all) =>
        d.code === 'nft-incompatible' ||
        d.code === 'nft-base-chain-not-traced' ||
        (d.code === 'listing-without-interfaces' && all.findIndex((x) => x.code === d.code) === i),
    )
    .map((d) => t(lang, `trace.hint.${d.code}`, { table: '?', ...d.params, line: textLine(d.span.line) + 1 }));
  return [...hidden, ...incompleteHints(model, lang, textLine), ...serviceHints(model, packet, result, lang, textLine)];
}

/**
 * A paste cut off mid-table (no COMMIT, a quote never closed) traces like a complete dump that simply has no
 * more rules: say what the trace could not read, so a verdict from a chain's policy is not taken at its word.
 */
function incompleteHints(model: IptablesModel, lang: Lang, textLine: TextLine): string[] {
  const out: string[] = [];
  const diagnostics = model.dump.diagnostics;
  for (const d of diagnostics) {
    if (d.code !== 'missing-commit') continue;
    const variant = d.messageKey?.endsWith('.next') ? 'trace.hint.missing-commit.next' : 'trace.hint.missing-commit';
    out.push(t(lang, variant, { table: String(d.params?.table ?? '?'), line: textLine(d.span.line) + 1 }));
  }
  const cut = diagnostics.find((d) => d.code === 'cut-rule');
  if (cut) out.push(t(lang, 'trace.hint.cut-rule', { line: textLine(cut.span.line) + 1 }));
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    const first = errors[0];
    const message = first.messageKey ? t(lang, first.messageKey, first.params) : first.message;
    out.push(
      t(lang, 'trace.hint.parse-errors', { count: errors.length, line: textLine(first.span.line) + 1, message }),
    );
  }
  return out;
}

/**
 * The trace's one-line answer when the destination is a Service port without endpoints (kube-proxy's REJECT, or
 * no KUBE-SVC chain to DNAT into): that, and not the port or protocol, is why nothing answers.
 */
export function noEndpointsSummary(
  model: IptablesModel,
  packet: Packet,
  result: TraceResult,
  lang: Lang,
  textLine: TextLine = sameLine,
): string | undefined {
  if (result.paths.some((p) => p.dnat)) return undefined;
  return noEndpointsReject(model, result, lang, textLine) ?? emptyService(model, packet, lang);
}

function emptyService(model: IptablesModel, packet: Packet, lang: Lang): string | undefined {
  const empty = model.kube.services.filter(
    (s) =>
      (s.clusterIP === packet.dst || s.externalIPs.includes(packet.dst) || s.loadBalancerIPs.includes(packet.dst)) &&
      s.endpoints.length === 0 &&
      // A jump to a chain the paste left out: its endpoints are unknown, not none.
      (s.noEndpoints || !s.chain || model.chainsNamed(s.chain).length > 0) &&
      s.port === packet.dport &&
      (s.protocol ?? 'tcp') === packet.proto,
  );
  return empty.length
    ? t(lang, 'trace.hint.no-endpoints.nat', { service: empty.map((s) => s.name || s.chain || '?').join(', ') })
    : undefined;
}

function serviceHints(
  model: IptablesModel,
  packet: Packet,
  result: TraceResult,
  lang: Lang,
  textLine: TextLine,
): string[] {
  if (result.paths.some((p) => p.dnat)) return [];
  const blocked = firewallBlock(model, result, textLine);
  if (blocked)
    return [
      t(lang, 'trace.hint.lb-source-blocked', {
        ...blocked,
        dst: joinHostPort(packet.dst, packet.dport),
        src: packet.src,
      }),
    ];
  // A Service port without endpoints: kube-proxy's REJECT answers; the port and protocol were right.
  const noEndpoints = noEndpointsSummary(model, packet, result, lang, textLine);
  if (noEndpoints) return [noEndpoints];
  const matching = model.kube.services.filter(
    (s) => s.clusterIP === packet.dst || s.externalIPs.includes(packet.dst) || s.loadBalancerIPs.includes(packet.dst),
  );
  if (matching.length === 0) return [];
  // The port and protocol are the Service's: not what to check. When no path entered its chain, no rule of the
  // dump leads there (a paste that kept the Service's chains but not its KUBE-SERVICES rule, or a node without
  // that rule); a chain the paste left out is said by the trace's warning about the jump to it.
  const served = matching.find((s) => s.port === packet.dport && (s.protocol ?? 'tcp') === packet.proto);
  // A path that ended UNKNOWN (a jump to a chain the paste lacks, such as a CNI's before kube-proxy's) may have
  // been on its way there: the warning about that jump says what happened.
  const unknown = result.paths.some((p) => p.verdict === 'UNKNOWN');
  if (served)
    return served.chain && model.chainsNamed(served.chain).length > 0 && !entered(result, served.chain) && !unknown
      ? [
          t(lang, 'trace.hint.service-not-reached', {
            dst: `${joinHostPort(packet.dst, packet.dport)}/${packet.proto.toUpperCase()}`,
            service: served.name || served.chain,
            chain: served.chain,
          }),
        ]
      : [];
  const ports = matching.map((s) => `${s.port ?? '?'}/${(s.protocol ?? 'tcp').toUpperCase()}`).join(', ');
  const names = [...new Set(matching.map((s) => s.name || s.chain || '?'))].join(', ');
  return [
    t(lang, 'trace.hint.service-port-mismatch', {
      dst: packet.dst,
      port: `${packet.dport}/${packet.proto.toUpperCase()}`,
      services: names,
      ports,
    }),
  ];
}

/** Whether a path of the trace took a step in `chain`. */
function entered(result: TraceResult, chain: string): boolean {
  return (
    result.sharedSteps.some((s) => s.step.chain === chain) ||
    result.paths.some((p) => p.steps.some((s) => s.chain === chain))
  );
}

const NO_ENDPOINTS = / has no endpoints$/;

/**
 * The path ended at kube-proxy's REJECT for a Service port without endpoints (`"ns/name:port has no endpoints"`
 * in filter KUBE-SERVICES / KUBE-EXTERNAL-SERVICES): the port and protocol were right, the Service is empty.
 */
function noEndpointsReject(
  model: IptablesModel,
  result: TraceResult,
  lang: Lang,
  textLine: TextLine,
): string | undefined {
  for (const step of distinctSteps(result)) {
    if (step.action !== 'terminal') continue;
    const rule = step.ruleId !== undefined ? model.dump.rules[step.ruleId] : undefined;
    if (!rule || ruleTargetName(rule) !== 'REJECT' || !NO_ENDPOINTS.test(rule.comment ?? '')) continue;
    const service = (rule.comment ?? '').replace(NO_ENDPOINTS, '');
    const how = targetOptionValue(rule, 'reject-with') ?? 'icmp-port-unreachable';
    return t(lang, 'trace.hint.no-endpoints', {
      service,
      chain: `${rule.table}/${rule.chain}`,
      line: textLine(rule.line) + 1,
      with: how,
    });
  }
  return undefined;
}

/**
 * A load balancer's source ranges turned the packet away: kube-proxy's KUBE-FW- chain lets the allowed sources on
 * and marks the rest for drop (KUBE-MARK-DROP, or KUBE-PROXY-FIREWALL's DROP in 1.27 and later). The port was right.
 */
function firewallBlock(
  model: IptablesModel,
  result: TraceResult,
  textLine: TextLine,
): { chain: string; line: number; service: string; ranges: string } | undefined {
  for (const step of distinctSteps(result)) {
    const rule = step.ruleId !== undefined ? model.dump.rules[step.ruleId] : undefined;
    if (!rule) continue;
    const target = ruleTargetName(rule);
    const inFirewall = kubeChainKind(rule.chain) === 'firewall' && target === 'KUBE-MARK-DROP';
    const proxyFirewallDrop = rule.chain === 'KUBE-PROXY-FIREWALL' && target === 'DROP';
    if (!inFirewall && !proxyFirewallDrop) continue;
    // 1.27+: the DROP rule's comment names the KUBE-FW- chain ("... traffic not accepted by KUBE-FW-...").
    const chain = inFirewall ? rule.chain : (/KUBE-FW-\S+/.exec(rule.comment ?? '')?.[0] ?? rule.chain);
    const fw = model.chain('nat', chain) ?? model.chain(rule.table, chain);
    const ranges = (fw?.rules ?? [])
      .filter((r) => ruleTargetName(r) !== 'KUBE-MARK-DROP')
      .map((r) => optionValue(r, 'source'))
      .filter((s): s is string => s !== undefined);
    const service = model.kube.serviceByChain.get(chain)?.name || '?';
    return { chain, line: textLine(rule.line) + 1, service, ranges: ranges.length ? ranges.join(', ') : '—' };
  }
  return undefined;
}
