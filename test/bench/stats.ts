/** Small statistics and formatting helpers for the benchmark's figures. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of the values; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export const MB = 1024 * 1024;

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  const size = Math.abs(ms);
  if (size >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (size >= 100) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(2)} ms`;
}

export function formatMb(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / MB).toFixed(0)} MB` : '-';
}

/** CPU time (user + system) of this process in milliseconds since `since`. */
export function cpuMsSince(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

/**
 * Runs `fn` once to warm up, then again until `maxRuns` runs are measured or `budgetMs` of wall time is spent
 * (at least `minRuns`). A slow engine still gets measured, just with fewer repetitions.
 */
export function timeRuns(
  fn: () => void,
  opts: { maxRuns: number; minRuns: number; budgetMs: number; warmup?: boolean },
): { wallMs: number[]; cpuMs: number[]; warmupWallMs?: number } {
  const wallMs: number[] = [];
  const cpuMs: number[] = [];
  let warmupWallMs: number | undefined;
  const started = performance.now();
  if (opts.warmup !== false) {
    const t = performance.now();
    fn();
    warmupWallMs = performance.now() - t;
  }
  while (
    wallMs.length < opts.maxRuns &&
    (wallMs.length < opts.minRuns || performance.now() - started < opts.budgetMs)
  ) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    wallMs.push(performance.now() - t);
    cpuMs.push(cpuMsSince(c));
  }
  return { wallMs, cpuMs, warmupWallMs };
}
