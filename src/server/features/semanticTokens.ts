/**
 * Semantic tokens on top of the TextMate colouring: what only the model knows. Chains are coloured by their
 * resolved kind (a hashed chain that is a Service, an endpoint, a jump to an undefined chain).
 */
import { SemanticTokensBuilder, type SemanticTokens, type SemanticTokensLegend } from 'vscode-languageserver';
import type { Analysis } from '../../core/analyze';
import type { IptablesModel } from '../../core/iptables/model';
import { kubeChainKind } from '../../core/iptables/naming';
import { EXTENSION_TARGETS } from '../../core/iptables/options';
import { forEachToken, STANDARD_TARGETS, type Token } from '../../core/iptables/types';
import { ipvsSemanticTokens } from '../../core/ipvs/semanticTokens';

export const TOKEN_TYPES = ['namespace', 'function', 'keyword', 'parameter', 'operator', 'type', 'enumMember', 'string', 'number', 'comment', 'variable', 'macro'] as const;
/** Custom modifiers (declared in package.json `semanticTokenModifiers`) name what the model resolved. */
export const TOKEN_MODIFIERS = ['declaration', 'defaultLibrary', 'deprecated', 'kubeService', 'kubeEndpoint', 'kubeProxy', 'unresolved', 'hashMismatch'] as const;

export const LEGEND: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

type TokenType = (typeof TOKEN_TYPES)[number];
type Modifier = (typeof TOKEN_MODIFIERS)[number];

const typeIndex = (t: TokenType) => TOKEN_TYPES.indexOf(t);
const modifierBits = (mods: Modifier[]) => mods.reduce((bits, m) => bits | (1 << TOKEN_MODIFIERS.indexOf(m)), 0);

export function semanticTokens(a: Analysis): SemanticTokens {
  const builder = new SemanticTokensBuilder();
  if (a.iptables) {
    const model = a.iptables;
    forEachToken(model.dump, (tok) => {
      const c = classify(model, tok);
      if (c) builder.push(tok.span.line, tok.span.column, tok.span.length, typeIndex(c.type), modifierBits(c.mods));
    });
  } else if (a.ipvs) {
    for (const tok of ipvsSemanticTokens(a.ipvs)) {
      const type = (TOKEN_TYPES as readonly string[]).includes(tok.type) ? (tok.type as TokenType) : 'variable';
      const mods = tok.modifiers.filter((m): m is Modifier => (TOKEN_MODIFIERS as readonly string[]).includes(m));
      builder.push(tok.span.line, tok.span.column, tok.span.length, typeIndex(type), modifierBits(mods));
    }
  }
  return builder.build();
}

function chainModifiers(model: IptablesModel, name: string, line: number): Modifier[] {
  const mods: Modifier[] = [];
  const kind = kubeChainKind(name);
  if (/^(?:PREROUTING|INPUT|FORWARD|OUTPUT|POSTROUTING)$/.test(name)) mods.push('defaultLibrary');
  if (kind === 'service' || kind === 'service-local' || kind === 'external' || kind === 'firewall' || kind === 'external-local') {
    const s = model.kube.serviceByChain.get(name);
    if (s) mods.push('kubeService');
    if (s?.hashVerified === false) mods.push('hashMismatch');
  } else if (kind === 'endpoint') {
    const e = model.kube.endpointByChain.get(name);
    if (e) mods.push('kubeEndpoint');
    if (e?.endpoint.hashVerified === false) mods.push('hashMismatch');
  } else if (kind === 'kube-fixed') mods.push('kubeProxy');
  const rule = model.ruleAtLine(line);
  const table = rule?.table;
  if (table && !model.chain(table, name)) mods.push('unresolved');
  return mods;
}

function classify(model: IptablesModel, tok: Token): { type: TokenType; mods: Modifier[] } | undefined {
  switch (tok.kind) {
    case 'table':
      return { type: 'namespace', mods: ['declaration'] };
    case 'chainDecl':
      return { type: 'function', mods: ['declaration', ...chainModifiers(model, tok.text, tok.span.line).filter((m) => m !== 'unresolved')] };
    case 'chainRef':
      return { type: 'function', mods: chainModifiers(model, tok.text, tok.span.line) };
    case 'target':
      if (STANDARD_TARGETS.has(tok.text)) return { type: 'enumMember', mods: ['defaultLibrary'] };
      if (EXTENSION_TARGETS.has(tok.text)) return { type: 'macro', mods: ['defaultLibrary'] };
      return { type: 'function', mods: chainModifiers(model, tok.text, tok.span.line) };
    case 'policy':
      return { type: 'enumMember', mods: [] };
    case 'command':
      return { type: 'keyword', mods: [] };
    case 'counter':
      return { type: 'number', mods: [] };
    case 'option':
      return { type: 'parameter', mods: [] };
    case 'negation':
      return { type: 'operator', mods: [] };
    case 'module':
      return { type: 'type', mods: [] };
    case 'commentText':
      return { type: 'string', mods: [] };
    case 'comment':
      return { type: 'comment', mods: [] };
    case 'value':
      return { type: /^[\d.:/x,!-]+$/i.test(tok.text) ? 'number' : 'variable', mods: [] };
  }
}
