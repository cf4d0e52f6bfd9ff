/**
 * The one walk over a plain iptables-save dump's lines that the readers which answer without the parser share: the
 * trace slice (traceSlice.ts) and the index of `kpp parse --json` (dumpIndex.ts). It tells what each line is (a
 * table's header, its COMMIT, a run of declarations, a run of rule lines, a blank, anything else) and checks the
 * tables (each given once, closed, at most MAX_TABLES); each reader adds its own facts and checks through
 * `DumpLineReader`, so that the two proofs that the parser would read the text as they do start from one reading.
 */
import type { LineIndex } from '../common/lines';

/** What a reader does with the lines `walkDumpLines` sorts; any false or -1 gives up (the parser reads the text). */
export interface DumpLineReader {
  /**
   * The rule lines from line `li` on (its content starts with `-`) in table number `table`: returns the line after
   * the last one it read (the walk goes on there), or -1 when a line is no rule it reads.
   */
  ruleLines(li: number, table: number): number;
  /** The declaration lines `first` to `last` (one match of DECLARATIONS) in table number `table`. */
  declarations(first: number, last: number, table: number): boolean;
  /**
   * Any other line that is not blank (a comment, or no dump line). `afterRules`: the line before is the last rule
   * line `ruleLines` read, so this one could be that rule's wrapped rest.
   */
  otherLine(li: number, afterRules: boolean): boolean;
}

/** The most lines one match of the clean-line and declaration patterns reads (see `cleanRulesPattern`). */
export const MAX_LINES_MATCHED = 256;

/** Declaration lines, at most MAX_LINES_MATCHED of them (a big dump declares its 60k chains in one block). */
export const DECLARATIONS = new RegExp(
  `:[!-~]+ [!-~]+(?: \\[\\d+:\\d+\\])?(?:\\r?\\n:[!-~]+ [!-~]+(?: \\[\\d+:\\d+\\])?){0,${MAX_LINES_MATCHED - 1}}(?=[\\r\\n]|$)`,
  'y',
);

const TABLE_HEADER = /^\*([A-Za-z_][\w-]*)$/;

/** The most tables a walk takes: the trace slice marks a line with 1 + its table's number in a byte. */
const MAX_TABLES = 250;

/**
 * Walks the lines of `lines` (see the module's comment), the tables' names added to `tables` in order: false when
 * the text is not a plain dump or the reader gave up.
 */
export function walkDumpLines(lines: LineIndex, reader: DumpLineReader, tables: string[]): boolean {
  const text = lines.text;
  const { contentStart, contentEnd, count } = lines;
  let table = -1;
  let afterRules = false;
  for (let li = 0; li < count; li++) {
    const cs = contentStart[li];
    const ce = contentEnd[li];
    const ruleBefore = afterRules;
    afterRules = false;
    if (cs === ce) continue;
    const c0 = text.charCodeAt(cs);
    if (c0 === 45) {
      if (table < 0) return false;
      const next = reader.ruleLines(li, table);
      if (next < 0) return false;
      li = next - 1;
      afterRules = true;
      continue;
    }
    if (c0 === 58) {
      // Not through `cleanRunEnd`: its pattern's test, given one pattern only, runs faster.
      DECLARATIONS.lastIndex = cs;
      if (table < 0 || !DECLARATIONS.test(text)) return false;
      const last = lastLineBefore(lines, li, DECLARATIONS.lastIndex);
      if (last < 0 || !reader.declarations(li, last, table)) return false;
      li = last;
      continue;
    }
    if (c0 === 42) {
      const m = TABLE_HEADER.exec(text.slice(cs, ce));
      if (!m || table >= 0 || tables.includes(m[1]) || tables.length >= MAX_TABLES) return false;
      table = tables.length;
      tables.push(m[1]);
      continue;
    }
    if (c0 === 67 && ce - cs === 6 && text.startsWith('COMMIT', cs)) {
      if (table < 0) return false;
      table = -1;
      continue;
    }
    if (!reader.otherLine(li, ruleBefore)) return false;
  }
  // A table without its COMMIT: the parser may call its last rule cut.
  return table < 0;
}

/** `cleanRunEnd`: the clean-line pattern does not match at the line's content. */
export const NO_MATCH = -1;
/** `cleanRunEnd`: the match ends inside a line (the pattern reads raw lines, not the parser's lines as they are). */
export const PART_OF_LINE = -2;

/**
 * The last line of the match of the clean-line pattern `rules` (`cleanRulesPattern`) from the start of line li's
 * content, or NO_MATCH, or PART_OF_LINE.
 */
export function cleanRunEnd(lines: LineIndex, li: number, rules: RegExp): number {
  rules.lastIndex = lines.contentStart[li];
  return rules.test(lines.text) ? lastLineBefore(lines, li, rules.lastIndex) : NO_MATCH;
}

/** The line from li on whose content ends at `end`, or PART_OF_LINE when `end` is inside a line. */
function lastLineBefore(lines: LineIndex, li: number, end: number): number {
  const { start, count } = lines;
  let last = li;
  while (last + 1 < count && start[last + 1] <= end) last++;
  return lines.contentEnd[last] === end ? last : PART_OF_LINE;
}
