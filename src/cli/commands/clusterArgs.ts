/**
 * What the cluster commands share: kubectl's short options (`-n NS`, `-A`), `--context`, `--kubeconfig`, the
 * session, confirmation (`--yes`, or a y/N question on a terminal), and errors as one line (exit 2).
 */
import * as readline from 'node:readline';
import {
  ClusterSession,
  describeCreation,
  isClusterError,
  type ClusterError,
  type ConfirmCreation,
} from '../../cluster';
import type { Lang } from '../../core/i18n/catalog';
import { UsageError } from '../args';

/** `-n NS`, `-nNS`, `-n=NS` -> `--namespace NS`; `-A` -> `--all-namespaces`; anything else untouched. */
export function expandShortOptions(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-n') {
      const v = argv[++i];
      if (v === undefined) throw new UsageError('-n needs a namespace');
      out.push('--namespace', v);
    } else if (a.startsWith('-n=')) out.push('--namespace', a.slice(3));
    else if (/^-n[a-z0-9]/.test(a)) out.push('--namespace', a.slice(2));
    else if (a === '-A') out.push('--all-namespaces');
    else if (/^-[a-zA-Z]/.test(a)) throw new UsageError(`unknown option ${a}`);
    else out.push(a);
  }
  return out;
}

/** `svc/NAME`, `service/NAME`, `services/NAME` (kind given), or NAME alone when `bare` is allowed. */
export function resourceName(arg: string | undefined, kinds: readonly string[], what: string, bare = false): string {
  if (!arg) throw new UsageError(`missing ${what} (${kinds[0]}/NAME)`);
  const slash = arg.indexOf('/');
  if (slash < 0) {
    if (bare) return arg;
    throw new UsageError(`expected ${kinds[0]}/NAME, got "${arg}"`);
  }
  const kind = arg.slice(0, slash);
  if (!kinds.includes(kind)) throw new UsageError(`expected ${kinds[0]}/NAME, got "${arg}"`);
  const name = arg.slice(slash + 1);
  if (!name) throw new UsageError(`missing name in "${arg}"`);
  return name;
}

export function secondsOption(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0 || Number(v) > 3600) {
    throw new UsageError(`--${name} must be a number of seconds (0-3600)`);
  }
  return Number(v) * 1000;
}

export async function openSession(opts: {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  timeoutMs?: number;
}): Promise<ClusterSession> {
  return ClusterSession.open({
    ...(opts.kubeconfig !== undefined ? { kubeconfig: opts.kubeconfig } : {}),
    ...(opts.context !== undefined ? { context: opts.context } : {}),
    ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
}

/** `--yes`: always; else a y/N question when both stdin and stderr are terminals; else no. */
export function confirmer(yes: boolean, lang: Lang = 'en'): ConfirmCreation {
  return async (creation) => {
    const what = describeCreation(lang, creation);
    if (yes) return true;
    if (!process.stdin.isTTY || !process.stderr.isTTY) return false;
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await new Promise<string>((resolve) => rl.question(`kpp: ${what}. Go ahead? [y/N] `, resolve));
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      rl.close();
    }
  };
}

/** A ClusterError as the one stderr line of exit code 2, in the command's language. */
export function clusterFailure(command: string, e: ClusterError, lang: Lang = 'en'): number {
  process.stderr.write(`kpp ${command}: ${e.oneLine(lang)}\n`);
  return 2;
}

/** Runs a cluster command body; ClusterError -> one line in `lang`, exit 2 (UsageError is left to main). */
export async function guarded(command: string, lang: Lang, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (isClusterError(e)) return clusterFailure(command, e, lang);
    throw e;
  }
}

/** Progress on stderr only when asked (`--verbose`) or when stderr is a terminal. */
export function progressWriter(verbose: boolean): ((m: string) => void) | undefined {
  if (!verbose && !process.stderr.isTTY) return undefined;
  return (m: string) => process.stderr.write(`kpp: ${m}\n`);
}
