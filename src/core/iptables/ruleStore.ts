/**
 * Compact storage for the words and options of every rule in a dump. A 100k-rule dump has millions of words;
 * keeping each as an object (with its span, its value string, its option record) cost ~2.5 KB per rule and most
 * of the parse time went to the garbage collector. Here words, options and modules are rows of typed arrays,
 * names are interned once, and rules (storedRule.ts) build option objects and tokens only when asked.
 */
import { grownColumn } from '../common/columns';
import { canonicalOptionName, GENERIC_CANONICAL, optionArity } from './options';
import type { Span } from '../common/diagnostics';
import type { Token, TokenKind } from './tokens';
import { WORD_ESCAPED, WORD_QUOTED } from './words';

/** Word flags. */
export const QUOTED = WORD_QUOTED; // had quotes (`"a b"`): `Word.quoted`
export const UNQUOTE = WORD_ESCAPED; // value differs from the raw text (quotes or escapes): re-read it on demand
export const JOINED = 4; // a terminal wrap glued back (`KUBE-POSTROUTI   NG`): value drops the gap
export const BANG = 8; // an unquoted `!`
export const OPTION_LIKE = 16; // `-x` / `--name` (not `-5`, not quoted): an option where one may start
export const NEGATIVE_NUMBER = 32; // starts `-` and a digit: a value even where an option could start
export const SPANS_LINES = 64; // a quoted value a hard wrap broke over lines: the line break reads as a blank
export const FOLDED = 128; // with SPANS_LINES: a terminal folded the word at its width, the line break reads as nothing

/** Token kinds as bytes, in a fixed order (TOKEN_KINDS[byte] is the kind). */
export const TOKEN_KINDS: readonly TokenKind[] = [
  'table',
  'chainDecl',
  'chainRef',
  'policy',
  'command',
  'counter',
  'option',
  'negation',
  'module',
  'value',
  'target',
  'comment',
  'commentText',
];
export const KIND = Object.fromEntries(TOKEN_KINDS.map((k, i) => [k, i])) as Record<TokenKind, number>;

/** Owner of an option row: a module row index (>= 0), the generic options, or the target. */
export const OWNER_GENERIC = -1;
export const OWNER_TARGET = -2;
/** `modWord` of a module iptables loaded implicitly (`-p tcp --dport 80`): it has no word of its own. */
export const IMPLICIT = -1;

/** What the body parser needs to know about an option name, computed once per distinct spelling. */
export const enum NameRole {
  Regular = 0,
  Match = 1, // -m / --match
  Jump = 2, // -j / --jump
  Goto = 3, // -g / --goto
  Counters = 4, // -c / --set-counters
}

/**
 * The names' hash (FNV-1a, 32 bits): FNV_START, then `fnvStep` with each character. As a 32-bit integer, like every
 * step's result: the empty name's hash is the start itself and must equal what its slot keeps.
 */
export const FNV_START = 0x811c9dc5 | 0;
export function fnvStep(h: number, c: number): number {
  return Math.imul(h ^ c, 16777619);
}

/** Longest name the name table finds by its packed characters (see `shortSlots`). */
const SHORT_NAME_MAX = 11;

/**
 * Strings interned by their characters: looking a name up in the line text allocates nothing unless the name is
 * new. Chain, module, option and target names repeat on almost every rule.
 */
export class NameTable {
  readonly names: string[] = [];
  /**
   * Open addressing in one typed array: slot i is [2i] the name's id (-1 empty) and [2i + 1] its FNV hash, side
   * by side so a probe reads one cache line (a big dump's table is 1 MB, and most names looked up are cold).
   */
  private slots: Int32Array;
  private readonly found = new Map<string, number>();
  /**
   * Names of up to SHORT_NAME_MAX characters below 256, keyed by those characters packed into three integers
   * (length and 3 characters, 4, 4): slot i is [4i .. 4i + 2] the key (-1: empty) and [4i + 3] the id. A key
   * equal is the name equal, so the options and modules on every rule are found without comparing strings (a
   * native `startsWith` per word was the body reader's largest cost). The names are in `slots` as well.
   */
  private shortSlots = new Int32Array(4 * 256).fill(-1);
  private shortCount = 0;

  /** `expected`: about how many names will come, so a big dump's table is not rebuilt as it fills. */
  constructor(expected = 0) {
    let size = 1024;
    while (size < expected * 2 && size < 1 << 22) size *= 2;
    this.slots = emptySlots(size);
  }

  idOf(text: string, start: number, end: number): number {
    const len = end - start;
    if (len > 0 && len <= SHORT_NAME_MAX) {
      // Option, module and most target names: found by their characters as numbers, no string compared.
      let k1 = len << 24;
      let k2 = 0;
      let k3 = 0;
      let h = FNV_START;
      let narrow = true;
      for (let j = 0; j < len; j++) {
        const c = text.charCodeAt(start + j);
        if (c > 255) {
          narrow = false;
          break;
        }
        h = fnvStep(h, c);
        if (j < 3) k1 |= c << (16 - 8 * j);
        else if (j < 7) k2 |= c << (24 - 8 * (j - 3));
        else k3 |= c << (24 - 8 * (j - 7));
      }
      if (narrow) {
        const short = this.shortSlots;
        const mask = (short.length >> 2) - 1;
        let slot = shortHash(k1, k2, k3) & mask;
        for (;;) {
          const at = slot << 2;
          const known = short[at];
          if (known === -1) break;
          if (known === k1 && short[at + 1] === k2 && short[at + 2] === k3) return short[at + 3];
          slot = (slot + 1) & mask;
        }
        const id = this.idOfHashed(text, start, end, h);
        const at = slot << 2;
        short[at] = k1;
        short[at + 1] = k2;
        short[at + 2] = k3;
        short[at + 3] = id;
        if (++this.shortCount * 2 > short.length >> 2) this.rehashShort();
        return id;
      }
    }
    let h = FNV_START;
    for (let i = start; i < end; i++) h = fnvStep(h, text.charCodeAt(i));
    return this.idOfHashed(text, start, end, h);
  }

  /** `idOf` for a caller that hashed text[start, end) already (`fnvStep` from FNV_START over its characters). */
  idOfHashed(text: string, start: number, end: number, h: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    let slot = h & mask;
    const len = end - start;
    for (;;) {
      const id = slots[2 * slot];
      if (id < 0) break;
      if (slots[2 * slot + 1] === h) {
        const s = this.names[id];
        // startsWith compares in native code: names are compared on every word that is interned.
        if (s.length === len && text.startsWith(s, start)) return id;
      }
      slot = (slot + 1) & mask;
    }
    const id = this.names.length;
    this.names.push(text.slice(start, end));
    slots[2 * slot] = id;
    slots[2 * slot + 1] = h;
    if (this.names.length > slots.length >> 2) this.rehash();
    return id;
  }

  /**
   * The id of a name already seen, or -1 (nothing is added). Fast paths ask for the same few names ('protocol',
   * 'dport', ...) on every rule: ids found are remembered by string (an id never changes; a miss may later hit).
   */
  find(s: string): number {
    const known = this.found.get(s);
    if (known !== undefined) return known;
    const id = this.lookUp(s);
    if (id >= 0) this.found.set(s, id);
    return id;
  }

  private lookUp(s: string): number {
    let h = FNV_START;
    for (let i = 0; i < s.length; i++) h = fnvStep(h, s.charCodeAt(i));
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = slots[2 * slot];
      if (id < 0) return -1;
      if (slots[2 * slot + 1] === h && this.names[id] === s) return id;
    }
  }

  /** The interned copy of a string built elsewhere (e.g. an unquoted value). */
  intern(s: string): string {
    return this.names[this.idOf(s, 0, s.length)];
  }

  private rehashShort(): void {
    const old = this.shortSlots;
    const short = new Int32Array(old.length * 2).fill(-1);
    const mask = (short.length >> 2) - 1;
    for (let at = 0; at < old.length; at += 4) {
      const k1 = old[at];
      if (k1 === -1) continue;
      let slot = shortHash(k1, old[at + 1], old[at + 2]) & mask;
      while (short[slot << 2] !== -1) slot = (slot + 1) & mask;
      short.set(old.subarray(at, at + 4), slot << 2);
    }
    this.shortSlots = short;
  }

  private rehash(): void {
    const old = this.slots;
    const size = old.length; // twice the slots: the pairs take two entries each
    const slots = emptySlots(size);
    const mask = size - 1;
    for (let at = 0; at < old.length; at += 2) {
      const id = old[at];
      if (id < 0) continue;
      const h = old[at + 1];
      let slot = h & mask;
      while (slots[2 * slot] >= 0) slot = (slot + 1) & mask;
      slots[2 * slot] = id;
      slots[2 * slot + 1] = h;
    }
    this.slots = slots;
  }
}

/**
 * `distance` as a signed byte, or FAR with `word` kept in `far` by row k; 0 only where `zeroAllowed` (for a `!`,
 * distance 0 reads as none).
 */
function near(k: number, distance: number, word: number, far: Map<number, number>, zeroAllowed: boolean): number {
  if (distance > FAR && distance <= 127 && (zeroAllowed || distance !== 0)) return distance;
  far.set(k, word);
  return FAR;
}

/** Where a packed short name's probe starts (mixed so names differing in one character spread). */
function shortHash(k1: number, k2: number, k3: number): number {
  const mixed = Math.imul(k1 ^ Math.imul(k2, 0x9e3779b1) ^ Math.imul(k3, 0x85ebca6b), 0xc2b2ae35);
  return mixed ^ (mixed >>> 16);
}

/** `size` empty name slots (id -1; an empty slot's hash is never read). */
function emptySlots(size: number): Int32Array {
  return new Int32Array(2 * size).fill(-1);
}

/** Per name id: canonical option name id, arity, role, whether it is a generic option. Filled lazily. */
interface OptionNameInfo {
  canonical: number;
  arity: 0 | 1 | 2;
  role: NameRole;
  generic: boolean;
}

type Column =
  | Int32Array<ArrayBuffer>
  | Uint16Array<ArrayBuffer>
  | Uint8Array<ArrayBuffer>
  | Int8Array<ArrayBuffer>
  | Float64Array<ArrayBuffer>;
type ColumnType = 'i32' | 'u16' | 'u8' | 'i8' | 'f64';
/** The columns of one kind of row, each with its element type: one list per kind for allocating, growing, trimming. */
type Columns<K extends string> = Readonly<Record<K, ColumnType>>;

/**
 * A word's column and length fit a byte while its line is shorter than 256 characters (every line of the real
 * dumps seen, kube-proxy's longest ~210), 16 bits unless the line is longer than 65,535: words are stored in a
 * byte each (2 million words of a big dump: 4 MB less than in 16 bits) and widened, all of them, the moment one
 * does not fit.
 */
const WORD_COLUMNS: Columns<'wordCol' | 'wordLen' | 'wordFlags' | 'wordKind'> = {
  wordCol: 'u8',
  wordLen: 'u8',
  wordFlags: 'u8',
  wordKind: 'u8',
};
/**
 * An option row's written name is its spelling's index among the option names the dump spells (a few dozen in
 * a real dump): a byte each (437k rows of a big dump: 1.3 MB less than a name id), widened to 16 bits (then 32)
 * the moment a spelling's index does not fit.
 */
const OPTION_COLUMNS: Columns<
  'optSpelling' | 'optWord' | 'optNegDelta' | 'optValueDelta' | 'optValueCount' | 'optOwnerAt'
> = {
  optSpelling: 'u8',
  optWord: 'i32',
  optNegDelta: 'i8',
  optValueDelta: 'i8',
  optValueCount: 'u8',
  optOwnerAt: 'u8',
};
/** An option's `!` or value word further than a signed byte from its option word: kept in a map by row. */
const FAR = -128;
/** A rule's count or distance that a byte does not hold: kept in a map by slot. */
const BYTE_FAR = 255;
/**
 * A module row's name is its spelling's index among the module names the dump loads (a dozen or so in a real
 * dump): a byte each (271k rows of a big dump: 0.8 MB less than a name id), widened as option rows' spellings are.
 */
const MODULE_COLUMNS: Columns<'modSpelling' | 'modWord'> = { modSpelling: 'u8', modWord: 'i32' };
/**
 * A rule's content end (a column in its line) and table (an index in `tableNames`) start in a byte, as word
 * columns do, and are widened on their own (`setRuleContentEnd`, `tableIndex`).
 */
const RULE_COLUMNS: Columns<
  | 'ruleLine'
  | 'ruleContentEnd'
  | 'ruleFirstWord'
  | 'ruleWordCount'
  | 'ruleBodyOffset'
  | 'rulePrefixLength'
  | 'ruleOptFirst'
  | 'ruleOptCount'
  | 'ruleModFirst'
  | 'ruleModCount'
  | 'ruleTargetAt'
  | 'ruleFlags'
  | 'ruleId'
  | 'ruleIndex'
  | 'ruleTable'
  | 'ruleChain'
  | 'rulePosition'
  | 'ruleComment'
  | 'ruleCommentAt'
  | 'ruleTargetName'
  | 'rulePackets'
  | 'ruleBytes'
  | 'ruleCounterColumn'
  | 'ruleCounterLength'
> = {
  ruleLine: 'i32',
  ruleContentEnd: 'u8',
  ruleFirstWord: 'i32',
  ruleWordCount: 'u8',
  ruleBodyOffset: 'u8',
  rulePrefixLength: 'i32',
  ruleOptFirst: 'i32',
  ruleOptCount: 'u8',
  ruleModFirst: 'i32',
  ruleModCount: 'u8',
  ruleTargetAt: 'u8',
  ruleFlags: 'u8',
  ruleId: 'i32',
  ruleIndex: 'i32',
  ruleTable: 'u8',
  ruleChain: 'i32',
  rulePosition: 'i32',
  ruleComment: 'i32',
  ruleCommentAt: 'u8',
  ruleTargetName: 'i32',
  rulePackets: 'f64',
  ruleBytes: 'f64',
  ruleCounterColumn: 'i32',
  ruleCounterLength: 'i32',
};
/** The largest value each column type holds. */
const COLUMN_MAX: Readonly<Record<ColumnType, number>> = {
  u8: 0xff,
  i8: 0x7f,
  u16: 0xffff,
  i32: 0x7fffffff,
  f64: Number.MAX_VALUE,
};
/**
 * The type a column of `type` widens to for `value` (a byte, 16 bits, then 32, as values come that do not fit):
 * `type` itself when it holds the value.
 */
function typeHolding(type: ColumnType, value: number): ColumnType {
  if (value >= 0 && value <= COLUMN_MAX[type]) return type;
  return value >= 0 && value <= 0xffff ? 'u16' : 'i32';
}
type ColumnName =
  keyof typeof WORD_COLUMNS | keyof typeof OPTION_COLUMNS | keyof typeof MODULE_COLUMNS | keyof typeof RULE_COLUMNS;

function newColumn(type: ColumnType, size: number): Column {
  if (type === 'u16') return new Uint16Array(size);
  if (type === 'i8') return new Int8Array(size);
  return type === 'i32' ? new Int32Array(size) : type === 'u8' ? new Uint8Array(size) : new Float64Array(size);
}

/** Token kind of a word until the body reader says otherwise. */
const VALUE_KIND = KIND.value;

export class RuleStore {
  readonly names: NameTable;
  /** Name ids the body reader compares against on every option. */
  readonly commentId: number;
  readonly protocolId: number;

  // Words: column (in the original line), raw length, flags, token kind.
  wordCol!: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;
  wordLen!: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;
  wordFlags!: Uint8Array<ArrayBuffer>;
  wordKind!: Uint8Array<ArrayBuffer>;
  wordCount = 0;
  private wordColumns = WORD_COLUMNS;
  /** The largest column or length `wordColumns` hold. */
  private wordMax = 0xff;

  // Options: written name (`optWritten`, its spelling's index in `optionInfos`), option word, value count, owner;
  // the `!` word and the first value word as their distance from the option word (a byte each instead of an
  // index: 2.5 MB less on a 168k-rule dump), read through `optNeg` and `optValue`; the canonical name is the
  // written one's (`optName`).
  private optSpelling!: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;
  private optionColumns = OPTION_COLUMNS;
  /** The largest spelling index `optionColumns` hold. */
  private spellingMax = 0xff;
  optWord!: Int32Array<ArrayBuffer>;
  private optNegDelta!: Int8Array<ArrayBuffer>; // 0: none
  private optValueDelta!: Int8Array<ArrayBuffer>;
  optValueCount!: Uint8Array<ArrayBuffer>;
  /** The owner: 0 generic, 1 the target, 2 + its module's index in the rule's modules (BYTE_FAR: in farOwner). */
  private optOwnerAt!: Uint8Array<ArrayBuffer>;
  optCount = 0;
  /** By option row, the `!` and first value words whose distance is FAR. */
  private readonly farNeg = new Map<number, number>();
  private readonly farValue = new Map<number, number>();
  private readonly farOwner = new Map<number, number>();

  // Modules (`-m name` or implicit): name (`modName`, its spelling's index in `moduleNames`), module word
  // (IMPLICIT when loaded by `-p`).
  private modSpelling!: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;
  modWord!: Int32Array<ArrayBuffer>;
  modCount = 0;
  private moduleColumns = MODULE_COLUMNS;
  /** By spelling, the module's name id; by name id, its spelling + 1 (0: not loaded yet). */
  private moduleNames = new Int32Array(64);
  private moduleSpellings = new Int32Array(256);
  private moduleSpellingCount = 0;

  // Rules, by slot (parse order): where the line and its rows are. Kept here rather than as fields of each
  // rule object so the collector has 16 fewer fields per rule to copy and scan. Columns whose usual value is
  // "none" store value + 1, so that the zeros of fresh memory say "none" and most rules never write them (a
  // page of a column is filled only when a rule writes to it): ruleId, ruleIndex, rulePosition, ruleComment.
  ruleLine!: Int32Array<ArrayBuffer>; // where the line starts and its content begins are the line index's
  ruleContentEnd!: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>; // column of the content's end, [start, end)
  ruleFirstWord!: Int32Array<ArrayBuffer>; // words [first, end); the body starts at first + ruleBodyOffset
  ruleBodyOffset!: Uint8Array<ArrayBuffer>;
  rulePrefixLength!: Int32Array<ArrayBuffer>; // `[p:b]` prefix, 0 (not written) without one
  ruleOptFirst!: Int32Array<ArrayBuffer>;
  ruleModFirst!: Int32Array<ArrayBuffer>;
  // A rule's ends of words, options and modules as counts from their firsts, its target and comment words as
  // 1 + their distance from its first word (0: none), a byte each (BYTE_FAR: in `farRows`); see setRuleRows.
  private ruleWordCount!: Uint8Array<ArrayBuffer>;
  private ruleOptCount!: Uint8Array<ArrayBuffer>;
  private ruleModCount!: Uint8Array<ArrayBuffer>;
  private ruleTargetAt!: Uint8Array<ArrayBuffer>;
  private ruleCommentAt!: Uint8Array<ArrayBuffer>;
  /** By column and rule slot, the values a byte did not hold. */
  private readonly farRows = new Map<string, Map<number, number>>();
  ruleFlags!: Uint8Array<ArrayBuffer>; // HAS_COUNTERS | GOTO | command index
  // The rule's scalar facts, so a rule object is two fields (the collector copies and scans every one of 100k+):
  ruleId!: Int32Array<ArrayBuffer>; // index in the dump's rules + 1
  ruleIndex!: Int32Array<ArrayBuffer>; // index in its chain + 1
  ruleTable!: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>; // index in tableNames
  ruleChain!: Int32Array<ArrayBuffer>; // name ids; -1 for none (target name)
  rulePosition!: Int32Array<ArrayBuffer>; // + 1
  ruleComment!: Int32Array<ArrayBuffer>; // name id + 1, 0 until the comment's word is first read
  ruleTargetName!: Int32Array<ArrayBuffer>;
  rulePackets!: Float64Array<ArrayBuffer>; // counters (byte counts pass 2^31), read when HAS_COUNTERS
  ruleBytes!: Float64Array<ArrayBuffer>;
  ruleCounterColumn!: Int32Array<ArrayBuffer>;
  ruleCounterLength!: Int32Array<ArrayBuffer>;
  ruleCount = 0;
  private ruleColumns = RULE_COLUMNS;
  /**
   * Where rules start whose line offsets are not the line index's (none from the parser, which reads each rule
   * from its line's content): by slot, the line's offset in the text and the content's column.
   */
  readonly ruleOrigins = new Map<number, { base: number; contentStart: number }>();
  /** Table names rules refer to by index (a dump has a handful). */
  readonly tableNames: string[] = [];
  /** Tokens of the rules an editor asked for, by rule slot. */
  readonly cachedTokens = new Map<number, Token[]>();
  /** Offset of each line's start and content in the text (the parser's LineIndex): rules over several lines. */
  lineStart: Int32Array = new Int32Array(0);
  lineContentStart: Int32Array = new Int32Array(0);
  lineContentEnd: Int32Array = new Int32Array(0);
  lineRawEnd: Int32Array = new Int32Array(0);

  /**
   * Option names met so far, and by written name id their index + 1 there (0: not yet). Ids of names first
   * written after 60,000 chain declarations are that large: an array indexed by them directly would be a
   * dictionary the body reader looks up on every option.
   */
  private readonly optionInfos: OptionNameInfo[] = [];
  private optionSlots = new Int32Array(256);
  /** By spelling (index in `optionInfos`), its name's id and its canonical name's id (read on every option row the
   * kube view looks at). */
  private spellingNames = new Int32Array(256);
  private spellingCanonicals = new Int32Array(256);
  /** By name id, the id of the name in lower case + 1 (0: not asked yet). */
  private lowerSlots = new Int32Array(256);

  /**
   * `text` is the whole dump: word columns count from their line's start offset in it. `readLength`: about how many
   * of its characters the parser reads (a trace's slice reads a few of a big dump's rules).
   */
  constructor(
    readonly text: string,
    readLength = text.length,
  ) {
    // kube-proxy dumps name a chain (declared, jumped to, and its rules' chain) per ~400 characters.
    this.names = new NameTable(readLength / 400);
    this.commentId = this.names.idOf('comment', 0, 7);
    this.protocolId = this.names.idOf('protocol', 0, 8);
    // Sized from the characters read (kube-proxy dumps: a word per ~11.5 characters, an option row per ~55, a module
    // per ~89, a rule per ~140) with some room, so a big dump is neither copied while it grows nor trimmed after.
    this.allocate(this.wordColumns, Math.max(4096, Math.ceil(readLength / 10)));
    this.allocate(this.optionColumns, Math.max(1024, Math.ceil(readLength / 48)));
    this.allocate(this.moduleColumns, Math.max(256, Math.ceil(readLength / 80)));
    this.allocate(this.ruleColumns, Math.max(1024, Math.ceil(readLength / 125)));
  }

  /**
   * The span of word k of the rule that starts on `line` (word columns count from that line's start). A word on
   * a continuation line of a hard-wrapped rule gets its own line and column.
   */
  spanOf(line: number, k: number): Span {
    const at = this.positionOf(line, this.lineStart[line] + this.wordCol[k]);
    // A span stays on one line: a word over a line break (a quote a wrap broke, a word a terminal folded) has the
    // span of its first piece; its tokens have one span per piece.
    const room = this.lineContentEnd[at.line] - this.lineStart[at.line] - at.column;
    return {
      ...at,
      length: this.wordFlags[k] & SPANS_LINES ? Math.max(1, Math.min(this.wordLen[k], room)) : this.wordLen[k],
    };
  }

  /**
   * Line and column of a text offset at or after the start of `line` (a rule's first line; usually on it or a
   * fold's next few). Past those, by halves: a script's rule continued by `\` over 100k lines asked this for each
   * of its words, from its first line (O(words x lines): 10 s for its tokens).
   */
  positionOf(line: number, offset: number): { line: number; column: number } {
    const starts = this.lineStart;
    let l = line;
    for (let steps = 0; steps < 8 && l + 1 < starts.length && starts[l + 1] <= offset; steps++) l++;
    if (l + 1 < starts.length && starts[l + 1] <= offset) {
      let hi = starts.length - 1;
      while (l < hi) {
        const mid = (l + hi + 1) >> 1;
        if (starts[mid] <= offset) l = mid;
        else hi = mid - 1;
      }
    }
    return { line: l, column: offset - starts[l] };
  }

  /**
   * The pieces of text[start, end) on each line it covers, without what the parser left out of a line (a `#`,
   * `N:` or `> ` prefix, indentation): a quoted value a hard wrap broke over lines.
   */
  pieces(start: number, end: number): Span[] {
    const starts = this.lineStart;
    let lo = 0;
    let hi = starts.length - 1;
    // Only the offset is known here, not the rule's line: find the line by halves.
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= start) lo = mid;
      else hi = mid - 1;
    }
    const out: Span[] = [];
    for (let l = lo, from = start; l < starts.length && from < end; l++, from = this.lineContentStart[l] ?? end) {
      const to = Math.min(end, this.lineContentEnd[l]);
      if (to > from) out.push({ line: l, column: from - starts[l], length: to - from });
    }
    return out;
  }

  /**
   * text[start, end) with each line break and what the parser left out around it read as one blank, or as
   * nothing for a word a terminal folded (`separator` '').
   */
  joinedText(start: number, end: number, separator = ' '): string {
    const pieces = this.pieces(start, end);
    let out = '';
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i];
      const at = this.lineStart[p.line] + p.column;
      // A fold that fell on a blank (left at the end of the line or at the start of the next) keeps it.
      if (i > 0) out += separator === '' && this.blankAtBreak(pieces[i - 1].line) ? ' ' : separator;
      out += this.text.slice(at, at + p.length);
    }
    return out;
  }

  /**
   * Whether line `line` ends in a blank or the next line starts with one: after the column the fold's rest starts
   * at, the text's first or, in a paste indented or quoted whole, `line`'s own (the parser's `foldRestColumn`).
   */
  private blankAtBreak(line: number): boolean {
    if (this.lineContentEnd[line] < this.lineRawEnd[line]) return true;
    if (line + 1 >= this.lineStart.length) return false;
    const column = this.lineContentStart[line + 1] - this.lineStart[line + 1];
    const margin = this.lineContentStart[line] - this.lineStart[line];
    return column !== margin && (column === margin + 1 || column !== 0);
  }

  /** `joinedText` of word k (at text offset `at`), read as its flags say the line breaks in it are. */
  wordAcrossLines(k: number, at: number): string {
    return this.joinedText(at, at + this.wordLen[k], this.wordFlags[k] & FOLDED ? '' : ' ');
  }

  /** Offset in the text of the line rule slot k starts on: word columns count from it. */
  ruleBase(k: number): number {
    const origin = this.ruleOrigins.size > 0 ? this.ruleOrigins.get(k) : undefined;
    return origin ? origin.base : this.lineStart[this.ruleLine[k]];
  }

  /** Column of the start of rule slot k's content (after a `#`, `N:` or `> ` prefix and indentation). */
  ruleContentStart(k: number): number {
    const origin = this.ruleOrigins.size > 0 ? this.ruleOrigins.get(k) : undefined;
    const line = this.ruleLine[k];
    return origin ? origin.contentStart : this.lineContentStart[line] - this.lineStart[line];
  }

  nameOf(id: number): string {
    return this.names.names[id];
  }

  /** The index of a table name in `tableNames`, added when new. */
  tableIndex(name: string): number {
    const i = this.tableNames.indexOf(name);
    if (i >= 0) return i;
    const index = this.tableNames.push(name) - 1;
    this.widenRuleColumn('ruleTable', index);
    return index;
  }

  /** Rule slot k's content end (a column in its line). */
  setRuleContentEnd(k: number, column: number): void {
    this.widenRuleColumn('ruleContentEnd', column);
    this.ruleContentEnd[k] = column;
  }

  /** Every rule's `name` column wide enough for `value` too. */
  private widenRuleColumn(name: 'ruleContentEnd' | 'ruleTable', value: number): void {
    const type = typeHolding(this.ruleColumns[name], value);
    if (type === this.ruleColumns[name]) return;
    this.ruleColumns = { ...this.ruleColumns, [name]: type };
    this.resize(this.ruleColumns, this.ruleLine.length, this.ruleCount);
  }

  /** The id of a name in lower case (`-p TCP` reads as tcp), remembered by the name's id. */
  lowerCaseId(id: number): number {
    if (id < this.lowerSlots.length && this.lowerSlots[id] > 0) return this.lowerSlots[id] - 1;
    const name = this.names.names[id];
    const lower = name.toLowerCase();
    const lowerId = lower === name ? id : this.names.idOf(lower, 0, lower.length);
    if (id >= this.lowerSlots.length)
      this.lowerSlots = grownColumn(this.lowerSlots, Math.max(id + 1, this.lowerSlots.length * 2));
    this.lowerSlots[id] = lowerId + 1;
    return lowerId;
  }

  optionInfo(writtenId: number): OptionNameInfo {
    const slot = writtenId < this.optionSlots.length ? this.optionSlots[writtenId] : 0;
    if (slot > 0) return this.optionInfos[slot - 1];
    const written = this.names.names[writtenId];
    const canonicalName = canonicalOptionName(written);
    const role =
      canonicalName === 'match' || canonicalName === 'm'
        ? NameRole.Match
        : canonicalName === 'jump' || canonicalName === 'j'
          ? NameRole.Jump
          : canonicalName === 'goto' || canonicalName === 'g'
            ? NameRole.Goto
            : canonicalName === 'set-counters' || written === '-c'
              ? NameRole.Counters
              : NameRole.Regular;
    const info: OptionNameInfo = {
      canonical: this.names.idOf(canonicalName, 0, canonicalName.length),
      arity: optionArity(canonicalName),
      role,
      generic: GENERIC_CANONICAL.has(canonicalName),
    };
    if (writtenId >= this.optionSlots.length)
      this.optionSlots = grownColumn(this.optionSlots, Math.max(writtenId + 1, this.optionSlots.length * 2));
    const spelling = this.optionInfos.length;
    if (spelling >= this.spellingNames.length) {
      this.spellingNames = grownColumn(this.spellingNames, spelling * 2);
      this.spellingCanonicals = grownColumn(this.spellingCanonicals, spelling * 2);
    }
    this.optionSlots[writtenId] = this.optionInfos.push(info);
    this.spellingNames[spelling] = writtenId;
    this.spellingCanonicals[spelling] = info.canonical;
    return info;
  }

  /** Appends one word; returns its index. */
  addWord(col: number, len: number, flags: number): number {
    const k = this.wordCount++;
    if (k >= this.wordCol.length) this.resize(this.wordColumns, k * 2, k);
    if (col > this.wordMax || len > this.wordMax || col < 0) this.widenWords(col, len);
    this.wordCol[k] = col;
    this.wordLen[k] = len;
    this.wordFlags[k] = flags;
    this.wordKind[k] = VALUE_KIND;
    return k;
  }

  /** A word's length grown over a wrap or a fold (the word goes on in the text after it). */
  setWordLength(k: number, len: number): void {
    if (len > this.wordMax) this.widenWords(0, len);
    this.wordLen[k] = len;
  }

  /** Every word in columns wide enough for this column and length too. */
  private widenWords(col: number, len: number): void {
    const type = typeHolding(typeHolding(this.wordColumns.wordCol, col), len);
    if (type === this.wordColumns.wordCol) return;
    this.wordColumns = { ...this.wordColumns, wordCol: type, wordLen: type };
    this.wordMax = COLUMN_MAX[type];
    this.resize(this.wordColumns, this.wordCol.length, this.wordCount);
  }

  /**
   * Appends an option row: `neg` -1 without a `!`; `value` is read only when `valueCount` is not 0; `owner` a
   * module row of the rule whose modules start at `modFirst`, OWNER_GENERIC or OWNER_TARGET.
   */
  addOption(
    written: number,
    word: number,
    neg: number,
    value: number,
    valueCount: number,
    owner: number,
    modFirst: number,
  ): number {
    const k = this.optCount++;
    if (k >= this.optWord.length) this.resize(this.optionColumns, k * 2, k);
    this.optionInfo(written); // its spelling, and its canonical name for `optName`
    const spelling = this.optionSlots[written] - 1;
    if (spelling > this.spellingMax) this.widenOptions(spelling);
    this.optSpelling[k] = spelling;
    this.optWord[k] = word;
    this.optNegDelta[k] = neg < 0 ? 0 : near(k, neg - word, neg, this.farNeg, false);
    this.optValueDelta[k] = valueCount === 0 ? 0 : near(k, value - word, value, this.farValue, true);
    this.optValueCount[k] = valueCount;
    const at = owner === OWNER_GENERIC ? 0 : owner === OWNER_TARGET ? 1 : owner - modFirst + 2;
    if (at >= 0 && at < BYTE_FAR) this.optOwnerAt[k] = at;
    else {
      this.optOwnerAt[k] = BYTE_FAR;
      this.farOwner.set(k, owner);
    }
    return k;
  }

  /** The owner of option row k of a rule whose modules start at `modFirst`: its module row, or OWNER_*. */
  optOwner(k: number, modFirst: number): number {
    const at = this.optOwnerAt[k];
    return at === 0
      ? OWNER_GENERIC
      : at === 1
        ? OWNER_TARGET
        : at === BYTE_FAR
          ? this.farOwner.get(k)!
          : modFirst + at - 2;
  }

  /** The canonical name id of option row k (the one of its written name). */
  optName(k: number): number {
    return this.spellingCanonicals[this.optSpelling[k]];
  }

  /** The name id of option row k as written. */
  optWritten(k: number): number {
    return this.spellingNames[this.optSpelling[k]];
  }

  /** Every option row in columns wide enough for this spelling index too. */
  private widenOptions(spelling: number): void {
    const type = typeHolding(this.optionColumns.optSpelling, spelling);
    this.optionColumns = { ...this.optionColumns, optSpelling: type };
    this.spellingMax = COLUMN_MAX[type];
    this.resize(this.optionColumns, this.optWord.length, this.optCount);
  }

  /** The `!` word of option row k, or -1. */
  optNeg(k: number): number {
    const d = this.optNegDelta[k];
    return d === 0 ? -1 : d === FAR ? this.farNeg.get(k)! : this.optWord[k] + d;
  }

  /** The first value word of option row k (with a value). */
  optValue(k: number): number {
    const d = this.optValueDelta[k];
    return d === FAR ? this.farValue.get(k)! : this.optWord[k] + d;
  }

  /** The word, option and module rows of rule slot k, and its target and comment words (-1: none). */
  setRuleRows(
    k: number,
    first: number,
    end: number,
    optFirst: number,
    optEnd: number,
    modFirst: number,
    modEnd: number,
    targetWord: number,
    commentWord: number,
  ): void {
    this.ruleFirstWord[k] = first;
    this.ruleOptFirst[k] = optFirst;
    this.ruleModFirst[k] = modFirst;
    this.ruleWordCount[k] = this.byteOrFar('ruleWordCount', k, end - first, end, 0);
    this.ruleOptCount[k] = this.byteOrFar('ruleOptCount', k, optEnd - optFirst, optEnd, 0);
    this.ruleModCount[k] = this.byteOrFar('ruleModCount', k, modEnd - modFirst, modEnd, 0);
    this.ruleTargetAt[k] =
      targetWord < 0 ? 0 : this.byteOrFar('ruleTargetAt', k, targetWord - first + 1, targetWord, 1);
    this.ruleCommentAt[k] =
      commentWord < 0 ? 0 : this.byteOrFar('ruleCommentAt', k, commentWord - first + 1, commentWord, 1);
  }

  ruleEndWord(k: number): number {
    const c = this.ruleWordCount[k];
    return c === BYTE_FAR ? this.far('ruleWordCount', k) : this.ruleFirstWord[k] + c;
  }

  ruleOptEnd(k: number): number {
    const c = this.ruleOptCount[k];
    return c === BYTE_FAR ? this.far('ruleOptCount', k) : this.ruleOptFirst[k] + c;
  }

  ruleModEnd(k: number): number {
    const c = this.ruleModCount[k];
    return c === BYTE_FAR ? this.far('ruleModCount', k) : this.ruleModFirst[k] + c;
  }

  /** Rule slot k's target word, or -1. */
  ruleTargetWord(k: number): number {
    const at = this.ruleTargetAt[k];
    return at === 0 ? -1 : at === BYTE_FAR ? this.far('ruleTargetAt', k) : this.ruleFirstWord[k] + at - 1;
  }

  /** Rule slot k's comment word, or -1. */
  ruleCommentWord(k: number): number {
    const at = this.ruleCommentAt[k];
    return at === 0 ? -1 : at === BYTE_FAR ? this.far('ruleCommentAt', k) : this.ruleFirstWord[k] + at - 1;
  }

  /** `byte` where it is at least `min` and below BYTE_FAR; else BYTE_FAR, with `value` kept for the slot. */
  private byteOrFar(column: string, k: number, byte: number, value: number, min: number): number {
    if (byte >= min && byte < BYTE_FAR) return byte;
    let far = this.farRows.get(column);
    if (!far) this.farRows.set(column, (far = new Map()));
    far.set(k, value);
    return BYTE_FAR;
  }

  private far(column: string, k: number): number {
    return this.farRows.get(column)!.get(k)!;
  }

  /** Appends a rule slot; the caller fills its rows. */
  addRuleSlot(): number {
    const k = this.ruleCount++;
    if (k >= this.ruleLine.length) this.resize(this.ruleColumns, k * 2, k);
    return k;
  }

  addModule(name: number, word: number): number {
    const k = this.modCount++;
    if (k >= this.modWord.length) this.resize(this.moduleColumns, k * 2, k);
    // Its spelling first: a new one may widen the columns.
    const spelling = this.moduleSpelling(name);
    this.modSpelling[k] = spelling;
    this.modWord[k] = word;
    return k;
  }

  /** The name id of module row k. */
  modName(k: number): number {
    return this.moduleNames[this.modSpelling[k]];
  }

  /** The spelling index of a module name id, given one when new (widening the module rows if it does not fit). */
  private moduleSpelling(name: number): number {
    const known = name < this.moduleSpellings.length ? this.moduleSpellings[name] : 0;
    if (known > 0) return known - 1;
    const spelling = this.moduleSpellingCount++;
    if (name >= this.moduleSpellings.length)
      this.moduleSpellings = grownColumn(this.moduleSpellings, Math.max(name + 1, this.moduleSpellings.length * 2));
    if (spelling >= this.moduleNames.length) this.moduleNames = grownColumn(this.moduleNames, spelling * 2);
    this.moduleSpellings[name] = spelling + 1;
    this.moduleNames[spelling] = name;
    const type = typeHolding(this.moduleColumns.modSpelling, spelling);
    if (type !== this.moduleColumns.modSpelling) {
      this.moduleColumns = { ...this.moduleColumns, modSpelling: type };
      this.resize(this.moduleColumns, this.modWord.length, this.modCount);
    }
    return spelling;
  }

  /**
   * Gives back spare capacity once the dump is read (it lives as long as the dump). Rows are copied only when
   * more than a quarter would be wasted: the copy costs a moment of double memory.
   */
  trim(): void {
    const wasteful = (used: number, capacity: number) => capacity > 4096 && used < capacity * 0.75;
    if (wasteful(this.wordCount, this.wordCol.length)) this.resize(this.wordColumns, this.wordCount, this.wordCount);
    if (wasteful(this.optCount, this.optWord.length)) this.resize(this.optionColumns, this.optCount, this.optCount);
    if (wasteful(this.modCount, this.modWord.length)) this.resize(this.moduleColumns, this.modCount, this.modCount);
    if (wasteful(this.ruleCount, this.ruleLine.length)) this.resize(this.ruleColumns, this.ruleCount, this.ruleCount);
  }

  private allocate<K extends ColumnName>(columns: Columns<K>, size: number): void {
    for (const name of Object.keys(columns) as K[]) this.setColumn(name, newColumn(columns[name], size));
  }

  /** Every column of the kind to `size` rows, keeping the first `keep`. */
  private resize<K extends ColumnName>(columns: Columns<K>, size: number, keep: number): void {
    for (const name of Object.keys(columns) as K[]) {
      const next = newColumn(columns[name], size);
      next.set(this[name].subarray(0, keep));
      this.setColumn(name, next);
    }
  }

  private setColumn(name: ColumnName, column: Column): void {
    (this as unknown as Record<ColumnName, Column>)[name] = column;
  }
}
