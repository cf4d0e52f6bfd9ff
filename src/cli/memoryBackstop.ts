/**
 * The CLI's memory backstop (core/common/memoryCheck.ts watches the heap at the engine's checkpoints): a text too
 * large for this Node's heap stops with a message and exit code 2, as any input kpp cannot read, where V8 would have
 * crashed minutes later with a native stack.
 */
import { megabytes, watchHeap, type HeapProbe } from '../core/common/memoryCheck';
import { t, type Lang } from '../core/i18n/catalog';
import { UsageError } from './args';

export type { HeapProbe };

export class InputTooLarge extends UsageError {}

/** Watches the heap while `name`'s text is read and analysed; the engine's checkpoints throw `InputTooLarge`. */
export function watchMemory(name: string, lang: Lang, heap?: HeapProbe): void {
  watchHeap(
    (used, limit) =>
      new InputTooLarge(
        t(lang, 'parse.input-too-large', { file: name, used: megabytes(used), limit: megabytes(limit) }),
      ),
    heap,
  );
}
