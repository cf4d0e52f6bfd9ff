/** Whitespace-separated words of one source line, with their columns in the original line. */
import type { SourceLine } from '../common/lines';
import type { Span } from '../common/diagnostics';

export interface Word {
  text: string;
  /** Column in the original (raw) line. */
  column: number;
}

export function splitWords(line: SourceLine): Word[] {
  const out: Word[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line.content)) !== null) out.push({ text: m[0], column: line.offset + m.index });
  return out;
}

export function wordSpan(line: number, word: Word): Span {
  return { line, column: word.column, length: word.text.length };
}
