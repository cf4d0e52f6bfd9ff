/**
 * The CLI's memory backstop. The 128 MB input limit (io.ts) cannot say when a text is too large: what a text costs
 * depends on its form (an `iptables -L` listing whose rows jump to chains it lacks ~20 times its size, once over 50).
 * So at the engine's checkpoints (core/common/memoryCheck.ts: every few thousand lines of a read, between its phases)
 * the live heap is compared with V8's limit, and past a share of it kpp stops with a message and exit code 2, as for
 * any input it cannot read, where V8 would have crashed minutes later with a native stack.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setMemoryCheck } from '../core/common/memoryCheck';
import { t, type Lang } from '../core/i18n/catalog';
import { UsageError } from './args';

/**
 * Share of V8's heap limit that, live after a full collection, stops the work: the phases after a parse (kube view,
 * lint, the answer) add about a third of what it kept, and V8 spends most of its time collecting near its limit.
 */
const STOP_SHARE = 0.7;

/** The heap as the backstop sees it; a test hands it a lower limit over the real heap. */
export interface HeapProbe {
  /** V8's heap limit in bytes. */
  readonly limit: number;
  /** Heap in use now, garbage not yet collected included. */
  used(): number;
  /** A full collection: `used()` then counts what is live. */
  collect(): void;
}

export class InputTooLarge extends UsageError {}

/** Watches the heap while `name`'s text is read and analysed; the engine's checkpoints throw `InputTooLarge`. */
export function watchMemory(name: string, lang: Lang, heap: HeapProbe = v8Heap()): void {
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
      throw new InputTooLarge(
        t(lang, 'parse.input-too-large', { file: name, used: megabytes(live), limit: megabytes(heap.limit) }),
      );
    }
    collectAt = stopAt + (stopAt - live);
  });
}

function megabytes(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}

/**
 * What V8's heap limit keeps for the young generation (three 16 MB semi-spaces on 64-bit): the rest is what the
 * old generation, where a parse's records live, may grow to (`--max-old-space-size`). A 128 MB old space reports a
 * 176 MB limit and crashed at 126 MB in use.
 */
const YOUNG_GENERATION = 48 * 1024 * 1024;

function v8Heap(): HeapProbe {
  let gc: (() => void) | undefined;
  const limit = getHeapStatistics().heap_size_limit;
  return {
    limit: limit > 2 * YOUNG_GENERATION ? limit - YOUNG_GENERATION : limit / 2,
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
