/**
 * `conntrack -L` / `conntrack -E` / `/proc/net/nf_conntrack` lines:
 * `[NEW] tcp      6 120 SYN_SENT src=A dst=B sport=1 dport=2 [UNREPLIED] src=C dst=D sport=2 dport=1 mark=0 use=1`,
 * and the `conntrack v1.4.4 (conntrack-tools): 38 flow entries have been shown.` summary (also when glued to an entry).
 */
import { parseIp } from '../common/ip';
import { ownEntry } from '../common/own';
import type { Reporter } from './report';
import type { ConntrackEntry, ConntrackSummary, ConntrackTuple, NatTranslation } from './types';
import { innerSpan, toInt, wordSpan, wordsSpan, type Segment, type Word } from './words';

const PROTOCOL_NUMBERS: Record<string, number> = {
  icmp: 1,
  igmp: 2,
  tcp: 6,
  udp: 17,
  dccp: 33,
  gre: 47,
  icmpv6: 58,
  sctp: 132,
  udplite: 136,
  unknown: 0,
};
const PROTOCOL_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(PROTOCOL_NUMBERS)
    .filter(([n]) => n !== 'unknown')
    .map(([n, v]) => [v, n]),
);

/** Keys that belong to one direction's tuple. */
const TUPLE_KEYS = new Set([
  'src',
  'dst',
  'sport',
  'dport',
  'type',
  'code',
  'id',
  'packets',
  'bytes',
  'srckey',
  'dstkey',
]);

const SUMMARY = /^(?:conntrack v(\S+) \(conntrack-tools\):\s*)?(\d+) flow (entries|events) have been shown\.?$/;
/** The version prefix conntrack prints on stderr, which a terminal can glue in front of an entry. */
const VERSION_PREFIX = /conntrack v(\S+) \(conntrack-tools\):\s*/;

export function readConntrackSummary(content: string, line: number, column: number): ConntrackSummary | undefined {
  const m = SUMMARY.exec(content);
  if (!m) return undefined;
  const summary: ConntrackSummary = {
    line,
    span: { line, column, length: Math.max(1, content.length) },
    kind: m[3] === 'events' ? 'events' : 'entries',
    count: Number(m[2]),
  };
  if (m[1]) summary.version = m[1];
  return summary;
}

/**
 * Splits a line where conntrack's stderr version prefix interrupts its stdout, e.g.
 * `conntrack v1.4.2 (conntrack-tools): tcp 6 86394 ESTABLISHED src=...`: the prefix (whose count comes on a later
 * line) and the text around it. Undefined when the line has no such prefix or is a whole summary line.
 */
export function splitGluedSummary(seg: Segment): { version?: Segment; rest: Segment[] } | undefined {
  const m = VERSION_PREFIX.exec(seg.text);
  if (!m || SUMMARY.test(seg.text)) return undefined;
  const before = seg.text.slice(0, m.index).trimEnd();
  const afterStart = m.index + m[0].length;
  const rest: Segment[] = [];
  if (before) rest.push({ line: seg.line, text: before, column: seg.column });
  const after = seg.text.slice(afterStart);
  if (after) rest.push({ line: seg.line, text: after, column: seg.column + afterStart });
  return { version: { line: seg.line, text: m[0].trimEnd(), column: seg.column + m.index }, rest };
}

export function versionOfPrefix(text: string): string | undefined {
  return VERSION_PREFIX.exec(text)?.[1];
}

/** True when the words read like a conntrack entry: key=value tuples with at least `src=` and `dst=`. */
export function looksLikeConntrack(words: Word[]): boolean {
  return words.some((w) => w.text.startsWith('src=')) && words.some((w) => w.text.startsWith('dst='));
}

export function parseConntrackLine(words: Word[], reporter: Reporter): ConntrackEntry {
  const first = words[0];
  const last = words[words.length - 1];
  const entry: ConntrackEntry = {
    line: first.line,
    span: wordsSpan(first, last),
    protocol: 'unknown',
    original: newTuple(first),
    flags: [],
    assured: false,
    unreplied: false,
    extra: {},
    partial: false,
    spans: {},
  };
  let firstKeyIndex = words.findIndex((w) => w.text.includes('='));
  if (firstKeyIndex < 0) firstKeyIndex = words.length;
  readPrelude(words.slice(0, firstKeyIndex), first, entry, reporter);

  let current: ConntrackTuple | undefined;
  let tupleFirst = first;
  let tupleLast = first;
  let tuples = 0;
  const closeTuple = () => {
    if (current) current.span = wordsSpan(tupleFirst, tupleLast);
  };
  for (const w of words.slice(firstKeyIndex)) {
    const bracket = /^\[([A-Z_]+)\]$/.exec(w.text);
    if (bracket) {
      entry.flags.push(bracket[1]);
      continue;
    }
    const eq = w.text.indexOf('=');
    if (eq <= 0) {
      entry.extra[w.text] = '';
      reporter.report('routes-conntrack-unknown-word', 'info', wordSpan(w), { word: w.text });
      continue;
    }
    const key = w.text.slice(0, eq);
    const value = w.text.slice(eq + 1);
    if (key === 'src' && tuples < 2 && (!current || current.src !== undefined)) {
      closeTuple();
      tuples++;
      current = newTuple(w);
      tupleFirst = w;
      if (tuples === 1) entry.original = current;
      else entry.reply = current;
    }
    // `id=` is the ICMP id inside a tuple, or the entry id (`-o id`) after the tuples.
    const belongsToTuple = TUPLE_KEYS.has(key) && !(key === 'id' && !isIcmp(entry.protocol));
    if (current && belongsToTuple && !tupleHas(current, key)) {
      setTupleField(current, key, value, w, eq + 1);
      tupleLast = w;
      continue;
    }
    setEntryField(entry, key, value);
  }
  closeTuple();
  entry.assured = entry.flags.includes('ASSURED');
  entry.unreplied = entry.flags.includes('UNREPLIED');
  if (!entry.reply) entry.partial = true;
  deriveNat(entry);
  return entry;
}

/** Words before the first `key=value`: `[NEW]`, `[1617711432.1]`, `ipv4 2`, `tcp 6`, timeout, state. */
function readPrelude(words: Word[], lineStart: Word, entry: ConntrackEntry, reporter: Reporter): void {
  const numbers: Word[] = [];
  let protocolWord: Word | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const tag = /^\[([A-Z_]+)\]$/.exec(w.text);
    if (tag && !protocolWord && entry.event === undefined) {
      entry.event = tag[1];
      entry.spans.event = wordSpan(w);
    } else if (/^\[\d+(?:\.\d+)?\]$/.test(w.text)) {
      entry.timestamp = w.text.slice(1, -1);
    } else if ((w.text === 'ipv4' || w.text === 'ipv6') && /^\d+$/.test(words[i + 1]?.text ?? '')) {
      entry.l3 = w.text;
      i++;
    } else if (/^\d+$/.test(w.text)) {
      numbers.push(w);
    } else if (/^[a-z][a-z0-9-]*$/.test(w.text) && !protocolWord) {
      protocolWord = w;
    } else if (/^[A-Z][A-Z_]*$/.test(w.text)) {
      entry.state = w.text;
      entry.spans.state = wordSpan(w);
    } else {
      entry.extra[w.text] = '';
      reporter.report('routes-conntrack-unknown-word', 'info', wordSpan(w), { word: w.text });
    }
  }
  // With a name: [number, timeout]. Without one (the line was cut at its start): [number, timeout] or [timeout].
  let timeoutWord: Word | undefined;
  if (protocolWord || numbers.length >= 2) {
    const numberWord = numbers[0];
    timeoutWord = numbers[1];
    if (numberWord) entry.protocolNumber = Number(numberWord.text);
  } else timeoutWord = numbers[0];
  if (protocolWord) {
    entry.protocol = protocolWord.text;
    entry.spans.protocol = wordSpan(protocolWord);
  } else {
    entry.partial = true;
    const inferred = entry.protocolNumber !== undefined ? PROTOCOL_NAMES[entry.protocolNumber] : undefined;
    if (inferred) entry.protocol = inferred;
    reporter.report('routes-conntrack-missing-protocol', 'info', wordSpan(words[0] ?? lineStart), {
      protocol: entry.protocol,
    });
  }
  const known = entry.protocol === 'unknown' ? undefined : ownEntry(PROTOCOL_NUMBERS, entry.protocol);
  if (entry.protocolNumber === undefined && known !== undefined) entry.protocolNumber = known;
  if (timeoutWord) {
    entry.timeout = Number(timeoutWord.text);
    entry.spans.timeout = wordSpan(timeoutWord);
  }
}

function isIcmp(protocol: string): boolean {
  return protocol === 'icmp' || protocol === 'icmpv6';
}

function newTuple(w: Word): ConntrackTuple {
  return { span: wordSpan(w), extra: {}, spans: {} };
}

function tupleHas(t: ConntrackTuple, key: string): boolean {
  switch (key) {
    case 'src':
      return t.src !== undefined;
    case 'dst':
      return t.dst !== undefined;
    case 'sport':
      return t.sport !== undefined;
    case 'dport':
      return t.dport !== undefined;
    case 'type':
      return t.icmpType !== undefined;
    case 'code':
      return t.icmpCode !== undefined;
    case 'id':
      return t.icmpId !== undefined;
    case 'packets':
      return t.packets !== undefined;
    case 'bytes':
      return t.bytes !== undefined;
    default:
      return key in t.extra;
  }
}

function setTupleField(t: ConntrackTuple, key: string, value: string, w: Word, valueColumn: number): void {
  const n = toInt(value);
  const valueSpan = innerSpan(w, valueColumn);
  if (key === 'src' || key === 'dst') {
    t[key] = value;
    t.spans[key] = valueSpan;
  } else if ((key === 'sport' || key === 'dport') && n !== undefined) {
    t[key] = n;
    t.spans[key] = valueSpan;
  } else if (key === 'type' && n !== undefined) t.icmpType = n;
  else if (key === 'code' && n !== undefined) t.icmpCode = n;
  else if (key === 'id' && n !== undefined) t.icmpId = n;
  else if (key === 'packets' && n !== undefined) t.packets = n;
  else if (key === 'bytes' && n !== undefined) t.bytes = n;
  else t.extra[key] = value;
}

function setEntryField(entry: ConntrackEntry, key: string, value: string): void {
  if (key === 'mark') entry.mark = value;
  else if (key === 'zone') entry.zone = value;
  else if (key === 'id') entry.id = value;
  else if (key === 'use' && toInt(value) !== undefined) entry.use = Number(value);
  else entry.extra[key] = value;
}

/**
 * NAT shows in the reply tuple: the reply's source is where the packets really went (DNAT when it differs from
 * the original destination), the reply's destination is who they came from as seen there (SNAT when it differs
 * from the original source).
 */
function deriveNat(entry: ConntrackEntry): void {
  const o = entry.original;
  const r = entry.reply;
  if (!r) return;
  const dnat = translation(o.dst, o.dport, r.src, r.sport);
  if (dnat) entry.dnat = dnat;
  const snat = translation(o.src, o.sport, r.dst, r.dport);
  if (snat) entry.snat = snat;
}

function translation(
  fromAddress?: string,
  fromPort?: number,
  toAddress?: string,
  toPort?: number,
): NatTranslation | undefined {
  if (fromAddress === undefined || toAddress === undefined) return undefined;
  const addressChanged = !sameAddress(fromAddress, toAddress);
  const portChanged = fromPort !== undefined && toPort !== undefined && fromPort !== toPort;
  if (!addressChanged && !portChanged) return undefined;
  const out: NatTranslation = { fromAddress, toAddress };
  if (fromPort !== undefined) out.fromPort = fromPort;
  if (toPort !== undefined) out.toPort = toPort;
  return out;
}

function sameAddress(a: string, b: string): boolean {
  const x = parseIp(a);
  const y = parseIp(b);
  return x && y ? x.family === y.family && x.value === y.value : a === b;
}
