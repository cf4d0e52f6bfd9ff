import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: ((options?: { type: 'minor' | 'major' }) => void) | undefined;

/**
 * A full collection of this process's heap, where a big text just became garbage: V8 lets old-generation garbage
 * (and the buffers it holds) grow to hundreds of MB before it collects on its own, and a copy of a 23 MB text
 * left for later is 23 MB more at the process's peak. `young`: the young generation only (a millisecond), where
 * buffers just used are garbage (their memory is outside V8's heap, and does not make V8 collect).
 */
export function collectGarbage(young = false): void {
  try {
    if (!gc) {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as typeof gc;
    }
    gc!(young ? { type: 'minor' } : undefined);
  } catch {
    // Not available: V8 collects when it decides to.
  }
}
