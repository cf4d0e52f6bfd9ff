/** The tokens of a dump line: what the rule store keeps per word and the model hands to hovers and colours. */
import type { Span } from '../common/diagnostics';

/** Kinds of tokens, used by semantic highlighting and hovers. */
export type TokenKind =
  | 'table' // `*nat`
  | 'chainDecl' // chain name on `:CHAIN` / `-N CHAIN` / `-P CHAIN`
  | 'chainRef' // chain name after `-A`/`-I`/...
  | 'policy' // ACCEPT/DROP/- in declarations and -P
  | 'command' // -A, -I, -N, -P, -X, -F, COMMIT
  | 'counter' // [p:b] or -c p b
  | 'option' // -s, --dport, ...
  | 'negation' // !
  | 'module' // name after -m
  | 'value' // option argument
  | 'target' // name after -j/-g
  | 'comment' // `# ...` line
  | 'commentText'; // the text of `--comment "..."`

export interface Token {
  kind: TokenKind;
  /** Text as written (quotes kept for quoted values). */
  text: string;
  span: Span;
}
