/**
 * Semantic tokens on top of the TextMate colouring: what only the model knows. Chains are coloured by their
 * resolved kind (a hashed chain that is a Service, an endpoint, a jump to an undefined chain).
 */
import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver';
import type { Analysis } from '../../core/analyze';
import type { IptablesModel } from '../../core/iptables/model';
import { kubeChainKind, verifyEndpointChain, verifyServiceChain } from '../../core/iptables/chainHashes';
import { parseServiceComment } from '../../core/iptables/kubeServices';
import { joinHostPort } from '../../core/common/ip';
import { EXTENSION_TARGETS } from '../../core/iptables/options';
import { optionValue, STANDARD_TARGETS, type Chain, type Rule } from '../../core/iptables/dump';
import { ipvsSemanticTokens } from '../../core/ipvs/semanticTokens';
import { throwIfCancelled } from '../cancellation';
import { piecesByReading } from '../../core/nftFamilies';

export const TOKEN_TYPES = [
  'namespace',
  'function',
  'keyword',
  'parameter',
  'operator',
  'type',
  'enumMember',
  'string',
  'number',
  'comment',
  'variable',
  'macro',
] as const;
/** Custom modifiers (declared in package.json `semanticTokenModifiers`) name what the model resolved. */
export const TOKEN_MODIFIERS = [
  'declaration',
  'defaultLibrary',
  'deprecated',
  'kubeService',
  'kubeEndpoint',
  'kubeProxy',
  'unresolved',
  'hashMismatch',
] as const;

export const LEGEND: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

type TokenType = (typeof TOKEN_TYPES)[number];
type Modifier = (typeof TOKEN_MODIFIERS)[number];

const typeIndex = (t: TokenType) => TOKEN_TYPES.indexOf(t);
const modifierBits = (mods: Modifier[]) => mods.reduce((bits, m) => bits | (1 << TOKEN_MODIFIERS.indexOf(m)), 0);

/**
 * Above this many lines the whole-document request is declined (answered null): an editor then colours what is
 * on screen through range requests, which cost milliseconds instead of a multi-megabyte answer for every edit.
 */
export const FULL_TOKENS_MAX_LINES = 50_000;

/** Lines [from, to] (0-based, inclusive) of the document. */
export interface LineRange {
  from: number;
  to: number;
}

/**
 * Tokens of the whole document, or null when it is too long to send at once (see FULL_TOKENS_MAX_LINES). `skipped`:
 * the reading of the family a dual-stack nft ruleset's analysis skipped, which colours its own tables' lines.
 */
export function semanticTokens(a: Analysis, skipped?: Analysis): SemanticTokens | null {
  if (documentLines(a) > FULL_TOKENS_MAX_LINES) return null;
  return semanticTokensIn(a, { from: 0, to: Number.MAX_SAFE_INTEGER }, skipped);
}

export function semanticTokensIn(a: Analysis, range: LineRange, skipped?: Analysis): SemanticTokens {
  if (a.iptables) {
    const encoder = new OrderedTokenEncoder();
    if (!skipped) iptablesTokens(a.iptables, encoder, range);
    else
      for (const piece of piecesByReading(a, skipped, range.from, range.to))
        if (piece.analysis.iptables) iptablesTokens(piece.analysis.iptables, encoder, piece);
    return { data: encoder.build() };
  }
  // The library's builder (it orders what comes out of order) is loaded for the first document that is not
  // iptables: a worker that colours none does not load the protocol library (see lspConstants.ts).
  const { SemanticTokensBuilder } = require('vscode-languageserver') as typeof import('vscode-languageserver');
  const builder = new SemanticTokensBuilder();
  if (a.ipvs) {
    for (const tok of ipvsSemanticTokens(a.ipvs, range.from, range.to)) {
      const type = (TOKEN_TYPES as readonly string[]).includes(tok.type) ? (tok.type as TokenType) : 'variable';
      const mods = tok.modifiers.filter((m): m is Modifier => (TOKEN_MODIFIERS as readonly string[]).includes(m));
      builder.push(tok.span.line, tok.span.column, tok.span.length, typeIndex(type), modifierBits(mods));
    }
  }
  return builder.build();
}

function documentLines(a: Analysis): number {
  return a.iptables?.dump.lineCount ?? a.ipvs?.lines.length ?? 0;
}

/**
 * LSP's relative encoding for tokens pushed in document order, into a typed array: a 100k-rule dump's
 * answer is built without growing a JavaScript array of millions of numbers step by step.
 */
class OrderedTokenEncoder {
  private data = new Int32Array(5 * 1024);
  private length = 0;
  private prevLine = 0;
  private prevChar = 0;

  push(line: number, char: number, length: number, type: number, modifiers: number): void {
    if (this.length + 5 > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    const k = this.length;
    d[k] = line - this.prevLine;
    d[k + 1] = line === this.prevLine ? char - this.prevChar : char;
    d[k + 2] = length;
    d[k + 3] = type;
    d[k + 4] = modifiers;
    this.length += 5;
    this.prevLine = line;
    this.prevChar = char;
  }

  /** A plain array (the JSON-RPC layer serialises arrays, not typed arrays), allocated once at its final size. */
  build(): number[] {
    const out = new Array<number>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.data[i];
    return out;
  }
}

const FUNCTION = typeIndex('function');
const DECLARATION = modifierBits(['declaration']);
const UNRESOLVED = modifierBits(['unresolved']);
const BUILTIN_CHAIN = new Set(['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING']);

/**
 * Only what the grammar cannot know: tables, chain names and targets, resolved against the model. Options, values
 * and comments keep the grammar's colours, so a 100k-rule dump sends a few tokens per rule, not one per word.
 */
function iptablesTokens(model: IptablesModel, builder: OrderedTokenEncoder, range: LineRange): void {
  const { dump } = model;
  const from = Math.max(0, range.from);
  const to = Math.min(dump.lineCount - 1, range.to);
  // A chain's modifiers depend on its name and table only; many rules name the same chains.
  const kubeBits = new Map<string, number>();
  const bitsOf = (name: string): number => {
    let bits = kubeBits.get(name);
    if (bits === undefined) kubeBits.set(name, (bits = modifierBits(kubeModifiers(model, name))));
    return bits;
  };
  const targetBits = new Map<string, Map<string, number>>();
  const jumpBits = (name: string, table: string): number => {
    let byName = targetBits.get(table);
    if (!byName) targetBits.set(table, (byName = new Map()));
    let bits = byName.get(name);
    if (bits === undefined)
      byName.set(name, (bits = model.chain(table, name) ? bitsOf(name) : bitsOf(name) | UNRESOLVED));
    return bits;
  };
  // Declarations answer from the chains (no per-line tokens to build); other lines from the dump's tokens.
  const declaredAt = declarationsByLine(model);
  // Rules come chain by chain, and a rule's own chain always exists.
  let lastChain = '';
  let lastChainBits = 0;
  for (let line = from; line <= to; line++) {
    throwIfCancelled();
    const rule = model.ruleAtLine(line);
    if (rule) {
      // A listing's rules name their chain on the `Chain X` header line, not on their own.
      const c = rule.chainSpan;
      const chainOnLine = c.line === line;
      if (chainOnLine && rule.chain !== lastChain) {
        lastChain = rule.chain;
        lastChainBits = bitsOf(lastChain);
      }
      const target = rule.target;
      const t = target?.span;
      let targetType = FUNCTION;
      let targetBits = 0;
      if (target) {
        const kind = targetKind(target.name);
        if (kind) {
          targetType = kind.type;
          targetBits = kind.mods;
        } else targetBits = jumpBits(target.name, rule.table);
      }
      // In column order (a listing puts the target first); LSP's relative encoding needs it.
      // A comment that does not hash to the chain marks this rule's chain names, not every line naming them.
      const wrong = commentMismatch(model, rule);
      if (wrong.target) targetBits |= HASH_MISMATCH;
      const chainBits = wrong.chain ? lastChainBits | HASH_MISMATCH : lastChainBits;
      if (t && t.line === line && (!chainOnLine || t.column < c.column))
        builder.push(line, t.column, t.length, targetType, targetBits);
      if (chainOnLine) builder.push(line, c.column, c.length, FUNCTION, chainBits);
      if (t && t.line === line && chainOnLine && t.column > c.column)
        builder.push(line, t.column, t.length, targetType, targetBits);
      continue;
    }
    const declared = declaredAt[line];
    if (declared) {
      const d = declared.declSpan!;
      builder.push(line, d.column, d.length, FUNCTION, DECLARATION | bitsOf(declared.name));
      continue;
    }
    for (const tok of dump.tokensOfLine(line)) {
      const s = tok.span;
      if (tok.kind === 'table') builder.push(s.line, s.column, s.length, typeIndex('namespace'), DECLARATION);
      else if (tok.kind === 'chainDecl')
        builder.push(s.line, s.column, s.length, FUNCTION, DECLARATION | bitsOf(tok.text));
      else if (tok.kind === 'chainRef') builder.push(s.line, s.column, s.length, FUNCTION, bitsOf(tok.text));
    }
  }
}

const HASH_MISMATCH = modifierBits(['hashMismatch']);
const SERVICE_KINDS = new Set(['service', 'service-local', 'external', 'firewall', 'external-local']);

/**
 * Whether this rule's own comment names a Service port whose hash is not its chain's (or its target's) name: the
 * chain the rule is in, and the chain it jumps to, each checked against the comment. Rules without a kube-proxy
 * comment are never marked.
 */
function commentMismatch(model: IptablesModel, rule: Rule): { chain: boolean; target: boolean } {
  const parsed = parseServiceComment(rule.comment);
  if (!parsed) return NO_MISMATCH;
  const check = (chain: string | undefined): boolean => {
    if (!chain) return false;
    const kind = kubeChainKind(chain);
    if (kind !== undefined && SERVICE_KINDS.has(kind)) {
      const proto = optionValue(rule, 'protocol') ?? model.kube.serviceByChain.get(chain)?.protocol;
      return !!proto && !verifyServiceChain(chain, parsed.spn, proto);
    }
    if (kind === 'endpoint') {
      const e = model.kube.endpointByChain.get(chain);
      const proto = optionValue(rule, 'protocol') ?? e?.service.protocol;
      if (!e || !proto || !e.endpoint.ip || e.endpoint.port === undefined) return false;
      return !verifyEndpointChain(chain, parsed.spn, proto, joinHostPort(e.endpoint.ip, e.endpoint.port));
    }
    return false;
  };
  const chain = check(rule.chain);
  const target = check(rule.target?.name);
  return chain || target ? { chain, target } : NO_MISMATCH;
}
const NO_MISMATCH = { chain: false, target: false };

const STANDARD_TARGET = { type: typeIndex('enumMember'), mods: modifierBits(['defaultLibrary']) };
const EXTENSION_TARGET = { type: typeIndex('macro'), mods: modifierBits(['defaultLibrary']) };

const declarations = new WeakMap<IptablesModel, (Chain | undefined)[]>();

/** The chain declared on each line, built once per model (range requests come many times while scrolling). */
function declarationsByLine(model: IptablesModel): (Chain | undefined)[] {
  let byLine = declarations.get(model);
  if (!byLine) {
    byLine = new Array<Chain | undefined>(model.dump.lineCount);
    for (const t of model.dump.tables) for (const c of t.chains.values()) if (c.declSpan) byLine[c.declSpan.line] ??= c;
    declarations.set(model, byLine);
  }
  return byLine;
}

/** Standard and extension targets (ACCEPT, DNAT, ...) as type and modifier bits; undefined for a chain. */
function targetKind(name: string): { type: number; mods: number } | undefined {
  if (STANDARD_TARGETS.has(name)) return STANDARD_TARGET;
  if (EXTENSION_TARGETS.has(name)) return EXTENSION_TARGET;
  return undefined;
}

function kubeModifiers(model: IptablesModel, name: string): Modifier[] {
  const mods: Modifier[] = [];
  const kind = kubeChainKind(name);
  if (BUILTIN_CHAIN.has(name)) mods.push('defaultLibrary');
  if (
    kind === 'service' ||
    kind === 'service-local' ||
    kind === 'external' ||
    kind === 'firewall' ||
    kind === 'external-local'
  ) {
    if (model.kube.serviceByChain.get(name)) mods.push('kubeService');
  } else if (kind === 'endpoint') {
    if (model.kube.endpointByChain.get(name)) mods.push('kubeEndpoint');
  } else if (kind === 'kube-fixed') mods.push('kubeProxy');
  return mods;
}
