/** The argument that makes the server's bundle run as an analysis worker (main.ts reads it). */
export const WORKER_ARG = '--kpp-analysis-worker';
