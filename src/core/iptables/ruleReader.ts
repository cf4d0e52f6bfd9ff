/**
 * Reads one rule line into the rule store: splits it into words the way iptables-restore does (whitespace
 * separates; double quotes group, with `\"` and `\\` escapes; single quotes group), glues back words a terminal
 * wrap split, then sorts the body words into options, modules, the target, the comment and counters.
 * Each word gets its flags and token kind; nothing per word is allocated, and a line allocates only what it keeps.
 */
import type { Diagnostic, Span } from '../common/diagnostics';
import { isAlnumCode, isBlankCode, isDigitCode } from '../common/chars';
import type { LineIndex } from '../common/lines';
import {
  COMMAND_OPTION_VALUES,
  familyOptionAt,
  IMPLICIT_PROTOCOL_MODULES,
  knownModuleOptions,
  RULE_CHANGING_COMMANDS,
  takesAnyWordAsValue,
} from './options';
import { problem } from './problems';
import {
  BANG,
  FNV_START,
  fnvStep,
  FOLDED,
  IMPLICIT,
  JOINED,
  KIND,
  SPANS_LINES,
  NameRole,
  NEGATIVE_NUMBER,
  OPTION_LIKE,
  OWNER_GENERIC,
  OWNER_TARGET,
  QUOTED,
  UNQUOTE,
  type RuleStore,
} from './ruleStore';
import type { Counters } from './dump';
import { isWordBreakCode, lastWord, scanWord, unquoteWord } from './words';

/** Gap (in columns) inside a line that marks a terminal wrap glued back by the paste, e.g. `KUBE-POSTROUTI      NG`. */
export const WRAP_GAP = 20;

/** The value of a word of the line starting at `base`: quotes removed and escapes resolved; a glued wrap without its gap. */
export function wordValue(store: RuleStore, k: number, base: number): string {
  const at = base + store.wordCol[k];
  const text = store.text.slice(at, at + store.wordLen[k]);
  const flags = store.wordFlags[k];
  if (flags & JOINED)
    return text
      .split(/[ \t]+/)
      .map(unquoteWord)
      .join('');
  if (flags & SPANS_LINES) return unquoteWord(store.wordAcrossLines(k, at));
  return flags & UNQUOTE ? unquoteWord(text) : text;
}

/**
 * Where the family options written before a line's command end (`-4 -A FWR ...`, `--ipv6 -A ...`: iptables-restore
 * takes them there as after the command): the offset after them and their blanks, `at` when none starts there.
 */
export function afterFamilyOptions(text: string, at: number): number {
  let next = at;
  for (;;) {
    let end = next;
    while (end < text.length && text.charCodeAt(end) > 32) end++;
    if (end === next || end === text.length || !isBlankCode(text.charCodeAt(end))) return next;
    if (familyOptionAt(text, next, end - next) === undefined) return next;
    while (end < text.length && isBlankCode(text.charCodeAt(end))) end++;
    next = end;
  }
}

/** How many of the store's words from `first` (up to `end`) are family options (`-4 -6 -A ...`: two). */
export function leadingFamilyWords(store: RuleStore, first: number, end: number, base: number): number {
  let k = first;
  while (
    k < end &&
    !(store.wordFlags[k] & (QUOTED | JOINED)) &&
    familyOptionAt(store.text, base + store.wordCol[k], store.wordLen[k])
  )
    k++;
  return k - first;
}

/**
 * Puts the `lead` family words the line wrote before its command after the command's own words (`-4 -A X ...` is
 * stored as `-A X -4 ...`, `-6 -I X 2 ...` as `-I X 2 -6 ...`), so they are read as the rule's options, as
 * iptables-restore reads them. `commandWords`: the command, its chain and a position.
 */
export function moveLeadingWords(store: RuleStore, first: number, lead: number, commandWords: number): void {
  const n = lead + commandWords;
  const columns = [store.wordCol, store.wordLen, store.wordFlags, store.wordKind];
  for (const column of columns) {
    const moved = Array.from(column.subarray(first, first + n));
    for (let k = 0; k < n; k++) column[first + k] = moved[(k + lead) % n];
  }
}

/** How a terminal's fold joins a segment to the rule: line breaks in words read as nothing; the first word glued on. */
const NO_FOLD = { breaks: false, glueFirst: false };

/** What `scanWords` found besides the words; one object reused for every line. */
export const scanned = { end: 0, unterminatedQuoteAt: -1 };

/**
 * Splits the content of `line` from offset `from` (in the text) into words appended to the store; `scanned`
 * tells where they end and where a quote was left open (-1 when none). `ruleLine` is the line the rule starts
 * on (earlier than `line` for a continuation line of a hard-wrapped rule): word columns count from its start.
 * `fold` says the segment is the rest of a line a terminal folded at its width (see the parser's `foldsInto`).
 * `until`: where the words end, when not at the line's end (a command line's shell operators after its rule).
 */
export function scanWords(
  store: RuleStore,
  lines: LineIndex,
  line: number,
  from: number,
  diagnostics: Diagnostic[],
  ruleLine = line,
  fold: { breaks: boolean; glueFirst: boolean } = NO_FOLD,
  until = lines.contentEnd[line],
): void {
  const text = store.text;
  const base = lines.start[ruleLine];
  const n = until;
  const first = store.wordCount;
  // Scanning on from an earlier line: a quote a hard wrap left open goes on over the line break.
  const multiLine = ruleLine !== line && from < lines.start[line];
  let unterminatedQuoteAt = -1;
  const glueFirst = fold.glueFirst;
  // A word extended over wrap gaps, and what it read before the first and in the pieces after: one note for the
  // run when it ends (a note per piece, each quoting the whole word so far, was quadratic on a padded line).
  let joining = -1;
  let joinedBefore = '';
  let joinedAfter = '';
  const noteJoin = (): void => {
    if (joining < 0) return;
    const params = { before: joinedBefore, after: joinedAfter, joined: joinedBefore + joinedAfter };
    diagnostics.push(problem('wrapped-word-joined', 'info', store.spanOf(ruleLine, joining), params));
    joining = -1;
  };
  // Where the next line break is at or after `nextBreakFrom` (-1: none): a search back from each word of a rule
  // over several lines crossed the whole line so far, quadratic in its words.
  let nextBreakFrom = -1;
  let nextBreak = -1;
  /** Whether a line break is in [from, to]. */
  const breakWithin = (from: number, to: number): boolean => {
    if (from < nextBreakFrom || (nextBreak >= 0 && nextBreak < from) || nextBreakFrom < 0) {
      nextBreakFrom = from;
      nextBreak = text.indexOf('\n', from);
    }
    return nextBreak >= 0 && nextBreak <= to;
  };
  // The loop of `forEachWord`, written out: a closure per line was the parse's largest allocation.
  let i = from;
  while (i < n) {
    if (isWordBreakCode(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    // Nearly every word is plain (no quote, backslash or other character below `(`): read here, as scanWord
    // would, and only the others by scanWord.
    let end = start;
    let c = 0;
    while (end < n && (c = text.charCodeAt(end)) > 39 && c !== 92) end++;
    let flags = 0;
    if (end < n && !isWordBreakCode(c)) {
      end = scanWord(text, start, n);
      // The store's QUOTED and UNQUOTE are the word flags' bits.
      flags = lastWord.flags;
      if (lastWord.unclosedQuoteAt >= 0 && unterminatedQuoteAt < 0)
        unterminatedQuoteAt = lastWord.unclosedQuoteAt - base;
    }
    i = end;
    const prev = store.wordCount - 1;
    // A terminal folded the line at its width: the first word of the next line is the rest of the last one.
    if (glueFirst && start === from && prev >= 0) {
      const col = store.wordCol[prev];
      store.setWordLength(prev, end - base - col);
      const joined =
        (store.wordFlags[prev] | flags | SPANS_LINES | FOLDED | UNQUOTE) & ~(BANG | OPTION_LIKE | NEGATIVE_NUMBER);
      // Its shape (an option? a `!`?) is that of the whole word, as if the line had not been folded.
      const whole = store.joinedText(base + col, end, '');
      store.wordFlags[prev] = joined | shapeFlags(whole, 0, whole.length, joined & QUOTED);
      continue;
    }
    if (prev >= first && !(flags & QUOTED) && text.charCodeAt(start) !== 45 && !(store.wordFlags[prev] & QUOTED)) {
      const prevEnd = store.wordCol[prev] + store.wordLen[prev];
      // A wide gap inside the line is a terminal wrap; one across a line break is a hard wrap between words.
      if (start - base - prevEnd >= WRAP_GAP && !(multiLine && breakWithin(base + prevEnd, start))) {
        if (joining !== prev) {
          noteJoin();
          joining = prev;
          joinedBefore = wordValue(store, prev, base);
          joinedAfter = '';
        }
        joinedAfter += joinWrapped(store, prev, base, start - base, end - base, flags);
        continue;
      }
    }
    noteJoin();
    const spans =
      multiLine && flags & QUOTED && breakWithin(start + 1, end)
        ? SPANS_LINES | UNQUOTE | (fold.breaks ? FOLDED : 0)
        : 0;
    store.addWord(start - base, end - start, flags | spans | shapeFlags(text, start, end, flags));
  }
  noteJoin();
  scanned.end = store.wordCount;
  scanned.unterminatedQuoteAt = unterminatedQuoteAt;
}

/** BANG, OPTION_LIKE and NEGATIVE_NUMBER of the raw word [start, end). */
function shapeFlags(text: string, start: number, end: number, flags: number): number {
  if (flags & QUOTED || text.charCodeAt(start) !== 45 || end - start < 2) {
    return end - start === 1 && !(flags & QUOTED) && text.charCodeAt(start) === 33 ? BANG : 0;
  }
  const c1 = text.charCodeAt(start + 1);
  if (c1 === 45) return end - start >= 3 && isAlnumCode(text.charCodeAt(start + 2)) ? OPTION_LIKE : 0;
  if (!isDigitCode(c1)) return isAlnumCode(c1) ? OPTION_LIKE : 0;
  // `-5` is a value (a negative number), not an option; `-5x` reads as an option, and so do `-4` and `-6`
  // (`--ipv4`, `--ipv6`) where an option may start.
  for (let i = start + 2; i < end; i++) if (!isDigitCode(text.charCodeAt(i))) return OPTION_LIKE | NEGATIVE_NUMBER;
  return end - start === 2 && (c1 === 52 || c1 === 54) ? OPTION_LIKE | NEGATIVE_NUMBER : NEGATIVE_NUMBER;
}

/** Extends word `prev` over a wrap gap to the word at columns [start, end); returns that piece's value. */
function joinWrapped(store: RuleStore, prev: number, base: number, start: number, end: number, flags: number): string {
  const piece = store.addWord(start, end - start, flags);
  const after = wordValue(store, piece, base);
  store.wordCount--; // the piece was only read for its value
  const col = store.wordCol[prev];
  store.setWordLength(prev, end - col);
  const joined = (store.wordFlags[prev] & (QUOTED | UNQUOTE)) | JOINED | (flags & UNQUOTE);
  store.wordFlags[prev] = joined | shapeFlags(store.text, base + col, base + end, joined);
  return after;
}

/** What `readRuleBody` found: one object reused for every rule (the rule copies what it keeps). */
export interface RuleBody {
  /** Word of the target name after -j/-g, -1 without one. */
  targetWord: number;
  targetName: string | undefined;
  /** Name id of the target name, -1 without one. */
  targetNameId: number;
  targetGoto: boolean;
  /**
   * Word of the comment's value, -1 without one. Its name is interned when first asked (`commentValue` reads it
   * now): a trace reads a handful of a big dump's 100k+ comments.
   */
  commentWord: number;
  counters: Counters | undefined;
  /** The iptables command's own options (`-t nat`) are among the rule's words (read as command and table words). */
  commandOptions: boolean;
  /** Option and module rows of this rule: [optFirst, optEnd), [modFirst, modEnd). */
  optFirst: number;
  optEnd: number;
  modFirst: number;
  modEnd: number;
}

/** The rule commands: a rule line holds one, before its chain. */
const RULE_COMMAND_WORDS = new Set(RULE_CHANGING_COMMANDS);

/** Whether the word at [at, at + length) is a rule command; decided by its length and second letter first. */
function isRuleCommandWord(text: string, at: number, length: number): boolean {
  if (length === 2) {
    const c = text.charCodeAt(at + 1);
    return c === 65 || c === 73 || c === 68 || c === 82; // A I D R
  }
  return (length === 8 || length === 9) && RULE_COMMAND_WORDS.has(text.slice(at, at + length));
}

const body: RuleBody = {
  targetWord: -1,
  targetName: undefined,
  targetNameId: -1,
  targetGoto: false,
  commentWord: -1,
  counters: undefined,
  commandOptions: false,
  optFirst: 0,
  optEnd: 0,
  modFirst: 0,
  modEnd: 0,
};

function wordSpan(store: RuleStore, line: number, k: number): Span {
  return store.spanOf(line, k);
}

/** An option may start at word k (inside the body [.., end)). */
function optionAt(store: RuleStore, k: number, end: number): boolean {
  return k < end && (store.wordFlags[k] & OPTION_LIKE) !== 0;
}

function bangAt(store: RuleStore, k: number, end: number): boolean {
  return k < end && (store.wordFlags[k] & BANG) !== 0;
}

/**
 * Sorts the body words [first, end) of one rule (`-s 10.0.0.0/8 -m tcp --dport 80 -j DNAT --to-destination ...`)
 * into option and module rows, and finds the target, comment and `-c` counters. The result is valid until the
 * next call. `commandLine`: the rule is an iptables command's (`iptables -A POSTROUTING -t nat ...`), whose own
 * options (`-t nat`, `-w`) may come among the rule's: they are read as such, no part of the rule.
 */
export function readRuleBody(
  store: RuleStore,
  line: number,
  base: number,
  first: number,
  end: number,
  diagnostics: Diagnostic[],
  commandLine = false,
): RuleBody {
  const text = store.text;
  const col = store.wordCol;
  const len = store.wordLen;
  const kind = store.wordKind;
  const names = store.names;

  body.targetWord = -1;
  body.targetName = undefined;
  body.targetNameId = -1;
  body.targetGoto = false;
  body.commentWord = -1;
  body.counters = undefined;
  body.commandOptions = false;
  body.optFirst = store.optCount;
  body.modFirst = store.modCount;
  let current = OWNER_GENERIC; // module row options go to; OWNER_GENERIC before any -m
  let inTarget = false;
  let pendingBang = -1;
  let protocol: string | undefined;
  let protocolId = -1;

  let i = first;
  while (i < end) {
    if (bangAt(store, i, end)) {
      kind[i] = KIND.negation;
      pendingBang = i;
      i++;
      continue;
    }
    if (!optionAt(store, i, end)) {
      kind[i] = KIND.value;
      diagnostics.push(
        problem('unexpected-word', 'warning', wordSpan(store, line, i), { word: wordValue(store, i, base) }),
      );
      i++;
      continue;
    }
    // An option name a wrap broke (`--comm` + `ent`) is read as its value, not its text.
    const writtenId =
      store.wordFlags[i] & (UNQUOTE | JOINED)
        ? valueId(store, i, base)
        : names.idOf(text, base + col[i], base + col[i] + len[i]);
    if (commandLine) {
      const after = commandOptionEnd(store, i, end, base);
      if (after > i) {
        const table = after === i + 2 && /^(?:-t|--table)$/.test(wordValue(store, i, base));
        kind[i] = KIND.command;
        for (let k = i + 1; k < after; k++) kind[k] = table ? KIND.table : KIND.command;
        body.commandOptions = true;
        i = after;
        continue;
      }
    }
    // `-j KUBE-SEP-A -A KUBE-SVC-X ...`: a second rule after the first on one line (a line break a page or a chat
    // lost). iptables refuses it (`Cannot use -A with -A`); the first rule is read, the rest of the line is not.
    if (isRuleCommandWord(text, base + col[i], len[i])) {
      diagnostics.push(
        problem('second-rule-command', 'error', wordSpan(store, line, i), { command: names.names[writtenId] }),
      );
      for (let k = i; k < end; k++) kind[k] = KIND.value;
      break;
    }
    const info = store.optionInfo(writtenId);
    const w = i;
    kind[w] = KIND.option;
    if (info.role === NameRole.Match) {
      if (i + 1 >= end || optionAt(store, i + 1, end)) {
        diagnostics.push(
          problem('missing-module-name', 'error', wordSpan(store, line, w), { option: names.names[writtenId] }),
        );
        i++;
        continue;
      }
      kind[i + 1] = KIND.module;
      // After -j, options stay the target's even past a later -m (as iptables reads them).
      current = store.addModule(valueId(store, i + 1, base), i + 1);
      i += 2;
      continue;
    }
    if (info.role === NameRole.Jump || info.role === NameRole.Goto) {
      if (i + 1 >= end || optionAt(store, i + 1, end)) {
        diagnostics.push(
          problem('missing-target', 'error', wordSpan(store, line, w), { option: names.names[writtenId] }),
        );
        i++;
        continue;
      }
      const t = i + 1;
      kind[t] = KIND.target;
      const targetNameId = valueId(store, t, base);
      const targetName = names.names[targetNameId];
      if (body.targetWord >= 0) {
        diagnostics.push(problem('duplicate-target', 'error', wordSpan(store, line, t), { target: targetName }));
      }
      body.targetWord = t;
      body.targetName = targetName;
      body.targetNameId = targetNameId;
      body.targetGoto = info.role === NameRole.Goto;
      inTarget = true;
      current = OWNER_GENERIC;
      i += 2;
      continue;
    }
    if (info.role === NameRole.Counters) {
      // `-c packets bytes` (iptables -S -v and restore input)
      const p = i + 1;
      const b = i + 2;
      const pv = b < end ? wordValue(store, p, base) : '';
      const bv = b < end ? wordValue(store, b, base) : '';
      if (b < end && /^\d+$/.test(pv) && /^\d+$/.test(bv)) {
        kind[p] = KIND.counter;
        kind[b] = KIND.counter;
        body.counters = {
          packets: Number(pv),
          bytes: Number(bv),
          span: { line, column: col[w], length: col[b] + len[b] - col[w] },
        };
        i += 3;
      } else {
        diagnostics.push(
          problem('bad-counters', 'error', wordSpan(store, line, w), { option: names.names[writtenId] }),
        );
        i++;
      }
      continue;
    }

    // A regular option: find where its values end.
    const arity = info.arity;
    let j = i + 1;
    let neg = pendingBang;
    // Old syntax puts `!` after the option: `--dport ! 80`.
    if (arity > 0 && bangAt(store, j, end) && j + 1 < end && !optionAt(store, j + 1, end)) {
      kind[j] = KIND.negation;
      neg = j;
      j++;
    }
    const firstValue = j;
    let count = 0;
    while (count < arity && j < end) {
      const f = store.wordFlags[j];
      // `--comment -A` (iptables-save writes a one-word value unquoted): asked only of a value spelt like an option.
      if (
        f & BANG ||
        (f & OPTION_LIKE && !(count === 0 && (f & NEGATIVE_NUMBER || takesAnyWordAsValue(names.names[info.canonical]))))
      )
        break;
      count++;
      j++;
    }
    if (count < arity) {
      diagnostics.push(
        problem(
          'missing-option-value',
          'error',
          wordSpan(store, line, w),
          { option: names.names[writtenId] },
          arity === 2 ? 'two' : undefined,
        ),
      );
    }
    const isComment = info.canonical === store.commentId;
    const valueKind = isComment ? KIND.commentText : KIND.value;
    for (let v = firstValue; v < j; v++) kind[v] = valueKind;
    pendingBang = -1;

    let owner: number;
    if (inTarget) owner = OWNER_TARGET;
    else if (info.generic) {
      owner = OWNER_GENERIC;
      // Interned: the same few protocols on every rule are neither copied out of the line nor hashed again.
      if (info.canonical === store.protocolId && count > 0) {
        protocolId = store.lowerCaseId(valueId(store, firstValue, base));
        protocol = names.names[protocolId];
      }
    } else if (current !== OWNER_GENERIC && !(protocol && belongsToProtocol(store, current, info.canonical, protocol)))
      owner = current;
    else if (protocol && IMPLICIT_PROTOCOL_MODULES.has(protocol)) {
      // `--dport` right after `-p tcp` without `-m tcp`: iptables loads the protocol's module implicitly.
      owner = implicitModule(store, body.modFirst, protocolId);
    } else {
      owner = OWNER_GENERIC;
      diagnostics.push(
        problem('option-without-module', 'warning', wordSpan(store, line, w), { option: names.names[writtenId] }),
      );
    }
    store.addOption(writtenId, w, neg, firstValue, count, owner, body.modFirst);
    if (isComment && count > 0) body.commentWord = firstValue;
    i = j;
  }
  if (pendingBang >= 0) {
    diagnostics.push(problem('dangling-negation', 'error', wordSpan(store, line, pendingBang)));
  }
  body.optEnd = store.optCount;
  body.modEnd = store.modCount;
  return body;
}

/** After an option of the iptables command itself at word k (`-t nat`, `-w 5`, `--table=nat`): its end; k if none. */
function commandOptionEnd(store: RuleStore, k: number, end: number, base: number): number {
  const word = wordValue(store, k, base);
  if (word.startsWith('--table=') || word.startsWith('--wait=')) return k + 1;
  const takes = COMMAND_OPTION_VALUES.get(word);
  if (takes === undefined) return k;
  if (takes === 1 || (takes === -1 && k + 1 < end && /^\d+$/.test(wordValue(store, k + 1, base))))
    return Math.min(end, k + 2);
  return k + 1;
}

/** The value of the comment `readRuleBody` found, or undefined. */
export function commentValue(store: RuleStore, body: RuleBody, base: number): string | undefined {
  return body.commentWord < 0 ? undefined : wordValue(store, body.commentWord, base);
}

/** Interned value of a word: plain words and simple `"..."` need no copy of their own. */
export function valueId(store: RuleStore, k: number, base: number): number {
  const raw = store.text;
  const at = base + store.wordCol[k];
  const n = store.wordLen[k];
  const flags = store.wordFlags[k];
  if (!(flags & (UNQUOTE | JOINED))) return store.names.idOf(raw, at, at + n);
  if (!(flags & (JOINED | SPANS_LINES)) && n >= 2) {
    const q = raw.charCodeAt(at);
    if ((q === 34 || q === 39) && raw.charCodeAt(at + n - 1) === q) {
      // One pass both hashes the inside and makes sure it holds no quote or escape (every Service comment).
      let simple = true;
      let h = FNV_START;
      for (let i = at + 1; i < at + n - 1; i++) {
        const c = raw.charCodeAt(i);
        if (c === 34 || c === 39 || c === 92) {
          simple = false;
          break;
        }
        h = fnvStep(h, c);
      }
      if (simple) return store.names.idOfHashed(raw, at + 1, at + n - 1, h);
    }
  }
  const v = wordValue(store, k, base);
  return store.names.idOf(v, 0, v.length);
}

function implicitModule(store: RuleStore, modFirst: number, nameId: number): number {
  for (let m = modFirst; m < store.modCount; m++)
    if (store.modWord[m] === IMPLICIT && store.modName(m) === nameId) return m;
  return store.addModule(nameId, IMPLICIT);
}

/**
 * `-p tcp -m state --state NEW --dport 22`: an option the current module does not know but the protocol's does
 * is the protocol's (iptables loads the protocol match when no loaded one takes the option).
 */
function belongsToProtocol(store: RuleStore, module: number, canonical: number, protocol: string): boolean {
  if (!IMPLICIT_PROTOCOL_MODULES.has(protocol)) return false;
  const option = store.names.names[canonical];
  const current = knownModuleOptions(store.names.names[store.modName(module)]);
  return current !== undefined && !current.has(option) && knownModuleOptions(protocol)?.has(option) === true;
}
