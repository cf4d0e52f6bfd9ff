/**
 * The CLI's readable trace: paths share their common steps (`TraceResult.sharedSteps`), so they print as a tree
 * that branches where a rule forked, each leaf giving the verdict, probability, NAT and assumptions. Lines are
 * printed 1-based. The output is linear in the size of the tree.
 */
import { t, tn, type Lang } from '../../i18n/catalog';
import { formatProbability } from '../../common/shares';
import { formatMark } from './message';
import type { TracePath, TraceResult, TraceStep } from './types';
import { joinHostPort } from '../../common/ip';

/** A node of the printed tree: a shared step, or the start of one path's own steps. */
type Node = { kind: 'shared'; index: number; first: number } | { kind: 'path'; path: number; first: number };

/** The children of every shared step (and of the root, key -1), each list in the order of the first path down it. */
function childrenOf(result: TraceResult): Map<number, Node[]> {
  const children = new Map<number, Node[]>();
  const add = (parent: number, node: Node) => {
    const list = children.get(parent);
    if (list) list.push(node);
    else children.set(parent, [node]);
  };
  // The first path down each shared step: sharedSteps are numbered in that order, so a shared child's first
  // path is at least its parent's.
  const first = new Array<number>(result.sharedSteps.length).fill(-1);
  result.paths.forEach((p, i) => {
    for (let s = p.prefix; s >= 0 && first[s] < 0; s = result.sharedSteps[s].parent) first[s] = i;
  });
  result.sharedSteps.forEach((s, index) => add(s.parent, { kind: 'shared', index, first: first[index] }));
  result.paths.forEach((_, path) => add(result.paths[path].prefix, { kind: 'path', path, first: path }));
  for (const list of children.values()) list.sort((a, b) => a.first - b.first || (a.kind === 'shared' ? -1 : 1));
  return children;
}

function stepLine(s: TraceStep, lang: Lang): string {
  const line = s.line >= 0 ? String(s.line + 1) : t(lang, 'trace.format.implied-line');
  const range = s.skipped && s.skipped.count > 1 ? `${line}-${s.skipped.lastLine + 1}` : line;
  const parts = [`${s.table}/${s.chain}:${range}`, `[${s.action}]`];
  // A run of rules not taken is summed up by its note; the first rule's text alone would mislead.
  if (s.rule && !(s.skipped && s.skipped.count > 1)) parts.push(s.rule);
  if (s.note) parts.push(`(${s.note})`);
  return parts.join(' ');
}

function endLines(p: TracePath, lang: Lang): string[] {
  const facts = [t(lang, 'trace.format.end', { verdict: p.verdict, p: formatProbability(p.probability) })];
  if (p.dnat) facts.push(t(lang, 'trace.format.dnat', { to: joinHostPort(p.dnat.ip, p.dnat.port) }));
  if (p.snat) facts.push(t(lang, 'trace.format.snat', { to: joinHostPort(p.snat.ip, p.snat.port) }));
  if (p.masquerade) facts.push(t(lang, 'trace.format.masquerade'));
  if (p.mark !== 0) facts.push(t(lang, 'trace.format.mark', { mark: formatMark(p.mark) }));
  if (p.route && p.verdict === 'ACCEPT') facts.push(t(lang, `trace.format.route.${p.route}`));
  // The undecided facts the path took a side on head its alternative; the other assumptions follow.
  const given = new Set(p.givenMessages.map((m) => JSON.stringify(m)));
  const rest = p.assumptions.filter((_, i) => !given.has(JSON.stringify(p.assumptionMessages[i])));
  return [
    facts.join(', '),
    ...(p.given.length ? [`   ${t(lang, 'trace.format.alternative', { text: p.given.join('; ') })}`] : []),
    ...rest.map((a) => `   ${t(lang, 'trace.format.assumes', { text: a })}`),
  ];
}

/** Deeper branches are not indented further (a tree of thousands of levels would print n² blanks). */
const MAX_INDENT = 24;

/** Prints the tree without recursion: a trace may branch thousands of times. */
function render(result: TraceResult, out: string[], lang: Lang): void {
  const children = childrenOf(result);
  const stepOf = (n: Node, k = 0): TraceStep | undefined =>
    n.kind === 'shared' ? result.sharedSteps[n.index].step : result.paths[n.path].ownSteps[k];
  // Work items: print a node's own line(s) then its subtree, at an indent; `lead` is the connector of its first line.
  const stack: { node: Node | undefined; indent: string; lead: string; depth: number }[] = [
    { node: undefined, indent: '', lead: '', depth: 0 },
  ];
  for (let item = stack.pop(); item; item = stack.pop()) {
    let { node, lead } = item;
    const { indent, depth } = item;
    // Follow single-child chains on one level, as the kernel walks them.
    for (;;) {
      if (node?.kind === 'path') {
        const p = result.paths[node.path];
        const steps = p.ownSteps;
        steps.forEach((s, k) => out.push(`${k === 0 ? lead : indent}${stepLine(s, lang)}`));
        const ends = endLines(p, lang);
        ends.forEach((l, k) => out.push(`${steps.length === 0 && k === 0 ? lead : indent}${l}`));
        break;
      }
      if (node) {
        out.push(lead + stepLine(stepOf(node)!, lang));
        lead = indent;
      }
      const kids = children.get(node ? node.index : -1) ?? [];
      if (kids.length === 1) {
        node = kids[0];
        continue;
      }
      const deeper = depth < MAX_INDENT;
      for (let i = kids.length - 1; i >= 0; i--) {
        const last = i === kids.length - 1;
        stack.push({
          node: kids[i],
          lead: `${indent}${last ? '└─ ' : '├─ '}`,
          indent: deeper ? indent + (last ? '   ' : '│  ') : indent,
          depth: depth + 1,
        });
      }
      break;
    }
  }
}

export function formatTraceTree(result: TraceResult, lang: Lang = 'en'): string {
  const pk = result.packet;
  const dst = pk.proto === 'icmp' ? pk.dst : joinHostPort(pk.dst, pk.dport);
  const src = pk.sport === undefined ? pk.src : joinHostPort(pk.src, pk.sport);
  const out = [tn(lang, 'trace.format.header', result.paths.length, { proto: pk.proto, src, dst, hook: pk.hook })];
  render(result, out, lang);
  for (const w of result.warnings) out.push(t(lang, 'trace.format.warning', { text: w }));
  return out.join('\n') + '\n';
}
