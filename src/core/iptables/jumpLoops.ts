/**
 * Loops of jumps and gotos among a table's chains (A -> B -> C -> A). The kernel refuses such a table when it is
 * loaded (iptables-restore: "Too many levels of symbolic links", ELOOP): iptables-legacy when a built-in chain
 * reaches the loop, iptables-nft for any loop. Found in time linear in the chains and rules, without recursion (a
 * ladder of 100k chains is as deep as it is long).
 */
import { ChainRecord } from './chainRecord';
import { ruleTargetName, STANDARD_TARGETS, type Chain, type Rule, type Table } from './dump';
import { StoredRule } from './storedRule';

export interface JumpLoop {
  /** The chains of the loop in jump order, starting with the table's first chain of it (it closes back there). */
  chains: string[];
  /** The rule whose jump or goto closes the loop (in the last chain, back to the first). */
  rule: Rule;
}

/**
 * One loop for every group of chains that reach one another (or a chain that jumps to itself): the shortest
 * cycle through the group's first chain in the table's order. A group holds many cycles; naming one is enough to
 * say where it is, and one finding per group keeps a tangle of chains from flooding the list.
 */
export function jumpLoops(table: Table): JumpLoop[] {
  const chains = [...table.chains.values()];
  const n = chains.length;
  const chainIndex = chainIndexer(chains);
  // The jump graph in compressed rows: chain i's edges are to[first[i]] .. to[first[i + 1] - 1], made by via[].
  const first = new Int32Array(n + 1);
  const to: number[] = [];
  const via: Rule[] = [];
  for (let i = 0; i < n; i++) {
    first[i] = to.length;
    const rules = chains[i].rules;
    for (let r = 0; r < rules.length; r++) {
      const target = chainIndex(rules[r]);
      if (target < 0) continue;
      to.push(target);
      via.push(rules[r]);
    }
  }
  first[n] = to.length;
  if (to.length === 0) return [];
  const group = stronglyConnected(n, first, to);

  // A group loops when it has two chains or more, or an edge to itself.
  const groups = group.reduce((m, g) => Math.max(m, g + 1), 0);
  const size = new Int32Array(groups);
  const head = new Int32Array(groups).fill(-1);
  for (let i = 0; i < n; i++) {
    size[group[i]]++;
    if (head[group[i]] < 0) head[group[i]] = i;
  }
  const loops = new Uint8Array(groups);
  for (let i = 0; i < n; i++)
    for (let e = first[i]; e < first[i + 1]; e++) if (to[e] === i || size[group[i]] > 1) loops[group[i]] = 1;

  // Breadth-first from each looping group's first chain, within the group, to the first edge back to it.
  const cameBy = new Int32Array(n).fill(-1);
  const from = new Int32Array(to.length);
  for (let i = 0; i < n; i++) for (let e = first[i]; e < first[i + 1]; e++) from[e] = i;
  const found: JumpLoop[] = [];
  const queue = new Int32Array(n);
  for (let g = 0; g < groups; g++) {
    if (!loops[g]) continue;
    const start = head[g];
    let qHead = 0;
    let qTail = 0;
    queue[qTail++] = start;
    let closing = -1;
    while (qHead < qTail && closing < 0) {
      const v = queue[qHead++];
      for (let e = first[v]; e < first[v + 1]; e++) {
        const w = to[e];
        if (w === start) {
          closing = e;
          break;
        }
        if (group[w] !== g || cameBy[w] >= 0) continue;
        cameBy[w] = e;
        queue[qTail++] = w;
      }
    }
    const path: string[] = [];
    for (let v = from[closing]; v !== start; v = from[cameBy[v]]) path.push(chains[v].name);
    path.push(chains[start].name);
    found.push({ chains: path.reverse(), rule: via[closing] });
  }
  return found;
}

/**
 * The index of the chain a rule jumps or goes to, -1 for none. The parser's chains and rules carry their names' ids
 * in the dump's name table: an array read then, where a map of 40k names cost a fifth of lint on a 10k-Service dump.
 */
function chainIndexer(chains: readonly Chain[]): (rule: Rule) => number {
  let maxId = -1;
  for (const c of chains) {
    if (!(c instanceof ChainRecord)) return byName(chains);
    if (c.nameId > maxId) maxId = c.nameId;
  }
  const indexOfId = new Int32Array(maxId + 1).fill(-1);
  for (let i = 0; i < chains.length; i++) indexOfId[(chains[i] as ChainRecord).nameId] = i;
  let other: ((rule: Rule) => number) | undefined;
  return (rule) => {
    if (!(rule instanceof StoredRule)) return (other ??= byName(chains))(rule);
    const id = rule.targetNameId;
    return id >= 0 && id <= maxId ? indexOfId[id] : -1;
  };
}

function byName(chains: readonly Chain[]): (rule: Rule) => number {
  const indexOf = new Map<string, number>();
  for (let i = 0; i < chains.length; i++) indexOf.set(chains[i].name, i);
  return (rule) => {
    const name = ruleTargetName(rule);
    return name === undefined || STANDARD_TARGETS.has(name) ? -1 : (indexOf.get(name) ?? -1);
  };
}

/** Tarjan's strongly connected components, with explicit stacks: the group number of each node. */
function stronglyConnected(n: number, first: Int32Array, to: readonly number[]): Int32Array {
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const group = new Int32Array(n).fill(-1);
  const nextEdge = new Int32Array(n);
  const open: number[] = [];
  const calls: number[] = [];
  let counter = 0;
  let groups = 0;
  const enter = (v: number) => {
    order[v] = low[v] = counter++;
    nextEdge[v] = first[v];
    open.push(v);
    calls.push(v);
  };
  for (let s = 0; s < n; s++) {
    if (order[s] >= 0) continue;
    enter(s);
    while (calls.length > 0) {
      const v = calls[calls.length - 1];
      if (nextEdge[v] < first[v + 1]) {
        const w = to[nextEdge[v]++];
        if (order[w] < 0) enter(w);
        else if (group[w] < 0 && order[w] < low[v]) low[v] = order[w];
        continue;
      }
      calls.pop();
      if (calls.length > 0) {
        const u = calls[calls.length - 1];
        if (low[v] < low[u]) low[u] = low[v];
      }
      if (low[v] !== order[v]) continue;
      let w: number;
      do {
        w = open.pop()!;
        group[w] = groups;
      } while (w !== v);
      groups++;
    }
  }
  return group;
}

/** A loop as text: `A -> B -> C -> A`; a long one keeps its first and last chains around an ellipsis. */
export function loopText(chains: readonly string[]): string {
  const shown = chains.length <= 8 ? [...chains] : [...chains.slice(0, 4), '…', ...chains.slice(chains.length - 3)];
  return [...shown, chains[0]].join(' -> ');
}
