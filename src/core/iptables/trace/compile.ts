/**
 * The per-dump index the tracer walks: tables by name, chains compiled lazily into conditions and targets,
 * and for long chains a destination index so a trace looks at the handful of rules that can match instead of
 * scanning thousands (KUBE-SERVICES of a big cluster). A chain's index reads only each rule's `-d` from the rule
 * store; a rule is compiled when a trace reaches it. Cached per dump object in a WeakMap.
 */
import type { IpFamily } from '../../common/ip';
import type { NftObject } from '../../nft/objects';
import {
  displayRuleText,
  isBuiltinChain,
  lastGenericOption,
  type Chain,
  type Match,
  type Rule,
  type Table,
  type Target,
} from '../dump';
import { compileConditions, type CompileProblem, type Cond, type GenericInfo } from './conditions';
import { impliedJumps } from './hooks';
import { msg } from './message';
import { compileTarget, type CompiledTarget, type MarkBits } from './targets';
import { marksReadBy } from './markReaders';
import type { TraceMessage } from './types';
import { parseAddressList, singleHost } from './values';
import { chainKey, DeferredChain, traceSliceOf } from '../traceSlice';
import { INDEX_MIN_RULES, plainIPv4HostAt } from './hostIndex';

export interface CompiledRule {
  table: string;
  chain: string;
  line: number;
  ruleId?: number;
  text: string;
  conds: Cond[];
  target: CompiledTarget;
  problems: CompileProblem[];
  /** Set on rules the dump does not contain (kube-proxy's jumps from builtin chains). */
  impliedNote?: TraceMessage;
}

export interface CompiledChain {
  table: string;
  name: string;
  builtin: boolean;
  /** Undefined when the dump does not say (rule lines, `-S` output without `-P`). */
  policy?: string;
  /** Builtin chain synthesised from kube-proxy's standard jumps; its policy is ACCEPT. */
  implied: boolean;
  /** What a path entering an implied chain assumes. */
  impliedAssumption?: TraceMessage;
  line: number;
  /** Line the policy step points at: the last `-P`, else the declaration. */
  policyLine: number;
  /** The rule at `position` in the chain, compiled when first asked. */
  rule(position: number): CompiledRule;
  /** Positions of the rules that can match a packet to `dst`, in chain order. */
  candidates(dst: bigint): readonly number[];
}

export interface DumpIndex {
  family: IpFamily;
  duplicateTables: string[];
  hasTable(table: string): boolean;
  /** A chain of the dump, or for a missing builtin chain the implied kube-proxy jumps (if any). */
  chain(table: string, name: string): CompiledChain | undefined;
  /** The mark bits the dump's rules read (`marksReadBy`), found when first asked. */
  marksRead(): MarkBits;
}

const caches: Record<IpFamily, WeakMap<object, DumpIndex>> = { 4: new WeakMap(), 6: new WeakMap() };

/**
 * The dump's rules compiled for packets of `family`, the dump's own unless told: a rules file for both tools (`-4`,
 * `-6`) or an nft `inet` table holds rules of both families, and what a rule means (`-6`, `-p icmp`, a NAT address)
 * depends on the packet's.
 */
export function dumpIndex(
  dump: { family: IpFamily; tables: Table[]; nftObjects?: readonly NftObject[] },
  family: IpFamily = dump.family,
): DumpIndex {
  let index = caches[family].get(dump);
  if (!index) {
    index = buildIndex(dump, family);
    caches[family].set(dump, index);
  }
  return index;
}

function buildIndex(
  dump: { family: IpFamily; tables: Table[]; nftObjects?: readonly NftObject[] },
  family: IpFamily,
): DumpIndex {
  const tables = new Map<string, Table>();
  const duplicateTables: string[] = [];
  for (const t of dump.tables) {
    if (tables.has(t.name)) duplicateTables.push(t.name);
    else tables.set(t.name, t);
  }
  const compiled = new Map<string, CompiledChain | null>();
  const slice = traceSliceOf(dump);

  const chain = (tableName: string, name: string): CompiledChain | undefined => {
    const key = chainKey(tableName, name);
    const hit = compiled.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const table = tables.get(tableName);
    let result: CompiledChain | undefined;
    if (table) {
      const c = table.chains.get(name);
      // A chain a trace slice left out: the caller reads the text again with it (`traceText`).
      if (c && slice?.deferred.has(key)) throw new DeferredChain(slice);
      if (c) result = compileChain(table, c, family, dump.nftObjects, slice?.trimmed.has(key));
      else if (isBuiltinChain(tableName, name)) result = compileImplied(table, name, family);
    }
    compiled.set(key, result ?? null);
    return result;
  };
  let marksRead: MarkBits | undefined;
  return {
    family,
    duplicateTables,
    hasTable: (t) => tables.has(t),
    chain,
    marksRead: () => (marksRead ??= marksReadBy(tables.values())),
  };
}

function compileRule(
  table: Table,
  chainName: string,
  line: number,
  text: string,
  matches: Match[],
  target: Target | undefined,
  family: IpFamily,
  info: GenericInfo,
  /** The dump's nft sets and maps, which verdict-map targets look up. */
  objects?: readonly NftObject[],
): CompiledRule {
  const problems: CompileProblem[] = [];
  const conds = compileConditions(matches, family, problems, info);
  const compiledTarget = compileTarget(
    target,
    family,
    (n) => table.chains.has(n),
    (n) => objects?.find((o) => o.table === table.name && o.name === n),
  );
  return { table: table.name, chain: chainName, line, text, conds, target: compiledTarget, problems };
}

function compileChain(
  table: Table,
  c: Chain,
  family: IpFamily,
  objects?: readonly NftObject[],
  /** The chain lost rules no walker looks at (`TraceSlice.trimmed`): indexed as the whole chain was. */
  trimmed = false,
): CompiledChain {
  // The index and the rules compiled later read the same list.
  const chainRules = c.rules;
  const compiled: CompiledRule[] = [];
  const rule = (position: number): CompiledRule => {
    let cr = compiled[position];
    if (!cr) {
      const r = chainRules[position];
      cr = compileRule(table, c.name, r.line, displayRuleText(r), r.matches, r.target, family, {}, objects);
      cr.ruleId = r.id;
      compiled[position] = cr;
    }
    return cr;
  };
  const line = c.declSpan?.line ?? chainRules[0]?.line ?? table.line ?? -1;
  return {
    table: table.name,
    name: c.name,
    builtin: c.builtin || isBuiltinChain(table.name, c.name),
    policy: c.policy,
    implied: false,
    line,
    policyLine: c.policyLine ?? line,
    rule,
    candidates: candidateLookup(chainRules, trimmed),
  };
}

/**
 * The single host a rule's destination must be, as its compiled conditions see it (`GenericInfo`): the last
 * generic `-d` whose value parses, when it is not negated and is one /32 or /128; as a `hostKey`. Read from the
 * rule store without building the rule's matches.
 */
function destinationHost(r: Rule): number | bigint | undefined {
  const last = lastGenericOption(r, 'destination', isAddressList);
  if (!last || last.negated) return undefined;
  const value = last.value;
  // kube-proxy's Service addresses, thousands in one chain: read as a number without a bigint on the way.
  const v4 = plainIPv4Host(value);
  if (v4 >= 0) return v4;
  const host = singleHost(parseAddressList(value)!);
  return host === undefined ? undefined : hostKey(host);
}

function isAddressList(text: string): boolean {
  return plainIPv4Host(text) >= 0 || parseAddressList(text) !== undefined;
}

function plainIPv4Host(text: string): number {
  return plainIPv4HostAt(text, 0, text.length);
}

/** A host address as a Map key: a number below 2^53 (every IPv4 one), which a Map hashes far faster than a bigint. */
function hostKey(value: bigint): number | bigint {
  return value <= MAX_SAFE_HOST ? Number(value) : value;
}

const MAX_SAFE_HOST = BigInt(Number.MAX_SAFE_INTEGER);

/** kube-proxy writes its restore input without the builtin chains; its jumps into them are added separately. */
function compileImplied(table: Table, name: string, family: IpFamily): CompiledChain | undefined {
  const jumps = impliedJumps(table.name, name).filter((j) => table.chains.has(j.target));
  if (jumps.length === 0) return undefined;
  const rules = jumps.map((j) => {
    const text = `-A ${name}${j.ctstateNew ? ' -m conntrack --ctstate NEW' : ''} -m comment --comment "${j.comment}" -j ${j.target}`;
    const matches: Match[] = j.ctstateNew ? [syntheticMatch('conntrack', 'ctstate', '--ctstate', 'NEW')] : [];
    const target: Target = { name: j.target, kind: 'jump', span: NO_SPAN, options: [] };
    const cr = compileRule(table, name, -1, text, matches, target, family, {});
    cr.impliedNote = msg('note.implied-jump');
    return cr;
  });
  const all = rules.map((_, i) => i);
  return {
    table: table.name,
    name,
    builtin: true,
    policy: 'ACCEPT',
    implied: true,
    impliedAssumption: msg('assume.kube-jumps', {
      table: table.name,
      chain: name,
      targets: jumps.map((j) => j.target).join(', '),
    }),
    line: -1,
    policyLine: -1,
    rule: (position) => rules[position],
    candidates: () => all,
  };
}

const NO_SPAN = { line: -1, column: 0, length: 0 };

function syntheticMatch(module: string, name: string, written: string, value: string): Match {
  return {
    module,
    options: [{ name, written, values: [value], negated: false, span: NO_SPAN, valueSpans: [NO_SPAN] }],
  };
}

/**
 * Rules with a single-host `-d` go into buckets by that host; the rest apply to every destination. A lookup merges
 * the bucket with the rest in chain order and remembers the result for the next trace to the same address.
 */
function candidateLookup(rules: readonly Rule[], trimmed: boolean): (dst: bigint) => readonly number[] {
  const all = rules.map((_, i) => i);
  if (rules.length < INDEX_MIN_RULES && !trimmed) return () => all;
  const hosts = rules.map(destinationHost);
  const byHost = new Map<number | bigint, number[]>();
  const anyHost: number[] = [];
  hosts.forEach((h, i) => {
    if (h === undefined) anyHost.push(i);
    else {
      const list = byHost.get(h);
      if (list) list.push(i);
      else byHost.set(h, [i]);
    }
  });
  if (anyHost.length === hosts.length) return () => all;
  const merged = new Map<number | bigint, readonly number[]>();
  return (dst) => {
    const key = hostKey(dst);
    const hit = merged.get(key);
    if (hit) return hit;
    const bucket = byHost.get(key);
    if (!bucket) return anyHost;
    const out: number[] = [];
    let i = 0;
    let j = 0;
    while (i < bucket.length || j < anyHost.length) {
      if (j >= anyHost.length || (i < bucket.length && bucket[i] < anyHost[j])) out.push(bucket[i++]);
      else out.push(anyHost[j++]);
    }
    merged.set(key, out);
    return out;
  };
}
