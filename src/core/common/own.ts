/**
 * A table entry for a name read from user text. `table[name]` would also find `constructor`, `toString`,
 * `__proto__`, ... on Object.prototype, and a pasted dump may contain any word.
 */
export function ownEntry<V>(table: Readonly<Record<string, V>>, name: string): V | undefined {
  return Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
}
