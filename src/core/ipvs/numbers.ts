/**
 * ipvsadm counters. Without `--exact`, values of 100 million and more are printed divided by 1000, 10^6, 10^9
 * or 10^12 with a K, M, G or T suffix (ipvsadm's print_largenum), so `12K` means 12,000 and is rounded down.
 */
const SUFFIX: Record<string, number> = { K: 1e3, M: 1e6, G: 1e9, T: 1e12 };

export interface Counter {
  value: number;
  approximate: boolean;
}

export function parseCounter(text: string): Counter | undefined {
  const m = /^(\d+)([KMGT])?$/.exec(text);
  if (!m) return undefined;
  const base = Number(m[1]);
  if (!Number.isSafeInteger(base)) return undefined;
  return m[2] ? { value: base * SUFFIX[m[2]], approximate: true } : { value: base, approximate: false };
}

/** A plain non-negative integer (weights, thresholds, timeouts, fwmarks). */
export function parseUint(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}
