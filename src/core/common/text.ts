/** The first `count` lines of a text: a paste's wrapping is decided by its head, however big the rest. */
export function headLines(text: string, count: number): string[] {
  const lines: string[] = [];
  for (let at = 0; lines.length < count && at <= text.length;) {
    const nl = text.indexOf('\n', at);
    lines.push(text.slice(at, nl < 0 ? text.length : nl));
    at = nl < 0 ? text.length + 1 : nl + 1;
  }
  return lines;
}

/** A text cut to `n` characters, ending in an ellipsis when cut (messages quote lines people pasted). */
export function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
