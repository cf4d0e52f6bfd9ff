// Output from the extension host reaches the harness as browser console messages, mixed with the
// workbench's own logging; the marker lets scripts/e2e/run.mjs pick out and print the tests' lines.
import { format } from 'node:util';

export const HOST_LOG_MARKER = '[kpp-e2e]';

/** console.log for extension-host tests: formatted here, marked so it shows in the run's output. */
export function log(...args: unknown[]): void {
  console.log(`${HOST_LOG_MARKER} ${format(...args)}`);
}
