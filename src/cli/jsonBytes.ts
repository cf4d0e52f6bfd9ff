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

  /** Bytes made once (`JsonBytes.piece`): the keys and indentation an answer repeats 100,000 times. */
  piece(piece: Uint8Array): void {
    if (this.at + piece.length > this.bytes.length) this.grow(piece.length);
    this.bytes.set(piece, this.at);
    this.at += piece.length;
  }

  /** ASCII text as bytes, for `piece`. */
  static piece(text: string): Uint8Array {
    return Buffer.from(text, 'latin1');
  }

  /** A string literal. */
  string(value: string): void {
    this.ascii('"');
    this.stringContent(value);
    this.ascii('"');
  }

  /** A string literal without its quotes (between pieces that hold them). */
  stringContent(value: string): void {
    const n = value.length;
    if (this.at + n > this.bytes.length) this.grow(n);
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      // Control characters, `"` and `\` are escaped; above ASCII, UTF-8 takes more than a byte.
      if (c < 32 || c === 34 || c === 92 || c > 126) {
        const literal = JSON.stringify(value);
        this.text(literal.slice(1, literal.length - 1));
        return;
      }
      bytes[at++] = c;
    }
    this.at = at;
  }

  /** A string literal, or `null` for none. */
  stringOrNull(value: string | null | undefined): void {
    if (value == null) this.ascii('null');
    else this.string(value);
  }

  /** A number as JSON prints it: `null` when absent, NaN or infinite. */
  number(value: number | null | undefined): void {
    if (value == null || !Number.isFinite(value)) return this.ascii('null');
    // Ports and counts, digit by digit: String() would make a string of each.
    if (value >= 0 && value < 2147483648 && value === Math.floor(value)) {
      let digits = 1;
      for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
      if (this.at + digits > this.bytes.length) this.grow(digits);
      let rest = value;
      for (let i = this.at + digits - 1; i >= this.at; i--) {
        this.bytes[i] = 48 + (rest % 10);
        rest = Math.floor(rest / 10);
      }
      this.at += digits;
      return;
    }
    this.ascii(String(value));
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
