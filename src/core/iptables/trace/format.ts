/**
 * The CLI's readable trace: paths share their common steps, so they print as a tree that branches where a
 * rule forked, each leaf giving the verdict, probability, NAT and assumptions. Lines are printed 1-based.
 */
import { t, type Lang } from '../../i18n/catalog';
import { formatMark, formatProbability } from './message';
import type { TracePath, TraceResult, TraceStep } from './types';
import { joinHostPort } from '../../common/ip';

interface Node {
  step?: TraceStep;
  children: Node[];
  byKey: Map<string, Node>;
  ends: TracePath[];
}

function newNode(step?: TraceStep): Node {
  return { step, children: [], byKey: new Map(), ends: [] };
}

function stepKey(s: TraceStep): string {
  return [s.table, s.chain, s.line, s.action, s.rule, s.noteMessage ? JSON.stringify(s.noteMessage) : ''].join(
    '\u0000',
  );
}

function buildTree(paths: TracePath[]): Node {
  const root = newNode();
  for (const p of paths) {
    let n = root;
    for (const s of p.steps) {
      const key = stepKey(s);
      let child = n.byKey.get(key);
      if (!child) {
        child = newNode(s);
        n.byKey.set(key, child);
        n.children.push(child);
      }
      n = child;
    }
    n.ends.push(p);
  }
  return root;
}

function stepLine(s: TraceStep, lang: Lang): string {
  const line = s.line >= 0 ? String(s.line + 1) : t(lang, 'trace.format.implied-line');
  const parts = [`${s.table}/${s.chain}:${line}`, `[${s.action}]`];
  if (s.rule) parts.push(s.rule);
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
  return [facts.join(', '), ...p.assumptions.map((a) => `   ${t(lang, 'trace.format.assumes', { text: a })}`)];
}

function render(node: Node, indent: string, out: string[], lang: Lang): void {
  let n = node;
  for (;;) {
    for (const p of n.ends) for (const l of endLines(p, lang)) out.push(indent + l);
    if (n.children.length === 1 && n.ends.length === 0) {
      n = n.children[0];
      out.push(indent + stepLine(n.step!, lang));
      continue;
    }
    n.children.forEach((c, i) => {
      const last = i === n.children.length - 1;
      out.push(`${indent}${last ? '└─ ' : '├─ '}${stepLine(c.step!, lang)}`);
      render(c, indent + (last ? '   ' : '│  '), out, lang);
    });
    return;
  }
}

export function formatTraceTree(result: TraceResult, lang: Lang = 'en'): string {
  const pk = result.packet;
  const dst = pk.proto === 'icmp' ? pk.dst : joinHostPort(pk.dst, pk.dport);
  const src = pk.sport === undefined ? pk.src : joinHostPort(pk.src, pk.sport);
  const out = [
    t(lang, 'trace.format.header', { proto: pk.proto, src, dst, hook: pk.hook, count: result.paths.length }),
  ];
  render(buildTree(result.paths), '', out, lang);
  for (const w of result.warnings) out.push(t(lang, 'trace.format.warning', { text: w }));
  return out.join('\n') + '\n';
}
