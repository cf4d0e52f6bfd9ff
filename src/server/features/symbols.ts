/** Document symbols (tables > chains, and a Services tree), workspace symbols, and folding ranges. */
import type { DocumentSymbol, FoldingRange, Range, SymbolInformation } from 'vscode-languageserver';
import { FoldingRangeKind, SymbolKind } from '../lspConstants';
import type { Analysis } from '../../core/analyze';
import type { KubeService } from '../../core/iptables/kubeView';
import type { IptablesModel } from '../../core/iptables/model';
import type { IpvsDump } from '../../core/ipvs/types';
import { serviceLabel, realServerLabel } from '../../core/ipvs/identity';
import { toRange } from '../convert';
import type { LineIndex } from '../lineIndex';
import { joinHostPort } from '../../core/common/ip';
import { formatShare } from '../../core/common/shares';
import { t, tn, type Lang } from '../../core/i18n/catalog';
import { throwIfCancelled } from '../cancellation';

/** The lengths of the document's lines: ranges that cover whole lines end where the line really ends. */
export type LineLengths = Pick<LineIndex, 'lineLength'>;

/** Lines first..last, to the end of the last one (VS Code rejects a range past the line, or one a selection leaves). */
function spanRange(lines: LineLengths, first: number, last: number): Range {
  const end = Math.max(first, last);
  return { start: { line: first, character: 0 }, end: { line: end, character: lines.lineLength(end) } };
}

/** `range` widened to hold `selection` (a wrapped declaration, a span that reaches past the lines counted). */
function holding(range: Range, selection: Range): Range {
  const before = (a: Range['start'], b: Range['start']) =>
    a.line < b.line || (a.line === b.line && a.character <= b.character);
  return {
    start: before(range.start, selection.start) ? range.start : selection.start,
    end: before(selection.end, range.end) ? range.end : selection.end,
  };
}

export function documentSymbols(a: Analysis, lines: LineLengths, lang: Lang = 'en'): DocumentSymbol[] {
  // Both only in a session paste, in the editor's order of sections.
  return [
    ...(a.iptables ? iptablesSymbols(a.iptables, lines, lang) : []),
    ...(a.ipvs ? ipvsSymbols(a.ipvs, lines, lang) : []),
  ];
}

/**
 * Above this many chains in a table, the chains kube-proxy makes per Service and endpoint are listed only under
 * "Services" (by Service and port): an outline of 60,000 hashed names helps nobody and costs the editor a lot.
 */
const LARGE_TABLE_CHAINS = 1000;

/**
 * A chain's rules as runs of consecutive lines. A DocumentSymbol has one range, and breadcrumbs and sticky scroll
 * show the symbols whose range holds the cursor: a range from a chain's declaration to its last rule would hold
 * every chain declared or written in between (in kube-proxy's restore layout, KUBE-SVC and KUBE-SEP rules
 * interleave). So a chain is one symbol per run of its rules (the first carries its name and count, the others
 * say they continue it), and those never overlap; a chain without rules is its declaration line.
 */
function chainRuns<R extends { line: number; endLine?: number }>(chain: { rules: readonly R[] }): Run<R>[] {
  // Stable: of rules on one line, the first in the chain's order starts the run.
  const lines = chain.rules
    .map((r) => ({ from: r.line, to: r.endLine ?? r.line, rule: r }))
    .sort((a, b) => a.from - b.from);
  const runs: Run<R>[] = [];
  for (const line of lines) {
    throwIfCancelled();
    const last = runs[runs.length - 1];
    if (last && line.from <= last.to + 1) last.to = Math.max(last.to, line.to);
    else runs.push(line);
  }
  return runs;
}

/** Lines `from` to `to` of a chain's rules, and the rule on its first line. */
interface Run<R> {
  from: number;
  to: number;
  rule: R;
}

function iptablesSymbols(model: IptablesModel, lines: LineLengths, lang: Lang): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  const { serviceByChain, endpointByChain } = model.kube;
  let end = 0;
  for (const table of model.dump.tables) {
    const chains: DocumentSymbol[] = [];
    const fold = table.chains.size > LARGE_TABLE_CHAINS;
    let folded = 0;
    let tableFirst = table.line ?? Number.MAX_SAFE_INTEGER;
    let tableLast = table.commitLine ?? table.line ?? 0;
    for (const chain of table.chains.values()) {
      throwIfCancelled();
      if (chain.rules.length === 0 && !chain.declSpan) continue;
      const runs = chainRuns(chain);
      const first = Math.min(chain.declSpan?.line ?? Number.MAX_SAFE_INTEGER, runs[0]?.from ?? Number.MAX_SAFE_INTEGER);
      const last = Math.max(chain.declSpan?.line ?? 0, runs[runs.length - 1]?.to ?? 0);
      tableFirst = Math.min(tableFirst, first);
      tableLast = Math.max(tableLast, last);
      if (fold && (serviceByChain.has(chain.name) || endpointByChain.has(chain.name))) {
        folded++;
        continue;
      }
      const count = tn(lang, 'outline.rules', chain.rules.length);
      const detail = chain.policy ? t(lang, 'outline.policy', { policy: chain.policy, rules: count }) : count;
      const kind = chain.builtin ? SymbolKind.Event : SymbolKind.Function;
      if (runs.length === 0) {
        const sel = toRange(chain.declSpan!);
        chains.push({
          name: chain.name,
          detail,
          kind,
          range: holding(spanRange(lines, sel.start.line, sel.start.line), sel),
          selectionRange: sel,
        });
        continue;
      }
      // The declaration joins the first run when it is the line before it (`-N X` then `-A X ...`).
      const declJoins = chain.declSpan !== undefined && chain.declSpan.line === runs[0].from - 1;
      // KUBE-SERVICES in kube-proxy's layout is a run per Service: 10k on a 10k-Service dump.
      runs.forEach(({ from, to, rule }, i) => {
        throwIfCancelled();
        const sel = toRange(i === 0 && declJoins ? chain.declSpan! : rule.chainSpan);
        const start = i === 0 && declJoins ? from - 1 : from;
        chains.push({
          name: chain.name,
          detail: i === 0 ? detail : t(lang, 'outline.continued', { from: from + 1, to: to + 1 }),
          kind,
          range: holding(spanRange(lines, start, to), sel),
          selectionRange: sel,
        });
      });
    }
    if (chains.length === 0 && table.line === undefined) continue;
    chains.sort((a, b) => a.range.start.line - b.range.start.line);
    const sel = table.span ? toRange(table.span) : spanRange(lines, tableFirst, tableFirst);
    const detail = folded ? t(lang, 'outline.folded', { count: folded }) : undefined;
    const range = holding(spanRange(lines, Math.min(tableFirst, sel.start.line), tableLast), sel);
    end = Math.max(end, range.end.line);
    out.push({
      name: `*${table.name}`,
      ...(detail ? { detail } : {}),
      kind: SymbolKind.Namespace,
      range,
      selectionRange: sel,
      children: chains,
    });
  }
  const services = serviceTree(model, lines, lang, end);
  if (services) out.push(services);
  return out;
}

/**
 * "Services": Service > port > endpoints, from the kube-proxy view. A view across tables (a Service without
 * endpoints has its REJECT in filter, the rest in nat), so it comes after them: its own range is the dump's last
 * line, and each entry is the one line it points at, so none of them holds the cursor for the chains' lines.
 */
function serviceTree(model: IptablesModel, lines: LineLengths, lang: Lang, end: number): DocumentSymbol | undefined {
  const groups = new Map<string, KubeService[]>();
  for (const s of model.kube.services) {
    if (s.lines.length === 0) continue;
    const key = s.namespace && s.service ? `${s.namespace}/${s.service}` : s.name || s.chain || '?';
    const list = groups.get(key) ?? [];
    list.push(s);
    groups.set(key, list);
  }
  if (groups.size === 0) return undefined;
  const children: DocumentSymbol[] = [];
  let allLast = end;
  for (const [name, ports] of groups) {
    throwIfCancelled();
    const portSymbols: DocumentSymbol[] = ports.map((s) => {
      const first = s.lines[0];
      const endpoints: DocumentSymbol[] = s.endpoints
        .filter((e) => e.ruleLine !== undefined || e.dnatLine !== undefined)
        .map((e) => {
          const l = (e.ruleLine ?? e.dnatLine)!;
          return {
            name: joinHostPort(e.ip, e.port ?? '?'),
            detail: `${formatShare(e.share)} · ${e.chain}`,
            kind: SymbolKind.Field,
            range: spanRange(lines, l, l),
            selectionRange: spanRange(lines, l, l),
          };
        });
      const addr = s.clusterIP
        ? `${s.clusterIP}:${s.port ?? '?'}`
        : s.nodePort !== undefined
          ? `NodePort ${s.nodePort}`
          : '';
      const count =
        s.noEndpoints || s.endpoints.length === 0
          ? t(lang, 'outline.no-endpoints')
          : tn(lang, 'outline.endpoints', s.endpoints.length);
      return {
        name: s.portName || (s.port !== undefined ? String(s.port) : (s.chain ?? '?')),
        detail: `${(s.protocol ?? '').toUpperCase()} ${addr} · ${count}`.trim(),
        kind: SymbolKind.Interface,
        range: spanRange(lines, first, first),
        selectionRange: spanRange(lines, first, first),
        children: endpoints,
      };
    });
    const first = ports.reduce((m, s) => Math.min(m, s.lines[0]), Number.MAX_SAFE_INTEGER);
    allLast = Math.max(
      allLast,
      ports.reduce((m, s) => Math.max(m, s.lines[s.lines.length - 1]), 0),
    );
    children.push({
      name,
      kind: SymbolKind.Class,
      range: spanRange(lines, first, first),
      selectionRange: spanRange(lines, first, first),
      children: portSymbols,
    });
  }
  return {
    name: t(lang, 'outline.services'),
    detail: tn(lang, 'outline.services.count', groups.size),
    kind: SymbolKind.Module,
    range: spanRange(lines, allLast, allLast),
    selectionRange: spanRange(lines, allLast, allLast),
    children,
  };
}

function ipvsSymbols(dump: IpvsDump, lines: LineLengths, lang: Lang): DocumentSymbol[] {
  return dump.services.map((s) => {
    throwIfCancelled();
    const last = s.realServers.length ? s.realServers[s.realServers.length - 1].line : s.line;
    const sel = toRange(s.span);
    return {
      name: serviceLabel(s),
      detail: `${s.scheduler ?? ''} · ${tn(lang, 'outline.real-servers', s.realServers.length)}`,
      kind: SymbolKind.Class,
      range: holding(spanRange(lines, s.line, last), sel),
      selectionRange: sel,
      children: s.realServers.map((r) => ({
        name: realServerLabel(r),
        detail: `${r.forward ?? ''} weight ${r.weight ?? '?'}`,
        kind: SymbolKind.Field,
        range: toRange(r.span),
        selectionRange: toRange(r.span),
      })),
    };
  });
}

/** Chains and Services of every analysed document whose name contains the query (case-insensitive). */
export function workspaceSymbols(
  docs: { uri: string; analysis: Analysis; lines: LineLengths }[],
  query: string,
  limit = 500,
): SymbolInformation[] {
  const q = query.toLowerCase();
  const out: SymbolInformation[] = [];
  for (const { uri, analysis, lines } of docs) {
    const model = analysis.iptables;
    if (model) {
      for (const table of model.dump.tables) {
        for (const chain of table.chains.values()) {
          throwIfCancelled();
          if (out.length >= limit) return out;
          const sel = chain.declSpan ?? chain.rules[0]?.chainSpan;
          if (sel && chain.name.toLowerCase().includes(q))
            out.push({
              name: chain.name,
              kind: SymbolKind.Function,
              containerName: table.name,
              location: { uri, range: toRange(sel) },
            });
        }
      }
      for (const s of model.kube.services) {
        throwIfCancelled();
        if (out.length >= limit) return out;
        if (s.name && s.name.toLowerCase().includes(q) && s.lines.length)
          out.push({
            name: s.name,
            kind: SymbolKind.Class,
            containerName: 'Services',
            location: { uri, range: spanRange(lines, s.lines[0], s.lines[0]) },
          });
      }
    }
    for (const s of analysis.ipvs?.services ?? []) {
      const label = serviceLabel(s);
      if (label.toLowerCase().includes(q))
        out.push({
          name: label,
          kind: SymbolKind.Class,
          containerName: 'IPVS',
          location: { uri, range: toRange(s.span) },
        });
    }
  }
  return out;
}

export function foldingRanges(a: Analysis): FoldingRange[] {
  const out: FoldingRange[] = [];
  const model = a.iptables;
  if (model) {
    for (const table of model.dump.tables) {
      if (table.line !== undefined && table.commitLine !== undefined && table.commitLine > table.line)
        out.push({ startLine: table.line, endLine: table.commitLine, kind: FoldingRangeKind.Region });
    }
    // Runs of consecutive rules of one chain fold together (iptables-save groups them). A run never crosses a
    // table's first or COMMIT line (a paste can put rules of a table after its COMMIT): VS Code drops a range that
    // overlaps another without nesting in it.
    const boundaries = new Set<number>();
    for (const table of model.dump.tables) {
      if (table.line !== undefined) boundaries.add(table.line);
      if (table.commitLine !== undefined) boundaries.add(table.commitLine);
    }
    const crosses = (from: number, to: number) => {
      for (const b of boundaries) if (b > from && b <= to) return true;
      return false;
    };
    const rules = model.dump.rules;
    let start = 0;
    for (let i = 1; i <= rules.length; i++) {
      throwIfCancelled();
      if (
        i === rules.length ||
        rules[i].chain !== rules[start].chain ||
        rules[i].table !== rules[start].table ||
        crosses(rules[i - 1].line, rules[i].line)
      ) {
        if (rules[i - 1].line > rules[start].line)
          out.push({ startLine: rules[start].line, endLine: rules[i - 1].line, kind: FoldingRangeKind.Region });
        start = i;
      }
    }
  }
  for (const s of a.ipvs?.services ?? []) {
    const last = s.realServers.length ? s.realServers[s.realServers.length - 1].line : s.line;
    if (last > s.line) out.push({ startLine: s.line, endLine: last, kind: FoldingRangeKind.Region });
  }
  return out;
}
