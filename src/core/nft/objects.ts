/**
 * The sets and maps of an `nft list ruleset` table, and the anonymous verdict maps of its rules
 * (`numgen random mod 2 vmap { 0 : goto A, 1 : goto B }`). kube-proxy's nftables mode keeps its Services there:
 * `map service-ips { elements = { 10.96.0.1 . tcp . 443 : goto service-...-default/kubernetes/tcp/https } }`.
 * nft prints one element per line when there are several, each `KEY [comment "..."] [: VERDICT]`, the key's
 * parts joined by ` . `.
 */
import type { SourceLine } from '../common/lines';

export interface NftElement {
  /** The key's parts: `['10.96.0.1', 'tcp', '443']`. */
  key: string[];
  comment?: string;
  /** `goto`, `jump`, `drop`, `accept`, `return`, ... for a verdict map; absent for a set. */
  verdict?: string;
  /** The chain of a `goto`/`jump` verdict. */
  chain?: string;
  /** Where the element is written (0-based line, column of its first character, its length). */
  line: number;
  column: number;
  length: number;
}

export interface NftObject {
  kind: 'set' | 'map';
  /** The table the object is in. */
  table: string;
  name: string;
  /** 0-based line of `set NAME {` / `map NAME {`. */
  line: number;
  /** `timeout 3h` of a set whose elements expire (kube-proxy's session affinity sets), in seconds. */
  timeoutSeconds?: number;
  /** `flags dynamic,timeout`: `dynamic` marks a set the ruleset fills itself (`update @set { ip saddr }`). */
  flags: string[];
  elements: NftElement[];
}

/** A base chain of an nft table other than iptables' builtin ones: the tracer walks it at its hook by priority. */
export interface NftBaseChain {
  table: string;
  chain: string;
  /** `filter`, `nat` or `route`. */
  type: string;
  hook: 'prerouting' | 'input' | 'forward' | 'output' | 'postrouting';
  priority: number;
}

const OBJECT_HEAD = /^(set|map)\s+("[^"]*"|\S+)\s*\{/;
const ELEMENTS_START = /^elements\s*=\s*\{/;
const TIME_PART = /(\d+)(ms|d|h|m|s)/g;
const SECONDS: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1, ms: 0.001 };
/** Words after an element's key that are not part of it (`timeout`/`expires` of dynamic sets, counters). */
const ELEMENT_ATTRIBUTES = new Set(['timeout', 'expires', 'counter', 'packets', 'bytes']);

/** nft's time (`3h`, `1d2h3m4s`, `10800s`) in seconds; undefined when it is not one. */
export function nftSeconds(text: string): number | undefined {
  let total = 0;
  let read = 0;
  for (const m of text.matchAll(TIME_PART)) {
    total += Number(m[1]) * SECONDS[m[2]];
    read += m[0].length;
  }
  return read > 0 && read === text.length ? total : undefined;
}

/**
 * The set or map written on lines [start, end] (`set NAME {` to its closing brace); undefined for other objects
 * (flowtables, counters, ...). `content` of each line is what the paste shows without prefixes.
 */
export function readNftObject(
  lines: readonly SourceLine[],
  start: number,
  end: number,
  table: string,
): NftObject | undefined {
  const head = OBJECT_HEAD.exec(lines[start].content);
  if (!head) return undefined;
  const name = head[2].startsWith('"') ? head[2].slice(1, -1) : head[2];
  const object: NftObject = {
    kind: head[1] as 'set' | 'map',
    table,
    name,
    line: lines[start].line,
    flags: [],
    elements: [],
  };
  let inElements = false;
  for (let i = start + 1; i <= end && i < lines.length; i++) {
    const sl = lines[i];
    let text = sl.content;
    let column = sl.offset;
    if (!inElements) {
      const timeout = /^timeout\s+(\S+)$/.exec(text);
      if (timeout) {
        const seconds = nftSeconds(timeout[1]);
        if (seconds !== undefined) object.timeoutSeconds = seconds;
        continue;
      }
      const flags = /^flags\s+(\S+)$/.exec(text);
      if (flags) {
        object.flags = flags[1].split(',');
        continue;
      }
      const open = ELEMENTS_START.exec(text);
      if (!open) continue;
      inElements = true;
      column += open[0].length;
      text = text.slice(open[0].length);
    }
    // The last line of the elements closes their brace (and, on one line, maybe the object's too).
    const close = closingBrace(text);
    if (close >= 0) {
      text = text.slice(0, close);
      inElements = false;
    }
    for (const piece of splitElements(text)) {
      const element = readElement(piece.text);
      if (element)
        object.elements.push({ ...element, line: sl.line, column: column + piece.at, length: piece.text.length });
    }
  }
  return object;
}

/** The elements of `{ k : verdict, ... }` (text from its opening brace on). */
export function bracedElements(text: string): Omit<NftElement, 'line' | 'column' | 'length'>[] {
  const body = text.slice(text.indexOf('{') + 1);
  const close = closingBrace(body);
  const out: Omit<NftElement, 'line' | 'column' | 'length'>[] = [];
  for (const piece of splitElements(close >= 0 ? body.slice(0, close) : body)) {
    const element = readElement(piece.text);
    if (element) out.push(element);
  }
  return out;
}

/** Past this many characters a numgen rule is shown on each path cut to the element the path took. */
const WIDE_RULE_CHARS = 512;

/**
 * The text each path through `numgen ... vmap { ... }` shows for the rule, by the value it drew: the rule itself,
 * or for a rule longer than WIDE_RULE_CHARS the rule cut to that value's element
 * (`numgen random mod 1000 vmap { ..., 7 : goto e7, ... }`). The N paths of a Service with N endpoints each
 * showing its whole rule made a trace grow with N² (34 MB of JSON at N = 1000). Reads the rule once.
 */
export function numgenPathTexts(ruleText: string): (value: number) => string {
  const open = ruleText.length > WIDE_RULE_CHARS ? /\bvmap\s*\{/.exec(ruleText) : null;
  if (!open) return () => ruleText;
  const head = ruleText.slice(0, open.index + open[0].length);
  const body = ruleText.slice(head.length);
  const close = closingBrace(body);
  const tail = close >= 0 ? ` ${body.slice(close)}` : '';
  const pieces = splitElements(close >= 0 ? body.slice(0, close) : body);
  // The first element of a value is the one the tracer takes.
  const byValue = new Map<number, number>();
  pieces.forEach((piece, index) => {
    const key = readElement(piece.text)?.key;
    if (key?.length === 1 && !byValue.has(Number(key[0]))) byValue.set(Number(key[0]), index);
  });
  return (value) => {
    const index = byValue.get(value);
    if (index === undefined) return `${head} ...${tail}`;
    const before = index > 0 ? '..., ' : '';
    const after = index < pieces.length - 1 ? ', ...' : '';
    return `${head} ${before}${pieces[index].text}${after}${tail}`;
  };
}

/** Index of the `}` that closes an open brace in `text` (quotes respected), -1 when none does. */
function closingBrace(text: string): number {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '{') depth++;
    else if (c === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** The comma-separated pieces of `text` outside quotes and braces, each with its offset, blanks trimmed. */
function splitElements(text: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let from = 0;
  let depth = 0;
  let quoted = false;
  const push = (to: number) => {
    const raw = text.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed) out.push({ text: trimmed, at: from + lead });
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      push(i);
      from = i + 1;
    }
  }
  push(text.length);
  return out;
}

/** `10.96.0.1 . tcp . 443 comment "ns/svc:p" : goto CHAIN` (the comment and the verdict optional). */
function readElement(text: string): Omit<NftElement, 'line' | 'column' | 'length'> | undefined {
  // The verdict follows the last ` : ` outside quotes (IPv6 keys hold colons without blanks around them).
  const colon = lastSeparator(text);
  const keyText = colon >= 0 ? text.slice(0, colon) : text;
  const valueText = colon >= 0 ? text.slice(colon + 3).trim() : '';
  let comment: string | undefined;
  const quote = /\s+comment\s+"((?:[^"\\]|\\.)*)"/.exec(keyText);
  let keyPart = quote ? keyText.slice(0, quote.index) + keyText.slice(quote.index + quote[0].length) : keyText;
  if (quote) comment = quote[1];
  const words = keyPart.trim().split(/\s+/);
  const attribute = words.findIndex((w) => ELEMENT_ATTRIBUTES.has(w));
  keyPart = (attribute >= 0 ? words.slice(0, attribute) : words).join(' ');
  const key = keyPart.split(/\s+\.\s+/).filter((k) => k !== '');
  if (key.length === 0) return undefined;
  const element: Omit<NftElement, 'line' | 'column' | 'length'> = { key };
  if (comment !== undefined) element.comment = comment;
  if (valueText) {
    const [verdict, chain] = valueText.split(/\s+/);
    element.verdict = verdict;
    if ((verdict === 'goto' || verdict === 'jump') && chain)
      element.chain = chain.startsWith('"') ? chain.slice(1, -1) : chain;
  }
  return element;
}

function lastSeparator(text: string): number {
  let quoted = false;
  let found = -1;
  for (let i = 0; i + 2 < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === ' ' && text[i + 1] === ':' && text[i + 2] === ' ') found = i;
  }
  return found;
}
