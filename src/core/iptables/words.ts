/**
 * Splits one rule's text into words the way iptables-restore does: whitespace separates, double quotes group
 * (with `\"` and `\\` escapes), single quotes group. Every word keeps its column and raw length.
 */
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

export function splitWords(text: string, baseColumn = 0, from = 0): SplitResult {
  const words: Word[] = [];
  let i = from;
  const n = text.length;
  let unterminatedQuoteAt: number | undefined;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) {
      i++;
      continue;
    }
    const start = i;
    // Fast path: a plain word (no quotes, no escapes) is one slice.
    let end = i;
    while (end < n) {
      const ch = text.charCodeAt(end);
      if (ch === 32 || ch === 9 || ch === 34 || ch === 39 || ch === 92) break;
      end++;
    }
    if (end === n || text.charCodeAt(end) === 32 || text.charCodeAt(end) === 9) {
      const raw = text.slice(start, end);
      words.push({ value: raw, raw, column: baseColumn + start, quoted: false });
      i = end;
      continue;
    }
    let value = '';
    let quoted = false;
    while (i < n) {
      const ch = text[i];
      if (ch === ' ' || ch === '\t') break;
      if (ch === '"' || ch === "'") {
        quoted = true;
        const quote = ch;
        const open = i;
        i++;
        let closed = false;
        while (i < n) {
          const q = text[i];
          if (q === '\\' && quote === '"' && i + 1 < n && (text[i + 1] === '"' || text[i + 1] === '\\')) {
            value += text[i + 1];
            i += 2;
            continue;
          }
          if (q === quote) {
            closed = true;
            i++;
            break;
          }
          value += q;
          i++;
        }
        if (!closed && unterminatedQuoteAt === undefined) unterminatedQuoteAt = baseColumn + open;
        continue;
      }
      if (ch === '\\' && i + 1 < n && (text[i + 1] === "'" || text[i + 1] === '"')) {
        value += text[i + 1];
        i += 2;
        continue;
      }
      value += ch;
      i++;
    }
    words.push({ value, raw: text.slice(start, i), column: baseColumn + start, quoted });
  }
  return { words, unterminatedQuoteAt };
}
