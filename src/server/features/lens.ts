/** Code lenses (Service chains: endpoints, shares, references; counters; "Trace from a pod...") and inlay hints. */
import type { CodeLens, InlayHint } from 'vscode-languageserver';
import { InlayHintKind } from 'vscode-languageserver';
import type { Analysis } from '../../core/analyze';
import { formatShare } from '../../core/iptables/explain';
import { kubeChainKind } from '../../core/iptables/naming';
import { toRange } from '../convert';
import { joinHostPort } from '../../core/common/ip';

/** Command ids the lenses invoke; the extension registers them. */
export const TRACE_COMMAND = 'kubePacketPath.tracePacket';
export const REFERENCES_COMMAND = 'kubePacketPath.showReferences';

/** Above this many rules only the Service lenses are produced (counter lenses would flood the editor). */
const COUNTER_LENS_LIMIT = 5000;

export function codeLenses(a: Analysis, uri: string): CodeLens[] {
  const model = a.iptables;
  if (!model) return [];
  const out: CodeLens[] = [];
  for (const table of model.dump.tables) {
    for (const chain of table.chains.values()) {
      const kind = kubeChainKind(chain.name);
      if ((kind !== 'service' && kind !== 'service-local') || !chain.declSpan) continue;
      const s = model.kube.serviceByChain.get(chain.name);
      const n = s?.endpoints.length ?? 0;
      const refs = model.references(table.name, chain.name).length + model.mapReferences(table.name, chain.name).length;
      const shares = s?.endpoints.map((e) => e.share) ?? [];
      const known = shares.every((x) => x !== undefined);
      const even = known && shares.length > 0 && shares.every((x) => Math.abs(x! - shares[0]!) < 1e-6);
      const shareText = n <= 1 ? '' : !known ? ', shares unknown (partial ladder)' : even ? `, ${formatShare(shares[0])} each` : `, ${shares.map(formatShare).join(' / ')}`;
      out.push({
        range: toRange(chain.declSpan),
        command: {
          title: `${n} endpoint${n === 1 ? '' : 's'}${shareText}, ${refs} reference${refs === 1 ? '' : 's'}`,
          command: REFERENCES_COMMAND,
          arguments: [uri, chain.declSpan.line, chain.declSpan.column],
        },
      });
    }
  }
  for (const r of model.dump.rules) {
    if (r.chain !== 'KUBE-SERVICES' || r.table !== 'nat') continue;
    const s = r.target ? model.kube.serviceByChain.get(r.target.name) : undefined;
    const dst = r.matches.flatMap((m) => m.options).find((o) => o.name === 'destination' && !o.negated)?.values[0]?.replace(/\/(?:32|128)$/, '');
    const dport = r.matches.flatMap((m) => m.options).find((o) => o.name === 'dport' && !o.negated)?.values[0];
    if (!s || !dst || !dport) continue;
    const proto = (s.protocol ?? 'tcp').toLowerCase();
    out.push({ range: toRange(r.span), command: { title: 'Trace from a pod...', command: TRACE_COMMAND, arguments: [{ uri, dst: joinHostPort(dst, dport), proto }] } });
  }
  if (model.dump.rules.length <= COUNTER_LENS_LIMIT) {
    for (const r of model.dump.rules) {
      if (!r.counters) continue;
      out.push({ range: toRange(r.span), command: { title: `${r.counters.packets.toLocaleString('en-US')} packets, ${r.counters.bytes.toLocaleString('en-US')} bytes`, command: '' } });
    }
  }
  return out;
}

export function inlayHints(a: Analysis, startLine: number, endLine: number): InlayHint[] {
  const model = a.iptables;
  if (!model) return [];
  const out: InlayHint[] = [];
  for (let line = startLine; line <= endLine; line++) {
    const r = model.ruleAtLine(line);
    // Once per rule, on the line of its target (a hard-wrapped rule answers on each of its lines).
    if (!r?.target || r.target.span.line !== line) continue;
    const end = { line, character: r.target.span.column + r.target.span.length };
    const svc = model.kube.serviceByChain.get(r.target.name);
    const ep = model.kube.endpointByChain.get(r.target.name);
    if (svc?.name) out.push({ position: end, label: ` ${svc.name}`, kind: InlayHintKind.Type, paddingLeft: true });
    else if (ep && ep.endpoint.ip) {
      const share = r.matches.some((m) => m.module === 'statistic') || model.kube.serviceByChain.get(r.chain) ? ` ${formatShare(ep.endpoint.share)}` : '';
      out.push({ position: end, label: ` ${joinHostPort(ep.endpoint.ip, ep.endpoint.port ?? '?')}${share}`, kind: InlayHintKind.Type, paddingLeft: true });
    }
  }
  return out;
}
