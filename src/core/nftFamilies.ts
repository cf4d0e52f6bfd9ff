/**
 * A dual-stack `nft list ruleset` holds an `ip` and an `ip6` table of each name, and a reading of it takes one family
 * (the parser says which it skipped: `nft-table-skipped`). A line of the skipped family's tables is answered from a
 * reading of that family: the editor's hovers, definitions, outline and diagnostics, `kpp explain` and `kpp lint`.
 */
import { analyzeText, diagnosticsOf, type Analysis } from './analyze';
import type { Diagnostic } from './common/diagnostics';
import type { IpFamily } from './common/ip';
import type { DumpKind } from './detect';
import type { Lang } from './i18n/catalog';
import { nftSkipsFamily } from './iptables/trace/family';

/** The family whose tables a reading of an nft ruleset skipped; undefined for any other text. */
export function skippedNftFamily(analysis: Analysis): IpFamily | undefined {
  const dump = analysis.iptables?.dump;
  if (dump?.format !== 'nft') return undefined;
  const other = dump.family === 4 ? 6 : 4;
  return nftSkipsFamily(dump, other) ? other : undefined;
}

/**
 * Of two readings of one ruleset, the one whose table holds `line`: the tables of a ruleset are blocks one after
 * another, so the line is in the table that starts last at or before it.
 */
export function readingAt(line: number, read: Analysis, skipped: Analysis): Analysis {
  return lastTableStart(skipped, line) > lastTableStart(read, line) ? skipped : read;
}

/**
 * Lines `from` to `to` cut where a table of either reading starts, each piece with the reading whose table it is
 * (lines before the first table with `read`): pieces in document order, for answers built in that order.
 */
export function piecesByReading(
  read: Analysis,
  skipped: Analysis,
  from: number,
  to: number,
): { analysis: Analysis; from: number; to: number }[] {
  const starts = [read, skipped]
    .flatMap((analysis) => (analysis.iptables?.dump.tables ?? []).map((t) => ({ analysis, line: t.line ?? -1 })))
    .filter((t) => t.line > from && t.line <= to)
    .sort((x, y) => x.line - y.line);
  const pieces: { analysis: Analysis; from: number; to: number }[] = [];
  let at = from;
  for (const start of starts) {
    pieces.push({ analysis: readingAt(at, read, skipped), from: at, to: start.line - 1 });
    at = start.line;
  }
  pieces.push({ analysis: readingAt(at, read, skipped), from: at, to });
  return pieces;
}

function lastTableStart(analysis: Analysis, line: number): number {
  let last = -1;
  for (const t of analysis.iptables?.dump.tables ?? [])
    if (t.line !== undefined && t.line <= line) last = Math.max(last, t.line);
  return last;
}

/**
 * The reading of the tables of the family `analysis` skipped; undefined when it skipped none. Only those tables'
 * lines are read again, the others blank (line numbers kept): the skipped family is mostly the small one, and an
 * `inet` table, which the first reading has, is not read twice. (A paste whose engines read other lines than the
 * document's, a quoted or logged one, is read again whole.) A packet's trace reads the whole text for its family
 * instead, as an `inet` table sees both.
 */
export function skippedFamilyReading(analysis: Analysis, text: string, kind?: DumpKind): Analysis | undefined {
  const skipped = skippedNftFamily(analysis);
  if (skipped === undefined) return undefined;
  const ranges = skippedTableRanges(analysis, skipped);
  return analyzeText(analysis.positions ? text : onlyLines(text, ranges), kind, { packetFamily: skipped });
}

/** Whether `line` is in a table of the family `analysis` skipped (see skippedFamilyReading). */
export function inSkippedTable(analysis: Analysis, line: number): boolean {
  const skipped = skippedNftFamily(analysis);
  return skipped !== undefined && skippedTableRanges(analysis, skipped).some(([from, to]) => line >= from && line < to);
}

/**
 * Lines [from, to) of each table of family `skipped`: from its header (the parser's `nft-table-skipped` note) to the
 * next table's header of any family, or the end.
 */
function skippedTableRanges(analysis: Analysis, skipped: IpFamily): [number, number][] {
  const dump = analysis.iptables!.dump;
  const family = skipped === 6 ? 'ip6' : 'ip';
  const notes = dump.diagnostics.filter((d) => d.code === 'nft-table-skipped');
  const starts = notes.map((d) => d.span.line).concat(dump.tables.map((t) => t.line ?? -1));
  return notes
    .filter((d) => d.params?.family === family)
    .map((d) => {
      const next = Math.min(...starts.filter((l) => l > d.span.line));
      return [d.span.line, Number.isFinite(next) ? next : Number.MAX_SAFE_INTEGER];
    });
}

/** `text` with every line outside `ranges` blank. */
function onlyLines(text: string, ranges: readonly [number, number][]): string {
  const lines = text.split('\n');
  return lines.map((l, i) => (ranges.some(([from, to]) => i >= from && i < to) ? l : '')).join('\n');
}

/**
 * The diagnostics of both readings: all of the one read, and of the skipped family's reading those on its own
 * tables' lines (the rest repeat the first's, and its `nft-table-skipped` note is about the tables read).
 */
export function diagnosticsOfBoth(read: Analysis, skipped: Analysis | undefined, lang: Lang): Diagnostic[] {
  const found = diagnosticsOf(read, lang);
  if (!skipped) return found;
  const own = ownDiagnostics(read, skipped, diagnosticsOf(skipped, lang));
  return found.concat(own).sort((x, y) => x.span.line - y.span.line || x.span.column - y.span.column);
}

/** Of diagnostics of the skipped family's reading, those on its own tables' lines (see diagnosticsOfBoth). */
export function ownDiagnostics(read: Analysis, skipped: Analysis, found: readonly Diagnostic[]): Diagnostic[] {
  return found.filter((d) => d.code !== 'nft-table-skipped' && readingAt(d.span.line, read, skipped) === skipped);
}
