/**
 * glibc's allocator for the language server's process (launched by the extension; its analysis workers are its
 * threads): one arena for all threads (an ended worker's blocks are not kept in an arena of its own), and blocks
 * from 128 KB each a mapping of its own (given back whole when freed) instead of a threshold that grows with the
 * largest block freed. A big text's parts, the serialised messages and the rule
 * store's columns come and go in blocks of a few hundred KB to a few MB; with the growing threshold they were
 * carved from arenas that kept the holes they left (and columns allocated there were zeroed page by page, where a
 * fresh mapping is zero without being touched): a worker's peak on a 23 MB dump was 9 MB higher, the server's 2 MB.
 * The user's own tunables come after these and win. Other C libraries ignore the variable.
 */
export function allocatorEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const ours = 'glibc.malloc.mmap_threshold=131072:glibc.malloc.arena_max=1';
  const theirs = env.GLIBC_TUNABLES;
  if (theirs?.startsWith(ours)) return env;
  return { ...env, GLIBC_TUNABLES: theirs ? `${ours}:${theirs}` : ours };
}
