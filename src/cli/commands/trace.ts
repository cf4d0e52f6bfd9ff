/**
 * `kpp trace FILE --src IP --dst IP:PORT [...]`: follows a packet through an iptables dump (or maps a VIP to its
 * real servers in an ipvsadm dump) and prints the paths: JSON with `--json`, a readable tree otherwise.
 */
import { analyzeText } from '../../core/analyze';
import { isIp, parseIp, splitHostPort, joinHostPort } from '../../core/common/ip';
import { tracePacket, formatTraceTree } from '../../core/iptables/trace';
import { traceHints } from '../../core/iptables/traceHints';
import { nodeAddressesFromPaste } from '../../core/nodeAddresses';
import type { Packet, TraceResult, TraceStep } from '../../core/iptables/trace/types';
import { explainNoVirtual, resolveVirtual } from '../../core/ipvs/resolve';
import { ipvsTracePaths } from '../../core/ipvs/tracePaths';
import { parseArgs, UsageError } from '../args';
import { printJson, readInput } from '../io';
import { langOption } from '../lang';

const PROTOS = ['tcp', 'udp', 'sctp'] as const;
const HOOKS = ['prerouting', 'output'] as const;

export interface TraceStepJson {
  table: string;
  chain: string;
  line: number | null;
  rule: string;
  /** A run of `count` statistic rules not taken, from `line` to `lastLine` (1-based). */
  skipped?: { count: number; lastLine: number };
}

/**
 * `kpp trace --json`. When paths have steps in common, those are listed once in `sharedSteps` (a tree: each names
 * its `parent`, null for the first step) and each path says with `prefix` (an index in `sharedSteps`, or null)
 * where it leaves them; its `steps` are the ones after that. A path's full walk is the `parent` chain from
 * `prefix`, reversed, then its `steps`. A trace with one path has no `sharedSteps` and prints every step as before.
 */
export interface TraceJson {
  paths: {
    probability: number;
    verdict: string;
    dnat: { ip: string; port: number | null } | null;
    masquerade: boolean;
    prefix?: number | null;
    steps: TraceStepJson[];
    assumptions?: string[];
    /** Undecided facts the path took a side on ("if 10.96.0.10 is an address of this node"): the path applies when
     * they hold (absent: always); under any answer, the probabilities of the paths that apply sum to 1. */
    given?: string[];
  }[];
  sharedSteps?: (TraceStepJson & { parent: number | null })[];
  /** A limit stopped the trace early: which, its value, the paths it cut short (UNKNOWN) and their probability. */
  truncated?: { reason: string; limit: number; paths: number; probability: number; message: string };
  warnings?: string[];
}

function stepJson(s: TraceStep): TraceStepJson {
  const out: TraceStepJson = { table: s.table, chain: s.chain, line: s.line >= 0 ? s.line + 1 : null, rule: s.rule };
  if (s.skipped) out.skipped = { count: s.skipped.count, lastLine: s.skipped.lastLine + 1 };
  return out;
}

export function packetFromArgs(args: ReturnType<typeof parseArgs>): Packet {
  const src = args.options.get('src');
  const dst = args.options.get('dst');
  if (!src) throw new UsageError('--src IP is required');
  if (!dst) throw new UsageError('--dst IP:PORT is required');
  if (!isIp(src)) throw new UsageError(`--src: "${src}" is not an IP address`);
  const hp = splitHostPort(dst);
  if (!hp || !isIp(hp.host) || hp.port === undefined || hp.port > 65535)
    throw new UsageError(`--dst: "${dst}" is not IP:PORT (use [v6]:PORT for IPv6)`);
  if (parseIp(src)!.family !== parseIp(hp.host)!.family)
    throw new UsageError('--src and --dst must be both IPv4 or both IPv6');
  const proto = (args.options.get('proto') ?? 'tcp').toLowerCase();
  if (!(PROTOS as readonly string[]).includes(proto))
    throw new UsageError(`--proto must be one of ${PROTOS.join(', ')}`);
  const hook = (args.options.get('hook') ?? 'prerouting').toLowerCase();
  if (!(HOOKS as readonly string[]).includes(hook)) throw new UsageError(`--hook must be one of ${HOOKS.join(', ')}`);
  const local = args.options.get('local-ip');
  const localAddresses = local
    ? local
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
  for (const a of localAddresses ?? []) if (!isIp(a)) throw new UsageError(`--local-ip: "${a}" is not an IP address`);
  const inIface = args.options.get('in-iface');
  return {
    src,
    dst: hp.host,
    dport: hp.port,
    proto: proto as Packet['proto'],
    hook: hook as Packet['hook'],
    ...(inIface ? { inIface } : {}),
    ...(localAddresses ? { localAddresses } : {}),
  };
}

export function traceJson(result: TraceResult): TraceJson {
  const shared = result.sharedSteps.length > 0;
  const t = result.truncated;
  return {
    paths: result.paths.map((p) => ({
      probability: Math.round(p.probability * 1e12) / 1e12,
      verdict: p.verdict,
      dnat: p.dnat ? { ip: p.dnat.ip, port: p.dnat.port ?? null } : null,
      masquerade: p.masquerade,
      ...(shared ? { prefix: p.prefix >= 0 ? p.prefix : null } : {}),
      steps: p.ownSteps.map(stepJson),
      ...(p.assumptions.length ? { assumptions: p.assumptions } : {}),
      ...(p.given.length ? { given: p.given } : {}),
    })),
    ...(shared
      ? {
          sharedSteps: result.sharedSteps.map((s) => ({
            ...stepJson(s.step),
            parent: s.parent >= 0 ? s.parent : null,
          })),
        }
      : {}),
    ...(t
      ? {
          truncated: {
            reason: t.reason,
            limit: t.limit,
            paths: t.paths,
            probability: Math.round(t.probability * 1e12) / 1e12,
            message: t.message,
          },
        }
      : {}),
    ...(result.warnings.length ? { warnings: result.warnings } : {}),
  };
}

export function runTrace(argv: string[]): number {
  const args = parseArgs(argv, ['src', 'dst', 'proto', 'hook', 'in-iface', 'local-ip', 'lang'], ['json']);
  const packet = packetFromArgs(args);
  const lang = langOption(args);
  const a = analyzeText(readInput(args.positionals[0]));
  // A paste with both (IPVS-mode kube-proxy keeps iptables rules too): IPVS answers for the VIPs it holds.
  const hasRules = !!a.iptables && a.iptables.dump.rules.length > 0;
  if (a.ipvs && (!hasRules || resolveVirtual(a.ipvs, virtualQuery(packet), lang)))
    return traceIpvs(a.ipvs, packet, lang, args.flags.has('json'));
  // Policies alone decide too (`:FORWARD DROP` and no rules): a dump with either can be traced.
  const hasPolicies =
    !!a.iptables &&
    a.iptables.dump.tables.some((t) => [...t.chains.values()].some((c) => c.policy !== undefined && c.policy !== '-'));
  if (!a.iptables || (!hasRules && !hasPolicies)) {
    const what = a.network ? (a.network.formats?.[0] ?? 'network state') : a.detection.kind;
    throw new UsageError(
      `trace needs an iptables or ipvsadm dump with rules or chain policies; this input is ${what === 'unknown' ? 'not one' : what}`,
    );
  }
  // Without --local-ip, an `ip addr` section of the same paste tells which addresses are the node's.
  const pasted = packet.localAddresses ? undefined : nodeAddressesFromPaste(a.network);
  const result = tracePacket(a.iptables.dump, pasted ? { ...packet, localAddresses: pasted } : packet, {
    lang,
    ipsets: a.network?.ipsets,
  });
  result.warnings.push(...traceHints(a.iptables, packet, result, lang));
  if (args.flags.has('json')) printJson(traceJson(result));
  else process.stdout.write(`${formatTraceTree(result, lang)}\n`);
  return 0;
}

function virtualQuery(packet: Packet) {
  return { ip: packet.dst, port: packet.dport, protocol: packet.proto.toUpperCase() as 'TCP' | 'UDP' | 'SCTP' };
}

/** IPVS has no chains to walk: the VIP's real servers are the paths, weighted by the scheduler. */
function traceIpvs(
  dump: NonNullable<ReturnType<typeof analyzeText>['ipvs']>,
  packet: Packet,
  lang: ReturnType<typeof langOption>,
  json: boolean,
): number {
  const query = virtualQuery(packet);
  const r = resolveVirtual(dump, query, lang);
  if (!r) {
    if (json) printJson({ paths: [], warnings: [explainNoVirtual(query, lang)] });
    else process.stdout.write(`${explainNoVirtual(query, lang)}\n`);
    return 0;
  }
  const label =
    `${r.service.protocol} ${r.service.address ?? ''}:${r.service.port ?? ''} ${r.service.scheduler ?? ''}`.trim();
  const paths = ipvsTracePaths(r).map((p) => ({
    probability: p.probability,
    verdict: 'ACCEPT',
    dnat: p.dnat,
    realServer: p.realServer,
    ...(p.forward ? { forward: p.forward } : {}),
    // IPVS never rewrites the source; only iptables rules (not part of this output) masquerade.
    masquerade: false,
    steps: [
      { table: 'ipvs', chain: label, line: p.serviceLine + 1, rule: label },
      {
        table: 'ipvs',
        chain: label,
        line: p.realServerLine + 1,
        rule: `-> ${joinHostPort(p.realServer.ip, p.realServer.port)} ${p.forward ?? ''}`.trim(),
      },
    ],
  }));
  if (json) printJson({ paths, explanation: r.explanation });
  else {
    process.stdout.write(`${r.explanation}\n`);
    for (const p of paths) {
      const how = p.dnat ? '' : ` (${p.forward}: destination stays ${joinHostPort(packet.dst, packet.dport)})`;
      process.stdout.write(
        `  ${(p.probability * 100).toFixed(1)}% -> ${joinHostPort(p.realServer.ip, p.realServer.port)}${how} (line ${p.steps[1].line})\n`,
      );
    }
  }
  return 0;
}
