/**
 * A dual-stack `nft list ruleset` holds an `ip` and an `ip6` table of each name, and a reading of it takes one family
 * (the parser says which it skipped: `nft-table-skipped`). A line of the skipped family's tables is answered from a
 * reading of that family: the editor's hovers, definitions, outline and diagnostics, `kpp explain` and `kpp lint`.
 */
import { analyzeText, diagnosticsOf, PASTE_NOTE_CODES, type Analysis } from './analyze';
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
 * Of two readings of one ruleset, the one that answers for `line`: the skipped family's reading on the lines of its
 * tables (inSkippedTable), the first reading everywhere else.
 */
export function readingAt(line: number, read: Analysis, skipped: Analysis): Analysis {
  return inSkippedTable(read, line) ? skipped : read;
}

/**
 * Lines `from` to `to` cut where a skipped table starts or ends, each piece with the reading that answers for it
 * (see readingAt): pieces in document order, for answers built in that order.
 */
export function piecesByReading(
  read: Analysis,
  skipped: Analysis,
  from: number,
  to: number,
): { analysis: Analysis; from: number; to: number }[] {
  const cuts = skippedRanges(read)
    .flat()
    .filter((line) => line > from && line <= to);
  const pieces: { analysis: Analysis; from: number; to: number }[] = [];
  let at = from;
  for (const cut of cuts) {
    pieces.push({ analysis: readingAt(at, read, skipped), from: at, to: cut - 1 });
    at = cut;
  }
  pieces.push({ analysis: readingAt(at, read, skipped), from: at, to });
  return pieces;
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
  return analyzeText(analysis.positions ? text : onlyLines(text, skippedRanges(analysis)), kind, {
    packetFamily: skipped,
  });
}

/** Whether `line` is in a table of the family `analysis` skipped (see skippedFamilyReading). */
export function inSkippedTable(analysis: Analysis, line: number): boolean {
  const ranges = skippedRanges(analysis);
  // The last range starting at or before `line`: ranges are sorted and do not overlap.
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ranges[mid][0] <= line) low = mid + 1;
    else high = mid;
  }
  return low > 0 && line < ranges[low - 1][1];
}

/** The skipped tables' line ranges of each analysis, found once: a hover asks on every move of the mouse. */
const rangesOfAnalysis = new WeakMap<Analysis, readonly [number, number][]>();

/** The line ranges of the tables of the family `analysis` skipped, in line order; none when it skipped none. */
function skippedRanges(analysis: Analysis): readonly [number, number][] {
  let ranges = rangesOfAnalysis.get(analysis);
  if (!ranges) {
    const skipped = skippedNftFamily(analysis);
    ranges = skipped === undefined ? [] : skippedTableRanges(analysis, skipped).sort((x, y) => x[0] - y[0]);
    rangesOfAnalysis.set(analysis, ranges);
  }
  return ranges;
}

/**
 * Lines [from, to) of each table of family `skipped`: from its header (the parser's `nft-table-skipped` note) to the
 * next table's header of any family, or the end.
 */
function skippedTableRanges(analysis: Analysis, skipped: IpFamily): [number, number][] {
  const dump = analysis.iptables!.dump;
  const family = skipped === 6 ? 'ip6' : 'ip';
  const notes = dump.diagnostics.filter((d) => d.code === 'nft-table-skipped');
  const starts = dump.nftTableLines ?? [];
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

/**
 * Of diagnostics of the skipped family's reading, those on its own tables' lines (see diagnosticsOfBoth) that the
 * first reading does not give too: the notes on how a paste was unwrapped (quoted, logged) are each reading's, and
 * the skipped family's reading of a paste puts them on its own first line.
 */
export function ownDiagnostics(read: Analysis, skipped: Analysis, found: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => `${d.code} ${d.span.line} ${d.span.column} ${d.span.length}`;
  const given = new Set((read.iptables?.dump.diagnostics ?? []).map(key));
  return found.filter(
    (d) =>
      d.code !== 'nft-table-skipped' &&
      !PASTE_NOTES.has(d.code) &&
      readingAt(d.span.line, read, skipped) === skipped &&
      !given.has(key(d)),
  );
}

const PASTE_NOTES: ReadonlySet<string> = new Set(PASTE_NOTE_CODES);
