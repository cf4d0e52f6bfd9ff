/**
 * How a share (a probability, 0..1) is printed: one function per form, so that every face prints a given share
 * the same way. A percentage for people (`33.3%`), a precise one for a tooltip (`33.3333%`), a probability as the
 * trace tree writes it (`0.333333`), and a number for JSON without floating-point noise.
 */

/**
 * `33.3%`, `100%`, `0.25%`: one decimal, two below 1% (a Service with thousands of endpoints gives each a share
 * that one decimal would print as 0%); `?` when the paste cannot tell the share (see KubeEndpoint.share).
 */
export function formatShare(share: number | undefined): string {
  if (share === undefined) return '?';
  const pct = share * 100;
  return `${Number(pct.toFixed(pct < 1 ? 2 : 1))}%`;
}

/** `33.3333%`: four decimals, for where there is room to tell near shares apart (a tooltip). */
export function formatPreciseShare(share: number): string {
  return `${Number((share * 100).toFixed(4))}%`;
}

/** Probabilities as people read them: at most 6 significant decimals, no trailing zeros. */
export function formatProbability(p: number): string {
  if (p === 0 || p === 1) return String(p);
  return String(Number(p.toPrecision(6)));
}

/**
 * A probability for JSON: rounded to 12 decimals, so that a ladder of `0.3333333333` rules gives 0.33333333335
 * and not 0.33333333335000004, while every digit a dump can state survives.
 */
export function roundProbability(p: number): number {
  return Math.round(p * 1e12) / 1e12;
}
