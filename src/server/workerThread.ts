/**
 * How an analysis worker thread starts (analysisCache.ts holds them), and the first one started before the server's
 * own modules load (main.ts): a worker boots a Node environment and compiles its own copy of the bundle (0.1-0.3 s,
 * more on a busy machine), which the first analysis waited for when the worker started only once the editor had
 * initialized, and didOpen comes right after that.
 */
import { Worker } from 'node:worker_threads';
import { WORKER_ARG } from './workerArg';

/**
 * A young generation of 6 MB (2 MB semi-spaces) instead of V8's 48 (16 MB semi-spaces): a parse allocates many
 * short-lived objects, and the larger nursery only added its size to the worker's peak (about 20 MB on a 23 MB dump
 * at 16, 3-4 MB at 4) without making it faster (the worker's CPU time on that dump is the same at 2 and 4; at 1 it
 * was higher).
 */
export const WORKER_YOUNG_GENERATION_MB = 6;

/** A worker thread running the bundle `file` as an analysis worker (its stdout is not the server's). */
export function startWorkerThread(file: string): Worker {
  return new Worker(file, {
    argv: [WORKER_ARG],
    stdout: true,
    stderr: true,
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
}

let first: Worker | undefined;

/** Starts the first worker now, to be taken by the analysis cache when it wants one. */
export function startFirstWorker(file: string): void {
  const worker = startWorkerThread(file);
  // Until it is taken, a worker that fails is dropped: nobody waits for it, and its error does not end the server.
  const drop = () => {
    if (first === worker) first = undefined;
  };
  worker.on('error', drop);
  worker.once('exit', drop);
  first = worker;
}

/** The first worker, if it was started and is still there; taken once. */
export function takeFirstWorker(): Worker | undefined {
  const worker = first;
  first = undefined;
  return worker;
}
