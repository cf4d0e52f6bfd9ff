/**
 * Words of an iptables line the way iptables-restore reads them: whitespace separates, double quotes group
 * (with `\"` and `\\` escapes), single quotes group, and `\"` / `\'` outside quotes stand for the quote.
 * `scanWord` holds these rules once; `splitWords` builds word objects for short lines, and the rule store
 * (ruleReader.ts) keeps word positions only.
 */
import { isBlankCode } from '../common/chars';
import type { Span } from '../common/diagnostics';
export interface Word {
  /** Value with quotes removed and escapes resolved. */
  value: string;
  /** Text as written. */
  raw: string;
  column: number;
  quoted: boolean;
  /** Filled by the rule parser: the word's span, shared by its token and its option. */
  span?: Span;
}

export interface SplitResult {
  words: Word[];
  /** Column of an opening quote that was never closed. */
  unterminatedQuoteAt?: number;
}

/** The word had quotes. */
export const WORD_QUOTED = 1;
/** The word's value differs from its text (quotes or escapes). */
export const WORD_ESCAPED = 2;

/** What the last `scanWord` call found besides the word's end: its flags and where a quote stayed open (-1). */
export const lastWord = { flags: 0, unclosedQuoteAt: -1 };

/** What ends a word: blanks and line breaks (a range over several lines: a rule a hard wrap broke). */
export function isWordBreakCode(c: number): boolean {
  return isBlankCode(c) || c === 10 || c === 13;
}

/**
 * Reads the word starting at `start` (not a word break) in text[.., end); returns the offset just past it,
 * always past `start` when start < end, so no caller's loop can stand still on a character it did not expect.
 */
export function scanWord(text: string, start: number, end: number): number {
  let flags = 0;
  let unclosed = -1;
  let i = start;
  while (i < end) {
    const ch = text.charCodeAt(i);
    // Letters, digits, `-./:,` and most punctuation end nothing: one comparison for nearly every character.
    if (ch > 39 && ch !== 92) {
      i++;
      continue;
    }
    if (isWordBreakCode(ch)) {
      if (i === start) i++;
      break;
    }
    if (ch === 34 || ch === 39) {
      flags |= WORD_QUOTED | WORD_ESCAPED;
      const open = i++;
      let closed = false;
      while (i < end) {
        const q = text.charCodeAt(i);
        if (q === 92 && ch === 34 && i + 1 < end) {
          const e = text.charCodeAt(i + 1);
          if (e === 34 || e === 92) {
            i += 2;
            continue;
          }
        }
        i++;
        if (q === ch) {
          closed = true;
          break;
        }
      }
      if (!closed && unclosed < 0) unclosed = open;
      continue;
    }
    if (ch === 92 && i + 1 < end) {
      const e = text.charCodeAt(i + 1);
      if (e === 34 || e === 39) {
        flags |= WORD_ESCAPED;
        i += 2;
        continue;
      }
    }
    i++;
  }
  lastWord.flags = flags;
  lastWord.unclosedQuoteAt = unclosed;
  return i;
}

/** The value of one word as written (quotes removed, escapes resolved), by the rules of `scanWord`. */
export function unquoteWord(raw: string): string {
  // Without a backslash or a single quote, every double quote opens or closes a quoted run and the rest is kept:
  // the word less its double quotes (a kube-proxy comment, `"ns/svc:port cluster IP"`), in one slice instead of
  // a string grown by a character at a time.
  if (raw.indexOf('\\') < 0 && raw.indexOf("'") < 0) {
    const quote = raw.indexOf('"');
    if (quote < 0) return raw;
    if (quote === 0 && raw.indexOf('"', 1) === raw.length - 1) return raw.slice(1, -1);
    return raw.split('"').join('');
  }
  let value = '';
  let i = 0;
  const n = raw.length;
  while (i < n) {
    const ch = raw[i];
    if (ch === '"' || ch === "'") {
      i++;
      while (i < n) {
        const q = raw[i];
        if (q === '\\' && ch === '"' && i + 1 < n && (raw[i + 1] === '"' || raw[i + 1] === '\\')) {
          value += raw[i + 1];
          i += 2;
          continue;
        }
        i++;
        if (q === ch) break;
        value += q;
      }
      continue;
    }
    if (ch === '\\' && i + 1 < n && (raw[i + 1] === "'" || raw[i + 1] === '"')) {
      value += raw[i + 1];
      i += 2;
      continue;
    }
    value += ch;
    i++;
  }
  return value;
}

/** Calls `visit` for each word of text[from, end) with its bounds and `scanWord`'s flags and open quote. */
export function forEachWord(
  text: string,
  from: number,
  end: number,
  visit: (start: number, end: number, flags: number, unclosedQuoteAt: number) => void,
): void {
  let i = from;
  while (i < end) {
    if (isWordBreakCode(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    i = scanWord(text, start, end);
    visit(start, i, lastWord.flags, lastWord.unclosedQuoteAt);
  }
}

export function splitWords(text: string, baseColumn = 0, from = 0): SplitResult {
  const words: Word[] = [];
  let unterminatedQuoteAt: number | undefined;
  forEachWord(text, from, text.length, (start, end, flags, unclosedQuoteAt) => {
    const raw = text.slice(start, end);
    if (unclosedQuoteAt >= 0 && unterminatedQuoteAt === undefined) unterminatedQuoteAt = baseColumn + unclosedQuoteAt;
    words.push({
      value: flags & WORD_ESCAPED ? unquoteWord(raw) : raw,
      raw,
      column: baseColumn + start,
      quoted: (flags & WORD_QUOTED) !== 0,
    });
  });
  return { words, unterminatedQuoteAt };
}

/**
 * text[start, end) with each whitespace run as one space and none at either end: what two rules' texts are
 * compared as. Most rules are written single-spaced; those are sliced as they are, without a regex pass.
 */
export function collapseSpaces(text: string, start = 0, end = text.length): string {
  const slice = text.slice(start, end);
  return singleSpaced(text, start, end) ? slice : slice.replace(/\s+/g, ' ').trim();
}

/** Whether text[start, end) has only single spaces between words and none at either end. */
function singleSpaced(text: string, start: number, end: number): boolean {
  if (end > start && (text.charCodeAt(start) === 32 || text.charCodeAt(end - 1) === 32)) return false;
  let previousSpace = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (previousSpace) return false;
      previousSpace = true;
    } else {
      // Any other whitespace \s matches would collapse too: tabs, line breaks, NBSP, the Unicode spaces, BOM.
      if (c <= 13 ? c >= 9 : c >= 0xa0 && isOtherWhitespace(c)) return false;
      previousSpace = false;
    }
  }
  return true;
}

/** Code points from U+00A0 up that JavaScript's \s matches. */
function isOtherWhitespace(c: number): boolean {
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
