/** A small argv reader: positionals, `--name value`, `--name=value` and boolean flags. */
export class UsageError extends Error {}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string>;
  flags: Set<string>;
}

export function parseArgs(argv: string[], valueOptions: readonly string[], flagOptions: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { positionals: [], options: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--') || a === '--') {
      out.positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (flagOptions.includes(name)) {
      if (eq > 0) throw new UsageError(`--${name} takes no value`);
      out.flags.add(name);
    } else if (valueOptions.includes(name)) {
      const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
      out.options.set(name, value);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return out;
}
