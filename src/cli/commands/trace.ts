/**
 * `kpp trace FILE --src IP --dst IP:PORT [...]`: follows a packet through an iptables dump (or maps a VIP to its
 * real servers in an ipvsadm dump) and prints the paths: JSON with `--json`, a readable tree otherwise.
 */
import { documentTrace } from '../../core/documentPositions';
import { joinHostPort } from '../../core/common/ip';
import { formatShare, roundProbability } from '../../core/common/shares';
import { formatTraceTree } from '../../core/iptables/trace';
import type { Packet, TraceResult, TraceStep } from '../../core/iptables/trace/types';
import type { IpvsTracePath, IpvsTraceStep } from '../../core/ipvs/tracePaths';
import { traceText } from '../../core/traceAnalysis';
import { checkTracePacket, type TraceInputNames } from '../../core/tracePacketInput';
import { parseArgs, UsageError } from '../args';
import { printJson, readInput } from '../io';
import { langOption } from '../lang';

/** The options that set each field of the packet, as the messages name them. */
const OPTION_NAMES: TraceInputNames = {
  src: '--src',
  dst: '--dst',
  proto: '--proto',
  hook: '--hook',
  localAddresses: '--local-ip',
};

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

function stepJson(s: TraceStep | IpvsTraceStep): TraceStepJson {
  const skipped = 'skipped' in s ? s.skipped : undefined;
  const out: TraceStepJson = { table: s.table, chain: s.chain, line: s.line >= 0 ? s.line + 1 : null, rule: s.rule };
  if (skipped) out.skipped = { count: skipped.count, lastLine: skipped.lastLine + 1 };
  return out;
}

export function packetFromArgs(args: ReturnType<typeof parseArgs>) {
  const local = args.options.get('local-ip');
  const checked = checkTracePacket(
    {
      src: args.options.get('src'),
      dst: args.options.get('dst'),
      proto: args.options.get('proto'),
      hook: args.options.get('hook'),
      inIface: args.options.get('in-iface'),
      ...(local
        ? {
            localAddresses: local
              .split(',')
              .map((x) => x.trim())
              .filter(Boolean),
          }
        : {}),
    },
    OPTION_NAMES,
  );
  if (!checked.ok) throw new UsageError(checked.message);
  return checked.packet;
}

export function traceJson(result: TraceResult): TraceJson {
  const shared = result.sharedSteps.length > 0;
  const t = result.truncated;
  return {
    paths: result.paths.map((p) => ({
      probability: roundProbability(p.probability),
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
            probability: roundProbability(t.probability),
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
  const json = args.flags.has('json');
  const { analysis: a, answer } = traceText(readInput(args.positionals[0], lang), packet, lang);
  // Step lines as the text has them (a kube-proxy log carries the dump on one of its lines).
  if (answer.engine === 'iptables') documentTrace(a, answer.result);
  switch (answer.engine) {
    case 'none':
      throw new UsageError(
        `trace needs an iptables or ipvsadm dump with rules or chain policies; this input is ${answer.input === 'unknown' ? 'not one' : answer.input}`,
      );
    case 'iptables':
      if (json) printJson(traceJson(answer.result));
      else process.stdout.write(`${formatTraceTree(answer.result, lang)}\n`);
      return 0;
    case 'ipvs':
      if (!answer.resolution) {
        if (json) printJson({ paths: [], warnings: [answer.message] });
        else process.stdout.write(`${answer.message}\n`);
      } else if (json) printJson({ paths: answer.paths.map(ipvsPathJson), explanation: answer.resolution.explanation });
      else {
        process.stdout.write(`${answer.resolution.explanation}\n`);
        for (const p of answer.paths) process.stdout.write(`${ipvsPathLine(p, packet)}\n`);
      }
      return 0;
  }
}

/** IPVS has no chains to walk: the VIP's real servers are the paths, weighted by the scheduler. */
function ipvsPathJson(p: IpvsTracePath) {
  return {
    probability: roundProbability(p.probability),
    verdict: 'ACCEPT',
    dnat: p.dnat,
    realServer: p.realServer,
    ...(p.forward ? { forward: p.forward } : {}),
    // IPVS never rewrites the source; only iptables rules (not part of this output) masquerade.
    masquerade: false,
    steps: p.steps.map(stepJson),
  };
}

function ipvsPathLine(p: IpvsTracePath, packet: Packet): string {
  const how = p.dnat ? '' : ` (${p.forward}: destination stays ${joinHostPort(packet.dst, packet.dport)})`;
  return `  ${formatShare(p.probability)} -> ${joinHostPort(p.realServer.ip, p.realServer.port ?? p.realServer.portName)}${how} (line ${p.realServerLine + 1})`;
}
