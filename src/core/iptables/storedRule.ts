/**
 * A rule read into the rule store. The object is two fields (the store and its row): its scalar facts (chain,
 * table, target name, comment, counters, ids) are store columns, and its matches, options, spans and tokens are
 * built from the store when asked, so a 100k-rule dump keeps a few numbers per rule instead of a tree of objects
 * for the collector to copy. Nothing is cached except the tokens of a rule an editor asked for (`tokens`, kept
 * by the store); `readTokens` and `matches` build fresh objects each time.
 */
import { isWhiteCode } from '../common/chars';
import type { Span } from '../common/diagnostics';
import { valueId, wordValue, type RuleBody } from './ruleReader';
import { collapseSpaces } from './words';
import { IMPLICIT, KIND, OWNER_GENERIC, OWNER_TARGET, SPANS_LINES, TOKEN_KINDS, type RuleStore } from './ruleStore';
import type { Counters, Match, OptionArg, Rule, Target, Token } from './dump';

/** Where a rule's line and words are: the parser fills one and the rule copies it. */
export interface StoredRuleInit {
  line: number;
  /** Offset of the line in the dump text; word columns count from it. */
  base: number;
  /** Columns of the line's content (prefixes and trailing blanks excluded): [contentStart, contentEnd). */
  contentStart: number;
  contentEnd: number;
  /** Index in the store's `tableNames`. */
  table: number;
  /** Name id of the chain. */
  chain: number;
  command: Rule['command'];
  position: number | undefined;
  /** Store words of the whole line [first, end); the body starts at `bodyFirst`. */
  first: number;
  end: number;
  bodyFirst: number;
  /** Length of a `[p:b]` prefix (its own token), 0 without one. */
  prefixLength: number;
  counters: Counters | undefined;
  /** The rule goes on over following lines (a hard-wrapped paste): `contentEnd` is on its last line. */
  multiLine: boolean;
}

const COMMANDS: readonly Rule['command'][] = ['append', 'insert', 'delete', 'replace', 'check'];
const GOTO = 8;
const HAS_COUNTERS = 16;
/** `optionValueById` without a module: the first row of the option in any module. */
export const ANY_MODULE = -1;
/** `optionValueById` for the generic options only (module `''`). */
export const GENERIC_OPTIONS = -3;
const RENAMED = 32; // an `-E` changed its chain or target name: compare by the names, not the words written
const MULTI_LINE = 64; // written over several lines (a hard-wrapped paste)
const COMMAND_OPTIONS = 128; // an iptables command's own options among its words (`-A X -t nat ...`): not compared

/** The `option` given to a `forEachOptionName` visitor that takes none (it cannot call it). */
const NO_OPTION = (): OptionArg => {
  throw new Error('forEachOptionName: option() asked by a visitor that declared no option parameter');
};

export class StoredRule implements Rule {
  private readonly slot: number;

  constructor(
    private readonly store: RuleStore,
    init: StoredRuleInit,
    body: RuleBody,
  ) {
    const k = (this.slot = store.addRuleSlot());
    store.ruleLine[k] = init.line;
    if (init.base !== store.lineStart[init.line] || init.contentStart !== store.lineContentStart[init.line] - init.base)
      store.ruleOrigins.set(k, { base: init.base, contentStart: init.contentStart });
    store.setRuleContentEnd(k, init.contentEnd);
    store.ruleBodyOffset[k] = init.bodyFirst - init.first;
    if (init.prefixLength !== 0) store.rulePrefixLength[k] = init.prefixLength;
    store.setRuleRows(
      k,
      init.first,
      init.end,
      body.optFirst,
      body.optEnd,
      body.modFirst,
      body.modEnd,
      body.targetWord,
      body.commentWord,
    );
    store.ruleTable[k] = init.table;
    store.ruleChain[k] = init.chain;
    if (init.position !== undefined) store.rulePosition[k] = init.position + 1;
    store.ruleTargetName[k] = body.targetNameId;
    const counters = init.counters ?? body.counters;
    if (counters) {
      store.rulePackets[k] = counters.packets;
      store.ruleBytes[k] = counters.bytes;
      store.ruleCounterColumn[k] = counters.span.column;
      store.ruleCounterLength[k] = counters.span.length;
    }
    store.ruleFlags[k] =
      COMMANDS.indexOf(init.command) |
      (body.targetGoto ? GOTO : 0) |
      (counters ? HAS_COUNTERS : 0) |
      (init.multiLine ? MULTI_LINE : 0) |
      (body.commandOptions ? COMMAND_OPTIONS : 0);
  }

  get id(): number {
    return this.store.ruleId[this.slot] - 1;
  }
  set id(id: number) {
    this.store.ruleId[this.slot] = id + 1;
  }

  get index(): number {
    return this.store.ruleIndex[this.slot] - 1;
  }
  set index(index: number) {
    this.store.ruleIndex[this.slot] = index + 1;
  }

  get table(): string {
    return this.store.tableNames[this.store.ruleTable[this.slot]];
  }

  get chain(): string {
    return this.store.names.names[this.store.ruleChain[this.slot]];
  }

  get position(): number | undefined {
    const p = this.store.rulePosition[this.slot];
    return p === 0 ? undefined : p - 1;
  }

  get comment(): string | undefined {
    const id = this.commentNameId;
    return id < 0 ? undefined : this.store.names.names[id];
  }

  /** `-E FROM TO` (name ids): the rule's chain and its jump follow the new name, as they do in the kernel. */
  followRename(fromId: number, toId: number): void {
    const s = this.store;
    const k = this.slot;
    const inChain = s.ruleChain[k] === fromId;
    const jumps = s.ruleTargetName[k] === fromId;
    if (!inChain && !jumps) return;
    if (inChain) s.ruleChain[k] = toId;
    if (jumps) s.ruleTargetName[k] = toId;
    s.ruleFlags[k] |= RENAMED;
  }

  get chainNameId(): number {
    return this.store.ruleChain[this.slot];
  }

  get targetNameId(): number {
    return this.store.ruleTargetName[this.slot];
  }

  /** The comment's text, without adding it to the name table when it is not there yet (see Rule.commentText). */
  commentText(): string | undefined {
    const s = this.store;
    const k = this.slot;
    const id = s.ruleComment[k];
    if (id !== 0) return id < 0 ? undefined : s.names.names[id - 1];
    const word = s.ruleCommentWord(k);
    return word < 0 ? undefined : wordValue(s, word, s.ruleBase(k));
  }

  get commentNameId(): number {
    const s = this.store;
    const k = this.slot;
    if (s.ruleComment[k] === 0) {
      const word = s.ruleCommentWord(k);
      if (word < 0) return -1;
      s.ruleComment[k] = valueId(s, word, s.ruleBase(k)) + 1;
    }
    return s.ruleComment[k] - 1;
  }

  get targetName(): string | undefined {
    const id = this.store.ruleTargetName[this.slot];
    return id < 0 ? undefined : this.store.names.names[id];
  }

  /** Built on each access, like the spans. */
  get counters(): Counters | undefined {
    const s = this.store;
    const k = this.slot;
    if (!(s.ruleFlags[k] & HAS_COUNTERS)) return undefined;
    // `-c P B` on a continuation line of a hard-wrapped rule: its column counts from the rule's first line.
    const at = s.positionOf(s.ruleLine[k], s.ruleBase(k) + s.ruleCounterColumn[k]);
    return { packets: s.rulePackets[k], bytes: s.ruleBytes[k], span: { ...at, length: s.ruleCounterLength[k] } };
  }

  get line(): number {
    return this.store.ruleLine[this.slot];
  }

  get command(): Rule['command'] {
    return COMMANDS[this.store.ruleFlags[this.slot] & 7];
  }

  private get base(): number {
    return this.store.ruleBase(this.slot);
  }
  private get contentStart(): number {
    return this.store.ruleContentStart(this.slot);
  }
  private get contentEnd(): number {
    return this.store.ruleContentEnd[this.slot];
  }
  private get first(): number {
    return this.store.ruleFirstWord[this.slot];
  }
  private get end(): number {
    return this.store.ruleEndWord(this.slot);
  }
  private get bodyFirst(): number {
    return this.first + this.store.ruleBodyOffset[this.slot];
  }
  private get prefixLength(): number {
    return this.store.rulePrefixLength[this.slot];
  }
  private get optFirst(): number {
    return this.store.ruleOptFirst[this.slot];
  }
  private get optEnd(): number {
    return this.store.ruleOptEnd(this.slot);
  }
  private get modFirst(): number {
    return this.store.ruleModFirst[this.slot];
  }
  private get modEnd(): number {
    return this.store.ruleModEnd(this.slot);
  }
  private get targetWord(): number {
    return this.store.ruleTargetWord(this.slot);
  }

  /** Built on each access (a rule keeps only the target's name). */
  get target(): Target | undefined {
    const name = this.targetName;
    return name === undefined
      ? undefined
      : new StoredTarget(this, name, this.store.ruleFlags[this.slot] & GOTO ? 'goto' : 'jump', this.targetWord);
  }

  get span(): Span {
    const column = this.store.wordCol[this.first];
    return { line: this.line, column, length: this.firstLineEnd - column };
  }

  /** The last line of the rule: its own, unless a hard wrap carried it over following lines. */
  get endLine(): number {
    if (!this.multiLine) return this.line;
    // Where the last word ends: a word a terminal folded starts on one row and ends on the next.
    const s = this.store;
    const k = this.end - 1;
    return s.positionOf(this.line, this.base + s.wordCol[k] + Math.max(0, s.wordLen[k] - 1)).line;
  }

  private get multiLine(): boolean {
    return (this.store.ruleFlags[this.slot] & MULTI_LINE) !== 0;
  }

  /** Column where the rule's text ends on its first line (a span stays on one line). */
  private get firstLineEnd(): number {
    if (!this.multiLine) return this.contentEnd;
    const s = this.store;
    let end = s.lineStart[this.line + 1] - this.base;
    while (end > 0 && isWhiteCode(s.text.charCodeAt(this.base + end - 1))) end--;
    return end;
  }

  get chainSpan(): Span {
    return this.wordSpan(this.first + 1);
  }

  get text(): string {
    // A rule the paste wrapped over lines reads as the one line it is, without what the parser left out of its
    // lines (a `#`, `N:` or `> ` prefix).
    if (this.multiLine) return this.wordsText(false);
    return this.store.text.slice(this.base + this.store.wordCol[this.first + 1], this.base + this.contentEnd);
  }

  /** The rule's words from its chain on, one blank apart; `comparable` leaves out a position and `-c` counters. */
  private wordsText(comparable: boolean): string {
    const s = this.store;
    const out: string[] = [];
    const renamed = comparable && (s.ruleFlags[this.slot] & RENAMED) !== 0;
    for (let k = this.first + 1; k < this.end; k++) {
      if (comparable && k > this.first + 1 && k < this.bodyFirst) continue; // `-I CHAIN 2`: the position
      if (comparable && k >= this.bodyFirst && (s.wordKind[k] === KIND.command || s.wordKind[k] === KIND.table))
        continue; // `-t nat` among a command's words
      if (
        comparable &&
        (s.wordKind[k] === KIND.counter ||
          (k + 1 < this.end && s.wordKind[k + 1] === KIND.counter && s.wordKind[k] === KIND.option))
      )
        continue;
      if (renamed && k === this.first + 1) out.push(this.chain);
      else if (renamed && k === this.targetWord) out.push(this.targetName ?? this.rawWord(k));
      else out.push(this.rawWord(k));
    }
    return out.join(' ');
  }

  /**
   * The chain and the rule's own words, blanks collapsed: what `-D CHAIN spec` and duplicate detection compare.
   * A position (`-I CHAIN 2 ...`) and counters written inside the rule (`-c 5 300`) are no part of what the rule
   * matches and are left out. Read in the dump's own text (a flat string reads faster than a slice of it).
   */
  comparableText(): string {
    if (this.multiLine || this.store.ruleFlags[this.slot] & COMMAND_OPTIONS)
      return collapseSpaces(this.wordsText(true));
    const text = this.store.text;
    const counters = this.counters;
    const chainAt = this.base + this.store.wordCol[this.first + 1];
    const end = this.base + this.contentEnd;
    const bodyAt = this.bodyFirst < this.end ? this.base + this.store.wordCol[this.bodyFirst] : end;
    const c = counters?.span;
    const cut = c && c.line === this.line ? this.base + c.column : -1;
    const positioned = this.bodyFirst > this.first + 2;
    const renamed = (this.store.ruleFlags[this.slot] & RENAMED) !== 0;
    if (!positioned && !renamed && (cut <= bodyAt || cut >= end)) return collapseSpaces(text, chainAt, end);
    const chain = renamed ? this.chain : text.slice(chainAt, chainAt + this.store.wordLen[this.first + 1]);
    let body =
      cut > bodyAt && cut < end
        ? `${text.slice(bodyAt, cut)} ${text.slice(Math.min(end, cut + c!.length), end)}`
        : text.slice(bodyAt, end);
    if (renamed && this.targetWord >= 0) {
      // The target word as its current name: `-D CHAIN -j NEW` after `-E OLD NEW` deletes `-j OLD` rules.
      const at = this.base + this.store.wordCol[this.targetWord];
      // Counters before the rule (`[p:b] -A ...`) are outside the body; inside it, the target is before them.
      if (at >= bodyAt && (cut <= bodyAt || at < cut))
        body = `${text.slice(bodyAt, at)}${this.targetName ?? ''}${body.slice(at - bodyAt + this.store.wordLen[this.targetWord])}`;
    }
    return collapseSpaces(`${chain} ${body}`);
  }

  get matches(): Match[] {
    const s = this.store;
    const generic: OptionArg[] = [];
    const modules: Match[] = [];
    for (let m = this.modFirst; m < this.modEnd; m++) {
      const word = s.modWord[m];
      const match: Match = { module: s.nameOf(s.modName(m)), options: [] };
      if (word !== IMPLICIT) match.moduleSpan = this.wordSpan(word);
      modules.push(match);
    }
    const modFirst = this.modFirst;
    for (let k = this.optFirst; k < this.optEnd; k++) {
      const owner = s.optOwner(k, modFirst);
      if (owner === OWNER_TARGET) continue;
      const o = new StoredOption(this, k);
      if (owner === OWNER_GENERIC) generic.push(o);
      else modules[owner - this.modFirst].options.push(o);
    }
    return generic.length ? [{ module: '', options: generic }, ...modules] : modules;
  }

  /** The first option of this name (generic options first, then modules in order), without building the rest. */
  findOption(name: string, module?: string): OptionArg | undefined {
    const k = this.optionRow(name, module);
    return k < 0 ? undefined : new StoredOption(this, k);
  }

  /** The first value of `findOption(name, module)`; undefined for a negated option unless `evenNegated`. */
  optionValue(name: string, module?: string, evenNegated = false): string | undefined {
    const k = this.optionRow(name, module);
    return k < 0 ? undefined : this.rowValue(k, evenNegated);
  }

  /** The first value of the target's option `name` (`--to-destination` of a DNAT), without building options. */
  targetOptionValue(name: string): string | undefined {
    const s = this.store;
    const id = s.names.find(name);
    if (id < 0 || this.targetName === undefined) return undefined;
    for (let k = this.optFirst, end = this.optEnd; k < end; k++)
      if (s.optName(k) === id && this.isTargetRow(k)) return this.rowValue(k, true);
    return undefined;
  }

  /** An option row of the (last) target: options after an earlier, repeated -j are not its. */
  private isTargetRow(k: number): boolean {
    return this.store.optOwner(k, this.modFirst) === OWNER_TARGET && this.store.optWord[k] > this.targetWord;
  }

  /** The first row of option `id` in module row `m`, or -1. */
  private rowIn(m: number, id: number): number {
    const s = this.store;
    const modFirst = this.modFirst;
    for (let k = this.optFirst, end = this.optEnd; k < end; k++)
      if (s.optOwner(k, modFirst) === m && s.optName(k) === id) return k;
    return -1;
  }

  private rowValue(k: number, evenNegated: boolean): string | undefined {
    const s = this.store;
    if ((!evenNegated && s.optNeg(k) >= 0) || s.optValueCount[k] === 0) return undefined;
    return this.wordValue(s.optValue(k));
  }

  /** The option row `findOption` would build, or -1. */
  private optionRow(name: string, module?: string): number {
    const s = this.store;
    const id = s.names.find(name);
    if (id < 0) return -1;
    if (module === undefined) return this.optionRowById(id, ANY_MODULE);
    const moduleId = module === '' ? GENERIC_OPTIONS : s.names.find(module);
    return moduleId === -1 ? -1 : this.optionRowById(id, moduleId);
  }

  /**
   * `optionValue` by name ids (from the store's name table) for callers that ask every rule of a big dump the
   * same question; `moduleId` is ANY_MODULE for the first in any module (generic options first).
   */
  optionValueById(id: number, moduleId: number, evenNegated = false): string | undefined {
    const k = this.optionRowById(id, moduleId);
    return k < 0 ? undefined : this.rowValue(k, evenNegated);
  }

  private optionRowById(id: number, moduleId: number): number {
    const s = this.store;
    if (moduleId === GENERIC_OPTIONS) return this.rowIn(OWNER_GENERIC, id);
    // Without a module, generic options come first.
    if (moduleId === ANY_MODULE) {
      const k = this.rowIn(OWNER_GENERIC, id);
      if (k >= 0) return k;
    }
    // By module, as `matches` lists them: an implicit module's options need not be contiguous rows.
    for (let m = this.modFirst, end = this.modEnd; m < end; m++) {
      if (moduleId !== ANY_MODULE && s.modName(m) !== moduleId) continue;
      const row = this.rowIn(m, id);
      if (row >= 0) return row;
    }
    return -1;
  }

  moduleOption(module: string, name: string): OptionArg | undefined {
    const s = this.store;
    const moduleId = s.names.find(module);
    const id = s.names.find(name);
    if (moduleId < 0 || id < 0) return undefined;
    for (let m = this.modFirst, end = this.modEnd; m < end; m++) {
      if (s.modName(m) !== moduleId) continue;
      const k = this.rowIn(m, id);
      return k < 0 ? undefined : new StoredOption(this, k);
    }
    return undefined;
  }

  /** Whether a `-m module` (or an implicit one) of this name is on the rule. */
  hasModule(module: string): boolean {
    const s = this.store;
    const id = s.names.find(module);
    return id >= 0 && this.hasModuleId(id);
  }

  /** `hasModule` by the module name's id in the store's name table. */
  hasModuleId(id: number): boolean {
    const s = this.store;
    for (let m = this.modFirst, end = this.modEnd; m < end; m++) if (s.modName(m) === id) return true;
    return false;
  }

  /**
   * Visits each option's module ('' generic, null for the target's) and canonical name, without building it. A
   * visitor that takes no `option` gets no function for each row either: lint reads every rule's option names
   * twice, and a closure per row was 70 MB of garbage on a 168k-rule dump.
   */
  forEachOptionName(visit: (module: string | null, name: string, option: () => OptionArg) => void): void {
    const s = this.store;
    const modFirst = this.modFirst;
    const wantsOption = visit.length >= 3;
    for (let k = this.optFirst; k < this.optEnd; k++) {
      const owner = s.optOwner(k, modFirst);
      if (owner === OWNER_TARGET && !this.isTargetRow(k)) continue;
      const module = owner === OWNER_TARGET ? null : owner === OWNER_GENERIC ? '' : s.nameOf(s.modName(owner));
      visit(module, s.nameOf(s.optName(k)), wantsOption ? this.optionOf(k) : NO_OPTION);
    }
  }

  /** Option row k, built when called (a function of its own: a closure in the loop gave every row a context). */
  private optionOf(k: number): () => OptionArg {
    return () => new StoredOption(this, k);
  }

  /** See dump.ts `lastGenericOption`: read backwards from the rows (the trace reads every KUBE-SERVICES rule's `-d`). */
  lastGenericOption(name: string, accept: (value: string) => boolean): { value: string; negated: boolean } | undefined {
    const s = this.store;
    const id = s.names.find(name);
    if (id < 0) return undefined;
    const modFirst = this.modFirst;
    for (let k = this.optEnd - 1, first = this.optFirst; k >= first; k--) {
      if (s.optOwner(k, modFirst) !== OWNER_GENERIC || s.optName(k) !== id) continue;
      const value = s.optValueCount[k] === 0 ? '' : this.wordValue(s.optValue(k));
      if (accept(value)) return { value, negated: s.optNeg(k) >= 0 };
    }
    return undefined;
  }

  forEachModuleName(visit: (module: string, explicit: boolean) => void): void {
    const s = this.store;
    for (let m = this.modFirst, end = this.modEnd; m < end; m++)
      visit(s.nameOf(s.modName(m)), s.modWord[m] !== IMPLICIT);
  }

  get tokens(): Token[] {
    const cache = this.store.cachedTokens;
    let tokens = cache.get(this.slot);
    if (!tokens) cache.set(this.slot, (tokens = this.readTokens()));
    return tokens;
  }

  readTokens(): Token[] {
    const out: Token[] = [];
    const counters = this.prefixLength > 0 ? this.counters : undefined;
    if (counters) {
      const at = this.base + this.contentStart;
      out.push({ kind: 'counter', text: this.store.text.slice(at, at + this.prefixLength), span: counters.span });
    }
    const s = this.store;
    for (let k = this.first; k < this.end; k++) {
      const kind =
        k === this.first
          ? 'command'
          : k === this.first + 1
            ? 'chainRef'
            : k < this.bodyFirst
              ? 'value'
              : TOKEN_KINDS[s.wordKind[k]];
      if (s.wordFlags[k] & SPANS_LINES) {
        // A quoted value a hard wrap broke: a token per line, none past its line's end.
        const at = this.base + s.wordCol[k];
        for (const span of s.pieces(at, at + s.wordLen[k]))
          out.push({
            kind,
            text: s.text.slice(
              s.lineStart[span.line] + span.column,
              s.lineStart[span.line] + span.column + span.length,
            ),
            span,
          });
      } else out.push({ kind, text: this.rawWord(k), span: this.wordSpan(k) });
    }
    // Family options written before the command (`-4 -A X ...`) are stored after it: tokens go in text order.
    for (let i = 1; i < out.length; i++) if (comesBefore(out[i].span, out[i - 1].span)) return out.sort(inTextOrder);
    return out;
  }

  /** Plain data for JSON: the derived parts (tokens, the store) are left out. */
  toJSON(): Omit<Rule, 'tokens'> {
    return {
      id: this.id,
      table: this.table,
      chain: this.chain,
      line: this.line,
      ...(this.multiLine ? { endLine: this.endLine } : {}),
      span: this.span,
      chainSpan: this.chainSpan,
      command: this.command,
      ...(this.position !== undefined ? { position: this.position } : {}),
      text: this.text,
      matches: this.matches,
      ...(this.targetName !== undefined ? { target: this.target } : {}),
      ...(this.comment !== undefined ? { comment: this.comment } : {}),
      ...(this.counters ? { counters: this.counters } : {}),
      index: this.index,
    };
  }

  /** @internal for StoredOption and StoredTarget */
  wordSpan(k: number): Span {
    return this.store.spanOf(this.line, k);
  }

  /** @internal */
  rawWord(k: number): string {
    const at = this.base + this.store.wordCol[k];
    if (this.store.wordFlags[k] & SPANS_LINES) return this.store.wordAcrossLines(k, at);
    return this.store.text.slice(at, at + this.store.wordLen[k]);
  }

  /** @internal */
  wordValue(k: number): string {
    return wordValue(this.store, k, this.base);
  }

  /** @internal */
  get rowStore(): RuleStore {
    return this.store;
  }

  /** @internal the target's option rows. */
  targetOptions(): OptionArg[] {
    const out: OptionArg[] = [];
    for (let k = this.optFirst; k < this.optEnd; k++) if (this.isTargetRow(k)) out.push(new StoredOption(this, k));
    return out;
  }
}

/** One option row seen as an `OptionArg`; every field is read from the store on access. */
class StoredOption implements OptionArg {
  constructor(
    private readonly rule: StoredRule,
    private readonly row: number,
  ) {}

  get name(): string {
    const s = this.rule.rowStore;
    return s.nameOf(s.optName(this.row));
  }

  get written(): string {
    const s = this.rule.rowStore;
    return s.nameOf(s.optWritten(this.row));
  }

  get values(): string[] {
    const s = this.rule.rowStore;
    const first = s.optValue(this.row);
    // Most options have one value: an array of one, not a push's room for 17 (lint reads 40k probabilities).
    if (s.optValueCount[this.row] === 1) return [this.rule.wordValue(first)];
    const out: string[] = [];
    for (let i = 0; i < s.optValueCount[this.row]; i++) out.push(this.rule.wordValue(first + i));
    return out;
  }

  get negated(): boolean {
    return this.rule.rowStore.optNeg(this.row) >= 0;
  }

  get span(): Span {
    return this.rule.wordSpan(this.rule.rowStore.optWord[this.row]);
  }

  get valueSpans(): Span[] {
    const s = this.rule.rowStore;
    const first = s.optValue(this.row);
    const out: Span[] = [];
    for (let i = 0; i < s.optValueCount[this.row]; i++) out.push(this.rule.wordSpan(first + i));
    return out;
  }

  get negationSpan(): Span | undefined {
    const neg = this.rule.rowStore.optNeg(this.row);
    return neg >= 0 ? this.rule.wordSpan(neg) : undefined;
  }

  toJSON(): OptionArg {
    const negationSpan = this.negationSpan;
    return {
      name: this.name,
      written: this.written,
      values: this.values,
      negated: this.negated,
      span: this.span,
      valueSpans: this.valueSpans,
      ...(negationSpan ? { negationSpan } : {}),
    };
  }
}

class StoredTarget implements Target {
  constructor(
    private readonly rule: StoredRule,
    readonly name: string,
    readonly kind: 'jump' | 'goto',
    /** @internal store word of the target name */
    readonly word: number,
  ) {}

  get span(): Span {
    return this.rule.wordSpan(this.word);
  }

  get options(): OptionArg[] {
    return this.rule.targetOptions();
  }

  toJSON(): Target {
    return { name: this.name, kind: this.kind, span: this.span, options: this.options };
  }
}

function comesBefore(a: Span, b: Span): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}

function inTextOrder(a: Token, b: Token): number {
  return a.span.line - b.span.line || a.span.column - b.span.column;
}
