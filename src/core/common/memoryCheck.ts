/**
 * Checkpoints of the engine's long work (every so many lines of a read, between its phases), where a face that
 * watches its memory may stop it: the CLI stops with a message before V8 runs out of heap and ends the process with a
 * crash, the language server's worker says so on the document. The engine only calls; a face turns the watch on
 * (`watchHeap`) and says what is thrown. The input limit cannot say when a text is too large: what a text costs
 * depends on its form (an `iptables -L` listing whose rows jump to chains it lacks ~20 times its size).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let check: (() => void) | undefined;

/** The face's check (it throws to stop the work), or undefined for none. */
export function setMemoryCheck(watch: (() => void) | undefined): void {
  check = watch;
}

/** Called by readers every `MEMORY_CHECK_LINES` lines and between phases; nothing when no face asked. */
export function memoryCheckpoint(): void {
  if (check) check();
}

/** How often a reader calls `memoryCheckpoint` (a power of two: `(line & MEMORY_CHECK_MASK) === 0`). */
export const MEMORY_CHECK_MASK = 0xfff;

/**
 * Share of V8's heap limit that, live after a full collection, stops the work: the phases after a parse (kube view,
 * lint, the answer) add about a third of what it kept, and V8 spends most of its time collecting near its limit.
 */
const STOP_SHARE = 0.7;

/** The heap as the watch sees it; a test hands it a lower limit over the real heap. */
export interface HeapProbe {
  /** V8's heap limit in bytes. */
  readonly limit: number;
  /** Heap in use now, garbage not yet collected included. */
  used(): number;
  /** A full collection: `used()` then counts what is live. */
  collect(): void;
}

/**
 * Watches this thread's heap at the checkpoints: past the stopping share of its limit, live after a collection, the
 * checkpoint throws what `tooLarge` makes of the bytes in use and the limit (and the watch ends).
 */
export function watchHeap(tooLarge: (usedBytes: number, limitBytes: number) => Error, heap = v8Heap()): void {
  const stopAt = heap.limit * STOP_SHARE;
  // Heap in use counts garbage too: past the line, a full collection says what is live. Another collection only
  // once as much garbage again could have come, so a big read near the line is not collected at every checkpoint.
  let collectAt = stopAt;
  setMemoryCheck(() => {
    if (heap.used() < collectAt) return;
    heap.collect();
    const live = heap.used();
    if (live >= stopAt) {
      setMemoryCheck(undefined);
      throw tooLarge(live, heap.limit);
    }
    collectAt = stopAt + (stopAt - live);
  });
}

/** Bytes as whole megabytes, as the messages say them. */
export function megabytes(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}

/**
 * V8's heap as the watch sees it. Its limit counts the young generation too (`youngGenerationBytes`: three 16 MB
 * semi-spaces on 64-bit unless the thread was given another size): the rest is what the old generation, where a
 * parse's records live, may grow to (`--max-old-space-size`). A 128 MB old space reports a 176 MB limit and crashed
 * at 126 MB in use.
 */
export function v8Heap(youngGenerationBytes = 48 * 1024 * 1024): HeapProbe {
  let gc: (() => void) | undefined;
  const limit = getHeapStatistics().heap_size_limit;
  return {
    limit: limit > 2 * youngGenerationBytes ? limit - youngGenerationBytes : limit / 2,
    used: () => getHeapStatistics().used_heap_size,
    collect: () => {
      // V8's collector, asked for only when needed (the flag `--expose-gc` gives it to a new context).
      if (!gc) {
        setFlagsFromString('--expose-gc');
        gc = runInNewContext('gc') as () => void;
      }
      gc();
    },
  };
}
