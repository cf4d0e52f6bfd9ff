/** Typed columns the engines keep their rows in (numbers per row, no object per row), grown as rows come. */

/** A copy of `column` with room for `size` values (at least its own length); the new slots are zero. */
export function grownColumn(column: Int32Array, size: number): Int32Array<ArrayBuffer>;
export function grownColumn(column: Float64Array, size: number): Float64Array<ArrayBuffer>;
export function grownColumn(
  column: Int32Array | Float64Array,
  size: number,
): Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer> {
  const out =
    column instanceof Int32Array
      ? new Int32Array(Math.max(size, column.length))
      : new Float64Array(Math.max(size, column.length));
  out.set(column);
  return out;
}
