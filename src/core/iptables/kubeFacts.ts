/**
 * What the kube view (kubeView.ts) reads of a dump's rules and chains, as one interface with two answerers: the
 * parsed model (`modelKubeFacts`) and the index of a plain save dump that reads a rule's few words from its line
 * when asked (`dumpIndex.ts`). The view's logic is written once, against this. `R` and `C` are how each answerer
 * names a rule and a chain (the model's objects, the index's numbers).
 */
import { DumpNames, type OptionQuery } from './nameIdTable';
import { firstModuleOption, targetOptionValue, type Chain, type Rule } from './dump';
import type { IptablesModel } from './modelApi';

export interface KubeFacts<R, C> {
  /** The names the rules and chains are numbered by. */
  readonly names: DumpNames;
  /** Rules in the dump's order (`IptablesDump.rules`). */
  readonly ruleCount: number;
  rule(i: number): R;
  /** 0-based line of the rule's first line. */
  line(r: R): number;
  table(r: R): string;
  /** Name id of the rule's chain. */
  chainOf(r: R): number;
  /** Name id of the name after -j/-g, -1 without one. */
  target(r: R): number;
  /** Name id of the comment, -1 without one. */
  comment(r: R): number;
  /** The comment without adding it to the names (entry rules' comments are each read once). */
  commentText(r: R): string | undefined;
  /** A `-m` module of this name (`moduleId`: its id in `names`) or an implied one. */
  hasModule(r: R, moduleId: number, name: string): boolean;
  /** `-p`, in lower case; undefined when negated. */
  protocol(r: R): string | undefined;
  /** `-d` as written; undefined when negated. */
  destination(r: R): string | undefined;
  /** `-s` as written; undefined when negated (an endpoint chain's hairpin rule, when its DNAT rule is missing). */
  source(r: R): string | undefined;
  /** `--dport` of any module; undefined when negated. */
  dport(r: R): string | undefined;
  /** `--dst-type` of `addrtype`, even negated. */
  dstType(r: R): string | undefined;
  /** `--probability` of `statistic`, even negated. */
  probabilityText(r: R): string | undefined;
  /** The first value of `--seconds` of the rule's first `recent` module. */
  recentSeconds(r: R): string | undefined;
  /** The first `--to-destination` of the target. */
  toDestination(r: R): string | undefined;
  /** A MARK target's first `--set-xmark`, `--set-mark` or `--or-mark`: its name and first value. */
  markOption(r: R): { name: string; value: string | undefined } | undefined;
  /** A `set` module option whose first value names a KUBE- set (IPVS mode's `--match-set KUBE-...`). */
  matchesKubeSet(r: R): boolean;
  /** The rule on this line. */
  ruleAtLine(line: number): R | undefined;
  /** Every chain: tables in dump order, each table's chains in the order they were made. */
  forEachChain(visit: (c: C) => void): void;
  /** The chains of this name, one per table that has it. */
  chainsNamed(name: string): C[];
  chainName(c: C): string;
  chainNameId(c: C): number;
  chainRuleCount(c: C): number;
  chainRule(c: C, i: number): R;
  /** The chain's declaration line, else its first rule's, else 0. */
  chainLine(c: C): number;
}

/** The facts of a parsed dump: its rules' and chains' own answers, by name ids where the store keeps them. */
export function modelKubeFacts(model: IptablesModel): KubeFacts<Rule, Chain> {
  return new ModelFacts(model);
}

class ModelFacts implements KubeFacts<Rule, Chain> {
  readonly names: DumpNames;
  readonly ruleCount: number;
  private readonly rules: readonly Rule[];
  private readonly protocolQuery: OptionQuery;
  private readonly destinationQuery: OptionQuery;
  private readonly sourceQuery: OptionQuery;
  private readonly dportQuery: OptionQuery;
  private readonly dstTypeQuery: OptionQuery;
  private readonly probabilityQuery: OptionQuery;

  constructor(private readonly model: IptablesModel) {
    const names = (this.names = DumpNames.of(model.dump));
    this.rules = model.dump.rules;
    this.ruleCount = this.rules.length;
    this.protocolQuery = names.option('protocol');
    this.destinationQuery = names.option('destination');
    this.sourceQuery = names.option('source');
    this.dportQuery = names.option('dport');
    this.dstTypeQuery = names.option('dst-type', 'addrtype');
    this.probabilityQuery = names.option('probability', 'statistic');
  }

  rule(i: number): Rule {
    return this.rules[i];
  }

  line(r: Rule): number {
    return r.line;
  }

  table(r: Rule): string {
    return r.table;
  }

  chainOf(r: Rule): number {
    return this.names.ruleChain(r);
  }

  target(r: Rule): number {
    return this.names.ruleTarget(r);
  }

  comment(r: Rule): number {
    return this.names.ruleComment(r);
  }

  commentText(r: Rule): string | undefined {
    return r.commentText ? r.commentText() : r.comment;
  }

  hasModule(r: Rule, moduleId: number, name: string): boolean {
    return this.names.hasModule(r, moduleId, name);
  }

  protocol(r: Rule): string | undefined {
    return this.names.optionValue(r, this.protocolQuery)?.toLowerCase();
  }

  destination(r: Rule): string | undefined {
    return this.names.optionValue(r, this.destinationQuery);
  }

  source(r: Rule): string | undefined {
    return this.names.optionValue(r, this.sourceQuery);
  }

  dport(r: Rule): string | undefined {
    return this.names.optionValue(r, this.dportQuery);
  }

  dstType(r: Rule): string | undefined {
    return this.names.optionValue(r, this.dstTypeQuery, true);
  }

  probabilityText(r: Rule): string | undefined {
    return this.names.optionValue(r, this.probabilityQuery, true);
  }

  recentSeconds(r: Rule): string | undefined {
    return firstModuleOption(r, 'recent', 'seconds')?.values[0];
  }

  toDestination(r: Rule): string | undefined {
    return targetOptionValue(r, 'to-destination');
  }

  markOption(r: Rule): { name: string; value: string | undefined } | undefined {
    if (r.target?.name !== 'MARK') return undefined;
    const o = r.target.options.find((x) => MARK_OPTION.test(x.name));
    return o && { name: o.name, value: o.values[0] };
  }

  matchesKubeSet(r: Rule): boolean {
    return r.matches.some((m) => m.module === 'set' && m.options.some((o) => /^KUBE-/.test(o.values[0] ?? '')));
  }

  ruleAtLine(line: number): Rule | undefined {
    return this.model.ruleAtLine(line);
  }

  forEachChain(visit: (c: Chain) => void): void {
    for (const t of this.model.dump.tables) t.chains.forEach(visit);
  }

  chainsNamed(name: string): Chain[] {
    return this.model.chainsNamed(name);
  }

  chainName(c: Chain): string {
    return c.name;
  }

  chainNameId(c: Chain): number {
    return this.names.ofChain(c);
  }

  chainRuleCount(c: Chain): number {
    return c.rules.length;
  }

  chainRule(c: Chain, i: number): Rule {
    return c.rules[i];
  }

  chainLine(c: Chain): number {
    return c.declSpan?.line ?? c.rules[0]?.line ?? 0;
  }
}

/** The MARK target options that set the mark (`markOption`). */
export const MARK_OPTION = /^(?:set-xmark|set-mark|or-mark)$/;
