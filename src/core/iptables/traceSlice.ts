/**
 * The lines a trace of one packet needs, found before the dump is parsed (`ParseOptions.traceFocus`): on a big
 * kube-proxy dump `kpp trace` then reads the few chains the packet can enter instead of every rule.
 *
 * One pass over the lines indexes the text (tables, runs of declarations, runs of rule lines of one chain) and
 * proves rule lines clean: read by the parser, such a line makes no diagnostic a trace reports (an error, a line
 * joined to it), because its words are plain and every option has the values it takes. A line not proven so (a
 * quote, `-c`, a value starting with `-`, a word where an option belongs, ...) is read as always.
 * From the hook chains, a rule's target chain is followed unless the rule cannot match any form of the packet
 * (its own, or one a DNAT on the way writes) by protocol, destination or destination port: the tracer decides such
 * a rule on that condition without looking at its target. The rules of a chain followed are read, and the
 * declarations of the chains followed; the other clean rule lines and declarations are not read at all. Of a
 * chain followed, the rules the tracer's destination index never shows a walker of this trace are not read either
 * (`unreachedRules`: kube-proxy's KUBE-SERVICES), and a long chain entered only through `-m addrtype` rules is
 * neither read nor followed unless the trace enters it (`DEFER_MIN_RULES`: KUBE-NODEPORTS).
 *
 * The answer must be the full parse's, so anything this reader does not follow makes it give up (undefined: read
 * everything): a line that is not iptables-save or restore output, a table without COMMIT or given twice, a rule
 * it could not prove clean in a chain the packet enters, a jump to a chain neither declared nor with rules, a
 * target that may change the destination in a way it does not model (REDIRECT, NETMAP, a DNAT range).
 */
import type { LineIndex } from '../common/lines';
import { grownColumn } from '../common/columns';
import { cidrContains, parseCidr, parseIp, splitHostPort, type IpAddress } from '../common/ip';
import { isBuiltinChain, STANDARD_TARGETS } from './dump';
import {
  canonicalOptionName,
  EXTENSION_TARGETS,
  FLAG_OPTIONS,
  GENERIC_OPTION_NAMES,
  OPTION_ALIASES,
  optionArity,
  RULE_CHANGING_COMMANDS,
  TWO_ARG_OPTIONS,
} from './options';
import { INDEX_MIN_RULES, plainIPv4HostAt } from './trace/hostIndex';
import { impliedJumps } from './trace/hooks';
import { PORT_MODULES, protocolOfValue } from './trace/protocols';
import { cleanRunEnd, MAX_LINES_MATCHED, NO_MATCH, PART_OF_LINE, walkDumpLines } from './lineWalk';

/** The packet of one trace, as far as choosing the rules it can reach goes. */
export interface TraceFocus {
  dst: string;
  dport: number;
  /** tcp, udp or sctp. */
  proto: string;
  /**
   * The slice read before for this text and packet, whose trace entered a chain it left out (`DeferredChain`): the
   * same slice with those chains read.
   */
  again?: TraceSlice;
}

/**
 * Per line of the text, 0 where the parser must read it; for a line it may skip, 1 + the number of the table
 * (in `tables`) the line is in: the parser checks it is in that table when it skips the line.
 */
export interface TraceSlice {
  skip: Uint8Array;
  /**
   * The last line of the stretch of skipped lines the line starts (lines of one table: a table's header and COMMIT
   * are read): the parser goes past them at once.
   */
  stretchEnd(line: number): number;
  tables: string[];
  /** Chains entered whose rules for other destinations are skipped (`chainKey`): see `unreachedRules`. */
  trimmed: ReadonlySet<string>;
  /** Chains the closure entered whose rules are left out until a trace enters them (`chainKey`): see `DEFER_MIN_RULES`. */
  deferred: ReadonlySet<string>;
  /** The same slice with the deferred chains read and followed: made when first asked for. */
  withDeferred?: TraceSlice;
  /**
   * About how many characters of rule lines the parser reads (those of the chains read, the chains left out until
   * a trace enters them included): its rule store is sized for them, not for every rule of a big dump.
   */
  ruleChars: number;
  /** The text sliced. */
  text: string;
}

/**
 * A trace entered a chain its slice left out (`TraceSlice.deferred`): the text is read again with it
 * (`TraceFocus.again`), as `traceText` does.
 */
export class DeferredChain extends Error {
  constructor(readonly slice: TraceSlice) {
    super('a chain the trace slice left out was entered');
  }
}

/** Dumps parsed for one trace only (`ParseOptions.traceFocus`), with their slice. */
const slicedDumps = new WeakMap<object, TraceSlice>();

export function markTraceSlice(dump: object, slice: TraceSlice): void {
  slicedDumps.set(dump, slice);
}

/**
 * Whether the dump was read for one trace only: good for that trace, not for its kube view or anything else.
 * The chains entered lack rules too: those no walker of that trace looks at.
 */
export function isTraceSlice(dump: object): boolean {
  return slicedDumps.has(dump);
}

/** The slice a dump was read with, if it was read for one trace only. */
export function traceSliceOf(dump: object): TraceSlice | undefined {
  return slicedDumps.get(dump);
}

/** How `TraceSlice.trimmed` and `.deferred` name a chain. */
export function chainKey(table: string, chain: string): string {
  return `${table}\u0000${chain}`;
}

/** Targets that neither jump nor change the destination: a rule with one leads nowhere else. */
const DESTINATION_KEEPING = new Set([
  ...STANDARD_TARGETS,
  'SNAT',
  'MASQUERADE',
  'MARK',
  'CONNMARK',
  'CONNSECMARK',
  'SECMARK',
  'LOG',
  'NFLOG',
  'ULOG',
  'REJECT',
  'CT',
  'NOTRACK',
  'CHECKSUM',
  'TRACE',
  'TCPMSS',
  'TOS',
  'DSCP',
  'TTL',
  'HL',
  'CLASSIFY',
  'SET',
  'AUDIT',
  'IDLETIMER',
  'LED',
  'RATEEST',
  'ECN',
  'TCPOPTSTRIP',
  'NOP',
]);

/**
 * The most destinations a sliced read follows (the packet's, and those DNATs wrote): a Service's endpoints are a
 * few; a packet that reaches thousands of DNATs (every NodePort) is traced on the whole text.
 */
const MAX_DESTINATIONS = 64;

/**
 * A chain the closure entered only through rules that ask whether the destination is the node's own
 * (`-m addrtype`: kube-proxy's KUBE-NODEPORTS, one rule per NodePort) is neither read nor followed when it has this
 * many rules or more: the trace of a Service's address seldom gets there (the Service's rule matched before), and
 * one that does throws `DeferredChain` and is made again with it read (`TraceSlice.withDeferred`).
 */
const DEFER_MIN_RULES = 64;

/** iptables' own targets (`STANDARD_TARGETS`, `EXTENSION_TARGETS`) by their length, compared with the text in place. */
const OWN_TARGETS_BY_LENGTH: string[][] = [];
for (const name of [...STANDARD_TARGETS, ...EXTENSION_TARGETS]) (OWN_TARGETS_BY_LENGTH[name.length] ??= []).push(name);

/** Whether text[at, end) names one of iptables' own targets. */
function isOwnTargetAt(text: string, at: number, end: number): boolean {
  const candidates = OWN_TARGETS_BY_LENGTH[end - at];
  if (candidates === undefined) return false;
  for (const name of candidates) if (text.startsWith(name, at)) return true;
  return false;
}

/** The tracer's port modules (`PORT_MODULES`), compared with the text in place. */
const PORT_MODULE_NAMES = [...PORT_MODULES];

const HOOK_CHAINS = ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'];
/** The longest name of a hook chain (POSTROUTING) and of a built-in chain. */
const HOOK_NAME_MAX = 11;

/**
 * A rule line the parser reads without a problem a trace reports, as one pattern (V8 runs it as machine code; a
 * loop over the characters in JavaScript cost twice as much). Words are separated by one space; a word is plain
 * (no quote, backslash, `!`, control or non-ASCII character) or a value in double quotes without those inside.
 * Every option is followed by as many values as the parser gives it (values never start with `-` or `!`), at most
 * one `-j`/`-g`, no `-c`, and a `!` only right before an option (not `-m`, `-j`) or a value (`--dport ! 80`):
 * what `readRuleBody` reads without an error. See `optionSpellings` for how each option word is told.
 */
export function cleanRulesPattern(): RegExp {
  return new RegExp(typeof KPP_CLEAN_RULES_SOURCE === 'string' ? KPP_CLEAN_RULES_SOURCE : cleanRulesSource(), 'y');
}

/**
 * `cleanRulesSource()` as the build made it (scripts/build.mjs defines it in the bundles): building it from the option
 * tables here is a seventh of the slice's work on a small dump (15M instructions, ~5 ms, of a 500-Service trace);
 * under tsx, built here.
 */
declare const KPP_CLEAN_RULES_SOURCE: string | undefined;

/** The source of `cleanRulesPattern`, built from the option tables. */
export function cleanRulesSource(): string {
  const { flag, two, match, jump, special } = optionSpellings();
  const plain = '[(-\\[\\]-~]';
  const end = '(?=[ \\r\\n]|$)';
  // A value or an option word ends where the next item's blank or the line's end must follow: no lookahead (each
  // one costs on every word).
  const value = `(?:[(-,.-\\[\\]-~]${plain}*|"[ !#-&(-\\[\\]-~]*")`;
  const oneOf = (words: string[]) => `${wordAlternation(words)}${end}`;
  const option = `(?:-[A-Za-z]|--[A-Za-z0-9])${plain}*`;
  const regular = `(?!${oneOf(special)})${option}`;
  // The likeliest first (the language is the same in any order: every line must match whole).
  const item =
    `(?: ${oneOf(match)} ${value}` +
    `| (?:! )?${regular} (?:! )?${value}` +
    `| (?:! )?${oneOf(flag)}` +
    `| (?:! )?${oneOf(two)} (?:! )?${value} ${value})`;
  const body = `${item}*(?: ${oneOf(jump)} ${value}${item}*)?`;
  // A line's body after its `-A CHAIN`: on the first line right after it (the look behind holds nowhere else: a body
  // has no line break), on the next lines after the same chain (\\1); each line whole. The body written once: V8
  // compiles the pattern on each process's first sliced trace, in half the time of one with the body twice.
  const lineStart = `(?:(?<=(?:^|\\n)-A \\1)|\\r?\\n-A \\1)`;
  // At most MAX_LINES_MATCHED lines a match (the next match goes on): V8 keeps a place to go back to for every
  // line of a match, and grows that stack by copying it (iptables-save lists KUBE-SERVICES' 10k rules in one run).
  return `-A ([A-Za-z0-9_]${plain}*)(?:${lineStart}${body}){1,${MAX_LINES_MATCHED}}(?=[\\r\\n]|$)`;
}

/**
 * A pattern matching exactly `words`, as a tree of their common beginnings (`-(?:-(?:a|b)|c)`), a name written
 * with one dash and with two (`-match`, `--match`) once after `--?`: V8 compiles the clean-line pattern, whose
 * option lists are hundreds of words, on each process's first sliced trace, and compiles and runs it so written in
 * less time than with the words listed one by one (the same language: which lines are clean does not change).
 */
export function wordAlternation(words: readonly string[]): string {
  const rest = new Set(words);
  const both: string[] = [];
  for (const w of words)
    if (w.startsWith('--') && rest.has(w.slice(1))) {
      both.push(w.slice(2));
      rest.delete(w);
      rest.delete(w.slice(1));
    }
  const parts: string[] = [];
  if (both.length > 0) parts.push(`--?${asGroup(prefixTree(both))}`);
  if (rest.size > 0) parts.push(prefixTree([...rest]));
  return parts.length === 1 ? asGroup(parts[0]) : `(?:${parts.join('|')})`;
}

interface PrefixNode {
  end: boolean;
  next: Map<string, PrefixNode>;
}

/** The words as a pattern that branches where they part (the empty word too). */
function prefixTree(words: readonly string[]): string {
  const root: PrefixNode = { end: false, next: new Map() };
  for (const w of words) {
    let node = root;
    for (const c of w) {
      let child = node.next.get(c);
      if (!child) node.next.set(c, (child = { end: false, next: new Map() }));
      node = child;
    }
    node.end = true;
  }
  const write = (node: PrefixNode): string => {
    const branches = [...node.next].map(([c, child]) => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&') + write(child));
    if (branches.length === 0) return '';
    const alternatives = branches.length === 1 ? branches[0] : `(?:${branches.join('|')})`;
    if (!node.end) return alternatives;
    return `${branches.length === 1 ? `(?:${alternatives})` : alternatives}?`;
  };
  return write(root);
}

/** A pattern as one item: in a group unless it is one already (or plain characters). */
function asGroup(pattern: string): string {
  return /^[A-Za-z0-9-]*$/.test(pattern) ? pattern : `(?:${pattern})`;
}

/**
 * The option words that are not a regular option with one value, sorted by how the parser reads them (the same
 * names and arities as `RuleStore.optionInfo`): any other option-shaped word takes one value.
 */
function optionSpellings(): { flag: string[]; two: string[]; match: string[]; jump: string[]; special: string[] } {
  const bare = new Set([...FLAG_OPTIONS, ...TWO_ARG_OPTIONS, ...Object.keys(OPTION_ALIASES)]);
  for (const n of ['m', 'match', 'j', 'jump', 'g', 'goto', 'c']) bare.add(n);
  const written = new Set(Object.keys(GENERIC_OPTION_NAMES));
  for (const n of bare) {
    written.add(`-${n}`);
    written.add(`--${n}`);
  }
  const out = { flag: [] as string[], two: [] as string[], match: [] as string[], jump: [] as string[] };
  const special: string[] = [];
  for (const w of written) {
    // `-4` and `-6` are left to the parser: they are the family options where an option may start, values after
    // an option that takes one (such a line is not clean).
    if (!/^--?[A-Za-z][A-Za-z0-9-]*$/.test(w)) continue;
    const canonical = canonicalOptionName(w);
    const arity = optionArity(canonical);
    let group: string[] | undefined;
    if (canonical === 'match' || canonical === 'm') group = out.match;
    else if (canonical === 'jump' || canonical === 'j' || canonical === 'goto' || canonical === 'g') group = out.jump;
    else if (canonical === 'set-counters' || w === '-c') group = undefined;
    else if (arity === 0) group = out.flag;
    else if (arity === 2) group = out.two;
    else continue;
    group?.push(w);
    special.push(w);
  }
  // A rule command after the rule's own (`-A X -p tcp -A Y -j Z`) is no option: the parser reports a second rule
  // command on the line, so such a line is not clean (the error counts in the trace's warning).
  special.push(...RULE_CHANGING_COMMANDS);
  // Sorted, so that every process compiles the same pattern (the order changes nothing of what matches).
  for (const list of [out.flag, out.two, out.match, out.jump, special]) list.sort((a, b) => b.length - a.length);
  return { ...out, special };
}

let cleanRules: RegExp | undefined;

/**
 * The start of a rule line the pattern did not prove clean, whose chain the parser reads as this reader does: a
 * plain word, then one blank at most (a wide gap would glue the next word to it, as a terminal's wrap).
 */
const PLAIN_CHAIN = /-A [A-Za-z0-9_][(-[\]-~]*(?: (?![ \t])|(?=[\r\n]|$))/y;

/**
 * Runs of rule lines of one chain, in line order: a chain's rules are its runs'. A run whose chain made the last run
 * of its bucket is linked to that one instead of being listed in the bucket itself: KUBE-SERVICES' 10k runs in a
 * kube-proxy restore input make a few lists, found by comparing its name a few times rather than 10k times.
 */
class RuleRuns {
  count = 0;
  first: Int32Array;
  last: Int32Array;
  /** Where the chain's name is in the text, and its table's number. */
  nameAt: Int32Array;
  nameLength: Int32Array;
  table: Int32Array;
  /** 1 when the parser reads the run (its chain is entered, or its lines are needed otherwise): see `markRead`. */
  read: Uint8Array;
  /** The runs marked read, in the order they were: a slice looks at those, not at a big dump's 74k runs. */
  readList: number[] = [];
  /** The runs whose last line is a rule not proven clean. */
  readonly uncleanRuns: number[] = [];
  /** The runs of chains whose name is as short as a hook chain's (`HOOK_NAME_MAX`): the closure starts from those. */
  readonly shortNamed: number[] = [];
  /** The last line `indexRuleLines` read, when a clean rule (-1: none): the next line decides whether it ends there. */
  openRule = -1;
  /**
   * Runs by a hash of their chain's name: the last run linked of each bucket, and per run the one before it in the
   * bucket (runs linked to another by `sameBefore` are not listed in it). Linked when a chain is first looked up
   * (`link`), not as each run is added: the walk that adds them then hashes no name.
   */
  private buckets: Int32Array;
  private before = new Int32Array(0);
  /** The run of the same chain this run was linked after, when that was the last run of the bucket (-1: none). */
  private sameBefore = new Int32Array(0);
  /** Each run's `keyOf` its table and name. */
  private keys = new Int32Array(0);
  /** How many runs are linked (the first ones). */
  private linked = 0;

  constructor(
    private readonly text: string,
    lineCount: number,
  ) {
    // Few buckets for the runs (a few per bucket): every run writes one, and a table that stays in the cache costs
    // less than short bucket lists (looked up only for the chains a trace enters).
    let size = 1024;
    while (size * 16 < lineCount) size *= 2;
    this.buckets = new Int32Array(size).fill(-1);
    // Room for a run per two lines (kube-proxy's dumps have one per three): a big dump's columns are not grown and
    // copied five times over; a dump of more runs grows them.
    const room = Math.max(1024, lineCount >> 1);
    this.first = new Int32Array(room);
    this.last = new Int32Array(room);
    this.nameAt = new Int32Array(room);
    this.nameLength = new Int32Array(room);
    this.table = new Int32Array(room);
    this.read = new Uint8Array(room);
  }

  add(first: number, last: number, nameAt: number, nameLength: number, table: number): void {
    const k = this.count++;
    if (k === this.first.length) {
      this.first = grownColumn(this.first, this.first.length * 2);
      this.last = grownColumn(this.last, this.last.length * 2);
      this.nameAt = grownColumn(this.nameAt, this.nameAt.length * 2);
      this.nameLength = grownColumn(this.nameLength, this.nameLength.length * 2);
      this.table = grownColumn(this.table, this.table.length * 2);
      const read = new Uint8Array(k * 2);
      read.set(this.read);
      this.read = read;
    }
    if (nameLength <= HOOK_NAME_MAX) this.shortNamed.push(k);
    this.first[k] = first;
    this.last[k] = last;
    this.nameAt[k] = nameAt;
    this.nameLength[k] = nameLength;
    this.table[k] = table;
  }

  /** Links the runs added since the last call into their buckets, in the order they were added. */
  private link(): void {
    const count = this.count;
    if (this.keys.length < count) {
      this.keys = grownColumn(this.keys, count);
      this.before = grownColumn(this.before, count);
      this.sameBefore = grownColumn(this.sameBefore, count);
    }
    const { text, keys, before, sameBefore, nameAt, nameLength, buckets } = this;
    const tables = this.table;
    const mask = buckets.length - 1;
    for (let k = this.linked; k < count; k++) {
      const at = nameAt[k];
      const length = nameLength[k];
      const table = tables[k];
      const key = keyOf(table, nameHash(text, at, length)) | 0;
      const head = buckets[key & mask];
      keys[k] = key;
      buckets[key & mask] = k;
      if (
        head >= 0 &&
        keys[head] === key &&
        nameLength[head] === length &&
        tables[head] === table &&
        sameText(text, nameAt[head], at, length)
      ) {
        sameBefore[k] = head;
        before[k] = before[head];
      } else {
        sameBefore[k] = -1;
        before[k] = head;
      }
    }
    this.linked = count;
  }

  markRead(k: number): void {
    if (this.read[k]) return;
    this.read[k] = 1;
    this.readList.push(k);
  }

  /** No run read: the same index serves a second slice (`withDeferred`). */
  clearRead(): void {
    this.read.fill(0);
    this.readList = [];
  }

  name(k: number): string {
    return this.text.slice(this.nameAt[k], this.nameAt[k] + this.nameLength[k]);
  }

  /** The runs of chain `name` of table `table`, in line order. */
  of(table: number, name: string): number[] {
    if (this.linked < this.count) this.link();
    const out: number[] = [];
    const length = name.length;
    const key = keyOf(table, nameHash(name, 0, length)) | 0;
    const { before, sameBefore, keys, nameLength, nameAt, text } = this;
    const tables = this.table;
    for (let k = this.buckets[key & (this.buckets.length - 1)]; k >= 0; k = before[k])
      if (keys[k] === key && nameLength[k] === length && tables[k] === table && text.startsWith(name, nameAt[k]))
        for (let r = k; r >= 0; r = sameBefore[r]) out.push(r);
    return out.reverse();
  }
}

/** Whether text[a, a + length) and text[b, b + length) are the same characters. */
function sameText(text: string, a: number, b: number, length: number): boolean {
  let i = length - 1;
  while (i >= 0 && text.charCodeAt(a + i) === text.charCodeAt(b + i)) i--;
  return i < 0;
}

interface TextIndex {
  tables: string[];
  runs: RuleRuns;
  /** Runs of declaration lines: first and last line, table number. */
  declarations: { first: number; last: number; table: number }[];
  /** Per line: for a rule line proven clean, 1 + the number of its table (as `TraceSlice.skip` marks it); else 0. */
  clean: Uint8Array;
}

/**
 * One walk over the lines (lineWalk.ts): tables, runs of declarations, runs of rule lines of one chain, and which
 * rule lines are clean. A run of clean lines of one chain is one match of a pattern (V8 runs it as machine code);
 * JavaScript looks at each run, not at each line.
 */
function indexLines(lines: LineIndex): TextIndex | undefined {
  // Compiled on the first match, straight to machine code (V8 skips its interpreter for a long subject).
  const rules = (cleanRules ??= cleanRulesPattern());
  const runs = new RuleRuns(lines.text, lines.count);
  const declarations: TextIndex['declarations'] = [];
  const tables: string[] = [];
  const clean = new Uint8Array(lines.count);
  const read = walkDumpLines(
    lines,
    {
      ruleLines: (li, table) => indexRuleLines(lines, li, table, rules, runs, clean),
      declarations: (first, last, table) => {
        declarations.push({ first, last, table });
        return true;
      },
      otherLine: (li, afterRules) => {
        // A rule ends where the next line starts a rule, a declaration, a table or its COMMIT, or is blank: a line
        // that could be its wrapped rest (a comment, anything else) leaves the rule unproven.
        if (afterRules && runs.openRule >= 0) {
          clean[runs.openRule] = 0;
          runs.uncleanRuns.push(runs.count - 1);
        }
        // `# Generated by ...`, `# Completed on ...`: the parser reads comments; anything else is no plain dump.
        return lines.text.charCodeAt(lines.contentStart[li]) === 35;
      },
    },
    tables,
  );
  return read ? { tables, runs, declarations, clean } : undefined;
}

/**
 * Indexes the rule lines from `li` on (its content starts with `-`) up to the first line that is no rule line:
 * returns that line, or -1 when a line is no rule this reader follows. Its own function: V8 optimises this hot loop
 * soon and for good, apart from the rare lines of the outer one.
 */
function indexRuleLines(
  lines: LineIndex,
  li: number,
  table: number,
  rules: RegExp,
  runs: RuleRuns,
  clean: Uint8Array,
): number {
  const { text, contentStart, contentEnd, count } = lines;
  runs.openRule = -1;
  for (; li < count; li++) {
    const cs = contentStart[li];
    const ce = contentEnd[li];
    if (cs === ce || text.charCodeAt(cs) !== 45) return li;
    // `-A CHAIN ...`
    if (text.charCodeAt(cs + 1) !== 65 || text.charCodeAt(cs + 2) !== 32) return -1;
    // The chain's name: up to its blank, or the line's end.
    let nameEnd = text.indexOf(' ', cs + 3);
    if (nameEnd < 0 || nameEnd > ce) nameEnd = ce;
    let last = cleanRunEnd(lines, li, rules);
    if (last === PART_OF_LINE) return -1;
    if (last !== NO_MATCH) {
      // A loop: a run is a line or three, fewer than a call to fill is worth.
      for (let l = li; l <= last; l++) clean[l] = table + 1;
      runs.openRule = last;
    } else {
      last = li;
      PLAIN_CHAIN.lastIndex = cs;
      if (!PLAIN_CHAIN.test(text)) return -1;
      runs.openRule = -1;
    }
    runs.add(li, last, cs + 3, nameEnd - cs - 3, table);
    if (runs.openRule < 0) runs.uncleanRuns.push(runs.count - 1);
    li = last;
  }
  return count;
}

/**
 * Names by table, found by a hash of their characters: a declaration is looked up without a string of its own.
 * `flags` keeps a few bits per name.
 */
class NameSet {
  readonly names: string[] = [];
  readonly tables: number[] = [];
  readonly flags: number[] = [];
  private slots = new Int32Array(1024);

  /** The name's number, added (with flags 0) when missing. */
  add(table: number, name: string): number {
    const found = this.find(table, name, 0, name.length);
    if (found >= 0) return found;
    const k = this.names.length;
    this.names.push(name);
    this.tables.push(table);
    this.flags.push(0);
    if (k * 4 >= this.slots.length) this.rehash();
    this.put(k);
    return k;
  }

  find(table: number, source: string, at: number, length: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let slot = keyOf(table, nameHash(source, at, length)) & mask; ; slot = (slot + 1) & mask) {
      const k = slots[slot] - 1;
      if (k < 0) return -1;
      const name = this.names[k];
      if (this.tables[k] !== table || name.length !== length) continue;
      let i = length - 1;
      while (i >= 0 && source.charCodeAt(at + i) === name.charCodeAt(i)) i--;
      if (i < 0) return k;
    }
  }

  private put(k: number): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    let slot = keyOf(this.tables[k], nameHash(this.names[k], 0, this.names[k].length)) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = k + 1;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let k = 0; k < this.names.length; k++) this.put(k);
  }
}

function keyOf(table: number, hash: number): number {
  return (hash ^ Math.imul(table + 1, 0x9e3779b1)) >>> 0;
}

/** NameSet flags. */
const NEEDED = 1;
/** A jump's target the closure took for a chain: some chain must have that name (declared, or with rules). */
const JUMPED_TO = 2;
/** A target the closure took for iptables' own (DNAT, ACCEPT, ...): no chain may have that name. */
const BUILTIN_TARGET = 4;
const DECLARED = 8;
/** A chain the closure entered. */
const ENTERED = 16;
/** A chain the closure entered from a hook or through a rule without `-m addrtype` (see DEFER_MIN_RULES). */
const ENTERED_PLAINLY = 32;

/** Lines a trace of `focus` needs (see the module's comment), or undefined when the whole text must be read. */
export function traceSlice(lines: LineIndex, focus: TraceFocus): TraceSlice | undefined {
  if (focus.again) return focus.again.text === lines.text ? focus.again.withDeferred : undefined;
  const dst = parseIp(focus.dst);
  if (!dst || !Number.isInteger(focus.dport) || !namesDestination(lines.text, focus.dst, focus.dport)) return undefined;
  const index = indexLines(lines);
  if (!index) return undefined;
  return sliceOf(lines, index, dst, focus, true);
}

/**
 * The slice of an indexed text for the packet; with `postpone`, the long chains entered only through `-m addrtype`
 * rules are left out, their rules not even followed, and the slice that reads them is made if a trace asks for it
 * (`TraceSlice.withDeferred`).
 */
function sliceOf(
  lines: LineIndex,
  index: TextIndex,
  dst: IpAddress,
  focus: TraceFocus,
  postpone: boolean,
): TraceSlice | undefined {
  const text = lines.text;
  const { runs, clean, tables } = index;
  runs.clearRead();
  const names = new NameSet();
  // No DNAT the packet can meet: `traceText` wants every rule for the hints of such a trace (they name Services).
  const closure = followChains(lines, index, names, dst, focus, postpone);
  if (closure.followed !== Followed.ToDnat) return undefined;
  // The parser takes the dump's address family from its first rule with an address: the rules up to it are read.
  const familyLine = familyDecidingLine(lines, index);
  const { first, last, read, count: runCount } = runs;
  // A rule line read in a chain not entered (not proven clean, or up to that rule): its chain's declaration too.
  const needed = (k: number) => {
    if (!read[k]) names.flags[names.add(runs.table[k], runs.name(k))] |= NEEDED;
  };
  for (const k of runs.uncleanRuns) needed(k);
  // Every rule line proven clean, but those up to the family's line and those of the runs read (below).
  const skip = clean.slice();
  for (let k = 0; k < runCount && first[k] <= familyLine; k++) {
    needed(k);
    skip.fill(0, first[k], Math.min(last[k], familyLine) + 1);
  }
  if (!markDeclarations(lines, index, names, skip)) return undefined;
  // The chains left out: their rules stay unread (but those up to the family's line) until a trace enters them.
  const deferred = new Set<string>();
  for (const k of closure.postponed) {
    // A chain only its rules make (no declaration) would be missing, not empty, without them; a rule this reader
    // could not prove clean is one the closure cannot judge.
    if (!(names.flags[k] & DECLARED)) return undefined;
    for (const r of runs.of(names.tables[k], names.names[k]))
      if (clean.subarray(first[r], last[r] + 1).includes(0)) return undefined;
    deferred.add(chainKey(tables[names.tables[k]], names.names[k]));
  }
  // A chain jumped to that was not declared: its rules make it (the parser reads one to make it as it does), or it
  // is no chain and the jump is one the closure does not know.
  for (let k = 0; k < names.names.length; k++) {
    if (!(names.flags[k] & JUMPED_TO) || names.flags[k] & DECLARED) continue;
    const own = runs.of(names.tables[k], names.names[k]);
    if (own.length === 0) return undefined;
    for (const r of own) runs.markRead(r);
  }
  let ruleChars = 0;
  for (const k of runs.readList) {
    skip.fill(0, first[k], last[k] + 1);
    ruleChars += lines.contentEnd[last[k]] - lines.contentStart[first[k]];
  }
  const trimmed = unreachedRules(closure, tables, names, skip, familyLine);
  const slice: TraceSlice = { skip, stretchEnd: stretchEnds(skip), tables, trimmed, deferred, ruleChars, text };
  if (deferred.size === 0) return slice;
  let whole: TraceSlice | undefined;
  // Made once, when a trace enters a chain left out: the closure again, following every chain.
  return Object.defineProperty(slice, 'withDeferred', {
    get: () => (whole ??= sliceOf(lines, index, dst, focus, false)),
  });
}

/**
 * Skips every declaration but those of names the closure knows (flags DECLARED) and of built-in chains (no longer
 * name: they are declared with their policy, which the trace reads); those of NEEDED names are read. False when a
 * target the closure took for iptables' own is declared as a chain. The 60k names of a big dump are told apart from
 * the known ones by their length and last characters first. Its own function: V8 optimises this loop alone.
 */
function markDeclarations(lines: LineIndex, index: TextIndex, names: NameSet, skip: Uint8Array): boolean {
  const text = lines.text;
  const maybeKnown = new Uint8Array(NAME_FILTER_SIZE);
  for (const name of names.names) maybeKnown[nameFilterKey(name, 0, name.length)] = 1;
  for (const d of index.declarations) {
    skip.fill(d.table + 1, d.first, d.last + 1);
    for (let li = d.first; li <= d.last; li++) {
      const at = lines.contentStart[li] + 1;
      const length = text.indexOf(' ', at) - at;
      if (length <= HOOK_NAME_MAX) skip[li] = 0;
      if (!maybeKnown[nameFilterKey(text, at, length)]) continue;
      const k = names.find(d.table, text, at, length);
      if (k < 0) continue;
      names.flags[k] |= DECLARED;
      if (names.flags[k] & BUILTIN_TARGET) return false;
      if (names.flags[k] & NEEDED) skip[li] = 0;
    }
  }
  return true;
}

/** `TraceSlice.stretchEnd` of `skip`. */
function stretchEnds(skip: Uint8Array): (line: number) => number {
  return (line) => {
    const next = skip.indexOf(0, line);
    return next < 0 ? skip.length - 1 : next - 1;
  };
}

/** Slots of the filter of names the closure knows (`nameFilterKey`). */
const NAME_FILTER_SIZE = 1 << 16;

/**
 * A name's length and last three characters, mixed into a number below NAME_FILTER_SIZE: kube-proxy's 60k chain
 * names are of a few lengths, and their last character alone let thousands through to a lookup by their whole name.
 */
function nameFilterKey(source: string, at: number, length: number): number {
  let key = Math.imul(length, 0x9e3779b1);
  for (let i = Math.max(0, length - 3); i < length; i++) key = Math.imul(key ^ source.charCodeAt(at + i), 0x01000193);
  return (key ^ (key >>> 16)) & (NAME_FILTER_SIZE - 1);
}

/**
 * Whether a rule names the address as its destination (`-d 10.96.0.1` or `-d 10.96.0.1/32`) and the port as its
 * destination port, if it names one (`--dport 80`): a Service's rule does. A trace to another address (a pod, a
 * node's NodePort) or to a port the Service does not have seldom meets a DNAT, and then is traced on every rule
 * anyway (`traceText`): the text is read whole at once, without an index made for nothing. Only a guess at what
 * the closure finds: the answer is the whole text's either way.
 */
function namesDestination(text: string, address: string, port: number): boolean {
  const word = `-d ${address}`;
  const dport = ` --dport ${port} `;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) {
    const next = text.charCodeAt(at + word.length);
    if (next !== 32 && next !== 47 && next !== 10 && next !== 13 && !Number.isNaN(next)) continue;
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = text.length;
    // The line's words after the address, with a blank at each end (a carriage return is a blank too).
    const rest = `${text.slice(at + word.length, lineEnd).replace('\r', ' ')} `;
    if (!rest.includes(' --dport ') || rest.includes(dport)) return true;
  }
  return false;
}

/**
 * The line of the first rule the parser takes the dump's address family from (its first `-s` or `-d` with a
 * value, before the target), or the last rule line when no clean rule is proven to be that one.
 */
function familyDecidingLine(lines: LineIndex, index: TextIndex): number {
  const { runs, clean } = index;
  const facts = new RuleFacts();
  for (let k = 0; k < runs.count; k++)
    for (let li = runs.first[k]; li <= runs.last[k]; li++)
      if (clean[li] && readRuleWords(lines.text, lines.contentStart[li], lines.contentEnd[li], facts).address)
        return li;
  return runs.count > 0 ? runs.last[runs.count - 1] : -1;
}

/**
 * FNV-1a of every character of the name `source[at, at + length)`. A hash of a few characters (length, ends,
 * middle) let names that differ elsewhere share a bucket, and 20k such chains took 21 s to look up.
 */
function nameHash(source: string, at: number, length: number): number {
  let hash = FNV_OFFSET;
  for (let i = at, end = at + length; i < end; i++) hash = Math.imul(hash ^ source.charCodeAt(i), FNV_PRIME);
  return hash;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** What the closure reads of a clean rule line (`readRuleWords`); a reader reuses its own record for every line. */
class RuleFacts {
  /** Offsets into the text of the values (-1: absent). */
  targetAt = -1;
  targetEnd = -1;
  protocolAt = -1;
  protocolEnd = -1;
  destinationAt = -1;
  destinationEnd = -1;
  dportAt = -1;
  dportEnd = -1;
  toDestinationAt = -1;
  toDestinationEnd = -1;
  /** A condition negated, given twice, after the target, or a port of a module that is no port module. */
  unprunable = false;
  /** `--to-destination` given more than once (old iptables spread connections over them). */
  toDestinations = 0;
  /** A generic `-s`/`-d` with a value before the target (the parser's `decideFamily` takes such a rule). */
  address = false;
  /** The destination's value was written in quotes. */
  quotedDestination = false;
  /** The rule loads `-m addrtype`. */
  addrtype = false;
}

const enum Reading {
  Other,
  Match,
  Jump,
  Protocol,
  Destination,
  Source,
  DestinationPort,
  ToDestination,
}

/** What each option word written in a rule means here (a few spellings in any dump). */
const readings = new Map<string, Reading>();

function readingOf(word: string): Reading {
  let reading = readings.get(word);
  if (reading === undefined) {
    const canonical = canonicalOptionName(word);
    reading =
      canonical === 'm' || canonical === 'match'
        ? Reading.Match
        : canonical === 'j' || canonical === 'jump' || canonical === 'g' || canonical === 'goto'
          ? Reading.Jump
          : canonical === 'protocol'
            ? Reading.Protocol
            : canonical === 'destination'
              ? Reading.Destination
              : canonical === 'source'
                ? Reading.Source
                : canonical === 'dport'
                  ? Reading.DestinationPort
                  : canonical === 'to-destination'
                    ? Reading.ToDestination
                    : Reading.Other;
    if (readings.size < 4096) readings.set(word, reading);
  }
  return reading;
}

/** How `-X` reads (the generic and command options of one letter), or -1 to look it up. */
function shortReading(letter: number): Reading | -1 {
  switch (letter) {
    case 109: // m
      return Reading.Match;
    case 106: // j
    case 103: // g
      return Reading.Jump;
    case 112: // p
      return Reading.Protocol;
    case 100: // d
      return Reading.Destination;
    case 115: // s
      return Reading.Source;
    default:
      return -1;
  }
}

/**
 * A clean rule line of kube-proxy's Service rules (`-A KUBE-SERVICES -m comment --comment "ns/svc:port cluster IP"
 * -m tcp -p tcp -d 10.96.0.1 --dport 80 -j KUBE-SVC-...`), as `readRuleWords` reads it word by word: one comment,
 * a port module (`portModule`), then protocol, destination, port and target, each once, none negated or quoted.
 */
const SERVICE_RULE = new RegExp(
  `-A [^ \r\n]+ -m comment --comment (?:"[^"\r\n]*"|[^ "\r\n]+) -m (?:${PORT_MODULE_NAMES.join('|')}) ` +
    `-p [^ "\r\n]+ -d [^ "!\r\n-][^ "\r\n]* --dport [^ "\r\n]+ -j [^ "\r\n]+`,
  'y',
);

/**
 * Reads the words of a clean rule line [cs, ce) into `facts`. In a clean line words are one space apart, quotes
 * are around whole values only, and a word starting with `-` is an option (values never do): an option's values
 * are the words up to the next option, without a `!`.
 */
function readRuleWords(text: string, cs: number, ce: number, facts: RuleFacts): RuleFacts {
  facts.targetAt = -1;
  facts.protocolAt = -1;
  facts.destinationAt = -1;
  facts.dportAt = -1;
  facts.toDestinationAt = -1;
  facts.unprunable = false;
  facts.toDestinations = 0;
  facts.address = false;
  facts.quotedDestination = false;
  facts.addrtype = false;
  // kube-proxy's Service rule, nine words in one order: read by one pattern and four searches from the line's end
  // (KUBE-SERVICES has 10k of them, mostly read before V8 optimises the loop below).
  SERVICE_RULE.lastIndex = cs;
  if (SERVICE_RULE.test(text) && SERVICE_RULE.lastIndex === ce) {
    facts.targetAt = text.lastIndexOf(' -j ', ce) + 4;
    facts.targetEnd = ce;
    facts.dportAt = text.lastIndexOf(' --dport ', facts.targetAt) + 9;
    facts.dportEnd = facts.targetAt - 4;
    facts.destinationAt = text.lastIndexOf(' -d ', facts.dportAt) + 4;
    facts.destinationEnd = facts.dportAt - 9;
    facts.protocolAt = text.lastIndexOf(' -p ', facts.destinationAt) + 4;
    facts.protocolEnd = facts.destinationAt - 4;
    facts.address = true;
    return facts;
  }
  let moduleAt = -1;
  let moduleEnd = -1;
  let inTarget = false;
  let negated = false;
  let reading: Reading | -1 = Reading.Other;
  /** Values read of the current option. */
  let values = 0;
  // Past `-A CHAIN `.
  let i = text.indexOf(' ', cs + 3) + 1;
  if (i === 0 || i > ce) return facts;
  while (i < ce) {
    const c = text.charCodeAt(i);
    let end: number;
    if (c === 34) end = text.indexOf('"', i + 1) + 1;
    else {
      end = text.indexOf(' ', i);
      if (end < 0 || end > ce) end = ce;
    }
    if (c === 45) {
      reading = end - i === 2 ? shortReading(text.charCodeAt(i + 1)) : -1;
      // Every kube-proxy rule has a comment; the rest of the spellings are few and looked up once each.
      if (reading < 0)
        reading = text.startsWith('--comment ', i)
          ? Reading.Other
          : end - i === 7 && text.startsWith('--dport', i)
            ? Reading.DestinationPort
            : readingOf(text.slice(i, end));
      values = 0;
    } else if (c === 33 && end === i + 1) negated = true;
    else if (values++ === 0) {
      // An option's first value; quotes left out.
      const at = c === 34 ? i + 1 : i;
      const valueEnd = c === 34 ? end - 1 : end;
      const prunable = !negated && !inTarget;
      negated = false;
      switch (reading) {
        case Reading.Match:
          moduleAt = at;
          moduleEnd = valueEnd;
          if (valueEnd - at === 8 && text.startsWith('addrtype', at)) facts.addrtype = true;
          break;
        case Reading.Jump:
          facts.targetAt = at;
          facts.targetEnd = valueEnd;
          inTarget = true;
          break;
        case Reading.Protocol:
          if (facts.protocolAt >= 0 || !prunable) facts.unprunable = true;
          facts.protocolAt = at;
          facts.protocolEnd = valueEnd;
          break;
        case Reading.Destination:
          if (facts.destinationAt >= 0 || !prunable) facts.unprunable = true;
          facts.destinationAt = at;
          facts.destinationEnd = valueEnd;
          facts.quotedDestination = c === 34;
          if (!inTarget && valueEnd > at) facts.address = true;
          break;
        case Reading.Source:
          if (!inTarget && valueEnd > at) facts.address = true;
          break;
        case Reading.DestinationPort:
          if (facts.dportAt >= 0 || !prunable || !portModule(text, moduleAt, moduleEnd, facts)) facts.unprunable = true;
          facts.dportAt = at;
          facts.dportEnd = valueEnd;
          break;
        case Reading.ToDestination:
          facts.toDestinations++;
          facts.toDestinationAt = at;
          facts.toDestinationEnd = valueEnd;
          break;
      }
    }
    i = end + 1;
  }
  return facts;
}

/** `--dport` is the packet's destination port: after `-m tcp` (a port module), or after `-p tcp` without a module. */
function portModule(text: string, moduleAt: number, moduleEnd: number, f: RuleFacts): boolean {
  if (moduleAt >= 0) return isPortModuleAt(text, moduleAt, moduleEnd);
  return f.protocolAt >= 0 && isPortModuleAt(text, f.protocolAt, f.protocolEnd);
}

function isPortModuleAt(text: string, at: number, end: number): boolean {
  for (const name of PORT_MODULE_NAMES) if (name.length === end - at && text.startsWith(name, at)) return true;
  return false;
}

/** What following the jumps found. */
const enum Followed {
  /** A chain entered holds a rule this reader cannot judge. */
  Unsure,
  NoDnat,
  ToDnat,
}

/** What `followChains` found, beside the chains it marked. */
interface Closure {
  followed: Followed;
  /** The destinations a walker of the trace can have: the packet's, and those the DNATs met write. */
  destinations: IpAddress[];
  /**
   * Rules of chains entered that the tracer's destination index files under one host (`destinationHost`), three
   * numbers each: line, chain (its number in `names`), host (as `plainIPv4HostAt` reads it). See `unreachedRules`.
   */
  hosted: number[];
  /**
   * Long chains entered only through `-m addrtype` rules whose rules were not read (`DEFER_MIN_RULES`), as numbers
   * in `names`: their targets are not followed until a trace enters them.
   */
  postponed: number[];
}

/**
 * Follows the jumps a trace of the packet can take from the hook chains, marking the runs of the chains entered
 * `read` and recording in `names` the chains jumped to and the targets taken for iptables' own. Grows the packet's
 * possible destinations and ports with the DNAT rules it meets (protocol permitting). With `postpone`, a long chain
 * entered only through `-m addrtype` rules is not followed (`Closure.postponed`).
 */
function followChains(
  lines: LineIndex,
  index: TextIndex,
  names: NameSet,
  dst: IpAddress,
  focus: TraceFocus,
  postpone: boolean,
): Closure {
  const { runs, tables } = index;
  const follower = new ChainFollower(lines, index, names, dst, focus);
  // Every hook chain, and what kube-proxy's restore input implies they jump to when it leaves them out.
  for (const k of runs.shortNamed) {
    const table = runs.table[k];
    const name = runs.name(k);
    if (isBuiltinChain(tables[table], name) || HOOK_CHAINS.includes(name)) follower.enter(table, name, false);
  }
  for (let t = 0; t < tables.length; t++)
    for (const name of HOOK_CHAINS) for (const j of impliedJumps(tables[t], name)) follower.enter(t, j.target, false);
  const { closure, queue } = follower;
  const postponed = closure.postponed;
  for (;;) {
    while (queue.length) {
      const chain = queue.pop()!;
      const table = names.tables[chain];
      const own = runs.of(table, names.names[chain]);
      let ruleCount = 0;
      for (const r of own) ruleCount += runs.last[r] - runs.first[r] + 1;
      // KUBE-NODEPORTS: left out, its rules unread, unless a rule without `-m addrtype` enters it too (below).
      if (postpone && ruleCount >= DEFER_MIN_RULES && !(names.flags[chain] & ENTERED_PLAINLY)) {
        postponed.push(chain);
        continue;
      }
      if (!follower.followRuns(own, table, chain, ruleCount)) return closure;
    }
    // A chain left out that a plain rule entered since is followed after all.
    for (let p = postponed.length - 1; p >= 0; p--)
      if (names.flags[postponed[p]] & ENTERED_PLAINLY) queue.push(...postponed.splice(p, 1));
    if (queue.length) continue;
    // A destination or port a DNAT added may make a skipped rule match: look at those again.
    if (!follower.lookAgain()) {
      closure.followed = follower.dnat ? Followed.ToDnat : Followed.NoDnat;
      return closure;
    }
  }
}

/**
 * The state of `followChains`, with the work on each rule in small methods: V8 optimises those after a few of
 * KUBE-SERVICES' 10k rules, where the one loop over them all, in one large function, ran unoptimised to its end.
 */
class ChainFollower {
  readonly closure: Closure;
  /** Chains entered, as numbers in `names` (flag ENTERED), not followed yet. */
  readonly queue: number[] = [];
  /** A DNAT rule in a chain entered (one that may match). */
  dnat = false;
  private readonly text: string;
  private readonly contentStart: Int32Array;
  private readonly contentEnd: Int32Array;
  private readonly clean: Uint8Array;
  private readonly runs: RuleRuns;
  private readonly proto: string;
  /** The IPv4 destinations as 32-bit numbers: kube-proxy's 10,000 Service rules are compared without a string each. */
  private readonly destinations4: number[];
  private readonly ports: Set<number>;
  private readonly facts = new RuleFacts();
  private readonly network = new Ipv4Network();
  /**
   * Rules skipped for their destination or port, five numbers each: line, table, port (-1: none), IPv4 network and
   * the bits after its prefix (-1: no IPv4 destination, -2: another destination, read again). Looked at again
   * when a DNAT adds a destination or port, in place (a rule then followed gets line -1: KUBE-SERVICES leaves 10k
   * here, not copied on each look); one skipped for its protocol stays skipped.
   */
  private readonly skipped: number[] = [];
  /** How many destinations and ports there were when the skipped rules were last looked at. */
  private seen = 1;
  /** Builtin targets met, by table, already checked to be no chain with rules. */
  private readonly targetsMet = new Set<string>();

  constructor(
    lines: LineIndex,
    index: TextIndex,
    private readonly names: NameSet,
    dst: IpAddress,
    focus: TraceFocus,
  ) {
    this.text = lines.text;
    this.contentStart = lines.contentStart;
    this.contentEnd = lines.contentEnd;
    this.clean = index.clean;
    this.runs = index.runs;
    this.proto = focus.proto;
    this.closure = { followed: Followed.Unsure, destinations: [dst], hosted: [], postponed: [] };
    this.destinations4 = dst.family === 4 ? [Number(dst.value) | 0] : [];
    this.ports = new Set<number>([focus.dport]);
  }

  /** `local`: through a rule that asks whether the destination is the node's (`DEFER_MIN_RULES`). */
  enter(table: number, name: string, jump = true, local = false): void {
    const names = this.names;
    const k = names.add(table, name);
    if (jump) names.flags[k] |= JUMPED_TO;
    if (!local) names.flags[k] |= ENTERED_PLAINLY;
    if (names.flags[k] & ENTERED) return;
    names.flags[k] |= ENTERED | NEEDED;
    this.queue.push(k);
  }

  /**
   * Follows the runs `own` of chain `chain` (`ruleCount` rules), marking them read; false when a rule is beyond this
   * reader. The loop over KUBE-SERVICES' 10k runs in a method of its own: V8 optimises it alone, not inside the
   * whole closure.
   */
  followRuns(own: readonly number[], table: number, chain: number, ruleCount: number): boolean {
    const runs = this.runs;
    // The tracer looks up a long chain's rules by destination (`candidateLookup`): see `unreachedRules`.
    const indexed = ruleCount >= INDEX_MIN_RULES;
    for (const r of own) {
      runs.markRead(r);
      if (!this.followLines(runs.first[r], runs.last[r], table, chain, indexed)) return false;
    }
    return true;
  }

  /** Follows the rule lines [first, last] of chain `chain`; false when one is beyond this reader. */
  followLines(first: number, last: number, table: number, chain: number, indexed: boolean): boolean {
    const clean = this.clean;
    for (let li = first; li <= last; li++) if (!clean[li] || !this.followRule(li, table, chain, indexed)) return false;
    return true;
  }

  private followRule(li: number, table: number, chain: number, indexed: boolean): boolean {
    const text = this.text;
    const f = readRuleWords(text, this.contentStart[li], this.contentEnd[li], this.facts);
    // The destination when it is one plain IPv4 host (kube-proxy's Service rules): read once.
    const host =
      !f.unprunable && f.destinationAt >= 0 && !f.quotedDestination
        ? plainIPv4HostAt(text, f.destinationAt, f.destinationEnd)
        : -1;
    if (indexed && host >= 0) this.closure.hosted.push(li, chain, host);
    // A rule whose protocol, destination or port the packet cannot have does not match, whatever its target (the
    // tracer decides such a condition before it looks at the target).
    if (f.targetAt < 0 || this.protocolMismatch(f)) return true;
    if (isOwnTargetAt(text, f.targetAt, f.targetEnd)) return this.followOwnTarget(table, f);
    // A chain (the declarations will tell; no declaration and no rules: a target the closure cannot follow). Named
    // by a string only when followed: KUBE-SERVICES' 10k rules mostly are not.
    if (this.mayMatch(f, host)) this.enter(table, text.slice(f.targetAt, f.targetEnd), true, f.addrtype);
    else this.skip(li, table, f, host);
    return true;
  }

  /** A rule with iptables' own target: false when the closure cannot follow it. */
  private followOwnTarget(table: number, f: RuleFacts): boolean {
    const text = this.text;
    const target = text.slice(f.targetAt, f.targetEnd);
    // iptables' own target, unless a chain of that name exists (the declarations will tell).
    if (!this.targetsMet.has(`${table} ${target}`)) {
      if (this.runs.of(table, target).length > 0) return false;
      this.targetsMet.add(`${table} ${target}`);
      this.names.flags[this.names.add(table, target)] |= BUILTIN_TARGET;
    }
    if (target !== 'DNAT') return DESTINATION_KEEPING.has(target);
    this.dnat = true;
    if (f.toDestinations !== 1) return false;
    const to = splitHostPort(text.slice(f.toDestinationAt, f.toDestinationEnd));
    const address = to && parseIp(to.host);
    if (!address) return false;
    const destinations = this.closure.destinations;
    if (!destinations.some((d) => d.family === address.family && d.value === address.value)) {
      // Every rule is compared with each destination: past a few, reading the whole text is cheaper.
      if (destinations.length === MAX_DESTINATIONS) return false;
      destinations.push(address);
      if (address.family === 4) this.destinations4.push(Number(address.value) | 0);
    }
    if (to.port !== undefined) this.ports.add(to.port);
    return true;
  }

  private skip(li: number, table: number, f: RuleFacts, host: number): void {
    const port = f.dportAt >= 0 ? portAt(this.text, f.dportAt, f.dportEnd) : -1;
    let shift = -1;
    let base = 0;
    if (host >= 0) {
      shift = 0;
      base = host | 0;
    } else if (f.destinationAt >= 0) {
      const network = this.network;
      shift = ipv4CidrAt(this.text, f.destinationAt, f.destinationEnd, network) ? 32 - network.prefix : -2;
      base = network.base;
    }
    this.skipped.push(li, table, port, base, shift);
  }

  /**
   * When a DNAT added a destination or port since the last look, follows the skipped rules that may match now
   * and answers true; false when nothing was added.
   */
  lookAgain(): boolean {
    const size = this.closure.destinations.length + this.ports.size;
    if (size === this.seen + 1) return false;
    this.seen = size - 1;
    const { skipped, text } = this;
    for (let s = 0, end = skipped.length; s < end; s += 5) {
      const li = skipped[s];
      if (li < 0 || !this.mayMatchSkipped(s)) continue;
      skipped[s] = -1;
      const f = readRuleWords(text, this.contentStart[li], this.contentEnd[li], this.facts);
      this.enter(skipped[s + 1], text.slice(f.targetAt, f.targetEnd), true, f.addrtype);
    }
    return true;
  }

  private mayMatchSkipped(s: number): boolean {
    const skipped = this.skipped;
    const shift = skipped[s + 4];
    if (shift === -2) {
      const li = skipped[s];
      return this.mayMatch(readRuleWords(this.text, this.contentStart[li], this.contentEnd[li], this.facts));
    }
    const port = skipped[s + 2];
    if (port >= 0 && !this.ports.has(port)) return false;
    return shift < 0 || inNetwork(this.destinations4, skipped[s + 3], shift);
  }

  private protocolMismatch(f: RuleFacts): boolean {
    if (f.unprunable || f.protocolAt < 0) return false;
    const text = this.text;
    const proto = this.proto;
    // kube-proxy writes the packet's protocol as the trace names it: no string for that.
    if (f.protocolEnd - f.protocolAt === proto.length && text.startsWith(proto, f.protocolAt)) return false;
    // The tracer's reading of the value: a rule for another protocol (`udp`, `17`, `esp`) does not match.
    const protocol = protocolOfValue(text.slice(f.protocolAt, f.protocolEnd).toLowerCase());
    return protocol !== undefined && protocol !== proto;
  }

  /** `host`: the destination as `plainIPv4HostAt` reads it, -1 for none or another form. */
  private mayMatch(f: RuleFacts, host = -1): boolean {
    if (f.unprunable) return true;
    const text = this.text;
    if (f.dportAt >= 0) {
      const port = portAt(text, f.dportAt, f.dportEnd);
      if (port >= 0 && !this.ports.has(port)) return false;
    }
    if (host >= 0) return this.destinations4.includes(host | 0);
    if (f.destinationAt >= 0) {
      const network = this.network;
      if (ipv4CidrAt(text, f.destinationAt, f.destinationEnd, network)) {
        return inNetwork(this.destinations4, network.base, 32 - network.prefix);
      }
      const cidr = parseCidr(text.slice(f.destinationAt, f.destinationEnd));
      if (cidr && !this.closure.destinations.some((d) => cidrContains(cidr, d))) return false;
    }
    return true;
  }
}

/**
 * The rule lines of chains entered that no walker of the trace looks at: the tracer indexes a chain of
 * INDEX_MIN_RULES rules or more by each rule's single destination host and, in a chain entered with destination D,
 * evaluates only the rules filed under D and those under no host. A rule filed under a host no walker has
 * (kube-proxy's KUBE-SERVICES: one per Service) is neither read nor evaluated; the chains that lost some are
 * returned (`chainKey`) so that the tracer indexes them whatever their length left (`TraceSlice.trimmed`), and
 * looks at exactly the rules the whole text's trace looks at. Lines up to `familyLine` are read anyway.
 */
function unreachedRules(
  closure: Closure,
  tables: readonly string[],
  names: NameSet,
  skip: Uint8Array,
  familyLine: number,
): Set<string> {
  const trimmed = new Set<string>();
  const keys = new Set<number>();
  // The tracer's key of a host: a number below 2^53 (`hostKey`), IPv6 ones included.
  for (const d of closure.destinations) if (d.value <= MAX_SAFE_HOST) keys.add(Number(d.value));
  const hosted = closure.hosted;
  let chain = -1;
  for (let h = 0; h < hosted.length; h += 3) {
    const li = hosted[h];
    const k = hosted[h + 1];
    // A chain only its rules make (no declaration) takes its line from its first rule, and without its rules it
    // would be missing, not shorter: its rules are all read.
    if (li <= familyLine || keys.has(hosted[h + 2]) || !(names.flags[k] & DECLARED)) continue;
    if (k !== chain) {
      chain = k;
      trimmed.add(chainKey(tables[names.tables[chain]], names.names[chain]));
    }
    skip[li] = names.tables[chain] + 1;
  }
  return trimmed;
}

const MAX_SAFE_HOST = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The port written at text[at, end) (one to five digits, at most 65535, as the tracer's parsePort reads it), or -1
 * for anything else (a range, a name, a number the tracer cannot read and so lets match).
 */
function portAt(text: string, at: number, end: number): number {
  if (end - at < 1 || end - at > 5) return -1;
  let port = 0;
  for (let k = at; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c < 48 || c > 57) return -1;
    port = port * 10 + (c - 48);
  }
  return port > 65535 ? -1 : port;
}

/**
 * Whether one of the IPv4 addresses (32-bit numbers) is in the network `base` with `shift` bits after its prefix
 * (32: every address). A loop, not `some` with a function: the closure looks at 10k skipped rules this way.
 */
function inNetwork(addresses: readonly number[], base: number, shift: number): boolean {
  if (shift === 32) return true;
  for (let i = 0; i < addresses.length; i++) if ((addresses[i] ^ base) >>> shift === 0) return true;
  return false;
}

/** What `ipv4CidrAt` read: the network as a 32-bit number and its prefix length. */
class Ipv4Network {
  base = 0;
  prefix = 32;
}

/**
 * Reads `a.b.c.d` or `a.b.c.d/n` at text[at, end) into `into`, as the tracer's parseCidr reads it (no leading
 * zeros); false for anything else (IPv6, masks, an address the tracer cannot read and so lets match).
 */
function ipv4CidrAt(text: string, at: number, end: number, into: Ipv4Network): boolean {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  let k = at;
  for (; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c >= 48 && c <= 57) {
      if (digits === 1 && part === 0) return false;
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return false;
    } else if (c === 46 && digits > 0 && dots < 3) {
      value = (value << 8) | part;
      part = 0;
      digits = 0;
      dots++;
    } else break;
  }
  if (dots !== 3 || digits === 0) return false;
  value = (value << 8) | part;
  let prefix = 32;
  if (k < end) {
    if (text.charCodeAt(k) !== 47 || end - k < 2 || end - k > 3) return false;
    prefix = 0;
    for (k++; k < end; k++) {
      const c = text.charCodeAt(k);
      if (c < 48 || c > 57) return false;
      prefix = prefix * 10 + (c - 48);
    }
    if (prefix > 32) return false;
  }
  into.base = prefix === 0 ? 0 : value & (-1 << (32 - prefix));
  into.prefix = prefix;
  return true;
}
