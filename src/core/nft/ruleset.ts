/**
 * `nft list ruleset` on an nf_tables host whose rules iptables-nft wrote (kube-proxy in iptables mode, most CNIs):
 * `table ip nat { chain KUBE-SERVICES { ip daddr 10.96.0.1 tcp dport 443 counter ... jump KUBE-SVC-... } }`.
 * Each rule's expressions are read back into the iptables matches and target they were translated from, so the
 * kube view, the tracer, lint and hovers read the ruleset as they read iptables-save. Sets, maps and other
 * objects are skipped; an expression that maps to nothing stays visible as an `unparsed` match, which the tracer
 * treats as uncertain.
 */
import type { Diagnostic, Span } from '../common/diagnostics';
import type { SourceLine } from '../common/lines';
import { ownEntry } from '../common/own';
import { readNftObject, type NftObject } from './objects';
import { problem } from '../iptables/problems';
import type { Counters, Match, OptionArg, Rule, Target, Token } from '../iptables/dump';
import { splitWords, type Word } from '../iptables/words';

const TABLE_START = /^table\s+(ip|ip6|inet|arp|bridge|netdev)\s+("[^"]*"|\S+)\s*\{/;
const CHAIN_START = /^chain\s+("[^"]*"|\S+)\s*\{/;
/** Objects of a table that hold no rules: skipped to their closing brace. */
const OBJECT_START =
  /^(?:set|map|flowtable|counter|quota|limit|ct\s+(?:helper|timeout|expectation)|secmark|synproxy)\s+("[^"]*"|\S+)\s*\{/;
/** iptables-save's own lines: `*nat`, `:CHAIN POLICY [p:b]`, `-A CHAIN ...`, `COMMIT`. */
const IPTABLES_LINE = /^(?:\*[a-z]+$|:\S+\s+(?:ACCEPT|DROP|-)\b|-[AINPX]\s|COMMIT$)/;
const BASE_CHAIN = /^type\s+(\w+)\s+hook\s+(\w+)(?:\s+device\s+\S+)?\s+priority\s+([^;]+);(?:\s*policy\s+(\w+)\s*;)?/;
/** Hooks the tracer walks: a base chain on one of them is traced by its priority among iptables' tables. */
const TRACED_HOOKS = new Set(['prerouting', 'input', 'forward', 'output', 'postrouting']);
/** nft's named priorities (`dstnat`, `srcnat - 10`, ...) in numbers; srcnat is 100 on postrouting and input. */
const NAMED_PRIORITIES: Record<string, number> = {
  raw: -300,
  mangle: -150,
  dstnat: -100,
  filter: 0,
  security: 50,
  srcnat: 100,
};

/** A priority as nft prints it (`-110`, `dstnat`, `dstnat - 10`, `filter + 5`); undefined when unreadable. */
export function nftPriority(text: string): number | undefined {
  const m = /^\s*(-?\d+|[a-z]+)\s*(?:([+-])\s*(\d+))?\s*$/.exec(text);
  if (!m) return undefined;
  const base = /^-?\d+$/.test(m[1]) ? Number(m[1]) : ownEntry(NAMED_PRIORITIES, m[1]);
  if (base === undefined) return undefined;
  return m[2] === '-' ? base - Number(m[3]) : m[2] === '+' ? base + Number(m[3]) : base;
}
const FAMILIES_READ = new Set(['ip', 'ip6', 'inet']);
const IPTABLES_TABLES = new Set(['raw', 'mangle', 'nat', 'filter', 'security']);

export function isNftTableStart(content: string): boolean {
  return TABLE_START.test(content);
}

/**
 * The family whose tables a ruleset is read for (a dump holds one family; iptables-nft writes `ip` and `ip6` tables
 * of the same names): `preferred` (a traced packet's) when the text has a table of it, otherwise the family whose
 * tables hold more rules (kube-proxy's Services are in one, the other holds its empty chains), the first on a tie:
 * `nft list ruleset` lists tables in the order they were made, so ip6's may well come first. Undefined when only
 * `inet` tables (which see both) are there. Lines from `start`, a table's first line.
 */
export function nftFamilyToRead(
  lines: readonly SourceLine[],
  start: number,
  preferred?: 'ip' | 'ip6',
): string | undefined {
  /** Rule lines of each family's tables; undefined while the text has none. */
  const rules: { ip?: number; ip6?: number } = {};
  let first: 'ip' | 'ip6' | undefined;
  let family: 'ip' | 'ip6' | undefined;
  for (let i = start; i < lines.length; i++) {
    const content = lines[i].content;
    const c = content.charCodeAt(0);
    if (c === 116 /* t */) {
      const m = TABLE_START.exec(content);
      if (m) {
        family = m[1] === 'ip' || m[1] === 'ip6' ? m[1] : undefined;
        if (family) rules[family] ??= 0;
        first ??= family;
        continue;
      }
      if (content.startsWith('type ')) continue;
    }
    // Not a rule: a blank line, a brace, a chain's head.
    if (family === undefined || content.length === 0 || c === 125 /* } */ || content.startsWith('chain ')) continue;
    rules[family]!++;
  }
  if (preferred && rules[preferred] !== undefined) return preferred;
  if (!first) return undefined;
  const other = first === 'ip' ? 'ip6' : 'ip';
  return (rules[other] ?? 0) > rules[first]! ? other : first;
}

export interface NftChain {
  name: string;
  policy?: string;
  declSpan: Span;
  /** A base chain's type, hook and priority (`type nat hook prerouting priority dstnat;`). */
  base?: { type: string; hook: string; priority: number };
}

export interface NftTable {
  /** `ip`, `ip6`, `inet`, ... */
  family: string;
  name: string;
  span: Span;
  chains: NftChain[];
  rules: Rule[];
  /** Its sets and maps with their elements (kube-proxy's nftables mode keeps its Services in maps). */
  objects: NftObject[];
}

export interface NftBlock {
  /** Undefined for a table of a family whose rules are not iptables' (arp, bridge, netdev). */
  table?: NftTable;
  tokens: Token[];
  diagnostics: Diagnostic[];
  nextLine: number;
}

const unquote = (name: string) => (name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1) : name);

/** Reads the table starting at line `start` (a `table FAMILY NAME {` line) to its closing brace. */
export function parseNftTable(lines: SourceLine[], start: number): NftBlock {
  const head = lines[start];
  const m = TABLE_START.exec(head.content)!;
  const name = unquote(m[2]);
  const tokens: Token[] = [];
  const diagnostics: Diagnostic[] = [];
  const nameAt = head.offset + head.content.indexOf(m[2], 6 + m[1].length);
  const span: Span = { line: head.line, column: nameAt, length: m[2].length };
  tokens.push({ kind: 'table', text: name, span });
  const table: NftTable = { family: m[1], name, span, chains: [], rules: [], objects: [] };
  let chain: NftChain | undefined;
  let skipDepth = 0;
  /** First line of the set or map being skipped over: its elements are read when its brace closes. */
  let objectStart = -1;
  const endObject = (last: number) => {
    const object = readNftObject(lines, objectStart, last, name);
    if (object) table.objects.push(object);
    objectStart = -1;
  };
  let i = start + 1;
  for (; i < lines.length; i++) {
    const sl = lines[i];
    const c = withoutHandle(sl.content);
    if (c === '' || c.startsWith('#')) continue;
    // A table left open by the paste ends where another table or an iptables-save dump begins.
    if (TABLE_START.test(c) || IPTABLES_LINE.test(c)) break;
    if (skipDepth > 0) {
      skipDepth += braceBalance(c);
      if (skipDepth <= 0 && objectStart >= 0) endObject(i);
      continue;
    }
    if (c === '}') {
      if (!chain) break;
      chain = undefined;
      continue;
    }
    const cm = CHAIN_START.exec(c);
    if (cm && !chain) {
      const chainName = unquote(cm[1]);
      const declSpan: Span = { line: sl.line, column: sl.offset + c.indexOf(cm[1], 5), length: cm[1].length };
      chain = { name: chainName, declSpan };
      table.chains.push(chain);
      tokens.push({ kind: 'chainDecl', text: chainName, span: declSpan });
      // `chain X { type ... }` on one line, or `chain X { }`
      if (/\}\s*$/.test(c)) chain = undefined;
      continue;
    }
    if (!chain && OBJECT_START.test(c)) {
      skipDepth = braceBalance(c);
      objectStart = i;
      if (skipDepth <= 0) endObject(i);
      continue;
    }
    if (!chain) {
      // `flags dormant`, `comment "..."` of the table
      continue;
    }
    const base = BASE_CHAIN.exec(c);
    if (base) {
      // The tracer walks iptables' tables by their builtin chains; a base chain of another name (kube-proxy's nft
      // mode: `nat-prerouting`) hooks in where the tracer does not look.
      const builtin = IPTABLES_TABLES.has(table.name) && chain.name === base[2].toUpperCase();
      const priority = nftPriority(base[3]);
      // Other base chains (kube-proxy's nftables mode: `nat-prerouting`) are walked at their hook by priority.
      if (!builtin && TRACED_HOOKS.has(base[2]) && priority !== undefined)
        chain.base = { type: base[1], hook: base[2], priority };
      else if (!builtin && FAMILIES_READ.has(table.family))
        diagnostics.push(
          problem('nft-base-chain-not-traced', 'warning', chain.declSpan, {
            chain: chain.name,
            table: table.name,
            hook: base[2],
          }),
        );
      if (base[4]) {
        chain.policy = base[4].toUpperCase();
        const at = c.lastIndexOf(base[4]);
        tokens.push({
          kind: 'policy',
          text: chain.policy,
          span: { line: sl.line, column: sl.offset + at, length: base[4].length },
        });
      }
      continue;
    }
    if (/^(?:comment|policy|devices?)\s/.test(c)) continue;
    if (!FAMILIES_READ.has(table.family)) continue;
    const rule = readRule(sl, c, table, chain, diagnostics);
    table.rules.push(rule);
  }
  const closed = i < lines.length && withoutHandle(lines[i].content) === '}';
  if (!closed) diagnostics.push(problem('nft-table-unclosed', 'warning', span, { table: name }));
  return {
    ...(FAMILIES_READ.has(table.family) ? { table } : {}),
    tokens,
    diagnostics,
    nextLine: closed ? i + 1 : Math.max(i, start + 1),
  };
}

/** `nft -a` ends lines with `# handle 12`: not part of the rule. */
function withoutHandle(content: string): string {
  const at = content.search(/\s*# handle \d+$/);
  return at < 0 ? content : content.slice(0, at);
}

function braceBalance(text: string): number {
  let n = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '{') n++;
    else if (!quoted && ch === '}') n--;
  }
  return n;
}

const NUMBER = /^(?:0x[0-9a-f]+|\d+)$/i;
/** `mark <op> value` in a `meta mark set` statement and the MARK option it stands for. */
const MARK_OPERATORS: Record<string, string> = {
  or: 'or-mark',
  '|': 'or-mark',
  xor: 'xor-mark',
  '^': 'xor-mark',
  and: 'and-mark',
  '&': 'and-mark',
};
const VERDICTS: Record<string, string> = { accept: 'ACCEPT', drop: 'DROP', return: 'RETURN', queue: 'QUEUE' };
/** Selectors a verdict map's key concatenates (`ip daddr . meta l4proto . th dport`). */
const VMAP_SELECTOR =
  /^(?:(?:ip|ip6) (?:saddr|daddr)|meta (?:l4proto|mark|iifname|oifname)|ip protocol|(?:th|tcp|udp|sctp) (?:sport|dport))$/;
const PORT_PROTOCOLS = new Set(['tcp', 'udp', 'sctp', 'udplite', 'dccp']);
/** `!` is nft's "none of these bits" of a flags type: `ct state ! new,related` (iptables-translate since 1.8.9). */
const COMPARISONS = new Set(['==', 'eq', '!=', 'ne', '!']);
/** `log` statement keys and the LOG and NFLOG options they stand for. */
const LOG_KEYS: Record<string, [string, string]> = {
  prefix: ['log-prefix', 'nflog-prefix'],
  level: ['log-level', 'log-level'],
  group: ['nflog-group', 'nflog-group'],
  snaplen: ['nflog-size', 'nflog-size'],
  'queue-threshold': ['nflog-threshold', 'nflog-threshold'],
};
/** `log flags ...` and LOG's options. */
const LOG_FLAGS: Record<string, string[]> = {
  all: ['log-tcp-sequence', 'log-tcp-options', 'log-ip-options', 'log-uid', 'log-macdecode'],
  'tcp sequence': ['log-tcp-sequence'],
  'tcp options': ['log-tcp-options'],
  'ip options': ['log-ip-options'],
  skuid: ['log-uid'],
  ether: ['log-macdecode'],
};
/** nft's reject codes and iptables' `--reject-with` names. */
const REJECT_WITH: Record<string, string> = {
  'port-unreachable': 'icmp-port-unreachable',
  'host-unreachable': 'icmp-host-unreachable',
  'net-unreachable': 'icmp-net-unreachable',
  'prot-unreachable': 'icmp-proto-unreachable',
  'net-prohibited': 'icmp-net-prohibited',
  'host-prohibited': 'icmp-host-prohibited',
  'admin-prohibited': 'icmp-admin-prohibited',
  reset: 'tcp-reset',
};
/** `reject with icmpv6 ...` codes and ip6tables' names. */
const REJECT_WITH_V6: Record<string, string> = {
  'no-route': 'icmp6-no-route',
  'admin-prohibited': 'icmp6-adm-prohibited',
  'addr-unreachable': 'icmp6-addr-unreachable',
  'port-unreachable': 'icmp6-port-unreachable',
  'policy-fail': 'icmp6-policy-fail',
  'reject-route': 'icmp6-reject-route',
};

/**
 * The table's first dynamic set of this name, from the objects read so far. An index kept beside the table, grown
 * as objects are pushed: a lookup per rule that scanned every object was quadratic in kube-proxy's affinity sets.
 */
function dynamicSetNamed(table: NftTable, name: string): NftObject | undefined {
  let index = dynamicSets.get(table);
  if (!index) dynamicSets.set(table, (index = { read: 0, byName: new Map() }));
  for (; index.read < table.objects.length; index.read++) {
    const o = table.objects[index.read];
    if (o.kind === 'set' && o.flags.includes('dynamic') && !index.byName.has(o.name)) index.byName.set(o.name, o);
  }
  return index.byName.get(name);
}

const dynamicSets = new WeakMap<NftTable, { read: number; byName: Map<string, NftObject> }>();

/** Reads one rule line of a chain: selectors become matches, the statement and verdict the target. */
function readRule(sl: SourceLine, content: string, table: NftTable, chain: NftChain, diagnostics: Diagnostic[]): Rule {
  const words = splitWords(content, sl.offset).words;
  const line = sl.line;
  const sp = (w: Word): Span => ({ line, column: w.column, length: w.raw.length });
  const matches: Match[] = [];
  let target: Target | undefined;
  let counters: Counters | undefined;
  let comment: string | undefined;
  let protocol: string | undefined;
  const ruleTokens: Token[] = [];
  const token = (kind: Token['kind'], w: Word) => ruleTokens.push({ kind, text: w.raw, span: sp(w) });
  const add = (module: string, o: OptionArg, moduleWord?: Word) => {
    let m = matches.find((x) => x.module === module);
    if (!m)
      matches.push(
        (m = { module, options: [], ...(moduleWord && module !== '' ? { moduleSpan: sp(moduleWord) } : {}) }),
      );
    m.options.push(o);
  };
  const opt = (
    name: string,
    key: Word,
    values: Word[],
    negated: boolean,
    shown = values.map((v) => v.value),
  ): OptionArg => ({
    name,
    written: key.raw,
    values: shown,
    negated,
    span: sp(key),
    valueSpans: values.map(sp),
  });
  const setTarget = (name: string, w: Word, kind: 'jump' | 'goto' = 'jump'): Target => {
    target = { name, kind, span: sp(w), options: [] };
    return target;
  };

  let i = 0;
  /** The comparison after a selector (`!=` negates) and the value words after it; a `{ a, b }` set gives several. */
  const readValue = (at: number): { negated: boolean; values: Word[]; next: number } | undefined => {
    let k = at;
    let negated = false;
    if (words[k] && COMPARISONS.has(words[k].raw)) {
      negated = words[k].raw !== '==' && words[k].raw !== 'eq';
      token('negation', words[k]);
      k++;
    }
    const w = words[k];
    // `ip daddr . meta l4proto . th dport vmap @map` concatenates selectors: no iptables match is one.
    if (!w || w.raw === '.' || words[k + 1]?.raw === '.') return undefined;
    if (w.raw !== '{') {
      token('value', w);
      return { negated, values: [w], next: k + 1 };
    }
    const values: Word[] = [];
    token('value', w);
    k++;
    for (; k < words.length && words[k].raw !== '}'; k++) {
      token('value', words[k]);
      const raw = words[k].raw.replace(/,$/, '');
      if (raw !== '' && raw !== ',') values.push({ ...words[k], raw, value: raw });
    }
    if (words[k]) token('value', words[k]);
    return { negated, values, next: k + 1 };
  };

  /**
   * `& (new|related) == 0` after a flags selector (iptables-translate before 1.8.9): none of the bits, which is
   * iptables' negation; `!= 0` is any of them. The flags may be spaced (`(new | related)`).
   */
  const readBitTest = (at: number): { negated: boolean; values: Word[]; next: number } | undefined => {
    let k = at;
    while (k < words.length && !COMPARISONS.has(words[k].raw)) k++;
    const op = words[k]?.raw;
    if (k === at || !op || !/^(?:0x)?0+$/.test(words[k + 1]?.raw ?? '')) return undefined;
    const values: Word[] = [];
    for (let j = at; j < k; j++) {
      token('value', words[j]);
      for (const m of words[j].raw.matchAll(/[^(|,)]+/g))
        values.push({ ...words[j], raw: m[0], value: m[0], column: words[j].column + m.index });
    }
    token('negation', words[k]);
    token('value', words[k + 1]);
    return { negated: op === '==' || op === 'eq', values, next: k + 2 };
  };

  /** A nat statement's flags, printed after its address and joined by commas: `snat to 1.2.3.4 random,persistent`. */
  const readNatFlags = (t: Target, at: number): number => {
    let k = at;
    for (
      ;
      words[k] && /^(?:random|fully-random|persistent)(?:,(?:random|fully-random|persistent))*$/.test(words[k].raw);
      k++
    ) {
      token('option', words[k]);
      for (const flag of words[k].raw.split(','))
        t.options.push(opt(flag === 'fully-random' ? 'random-fully' : flag, words[k], [], false));
    }
    return k;
  };

  /**
   * A verdict map ends the rule: `SELECTOR [. SELECTOR ...] vmap @name` or `... vmap { k : verdict, ... }`, and
   * `numgen random mod N vmap { 0 : goto A, ... }`. It becomes a VMAP / NUMGEN target the tracer looks up.
   */
  const readVerdictMap = (at: number): boolean => {
    let k = at;
    const selectors: Word[][] = [];
    let numgen: { mode: Word; mod: Word } | undefined;
    if (words[k]?.raw === 'numgen' && words[k + 2]?.raw === 'mod' && /^\d+$/.test(words[k + 3]?.raw ?? '')) {
      numgen = { mode: words[k + 1], mod: words[k + 3] };
      k += 4;
    } else {
      for (;;) {
        const pair = `${words[k]?.raw} ${words[k + 1]?.raw}`;
        if (!VMAP_SELECTOR.test(pair)) return false;
        selectors.push([words[k], words[k + 1]]);
        k += 2;
        if (words[k]?.raw !== '.') break;
        k++;
      }
    }
    const map = words[k + 1];
    if (words[k]?.raw !== 'vmap' || !map) return false;
    const mapText = content.slice(map.column - sl.offset);
    const t = setTarget(numgen ? 'NUMGEN' : 'VMAP', words[k]);
    token('target', words[k]);
    if (numgen) {
      for (const x of [words[at], numgen.mode, words[at + 2]]) token('option', x);
      token('value', numgen.mod);
      t.options.push(opt('mode', words[at], [numgen.mode], false), opt('mod', words[at + 2], [numgen.mod], false));
    } else {
      for (const pair of selectors) for (const x of pair) token('option', x);
      t.options.push(
        opt(
          'selector',
          selectors[0][0],
          selectors.map((p) => p[1]),
          false,
          selectors.map((p) => `${p[0].raw} ${p[1].raw}`),
        ),
      );
    }
    for (let j = k + 1; j < words.length; j++) token('value', words[j]);
    t.options.push(
      map.raw.startsWith('@')
        ? opt('map', map, [map], false, [map.raw.slice(1)])
        : opt('elements', map, [map], false, [mapText]),
    );
    i = words.length;
    return true;
  };

  while (i < words.length) {
    const w = words[i];
    const v = w.raw;
    const next = words[i + 1]?.raw;
    if ((v === 'numgen' || words[i + 2]?.raw === '.' || words[i + 2]?.raw === 'vmap') && readVerdictMap(i)) break;
    // `update @set { ip saddr }` adds the source to a set (kube-proxy's affinity): iptables' `-m recent --set`.
    if (
      v === 'update' &&
      next?.startsWith('@') &&
      words[i + 2]?.raw === '{' &&
      /^ip6? saddr \}$/.test(
        words
          .slice(i + 3, i + 6)
          .map((x) => x.raw)
          .join(' '),
      )
    ) {
      for (let j = i; j < i + 6; j++) token(j === i ? 'module' : j === i + 1 ? 'value' : 'option', words[j]);
      add('recent', opt('set', w, [], false), w);
      add('recent', opt('name', w, [words[i + 1]], false, [next.slice(1)]), w);
      i += 6;
      continue;
    }
    // Selectors that iptables-nft translates from generic options and matches.
    if ((v === 'ip' || v === 'ip6') && (next === 'saddr' || next === 'daddr')) {
      const val = readValue(i + 2);
      if (!val || val.values.length !== 1) break;
      token('option', words[i]);
      token('option', words[i + 1]);
      const value = val.values[0].value;
      // A set the ruleset fills itself with sources (`update @affinity-... { ip saddr }`, kube-proxy's session
      // affinity) is what iptables' `-m recent --rcheck --name` is: whether this client came recently.
      const recent =
        value.startsWith('@') && next === 'saddr' && !val.negated ? dynamicSetNamed(table, value.slice(1)) : undefined;
      if (recent) {
        add('recent', opt('rcheck', words[i + 1], [], false), words[i]);
        add('recent', opt('name', words[i + 1], val.values, false, [recent.name]), words[i]);
        if (recent.timeoutSeconds !== undefined)
          add('recent', opt('seconds', words[i + 1], [], false, [String(recent.timeoutSeconds)]), words[i]);
      } else if (value.startsWith('@'))
        add(
          'set',
          opt('match-set', words[i + 1], val.values, val.negated, [value.slice(1), next === 'saddr' ? 'src' : 'dst']),
          words[i],
        );
      else add('', opt(next === 'saddr' ? 'source' : 'destination', words[i + 1], val.values, val.negated));
      i = val.next;
      continue;
    }
    if (
      (v === 'ip' && next === 'protocol') ||
      (v === 'meta' && next === 'l4proto') ||
      (v === 'ip6' && next === 'nexthdr')
    ) {
      const val = readValue(i + 2);
      if (!val || val.values.length !== 1) break;
      token('option', words[i]);
      token('option', words[i + 1]);
      protocol = val.values[0].value;
      add('', opt('protocol', words[i + 1], val.values, val.negated));
      i = val.next;
      continue;
    }
    if ((PORT_PROTOCOLS.has(v) || v === 'th') && (next === 'dport' || next === 'sport')) {
      const module = v === 'th' ? protocol : v;
      const val = readValue(i + 2);
      if (!val || !module || !PORT_PROTOCOLS.has(module)) break;
      token('module', words[i]);
      token('option', words[i + 1]);
      // A port match names its protocol (`tcp dport 80`): nft leaves out `meta l4proto tcp`, iptables says `-p tcp`.
      if (!protocol) add('', opt('protocol', words[i], [words[i]], false));
      // nft writes port ranges `a-b` where iptables writes `a:b`.
      const ports = val.values.map((p) => p.value.replace('-', ':'));
      if (val.values.length === 1) add(module, opt(next, words[i + 1], val.values, val.negated, ports), words[i]);
      else
        add(
          'multiport',
          opt(next === 'dport' ? 'dports' : 'sports', words[i + 1], val.values, val.negated, [ports.join(',')]),
        );
      protocol ??= module;
      i = val.next;
      continue;
    }
    if (v === 'iifname' || v === 'oifname' || v === 'iif' || v === 'oif') {
      const val = readValue(i + 1);
      if (!val || val.values.length !== 1) break;
      token('option', w);
      // nft's `"cali*"` is iptables' `cali+`.
      const name = val.values[0].value.replace(/\*$/, '+');
      add('', opt(v.startsWith('i') ? 'in-interface' : 'out-interface', w, val.values, val.negated, [name]));
      i = val.next;
      continue;
    }
    if (v === 'ct' && (next === 'state' || next === 'status')) {
      const val = words[i + 2]?.raw === '&' ? readBitTest(i + 3) : readValue(i + 2);
      if (!val || val.values.length === 0) break;
      token('module', w);
      token('option', words[i + 1]);
      if (words[i + 2]?.raw === '&') token('value', words[i + 2]);
      // nft's `seen-reply` is iptables' SEEN_REPLY.
      const states = val.values.map((s) => s.value.replace(/,$/, '').toUpperCase().replace(/-/g, '_')).join(',');
      add(
        'conntrack',
        opt(next === 'state' ? 'ctstate' : 'ctstatus', words[i + 1], val.values, val.negated, [states]),
        w,
      );
      i = val.next;
      continue;
    }
    // `meta random & 2147483647 < 1073741824`: xt_statistic's random mode (the kernel compares 31 random bits).
    if (
      v === 'meta' &&
      next === 'random' &&
      words[i + 2]?.raw === '&' &&
      words[i + 3]?.raw === '2147483647' &&
      words[i + 4]?.raw === '<' &&
      words[i + 5]
    ) {
      const bound = Number(words[i + 5].raw);
      if (!Number.isFinite(bound)) break;
      for (let j = i; j < i + 5; j++) token(j === i + 1 ? 'option' : 'value', words[j]);
      token('value', words[i + 5]);
      add('statistic', opt('mode', words[i + 1], [], false, ['random']), words[i + 1]);
      add(
        'statistic',
        opt('probability', words[i + 5], [words[i + 5]], false, [String(Number((bound / 2147483648).toFixed(10)))]),
      );
      i += 6;
      continue;
    }
    // `meta mark & 0x00004000 == 0x00004000` (nft), `mark and 0x4000 != 0x4000` (iptables-translate); `meta mark 0x1` compares the whole mark.
    const markAt = v === 'meta' && next === 'mark' ? i + 1 : v === 'mark' ? i : -1;
    if (markAt >= 0 && words[markAt + 1]?.raw !== 'set') {
      let k = markAt + 1;
      let mask: string | undefined;
      if ((words[k]?.raw === '&' || words[k]?.raw === 'and') && words[k + 1]) {
        mask = words[k + 1].raw;
        k += 2;
      }
      const val = readValue(k);
      if (!val || val.values.length !== 1) break;
      for (let j = i; j < k; j++) token(j === markAt ? 'option' : 'value', words[j]);
      const value = val.values[0].value;
      add(
        'mark',
        opt('mark', words[markAt], val.values, val.negated, [mask ? `${value}/${mask}` : value]),
        words[markAt],
      );
      i = val.next;
      continue;
    }
    if (v === 'fib' && (next === 'saddr' || next === 'daddr') && words[i + 2]?.raw === 'type') {
      const val = readValue(i + 3);
      if (!val || val.values.length === 0) break;
      token('module', w);
      token('option', words[i + 1]);
      token('option', words[i + 2]);
      // `fib daddr type != { local, anycast }` is `! --dst-type LOCAL,ANYCAST`.
      const types = val.values.map((t) => t.value.toUpperCase()).join(',');
      add(
        'addrtype',
        opt(next === 'saddr' ? 'src-type' : 'dst-type', words[i + 1], val.values, val.negated, [types]),
        w,
      );
      i = val.next;
      continue;
    }
    if (v === 'counter') {
      // `counter packets 12 bytes 720`
      token('option', w);
      if (words[i + 1]?.raw === 'packets' && words[i + 3]?.raw === 'bytes' && words[i + 4]) {
        const p = words[i + 2];
        const b = words[i + 4];
        counters = {
          packets: Number(p.raw),
          bytes: Number(b.raw),
          span: { line, column: w.column, length: b.column + b.raw.length - w.column },
        };
        for (let j = i + 1; j <= i + 4; j++) token(j === i + 2 || j === i + 4 ? 'counter' : 'value', words[j]);
        i += 5;
      } else i++;
      continue;
    }
    if (v === 'comment' && words[i + 1]) {
      const text = words[i + 1];
      token('option', w);
      token('commentText', text);
      comment = text.value;
      add('comment', opt('comment', w, [text], false), w);
      i += 2;
      continue;
    }
    if (v === 'xt' && (next === 'match' || next === 'target') && words[i + 2]) {
      // The translation failed: nft prints the xtables extension by name only, without its options.
      const name = words[i + 2].value;
      token('option', w);
      token('option', words[i + 1]);
      if (next === 'target') {
        token('target', words[i + 2]);
        setTarget(name, words[i + 2]);
      } else {
        token('module', words[i + 2]);
        matches.push({ module: name, moduleSpan: sp(words[i + 2]), options: [] });
      }
      diagnostics.push(problem('nft-xt-extension', 'info', sp(words[i + 2]), { name, kind: next }));
      i += 3;
      continue;
    }
    // Statements and verdicts: the target.
    const verdict = ownEntry(VERDICTS, v);
    if (verdict) {
      token('target', w);
      setTarget(verdict, w);
      i++;
      continue;
    }
    if ((v === 'jump' || v === 'goto') && words[i + 1]) {
      token('option', w);
      token('target', words[i + 1]);
      setTarget(words[i + 1].value, words[i + 1], v === 'goto' ? 'goto' : 'jump');
      i += 2;
      continue;
    }
    if (v === 'reject') {
      token('target', w);
      const t = setTarget('REJECT', w);
      i++;
      // `reject with icmp port-unreachable`, `reject with icmp type host-unreachable`, `reject with tcp reset`
      if (words[i]?.raw === 'with') {
        let k = i + 2;
        if (words[k]?.raw === 'type') k++;
        const code = words[k];
        if (code) {
          for (let j = i; j <= k; j++) token(j === k ? 'value' : 'option', words[j]);
          const names = words[i + 1]?.raw === 'icmpv6' ? REJECT_WITH_V6 : REJECT_WITH;
          t.options.push(opt('reject-with', words[i], [code], false, [ownEntry(names, code.raw) ?? code.raw]));
          i = k + 1;
        }
      }
      continue;
    }
    if ((v === 'dnat' || v === 'snat') && (words[i + 1]?.raw === 'to' || words[i + 2]?.raw === 'to')) {
      const toAt = words[i + 1]?.raw === 'to' ? i + 1 : i + 2;
      const dest = words[toAt + 1];
      token('target', w);
      const t = setTarget(v === 'dnat' ? 'DNAT' : 'SNAT', w);
      if (dest) {
        token('option', words[toAt]);
        token('value', dest);
        t.options.push(opt(v === 'dnat' ? 'to-destination' : 'to-source', words[toAt], [dest], false));
      }
      i = readNatFlags(t, toAt + 2);
      continue;
    }
    if (v === 'masquerade' || v === 'redirect') {
      token('target', w);
      const t = setTarget(v === 'masquerade' ? 'MASQUERADE' : 'REDIRECT', w);
      i = readNatFlags(t, i + 1);
      if (words[i]?.raw === 'to' && words[i + 1]) {
        token('option', words[i]);
        token('value', words[i + 1]);
        t.options.push(opt('to-ports', words[i], [words[i + 1]], false, [words[i + 1].value.replace(/^:/, '')]));
        i = readNatFlags(t, i + 2);
      }
      continue;
    }
    // `meta mark set mark or 0x4000` (iptables-nft's MARK --or-mark), `meta mark set meta mark | 0x4000` (nft's own
    // spelling), `... xor 0x4000` / `^`, `meta mark set 0x8000`.
    const setAt =
      v === 'meta' && next === 'mark' && words[i + 2]?.raw === 'set'
        ? i + 2
        : v === 'mark' && next === 'set'
          ? i + 1
          : -1;
    if (setAt >= 0 && words[setAt + 1]) {
      const markAt =
        words[setAt + 1].raw === 'meta' && words[setAt + 2]?.raw === 'mark'
          ? setAt + 2
          : words[setAt + 1].raw === 'mark'
            ? setAt + 1
            : -1;
      const op = markAt >= 0 ? ownEntry(MARK_OPERATORS, words[markAt + 1]?.raw ?? '') : 'set-mark';
      const valueAt = markAt >= 0 ? markAt + 2 : setAt + 1;
      const valueWord = words[valueAt];
      if (op && valueWord && NUMBER.test(valueWord.raw)) {
        token('target', w);
        const t = setTarget('MARK', w);
        for (let j = i + 1; j < valueAt; j++) token('option', words[j]);
        token('value', valueWord);
        // `--set-xmark V/M` (neither a plain set nor one bit operation) is `mark and ~M xor V`.
        const xorWord = words[valueAt + 2];
        if (
          op === 'and-mark' &&
          ownEntry(MARK_OPERATORS, words[valueAt + 1]?.raw ?? '') === 'xor-mark' &&
          xorWord &&
          NUMBER.test(xorWord.raw)
        ) {
          token('option', words[valueAt + 1]);
          token('value', xorWord);
          const mask = `0x${(~Number(valueWord.raw) >>> 0).toString(16)}`;
          t.options.push(opt('set-xmark', words[setAt], [valueWord, xorWord], false, [`${xorWord.raw}/${mask}`]));
          i = valueAt + 3;
          continue;
        }
        t.options.push(opt(op, words[setAt], [valueWord], false));
        i = valueAt + 1;
        continue;
      }
    }
    if (v === 'log') {
      token('target', w);
      const t = setTarget('LOG', w);
      i++;
      // nft prints prefix, group, snaplen, queue-threshold, level, then flags; a group makes it NFLOG.
      const valued: [Word, Word][] = [];
      const flags: OptionArg[] = [];
      for (;;) {
        const key = words[i]?.raw ?? '';
        if (ownEntry(LOG_KEYS, key) && words[i + 1]) {
          token('option', words[i]);
          token('value', words[i + 1]);
          valued.push([words[i], words[i + 1]]);
          i += 2;
          continue;
        }
        // `flags all`, `flags tcp sequence,options`, `flags ip options`, `flags skuid`, `flags ether`
        const flag = key === 'flags' ? words[i + 1]?.raw : undefined;
        const last = flag === 'tcp' || flag === 'ip' ? i + 2 : i + 1;
        const found =
          flag && words[last]
            ? last > i + 1
              ? words[last].raw.split(',').map((f) => ownEntry(LOG_FLAGS, `${flag} ${f}`))
              : [ownEntry(LOG_FLAGS, flag)]
            : [];
        const names = found.flatMap((n) => n ?? []);
        if (found.length === 0 || found.includes(undefined)) break;
        token('option', words[i]);
        for (let j = i + 1; j <= last; j++) token('value', words[j]);
        for (const n of names) flags.push(opt(n, words[last], [], false));
        i = last + 1;
      }
      const nflog = valued.some(([k]) => k.raw === 'group');
      if (nflog) t.name = 'NFLOG';
      for (const [k, value] of valued) t.options.push(opt(LOG_KEYS[k.raw][nflog ? 1 : 0], k, [value], false));
      t.options.push(...flags);
      continue;
    }
    if (v === 'notrack') {
      token('target', w);
      setTarget('NOTRACK', w);
      i++;
      continue;
    }
    break;
  }
  if (i < words.length) {
    // What nft printed and no iptables match stands for: kept as text, and the tracer is told it cannot know.
    const rest = words.slice(i);
    for (const r of rest) token('value', r);
    add('unparsed', {
      name: 'text',
      written: rest[0].raw,
      values: [rest.map((r) => r.raw).join(' ')],
      negated: false,
      span: sp(rest[0]),
      valueSpans: [sp(rest[0])],
    });
    diagnostics.push(problem('nft-text-unmapped', 'hint', sp(rest[0]), { text: rest[0].raw }));
  }
  ruleTokens.sort((a, b) => a.span.column - b.span.column);
  return {
    id: -1,
    table: table.name,
    chain: chain.name,
    line,
    span: { line, column: sl.offset, length: content.length },
    chainSpan: chain.declSpan,
    command: 'append',
    text: content,
    listingRow: true,
    matches,
    ...(target ? { target } : {}),
    ...(comment !== undefined ? { comment } : {}),
    ...(counters ? { counters } : {}),
    tokens: ruleTokens,
    index: -1,
  };
}
