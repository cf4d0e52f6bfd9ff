/** Go to definition, references and call hierarchy over the jump graph. */
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  Location,
} from 'vscode-languageserver';
import { SymbolKind } from '../lspConstants';
import type { Analysis } from '../../core/analyze';
import { verdictMapChains, type IptablesModel } from '../../core/iptables/model';
import { ruleTargetName, type Chain, type Rule } from '../../core/iptables/dump';
import { toRange } from '../convert';
import type { LineLengths } from './symbols';
import { throwIfCancelled } from '../cancellation';

/** The chain named by the token under the cursor (a declaration, a `-A CHAIN`, or a jump target). */
export function chainAt(model: IptablesModel, line: number, character: number): Chain | undefined {
  const token = model.tokenAt(line, character);
  if (!token || !(token.kind === 'chainDecl' || token.kind === 'chainRef' || token.kind === 'target')) return undefined;
  const rule = model.ruleAtLine(line);
  if (rule) {
    // The rule's own names, not the words written: an `-E` after the rule renamed its chain or its jump target.
    const name =
      token.kind === 'target'
        ? (ruleTargetName(rule) ?? token.text)
        : token.kind === 'chainRef'
          ? rule.chain
          : token.text;
    return model.chain(rule.table, name) ?? model.chainsNamed(name)[0];
  }
  // A declaration line (or an `-E` line): the chain declared here, under the name a later `-E` gave it.
  const table = model.dump.tables.find(
    (t) => t.line !== undefined && t.line <= line && (t.commitLine ?? Infinity) >= line,
  );
  let name = token.text;
  for (const r of model.dump.renames)
    if (r.from === name && r.line >= line && (!table || r.table === table.name)) name = r.to;
  if (table) return model.chain(table.name, name) ?? model.chainsNamed(name)[0];
  const named = model.chainsNamed(name);
  return named.find((c) => c.declSpan?.line === line) ?? named[0];
}

function chainLocation(uri: string, chain: Chain): Location | undefined {
  const span = chain.declSpan ?? chain.rules[0]?.chainSpan;
  return span ? { uri, range: toRange(span) } : undefined;
}

export function definition(a: Analysis, uri: string, line: number, character: number): Location | null {
  const model = a.iptables;
  if (!model) return null;
  const chain = chainAt(model, line, character);
  return (chain && chainLocation(uri, chain)) ?? null;
}

export function references(
  a: Analysis,
  uri: string,
  line: number,
  character: number,
  includeDeclaration: boolean,
): Location[] {
  const model = a.iptables;
  if (!model) return [];
  const chain = chainAt(model, line, character);
  if (!chain) return [];
  const out: Location[] = [];
  if (includeDeclaration) {
    const decl = chainLocation(uri, chain);
    if (decl) out.push(decl);
  }
  for (const r of model.references(chain.table, chain.name)) {
    throwIfCancelled();
    if (r.target) out.push({ uri, range: toRange(r.target.span) });
  }
  for (const e of model.mapReferences(chain.table, chain.name)) {
    throwIfCancelled();
    out.push({ uri, range: toRange(e) });
  }
  return out;
}

/** A chain as a call hierarchy item: its lines from the declaration to the end of its last rule's line, which hold the name. */
function item(uri: string, chain: Chain, lines: LineLengths): CallHierarchyItem {
  const span = chain.declSpan ?? chain.rules[0]?.chainSpan ?? { line: 0, column: 0, length: 0 };
  let first = span.line;
  let last = span.line;
  // A loop: an -A after a later declaration, or a listing, puts rules before the name.
  for (const r of chain.rules) {
    if (r.line < first) first = r.line;
    const end = r.endLine ?? r.line;
    if (end > last) last = end;
  }
  const selectionRange = toRange(span);
  const end = {
    line: last,
    character: Math.max(lines.lineLength(last), last === span.line ? selectionRange.end.character : 0),
  };
  const range = { start: { line: first, character: 0 }, end };
  return {
    name: chain.name,
    kind: SymbolKind.Function,
    detail: chain.table,
    uri,
    range,
    selectionRange,
    data: { table: chain.table, name: chain.name },
  };
}

export function prepareCallHierarchy(
  a: Analysis,
  uri: string,
  line: number,
  character: number,
  lines: LineLengths,
): CallHierarchyItem[] | null {
  const model = a.iptables;
  const chain = model && chainAt(model, line, character);
  return chain ? [item(uri, chain, lines)] : null;
}

function chainOfItem(model: IptablesModel, it: CallHierarchyItem): Chain | undefined {
  const d = it.data as { table?: string; name?: string } | undefined;
  return d?.table && d.name ? model.chain(d.table, d.name) : model.chainsNamed(it.name)[0];
}

export function incomingCalls(
  a: Analysis,
  uri: string,
  it: CallHierarchyItem,
  lines: LineLengths,
): CallHierarchyIncomingCall[] {
  const model = a.iptables;
  const chain = model && chainOfItem(model, it);
  if (!model || !chain) return [];
  const byCaller = new Map<string, { chain: Chain; rules: Rule[] }>();
  // nft: a rule looking up a named map (`vmap @service-ips`) calls the chains its elements go to.
  for (const r of [...model.references(chain.table, chain.name), ...model.namedMapCallers(chain.table, chain.name)]) {
    throwIfCancelled();
    const caller = model.chain(r.table, r.chain);
    if (!caller) continue;
    const entry = byCaller.get(caller.name) ?? { chain: caller, rules: [] };
    entry.rules.push(r);
    byCaller.set(caller.name, entry);
  }
  return [...byCaller.values()].map((e) => {
    throwIfCancelled();
    return { from: item(uri, e.chain, lines), fromRanges: e.rules.map((r) => toRange(r.target!.span)) };
  });
}

export function outgoingCalls(
  a: Analysis,
  uri: string,
  it: CallHierarchyItem,
  lines: LineLengths,
): CallHierarchyOutgoingCall[] {
  const model = a.iptables;
  const chain = model && chainOfItem(model, it);
  if (!model || !chain) return [];
  // Each rule's callees once (a kube-proxy `services` rule's map names 10k chains), then each callee's rules.
  const rulesTo = new Map<string, Rule[]>();
  for (const r of chain.rules) {
    throwIfCancelled();
    if (!r.target) continue;
    for (const name of new Set([r.target.name, ...verdictMapChains(model.dump, r)])) {
      const list = rulesTo.get(name);
      if (list) list.push(r);
      else rulesTo.set(name, [r]);
    }
  }
  const out: CallHierarchyOutgoingCall[] = [];
  for (const callee of model.callees(chain.table, chain.name)) {
    throwIfCancelled();
    const target = model.chain(callee.table, callee.name);
    if (!target) continue;
    const ranges = (rulesTo.get(callee.name) ?? []).map((r) => toRange(r.target!.span));
    out.push({ to: item(uri, target, lines), fromRanges: ranges });
  }
  return out;
}
