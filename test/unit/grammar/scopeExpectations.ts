/**
 * Test helper: what the grammars promise (syntaxes/README.md) written as line patterns, so that whole dumps can be
 * checked, not only hand-picked lines. Each expectation finds a fragment in the raw text of a line (the named group
 * `f`) and says which scope stem must cover all of it. Used on the samples and generated dumps (always) and on the
 * shared corpus of real pastes (when present).
 */
import type { IGrammar } from 'vscode-textmate';
import { formatTokens, hasScope, tokenizeText, type Token } from './tokenize';

export interface ScopeExpectation {
  /** What the fragment is, as a reader would say it. */
  what: string;
  /** Finds the fragment: the named group `f`. Must be global; the `d` flag gives the group's position. */
  pattern: RegExp;
  /** Scope stem (without the language suffix) that must cover the whole fragment. */
  scope: string;
}

const V4 = String.raw`\d{1,3}(?:\.\d{1,3}){3}`;
const KUBE_CHAIN = String.raw`KUBE-[A-Z0-9][A-Z0-9-]*`;

export const IPTABLES_EXPECTATIONS: ScopeExpectation[] = [
  {
    what: 'chain declaration name',
    pattern: /^:(?<f>[^\s[]+)\s+\S+\s+\[\d+:\d+\]/dg,
    scope: 'entity.name.function.chain',
  },
  {
    what: 'chain declaration packet counter',
    pattern: /^:\S+\s+\S+\s+\[(?<f>\d+):\d+\]/dg,
    scope: 'constant.numeric.counter.packets',
  },
  {
    what: 'chain declaration byte counter',
    pattern: /^:\S+\s+\S+\s+\[\d+:(?<f>\d+)\]/dg,
    scope: 'constant.numeric.counter.bytes',
  },
  {
    what: 'rule packet counter [p:b]',
    pattern: /^\[(?<f>\d+):\d+\]\s+-A\s/dg,
    scope: 'constant.numeric.counter.packets',
  },
  { what: 'rule byte counter [p:b]', pattern: /^\[\d+:(?<f>\d+)\]\s+-A\s/dg, scope: 'constant.numeric.counter.bytes' },
  { what: 'rule packet counter -c', pattern: /\s-c\s+(?<f>\d+)\s+\d+\s/dg, scope: 'constant.numeric.counter.packets' },
  {
    what: 'chain of -A',
    pattern: new RegExp(String.raw`^(?:\[\d+:\d+\]\s+)?-A\s+(?<f>${KUBE_CHAIN})(?=\s|$)`, 'dg'),
    scope: 'entity.name.function.chain',
  },
  {
    what: 'jump to a kube-proxy chain',
    pattern: new RegExp(String.raw`(?:^|\s)-[jg]\s+(?<f>${KUBE_CHAIN})(?=\s|$)`, 'dg'),
    scope: 'entity.name.function.chain',
  },
  {
    what: 'standard target',
    pattern: /(?:^|\s)-j\s+(?<f>ACCEPT|DROP|REJECT|RETURN|DNAT|SNAT|MASQUERADE|MARK)(?=\s|$)/dg,
    scope: 'support.function.target',
  },
  {
    what: 'nft jump to a kube-proxy chain',
    pattern: new RegExp(String.raw`\b(?:jump|goto)\s+(?<f>${KUBE_CHAIN})(?=\s|$|;)`, 'dg'),
    scope: 'entity.name.function.chain',
  },
  {
    what: 'DNAT address',
    pattern: new RegExp(String.raw`--to-destination\s+(?<f>${V4})(?![\d.])`, 'dg'),
    scope: 'constant.numeric.ip-address.v4',
  },
  {
    what: 'DNAT port',
    pattern: new RegExp(String.raw`--to-destination\s+${V4}:(?<f>\d+)(?![\d-])`, 'dg'),
    scope: 'constant.numeric.port',
  },
  {
    what: 'nft DNAT address',
    pattern: new RegExp(String.raw`\bdnat (?:ip )?to\s+(?<f>${V4})(?![\d.])`, 'dg'),
    scope: 'constant.numeric.ip-address.v4',
  },
  {
    what: 'listing DNAT address (to:)',
    pattern: new RegExp(String.raw`\sto:(?<f>${V4})(?![\d.])`, 'dg'),
    scope: 'constant.numeric.ip-address.v4',
  },
  {
    what: 'destination address -d',
    pattern: new RegExp(String.raw`\s-d\s+(?<f>${V4})(?![\d.])`, 'dg'),
    scope: 'constant.numeric.ip-address.v4',
  },
  {
    what: 'quoted rule comment',
    pattern: /\s--comment\s+(?<f>"(?:[^"\\]|\\.)*")/dg,
    scope: 'string.quoted.double',
  },
  {
    what: 'unquoted rule comment',
    pattern: /\s--comment\s+(?<f>[^\s"]+)/dg,
    scope: 'string.unquoted.comment',
  },
  {
    what: 'listing rule comment /* */',
    pattern: /(?<f>\/\*[^*]*\*\/)/dg,
    scope: 'comment.block.rule-comment',
  },
  { what: 'comment line', pattern: /^(?<f>#)/dg, scope: 'comment.line.number-sign' },
];

export const IPVS_EXPECTATIONS: ScopeExpectation[] = [
  {
    what: 'virtual service protocol',
    pattern: new RegExp(String.raw`^(?<f>TCP|UDP|SCTP)\s+(?:${V4}|\[[0-9a-fA-F:.]+\]):\d+\s+[a-z]+`, 'dg'),
    scope: 'keyword.other.protocol',
  },
  {
    what: 'virtual service address',
    pattern: new RegExp(String.raw`^(?:TCP|UDP|SCTP)\s+(?<f>${V4}):\d+\s+[a-z]+`, 'dg'),
    scope: 'constant.numeric.ip-address.v4',
  },
  {
    what: 'virtual service port',
    pattern: new RegExp(String.raw`^(?:TCP|UDP|SCTP)\s+${V4}:(?<f>\d+)\s+[a-z]+`, 'dg'),
    scope: 'constant.numeric.port',
  },
  {
    what: 'virtual service scheduler',
    pattern: new RegExp(String.raw`^(?:TCP|UDP|SCTP)\s+(?:${V4}|\[[0-9a-fA-F:.]+\]):\d+\s+(?<f>[a-z]+)(?=\s|$)`, 'dg'),
    scope: 'support.function.scheduler',
  },
  {
    what: 'virtual service line',
    pattern: new RegExp(String.raw`^(?<f>(?:TCP|UDP|SCTP)\s+(?:${V4}|\[[0-9a-fA-F:.]+\]):\d+\s+[a-z]+)`, 'dg'),
    scope: 'meta.virtual-service',
  },
  {
    what: 'real server address',
    pattern: new RegExp(String.raw`^\s+->\s+(?<f>${V4}):\d+\s+(?:Masq|Route|Tunnel|Local)\b`, 'dg'),
    scope: 'constant.numeric.ip-address.v4',
  },
  {
    what: 'real server forward method',
    pattern: new RegExp(String.raw`^\s+->\s+\S+:\d+\s+(?<f>Masq|Route|Tunnel|Local)\b`, 'dg'),
    scope: 'support.constant.forward-method',
  },
];

export const NETSTATE_EXPECTATIONS: ScopeExpectation[] = [
  {
    what: 'route destination address',
    pattern: new RegExp(String.raw`^(?<f>${V4})(?:/\d+)?\s+(?:via|dev)\s`, 'dg'),
    scope: 'constant.numeric.ip-address.v4',
  },
  {
    what: 'route destination prefix length',
    pattern: new RegExp(String.raw`^${V4}/(?<f>\d+)\s+(?:via|dev)\s`, 'dg'),
    scope: 'constant.numeric.prefix-length',
  },
  { what: 'default route', pattern: /^(?<f>default)\s+(?:via|dev)\s/dg, scope: 'constant.language.default' },
  {
    what: 'route gateway',
    pattern: new RegExp(String.raw`^\S+(?:\s+\S+)*?\s+via\s+(?<f>${V4})(?=\s|$)`, 'dg'),
    scope: 'constant.numeric.ip-address.v4',
  },
  {
    what: 'route device',
    pattern: new RegExp(String.raw`^(?:default|${V4}(?:/\d+)?)\s.*?\bdev\s+(?<f>[A-Za-z0-9_.@-]+)(?=\s|$)`, 'dg'),
    scope: 'variable.other.interface',
  },
  {
    what: 'reject route type',
    pattern: new RegExp(String.raw`^(?<f>blackhole|unreachable|prohibit)\s+${V4}`, 'dg'),
    scope: 'keyword.control.route-type.reject',
  },
];

export interface ScopeMiss {
  what: string;
  lineNumber: number;
  line: string;
  fragment: string;
  scope: string;
  tokens: string;
}

export interface ScopeCheck {
  /** How many fragments each expectation found (by `what`). */
  found: Map<string, number>;
  misses: ScopeMiss[];
}

// Inside a quoted string or an -L listing comment of the line: text there is not what it looks like.
function insideQuotedText(line: string, index: number): boolean {
  let quotes = 0;
  for (let i = 0; i < index; i++) if (line[i] === '"' && line[i - 1] !== '\\') quotes++;
  if (quotes % 2 === 1) return true;
  return line.lastIndexOf('/*', index) > line.lastIndexOf('*/', index - 1);
}

/** Scopes that every token overlapping [start, end) carries. */
function coveringScopes(tokens: Token[], start: number, end: number): string[] {
  const covering = tokens.filter((t) => t.startIndex < end && t.startIndex + t.text.length > start);
  if (covering.length === 0) return [];
  return covering.map((t) => t.scopes).reduce((common, scopes) => common.filter((s) => scopes.includes(s)));
}

/** Tokenises `text` and checks every fragment the expectations find. */
export function checkScopes(grammar: IGrammar, text: string, expectations: ScopeExpectation[]): ScopeCheck {
  const found = new Map(expectations.map((e) => [e.what, 0]));
  const misses: ScopeMiss[] = [];
  tokenizeText(grammar, text).forEach(({ line, tokens }, n) => {
    // A `#` line is a comment whatever it quotes (a paste of rules commented out is still a comment).
    const commentLine = /^\s*#/.test(line);
    for (const e of expectations) {
      const commentScope = e.scope.startsWith('comment.');
      if (commentLine && !commentScope) continue;
      for (const m of line.matchAll(e.pattern)) {
        const [start, end] = m.indices!.groups!.f;
        if (!commentScope && !e.scope.startsWith('string.') && insideQuotedText(line, start)) continue;
        found.set(e.what, found.get(e.what)! + 1);
        if (!hasScope(coveringScopes(tokens, start, end), e.scope))
          misses.push({
            what: e.what,
            lineNumber: n + 1,
            line,
            fragment: line.slice(start, end),
            scope: e.scope,
            tokens: formatTokens(tokens),
          });
      }
    }
  });
  return { found, misses };
}

export function describeMisses(misses: ScopeMiss[], limit = 5): string {
  return misses
    .slice(0, limit)
    .map((m) => `line ${m.lineNumber}: ${m.what} "${m.fragment}" is not ${m.scope}\n  ${m.line}\n${m.tokens}`)
    .join('\n\n');
}
