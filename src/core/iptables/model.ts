/**
 * Indexes over a parsed dump, built once: chains by name, the jump graph (who jumps where), rules and tokens
 * by line. Hovers, definitions, references and lint answer from these instead of rescanning the dump.
 */
import { memoryCheckpoint } from '../common/memoryCheck';
import { buildKubeView } from './kubeView';
import type { KubeProxyView } from './kubeServices';
import type { ChainRef, IptablesModel } from './modelApi';
import { bracedElements, type NftElement, type NftObject } from '../nft/objects';
import { EXTENSION_TARGETS } from './options';
import {
  ruleTargetName,
  STANDARD_TARGETS,
  type Chain,
  type IptablesDump,
  type Rule,
  type Table,
  type Token,
} from './dump';

export type { ChainRef, IptablesModel } from './modelApi';

/** Values keyed by (table, chain name) without building a string key per lookup: this runs for every rule. */
class PerTable<V> {
  private readonly tables = new Map<string, Map<string, V>>();
  get(table: string, name: string): V | undefined {
    return this.tables.get(table)?.get(name);
  }
  has(table: string, name: string): boolean {
    return this.tables.get(table)?.has(name) ?? false;
  }
  set(table: string, name: string, value: V): void {
    this.table(table).set(name, value);
  }
  /** The map of one table, created when missing. */
  table(table: string): Map<string, V> {
    let t = this.tables.get(table);
    if (!t) this.tables.set(table, (t = new Map()));
    return t;
  }
}

/** Whether a rule's target names a chain (not ACCEPT, DNAT, ...; an extension's name counts when such a chain exists). */
function jumpsToChain(
  target: string,
  table: string,
  chainOf: (table: string, name: string) => Chain | undefined,
): boolean {
  if (STANDARD_TARGETS.has(target)) return false;
  return !EXTENSION_TARGETS.has(target) || chainOf(table, target) !== undefined;
}

/**
 * Rules by the chain they jump or go to, in dump order (-D/-R/-C lines included, as written): the rules' indexes
 * in one column grouped by target, and a chain's list made when it is asked for. A list kept per chain was 6 MB of
 * a 10k-Service dump's worker (60,000 small arrays) for hovers that ask about a few chains.
 */
class References {
  /** Group of each (table, target): its rules are `order[starts[g]]` up to `order[starts[g + 1]]`. */
  private readonly groups = new PerTable<number>();
  private readonly starts: Int32Array;
  private readonly order: Int32Array;
  /** Rules that name a chain through an nft verdict map, after the plain jumps (see `addVerdictMapReferences`). */
  readonly viaMaps = new PerTable<Rule[]>();

  constructor(
    private readonly dump: IptablesDump,
    chainOf: (table: string, name: string) => Chain | undefined,
  ) {
    const rules = dump.rules;
    const groupOf = new Int32Array(rules.length);
    const counts: number[] = [];
    // Rules come chain by chain: keep the current table's map instead of looking it up per rule.
    let table: string | undefined;
    let tableGroups = new Map<string, number>();
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      const target = ruleTargetName(r);
      groupOf[i] = -1;
      if (!target || !jumpsToChain(target, r.table, chainOf)) continue;
      if (r.table !== table) {
        table = r.table;
        tableGroups = this.groups.table(table);
      }
      let g = tableGroups.get(target);
      if (g === undefined) tableGroups.set(target, (g = counts.push(0) - 1));
      counts[g]++;
      groupOf[i] = g;
    }
    this.starts = new Int32Array(counts.length + 1);
    for (let g = 0; g < counts.length; g++) this.starts[g + 1] = this.starts[g] + counts[g];
    this.order = new Int32Array(this.starts[counts.length]);
    const next = this.starts.slice(0, counts.length);
    for (let i = 0; i < rules.length; i++) if (groupOf[i] >= 0) this.order[next[groupOf[i]]++] = i;
  }

  get(table: string, name: string): Rule[] | undefined {
    const g = this.groups.get(table, name);
    const viaMaps = this.viaMaps.get(table, name);
    if (g === undefined && !viaMaps) return undefined;
    const out: Rule[] = [];
    if (g !== undefined)
      for (let i = this.starts[g]; i < this.starts[g + 1]; i++) out.push(this.dump.rules[this.order[i]]);
    if (this.dump.format !== 'nft') return out;
    if (viaMaps) for (const r of viaMaps) out.push(r);
    // Rules that name a declared chain through a map go after the plain jumps: back in dump order.
    if (this.dump.tables.some((t) => t.name === table && t.chains.has(name))) out.sort((a, b) => a.line - b.line);
    return out;
  }
}

/**
 * Whether a rule of an nft ruleset ends in a verdict map (`... vmap @name`, `... vmap { ... }`, `numgen ... vmap
 * { ... }`); in iptables `-j VMAP` is a jump to a chain of that name.
 */
function isVerdictMapRule(dump: IptablesDump, r: Rule): boolean {
  return dump.format === 'nft' && (r.target?.name === 'VMAP' || r.target?.name === 'NUMGEN');
}

/** The named map a verdict-map rule looks up (`vmap @service-ips`), in the rule's table. */
function namedMapOf(dump: IptablesDump, r: Rule): NftObject | undefined {
  const name = r.target?.options.find((o) => o.name === 'map')?.values[0];
  return name === undefined ? undefined : dump.nftObjects?.find((o) => o.table === r.table && o.name === name);
}

/** The chains a verdict-map rule goes or jumps to through its elements, inline or of its named map, each once. */
export function verdictMapChains(dump: IptablesDump, r: Rule): string[] {
  if (!isVerdictMapRule(dump, r)) return [];
  const inline = r.target!.options.find((o) => o.name === 'elements')?.values[0];
  const elements = inline !== undefined ? bracedElements(inline) : (namedMapOf(dump, r)?.elements ?? []);
  const out = new Set<string>();
  for (const e of elements) if (e.chain) out.add(e.chain);
  return [...out];
}

/**
 * nft writes jumps as verdict-map elements too: a rule's `numgen random mod 2 vmap { 0 : goto A, 1 : goto B }`
 * refers to A and B; `map service-ips { ... : goto C }` refers to C from the map. Rules go with the rule
 * references (once per chain they name); map elements are a list of their own, with their positions; the rules
 * that look a named map up (`vmap @service-ips`) are the callers of its elements' chains (the call hierarchy's).
 */
function addVerdictMapReferences(
  dump: IptablesDump,
  refs: References,
  elements: PerTable<NftElement[]>,
  namedMapCallers: PerTable<Rule[]>,
): void {
  for (const r of dump.rules) {
    if (!isVerdictMapRule(dump, r)) continue;
    const inline = r.target!.options.some((o) => o.name === 'elements');
    for (const chain of verdictMapChains(dump, r)) {
      const byChain = inline ? refs.viaMaps : namedMapCallers;
      const list = byChain.get(r.table, chain);
      if (list) list.push(r);
      else byChain.set(r.table, chain, [r]);
    }
  }
  for (const o of dump.nftObjects ?? []) {
    for (const e of o.elements) {
      if (!e.chain) continue;
      const list = elements.get(o.table, e.chain);
      if (list) list.push(e);
      else elements.set(o.table, e.chain, [e]);
    }
  }
}

/** The chains a chain's rules jump or go to, in dump order of the first such rule (every rule line counts). */
function calleesOf(
  dump: IptablesDump,
  table: string,
  name: string,
  chainOf: (table: string, name: string) => Chain | undefined,
): ChainRef[] {
  const out = new Map<string, ChainRef>();
  for (const r of dump.rules) {
    if (r.chain !== name || r.table !== table) continue;
    if (isVerdictMapRule(dump, r)) {
      // nft: the chains its map's elements go to (declared ones: a map names chains, never extension targets).
      for (const c of verdictMapChains(dump, r)) if (!out.has(c) && chainOf(table, c)) out.set(c, { table, name: c });
      continue;
    }
    const target = ruleTargetName(r);
    if (target && !out.has(target) && jumpsToChain(target, table, chainOf)) out.set(target, { table, name: target });
  }
  return [...out.values()];
}

export function buildModel(dump: IptablesDump): IptablesModel {
  // Chains are found through the tables' own maps; a dump has a handful of tables.
  const tableByName = new Map<string, Table>();
  for (const t of dump.tables) if (!tableByName.has(t.name)) tableByName.set(t.name, t);
  const chainOf = (table: string, name: string): Chain | undefined => tableByName.get(table)?.chains.get(name);
  // Rule ids + 1 by line (0: no rule): numbers, not 200k pointers for the collector to trace.
  const ruleIdByLine = new Int32Array(dump.lineCount);
  const rules = dump.rules;
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    // A hard-wrapped rule answers on each of its lines.
    for (let line = r.line, last = r.endLine ?? r.line; line <= last; line++) ruleIdByLine[line] = i + 1;
  }
  const ruleAtLine = (line: number): Rule | undefined => {
    const id = line >= 0 && line < ruleIdByLine.length ? ruleIdByLine[line] : 0;
    return id > 0 ? rules[id - 1] : undefined;
  };
  // The jump graph is built on the first question about it: hovers, lenses and navigation need it, parsing and
  // diagnostics of a big dump do not.
  let refs: References | undefined;
  let elementRefs: PerTable<NftElement[]> | undefined;
  let namedMapCallers: PerTable<Rule[]> | undefined;
  const references = (): References => {
    if (!refs) {
      refs = new References(dump, chainOf);
      elementRefs = new PerTable<NftElement[]>();
      namedMapCallers = new PerTable<Rule[]>();
      if (dump.format === 'nft') addVerdictMapReferences(dump, refs, elementRefs, namedMapCallers);
    }
    return refs;
  };
  // Rule lines answer from the rule's own tokens, the others from the dump's.
  const tokensOnLine = (line: number): readonly Token[] => {
    const rule = ruleAtLine(line);
    if (!rule) return dump.tokensOfLine(line);
    // Tokens of a rule over several lines (a hard-wrapped paste) sit on their own lines.
    return (rule.endLine ?? rule.line) === rule.line ? rule.tokens : rule.tokens.filter((t) => t.span.line === line);
  };

  // The kube view is built on its first read: a trace that DNATs never asks for it, parse --json and lint do.
  let kube: KubeProxyView | undefined;
  const model: IptablesModel = {
    dump,
    get kube(): KubeProxyView {
      if (!kube) {
        kube = buildKubeView(model);
        memoryCheckpoint();
      }
      return kube;
    },
    chain: chainOf,
    chainsNamed: (name) => {
      const out: Chain[] = [];
      for (const t of dump.tables) {
        const c = t.chains.get(name);
        if (c) out.push(c);
      }
      return out;
    },
    references: (table, name) => references().get(table, name) ?? [],
    mapReferences: (table, name) => {
      references();
      return elementRefs?.get(table, name) ?? [];
    },
    namedMapCallers: (table, name) => {
      references();
      return namedMapCallers?.get(table, name) ?? [];
    },
    // A call-hierarchy question about one chain: one pass over the rules (milliseconds) instead of an index.
    callees: (table, name) => calleesOf(dump, table, name, chainOf),
    ruleAtLine,
    tokensOnLine,
    tokenAt: (line, column) => {
      const list = tokensOnLine(line);
      // Tokens on a line are sorted by column; the last one starting at or before the column wins.
      let found: Token | undefined;
      for (const t of list) {
        if (t.span.column > column) break;
        if (column <= t.span.column + t.span.length) found = t;
      }
      return found;
    },
  };
  return model;
}
