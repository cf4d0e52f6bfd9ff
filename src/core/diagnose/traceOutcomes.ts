/**
 * Where a trace of the pod's packet ends, read from its paths: the endpoints it is DNATed to with their shares, the
 * verdicts of the paths without a DNAT, and the rules that dropped or rejected it.
 *
 * A fork on a fact the dump cannot decide ("if 10.96.0.10 is an address of this node", "if the packet came in on an
 * interface matching cali+") is no second way the packet goes: each such alternative's path probabilities sum to 1
 * on their own (`TracePath.given`). Adding the shares up across alternatives gave "100%, 100%" for two endpoints of
 * 50% each, so the paths are read per alternative; alternatives that end alike are one outcome.
 */
import { joinHostPort } from '../common/ip';
import type { TracePath, TraceStep } from '../iptables/trace';
import { canonicalIp } from './podnet';

/** A rule that ended the pod's traced packet with DROP or REJECT, and whose rule it is. */
export interface TraceStop {
  /** kube-proxy's rule for a Service port without endpoints, for one without a local endpoint, or another rule. */
  kind: 'no-endpoints' | 'no-local-endpoints' | 'filter';
  verdict: 'DROP' | 'REJECT';
  table: string;
  chain: string;
  /** 1-based line in the dump. */
  line: number;
  rule: string;
  /** The endpoint the packet was DNATed to before the rule stopped it. */
  dnat?: string;
  share: number;
}

export interface TraceOutcome {
  /** Each endpoint the packet is DNATed to (`ip:port`), with its share of the paths. */
  dnat: { target: string; share: number }[];
  /** Verdicts of the paths that were not DNATed, each once. */
  verdicts: string[];
  stops: TraceStop[];
}

/** The outcome under one side of the undecided facts; `given` says which (rendered "if" clauses). */
export interface TraceAlternative extends TraceOutcome {
  given: string[];
}

/** `ip:port` with the address canonical, as the verdict compares endpoints. */
export function endpointKey(ip: string, port: number | undefined): string {
  return joinHostPort(canonicalIp(ip) ?? ip, port);
}

/**
 * The trace's outcome. When its alternatives end alike (the usual case: a fork on an interface that only marks the
 * packet), that one outcome and no `alternatives`. When they differ, `alternatives` holds each one, and the
 * outcome lists every target and stop of any of them with its mean share over the alternatives (each taken as
 * likely as another): an endpoint every path of every alternative is blocked to keeps a blocked share equal to
 * its DNAT share, which is what the verdict tests.
 */
export function traceOutcome(
  paths: readonly TracePath[],
  servicePort: number,
): TraceOutcome & { alternatives?: TraceAlternative[] } {
  const groups = new Map<string, TracePath[]>();
  for (const p of paths) {
    const key = JSON.stringify(p.givenMessages);
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
  const alternatives = [...groups.values()].map((group): TraceAlternative => ({
    given: group[0].given,
    ...outcomeOf(group, servicePort),
  }));
  if (alternatives.length <= 1 || alternatives.every((a) => sameOutcome(a, alternatives[0]))) {
    const first = alternatives[0] ?? { dnat: [], verdicts: [], stops: [] };
    return { dnat: first.dnat, verdicts: first.verdicts, stops: first.stops };
  }
  const n = alternatives.length;
  const dnat = new Map<string, number>();
  const verdicts: string[] = [];
  const stops: TraceStop[] = [];
  for (const a of alternatives) {
    for (const d of a.dnat) dnat.set(d.target, (dnat.get(d.target) ?? 0) + d.share / n);
    for (const v of a.verdicts) if (!verdicts.includes(v)) verdicts.push(v);
    for (const s of a.stops) {
      const same = stops.find((o) => o.line === s.line && o.dnat === s.dnat);
      if (same) same.share += s.share / n;
      else stops.push({ ...s, share: s.share / n });
    }
  }
  return { dnat: [...dnat].map(([target, share]) => ({ target, share })), verdicts, stops, alternatives };
}

function outcomeOf(paths: readonly TracePath[], servicePort: number): TraceOutcome {
  const byTarget = new Map<string, number>();
  const verdicts: string[] = [];
  const stops: TraceStop[] = [];
  for (const p of paths) {
    const k = p.dnat ? endpointKey(p.dnat.ip, p.dnat.port ?? servicePort) : undefined;
    if (k) byTarget.set(k, (byTarget.get(k) ?? 0) + p.probability);
    else if (!verdicts.includes(p.verdict)) verdicts.push(p.verdict);
    if (p.verdict === 'DROP' || p.verdict === 'REJECT') addStop(stops, p.verdict, p.steps, k, p.probability);
  }
  return { dnat: [...byTarget].map(([target, share]) => ({ target, share })), verdicts, stops };
}

/** Shares equal to a part in a million: a ladder's probabilities are printed rounded. */
function near(a: number, b: number): boolean {
  return Math.abs(a - b) < 1e-6;
}

function sameOutcome(a: TraceOutcome, b: TraceOutcome): boolean {
  const shares = new Map(b.dnat.map((d) => [d.target, d.share]));
  return (
    a.dnat.length === b.dnat.length &&
    a.dnat.every((d) => shares.has(d.target) && near(d.share, shares.get(d.target)!)) &&
    a.verdicts.length === b.verdicts.length &&
    a.verdicts.every((v) => b.verdicts.includes(v)) &&
    a.stops.length === b.stops.length &&
    a.stops.every((s) => b.stops.some((o) => o.line === s.line && o.dnat === s.dnat && near(o.share, s.share)))
  );
}

/** The rule that ended a DROP/REJECT path (its last step), merged with the same rule of other paths. */
function addStop(
  stops: TraceStop[],
  verdict: 'DROP' | 'REJECT',
  steps: readonly TraceStep[],
  dnat: string | undefined,
  share: number,
): void {
  const last = steps[steps.length - 1];
  if (!last || last.line < 0) return;
  const same = stops.find((s) => s.line === last.line + 1 && s.dnat === dnat);
  if (same) {
    same.share += share;
    return;
  }
  // kube-proxy's own comments say which of its rules this is (iptables and its nft translation alike).
  const kind = / has no local endpoints\b/.test(last.rule)
    ? 'no-local-endpoints'
    : / has no endpoints\b/.test(last.rule)
      ? 'no-endpoints'
      : 'filter';
  stops.push({
    kind,
    verdict,
    table: last.table,
    chain: last.chain,
    line: last.line + 1,
    rule: last.rule,
    ...(dnat ? { dnat } : {}),
    share,
  });
}
