/**
 * JSON written straight into UTF-8 bytes, for answers too large to build as objects first (`kpp parse --json` of a
 * 10,000-Service dump is 10 MB): the same bytes `JSON.stringify` would give, without the objects, the string and
 * its copy as bytes. Plain ASCII, the usual case, is copied character by character; anything JSON escapes or UTF-8
 * spreads over several bytes goes through `JSON.stringify` and `Buffer.write`.
 */
export class JsonBytes {
  private bytes: Buffer;
  private at = 0;

  constructor(sizeHint: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(1024, sizeHint));
  }

  /** Text that needs no escaping and is ASCII (punctuation, keys, indentation, numbers). */
  ascii(text: string): void {
    const n = text.length;
    if (this.at + n > this.bytes.length) this.grow(n);
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < n; i++) bytes[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /** A string as a JSON literal. */
  string(value: string): void {
    const n = value.length;
    if (this.at + n + 2 > this.bytes.length) this.grow(n + 2);
    const bytes = this.bytes;
    let at = this.at;
    bytes[at++] = 34;
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      // Control characters, `"` and `\` are escaped; above ASCII, UTF-8 takes more than a byte.
      if (c < 32 || c === 34 || c === 92 || c > 126) {
        this.text(JSON.stringify(value));
        return;
      }
      bytes[at++] = c;
    }
    bytes[at++] = 34;
    this.at = at;
  }

  /** A string literal, or `null` for none. */
  stringOrNull(value: string | null | undefined): void {
    if (value == null) this.ascii('null');
    else this.string(value);
  }

  /** A number as JSON prints it: `null` when absent, NaN or infinite. */
  number(value: number | null | undefined): void {
    this.ascii(value != null && Number.isFinite(value) ? String(value) : 'null');
  }

  /** Any text (JSON already), encoded as UTF-8. */
  text(text: string): void {
    if (this.at + text.length * 3 > this.bytes.length) this.grow(text.length * 3);
    this.at += this.bytes.write(text, this.at, 'utf8');
  }

  /** The bytes written so far. */
  result(): Buffer {
    return this.bytes.subarray(0, this.at);
  }

  private grow(extra: number): void {
    const next = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + extra));
    this.bytes.copy(next, 0, 0, this.at);
    this.bytes = next;
  }
}
