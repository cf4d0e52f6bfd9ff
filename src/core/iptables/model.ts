/**
 * Indexes over a parsed dump, built once: chains by name, the jump graph (who jumps where), rules and tokens
 * by line. Hovers, definitions, references and lint answer from these instead of rescanning the dump.
 */
import { buildKubeView, type KubeProxyView } from './kubeproxy';
import { EXTENSION_TARGETS } from './options';
import { STANDARD_TARGETS, type Chain, type IptablesDump, type Rule, type Token } from './types';

export interface ChainRef {
  table: string;
  name: string;
}

export interface IptablesModel {
  dump: IptablesDump;
  kube: KubeProxyView;
  chain(table: string, name: string): Chain | undefined;
  /** Chains with this name in any table (nat and filter both have KUBE-SERVICES). */
  chainsNamed(name: string): Chain[];
  /** Rules whose target is this chain (jump or goto), in dump order. */
  references(table: string, name: string): Rule[];
  /** Chains this chain's rules jump or go to. */
  callees(table: string, name: string): ChainRef[];
  ruleAtLine(line: number): Rule | undefined;
  tokensOnLine(line: number): readonly Token[];
  tokenAt(line: number, column: number): Token | undefined;
}

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

export function buildModel(dump: IptablesDump): IptablesModel {
  const chains = new PerTable<Chain>();
  const byName = new Map<string, Chain[]>();
  for (const t of dump.tables) {
    for (const c of t.chains.values()) {
      chains.set(t.name, c.name, c);
      const list = byName.get(c.name);
      if (list) list.push(c);
      else byName.set(c.name, [c]);
    }
  }
  const refs = new PerTable<Rule[]>();
  const calleeMap = new PerTable<Map<string, ChainRef>>();
  const ruleByLine: (Rule | undefined)[] = new Array(dump.lineCount);
  // Rules come chain by chain: keep the current table's and chain's maps instead of looking them up per rule.
  let table = '';
  let chain = '';
  let tableRefs = new Map<string, Rule[]>();
  let callees: Map<string, ChainRef> | undefined;
  for (const r of dump.rules) {
    ruleByLine[r.line] = r;
    const target = r.target?.name;
    if (!target || STANDARD_TARGETS.has(target)) continue;
    // Extension targets (DNAT, MARK, ...) are not chains unless a chain of that name exists.
    if (EXTENSION_TARGETS.has(target) && !chains.has(r.table, target)) continue;
    if (r.table !== table) {
      table = r.table;
      chain = '';
      tableRefs = refs.table(table);
    }
    if (r.chain !== chain) {
      chain = r.chain;
      callees = calleeMap.get(table, chain);
      if (!callees) calleeMap.set(table, chain, (callees = new Map()));
    }
    const list = tableRefs.get(target);
    if (list) list.push(r);
    else tableRefs.set(target, [r]);
    if (!callees!.has(target)) callees!.set(target, { table, name: target });
  }
  // Rule lines answer from the rule's own tokens, the others from the dump's.
  const tokensOnLine = (line: number): readonly Token[] => ruleByLine[line]?.tokens ?? dump.tokensOfLine(line);

  const model: IptablesModel = {
    dump,
    kube: undefined as unknown as KubeProxyView,
    chain: (table, name) => chains.get(table, name),
    chainsNamed: (name) => byName.get(name) ?? [],
    references: (table, name) => refs.get(table, name) ?? [],
    callees: (table, name) => [...(calleeMap.get(table, name)?.values() ?? [])],
    ruleAtLine: (line) => ruleByLine[line],
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
  model.kube = buildKubeView(model);
  return model;
}
