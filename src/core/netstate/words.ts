/** Whitespace-separated words with their positions, the unit every network-output parser works on. */
import { isWhiteCode } from '../common/chars';
import type { Span } from '../common/diagnostics';

export interface Word {
  text: string;
  /** 0-based line in the original text. */
  line: number;
  /** Column of the first character in the original line. */
  column: number;
}

/** A piece of one original line to parse (a whole line, or one segment of an `ip -o` line). */
export interface Segment {
  line: number;
  /** The text to parse, without surrounding whitespace. */
  text: string;
  /** Column of `text` in the original line (its indentation, for a whole line). */
  column: number;
}

export function splitWords(seg: Segment): Word[] {
  const out: Word[] = [];
  const s = seg.text;
  let i = 0;
  while (i < s.length) {
    // Non-breaking spaces come with pastes from web pages: white space too.
    while (i < s.length && isWhiteCode(s.charCodeAt(i))) i++;
    const start = i;
    while (i < s.length && !isWhiteCode(s.charCodeAt(i))) i++;
    if (i > start) out.push({ text: s.slice(start, i), line: seg.line, column: seg.column + start });
  }
  return out;
}

export function wordSpan(w: Word): Span {
  return { line: w.line, column: w.column, length: Math.max(1, w.text.length) };
}

/** Span from the first to the last word (inclusive). */
export function wordsSpan(first: Word, last: Word): Span {
  return { line: first.line, column: first.column, length: Math.max(1, last.column + last.text.length - first.column) };
}

export function segmentSpan(seg: Segment): Span {
  return { line: seg.line, column: seg.column, length: Math.max(1, seg.text.length) };
}

/** A sub-span of a word: `src=10.0.0.1` gives the span of `10.0.0.1` with `skip` = 4. */
export function innerSpan(w: Word, skip: number, length = w.text.length - skip): Span {
  return { line: w.line, column: w.column + skip, length: Math.max(1, length) };
}

/** Trims blanks (including NBSP) from a piece of a line and returns it as a segment. */
export function makeSegment(line: number, raw: string, start = 0, end = raw.length): Segment {
  let a = start;
  let b = end;
  while (a < b && isWhiteCode(raw.charCodeAt(a))) a++;
  while (b > a && isWhiteCode(raw.charCodeAt(b - 1))) b--;
  return { line, text: raw.slice(a, b), column: a };
}

/** A whole number written in decimal; undefined for anything else. */
export function toInt(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}
