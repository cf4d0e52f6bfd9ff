/**
 * Compact storage for the words and options of every rule in a dump. A 100k-rule dump has millions of words;
 * keeping each as an object (with its span, its value string, its option record) cost ~2.5 KB per rule and most
 * of the parse time went to the garbage collector. Here words, options and modules are rows of typed arrays,
 * names are interned once, and rules (storedRule.ts) build option objects and tokens only when asked.
 */
import { canonicalOptionName, GENERIC_CANONICAL, optionArity } from './options';
import type { TokenKind } from './types';
import { WORD_ESCAPED, WORD_QUOTED } from './words';

/** Word flags. */
export const QUOTED = WORD_QUOTED; // had quotes (`"a b"`): `Word.quoted`
export const UNQUOTE = WORD_ESCAPED; // value differs from the raw text (quotes or escapes): re-read it on demand
export const JOINED = 4; // a terminal wrap glued back (`KUBE-POSTROUTI   NG`): value drops the gap
export const BANG = 8; // an unquoted `!`
export const OPTION_LIKE = 16; // `-x` / `--name` (not `-5`, not quoted): an option where one may start
export const NEGATIVE_NUMBER = 32; // starts `-` and a digit: a value even where an option could start

/** Token kinds as bytes, in a fixed order (TOKEN_KINDS[byte] is the kind). */
export const TOKEN_KINDS: readonly TokenKind[] = ['table', 'chainDecl', 'chainRef', 'policy', 'command', 'counter', 'option', 'negation', 'module', 'value', 'target', 'comment', 'commentText'];
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

function grownInt32(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

function grownUint8(a: Uint8Array<ArrayBuffer>, need: number): Uint8Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint8Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/**
 * Strings interned by their characters: looking a name up in the line text allocates nothing unless the name is
 * new. Chain, module, option and target names repeat on almost every rule.
 */
export class NameTable {
  readonly names: string[] = [];
  private hashes: number[] = [];
  private slots = new Int32Array(1024).fill(-1);

  idOf(text: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    const mask = this.slots.length - 1;
    let slot = h & mask;
    const len = end - start;
    for (;;) {
      const id = this.slots[slot];
      if (id < 0) break;
      if (this.hashes[id] === h) {
        const s = this.names[id];
        if (s.length === len) {
          let same = true;
          for (let i = 0; i < len; i++) {
            if (s.charCodeAt(i) !== text.charCodeAt(start + i)) {
              same = false;
              break;
            }
          }
          if (same) return id;
        }
      }
      slot = (slot + 1) & mask;
    }
    const id = this.names.length;
    this.names.push(text.slice(start, end));
    this.hashes.push(h);
    this.slots[slot] = id;
    if (this.names.length * 2 > this.slots.length) this.rehash();
    return id;
  }

  /** The id of a name already seen, or -1 (nothing is added). */
  find(s: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
    const mask = this.slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot];
      if (id < 0) return -1;
      if (this.hashes[id] === h && this.names[id] === s) return id;
    }
  }

  /** The interned copy of a string built elsewhere (e.g. an unquoted value). */
  intern(s: string): string {
    return this.names[this.idOf(s, 0, s.length)];
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let id = 0; id < this.hashes.length; id++) {
      let slot = this.hashes[id] & mask;
      while (slots[slot] >= 0) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
  }
}

/** Per name id: canonical option name id, arity, role, whether it is a generic option. Filled lazily. */
interface OptionNameInfo {
  canonical: number;
  arity: 0 | 1 | 2;
  role: NameRole;
  generic: boolean;
}

export class RuleStore {
  readonly names = new NameTable();
  /** The whole dump text: word columns are relative to their line's start offset in it. */
  /** Name ids the body reader compares against on every option. */
  readonly commentId: number;
  readonly protocolId: number;

  constructor(readonly text: string) {
    this.commentId = this.names.idOf('comment', 0, 7);
    this.protocolId = this.names.idOf('protocol', 0, 8);
    // Sized from the text (kube-proxy dumps: a word per ~11.5 characters, an option row per ~55, a module per
    // ~89, a rule per ~140) with some room, so a big dump is neither copied while it grows nor trimmed after.
    const words = Math.max(4096, Math.ceil(text.length / 10));
    const options = Math.max(1024, Math.ceil(text.length / 48));
    this.wordCol = new Int32Array(words);
    this.wordLen = new Int32Array(words);
    this.wordFlags = new Uint8Array(words);
    this.wordKind = new Uint8Array(words);
    this.optName = new Int32Array(options);
    this.optWritten = new Int32Array(options);
    this.optWord = new Int32Array(options);
    this.optNeg = new Int32Array(options);
    this.optValue = new Int32Array(options);
    this.optValueCount = new Uint8Array(options);
    this.optOwner = new Int32Array(options);
    const rules = Math.max(1024, Math.ceil(text.length / 125));
    const modules = Math.max(256, Math.ceil(text.length / 80));
    this.modName = new Int32Array(modules);
    this.modWord = new Int32Array(modules);
    for (const key of ['ruleLine', 'ruleBase', 'ruleContentStart', 'ruleContentEnd', 'ruleFirstWord', 'ruleEndWord', 'rulePrefixLength', 'ruleOptFirst', 'ruleOptEnd', 'ruleModFirst', 'ruleModEnd', 'ruleTargetWord'] as const) this[key] = new Int32Array(rules);
    this.ruleBodyOffset = new Uint8Array(rules);
    this.ruleFlags = new Uint8Array(rules);
  }
  private nameInfo: (OptionNameInfo | undefined)[] = [];

  // Words: column (absolute, in the original line), raw length, flags, token kind.
  wordCol: Int32Array<ArrayBuffer>;
  wordLen: Int32Array<ArrayBuffer>;
  wordFlags: Uint8Array<ArrayBuffer>;
  wordKind: Uint8Array<ArrayBuffer>;
  wordCount = 0;

  // Options: canonical name id, written name id, option word, `!` word (-1), first value word, value count, owner.
  optName: Int32Array<ArrayBuffer>;
  optWritten: Int32Array<ArrayBuffer>;
  optWord: Int32Array<ArrayBuffer>;
  optNeg: Int32Array<ArrayBuffer>;
  optValue: Int32Array<ArrayBuffer>;
  optValueCount: Uint8Array<ArrayBuffer>;
  optOwner: Int32Array<ArrayBuffer>;
  optCount = 0;

  // Rules, by slot (parse order): where the line and its rows are. Kept here rather than as fields of each
  // rule object so the collector has 16 fewer fields per rule to copy and scan.
  ruleLine!: Int32Array<ArrayBuffer>;
  ruleBase!: Int32Array<ArrayBuffer>; // offset of the line in the text
  ruleContentStart!: Int32Array<ArrayBuffer>; // columns of the content: [start, end)
  ruleContentEnd!: Int32Array<ArrayBuffer>;
  ruleFirstWord!: Int32Array<ArrayBuffer>; // words [first, end); the body starts at first + ruleBodyOffset
  ruleEndWord!: Int32Array<ArrayBuffer>;
  ruleBodyOffset!: Uint8Array<ArrayBuffer>;
  rulePrefixLength!: Int32Array<ArrayBuffer>; // `[p:b]` prefix, 0 without one
  ruleOptFirst!: Int32Array<ArrayBuffer>;
  ruleOptEnd!: Int32Array<ArrayBuffer>;
  ruleModFirst!: Int32Array<ArrayBuffer>;
  ruleModEnd!: Int32Array<ArrayBuffer>;
  ruleTargetWord!: Int32Array<ArrayBuffer>; // -1 without a target
  ruleFlags!: Uint8Array<ArrayBuffer>; // RULE_GOTO | command index
  ruleCount = 0;

  // Modules (`-m name` or implicit): name id, module word (IMPLICIT when loaded by `-p`).
  modName: Int32Array<ArrayBuffer>;
  modWord: Int32Array<ArrayBuffer>;
  modCount = 0;

  nameOf(id: number): string {
    return this.names.names[id];
  }

  optionInfo(writtenId: number): OptionNameInfo {
    let info = this.nameInfo[writtenId];
    if (!info) {
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
      info = {
        canonical: this.names.idOf(canonicalName, 0, canonicalName.length),
        arity: optionArity(canonicalName),
        role,
        generic: GENERIC_CANONICAL.has(canonicalName),
      };
      this.nameInfo[writtenId] = info;
    }
    return info;
  }

  /** Appends one word; returns its index. */
  addWord(col: number, len: number, flags: number): number {
    const k = this.wordCount++;
    if (k >= this.wordCol.length) {
      this.wordCol = grownInt32(this.wordCol, k + 1);
      this.wordLen = grownInt32(this.wordLen, k + 1);
      this.wordFlags = grownUint8(this.wordFlags, k + 1);
      this.wordKind = grownUint8(this.wordKind, k + 1);
    }
    this.wordCol[k] = col;
    this.wordLen[k] = len;
    this.wordFlags[k] = flags;
    this.wordKind[k] = KIND.value;
    return k;
  }

  addOption(name: number, written: number, word: number, neg: number, value: number, valueCount: number, owner: number): number {
    const k = this.optCount++;
    if (k >= this.optName.length) {
      const n = k + 1;
      this.optName = grownInt32(this.optName, n);
      this.optWritten = grownInt32(this.optWritten, n);
      this.optWord = grownInt32(this.optWord, n);
      this.optNeg = grownInt32(this.optNeg, n);
      this.optValue = grownInt32(this.optValue, n);
      this.optValueCount = grownUint8(this.optValueCount, n);
      this.optOwner = grownInt32(this.optOwner, n);
    }
    this.optName[k] = name;
    this.optWritten[k] = written;
    this.optWord[k] = word;
    this.optNeg[k] = neg;
    this.optValue[k] = value;
    this.optValueCount[k] = valueCount;
    this.optOwner[k] = owner;
    return k;
  }

  /** Appends a rule slot; the caller fills its rows. */
  addRuleSlot(): number {
    const k = this.ruleCount++;
    if (k >= this.ruleLine.length) {
      const n = k + 1;
      this.ruleLine = grownInt32(this.ruleLine, n);
      this.ruleBase = grownInt32(this.ruleBase, n);
      this.ruleContentStart = grownInt32(this.ruleContentStart, n);
      this.ruleContentEnd = grownInt32(this.ruleContentEnd, n);
      this.ruleFirstWord = grownInt32(this.ruleFirstWord, n);
      this.ruleEndWord = grownInt32(this.ruleEndWord, n);
      this.ruleBodyOffset = grownUint8(this.ruleBodyOffset, n);
      this.rulePrefixLength = grownInt32(this.rulePrefixLength, n);
      this.ruleOptFirst = grownInt32(this.ruleOptFirst, n);
      this.ruleOptEnd = grownInt32(this.ruleOptEnd, n);
      this.ruleModFirst = grownInt32(this.ruleModFirst, n);
      this.ruleModEnd = grownInt32(this.ruleModEnd, n);
      this.ruleTargetWord = grownInt32(this.ruleTargetWord, n);
      this.ruleFlags = grownUint8(this.ruleFlags, n);
    }
    return k;
  }

  addModule(name: number, word: number): number {
    const k = this.modCount++;
    if (k >= this.modName.length) {
      this.modName = grownInt32(this.modName, k + 1);
      this.modWord = grownInt32(this.modWord, k + 1);
    }
    this.modName[k] = name;
    this.modWord[k] = word;
    return k;
  }

  /**
   * Gives back spare capacity once the dump is read (it lives as long as the dump). Rows are copied only when
   * more than a quarter would be wasted: the copy costs a moment of double memory.
   */
  trim(): void {
    const wasteful = (used: number, capacity: number) => capacity > 4096 && used < capacity * 0.75;
    if (wasteful(this.wordCount, this.wordCol.length)) {
      this.wordCol = this.wordCol.slice(0, this.wordCount);
      this.wordLen = this.wordLen.slice(0, this.wordCount);
      this.wordFlags = this.wordFlags.slice(0, this.wordCount);
      this.wordKind = this.wordKind.slice(0, this.wordCount);
    }
    if (wasteful(this.optCount, this.optName.length)) {
      this.optName = this.optName.slice(0, this.optCount);
      this.optWritten = this.optWritten.slice(0, this.optCount);
      this.optWord = this.optWord.slice(0, this.optCount);
      this.optNeg = this.optNeg.slice(0, this.optCount);
      this.optValue = this.optValue.slice(0, this.optCount);
      this.optValueCount = this.optValueCount.slice(0, this.optCount);
      this.optOwner = this.optOwner.slice(0, this.optCount);
    }
    if (wasteful(this.modCount, this.modName.length)) {
      this.modName = this.modName.slice(0, this.modCount);
      this.modWord = this.modWord.slice(0, this.modCount);
    }
    const r = this.ruleCount;
    if (wasteful(r, this.ruleLine.length)) {
      this.ruleLine = this.ruleLine.slice(0, r);
      this.ruleBase = this.ruleBase.slice(0, r);
      this.ruleContentStart = this.ruleContentStart.slice(0, r);
      this.ruleContentEnd = this.ruleContentEnd.slice(0, r);
      this.ruleFirstWord = this.ruleFirstWord.slice(0, r);
      this.ruleEndWord = this.ruleEndWord.slice(0, r);
      this.ruleBodyOffset = this.ruleBodyOffset.slice(0, r);
      this.rulePrefixLength = this.rulePrefixLength.slice(0, r);
      this.ruleOptFirst = this.ruleOptFirst.slice(0, r);
      this.ruleOptEnd = this.ruleOptEnd.slice(0, r);
      this.ruleModFirst = this.ruleModFirst.slice(0, r);
      this.ruleModEnd = this.ruleModEnd.slice(0, r);
      this.ruleTargetWord = this.ruleTargetWord.slice(0, r);
      this.ruleFlags = this.ruleFlags.slice(0, r);
    }
  }

}
