/**
 * Chain, target and comment names of a dump as small integers: the rule store's name ids. The kube-proxy view
 * keys 60,000 chains and 50,000 endpoints by name; arrays indexed by id cost a fraction of string-keyed maps
 * (each lookup of a map hashes and compares strings, and the collector copies its tables).
 */
import { NameTable } from './ruleStore';
import { ANY_MODULE, GENERIC_OPTIONS } from './storedRule';
import { optionValue, ruleHasModule, ruleTargetName, type Chain, type IptablesDump, type Rule } from './dump';

export class DumpNames {
  private constructor(private readonly table: NameTable) {}

  /** The dump's own name table; a fresh one for a dump built without the rule store. */
  static of(dump: Pick<IptablesDump, 'names'>): DumpNames {
    return new DumpNames(dump.names ?? new NameTable());
  }

  /** The id of a name, added when new (rules of a listing carry names the store never saw). */
  id(name: string): number {
    return this.table.idOf(name, 0, name.length);
  }

  /** The id of a name already known, or -1: a question never adds one. */
  find(name: string): number {
    return this.table.find(name);
  }

  nameOf(id: number): string {
    return this.table.names[id];
  }

  get count(): number {
    return this.table.names.length;
  }

  /** `module` as for `optionValue`: undefined for the first in any module (generic ones first), '' for generic ones. */
  option(name: string, module?: string): OptionQuery {
    const known = module === undefined ? ANY_MODULE : module === '' ? GENERIC_OPTIONS : this.find(module);
    const moduleId = module !== undefined && known === -1 ? NO_SUCH_MODULE : known;
    return { name, ...(module !== undefined ? { module } : {}), id: this.find(name), moduleId };
  }

  /** `optionValue(rule, q.name, q.module, evenNegated)`, by ids for rules of the store. */
  optionValue(rule: Rule, q: OptionQuery, evenNegated = false): string | undefined {
    if (!rule.optionValueById) return optionValue(rule, q.name, q.module, evenNegated);
    return q.id < 0 ? undefined : rule.optionValueById(q.id, q.moduleId, evenNegated);
  }

  /** `ruleHasModule(rule, name)`, by the module's id for rules of the store. */
  hasModule(rule: Rule, moduleId: number, name: string): boolean {
    return rule.hasModuleId ? rule.hasModuleId(moduleId) : ruleHasModule(rule, name);
  }

  /** The id of a chain's name. */
  ofChain(chain: Chain): number {
    return chain.nameId ?? this.id(chain.name);
  }

  ruleChain(rule: Rule): number {
    return rule.chainNameId ?? this.id(rule.chain);
  }

  /** -1 for a rule without a target. */
  ruleTarget(rule: Rule): number {
    if (rule.targetNameId !== undefined) return rule.targetNameId;
    const name = ruleTargetName(rule);
    return name === undefined ? -1 : this.id(name);
  }

  /** -1 for a rule without a comment. */
  ruleComment(rule: Rule): number {
    if (rule.commentNameId !== undefined) return rule.commentNameId;
    return rule.comment === undefined ? -1 : this.id(rule.comment);
  }
}

/** An option asked of many rules (`--probability` of `statistic`), its names resolved to ids once. */
export interface OptionQuery {
  name: string;
  module?: string;
  id: number;
  /** ANY_MODULE without a module, GENERIC_OPTIONS for `''`; NO_SUCH_MODULE when no rule of the store loads it. */
  moduleId: number;
}

const NO_SUCH_MODULE = -2;

/** A map from names to values held in an array by name id; read as a `ReadonlyMap` by name, in insertion order. */
export class NameKeyedMap<V, Stored = V> implements ReadonlyMap<string, V> {
  /** Index + 1 into `stored` by name id (0: none): numbers off the collector's heap, not 100k+ pointer slots. */
  private slotById: Int32Array;
  private readonly stored: Stored[] = [];
  private readonly ids: number[] = [];

  constructor(
    private readonly names: DumpNames,
    /** What a reader sees for a stored value (the same value unless given). */
    private readonly view: (stored: Stored) => V = (s) => s as unknown as V,
  ) {
    this.slotById = new Int32Array(names.count);
  }

  setId(id: number, value: Stored): void {
    if (id >= this.slotById.length) {
      // Names added after the map was made (rules outside the store, read on use).
      const grown = new Int32Array(Math.max(id + 1, this.slotById.length * 2));
      grown.set(this.slotById);
      this.slotById = grown;
    }
    const slot = this.slotById[id];
    if (slot > 0) this.stored[slot - 1] = value;
    else {
      this.slotById[id] = this.stored.push(value);
      this.ids.push(id);
    }
  }

  getId(id: number): Stored | undefined {
    const slot = id >= 0 && id < this.slotById.length ? this.slotById[id] : 0;
    return slot > 0 ? this.stored[slot - 1] : undefined;
  }

  get(name: string): V | undefined {
    const stored = this.getId(this.names.find(name));
    return stored === undefined ? undefined : this.view(stored);
  }

  has(name: string): boolean {
    return this.getId(this.names.find(name)) !== undefined;
  }

  get size(): number {
    return this.stored.length;
  }

  *entries(): MapIterator<[string, V]> {
    for (let i = 0; i < this.stored.length; i++) yield [this.names.nameOf(this.ids[i]), this.view(this.stored[i])];
  }

  *keys(): MapIterator<string> {
    for (const id of this.ids) yield this.names.nameOf(id);
  }

  *values(): MapIterator<V> {
    for (const s of this.stored) yield this.view(s);
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  forEach(visit: (value: V, key: string, map: ReadonlyMap<string, V>) => void): void {
    for (const [k, v] of this.entries()) visit(v, k, this);
  }
}
