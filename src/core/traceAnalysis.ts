/**
 * One trace entry for every face (`kpp trace`, the language server's trace request, hence the extension's view):
 * given an analysed paste (`analyze.ts`) and a checked packet (`tracePacketInput.ts`), the engine that answers
 * for it. A paste may hold both (IPVS-mode kube-proxy keeps iptables rules too): IPVS answers for the virtual
 * services it holds, the iptables rules for the rest. The faces only shape the answer (JSON, a tree, a view).
 */
import { parseIp } from './common/ip';
import { analyzeText, type Analysis } from './analyze';
import type { Lang } from './i18n/catalog';
import type { IptablesModel } from './iptables/model';
import { tracePacket } from './iptables/trace';
import type { Packet, TraceResult } from './iptables/trace/types';
import { traceHints, type TextLine } from './iptables/traceHints';
import { DeferredChain, isTraceSlice } from './iptables/traceSlice';
import { explainNoVirtual, resolveVirtual, type VirtualQuery, type VirtualResolution } from './ipvs/resolve';
import { ipvsTracePaths, type IpvsTracePath } from './ipvs/tracePaths';
import { nodeAddressesFromPaste } from './nodeAddresses';
import type { TraceProtocol } from './tracePacketInput';

export type TraceAnswer =
  /** The virtual service's real servers are the paths. */
  | { engine: 'ipvs'; packet: Packet; resolution: VirtualResolution; paths: IpvsTracePath[] }
  /** An IPVS paste without a virtual service for the packet, said in the caller's language. */
  | { engine: 'ipvs'; packet: Packet; resolution: undefined; message: string }
  | {
      engine: 'iptables';
      packet: Packet;
      model: IptablesModel;
      /** Its warnings include what the trace alone does not say (`traceHints`). */
      result: TraceResult;
      /** The node's addresses the trace used: the caller's, else an `ip addr` section of the same paste. */
      nodeAddresses?: { addresses: string[]; from: 'request' | 'paste' };
    }
  /**
   * Nothing to walk: neither IPVS virtual services nor iptables rules or chain policies (a policy alone decides,
   * `:FORWARD DROP` and no rules; with neither, any verdict would be made up). `input` names what the text is.
   */
  | { engine: 'none'; input: string };

/** How the hints name a line of the text (see `TextLine`). */
export function textLineOf(a: Analysis): TextLine | undefined {
  const positions = a.positions;
  return positions ? (line) => positions.lineToOriginal(line) : undefined;
}

/**
 * A trace of a text nothing else is asked about (`kpp trace`): the text is read for this packet only when it can
 * be (a big dump's trace then reads the chains the packet can enter, not every rule). The hints about a packet no
 * rule DNATs name the dump's Services and need every rule: such a trace is made again on the whole text, so the
 * answer is always the whole text's. A slice may leave out a long chain a trace seldom enters (`DeferredChain`);
 * a trace that enters it is made again with it read.
 */
export function traceText(
  text: string,
  packet: Packet & { proto: TraceProtocol },
  lang: Lang,
): { analysis: Analysis; answer: TraceAnswer } {
  const focus = { dst: packet.dst, dport: packet.dport, proto: packet.proto };
  let focused = analyzeText(text, undefined, { focus });
  let answer: TraceAnswer;
  try {
    answer = traceAnalysis(focused, packet, lang);
  } catch (e) {
    if (!(e instanceof DeferredChain)) throw e;
    // The trace entered a chain the slice left out (kube-proxy's KUBE-NODEPORTS): the same slice with it read.
    focused = analyzeText(text, undefined, { focus: { ...focus, again: e.slice } });
    answer = traceAnalysis(focused, packet, lang);
  }
  const sliced = focused.iptables !== undefined && isTraceSlice(focused.iptables.dump);
  if (!sliced || (answer.engine === 'iptables' && answer.result.paths.some((p) => p.dnat)))
    return { analysis: focused, answer };
  // An nft ruleset is read for the packet's family, as the focused reading was.
  const whole = analyzeText(text, undefined, { packetFamily: parseIp(packet.dst)?.family });
  return { analysis: whole, answer: traceAnalysis(whole, packet, lang) };
}

export function traceAnalysis(a: Analysis, packet: Packet & { proto: TraceProtocol }, lang: Lang): TraceAnswer {
  const protocol = packet.proto.toUpperCase() as Uppercase<TraceProtocol>;
  const query: VirtualQuery = { ip: packet.dst, port: packet.dport, protocol };
  const hasRules = !!a.iptables && a.iptables.dump.rules.length > 0;
  if (a.ipvs) {
    const resolution = resolveVirtual(a.ipvs, query, lang);
    if (resolution) return { engine: 'ipvs', packet, resolution, paths: ipvsTracePaths(resolution) };
    if (!hasRules) return { engine: 'ipvs', packet, resolution, message: explainNoVirtual(query, lang) };
  }
  const hasPolicies =
    !!a.iptables &&
    a.iptables.dump.tables.some((t) => [...t.chains.values()].some((c) => c.policy !== undefined && c.policy !== '-'));
  if (!a.iptables || (!hasRules && !hasPolicies))
    return { engine: 'none', input: a.network ? (a.network.formats?.[0] ?? 'network state') : a.detection.kind };
  const pasted = packet.localAddresses ? undefined : nodeAddressesFromPaste(a.network);
  const result = tracePacket(a.iptables.dump, pasted ? { ...packet, localAddresses: pasted } : packet, {
    lang,
    ipsets: a.network?.ipsets,
  });
  result.warnings.push(...traceHints(a.iptables, packet, result, lang, textLineOf(a)));
  const addresses = packet.localAddresses ?? pasted;
  return {
    engine: 'iptables',
    packet,
    model: a.iptables,
    result,
    ...(addresses ? { nodeAddresses: { addresses, from: pasted ? 'paste' : 'request' } } : {}),
  };
}
