/**
 * Parses the argument part of one rule (`-s 10.0.0.0/8 -m tcp --dport 80 -j DNAT --to-destination ...`)
 * into matches, target, comment and counters, with a token for every word.
 */
import type { Diagnostic, Span } from '../common/diagnostics';
import { canonicalOptionName, GENERIC_CANONICAL, IMPLICIT_PROTOCOL_MODULES, optionArity } from './options';
import type { Counters, Match, OptionArg, Target, Token, TokenKind } from './types';
import type { Word } from './words';

export interface ParsedRuleBody {
  matches: Match[];
  target?: Target;
  comment?: string;
  counters?: Counters;
  tokens: Token[];
  diagnostics: Diagnostic[];
}

function looksLikeOption(w: Word | undefined): boolean {
  return !!w && !w.quoted && /^--?[A-Za-z0-9]/.test(w.raw) && !/^-\d+$/.test(w.raw);
}

function isBang(w: Word | undefined): boolean {
  return !!w && !w.quoted && w.raw === '!';
}

/**
 * `withTokens` false skips the per-word tokens (the bulk of the allocations on a 100k-rule dump); rules compute
 * them again lazily when an editor feature needs them.
 */
export function parseRuleBody(words: Word[], line: number, withTokens = true): ParsedRuleBody {
  const collected: Token[] = [];
  const emit = (kind: TokenKind, w: Word, text: string = w.raw): void => {
    if (withTokens) collected.push({ kind, text, span: span(w) });
  };
  const diagnostics: Diagnostic[] = [];
  const generic: Match = { module: '', options: [] };
  const matches: Match[] = [generic];
  let current: Match | undefined;
  let target: Target | undefined;
  let comment: string | undefined;
  let counters: Counters | undefined;
  let pendingBang: Word | undefined;
  let protocol: string | undefined;

  // One span object per word, shared by its token and its option.
  const span = (w: Word): Span => (w.span ??= { line, column: w.column, length: w.raw.length });
  const implicitModule = (name: string): Match => {
    let m = matches.find((x) => x.module === name && !x.moduleSpan);
    if (!m) {
      m = { module: name, options: [] };
      matches.push(m);
    }
    return m;
  };

  let i = 0;
  while (i < words.length) {
    const w = words[i];
    if (isBang(w)) {
      emit('negation', w, '!');
      pendingBang = w;
      i++;
      continue;
    }
    if (!looksLikeOption(w)) {
      emit('value', w, w.raw);
      diagnostics.push({
        span: span(w),
        severity: 'warning',
        code: 'unexpected-word',
        message: `Unexpected "${w.raw}": expected an option such as -s, -m or -j.`,
      });
      i++;
      continue;
    }
    const written = w.raw;
    const name = canonicalOptionName(written);
    if (name === 'match' || name === 'm') {
      emit('option', w, written);
      const mod = words[i + 1];
      if (!mod || looksLikeOption(mod)) {
        diagnostics.push({ span: span(w), severity: 'error', code: 'missing-module-name', message: `${written} needs a module name.` });
        i++;
        continue;
      }
      emit('module', mod, mod.raw);
      current = { module: mod.value, moduleSpan: span(mod), options: [] };
      matches.push(current);
      i += 2;
      continue;
    }
    if (name === 'jump' || name === 'j' || name === 'goto' || name === 'g') {
      emit('option', w, written);
      const tw = words[i + 1];
      if (!tw || looksLikeOption(tw)) {
        diagnostics.push({ span: span(w), severity: 'error', code: 'missing-target', message: `${written} needs a target or chain name.` });
        i++;
        continue;
      }
      emit('target', tw, tw.raw);
      if (target) {
        diagnostics.push({ span: span(tw), severity: 'error', code: 'duplicate-target', message: `A rule can have only one target; "${tw.value}" repeats it.` });
      }
      target = { name: tw.value, kind: name.startsWith('g') ? 'goto' : 'jump', span: span(tw), options: [] };
      current = undefined;
      i += 2;
      continue;
    }
    if (name === 'set-counters' || written === '-c') {
      // `-c packets bytes` (iptables -S -v and restore input)
      emit('option', w, written);
      const p = words[i + 1];
      const b = words[i + 2];
      if (p && b && /^\d+$/.test(p.value) && /^\d+$/.test(b.value)) {
        emit('counter', p);
        emit('counter', b);
        counters = {
          packets: Number(p.value),
          bytes: Number(b.value),
          span: { line, column: w.column, length: b.column + b.raw.length - w.column },
        };
        i += 3;
      } else {
        diagnostics.push({ span: span(w), severity: 'error', code: 'bad-counters', message: `${written} needs two numbers: packets and bytes.` });
        i++;
      }
      continue;
    }

    // A regular option: find where its values end.
    emit('option', w, written);
    const arity = optionArity(name);
    const values: Word[] = [];
    let j = i + 1;
    let negated = false;
    let negationSpan = pendingBang ? span(pendingBang) : undefined;
    if (pendingBang) negated = true;
    // Old syntax puts `!` after the option: `--dport ! 80`.
    if (arity > 0 && isBang(words[j]) && words[j + 1] && !looksLikeOption(words[j + 1])) {
      emit('negation', words[j], '!');
      negated = true;
      negationSpan = span(words[j]);
      j++;
    }
    for (let k = 0; k < arity && j < words.length; k++) {
      const v = words[j];
      if (isBang(v) || (looksLikeOption(v) && !(k === 0 && /^-\d/.test(v.raw)))) break;
      values.push(v);
      j++;
    }
    if (values.length < arity) {
      diagnostics.push({
        span: span(w),
        severity: 'error',
        code: 'missing-option-value',
        message: `${written} expects ${arity === 2 ? 'two values' : 'a value'}.`,
      });
    }
    for (const v of values) emit(name === 'comment' ? 'commentText' : 'value', v);
    const opt: OptionArg = {
      name,
      written,
      values: values.map((v) => v.value),
      negated,
      span: span(w),
      valueSpans: values.map(span),
      ...(negationSpan ? { negationSpan } : {}),
    };
    pendingBang = undefined;

    if (target) target.options.push(opt);
    else if (GENERIC_CANONICAL.has(name)) {
      generic.options.push(opt);
      if (name === 'protocol' && values[0]) protocol = values[0].value.toLowerCase();
    } else if (current) current.options.push(opt);
    else {
      // `--dport` right after `-p tcp` without `-m tcp`: iptables loads the protocol's module implicitly.
      const implicit = protocol && IMPLICIT_PROTOCOL_MODULES.has(protocol) ? protocol : '';
      if (implicit) implicitModule(implicit).options.push(opt);
      else {
        generic.options.push(opt);
        diagnostics.push({
          span: span(w),
          severity: 'warning',
          code: 'option-without-module',
          message: `${written} is not a generic option and no -m module was loaded before it.`,
        });
      }
    }
    if (name === 'comment' && values[0]) comment = values[0].value;
    i = j;
  }
  if (pendingBang) {
    diagnostics.push({ span: span(pendingBang), severity: 'error', code: 'dangling-negation', message: '"!" must be followed by an option.' });
  }
  // Arrays grown by push keep spare capacity; a 100k-rule dump keeps these for its whole life, so trim them.
  const kept = generic.options.length ? matches : matches.slice(1);
  for (const m of kept) m.options = m.options.slice();
  if (target) target.options = target.options.slice();
  return { matches: kept.slice(), target, comment, counters, tokens: collected, diagnostics };
}
