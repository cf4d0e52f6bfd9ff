/** Code lenses (Service chains: endpoints, shares, references; counters; "Trace from a pod...") and inlay hints. */
import type { CodeLens, InlayHint } from 'vscode-languageserver';
import { InlayHintKind } from '../lspConstants';
import type { Analysis } from '../../core/analyze';
import { formatShare } from '../../core/common/shares';
import { kubeChainKind } from '../../core/iptables/chainHashes';
import { toRange } from '../convert';
import { joinHostPort } from '../../core/common/ip';
import { t, tn, type Lang } from '../../core/i18n/catalog';
import { COMMANDS } from '../protocolNames';
import { throwIfCancelled } from '../cancellation';

/** Above this many rules only the Service lenses are produced (counter lenses would flood the editor). */
const COUNTER_LENS_LIMIT = 5000;

/** A Service's first KUBE-SERVICES rule: where a packet to it goes (its ClusterIP and port). */
interface TraceTarget {
  dst: string;
  dport: string;
  proto: string;
  service: string;
  /** The rule, for a chain that has no declaration line to carry the lens. */
  span: Parameters<typeof toRange>[0];
}

export function codeLenses(a: Analysis, uri: string, lang: Lang = 'en'): CodeLens[] {
  const model = a.iptables;
  if (!model) return [];
  const out: CodeLens[] = [];
  const targets = new Map<string, TraceTarget>();
  for (const r of model.dump.rules) {
    throwIfCancelled();
    if (r.chain !== 'KUBE-SERVICES' || r.table !== 'nat' || !r.target || targets.has(r.target.name)) continue;
    const s = model.kube.serviceByChain.get(r.target.name);
    const dst = r.matches
      .flatMap((m) => m.options)
      .find((o) => o.name === 'destination' && !o.negated)
      ?.values[0]?.replace(/\/(?:32|128)$/, '');
    const dport = r.matches.flatMap((m) => m.options).find((o) => o.name === 'dport' && !o.negated)?.values[0];
    if (!s || !dst || !dport) continue;
    targets.set(r.target.name, {
      dst,
      dport,
      proto: (s.protocol ?? 'tcp').toLowerCase(),
      service: s.name || r.target.name,
      span: r.span,
    });
  }
  const traceLens = (range: CodeLens['range'], to: TraceTarget): CodeLens => ({
    range,
    command: {
      title: t(lang, 'lens.trace', { service: to.service }),
      command: COMMANDS.tracePacket,
      arguments: [{ uri, dst: joinHostPort(to.dst, to.dport), proto: to.proto }],
    },
  });
  for (const table of model.dump.tables) {
    for (const chain of table.chains.values()) {
      throwIfCancelled();
      const kind = kubeChainKind(chain.name);
      if ((kind !== 'service' && kind !== 'service-local') || !chain.declSpan) continue;
      const s = model.kube.serviceByChain.get(chain.name);
      const n = s?.endpoints.length ?? 0;
      // The jumps to the chain, as the references peek this lens opens lists them (without the declaration).
      const refs = model.references(table.name, chain.name).length + model.mapReferences(table.name, chain.name).length;
      const shares = s?.endpoints.map((e) => e.share) ?? [];
      const known = shares.every((x) => x !== undefined);
      const even = known && shares.length > 0 && shares.every((x) => Math.abs(x! - shares[0]!) < 1e-6);
      const shareText =
        n <= 1
          ? ''
          : !known
            ? t(lang, 'lens.shares.unknown')
            : even
              ? t(lang, 'lens.shares.each', { share: formatShare(shares[0]) })
              : t(lang, 'lens.shares.list', { shares: shares.map(formatShare).join(' / ') });
      const range = toRange(chain.declSpan);
      out.push({
        range,
        command: {
          title: t(lang, 'lens.service', {
            endpoints: tn(lang, 'lens.endpoints', n),
            shares: shareText,
            references: tn(lang, 'lens.references', refs),
          }),
          command: COMMANDS.showReferences,
          arguments: [uri, chain.declSpan.line, chain.declSpan.column],
        },
      });
      // On the chain's own line, beside its endpoints: KUBE-SERVICES keeps one line per rule.
      const target = targets.get(chain.name);
      if (target && table.name === 'nat') {
        out.push(traceLens(range, target));
        targets.delete(chain.name);
      }
    }
  }
  // Chains without a declaration line (a grep paste): the lens stays on their KUBE-SERVICES rule.
  for (const target of targets.values()) out.push(traceLens(toRange(target.span), target));
  if (model.dump.rules.length <= COUNTER_LENS_LIMIT) {
    const number = lang === 'zh-CN' ? 'zh-CN' : 'en-US';
    for (const r of model.dump.rules) {
      throwIfCancelled();
      if (!r.counters) continue;
      const packets = r.counters.packets;
      out.push({
        range: toRange(r.span),
        command: {
          title: tn(lang, 'lens.counters', packets, {
            packets: packets.toLocaleString(number),
            bytes: r.counters.bytes.toLocaleString(number),
          }),
          command: '',
        },
      });
    }
  }
  return out;
}

export function inlayHints(a: Analysis, startLine: number, endLine: number): InlayHint[] {
  const model = a.iptables;
  if (!model) return [];
  const out: InlayHint[] = [];
  // A range past the end (a client asking for "everything") stops at the last line, not a billion lines on.
  const last = Math.min(endLine, model.dump.lineCount - 1);
  for (let line = Math.max(0, startLine); line <= last; line++) {
    throwIfCancelled();
    const r = model.ruleAtLine(line);
    // Once per rule, on the line of its target (a hard-wrapped rule answers on each of its lines).
    if (!r?.target || r.target.span.line !== line) continue;
    const end = { line, character: r.target.span.column + r.target.span.length };
    const svc = model.kube.serviceByChain.get(r.target.name);
    const ep = model.kube.endpointByChain.get(r.target.name);
    if (svc?.name) out.push({ position: end, label: ` ${svc.name}`, kind: InlayHintKind.Type, paddingLeft: true });
    else if (ep && ep.endpoint.ip) {
      const share =
        r.matches.some((m) => m.module === 'statistic') || model.kube.serviceByChain.get(r.chain)
          ? ` ${formatShare(ep.endpoint.share)}`
          : '';
      out.push({
        position: end,
        label: ` ${joinHostPort(ep.endpoint.ip, ep.endpoint.port ?? '?')}${share}`,
        kind: InlayHintKind.Type,
        paddingLeft: true,
      });
    }
  }
  return out;
}
