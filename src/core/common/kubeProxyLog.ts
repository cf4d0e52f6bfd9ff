/**
 * kube-proxy logs the whole iptables-restore input it is about to apply (`-v=5` in 1.21-1.26, `-v=9` since), and
 * people paste that log. Four forms exist, by version and logging format:
 * - klog `Infof` (up to 1.20): `I1206 10:00:01.123456  1 proxier.go:1456] Restoring iptables rules: *filter` and the
 *   input's remaining lines as they are (`Syncing iptables rules: ` in the oldest releases);
 * - klog structured, a string with klog 2.60 and later: `"Restoring iptables" rules=<`, the input's lines behind a
 *   tab each, and ` >` on a line of its own;
 * - klog structured, a string before klog 2.60 or a byte slice (`%+q`) since: `"Restoring iptables" rules="*filter\n
 *   :KUBE-SERVICES - [0:0]\n..."`, the whole input on the log line with Go's escapes;
 * - JSON logging (`--logging-format=json`) of a string: `{"ts":...,"msg":"Restoring iptables","rules":"*filter\n..."}`;
 * - JSON logging of a byte slice (zap writes bytes in base64): `"rules":"KmZpbHRlcgo6S1VCRS1TRVJWSUNFUy..."`.
 * A JSON log made readable before it was pasted (`jq .`) has a blank after each colon and every member on a line of
 * its own: `  "rules": "*filter\n..."` is read as the line `{"...","rules":"*filter\n..."}` would be.
 * The input is what the engines read: the last one logged, with every other log line blanked. The first two keep
 * their lines (only the log's own text is blanked); the escaped and base64 forms are decoded into lines of their
 * own, and `positions` says where each of those lines is in the log.
 */
import { isBlankCode } from './chars';
import { PastePositionsBuilder, type PastePositions } from './pastePositions';

export interface LoggedRestoreInput {
  /** The text the engines read. */
  text: string;
  /** The log text that announced the input read (0-based, in the lines of `text`): where a note about it goes. */
  header: { line: number; column: number; length: number };
  /** Log lines that carried an input (the last is read). */
  inputs: number;
  /** Where the lines of `text` are in the log, when an escaped input was unescaped into lines. */
  positions?: PastePositions;
}

/** A klog header: severity, date, time, thread id, `file:line]`. */
const KLOG_HEADER = /^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6}\s+\d+ [^\s:\]]+:\d+\] /;
/**
 * The text a logged restore input follows, in each form read here: raw (after `Restoring ` or `Syncing `), klog's
 * `rules=<` and `rules="`, JSON's `"rules":"` (a string or base64).
 */
const RAW_KEY = 'iptables rules: ';
const LINES_KEY = ' rules=<';
const QUOTED_KEY = ' rules="';
const JSON_KEY = '"rules":"';
/** JSON's key with the blank a formatter (`jq .`) puts after its colon. */
const FORMATTED_JSON_KEY = '"rules": "';
/** A member of a formatted JSON object on a line of its own: `"rules": "...",`. */
const JSON_MEMBER = /^"[\w.]+":/;
const INPUT_KEYS = [RAW_KEY, LINES_KEY, QUOTED_KEY, JSON_KEY, FORMATTED_JSON_KEY];
const RAW_INPUT = new RegExp(`^(?:Restoring|Syncing) ${RAW_KEY}`);
/** The start of a restore input: a table header or a rule, at its start or after one of its line breaks. */
const LOOKS_LIKE_INPUT = /(?:^|\n)(?:\*(?:filter|nat|mangle|raw|security)\b|:KUBE-|-A KUBE-)/;
/** Lines looked at for a log's first klog or JSON line; a dump is decided without reading further. */
const SAMPLE_LINES = 400;

type Form = 'raw' | 'lines' | 'quoted' | 'json' | 'base64';

interface Found {
  form: Form;
  line: number;
  /** Offset of the line's first character, of its log text, and of the input's first character. */
  lineStart: number;
  headerAt: number;
  inputAt: number;
  /** Log lines that carried an input. */
  inputs: number;
}

/**
 * Whether a log may carry a restore input at all: most logs (kubelet's, containerd's, an app's) never say "rules",
 * and a face need not hand their whole text to a reader to learn that.
 */
export function mayCarryRestoreInput(text: string): boolean {
  return text.includes('rules') && INPUT_KEYS.some((key) => text.includes(key));
}

/** The restore input a kube-proxy log carries, or undefined when the text is no such log. */
export function readKubeProxyLog(text: string): LoggedRestoreInput | undefined {
  const found = lastInput(text);
  if (!found) return undefined;
  if (found.form === 'base64') return decodeBase64Input(text, found);
  return found.form === 'quoted' || found.form === 'json' ? unescapeInput(text, found) : keepLines(text, found);
}

/**
 * Whether a text's head is a klog or JSON log, one that may carry a restore input further down than a detector reads
 * (kube-proxy logs hundreds of lines between syncs).
 */
export function looksLikeKubeProxyLog(head: string): boolean {
  let lines = 0;
  for (const line of head.split('\n', SAMPLE_LINES)) {
    const start = line.trimStart();
    // A JSON entry on a line, or a formatted one's message member on its own.
    if (KLOG_HEADER.test(start) || (start.startsWith('{"') && start.includes('"msg":')) || start.startsWith('"msg":'))
      return true;
    if (start !== '' && ++lines >= 20) return false;
  }
  return false;
}

function lastInput(text: string): Found | undefined {
  let last: Found | undefined;
  let inputs = 0;
  let logLines = 0;
  let at = 0;
  for (let line = 0; at <= text.length; line++) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    let headerAt = at;
    while (headerAt < end && isBlankCode(text.charCodeAt(headerAt))) headerAt++;
    const head = text.slice(headerAt, Math.min(end, headerAt + 200));
    const klog = KLOG_HEADER.exec(head);
    const json = !klog && (head.startsWith('{"') || JSON_MEMBER.test(head));
    if (klog || json) logLines++;
    else if (line >= SAMPLE_LINES && logLines === 0) return undefined;
    const found = klog
      ? klogInput(text, headerAt, end, klog[0].length)
      : json
        ? jsonInput(text, headerAt, end)
        : undefined;
    if (found) {
      inputs++;
      last = { ...found, line, lineStart: at, headerAt, inputs: 0 };
    }
    at = end + 1;
  }
  if (last) last.inputs = inputs;
  return last;
}

function klogInput(text: string, headerAt: number, end: number, headerLength: number) {
  const message = headerAt + headerLength;
  const raw = RAW_INPUT.exec(text.slice(message, Math.min(end, message + 40)));
  if (raw) {
    const inputAt = message + raw[0].length;
    return looksLikeInput(text, inputAt, Math.min(text.length, inputAt + 4000))
      ? { form: 'raw' as const, inputAt }
      : undefined;
  }
  const line = text.slice(message, end);
  if (line.endsWith(LINES_KEY)) {
    const inputAt = end + 1;
    return looksLikeInput(text, inputAt, Math.min(text.length, inputAt + 4000))
      ? { form: 'lines' as const, inputAt }
      : undefined;
  }
  const key = line.indexOf(QUOTED_KEY);
  if (key < 0) return undefined;
  const inputAt = message + key + QUOTED_KEY.length;
  return looksLikeEscapedInput(text, inputAt, end) ? { form: 'quoted' as const, inputAt } : undefined;
}

function jsonInput(text: string, headerAt: number, end: number) {
  // Looked for in this line only: a search past its end would read the rest of a long log for every line.
  const line = text.slice(headerAt, end);
  const compact = line.indexOf(JSON_KEY);
  const key = compact >= 0 ? compact : line.indexOf(FORMATTED_JSON_KEY);
  if (key < 0) return undefined;
  const inputAt = headerAt + key + (compact >= 0 ? JSON_KEY : FORMATTED_JSON_KEY).length;
  if (looksLikeEscapedInput(text, inputAt, end)) return { form: 'json' as const, inputAt };
  return looksLikeBase64Input(text, inputAt, end) ? { form: 'base64' as const, inputAt } : undefined;
}

function looksLikeInput(text: string, from: number, to: number): boolean {
  return LOOKS_LIKE_INPUT.test(text.slice(from, to).replace(/\n[ \t]+/g, '\n'));
}

function looksLikeEscapedInput(text: string, from: number, end: number): boolean {
  return LOOKS_LIKE_INPUT.test(text.slice(from, Math.min(end, from + 4000)).replace(/\\n/g, '\n'));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The value's start decodes (whole groups of four) to what a restore input starts with. */
function looksLikeBase64Input(text: string, from: number, end: number): boolean {
  const quote = text.indexOf('"', from);
  const to = Math.min(quote < 0 || quote > end ? end : quote, from + 4000);
  const head = text.slice(from, from + (to - from - ((to - from) % 4)));
  if (head.length < 8 || !BASE64.test(head)) return false;
  try {
    return LOOKS_LIKE_INPUT.test(atob(head));
  } catch {
    return false;
  }
}

/** The raw and tabbed forms: the input keeps its lines; the log text around it is blanked. */
function keepLines(text: string, found: Found): LoggedRestoreInput {
  const lines = text.split('\n');
  const first = found.form === 'raw' ? found.line : found.line + 1;
  let last = first;
  while (last + 1 < lines.length && !endsInput(found.form, lines[last + 1])) last++;
  const column = found.form === 'raw' ? found.inputAt - found.lineStart : 0;
  for (let i = 0; i < lines.length; i++) {
    if (i === first && found.form === 'raw') lines[i] = ' '.repeat(column) + lines[i].slice(column);
    else if (i < first || i > last) lines[i] = blank(lines[i]);
  }
  const headerColumn = found.headerAt - found.lineStart;
  const headerEnd = found.form === 'raw' ? column : text.indexOf('\n', found.lineStart) - found.lineStart;
  return {
    text: lines.join('\n'),
    header: { line: found.line, column: headerColumn, length: headerEnd - headerColumn },
    inputs: found.inputs,
  };
}

/** Where the input ends: at the next log line (raw), or at klog's ` >` (tabbed). */
function endsInput(form: Form, line: string): boolean {
  const c = line.trim();
  if (form === 'lines') return c === '>' || KLOG_HEADER.test(c);
  return KLOG_HEADER.test(c) || c.startsWith('{"');
}

/** A line's characters as blanks (a tab stays a tab), so that nothing of it is read but its length holds. */
function blank(line: string): string {
  return line.replace(/[^\t]/g, ' ');
}

/** Go's and JSON's escapes, each read as one character. */
const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  '"': '"',
  '\\': '\\',
  '/': '/',
  "'": "'",
  // A carriage return or a control character in the input would end or break an engine line: a blank holds its place.
  r: ' ',
  a: ' ',
  b: ' ',
  f: ' ',
  v: ' ',
};
const HEX_WIDTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The escaped forms: the input unescaped into lines, each mapped to where it is on the log line. */
function unescapeInput(text: string, found: Found): LoggedRestoreInput {
  const map = new PastePositionsBuilder();
  const out: string[] = [];
  startDecoded(text, found, map, out);
  const lineEnd = text.indexOf('\n', found.lineStart) < 0 ? text.length : text.indexOf('\n', found.lineStart);
  let engineColumn = found.inputAt - found.lineStart;
  let i = found.inputAt;
  // The first quote not behind a backslash closes the input; the next quote is looked for again only once an
  // escape has consumed it (an input of 25 MB is one line).
  let quote = -1;
  while (i < lineEnd) {
    if (quote < i) {
      const q = text.indexOf('"', i);
      quote = q < 0 || q > lineEnd ? lineEnd : q;
    }
    const backslash = text.indexOf('\\', i);
    const stop = backslash < 0 || backslash > quote ? quote : backslash;
    if (stop > i) {
      out.push(text.slice(i, stop));
      engineColumn += stop - i;
      i = stop;
    }
    if (i >= lineEnd) break;
    if (text.charCodeAt(i) === 34) {
      // The closing quote: the rest of the log line (its other fields) is blanked.
      out.push(blank(text.slice(i, lineEnd)));
      i = lineEnd;
      break;
    }
    if (i + 1 >= lineEnd) {
      // A line cut right after a backslash: the backslash is itself (reading past the line end would eat its break).
      out.push('\\');
      i = lineEnd;
      break;
    }
    const kind = text[i + 1];
    if (kind === 'n') {
      out.push('\n');
      i += 2;
      map.line(i);
      engineColumn = 0;
      continue;
    }
    const hex = HEX_WIDTH[kind];
    let width = 2;
    let char = SIMPLE_ESCAPES[kind] ?? kind;
    if (hex && /^[0-9a-fA-F]+$/.test(text.slice(i + 2, i + 2 + hex)) && i + 2 + hex <= lineEnd) {
      width = 2 + hex;
      const code = parseInt(text.slice(i + 2, i + 2 + hex), 16);
      // One character for one escape: a code point beyond 16 bits (two UTF-16 units) is held by a blank.
      char = code > 0xffff || code < 32 ? ' ' : String.fromCharCode(code);
    }
    if (char === '') char = ' ';
    map.escape(engineColumn, width - 1);
    out.push(char);
    engineColumn++;
    i += width;
  }
  return finishDecoded(text, found, lineEnd, map, out);
}

/** The log's lines before the input's, blank, and the input line's log text before the input, blanked. */
function startDecoded(text: string, found: Found, map: PastePositionsBuilder, out: string[]): void {
  for (let at = 0, line = 0; line < found.line; line++) {
    map.line(at);
    out.push('\n');
    at = text.indexOf('\n', at) + 1;
  }
  map.line(found.lineStart);
  out.push(' '.repeat(found.inputAt - found.lineStart));
}

/** The log's lines after the input's, blank in their places, and what was read. */
function finishDecoded(
  text: string,
  found: Found,
  lineEnd: number,
  map: PastePositionsBuilder,
  out: string[],
): LoggedRestoreInput {
  for (let at = lineEnd + 1; at <= text.length;) {
    const nl = text.indexOf('\n', at);
    map.line(at);
    out.push('\n');
    if (nl < 0) break;
    at = nl + 1;
  }
  const decoded = out.join('');
  return {
    text: decoded,
    header: { line: found.line, column: found.headerAt - found.lineStart, length: found.inputAt - found.headerAt },
    inputs: found.inputs,
    positions: map.build(text, decoded),
  };
}

/**
 * The base64 form: the input decoded (UTF-8) into lines, each mapped to where its bytes are in the log line. Three
 * bytes are four characters there: a character stands for the characters from its first byte's to the next one's.
 */
function decodeBase64Input(text: string, found: Found): LoggedRestoreInput {
  const lineEnd = text.indexOf('\n', found.inputAt) < 0 ? text.length : text.indexOf('\n', found.inputAt);
  const quote = text.indexOf('"', found.inputAt);
  const valueEnd = quote < 0 || quote > lineEnd ? lineEnd : quote;
  // Whole groups of four of the value's base64 (a log line cut off mid-value ends sooner).
  const usable = /^[A-Za-z0-9+/]*(?:={1,2})?/.exec(text.slice(found.inputAt, valueEnd))![0];
  let bytes = '';
  try {
    bytes = atob(usable.slice(0, usable.length - (usable.length % 4)));
  } catch {
    // Padding inside the value: nothing is read, and the note still says where the input was.
  }
  /** Where byte b of the input begins in the log. */
  const at = (b: number) => found.inputAt + Math.floor(b / 3) * 4 + (b % 3);
  const map = new PastePositionsBuilder();
  const out: string[] = [];
  startDecoded(text, found, map, out);
  let column = found.inputAt - found.lineStart;
  let run = 0; // the first byte of the plain ASCII run not yet copied
  const flush = (b: number) => {
    if (b > run) out.push(bytes.slice(run, b));
  };
  for (let b = 0; b < bytes.length;) {
    const c = bytes.charCodeAt(b);
    if (c === 10) {
      flush(b);
      out.push('\n');
      b++;
      run = b;
      map.line(at(b));
      column = 0;
      continue;
    }
    let width = 1;
    let char: string | undefined;
    if (c >= 0x80) {
      width = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
      let code = width === 1 ? -1 : c & (0xff >> (width + 1));
      for (let k = 1; k < width; k++) {
        const next = bytes.charCodeAt(b + k);
        if (!(next >= 0x80 && next < 0xc0)) {
          width = 1;
          code = -1;
          break;
        }
        code = (code << 6) | (next & 0x3f);
      }
      // One character for one sequence: outside 16 bits, broken or a control character, a blank holds its place.
      char = code < 0x80 || code > 0xffff || (code >= 0xd800 && code < 0xe000) ? ' ' : String.fromCharCode(code);
    } else if (c < 32 && c !== 9) char = ' ';
    const extra = at(b + width) - at(b) - 1;
    if (char !== undefined) {
      flush(b);
      out.push(char);
      run = b + width;
    }
    if (extra > 0) map.escape(column, extra);
    column++;
    b += width;
  }
  flush(bytes.length);
  // The rest of the log line (its other fields) is blanked.
  out.push(blank(text.slice(at(bytes.length), lineEnd)));
  return finishDecoded(text, found, lineEnd, map, out);
}
