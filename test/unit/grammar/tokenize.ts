/**
 * Test helper: loads the project's TextMate grammars with vscode-textmate + the oniguruma wasm (as VS Code does)
 * and tokenises text into tokens carrying their text and scopes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, Registry, parseRawGrammar, type IGrammar, type StateStack } from 'vscode-textmate';
import { repoRoot } from '../../helpers/corpus';

export const REPO_ROOT = repoRoot(__dirname);
export const GRAMMAR_FILES: Record<string, string> = {
  'source.iptables': path.join(REPO_ROOT, 'syntaxes/iptables.tmLanguage.json'),
  'source.ipvs': path.join(REPO_ROOT, 'syntaxes/ipvs.tmLanguage.json'),
  'source.netstate': path.join(REPO_ROOT, 'syntaxes/netstate.tmLanguage.json'),
};

export interface Token {
  text: string;
  startIndex: number;
  /** Outermost first: the grammar's root scope, then nested scopes. */
  scopes: string[];
}

let onigReady: Promise<typeof oniguruma> | undefined;

/** The wasm can be loaded only once per process. */
export function loadOniguruma(): Promise<typeof oniguruma> {
  onigReady ??= (async () => {
    const wasm = readFileSync(path.join(REPO_ROOT, 'node_modules/vscode-oniguruma/release/onig.wasm'));
    const data = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer;
    await oniguruma.loadWASM(data);
    return oniguruma;
  })();
  return onigReady;
}

let registry: Registry | undefined;

export async function loadGrammar(scopeName: string): Promise<IGrammar> {
  const onig = await loadOniguruma();
  registry ??= new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new onig.OnigScanner(patterns),
      createOnigString: (s: string) => new onig.OnigString(s),
    }),
    loadGrammar: async (scope: string) => {
      const file = GRAMMAR_FILES[scope];
      return file ? parseRawGrammar(readFileSync(file, 'utf8'), file) : null;
    },
  });
  const grammar = await registry.loadGrammar(scopeName);
  if (!grammar) throw new Error(`grammar ${scopeName} not found`);
  return grammar;
}

export interface TokenizedLine {
  line: string;
  tokens: Token[];
  /** Rule-stack depth after the line: 1 means nothing (string, comment...) stays open into the next line. */
  depthAfter: number;
}

/** Tokenises every line, carrying the rule stack across lines like the editor does. Throws if a line stops early. */
export function tokenizeText(grammar: IGrammar, text: string): TokenizedLine[] {
  let state: StateStack = INITIAL;
  return text.split(/\r?\n/).map((line, n) => {
    const result = grammar.tokenizeLine(line, state, 2000);
    if (result.stoppedEarly) throw new Error(`tokenising stopped early on line ${n + 1}: ${line}`);
    state = result.ruleStack;
    const tokens = result.tokens.map((t) => ({
      text: line.slice(t.startIndex, t.endIndex),
      startIndex: t.startIndex,
      scopes: t.scopes,
    }));
    return { line, tokens, depthAfter: state.depth };
  });
}

export function tokenizeLine(grammar: IGrammar, line: string): Token[] {
  return tokenizeText(grammar, line)[0].tokens;
}

/**
 * Scopes shared by every token that overlaps the `occurrence`-th appearance of `fragment` in the line,
 * i.e. the scopes that colour the whole fragment. Throws if the fragment is not in the line.
 */
export function scopesOf(tokens: Token[], fragment: string, occurrence = 0): string[] {
  const line = tokens.map((t) => t.text).join('');
  let start = -1;
  for (let i = 0; i <= occurrence; i++) {
    start = line.indexOf(fragment, start + 1);
    if (start < 0) throw new Error(`"${fragment}" (#${occurrence}) not found in: ${line}`);
  }
  const end = start + fragment.length;
  const covering = tokens.filter((t) => t.startIndex < end && t.startIndex + t.text.length > start);
  return covering.map((t) => t.scopes).reduce((common, scopes) => common.filter((s) => scopes.includes(s)));
}

/** The single token whose text is exactly `text` (the n-th such token), or undefined. */
export function tokenExactly(tokens: Token[], text: string, occurrence = 0): Token | undefined {
  return tokens.filter((t) => t.text === text)[occurrence];
}

/** Whether a scope list has a scope equal to `prefix` or starting with `prefix.`. */
export function hasScope(scopes: string[], prefix: string): boolean {
  return scopes.some((s) => s === prefix || s.startsWith(prefix + '.'));
}

export function formatTokens(tokens: Token[]): string {
  return tokens.map((t) => `${JSON.stringify(t.text)} ${t.scopes.slice(1).join(' ')}`).join('\n');
}

/** Asserts that the whole `fragment` (its `occurrence`-th appearance) carries a scope starting with `expected`. */
export function assertScope(tokens: Token[], fragment: string, expected: string, occurrence = 0): void {
  const scopes = scopesOf(tokens, fragment, occurrence);
  assert.ok(
    hasScope(scopes, expected),
    `"${fragment}" should be ${expected}, has [${scopes.join(' ')}]\n${formatTokens(tokens)}`,
  );
}

export function assertNotScope(tokens: Token[], fragment: string, unexpected: string, occurrence = 0): void {
  const scopes = scopesOf(tokens, fragment, occurrence);
  assert.ok(!hasScope(scopes, unexpected), `"${fragment}" should not be ${unexpected}\n${formatTokens(tokens)}`);
}

/** Asserts that `text` is exactly one token (not split, not merged with neighbours) carrying `expected`. */
export function assertToken(tokens: Token[], text: string, expected: string, occurrence = 0): void {
  const token = tokenExactly(tokens, text, occurrence);
  assert.ok(token, `no token is exactly "${text}"\n${formatTokens(tokens)}`);
  assert.ok(hasScope(token.scopes, expected), `"${text}" should be ${expected}, has [${token.scopes.join(' ')}]`);
}
