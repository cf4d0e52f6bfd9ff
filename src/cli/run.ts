/** Runs one command as `kpp` does: its exit code, and any failure as one line on stderr (never a stack trace). */
import { UsageError } from './args';

export type Command = (argv: string[]) => number | Promise<number>;

export function runCommand(name: string, run: Command, argv: string[]): number | Promise<number> {
  const fail = (e: unknown): number => {
    if (e instanceof UsageError) {
      process.stderr.write(`kpp ${name}: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`kpp ${name}: internal error: ${(e as Error).message ?? String(e)}\n`);
    return 2;
  };
  try {
    const result = run(argv);
    return typeof result === 'number' ? result : result.catch(fail);
  } catch (e) {
    return fail(e);
  }
}
