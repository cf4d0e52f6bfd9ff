/**
 * A JSON string's escapes written into a MappedTextWriter, for logs that carry an output inside JSON (Docker's
 * json-file log, Ansible's task results): `\uXXXX` decoded (control characters but tab and ESC blank), the
 * one-character escapes as their characters.
 */
import type { MappedTextWriter } from './mappedText';

/** `\b` and `\f` are blanks to the engines; `\r` is the caller's (see writeJsonEscape). */
const ESCAPED: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', t: '\t', b: ' ', f: ' ' };

/**
 * The escape at `at` (a backslash with a character after it; the caller reads `\n` itself) written as what it
 * stands for, `\r` as `carriageReturn`; returns where the text after it starts.
 */
export function writeJsonEscape(text: string, at: number, writer: MappedTextWriter, carriageReturn: string): number {
  const kind = text[at + 1];
  const hex = kind === 'u' ? text.slice(at + 2, at + 6) : '';
  if (/^[0-9a-fA-F]{4}$/.test(hex)) {
    const code = parseInt(hex, 16);
    // An escape sequence's ESC stays (the colours are left out later); other control characters are blanks.
    writer.replace(6, code < 32 && code !== 9 && code !== 27 ? ' ' : String.fromCharCode(code));
    return at + 6;
  }
  writer.replace(2, kind === 'r' ? carriageReturn : (ESCAPED[kind] ?? kind));
  return at + 2;
}

/**
 * Copies text[from, end) up to its first quote or backslash (or `end`) and returns where it stopped. Each character
 * is looked at once: an indexOf for each, past the string's line, made a long string without quotes quadratic.
 */
export function copyPlain(text: string, from: number, end: number, writer: MappedTextWriter): number {
  let i = from;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 92) break;
  }
  writer.copy(from, i);
  return i;
}
