/**
 * The diagnosis as a Markdown document: verdict, summary, evidence, next steps, every command run in the pod (exit
 * code, duration, result) and the node's rule counters before and after the probe. Used by `kpp diagnose` (text
 * output) and by the extension's report document. Cluster data and command output are escaped or fenced so they
 * cannot change the document's structure.
 */
import { t, type Lang } from '../i18n/catalog';
import { joinHostPort } from '../common/ip';
import { compareCounters } from './node';
import { safeIp } from './plan';
import type { DiagnoseReport, Evidence } from './types';

/** Text for a table cell or a line: no line breaks, `|` and Markdown punctuation escaped. */
function inline(text: string): string {
  return escapeText(text).trim();
}

function escapeText(text: string): string {
  return text.replace(/\r?\n|\r/g, ' ').replace(/([\\`*_[\]<>|#!~])/g, '\\$1');
}

/** A code span that holds any text (a fence longer than any backtick run inside). */
function code(text: string): string {
  const flat = text.replace(/\r?\n|\r/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Code spans inside a cell must not contain `|` (GFM splits cells before reading code spans). */
function cellCode(text: string): string {
  return code(text).replace(/\|/g, '\\|');
}

function block(text: string): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [fence, ...text.replace(/\s+$/, '').split(/\r?\n|\r/), fence];
}

/** An argv as a shell reader would type it: each element quoted when it is not a plain word. */
export function shellQuote(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Evidence texts hold backtick code spans the catalog wrote; the rest of the sentence is cluster data. */
function evidenceText(e: Evidence): string {
  return e.text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : escapeText(part)))
    .join('')
    .trim();
}

export function reportMarkdown(report: DiagnoseReport, lang: Lang): string {
  const x = (key: string, params?: Record<string, string | number>) => t(lang, key, params);
  const out: string[] = [];
  const svc = report.service;
  const src = report.source;
  // `[fd00::a]:80` (an IPv6 ClusterIP's port would read as part of it); a headless Service has no address to join.
  const address = safeIp(svc.clusterIP) ? joinHostPort(svc.clusterIP, svc.port) : `${svc.clusterIP || '—'} ${svc.port}`;
  const serviceText = `${svc.namespace}/${svc.name} (${address}/${svc.protocol})`;
  const podText = `${src.namespace}/${src.pod}${src.container ? ` [${src.container}]` : ''}${src.debugContainer ? ` (debug: ${src.debugContainer})` : ''}`;
  out.push(`# ${inline(x('diagnose.report.title', { service: serviceText, pod: podText }))}`, '');
  const where = [src.ip ? `IP ${src.ip}` : '', src.node ? x('diagnose.report.source-node', { node: src.node }) : '']
    .filter(Boolean)
    .join(', ');
  out.push(
    `- ${inline(x('diagnose.report.service', { service: serviceText }))}`,
    `- ${inline(x('diagnose.report.source', { pod: podText }))}${where ? ` (${inline(where)})` : ''}`,
  );
  if (report.durationMs !== undefined)
    out.push(`- ${inline(x('diagnose.report.duration', { ms: Math.round(report.durationMs) }))}`);
  out.push('');

  const v = report.verdict;
  out.push(
    `## ${inline(x('diagnose.report.verdict', { title: x(`diagnose.title.${v.code}`) }))} (${code(v.code)})`,
    '',
    `**${inline(v.summary)}**`,
    '',
  );

  out.push(`## ${x('diagnose.report.evidence')}`, '');
  for (const e of v.evidence) {
    const tags = [code(e.source), e.argv ? code(shellQuote(e.argv)) : '', e.line !== undefined ? `line ${e.line}` : '']
      .filter(Boolean)
      .join(' · ');
    out.push(`- ${evidenceText(e)} (${tags})`);
    if (e.output) out.push('', ...block(e.output).map((l) => `  ${l}`), '');
  }
  out.push('');

  out.push(`## ${x('diagnose.report.next')}`, '');
  v.nextSteps.forEach((s, i) => out.push(`${i + 1}. ${evidenceText({ source: '', text: s })}`));
  out.push('');

  out.push(`## ${x('diagnose.report.checks')}`, '');
  if (report.checks.length === 0) out.push(x('diagnose.report.no-checks'), '');
  else {
    const h = ['check', 'command', 'exit', 'time', 'result'].map((k) => x(`diagnose.report.col.${k}`));
    out.push(`| ${h.join(' | ')} |`, `| ${h.map(() => '---').join(' | ')} |`);
    for (const c of report.checks) {
      const exit = c.exitCode === null ? inline(c.error ?? '—') : String(c.exitCode);
      out.push(
        `| ${cellCode(c.id)} | ${cellCode(shellQuote(c.argv))} | ${exit} | ${Math.round(c.durationMs)} ms | ${x(c.ok ? 'diagnose.report.yes' : 'diagnose.report.no')} |`,
      );
    }
    out.push('');
    for (const c of report.checks) {
      const text = [c.stdout.trim(), c.stderr.trim()].filter(Boolean).join('\n');
      if (!text) continue;
      out.push(
        `<details><summary>${inline(c.id)}</summary>`,
        '',
        ...block(text.length > 4000 ? `${text.slice(0, 4000)}\n…` : text),
        '',
        '</details>',
        '',
      );
    }
  }

  if (report.node) {
    const n = report.node;
    out.push(`## ${inline(x('diagnose.report.node', { node: n.name }))}`, '');
    if (n.via) out.push(inline(x('diagnose.report.node-via', { via: n.via })), '');
    if (n.error) out.push(inline(x('diagnose.report.node-error', { error: n.error })), '');
    const changes = compareCounters(n.counters.before, n.counters.after);
    if (changes.length === 0) out.push(x('diagnose.report.no-counters'), '');
    else {
      const h = ['line', 'chain', 'rule', 'before', 'after'].map((k) => x(`diagnose.report.col.${k}`));
      out.push(`| ${h.join(' | ')} |`, `| ${h.map(() => '---').join(' | ')} |`);
      for (const c of changes) {
        const delta = c.delta !== undefined && c.delta !== 0 ? ` (+${c.delta})` : '';
        out.push(
          `| ${c.counter.line} | ${inline(c.counter.chain)} | ${cellCode(c.counter.rule)} | ${c.before ?? '—'} | ${c.after ?? '—'}${delta} |`,
        );
      }
      out.push('');
    }
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}
