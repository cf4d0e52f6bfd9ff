/**
 * What a trace alone does not say: the dump left out tables iptables cannot show (nft-written), an nft ruleset
 * hooks chains in that the tracer does not walk, or the
 * destination is a Service address but no path was DNATed (wrong port or protocol, or no rule for it on this
 * node). Read from the dump's diagnostics and the kube-proxy view, in the caller's language.
 */
import { t, type Lang } from '../i18n/catalog';
import type { IptablesModel } from './model';
import { kubeChainKind } from './naming';
import { optionValue, ruleTargetName } from './types';
import { distinctSteps } from './trace/steps';
import type { Packet, TraceResult } from './trace/types';

export function traceHints(model: IptablesModel, packet: Packet, result: TraceResult, lang: Lang): string[] {
  // Rules the dump could not show still act on the packet, DNAT or not.
  const hidden = model.dump.diagnostics
    .filter((d, i, all) => d.code === 'nft-incompatible' || d.code === 'nft-base-chain-not-traced' || (d.code === 'listing-without-interfaces' && all.findIndex((x) => x.code === d.code) === i))
    .map((d) => t(lang, `trace.hint.${d.code}`, { table: '?', ...d.params, line: d.span.line + 1 }));
  return [...hidden, ...incompleteHints(model, lang), ...serviceHints(model, packet, result, lang)];
}

/**
 * A paste cut off mid-table (no COMMIT, a quote never closed) traces like a complete dump that simply has no
 * more rules: say what the trace could not read, so a verdict from a chain's policy is not taken at its word.
 */
function incompleteHints(model: IptablesModel, lang: Lang): string[] {
  const out: string[] = [];
  const diagnostics = model.dump.diagnostics;
  for (const d of diagnostics) {
    if (d.code !== 'missing-commit') continue;
    const variant = d.messageKey?.endsWith('.next') ? 'trace.hint.missing-commit.next' : 'trace.hint.missing-commit';
    out.push(t(lang, variant, { table: String(d.params?.table ?? '?'), line: d.span.line + 1 }));
  }
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    const first = errors[0];
    const message = first.messageKey ? t(lang, first.messageKey, first.params) : first.message;
    out.push(t(lang, 'trace.hint.parse-errors', { count: errors.length, line: first.span.line + 1, message }));
  }
  return out;
}

function serviceHints(model: IptablesModel, packet: Packet, result: TraceResult, lang: Lang): string[] {
  if (result.paths.some((p) => p.dnat)) return [];
  const blocked = firewallBlock(model, result);
  if (blocked) return [t(lang, 'trace.hint.lb-source-blocked', { ...blocked, dst: `${packet.dst}:${packet.dport}`, src: packet.src })];
  const matching = model.kube.services.filter(
    (s) => s.clusterIP === packet.dst || s.externalIPs.includes(packet.dst) || s.loadBalancerIPs.includes(packet.dst),
  );
  if (matching.length === 0) return [];
  const ports = matching.map((s) => `${s.port ?? '?'}/${(s.protocol ?? 'tcp').toUpperCase()}`).join(', ');
  const names = [...new Set(matching.map((s) => s.name || s.chain || '?'))].join(', ');
  return [t(lang, 'trace.hint.service-port-mismatch', { dst: packet.dst, port: `${packet.dport}/${packet.proto.toUpperCase()}`, services: names, ports })];
}

/**
 * A load balancer's source ranges turned the packet away: kube-proxy's KUBE-FW- chain lets the allowed sources on
 * and marks the rest for drop (KUBE-MARK-DROP, or KUBE-PROXY-FIREWALL's DROP in 1.27 and later). The port was right.
 */
function firewallBlock(model: IptablesModel, result: TraceResult): { chain: string; line: number; service: string; ranges: string } | undefined {
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
    return { chain, line: rule.line + 1, service, ranges: ranges.length ? ranges.join(', ') : '—' };
  }
  return undefined;
}
