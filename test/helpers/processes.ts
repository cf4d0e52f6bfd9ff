/** The processes and threads of a process, read from Linux's /proc (tests and benchmarks of the server's workers). */
import { readdirSync, readFileSync } from 'node:fs';

/** The children `pid` started that are still running; empty where /proc does not tell. */
export function childProcesses(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** How many threads `pid` runs (a language server's analysis workers are threads); NaN where /proc does not tell. */
export function threadCount(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/task`).length;
  } catch {
    return NaN;
  }
}
