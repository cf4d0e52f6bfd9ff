/** Document symbols (tables > chains, and a Services tree), workspace symbols, and folding ranges. */
import type { DocumentSymbol, FoldingRange, Range, SymbolInformation } from 'vscode-languageserver';
import { FoldingRangeKind, SymbolKind } from '../lspConstants';
import type { Analysis } from '../../core/analyze';
import type { KubeService } from '../../core/iptables/kubeView';
import type { Chain, Rule } from '../../core/iptables/dump';
import type { IptablesModel } from '../../core/iptables/model';
import type { IpvsDump } from '../../core/ipvs/types';
import { serviceLabel, realServerLabel } from '../../core/ipvs/identity';
import { toRange } from '../convert';
import type { LineIndex } from '../lineIndex';
import { joinHostPort } from '../../core/common/ip';
import { formatShare } from '../../core/common/shares';
import { t, tn, type Lang } from '../../core/i18n/catalog';
import { throwIfCancelled } from '../cancellation';
import { listed, OpenList } from '../jsonAnswer';

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
  return listed(outline(a, lines, lang)) as DocumentSymbol[];
}

/** The document symbols with the Services tree's made as they are written (jsonAnswer.ts): the worker's answer. */
export function outline(a: Analysis, lines: LineLengths, lang: Lang = 'en'): (DocumentSymbol | OpenList)[] {
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

/**
 * A chain's symbol (a run of its rules, or its declaration when it has none), made when the outline is written
 * (jsonAnswer.ts): 12,000 symbols held until then outlive the young generation, and V8 then allocates every symbol of
 * their kind in the old one. `line`: where its range starts.
 */
interface ChainEntry {
  line: number;
  chain: Chain;
  /** Undefined: the declaration of a chain without rules. */
  run?: Run<Rule>;
  /** The chain's first run (the declaration joins it when `declJoins`). */
  first: boolean;
  declJoins: boolean;
}

function* chainSymbols(entries: readonly ChainEntry[], lines: LineLengths, lang: Lang): Generator<DocumentSymbol> {
  for (const { chain, run, first, declJoins } of entries) {
    const count = tn(lang, 'outline.rules', chain.rules.length);
    const detail = chain.policy ? t(lang, 'outline.policy', { policy: chain.policy, rules: count }) : count;
    const kind = chain.builtin ? SymbolKind.Event : SymbolKind.Function;
    if (!run) {
      const sel = toRange(chain.declSpan!);
      yield {
        name: chain.name,
        detail,
        kind,
        range: holding(spanRange(lines, sel.start.line, sel.start.line), sel),
        selectionRange: sel,
      };
      continue;
    }
    const { from, to, rule } = run;
    const sel = toRange(first && declJoins ? chain.declSpan! : rule.chainSpan);
    yield {
      name: chain.name,
      detail: first ? detail : t(lang, 'outline.continued', { from: from + 1, to: to + 1 }),
      kind,
      range: holding(spanRange(lines, first && declJoins ? from - 1 : from, to), sel),
      selectionRange: sel,
    };
  }
}

function iptablesSymbols(model: IptablesModel, lines: LineLengths, lang: Lang): OpenList[] {
  const out: OpenList[] = [];
  const { serviceByChain, endpointByChain } = model.kube;
  let end = 0;
  for (const table of model.dump.tables) {
    const chains: ChainEntry[] = [];
    const fold = table.chains.size > LARGE_TABLE_CHAINS;
    let folded = 0;
    let tableFirst = table.line ?? Number.MAX_SAFE_INTEGER;
    let tableLast = table.commitLine ?? table.line ?? 0;
    for (const chain of table.chains.values()) {
      throwIfCancelled();
      if (chain.rules.length === 0 && !chain.declSpan) continue;
      // Where the chain's lines are, without its runs: 60,000 chains of a 10k-Service dump are folded.
      const declSpan = chain.declSpan;
      let first = declSpan?.line ?? Number.MAX_SAFE_INTEGER;
      let last = declSpan?.line ?? 0;
      for (const rule of chain.rules) {
        first = Math.min(first, rule.line);
        last = Math.max(last, rule.endLine ?? rule.line);
      }
      tableFirst = Math.min(tableFirst, first);
      tableLast = Math.max(tableLast, last);
      if (fold && (serviceByChain.has(chain.name) || endpointByChain.has(chain.name))) {
        folded++;
        continue;
      }
      const runs = chainRuns(chain);
      if (runs.length === 0) {
        chains.push({ line: declSpan!.line, chain, first: true, declJoins: false });
        continue;
      }
      // The declaration joins the first run when it is the line before it (`-N X` then `-A X ...`).
      const declJoins = declSpan !== undefined && declSpan.line === runs[0].from - 1;
      // KUBE-SERVICES in kube-proxy's layout is a run per Service: 10k on a 10k-Service dump. A symbol's range
      // starts at its run's first line, or at its selection when that is earlier (`holding`).
      runs.forEach((run, i) => {
        throwIfCancelled();
        const start = i === 0 && declJoins ? run.from - 1 : run.from;
        const selLine = i === 0 && declJoins ? declSpan.line : run.rule.chainSpan.line;
        chains.push({ line: Math.min(start, selLine), chain, run, first: i === 0, declJoins });
      });
    }
    if (chains.length === 0 && table.line === undefined) continue;
    chains.sort((a, b) => a.line - b.line);
    const sel = table.span ? toRange(table.span) : spanRange(lines, tableFirst, tableFirst);
    const detail = folded ? t(lang, 'outline.folded', { count: folded }) : undefined;
    const range = holding(spanRange(lines, Math.min(tableFirst, sel.start.line), tableLast), sel);
    end = Math.max(end, range.end.line);
    out.push(
      new OpenList(
        {
          name: `*${table.name}`,
          ...(detail ? { detail } : {}),
          kind: SymbolKind.Namespace,
          range,
          selectionRange: sel,
        },
        'children',
        chainSymbols(chains, lines, lang),
      ),
    );
  }
  const services = serviceTree(model, lines, lang, end);
  if (services) out.push(services);
  return out;
}

/**
 * "Services": Service > port > endpoints, from the kube-proxy view. A view across tables (a Service without
 * endpoints has its REJECT in filter, the rest in nat), so it comes after them: its own range is the dump's last
 * line, and each entry is the one line it points at, so none of them holds the cursor for the chains' lines. Its
 * children are made one Service at a time as the answer is written (70,000 symbols on a 10k-Service dump).
 */
function serviceTree(model: IptablesModel, lines: LineLengths, lang: Lang, end: number): OpenList | undefined {
  const groups = new Map<string, KubeService[]>();
  let allLast = end;
  for (const s of model.kube.services) {
    if (s.lines.length === 0) continue;
    const key = s.namespace && s.service ? `${s.namespace}/${s.service}` : s.name || s.chain || '?';
    const list = groups.get(key) ?? [];
    list.push(s);
    groups.set(key, list);
    allLast = Math.max(allLast, s.lines[s.lines.length - 1]);
  }
  if (groups.size === 0) return undefined;
  return new OpenList(
    {
      name: t(lang, 'outline.services'),
      detail: tn(lang, 'outline.services.count', groups.size),
      kind: SymbolKind.Module,
      range: spanRange(lines, allLast, allLast),
      selectionRange: spanRange(lines, allLast, allLast),
    },
    'children',
    serviceSymbols(groups, lines, lang),
  );
}

function* serviceSymbols(
  groups: Map<string, KubeService[]>,
  lines: LineLengths,
  lang: Lang,
): Generator<DocumentSymbol, void, undefined> {
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
        ? joinHostPort(s.clusterIP, s.port ?? '?')
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
    yield {
      name,
      kind: SymbolKind.Class,
      range: spanRange(lines, first, first),
      selectionRange: spanRange(lines, first, first),
      children: portSymbols,
    };
  }
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
