/**
 * A big answer written as JSON text in the worker that makes it, item by item. The outline of a 10k-Service dump is
 * 82,000 symbols (20 MB of JSON): built whole it was 54 MB of objects, copied as much again to the server's thread
 * and serialised there, and the server grew from 179 to 393 MB. A list whose items are made as they are written
 * (`OpenList`) holds one item at a time; the text goes to the server's thread as bytes, which it writes to the
 * editor unparsed (rawResult.ts).
 */
import { throwIfCancelled } from './cancellation';

/**
 * An object whose last property, `key`, is a list made item by item when the answer is written (or listed). Items
 * may be OpenLists again; an OpenList sits in a list, not in a plain object's property.
 */
export class OpenList {
  constructor(
    /** The object's other properties, in their order. */
    readonly head: Record<string, unknown>,
    readonly key: string,
    /** Iterated once. */
    readonly items: Iterable<unknown>,
  ) {}
}

/** `x` as a plain value, every OpenList in it made whole. */
export function listed(x: unknown): unknown {
  if (x instanceof OpenList) return { ...x.head, [x.key]: Array.from(x.items, listed) };
  if (Array.isArray(x)) return x.map(listed);
  return x;
}

/** UTF-8 text in blocks whose buffers can be transferred to another thread (never one string, never copied). */
export interface JsonText {
  blocks: Uint8Array[];
  /** Bytes in all blocks. */
  length: number;
}

const BLOCK_BYTES = 1 << 20;
const encoder = new TextEncoder();

class Utf8Blocks implements JsonText {
  readonly blocks: Uint8Array[] = [];
  length = 0;
  private block = new Uint8Array(BLOCK_BYTES);
  private used = 0;

  write(text: string): void {
    let rest = text;
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, this.block.subarray(this.used));
      this.used += written;
      this.length += written;
      if (read === rest.length) return;
      rest = rest.slice(read);
      this.blocks.push(this.block.subarray(0, this.used));
      this.block = new Uint8Array(BLOCK_BYTES);
      this.used = 0;
    }
  }

  done(): JsonText {
    if (this.used > 0) this.blocks.push(this.block.subarray(0, this.used));
    return { blocks: this.blocks, length: this.length };
  }
}

/**
 * `value` as JSON text, the text `JSON.stringify(each(listed(value)))` would be when `each` works on a list's items
 * one by one (as mapping positions and fitting them do, see worker.ts): lists and OpenLists are written item by
 * item, every other value is `each`ed and stringified whole.
 */
export function writeJson(value: unknown, each: (item: unknown) => unknown): JsonText {
  const out = new Utf8Blocks();
  write(value, each, out);
  return out.done();
}

function write(value: unknown, each: (item: unknown) => unknown, out: Utf8Blocks): void {
  if (Array.isArray(value)) {
    out.write('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.write(',');
      write(value[i], each, out);
    }
    out.write(']');
  } else if (value instanceof OpenList) {
    const head = JSON.stringify(each({ ...value.head, [value.key]: [] }));
    // The list is the last property: written open (without its `]}`), then its items, then closed.
    if (!head.endsWith('[]}')) throw new Error(`an open list's property ${value.key} is not its object's last`);
    out.write(head.slice(0, -2));
    let first = true;
    for (const item of value.items) {
      throwIfCancelled();
      if (!first) out.write(',');
      first = false;
      write(item, each, out);
    }
    out.write(']}');
  } else out.write(JSON.stringify(each(value)) ?? 'null');
}
