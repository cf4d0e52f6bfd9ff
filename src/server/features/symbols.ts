/** Document symbols (tables > chains, and a Services tree), workspace symbols, and folding ranges. */
import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange, type Range, type SymbolInformation } from 'vscode-languageserver';
import type { Analysis } from '../../core/analyze';
import type { KubeService } from '../../core/iptables/kubeproxy';
import type { IptablesModel } from '../../core/iptables/model';
import type { IpvsDump } from '../../core/ipvs/types';
import { serviceLabel, realServerLabel } from '../../core/ipvs/identity';
import { toRange } from '../convert';
import type { LineIndex } from '../lineIndex';
import { joinHostPort } from '../../core/common/ip';
import { formatShare } from '../../core/iptables/explain';

/** The lengths of the document's lines: ranges that cover whole lines end where the line really ends. */
export type LineLengths = Pick<LineIndex, 'lineLength'>;

/** Lines first..last, to the end of the last one (VS Code rejects a range past the line, or one a selection leaves). */
function spanRange(lines: LineLengths, first: number, last: number): Range {
  const end = Math.max(first, last);
  return { start: { line: first, character: 0 }, end: { line: end, character: lines.lineLength(end) } };
}

/** `range` widened to hold `selection` (a wrapped declaration, a span that reaches past the lines counted). */
function holding(range: Range, selection: Range): Range {
  const before = (a: Range['start'], b: Range['start']) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return { start: before(range.start, selection.start) ? range.start : selection.start, end: before(selection.end, range.end) ? range.end : selection.end };
}

export function documentSymbols(a: Analysis, lines: LineLengths): DocumentSymbol[] {
  // Both only in a session paste, in the editor's order of sections.
  return [...(a.iptables ? iptablesSymbols(a.iptables, lines) : []), ...(a.ipvs ? ipvsSymbols(a.ipvs, lines) : [])];
}

/**
 * Above this many chains in a table, the chains kube-proxy makes per Service and endpoint are listed only under
 * "Services" (by Service and port): an outline of 60,000 hashed names helps nobody and costs the editor a lot.
 */
const LARGE_TABLE_CHAINS = 1000;

function iptablesSymbols(model: IptablesModel, lines: LineLengths): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  const { serviceByChain, endpointByChain } = model.kube;
  for (const table of model.dump.tables) {
    const chains: DocumentSymbol[] = [];
    const fold = table.chains.size > LARGE_TABLE_CHAINS;
    let folded = 0;
    let tableFirst = table.line ?? Number.MAX_SAFE_INTEGER;
    let tableLast = table.commitLine ?? table.line ?? 0;
    for (const chain of table.chains.values()) {
      if (chain.rules.length === 0 && !chain.declSpan) continue;
      // A loop, not Math.min(...lines): a chain of a big dump has more rules than a call has room for arguments.
      let first = chain.declSpan?.line ?? Number.MAX_SAFE_INTEGER;
      let last = chain.declSpan?.line ?? 0;
      for (const r of chain.rules) {
        if (r.line < first) first = r.line;
        if (r.line > last) last = r.line;
      }
      tableFirst = Math.min(tableFirst, first);
      tableLast = Math.max(tableLast, last);
      if (fold && (serviceByChain.has(chain.name) || endpointByChain.has(chain.name))) {
        folded++;
        continue;
      }
      const sel = toRange(chain.declSpan ?? chain.rules[0].chainSpan);
      chains.push({
        name: chain.name,
        detail: chain.policy ? `${chain.policy}, ${chain.rules.length} rules` : `${chain.rules.length} rules`,
        kind: chain.builtin ? SymbolKind.Event : SymbolKind.Function,
        range: holding(spanRange(lines, first, last), sel),
        selectionRange: sel,
      });
    }
    if (chains.length === 0 && table.line === undefined) continue;
    const sel = table.span ? toRange(table.span) : spanRange(lines, tableFirst, tableFirst);
    const detail = folded ? `${folded} Service and endpoint chains under Services` : undefined;
    out.push({ name: `*${table.name}`, ...(detail ? { detail } : {}), kind: SymbolKind.Namespace, range: holding(spanRange(lines, Math.min(tableFirst, sel.start.line), tableLast), sel), selectionRange: sel, children: chains });
  }
  const services = serviceTree(model, lines);
  if (services) out.push(services);
  return out;
}

/** "Services": Service > port > endpoints, from the kube-proxy view. */
function serviceTree(model: IptablesModel, lines: LineLengths): DocumentSymbol | undefined {
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
  let allFirst = Number.MAX_SAFE_INTEGER;
  let allLast = 0;
  for (const [name, ports] of groups) {
    const portSymbols: DocumentSymbol[] = ports.map((s) => {
      const first = s.lines[0];
      const last = s.lines[s.lines.length - 1];
      const endpoints: DocumentSymbol[] = s.endpoints
        .filter((e) => e.ruleLine !== undefined || e.dnatLine !== undefined)
        .map((e) => {
          const l = (e.ruleLine ?? e.dnatLine)!;
          return { name: joinHostPort(e.ip, e.port ?? '?'), detail: `${formatShare(e.share)} · ${e.chain}`, kind: SymbolKind.Field, range: spanRange(lines, l, l), selectionRange: spanRange(lines, l, l) };
        });
      const addr = s.clusterIP ? `${s.clusterIP}:${s.port ?? '?'}` : s.nodePort !== undefined ? `NodePort ${s.nodePort}` : '';
      return {
        name: s.portName || (s.port !== undefined ? String(s.port) : s.chain ?? '?'),
        detail: `${(s.protocol ?? '').toUpperCase()} ${addr} · ${s.endpoints.length} endpoint(s)${s.noEndpoints ? ' · no endpoints' : ''}`.trim(),
        kind: SymbolKind.Interface,
        range: spanRange(lines, first, last),
        selectionRange: spanRange(lines, first, first),
        children: endpoints,
      };
    });
    const first = ports.reduce((m, s) => Math.min(m, s.lines[0]), Number.MAX_SAFE_INTEGER);
    const last = ports.reduce((m, s) => Math.max(m, s.lines[s.lines.length - 1]), 0);
    allFirst = Math.min(allFirst, first);
    allLast = Math.max(allLast, last);
    children.push({ name, kind: SymbolKind.Class, range: spanRange(lines, first, last), selectionRange: spanRange(lines, first, first), children: portSymbols });
  }
  return { name: 'Services', detail: `${groups.size} Service(s)`, kind: SymbolKind.Module, range: spanRange(lines, allFirst, allLast), selectionRange: spanRange(lines, allFirst, allFirst), children };
}

function ipvsSymbols(dump: IpvsDump, lines: LineLengths): DocumentSymbol[] {
  return dump.services.map((s) => {
    const last = s.realServers.length ? s.realServers[s.realServers.length - 1].line : s.line;
    const sel = toRange(s.span);
    return {
      name: serviceLabel(s),
      detail: `${s.scheduler ?? ''} · ${s.realServers.length} real server(s)`,
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
export function workspaceSymbols(docs: { uri: string; analysis: Analysis; lines: LineLengths }[], query: string, limit = 500): SymbolInformation[] {
  const q = query.toLowerCase();
  const out: SymbolInformation[] = [];
  for (const { uri, analysis, lines } of docs) {
    const model = analysis.iptables;
    if (model) {
      for (const table of model.dump.tables) {
        for (const chain of table.chains.values()) {
          if (out.length >= limit) return out;
          const sel = chain.declSpan ?? chain.rules[0]?.chainSpan;
          if (sel && chain.name.toLowerCase().includes(q)) out.push({ name: chain.name, kind: SymbolKind.Function, containerName: table.name, location: { uri, range: toRange(sel) } });
        }
      }
      for (const s of model.kube.services) {
        if (out.length >= limit) return out;
        if (s.name && s.name.toLowerCase().includes(q) && s.lines.length) out.push({ name: s.name, kind: SymbolKind.Class, containerName: 'Services', location: { uri, range: spanRange(lines, s.lines[0], s.lines[0]) } });
      }
    }
    for (const s of analysis.ipvs?.services ?? []) {
      const label = serviceLabel(s);
      if (label.toLowerCase().includes(q)) out.push({ name: label, kind: SymbolKind.Class, containerName: 'IPVS', location: { uri, range: toRange(s.span) } });
    }
  }
  return out;
}

export function foldingRanges(a: Analysis): FoldingRange[] {
  const out: FoldingRange[] = [];
  const model = a.iptables;
  if (model) {
    for (const table of model.dump.tables) {
      if (table.line !== undefined && table.commitLine !== undefined && table.commitLine > table.line) out.push({ startLine: table.line, endLine: table.commitLine, kind: FoldingRangeKind.Region });
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
      if (i === rules.length || rules[i].chain !== rules[start].chain || rules[i].table !== rules[start].table || crosses(rules[i - 1].line, rules[i].line)) {
        if (rules[i - 1].line > rules[start].line) out.push({ startLine: rules[start].line, endLine: rules[i - 1].line, kind: FoldingRangeKind.Region });
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
