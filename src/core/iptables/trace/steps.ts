/** Reading the steps of a trace without walking every path from its start (which costs the sum of their lengths). */
import type { TraceResult, TraceStep } from './types';

/** Every step of the trace once: the shared ones, then each path's own. */
export function distinctSteps(result: TraceResult): TraceStep[] {
  const out = result.sharedSteps.map((s) => s.step);
  for (const p of result.paths) for (const s of p.ownSteps) out.push(s);
  return out;
}
