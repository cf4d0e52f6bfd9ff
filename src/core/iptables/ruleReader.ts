/**
 * Reads one rule line into the rule store: splits it into words the way iptables-restore does (whitespace
 * separates; double quotes group, with `\"` and `\\` escapes; single quotes group), glues back words a terminal
 * wrap split, then sorts the body words into options, modules, the target, the comment and counters.
 * Each word gets its token kind; nothing per word is allocated.
 */
import type { Diagnostic, Span } from '../common/diagnostics';
import type { LineIndex } from '../common/lines';
import { IMPLICIT_PROTOCOL_MODULES } from './options';
import { IMPLICIT, JOINED, KIND, NameRole, OWNER_GENERIC, OWNER_TARGET, QUOTED, UNQUOTE, type RuleStore } from './ruleStore';
import type { Counters } from './types';
import { splitWords } from './words';

/** Gap (in columns) inside a line that marks a terminal wrap glued back by the paste, e.g. `KUBE-POSTROUTI      NG`. */
export const WRAP_GAP = 20;

export interface ScannedWords {
  /** Store indexes of the line's words: [first, end). */
  first: number;
  end: number;
  /** Column of an opening quote that was never closed. */
  unterminatedQuoteAt?: number;
}

/** The value of a word of the line starting at `base`: quotes removed and escapes resolved; a glued wrap without its gap. */
export function wordValue(store: RuleStore, k: number, base: number): string {
  const at = base + store.wordCol[k];
  const text = store.text.slice(at, at + store.wordLen[k]);
  const flags = store.wordFlags[k];
  if (flags & JOINED) return text.split(/[ \t]+/).map(unquote).join('');
  return flags & UNQUOTE ? unquote(text) : text;
}

function unquote(word: string): string {
  return splitWords(word).words[0]?.value ?? '';
}

/** Splits the content of `line` from offset `from` (in the text) into words appended to the store. */
export function scanWords(store: RuleStore, lines: LineIndex, line: number, from: number, diagnostics: Diagnostic[]): ScannedWords {
  const text = store.text;
  const base = lines.start[line];
  const n = lines.contentEnd[line];
  const first = store.wordCount;
  let unterminatedQuoteAt: number | undefined;
  let i = from;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) {
      i++;
      continue;
    }
    const start = i;
    let flags = 0;
    while (i < n) {
      const ch = text.charCodeAt(i);
      if (ch === 32 || ch === 9) break;
      if (ch === 34 || ch === 39) {
        flags |= QUOTED | UNQUOTE;
        const open = i++;
        let closed = false;
        while (i < n) {
          const q = text.charCodeAt(i);
          if (q === 92 && ch === 34 && i + 1 < n) {
            const e = text.charCodeAt(i + 1);
            if (e === 34 || e === 92) {
              i += 2;
              continue;
            }
          }
          i++;
          if (q === ch) {
            closed = true;
            break;
          }
        }
        if (!closed && unterminatedQuoteAt === undefined) unterminatedQuoteAt = open - base;
        continue;
      }
      if (ch === 92 && i + 1 < n) {
        const e = text.charCodeAt(i + 1);
        if (e === 34 || e === 39) {
          flags |= UNQUOTE;
          i += 2;
          continue;
        }
      }
      i++;
    }
    const prev = store.wordCount - 1;
    if (prev >= first && !(flags & QUOTED) && text.charCodeAt(start) !== 45 && !(store.wordFlags[prev] & QUOTED)) {
      const prevEnd = store.wordCol[prev] + store.wordLen[prev];
      if (start - base - prevEnd >= WRAP_GAP) {
        joinWrapped(store, prev, line, base, start - base, i - base, flags, diagnostics);
        continue;
      }
    }
    store.addWord(start - base, i - start, flags);
  }
  return { first, end: store.wordCount, ...(unterminatedQuoteAt !== undefined ? { unterminatedQuoteAt } : {}) };
}

/** Extends word `prev` over a wrap gap to the word at [start, end) and says so. */
function joinWrapped(store: RuleStore, prev: number, line: number, base: number, start: number, end: number, flags: number, diagnostics: Diagnostic[]): void {
  const before = wordValue(store, prev, base);
  const piece = store.addWord(start, end - start, flags);
  const after = wordValue(store, piece, base);
  store.wordCount--; // the piece was only read for its value
  store.wordLen[prev] = end - store.wordCol[prev];
  store.wordFlags[prev] |= JOINED | (flags & UNQUOTE);
  diagnostics.push({
    span: { line, column: store.wordCol[prev], length: store.wordLen[prev] },
    severity: 'info',
    code: 'wrapped-word-joined',
    message: `"${before}" and "${after}" are separated by a wide gap, as a terminal wrap leaves them; read as "${before + after}".`,
  });
}

export interface RuleBody {
  /** Word of the target name after -j/-g, -1 without one. */
  targetWord: number;
  targetName?: string;
  targetKind?: 'jump' | 'goto';
  comment?: string;
  counters?: Counters;
  /** Option and module rows of this rule: [optFirst, optEnd), [modFirst, modEnd). */
  optFirst: number;
  optEnd: number;
  modFirst: number;
  modEnd: number;
}

/**
 * Sorts the body words [first, end) of one rule (`-s 10.0.0.0/8 -m tcp --dport 80 -j DNAT --to-destination ...`)
 * into option and module rows, and finds the target, comment and `-c` counters.
 */
export function readRuleBody(store: RuleStore, line: number, base: number, first: number, end: number, diagnostics: Diagnostic[]): RuleBody {
  const text = store.text;
  const col = store.wordCol;
  const len = store.wordLen;
  const wflags = store.wordFlags;
  const kind = store.wordKind;
  const names = store.names;
  const span = (k: number): Span => ({ line, column: col[k], length: len[k] });
  const rawOf = (k: number): string => text.slice(base + col[k], base + col[k] + len[k]);
  const isBang = (k: number): boolean => k < end && len[k] === 1 && !(wflags[k] & QUOTED) && text.charCodeAt(base + col[k]) === 33;
  const looksLikeOption = (k: number): boolean => {
    if (k >= end || wflags[k] & QUOTED || len[k] < 2) return false;
    const at = base + col[k];
    if (text.charCodeAt(at) !== 45) return false;
    let c = text.charCodeAt(at + 1);
    if (c === 45) {
      if (len[k] < 3) return false;
      c = text.charCodeAt(at + 2);
      return isAlnum(c);
    }
    if (!isAlnum(c)) return false;
    // `-5` is a value (a negative number), not an option
    for (let i = 1; i < len[k]; i++) if (!isDigit(text.charCodeAt(at + i))) return true;
    return false;
  };

  const body: RuleBody = { targetWord: -1, optFirst: store.optCount, optEnd: 0, modFirst: store.modCount, modEnd: 0 };
  let current = OWNER_GENERIC; // module row options go to; OWNER_GENERIC before any -m
  let inTarget = false;
  let pendingBang = -1;
  let protocol: string | undefined;

  let i = first;
  while (i < end) {
    if (isBang(i)) {
      kind[i] = KIND.negation;
      pendingBang = i;
      i++;
      continue;
    }
    if (!looksLikeOption(i)) {
      kind[i] = KIND.value;
      diagnostics.push({ span: span(i), severity: 'warning', code: 'unexpected-word', message: `Unexpected "${rawOf(i)}": expected an option such as -s, -m or -j.` });
      i++;
      continue;
    }
    const writtenId = names.idOf(text, base + col[i], base + col[i] + len[i]);
    const info = store.optionInfo(writtenId);
    const w = i;
    kind[w] = KIND.option;
    if (info.role === NameRole.Match) {
      if (i + 1 >= end || looksLikeOption(i + 1)) {
        diagnostics.push({ span: span(w), severity: 'error', code: 'missing-module-name', message: `${names.names[writtenId]} needs a module name.` });
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
      if (i + 1 >= end || looksLikeOption(i + 1)) {
        diagnostics.push({ span: span(w), severity: 'error', code: 'missing-target', message: `${names.names[writtenId]} needs a target or chain name.` });
        i++;
        continue;
      }
      const t = i + 1;
      kind[t] = KIND.target;
      const targetName = names.names[valueId(store, t, base)];
      if (body.targetWord >= 0) {
        diagnostics.push({ span: span(t), severity: 'error', code: 'duplicate-target', message: `A rule can have only one target; "${targetName}" repeats it.` });
      }
      body.targetWord = t;
      body.targetName = targetName;
      body.targetKind = info.role === NameRole.Goto ? 'goto' : 'jump';
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
        body.counters = { packets: Number(pv), bytes: Number(bv), span: { line, column: col[w], length: col[b] + len[b] - col[w] } };
        i += 3;
      } else {
        diagnostics.push({ span: span(w), severity: 'error', code: 'bad-counters', message: `${names.names[writtenId]} needs two numbers: packets and bytes.` });
        i++;
      }
      continue;
    }

    // A regular option: find where its values end.
    const arity = info.arity;
    let j = i + 1;
    let neg = pendingBang;
    // Old syntax puts `!` after the option: `--dport ! 80`.
    if (arity > 0 && isBang(j) && j + 1 < end && !looksLikeOption(j + 1)) {
      kind[j] = KIND.negation;
      neg = j;
      j++;
    }
    const firstValue = j;
    let count = 0;
    while (count < arity && j < end) {
      if (isBang(j) || (looksLikeOption(j) && !(count === 0 && isNegativeNumberStart(text, base + col[j], len[j])))) break;
      count++;
      j++;
    }
    if (count < arity) {
      diagnostics.push({
        span: span(w),
        severity: 'error',
        code: 'missing-option-value',
        message: `${names.names[writtenId]} expects ${arity === 2 ? 'two values' : 'a value'}.`,
      });
    }
    const canonical = names.names[info.canonical];
    const isComment = canonical === 'comment';
    for (let v = firstValue; v < j; v++) kind[v] = isComment ? KIND.commentText : KIND.value;
    pendingBang = -1;

    let owner: number;
    if (inTarget) owner = OWNER_TARGET;
    else if (info.generic) {
      owner = OWNER_GENERIC;
      if (canonical === 'protocol' && count > 0) protocol = wordValue(store, firstValue, base).toLowerCase();
    } else if (current !== OWNER_GENERIC) owner = current;
    else if (protocol && IMPLICIT_PROTOCOL_MODULES.has(protocol)) {
      // `--dport` right after `-p tcp` without `-m tcp`: iptables loads the protocol's module implicitly.
      owner = implicitModule(store, body.modFirst, names.idOf(protocol, 0, protocol.length));
    } else {
      owner = OWNER_GENERIC;
      diagnostics.push({
        span: span(w),
        severity: 'warning',
        code: 'option-without-module',
        message: `${names.names[writtenId]} is not a generic option and no -m module was loaded before it.`,
      });
    }
    store.addOption(info.canonical, writtenId, w, neg, firstValue, count, owner);
    if (isComment && count > 0) body.comment = names.names[valueId(store, firstValue, base)];
    i = j;
  }
  if (pendingBang >= 0) {
    diagnostics.push({ span: span(pendingBang), severity: 'error', code: 'dangling-negation', message: '"!" must be followed by an option.' });
  }
  body.optEnd = store.optCount;
  body.modEnd = store.modCount;
  return body;
}

/** Interned value of a word: plain words and simple `"..."` need no copy of their own. */
export function valueId(store: RuleStore, k: number, base: number): number {
  const raw = store.text;
  const at = base + store.wordCol[k];
  const n = store.wordLen[k];
  const flags = store.wordFlags[k];
  if (!(flags & (UNQUOTE | JOINED))) return store.names.idOf(raw, at, at + n);
  if (!(flags & JOINED) && n >= 2) {
    const q = raw.charCodeAt(at);
    if ((q === 34 || q === 39) && raw.charCodeAt(at + n - 1) === q) {
      let simple = true;
      for (let i = at + 1; i < at + n - 1; i++) {
        const c = raw.charCodeAt(i);
        if (c === 34 || c === 39 || c === 92) {
          simple = false;
          break;
        }
      }
      if (simple) return store.names.idOf(raw, at + 1, at + n - 1);
    }
  }
  const v = wordValue(store, k, base);
  return store.names.idOf(v, 0, v.length);
}

function implicitModule(store: RuleStore, modFirst: number, nameId: number): number {
  for (let m = modFirst; m < store.modCount; m++) if (store.modWord[m] === IMPLICIT && store.modName[m] === nameId) return m;
  return store.addModule(nameId, IMPLICIT);
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** `-5` as the first value of an option (a value, not an option). */
function isNegativeNumberStart(raw: string, at: number, n: number): boolean {
  return n >= 2 && raw.charCodeAt(at) === 45 && isDigit(raw.charCodeAt(at + 1));
}
