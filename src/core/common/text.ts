/** A text cut to `n` characters, ending in an ellipsis when cut (messages quote lines people pasted). */
export function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
