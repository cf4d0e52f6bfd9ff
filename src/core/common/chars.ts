/** Character-code tests for the scanners that read pasted text without slicing it. */

export function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isAlnumCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** A space or a tab: what separates words on a dump line. */
export function isBlankCode(c: number): boolean {
  return c === 32 || c === 9;
}

/** White space as `\s` reads it (the patterns pasted prefixes were once matched with). */
export function isWhiteCode(c: number): boolean {
  return c === 32 || c === 9 || ((c > 127 || (c >= 10 && c <= 13)) && /\s/.test(String.fromCharCode(c)));
}
