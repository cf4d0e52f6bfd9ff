/**
 * How the tracer files a long chain's rules by destination host (`candidateLookup` in compile.ts), shared with the
 * reader that leaves out the rules a trace never looks at (traceSlice.ts): both must read a host alike.
 */

/** Chains shorter than this are scanned; the index pays off only for long ones. */
export const INDEX_MIN_RULES = 32;

/**
 * `a.b.c.d` or `a.b.c.d/32` at text[at, end) as parseIPv4 reads it (no leading zeros), as a number; -1 for
 * anything else.
 */
export function plainIPv4HostAt(text: string, at: number, end: number): number {
  const last = end - at > 3 && text.startsWith('/32', end - 3) ? end - 3 : end;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let k = at; k < last; k++) {
    const c = text.charCodeAt(k);
    if (c >= 48 && c <= 57) {
      if (digits === 1 && part === 0) return -1;
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return -1;
    } else if (c === 46 && digits > 0 && dots < 3) {
      value = value * 256 + part;
      part = 0;
      digits = 0;
      dots++;
    } else return -1;
  }
  return dots === 3 && digits > 0 ? value * 256 + part : -1;
}
