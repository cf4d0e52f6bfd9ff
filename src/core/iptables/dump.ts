/**
 * The iptables dump model: what the parser produces and every other module reads.
 * Every token keeps its position so hovers, jumps and diagnostics point at the exact text.
 */
import type { NftBaseChain, NftObject } from '../nft/objects';
import type { NameTable } from './ruleStore';
import type { Token } from './tokens';
import type { Diagnostic, Span } from '../common/diagnostics';
import { ownEntry } from '../common/own';
import { collapseSpaces } from './words';

/** Which text the dump was: the detector reports one of these. */
export type IptablesFormat =
  | 'iptables-save' // `*table`, `:CHAIN POLICY [p:b]`, `-A`, `COMMIT` (also ip6tables-save and restore input)
  | 'iptables-S' // `iptables [-t T] -S`: `-P`, `-N`, `-A` without table headers
  | 'iptables-L' // `iptables -L -n [-v] [--line-numbers]` listings
  | 'rule-lines' // loose `-A ...` lines from a grep, no declarations
  | 'nft'; // `nft list ruleset` of rules iptables-nft wrote (core/nft/ruleset.ts)

export interface Counters {
  packets: number;
  bytes: number;
  span: Span;
}

export type { Token, TokenKind } from './tokens';

/**
 * One option with its arguments. Generic options (-s, -d, -p, -i, -o, -f) belong to module `''`.
 * `name` is canonical: the long name without dashes (`source`, `destination`, `protocol`, `in-interface`,
 * `out-interface`, `fragment`, `dport`, `probability`, `to-destination`, ...).
 */
export interface OptionArg {
  name: string;
  /** Option as written, e.g. `-s` or `--source`. */
  written: string;
  /** Argument values with quotes removed and escapes resolved (`--comment "a \"b\""` gives `a "b"`). */
  values: string[];
  negated: boolean;
  /** Span of the option token (without its values). */
  span: Span;
  valueSpans: Span[];
  /** Span of the `!` when negated. */
  negationSpan?: Span;
}

export interface Match {
  /** Module name: `tcp`, `comment`, `statistic`, ... ; `''` for generic options. */
  module: string;
  /** Span of the module name after `-m`; undefined for the generic pseudo-module and implicit modules. */
  moduleSpan?: Span;
  options: OptionArg[];
}

export interface Target {
  name: string;
  /** `jump` for -j, `goto` for -g. */
  kind: 'jump' | 'goto';
  span: Span;
  options: OptionArg[];
}

export interface Rule {
  /** Index of the rule in `IptablesDump.rules` (dump order). */
  id: number;
  table: string;
  chain: string;
  /** 0-based line of the rule. */
  line: number;
  /** Its last line when a hard-wrapped paste carried it over following lines (absent or `line` otherwise). */
  readonly endLine?: number;
  /** Span of the rule text from the command (`-A`) to the end. */
  span: Span;
  chainSpan: Span;
  command: 'append' | 'insert' | 'delete' | 'replace' | 'check';
  /** For -I/-R/-D with a number (1-based as written). */
  position?: number;
  /**
   * Original rule text from the chain name onwards (after `-A`), without counters; for a row of an `iptables -L`
   * listing (`listingRow`), the row from its target column on, as listed.
   */
  text: string;
  readonly listingRow?: boolean;
  /** A listing row printed without in/out columns (`iptables -L` without `-v`): its interface matches are unknown. */
  readonly interfacesHidden?: boolean;
  matches: Match[];
  target?: Target;
  /** The target's name without building the target (rules of the rule store); read it through `ruleTargetName`. */
  readonly targetName?: string;
  /** Value of `-m comment --comment`, unquoted. */
  comment?: string;
  counters?: Counters;
  tokens: Token[];
  /** Fast paths of rules read into the rule store (storedRule.ts); use the helpers below, which fall back. */
  findOption?(name: string, module?: string): OptionArg | undefined;
  hasModule?(module: string): boolean;
  /** `hasModule` by the module name's id in the dump's `names`. */
  hasModuleId?(id: number): boolean;
  forEachOptionName?(visit: (module: string | null, name: string, option: () => OptionArg) => void): void;
  forEachModuleName?(visit: (module: string, explicit: boolean) => void): void;
  moduleOption?(module: string, name: string): OptionArg | undefined;
  optionValue?(name: string, module?: string, evenNegated?: boolean): string | undefined;
  lastGenericOption?(name: string, accept: (value: string) => boolean): { value: string; negated: boolean } | undefined;
  targetOptionValue?(name: string): string | undefined;
  /** `optionValue` by ids of the dump's `names` (see nameIds.ts `OptionQuery`). */
  optionValueById?(id: number, moduleId: number, evenNegated?: boolean): string | undefined;
  comparableText?(): string;
  /** `comment`, read without adding it to the dump's `names` (entry rules' comments are read once each). */
  commentText?(): string | undefined;
  /** Name ids of the chain, target and comment in the dump's `names` (-1 for none); see nameIds.ts. */
  readonly chainNameId?: number;
  readonly targetNameId?: number;
  readonly commentNameId?: number;
  /** 0-based position of the rule in its chain. */
  index: number;
}

export interface Chain {
  table: string;
  name: string;
  builtin: boolean;
  /** Policy of a builtin chain (ACCEPT, DROP); undefined for user chains (`-`). */
  policy?: string;
  counters?: Counters;
  /** Where the chain was declared (`:NAME` or `-N NAME`); undefined when only used. */
  declSpan?: Span;
  /** 0-based line of the `-P` command that set the policy last, when one did (else the declaration says it). */
  policyLine?: number;
  rules: Rule[];
  /** The name's id in the dump's `names` (see nameIds.ts); absent for chains built without the rule store. */
  readonly nameId?: number;
}

export interface Table {
  name: string;
  /** Span of the `*name` header; undefined for formats without table headers. */
  span?: Span;
  /** 0-based line of the header, and of COMMIT when seen. */
  line?: number;
  commitLine?: number;
  chains: Map<string, Chain>;
}

export interface DumpHeader {
  /** `iptables-save`, `ip6tables-save`, `xtables-save`, `iptables-nft-save`, ... */
  tool: string;
  version?: string;
  /** `nf_tables` / `legacy` when the header says so. */
  backend?: string;
  line: number;
}

/** Lines that tell of the legacy/nft split (`# Warning: iptables-legacy tables present ...`). */
export interface BackendWarning {
  line: number;
  text: string;
}

export interface ChainRename {
  table: string;
  from: string;
  to: string;
  line: number;
}

export interface IptablesDump {
  format: IptablesFormat;
  family: 4 | 6;
  tables: Table[];
  /** All rules in dump order. */
  rules: Rule[];
  headers: DumpHeader[];
  backendWarnings: BackendWarning[];
  /** Parse problems (unknown lines, broken quoting, ...). Lint adds its own separately. */
  diagnostics: Diagnostic[];
  /**
   * The text ends inside a table (or a headerless paste) on its last rule's line, which the parse found nothing cut
   * in: the line, and the column its content ends at. A lint finding on its last word (`-j KUBE-SEP-AB`, `-m comme`)
   * may be the paste's cut, which lint then says.
   */
  endsOnRule?: { span: Span; end: number };
  /** Rules a later command took out of their chain (`-D`, `-R`, `-F`): the rule -> 0-based line of that command. */
  removedAt: Map<Rule, number>;
  /** What each `-D` / `-R` line took out of its chain (absent when nothing was). */
  editedRule: Map<Rule, Rule>;
  /** Chains `-E` renamed, in line order (0-based line of the `-E`): an old name's hover says where it went. */
  renames: ChainRename[];
  /**
   * Tokens of the lines that are not rules (table headers, declarations, comments, COMMIT), in line order.
   * A rule's tokens are on the rule. Built when first read; `tokensOfLine` answers for one line without it.
   */
  tokens: Token[];
  /** The tokens of one line that is not a rule (a rule's are on the rule), without building the others. */
  tokensOfLine(line: number): readonly Token[];
  lineCount: number;
  /** The rule store's interned names, whose ids rules give as `chainNameId`, ...; absent for dumps built otherwise. */
  names?: NameTable;
  /** Sets and maps of `nft list ruleset` tables that were read (kube-proxy's nftables mode keeps Services there). */
  nftObjects?: NftObject[];
  /** Base chains of those tables that iptables has no builtin for (`nat-prerouting`), with hook and priority. */
  nftBaseChains?: NftBaseChain[];
  /**
   * The header line of every `table FAMILY NAME {` block of an nft ruleset, read or skipped, in order: where each
   * block starts (a table of a name read before joins it, so `tables` has the first one's line only).
   */
  nftTableLines?: number[];
}

export const BUILTIN_CHAINS: Readonly<Record<string, readonly string[]>> = {
  raw: ['PREROUTING', 'OUTPUT'],
  mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  security: ['INPUT', 'FORWARD', 'OUTPUT'],
};

/** Targets built into iptables (not chain names). */
export const STANDARD_TARGETS = new Set(['ACCEPT', 'DROP', 'RETURN', 'QUEUE', 'NFQUEUE']);

const HOOK_CHAINS: readonly string[] = ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'];
/** No built-in chain name is longer: most chains of a big dump (`KUBE-SEP-...`) are told apart by length alone. */
const LONGEST_BUILTIN = Math.max(...HOOK_CHAINS.map((n) => n.length));

/**
 * The table a header cut short by the end of a paste names (`*n`: nat, `*ma`: mangle): the one table iptables has
 * whose name starts so; undefined for a known name, a name no table or several start with.
 */
export function tableOfCutHeader(name: string): string | undefined {
  if (ownEntry(BUILTIN_CHAINS, name)) return undefined;
  const tables = Object.keys(BUILTIN_CHAINS).filter((t) => t.startsWith(name));
  return tables.length === 1 ? tables[0] : undefined;
}

export function isBuiltinChain(table: string, chain: string): boolean {
  return chain.length <= LONGEST_BUILTIN && (ownEntry(BUILTIN_CHAINS, table) ?? HOOK_CHAINS).includes(chain);
}

/** First option of a given name in any match of the rule (generic options first, then modules in order). */
export function findOption(rule: Rule, name: string, module?: string): OptionArg | undefined {
  if (rule.findOption) return rule.findOption(name, module);
  for (const m of rule.matches) {
    if (module !== undefined && m.module !== module) continue;
    for (const o of m.options) if (o.name === name) return o;
  }
  return undefined;
}

/**
 * The first value ('' without one) and negation of the rule's last generic option `name` (canonical) whose value
 * `accept`s; undefined when none does.
 */
export function lastGenericOption(
  rule: Rule,
  name: string,
  accept: (value: string) => boolean,
): { value: string; negated: boolean } | undefined {
  if (rule.lastGenericOption) return rule.lastGenericOption(name, accept);
  let last: { value: string; negated: boolean } | undefined;
  forEachOptionName(rule, (module, optionName, option) => {
    if (module !== '' || optionName !== name) return;
    const o = option();
    const value = o.values[0] ?? '';
    if (accept(value)) last = { value, negated: o.negated };
  });
  return last;
}

/** The first value of `findOption(rule, name, module)`; undefined for a negated option unless `evenNegated`. */
export function optionValue(rule: Rule, name: string, module?: string, evenNegated = false): string | undefined {
  if (rule.optionValue) return rule.optionValue(name, module, evenNegated);
  const o = findOption(rule, name, module);
  return o && (evenNegated || !o.negated) ? o.values[0] : undefined;
}

/** The first value of the target's option `name`. */
export function targetOptionValue(rule: Rule, name: string): string | undefined {
  if (rule.targetOptionValue) return rule.targetOptionValue(name);
  return targetOption(rule, name)?.values[0];
}

/** The option `name` of the rule's first match module named `module` (a second `-m statistic` is not looked at). */
export function firstModuleOption(rule: Rule, module: string, name: string): OptionArg | undefined {
  if (rule.moduleOption) return rule.moduleOption(module, name);
  return rule.matches.find((m) => m.module === module)?.options.find((o) => o.name === name);
}

/** The name after -j/-g, or undefined. */
export function ruleTargetName(rule: Rule): string | undefined {
  return 'targetName' in rule ? rule.targetName : rule.target?.name;
}

/** Whether the rule loads a match module of this name (`-m recent`, or `tcp` implied by `-p tcp --dport`). */
export function ruleHasModule(rule: Rule, module: string): boolean {
  return rule.hasModule ? rule.hasModule(module) : rule.matches.some((m) => m.module === module);
}

/**
 * Each option's owner (a module name, '' for generic options, null for the target's) and canonical name; the
 * option itself is built only when `option()` is called (lint asks only for the ones it reports).
 */
export function forEachOptionName(
  rule: Rule,
  visit: (module: string | null, name: string, option: () => OptionArg) => void,
): void {
  if (rule.forEachOptionName) return rule.forEachOptionName(visit);
  for (const m of rule.matches) for (const o of m.options) visit(m.module, o.name, () => o);
  for (const o of rule.target?.options ?? []) visit(null, o.name, () => o);
}

/** Each match module of the rule (`explicit` for `-m name`, not for `tcp` implied by `-p tcp`); not the generic options. */
export function forEachModuleName(rule: Rule, visit: (module: string, explicit: boolean) => void): void {
  if (rule.forEachModuleName) return rule.forEachModuleName(visit);
  for (const m of rule.matches) if (m.module !== '') visit(m.module, m.moduleSpan !== undefined);
}

/** The rule's text with whitespace runs collapsed: two rules with the same one are duplicates. */
export function ruleComparableText(rule: Rule): string {
  return rule.comparableText ? rule.comparableText() : collapseSpaces(rule.text);
}

/**
 * The comparable text without the family's generic option (`-4`, `! -4`, `--ipv4` in IPv4 rules; `-6` in IPv6
 * ones): iptables takes the rule as if it were not written, so `-A X -4 -j ACCEPT` and `-A X -j ACCEPT` are one rule,
 * and `-D X -4 -j ACCEPT` deletes it. Only the rule's own option counts, not a `-4` that is a value.
 */
export function withoutFamilyOption(rule: Rule, text: string, family: 'ipv4' | 'ipv6'): string {
  const spellings = family === 'ipv6' ? IPV6_SPELLINGS : IPV4_SPELLINGS;
  // A word of its own: `KUBE-SEP-4ABC` holds "-4" too.
  if (!FAMILY_WORD[family].test(text)) return text;
  familyToDrop = family;
  hasFamilyOption = false;
  forEachOptionName(rule, noteFamilyOption);
  if (!hasFamilyOption) return text;
  const kept: string[] = [];
  for (const w of text.split(' ')) {
    if (!spellings.includes(w)) kept.push(w);
    else if (kept[kept.length - 1] === '!') kept.pop();
  }
  return kept.join(' ');
}

const IPV4_SPELLINGS = ['-4', '--ipv4'];
const IPV6_SPELLINGS = ['-6', '--ipv6'];
const FAMILY_WORD = {
  ipv4: /(?:^| )(?:-4|--ipv4)(?= |$)/,
  ipv6: /(?:^| )(?:-6|--ipv6)(?= |$)/,
};
// A visitor of its own with its finding in module variables, not a closure per rule (see lint's visitors).
let familyToDrop: 'ipv4' | 'ipv6' = 'ipv4';
let hasFamilyOption = false;

function noteFamilyOption(module: string | null, name: string): void {
  if (module === '' && name === familyToDrop) hasFamilyOption = true;
}

export function targetOption(rule: Rule, name: string): OptionArg | undefined {
  return rule.target?.options.find((o) => o.name === name);
}

/** Rule text as people recognise it: a command line (`-A CHAIN ...`), or a listing's row as listed. */
export function displayRuleText(rule: Rule): string {
  // `-A` before a listing row (`KUBE-SVC-X  tcp  --  *  *  0.0.0.0/0 ...`) would read as a command it is not.
  if (rule.listingRow) return collapseSpaces(rule.text);
  const flag = { append: '-A', insert: '-I', delete: '-D', replace: '-R', check: '-C' }[rule.command];
  return `${flag} ${rule.text}`;
}
