/**
 * The word grammar shared by `ip route` lines, `nexthop` lines and `ip route get` answers:
 * `[TYPE] [DESTINATION] (KEY VALUE | FLAG)* [nexthop ...]* [cache ...]`.
 */
import type { Span } from '../common/diagnostics';
import { parseCidr } from '../common/ip';
import type { Reporter } from './report';
import type { Nexthop, RouteType } from './types';
import { wordSpan, wordsSpan, type Word } from './words';

export const ROUTE_TYPES: ReadonlySet<string> = new Set<RouteType>([
  'unicast',
  'local',
  'broadcast',
  'multicast',
  'anycast',
  'blackhole',
  'unreachable',
  'prohibit',
  'throw',
  'nat',
]);

/** Keys followed by one value. */
const VALUE_KEYS = new Set([
  'via',
  'dev',
  'oif',
  'iif',
  'proto',
  'scope',
  'src',
  'from',
  'metric',
  'preference',
  'priority',
  'table',
  'tos',
  'dsfield',
  'realm',
  'realms',
  'mtu',
  'advmss',
  'rtt',
  'rttvar',
  'reordering',
  'window',
  'cwnd',
  'initcwnd',
  'initrwnd',
  'ssthresh',
  'hoplimit',
  'features',
  'quickack',
  'congctl',
  'fastopen_no_cookie',
  'rto_min',
  'expires',
  'pref',
  'error',
  'nhid',
  'weight',
  'uid',
  'mark',
  'ipid',
  'used',
  'age',
  'users',
  'ttl-propagate',
  'vrf',
  'as',
]);

/** Metrics that may carry `lock` before their value (`mtu lock 1400`). */
const LOCKABLE = new Set([
  'mtu',
  'advmss',
  'rtt',
  'rttvar',
  'reordering',
  'window',
  'cwnd',
  'initcwnd',
  'initrwnd',
  'ssthresh',
  'hoplimit',
  'congctl',
  'rto_min',
]);

/** Words iproute2 prints alone. */
const FLAG_WORDS = new Set([
  'onlink',
  'pervasive',
  'linkdown',
  'dead',
  'offload',
  'trap',
  'notify',
  'rt_offload',
  'rt_trap',
  'rt_offload_failed',
  'offload_failed',
  'unresolved',
]);

export interface Field {
  value: string;
  span: Span;
}

export interface CacheWords {
  word: Word;
  flags: string[];
  attributes: Record<string, string>;
  last: Word;
}

export interface RouteWords {
  type?: Field;
  destination?: Field;
  /** Key/value fields of the route itself (the last one wins if repeated). */
  fields: Record<string, Field>;
  flags: string[];
  nexthops: Nexthop[];
  cache?: CacheWords;
  unknown: Word[];
  first: Word;
  last: Word;
}

export function isRouteKeyword(word: string): boolean {
  return VALUE_KEYS.has(word) || FLAG_WORDS.has(word) || word === 'nexthop' || word === 'cache' || word === 'encap';
}

export function isDestinationWord(word: string): boolean {
  return word === 'default' || parseCidr(word) !== undefined;
}

/**
 * True when the words read like an `ip route` line: a route type, or a destination followed by at least one
 * route keyword. (A `route -n` row or an ipset member also starts with an address, but not with a keyword after it.)
 */
export function looksLikeRouteWords(words: Word[]): boolean {
  if (words.length === 0) return false;
  if (ROUTE_TYPES.has(words[0].text))
    return words.length === 1 || isDestinationWord(words[1].text) || isRouteKeyword(words[1].text);
  if (words[0].text === 'nexthop') return true;
  return isDestinationWord(words[0].text) && words.length > 1 && isRouteKeyword(words[1].text);
}

/** Reads the words of one route (or route-get answer, or nexthop line). Never throws. */
export function readRouteWords(words: Word[], reporter: Reporter): RouteWords {
  const out: RouteWords = {
    fields: {},
    flags: [],
    nexthops: [],
    unknown: [],
    first: words[0],
    last: words[words.length - 1],
  };
  let i = 0;
  if (i < words.length && ROUTE_TYPES.has(words[i].text)) {
    out.type = { value: words[i].text, span: wordSpan(words[i]) };
    i++;
  }
  if (i < words.length && !isRouteKeyword(words[i].text)) {
    out.destination = { value: words[i].text, span: wordSpan(words[i]) };
    i++;
  }
  let hop: Nexthop | undefined;
  let hopFirst: Word | undefined;
  const closeHop = (end: Word) => {
    if (hop && hopFirst) {
      hop.span = wordsSpan(hopFirst, end);
      out.nexthops.push(hop);
    }
    hop = undefined;
  };
  while (i < words.length) {
    const w = words[i];
    if (out.cache) {
      i = readCacheWord(words, i, out.cache);
      continue;
    }
    if (w.text === 'nexthop') {
      closeHop(words[i - 1] ?? w);
      hopFirst = w;
      hop = { line: w.line, span: wordSpan(w), flags: [], attributes: {}, spans: {} };
      i++;
      continue;
    }
    if (w.text === 'cache') {
      closeHop(words[i - 1] ?? w);
      out.cache = { word: w, flags: [], attributes: {}, last: w };
      i++;
      continue;
    }
    if (FLAG_WORDS.has(w.text)) {
      (hop ? hop.flags : out.flags).push(w.text);
      i++;
      continue;
    }
    if (w.text === 'encap') {
      // `encap mpls 100/200`, `encap ip id 5 dst 10.0.0.1 ttl 64`: everything up to the next route key.
      let j = i + 1;
      while (j < words.length && !endsEncap(words[j].text)) j++;
      const value = words
        .slice(i + 1, j)
        .map((x) => x.text)
        .join(' ');
      setField(out, hop, 'encap', { value, span: wordsSpan(w, words[Math.max(i, j - 1)]) });
      i = j;
      continue;
    }
    if (VALUE_KEYS.has(w.text)) {
      let j = i + 1;
      if (w.text === 'via' && (words[j]?.text === 'inet' || words[j]?.text === 'inet6')) {
        // iproute2 names the gateway's family only when it differs from the route's (`via inet6 fe80::1`).
        setField(out, hop, 'via-family', { value: words[j].text, span: wordSpan(words[j]) });
        j++;
      }
      if (LOCKABLE.has(w.text) && words[j]?.text === 'lock') j++;
      if (w.text === 'as' && words[j]?.text === 'to') j++;
      const value = words[j];
      if (!value) {
        reporter.report('routes-route-missing-value', 'warning', wordSpan(w), { key: w.text });
        i = j;
        continue;
      }
      setField(out, hop, w.text, { value: value.text, span: wordSpan(value) });
      i = j + 1;
      continue;
    }
    out.unknown.push(w);
    reporter.report('routes-route-unknown-word', 'info', wordSpan(w), { word: w.text });
    i++;
  }
  closeHop(words[words.length - 1]);
  return out;
}

/** Words that an encapsulation can carry itself, so they do not end it. */
const ENCAP_WORDS = new Set(['src', 'tos', 'dst', 'id', 'ttl', 'key', 'csum', 'seq']);

function endsEncap(word: string): boolean {
  return (
    (VALUE_KEYS.has(word) && !ENCAP_WORDS.has(word)) || FLAG_WORDS.has(word) || word === 'nexthop' || word === 'cache'
  );
}

function setField(out: RouteWords, hop: Nexthop | undefined, key: string, field: Field): void {
  if (!hop) {
    out.fields[key] = field;
    return;
  }
  if (key === 'via') {
    hop.gateway = field.value;
    hop.spans.gateway = field.span;
  } else if (key === 'dev') {
    hop.dev = field.value;
    hop.spans.dev = field.span;
  } else if (key === 'weight' && /^\d+$/.test(field.value)) {
    hop.weight = Number(field.value);
    hop.spans.weight = field.span;
  } else hop.attributes[key] = field.value;
}

/** `cache <local,brd> expires 290sec mtu 1400 ipid 0x12`: `<...>` words are flags, the rest key/value pairs. */
function readCacheWord(words: Word[], i: number, cache: CacheWords): number {
  const w = words[i];
  cache.last = w;
  if (w.text.startsWith('<')) {
    cache.flags.push(
      ...w.text
        .replace(/^<|>$/g, '')
        .split(',')
        .filter((f) => f !== ''),
    );
    return i + 1;
  }
  const value = words[i + 1];
  if (value && !value.text.startsWith('<')) {
    cache.attributes[w.text] = value.text;
    cache.last = value;
    return i + 2;
  }
  cache.attributes[w.text] = '';
  return i + 1;
}
