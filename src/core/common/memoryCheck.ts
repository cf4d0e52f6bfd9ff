/**
 * Checkpoints of the engine's long work (every so many lines of a read, between its phases), where a face that
 * watches its memory may stop it: the CLI stops with a message before V8 runs out of heap and ends the process with a
 * crash. The engine only calls; what is measured, and what is thrown, is the face's (core measures nothing itself).
 */
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
