/**
 * Steps that decide nothing, folded: a jump into a chain that ends without a matching rule and returns
 * (`filter/FORWARD -> KUBE-FORWARD`, back) changes nothing for the packet. Faces show such runs as one line so a
 * path reads as the rules that acted on it. Works on any step shape with an action and a rule text.
 */
export interface FoldableStep {
  action: string;
  /** Empty for a chain's end (no rule matched: back to the caller). */
  rule: string;
  table: string;
  chain: string;
}

export type FoldedStep<S extends FoldableStep = FoldableStep> =
  { kind: 'step'; step: S } | { kind: 'nothing'; steps: S[] };

/** A chain ran out of rules and returned to its caller. */
function isChainEnd(s: FoldableStep): boolean {
  return s.action === 'return' && !s.rule;
}

/**
 * Folds every jump whose chain returned at its end with nothing but such folds in between, and merges adjacent
 * folds. Linear: each step is pushed and merged a bounded number of times.
 */
export function foldSteps<S extends FoldableStep>(steps: readonly S[]): FoldedStep<S>[] {
  const out: FoldedStep<S>[] = [];
  for (const s of steps) {
    if (isChainEnd(s)) {
      const top = out[out.length - 1];
      const below = out[out.length - 2];
      // jump, (nothing...), end of the chain jumped to: the whole visit decided nothing.
      if (top?.kind === 'step' && top.step.action === 'jump') {
        out.pop();
        push(out, { kind: 'nothing', steps: [top.step, s] });
        continue;
      }
      if (
        top?.kind === 'nothing' &&
        below?.kind === 'step' &&
        below.step.action === 'jump' &&
        top.steps[0].table === s.table
      ) {
        out.splice(out.length - 2, 2);
        push(out, { kind: 'nothing', steps: [below.step, ...top.steps, s] });
        continue;
      }
    }
    out.push({ kind: 'step', step: s });
  }
  return out;
}

function push<S extends FoldableStep>(out: FoldedStep<S>[], f: Extract<FoldedStep<S>, { kind: 'nothing' }>): void {
  const top = out[out.length - 1];
  // A loop, not push(...): a chain of 100k+ rules that match nothing is more steps than a call has arguments for.
  if (top?.kind === 'nothing') for (const step of f.steps) top.steps.push(step);
  else out.push(f);
}
