/**
 * A cancelled request stops in the worker running it. A worker runs a feature synchronously and reads no message
 * until it returns, so `$/cancelRequest` cannot reach it as a message: the server marks the request in memory it
 * shares with the worker (`CancelFlags`), and the features' long loops look at the mark (`throwIfCancelled`). Without
 * this, a cancelled call hierarchy of KUBE-MARK-MASQ on a 10k-Service dump ran 4 s to its end and the next hover
 * waited for it.
 */

/** LSP's RequestCancelled error code. */
export const REQUEST_CANCELLED = -32800;

/** Requests marked at once; a request's slot is its id modulo this, and a slot holds the id last cancelled in it. */
const SLOTS = 1024;

/** The server's side: one per worker, its buffer sent to the worker before any request. */
export class CancelFlags {
  readonly buffer = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
  private readonly flags = new Int32Array(this.buffer);

  /** Marks request `id` (a positive int32) cancelled. */
  cancel(id: number): void {
    Atomics.store(this.flags, id % SLOTS, id);
  }
}

/** Thrown where a feature stops for its request's cancellation; the worker answers RequestCancelled. */
export class RequestCancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

/** The worker's side: the marks, and the request it runs (0: none, e.g. on the server's own thread). */
let flags: Int32Array | undefined;
let running = 0;

export function useCancelFlags(buffer: SharedArrayBuffer): void {
  flags = new Int32Array(buffer);
}

export function isCancelled(id: number): boolean {
  return flags !== undefined && Atomics.load(flags, id % SLOTS) === id;
}

/** Runs request `id`'s work; `throwIfCancelled` inside it looks at that request's mark. */
export function runningRequest<T>(id: number, work: () => T): T {
  running = id;
  try {
    return work();
  } finally {
    running = 0;
  }
}

/** Called in the loops that can run long on a big dump (one shared load: cheap enough for every iteration). */
export function throwIfCancelled(): void {
  if (running === 0) return;
  lookObserver?.();
  if (isCancelled(running)) throw new RequestCancelledError();
}

let lookObserver: (() => void) | undefined;

/**
 * `observer` is called at every look at the mark (before it is read) while a request runs; undefined: none. How
 * cancellation.test.ts counts a feature's looks and marks its request in the middle of its work.
 */
export function observeLooks(observer: (() => void) | undefined): void {
  lookObserver = observer;
}
