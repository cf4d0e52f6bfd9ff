/**
 * Semantic tokens for the language server: each IPVS token kind mapped to a standard LSP token type, so themes
 * colour them without custom rules. The server encodes them (it owns the legend order sent to the client).
 */
import type { Span } from '../common/diagnostics';
import type { IpvsDump, IpvsTokenKind } from './types';

export type IpvsSemanticType =
  | 'comment'
  | 'keyword'
  | 'variable'
  | 'number'
  | 'function'
  | 'enumMember'
  | 'operator'
  | 'macro'
  | 'parameter'
  | 'type'
  | 'string';

const TYPE_OF: Record<IpvsTokenKind, IpvsSemanticType> = {
  prompt: 'comment',
  command: 'macro',
  comment: 'comment',
  ellipsis: 'comment',
  header: 'type',
  columnHeader: 'comment',
  protocol: 'keyword',
  address: 'variable',
  port: 'number',
  fwmark: 'number',
  family: 'keyword',
  scheduler: 'function',
  flag: 'enumMember',
  keyword: 'keyword',
  persistentTimeout: 'number',
  netmask: 'variable',
  pe: 'string',
  arrow: 'operator',
  forward: 'enumMember',
  weight: 'number',
  activeConn: 'number',
  inactConn: 'number',
  persistConn: 'number',
  counter: 'number',
  threshold: 'number',
  expire: 'number',
  state: 'enumMember',
  timeout: 'number',
  option: 'parameter',
  daemon: 'type',
  error: 'string',
};

/** Every type `ipvsSemanticTokens` can return, for the server's legend. */
export const IPVS_SEMANTIC_TOKEN_TYPES: readonly IpvsSemanticType[] = [...new Set(Object.values(TYPE_OF))];

export interface IpvsSemanticToken {
  kind: IpvsTokenKind;
  type: IpvsSemanticType;
  /** `deprecated` marks a weight of 0 (a draining real server). */
  modifiers: string[];
  span: Span;
}

/** Tokens of lines `first`..`last` in document order, without overlaps (LSP requires both). */
export function ipvsSemanticTokens(dump: IpvsDump, first = 0, last = Number.MAX_SAFE_INTEGER): IpvsSemanticToken[] {
  const out: IpvsSemanticToken[] = [];
  let lastLine = -1;
  let lastEnd = 0;
  const [from, to] = dump.tokens.lineRange(first, last);
  for (let i = from; i < to; i++) {
    const tok = dump.tokens.at(i);
    if (tok.span.length <= 0) continue;
    if (tok.span.line === lastLine && tok.span.column < lastEnd) continue;
    const modifiers = tok.kind === 'weight' && tok.text === '0' ? ['deprecated'] : [];
    out.push({ kind: tok.kind, type: TYPE_OF[tok.kind], modifiers, span: tok.span });
    lastLine = tok.span.line;
    lastEnd = tok.span.column + tok.span.length;
  }
  return out;
}
