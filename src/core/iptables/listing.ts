/**
 * `iptables -L -n [-v] [-x] [--line-numbers]` listings: `Chain X (policy ACCEPT ...)` blocks with a column header
 * and one row per rule. Columns become generic matches; the trailing text (`tcp dpt:443`, the comment between slash-stars,
 * `statistic mode random probability 0.5`, `to:10.0.0.1:80`, ...) is mapped back to modules where possible.
 */
import type { Diagnostic, Span } from '../common/diagnostics';
import type { LineIndex, SourceLine } from '../common/lines';
import { MEMORY_CHECK_MASK, memoryCheckpoint } from '../common/memoryCheck';
import { ownEntry } from '../common/own';
import { ruleTargetName, type Counters, type Match, type OptionArg, type Rule, type Target, type Token } from './dump';
import { problem } from './problems';
import { splitWords, type Word } from './words';

const CHAIN_LINE =
  /^Chain\s+(\S+)\s+\((?:policy\s+(\w+)(?:\s+(\d+[KMGT]?)\s+packets,\s+(\d+[KMGT]?)\s+bytes)?|(\d+)\s+references?)\)/;
const HEADER = /^(num\s+)?(pkts\s+bytes\s+)?target\s+prot\s+opt\s+(in\s+out\s+)?source\s+destination/;
const PROTOCOLS = /^(?:all|tcp|udp|icmp|sctp|udplite|icmpv6|ipv6-icmp|esp|ah|gre|\d+)$/;
/** The opt column: `--`, fragment flags (`-f`, `!f`); ip6tables may leave it blank. */
const OPT_COLUMN = /^(?:--|-f|!f)$/;

/**
 * iptables 1.8.9 (Debian bookworm, Fedora 39, the kube-proxy images built on them) lists the protocol as its number
 * under `-n`: `0` for all, `6` for tcp. Read as the name every other release lists, so the rule, its Service's
 * protocol and the hash of its chain name read alike in both forms.
 */
const LISTED_PROTOCOL_NUMBERS: Readonly<Record<string, string>> = {
  '0': 'all',
  '1': 'icmp',
  '6': 'tcp',
  '17': 'udp',
  '47': 'gre',
  '50': 'esp',
  '51': 'ah',
  '58': 'ipv6-icmp',
  '132': 'sctp',
  '136': 'udplite',
};

/** The protocol column's word by name (`!6` reads `!tcp`). */
function listedProtocol(raw: string): string {
  const negated = raw.startsWith('!');
  const name = ownEntry(LISTED_PROTOCOL_NUMBERS, negated ? raw.slice(1) : raw);
  return name === undefined ? raw : (negated ? '!' : '') + name;
}

function isProtocolWord(raw: string): boolean {
  return PROTOCOLS.test(raw.startsWith('!') ? raw.slice(1) : raw);
}

export function isListingStart(content: string): boolean {
  return CHAIN_LINE.test(content);
}

export interface ListingChain {
  name: string;
  policy?: string;
  counters?: Counters;
  declSpan: Span;
}

export interface ListingBlock {
  chains: ListingChain[];
  rules: Rule[];
  tokens: Token[];
  diagnostics: Diagnostic[];
  nextLine: number;
}

/** Expands `12K` style counters from `iptables -L -v` (without -x). */
export function expandSuffix(n: string): number {
  const m = /^(\d+)([KMGT]?)$/.exec(n);
  if (!m) return NaN;
  const mult = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12 }[m[2] as '' | 'K' | 'M' | 'G' | 'T'];
  return Number(m[1]) * mult;
}

/** The columns a listing's header shows (bits): `--line-numbers`, `-v`'s counters and its in/out columns. */
const NUM_COLUMN = 1;
const COUNTER_COLUMNS = 2;
const INTERFACE_COLUMNS = 4;

const NAT_TARGETS = new Set(['DNAT', 'SNAT', 'MASQUERADE', 'REDIRECT', 'NETMAP']);
const NAT_CHAINS = /^KUBE-(?:SVC|SVL|SEP|EXT|FW|XLB)-|^KUBE-(?:MARK-MASQ|POSTROUTING)$/;
/** Chains and targets the nat table cannot have (it has no FORWARD chain and takes no REJECT). */
const NOT_NAT_CHAINS = /^(?:FORWARD|KUBE-FORWARD|KUBE-FIREWALL|KUBE-EXTERNAL-SERVICES|KUBE-PROXY-FIREWALL)$/;

/** The built-in chains of the tables `iptables -L` lists, each listed once, in table order. */
const BUILT_IN_CHAINS = new Set(['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING']);

/**
 * The table a listing printed when nothing said which (`iptables -t nat -L` pasted without its prompt): nat when its
 * chains or targets are nat-only and none is impossible there; else the table whose built-in chains it lists
 * (filter has no PREROUTING nor POSTROUTING: mangle lists PREROUTING first and has FORWARD, raw has PREROUTING and
 * OUTPUT only, nat the rest); undefined leaves iptables' default, filter, also when a built-in chain is listed twice
 * (two listings pasted as one: nothing tells which table each line was in).
 */
export function listingTableOf(block: ListingBlock): 'nat' | 'raw' | 'mangle' | undefined {
  const evidence = natEvidence(block);
  if (evidence === 'nat') return 'nat';
  const builtIns = block.chains.map((c) => c.name).filter((name) => BUILT_IN_CHAINS.has(name));
  if (new Set(builtIns).size < builtIns.length) return undefined;
  const has = (name: string) => builtIns.includes(name);
  if (!has('PREROUTING') && !has('POSTROUTING')) return undefined;
  if (has('FORWARD')) return builtIns[0] === 'PREROUTING' ? 'mangle' : undefined;
  if (has('OUTPUT') && !has('INPUT') && !has('POSTROUTING')) return 'raw';
  return evidence === 'not-nat' ? undefined : 'nat';
}

/** What a listing's chains and targets say of nat: only nat has them, nat cannot have them, or nothing. */
function natEvidence(block: ListingBlock): 'nat' | 'not-nat' | undefined {
  let nat = false;
  for (const c of block.chains) {
    if (NOT_NAT_CHAINS.test(c.name)) return 'not-nat';
    if (NAT_CHAINS.test(c.name)) nat = true;
  }
  for (const r of block.rules) {
    const target = ruleTargetName(r);
    if (target === 'REJECT') return 'not-nat';
    if (target && (NAT_TARGETS.has(target) || NAT_CHAINS.test(target))) nat = true;
  }
  return nat ? 'nat' : undefined;
}

/**
 * Parses consecutive listing blocks starting at `start`; stops at the first line that is not part of a listing.
 * Rows are read in `table`; a caller that learns the table from the block (`listingTableOf`) sets their `table`.
 */
export function parseListingBlock(lines: LineIndex, start: number, table: string): ListingBlock {
  const out: ListingBlock = { chains: [], rules: [], tokens: [], diagnostics: [], nextLine: start };
  let chain: ListingChain | undefined;
  let cols = 0;
  let i = start;
  for (; i < lines.count; i++) {
    // A listing is read here whole, however many lines it has: the engine's memory checkpoints are in this loop too.
    if ((i & MEMORY_CHECK_MASK) === 0) memoryCheckpoint();
    // One line at a time: a SourceLine kept for every line of a big listing cost more than its rows.
    const sl = lines.line(i);
    const c = sl.content;
    if (c === '') {
      // A blank line separates chains; the listing goes on if another chain follows.
      if (i + 1 < lines.count && isListingStart(lines.content(i + 1))) continue;
      break;
    }
    const cm = CHAIN_LINE.exec(c);
    if (cm) {
      const declSpan: Span = { line: sl.line, column: sl.offset + c.indexOf(cm[1], 5), length: cm[1].length };
      chain = { name: cm[1], declSpan };
      if (cm[2]) chain.policy = cm[2];
      if (cm[3] !== undefined)
        chain.counters = {
          packets: expandSuffix(cm[3]),
          bytes: expandSuffix(cm[4]),
          span: { line: sl.line, column: sl.offset, length: c.length },
        };
      out.chains.push(chain);
      out.tokens.push({ kind: 'chainDecl', text: cm[1], span: declSpan });
      if (cm[2])
        out.tokens.push({
          kind: 'policy',
          text: cm[2],
          span: {
            line: sl.line,
            column: sl.offset + c.indexOf(cm[2], declSpan.column - sl.offset + cm[1].length),
            length: cm[2].length,
          },
        });
      continue;
    }
    const hm = HEADER.exec(c);
    if (hm) {
      cols = (hm[1] ? NUM_COLUMN : 0) | (hm[2] ? COUNTER_COLUMNS : 0) | (hm[3] ? INTERFACE_COLUMNS : 0);
      // Without -v the listing hides `-i`/`-o`: `ACCEPT all -- anywhere anywhere` may well be `-i lo -j ACCEPT`.
      if (!(cols & INTERFACE_COLUMNS) && !out.diagnostics.some((d) => d.code === 'listing-without-interfaces')) {
        out.diagnostics.push(
          problem('listing-without-interfaces', 'info', { line: sl.line, column: sl.offset, length: c.length }),
        );
      }
      continue;
    }
    if (!chain) break;
    const rule = parseRow(sl, chain, table, cols, out.diagnostics, undefined, lines);
    if (!rule) break;
    out.rules.push(rule);
  }
  out.nextLine = Math.max(i, start + 1);
  return out;
}

/**
 * A row of a listing. Its tokens (one a word: ~50 on a kube-proxy row with its comment) are read again from its line
 * when asked (a hover, a definition): kept for every row, they were most of a big listing's memory.
 */
class ListingRow implements Rule {
  id = -1;
  table: string;
  chain: string;
  line: number;
  span: Span;
  chainSpan: Span;
  command: Rule['command'] = 'append';
  text: string;
  readonly listingRow = true;
  declare readonly interfacesHidden?: boolean;
  matches: Match[];
  declare target?: Target;
  declare comment?: string;
  declare counters?: Counters;
  index = -1;
  /** The text's lines and the columns the listing showed: what reading the row again takes. */
  private readonly source: LineIndex;
  private readonly columns: number;

  constructor(
    source: LineIndex,
    columns: number,
    table: string,
    chain: ListingChain,
    sl: SourceLine,
    text: string,
    matches: Match[],
  ) {
    this.table = table;
    this.chain = chain.name;
    this.line = sl.line;
    this.span = { line: sl.line, column: sl.offset, length: sl.content.length };
    this.chainSpan = chain.declSpan;
    this.text = text;
    this.matches = matches;
    this.source = source;
    this.columns = columns;
  }

  get tokens(): Token[] {
    const tokens: Token[] = [];
    const chain = { name: this.chain, declSpan: this.chainSpan };
    parseRow(this.source.line(this.line), chain, this.table, this.columns, [], tokens, this.source);
    return tokens;
  }
}

/**
 * The row on `sl`, or undefined when the line is not one. `tokens`: where its tokens go, in column order (undefined:
 * not made).
 */
function parseRow(
  sl: SourceLine,
  chain: ListingChain,
  table: string,
  cols: number,
  diagnostics: Diagnostic[],
  tokens: Token[] | undefined,
  source: LineIndex,
): ListingRow | undefined {
  const words = splitWords(sl.content, sl.offset).words;
  let k = 0;
  const line = sl.line;
  // One span a word, shared by its token and its option (nothing changes a span once made).
  const sp = (w: Word): Span => (w.span ??= { line, column: w.column, length: w.raw.length });
  if (cols & NUM_COLUMN) {
    if (!words[k] || !/^\d+$/.test(words[k].raw)) return undefined;
    tokens?.push({ kind: 'value', text: words[k].raw, span: sp(words[k]) });
    k++;
  }
  let counters: Counters | undefined;
  if (cols & COUNTER_COLUMNS) {
    const p = words[k];
    const b = words[k + 1];
    if (!p || !b || Number.isNaN(expandSuffix(p.raw)) || Number.isNaN(expandSuffix(b.raw))) return undefined;
    counters = {
      packets: expandSuffix(p.raw),
      bytes: expandSuffix(b.raw),
      span: { line, column: p.column, length: b.column + b.raw.length - p.column },
    };
    tokens?.push({ kind: 'counter', text: p.raw, span: sp(p) }, { kind: 'counter', text: b.raw, span: sp(b) });
    k += 2;
  }
  // The row's own text starts after the line number and counters (`text` of a rule carries no counters).
  const rowStart = words[k]?.column ?? sl.offset;
  // The target column is empty for rules without a target: then the protocol comes first.
  // ip6tables (legacy, older nft) prints the opt column blank: then the protocol is followed by the in column.
  let targetWord: Word | undefined;
  if (words[k] && !(PROTOCOLS.test(words[k].raw) && !isProtocolWord(words[k + 1]?.raw ?? ''))) {
    targetWord = words[k];
    k++;
  }
  const prot = words[k];
  if (!prot || !isProtocolWord(prot.raw)) return undefined;
  const opt = OPT_COLUMN.test(words[k + 1]?.raw ?? '') ? words[k + 1] : undefined;
  k += opt ? 2 : 1;
  const generic: OptionArg[] = [];
  const addGeneric = (name: string, w: Word, value: string) => {
    const negated = value.startsWith('!');
    const span = sp(w);
    generic.push({
      name,
      written: name,
      values: [negated ? value.slice(1) : value],
      negated,
      span,
      valueSpans: [span],
    });
    tokens?.push({ kind: 'value', text: w.raw, span });
  };
  const protocol = listedProtocol(prot.raw);
  if (protocol !== 'all') addGeneric('protocol', prot, protocol);
  else tokens?.push({ kind: 'value', text: prot.raw, span: sp(prot) });
  if (opt) tokens?.push({ kind: 'value', text: opt.raw, span: sp(opt) });
  if (cols & INTERFACE_COLUMNS) {
    const inW = words[k];
    const outW = words[k + 1];
    if (!inW || !outW) return undefined;
    if (!/^!?(?:\*|any)$/.test(inW.raw)) addGeneric('in-interface', inW, inW.raw);
    if (!/^!?(?:\*|any)$/.test(outW.raw)) addGeneric('out-interface', outW, outW.raw);
    k += 2;
  }
  const src = words[k];
  const dst = words[k + 1];
  if (!src || !dst) return undefined;
  for (const [name, w] of [
    ['source', src],
    ['destination', dst],
  ] as const) {
    if (/^!?(?:0\.0\.0\.0\/0|::\/0|anywhere)$/.test(w.raw)) continue;
    const address = listedAddress(w.raw);
    addGeneric(name, w, address ?? w.raw);
    if (address === undefined && /[g-zG-Z]/.test(w.raw))
      diagnostics.push(problem('listing-resolved-name', 'warning', sp(w), { name: w.raw.replace(/^!/, '') }));
  }
  k += 2;
  const matches: Match[] = generic.length ? [{ module: '', options: generic }] : [];
  let target: Target | undefined;
  if (targetWord) {
    target = { name: targetWord.value, kind: 'jump', span: sp(targetWord), options: [] };
    tokens?.unshift({ kind: 'target', text: targetWord.raw, span: sp(targetWord) });
  }
  const comment = mapExtra(words.slice(k), matches, target, tokens, line, diagnostics);
  tokens?.sort((a, b) => a.span.column - b.span.column);
  const row = new ListingRow(source, cols, table, chain, sl, sl.content.slice(rowStart - sl.offset), matches);
  // Set only when present, as the rules of other formats have them.
  if (!(cols & INTERFACE_COLUMNS)) (row as { interfacesHidden?: boolean }).interfacesHidden = true;
  if (target) row.target = target;
  if (comment !== undefined) row.comment = comment;
  if (counters) row.counters = counters;
  return row;
}

/** Maps listing trailer text back to modules and target options; returns the comment if any. */
function mapExtra(
  rest: Word[],
  matches: Match[],
  target: Target | undefined,
  tokens: Token[] | undefined,
  line: number,
  diagnostics: Diagnostic[],
): string | undefined {
  let comment: string | undefined;
  const sp = (w: Word): Span => (w.span ??= { line, column: w.column, length: w.raw.length });
  const opt = (name: string, w: Word, values: string[], negated = false): OptionArg => {
    const span = sp(w);
    return { name, written: name, values, negated, span, valueSpans: [span] };
  };
  const add = (module: string, o: OptionArg) => {
    let m = matches.find((x) => x.module === module);
    if (!m) {
      m = { module, options: [] };
      matches.push(m);
    }
    m.options.push(o);
  };
  let i = 0;
  while (i < rest.length) {
    const w = rest[i];
    const v = w.raw;
    tokens?.push({ kind: 'value', text: v, span: sp(w) });
    if (v === '/*') {
      // Searched from the comment on: from the row's start, a row of many comments took quadratic time.
      let stop = i + 1;
      while (stop < rest.length && rest[stop].raw !== '*/') stop++;
      comment = rest
        .slice(i + 1, stop)
        .map((x) => x.raw)
        .join(' ');
      const first = rest[i + 1] ?? w;
      add('comment', opt('comment', first, [comment]));
      for (let j = i + 1; j <= Math.min(stop, rest.length - 1); j++)
        tokens?.push({ kind: 'commentText', text: rest[j].raw, span: sp(rest[j]) });
      i = stop + 1;
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = /^(dpts?|spts?):(!?)(.+)$/.exec(v))) {
      const proto = i > 0 && /^(tcp|udp|sctp)$/.test(rest[i - 1].raw) ? rest[i - 1].raw : 'tcp';
      add(proto, opt(m[1].startsWith('d') ? 'dport' : 'sport', w, [m[3]], m[2] === '!'));
      i++;
      continue;
    }
    if (v === 'multiport' && rest[i + 1] && rest[i + 2]) {
      // iptables prints the negation glued to the list (`dports !80,443`); older versions as a word of its own.
      const neg = rest[i + 2].raw === '!';
      const valWord = neg ? rest[i + 3] : rest[i + 2];
      const glued = !neg && valWord.raw.startsWith('!');
      if (valWord)
        add('multiport', opt(rest[i + 1].raw, valWord, [glued ? valWord.raw.slice(1) : valWord.raw], neg || glued));
      i += neg ? 4 : 3;
      continue;
    }
    if (v === 'statistic' && rest[i + 1]?.raw === 'mode') {
      add('statistic', opt('mode', rest[i + 2] ?? w, [rest[i + 2]?.raw ?? '']));
      i += 3;
      if (rest[i]?.raw === 'probability' && rest[i + 1]) {
        add('statistic', opt('probability', rest[i + 1], [rest[i + 1].raw]));
        i += 2;
      } else if (rest[i]?.raw === 'every' && rest[i + 1]) {
        add('statistic', opt('every', rest[i + 1], [rest[i + 1].raw]));
        i += 2;
      }
      continue;
    }
    if (v === 'mark' && rest[i + 1]?.raw === 'match') {
      const neg = rest[i + 2]?.raw === '!';
      const valWord = neg ? rest[i + 3] : rest[i + 2];
      if (valWord) add('mark', opt('mark', valWord, [valWord.raw], neg));
      i += neg ? 4 : 3;
      continue;
    }
    if (v === 'ADDRTYPE' && rest[i + 1]?.raw === 'match') {
      i += 2;
      while (rest[i] && /^(src|dst)-type$/.test(rest[i].raw) && rest[i + 1]) {
        const val = rest[i + 1].raw;
        add('addrtype', opt(rest[i].raw, rest[i + 1], [val.replace(/^!/, '')], val.startsWith('!')));
        i += 2;
      }
      continue;
    }
    // conntrack prints its negation before the keyword (`! ctstate RELATED,ESTABLISHED`); older releases after it.
    const stateAt = v === '!' && /^(?:ct)?state$/.test(rest[i + 1]?.raw ?? '') ? i + 1 : i;
    const keyword = rest[stateAt].raw;
    if ((keyword === 'ctstate' || keyword === 'state') && rest[stateAt + 1]) {
      const after = rest[stateAt + 1].raw === '!';
      const valWord = after ? rest[stateAt + 2] : rest[stateAt + 1];
      if (stateAt > i) tokens?.push({ kind: 'value', text: keyword, span: sp(rest[stateAt]) });
      if (valWord)
        add(keyword === 'ctstate' ? 'conntrack' : 'state', opt(keyword, valWord, [valWord.raw], after || stateAt > i));
      i = stateAt + (after ? 3 : 2);
      continue;
    }
    if ((v === 'match-set' || (v === '!' && rest[i + 1]?.raw === 'match-set')) && rest.length > i + 2) {
      const neg = v === '!';
      const base = neg ? i + 1 : i;
      if (rest[base + 1] && rest[base + 2])
        add('set', opt('match-set', rest[base + 1], [rest[base + 1].raw, rest[base + 2].raw], neg));
      i = base + 3;
      continue;
    }
    if (target && (m = /^to:(.+)$/.exec(v))) {
      target.options.push(opt(target.name === 'SNAT' ? 'to-source' : 'to-destination', w, [m[1]]));
      i++;
      continue;
    }
    if (target && v === 'MARK' && rest[i + 1] && rest[i + 2]) {
      const op = { or: 'or-mark', xset: 'set-xmark', set: 'set-mark', xor: 'xor-mark', and: 'and-mark' }[
        rest[i + 1].raw
      ];
      if (op) {
        target.options.push(opt(op, rest[i + 2], [rest[i + 2].raw]));
        i += 3;
        continue;
      }
    }
    if (target && v === 'reject-with' && rest[i + 1]) {
      target.options.push(opt('reject-with', rest[i + 1], [rest[i + 1].raw]));
      i += 2;
      continue;
    }
    if (target && (v === 'random-fully' || v === 'random' || v === 'persistent')) {
      target.options.push(opt(v, w, []));
      i++;
      continue;
    }
    if (v === 'limit:' && rest[i + 1]?.raw === 'avg' && rest[i + 2]) {
      // `limit: avg 5/min burst 5` (libxt_limit's listing form)
      add('limit', opt('limit', rest[i + 2], [rest[i + 2].raw]));
      i += 3;
      if (rest[i]?.raw === 'burst' && rest[i + 1]) {
        add('limit', opt('limit-burst', rest[i + 1], [rest[i + 1].raw]));
        i += 2;
      }
      continue;
    }
    if (v === 'recent:' || (v === '!' && rest[i + 1]?.raw === 'recent:')) {
      i = mapRecent(rest, v === '!' ? i + 2 : i + 1, v === '!', (o) => add('recent', o), opt);
      continue;
    }
    if ((m = /^(!?)(icmptype|ipv6-icmptype)$/.exec(v)) && rest[i + 1]) {
      // `icmptype 8` / `icmptype 3 code 4` (`-n`: the type glued to the keyword), `ipv6-icmptype 128`.
      const code =
        rest[i + 2]?.raw === 'code' && rest[i + 3]
          ? rest[i + 3].raw
          : rest[i + 2]?.raw === 'codes' && rest[i + 3]
            ? rest[i + 3].raw
            : undefined;
      const v6 = m[2] === 'ipv6-icmptype';
      add(
        v6 ? 'icmp6' : 'icmp',
        opt(
          v6 ? 'icmpv6-type' : 'icmp-type',
          rest[i + 1],
          [code ? `${rest[i + 1].raw}/${code}` : rest[i + 1].raw],
          m[1] === '!',
        ),
      );
      i += code ? 4 : 2;
      continue;
    }
    if (v === 'ipv6-icmp' && rest[i + 1] && /^!?[a-z][a-z-]+$/.test(rest[i + 1].raw)) {
      // `ipv6-icmp echo-request` (without -n)
      const word = rest[i + 1];
      add('icmp6', opt('icmpv6-type', word, [word.raw.replace(/^!/, '')], word.raw.startsWith('!')));
      i += 2;
      continue;
    }
    if (
      v === 'icmp' &&
      rest[i + 1] &&
      /^!?(?:type|[a-z][a-z-]+)$/.test(rest[i + 1].raw) &&
      !/^(?:tcp|udp|sctp)$/.test(rest[i + 1].raw)
    ) {
      // `icmp type 8 code 0` with -n, `icmp echo-request` without; a leading `!` negates.
      const word = rest[i + 1];
      const negated = word.raw.startsWith('!');
      const numeric = word.raw.replace(/^!/, '') === 'type' && rest[i + 2];
      const value = numeric
        ? rest[i + 2].raw + (rest[i + 3]?.raw === 'code' && rest[i + 4] ? `/${rest[i + 4].raw}` : '')
        : word.raw.replace(/^!/, '');
      add('icmp', opt('icmp-type', numeric ? rest[i + 2] : word, [value], negated));
      i += numeric ? (rest[i + 3]?.raw === 'code' && rest[i + 4] ? 5 : 3) : 2;
      continue;
    }
    if (target?.name === 'LOG' && v === 'LOG' && (rest[i + 1]?.raw === 'flags' || rest[i + 1]?.raw === 'level')) {
      // `LOG flags 0 level 4 prefix "FWD-DROP: "` (`-n`), `LOG level warning prefix "..."`: level and prefix are
      // the target's options (the flags' bits, --log-tcp-sequence and the like, are not read back).
      if (rest[i + 1].raw === 'flags' && rest[i + 2]) {
        // xt_LOG's flag bits (`-n` prints the number)
        const bits = Number(rest[i + 2].raw);
        for (const [bit, name] of LOG_FLAG_OPTIONS)
          if (Number.isInteger(bits) && bits & bit) target.options.push(opt(name, rest[i + 2], []));
        i += 3;
      } else i += rest[i + 1].raw === 'flags' ? 2 : 1;
      if (rest[i]?.raw === 'level' && rest[i + 1]) {
        target.options.push(opt('log-level', rest[i + 1], [rest[i + 1].raw]));
        i += 2;
      }
      // Without -n the flags are words after the level: `tcp-sequence`, `tcp-options`, `ip-options`, `uid`, `macdecode`.
      for (; rest[i] && LOG_FLAG_WORDS.has(rest[i].raw); i++)
        target.options.push(opt(`log-${rest[i].raw}`, rest[i], []));
      if (rest[i]?.raw === 'prefix' && rest[i + 1]) {
        const start = i + 1;
        let end = start;
        // The prefix is printed in quotes and may hold blanks: its words run to the one that closes the quote.
        const closes = (k: number) => rest[k].raw.endsWith('"') && (k > start || rest[k].raw.length > 1);
        if (rest[start].raw.startsWith('"')) while (end < rest.length - 1 && !closes(end)) end++;
        const text = rest
          .slice(start, end + 1)
          .map((x) => x.raw)
          .join(' ');
        target.options.push(opt('log-prefix', rest[start], [text.replace(/^"|"$/g, '')]));
        i = end + 1;
      }
      continue;
    }
    if (/^(tcp|udp|sctp|icmp)$/.test(v)) {
      i++;
      continue;
    }
    // Everything else stays visible but is not interpreted.
    diagnostics.push(problem('listing-text-unmapped', 'hint', sp(w), { text: v }));
    add(
      'unparsed',
      opt('text', w, [
        rest
          .slice(i)
          .map((x) => x.raw)
          .join(' '),
      ]),
    );
    for (let j = i + 1; j < rest.length; j++) tokens?.push({ kind: 'value', text: rest[j].raw, span: sp(rest[j]) });
    break;
  }
  return comment;
}

/** xt_LOG's flag bits and the options that set them. */
const LOG_FLAG_OPTIONS: readonly [number, string][] = [
  [0x01, 'log-tcp-sequence'],
  [0x02, 'log-tcp-options'],
  [0x04, 'log-ip-options'],
  [0x08, 'log-uid'],
  [0x20, 'log-macdecode'],
];
const LOG_FLAG_WORDS = new Set(['tcp-sequence', 'tcp-options', 'ip-options', 'uid', 'macdecode']);

/** xt_recent's listing form's keywords and the option each stands for (`CHECK` is `--rcheck`). */
const RECENT_FLAGS: Record<string, string> = {
  SET: 'set',
  CHECK: 'rcheck',
  UPDATE: 'update',
  REMOVE: 'remove',
  reap: 'reap',
  'TTL-Match': 'rttl',
};
const RECENT_VALUES: Record<string, string> = {
  'seconds:': 'seconds',
  'hit_count:': 'hitcount',
  'name:': 'name',
  'mask:': 'mask',
};

/**
 * `recent: CHECK seconds: 10800 reap name: KUBE-SEP-X side: source mask: 255.255.255.255` (kube-proxy's session
 * affinity) into `recent` options; returns the index after it.
 */
function mapRecent(
  rest: Word[],
  at: number,
  negated: boolean,
  add: (o: OptionArg) => void,
  opt: (name: string, w: Word, values: string[], negated?: boolean) => OptionArg,
): number {
  let i = at;
  let first = true;
  while (i < rest.length) {
    const w = rest[i];
    const flag = ownEntry(RECENT_FLAGS, w.raw);
    const valued = ownEntry(RECENT_VALUES, w.raw);
    if (flag) {
      add(opt(flag, w, [], first && negated));
      i++;
    } else if (valued && rest[i + 1]) {
      add(opt(valued, rest[i + 1], [rest[i + 1].raw]));
      i += 2;
    } else if (w.raw === 'side:' && rest[i + 1]) {
      add(opt(rest[i + 1].raw === 'dest' ? 'rdest' : 'rsource', rest[i + 1], []));
      i += 2;
    } else break;
    first = false;
  }
  return i;
}

/**
 * The address a listing column shows, in numbers: `iptables -L` without `-n` prints the loopback names
 * (`localhost`, `localhost/8`, `ip6-localhost`), which the resolver gives on every host. Other names came from
 * the listing host's DNS: undefined (they cannot be read back here).
 */
function listedAddress(raw: string): string | undefined {
  const negation = raw.startsWith('!') ? '!' : '';
  const m = /^(localhost|ip6-localhost|ip6-loopback)(?:\/(\d+))?$/.exec(raw.slice(negation.length));
  if (!m) return undefined;
  const prefix = m[2] === undefined ? undefined : Number(m[2]);
  const v6 = m[1] !== 'localhost' || (prefix !== undefined && prefix > 32);
  if (v6) return `${negation}::1${prefix === undefined ? '' : `/${prefix}`}`;
  // `localhost/8` is the loopback network 127.0.0.0/8 (the name stands for its first address, 127.0.0.1).
  return prefix === undefined
    ? `${negation}127.0.0.1`
    : `${negation}${prefix >= 32 ? '127.0.0.1' : '127.0.0.0'}/${prefix}`;
}
