/**
 * Reads the `ipvsadm ...` command a person ran (after a shell prompt or on its own line) to know which output
 * follows: `-Ln` lists, `--stats`/`--rate`/`--thresholds`/`--persistent-conn` change the columns, `-c` lists
 * connections, `-S` saves rules, `--timeout` and `--daemon` print one line each.
 */
import type { IpvsLayout } from './types';
import type { Word } from './words';

export interface IpvsadmCommand {
  /** Index of the word after `ipvsadm` (its first option). */
  argsStart: number;
  /** Output layout the command prints, undefined when it prints nothing we list (e.g. `-C`). */
  layout?: IpvsLayout;
  exact: boolean;
  /** `ipvsadm -A ...` / `-a ...` in a script: the rest of the line is a rule in save syntax. */
  isRule: boolean;
}

const RULE_OPTIONS = new Set([
  '-A',
  '-a',
  '-E',
  '-e',
  '-D',
  '-d',
  '--add-service',
  '--add-server',
  '--edit-service',
  '--edit-server',
  '--delete-service',
  '--delete-server',
  '-C',
  '--clear',
  '-Z',
  '--zero',
]);

function isIpvsadmWord(text: string): boolean {
  const base = text.slice(text.lastIndexOf('/') + 1);
  return base === 'ipvsadm' || base === 'ipvsadm-save';
}

/** Commands that run another command: `sudo ipvsadm -Ln`, `kubectl exec pod -- ipvsadm -Ln`, ... */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'time',
  'watch',
  'nsenter',
  'chroot',
  'kubectl',
  'docker',
  'crictl',
  'nerdctl',
  'podman',
  'ssh',
  'ip',
]);

/** Finds `ipvsadm` as the command of a line, directly or after a wrapper such as `sudo` or `kubectl exec ... --`. */
export function findIpvsadm(words: Word[]): IpvsadmCommand | undefined {
  if (words.length === 0) return undefined;
  const first = words[0].text.slice(words[0].text.lastIndexOf('/') + 1);
  if (!isIpvsadmWord(first) && !WRAPPERS.has(first)) return undefined;
  const at = words.findIndex((w) => isIpvsadmWord(w.text));
  if (at < 0) return undefined;
  const isSave = words[at].text.endsWith('ipvsadm-save');
  const args = words.slice(at + 1).map((w) => w.text);
  if (args.length > 0 && (RULE_OPTIONS.has(args[0]) || /^-[AaEeDd][tuf]$/.test(args[0]))) {
    return { argsStart: at + 1, layout: 'save', exact: false, isRule: true };
  }
  const longs = new Set<string>();
  const shorts = new Set<string>();
  for (const a of args) {
    if (a === '|' || a === '>' || a === ';' || a === '&&') break;
    if (a.startsWith('--')) longs.add(a.slice(2).split('=')[0]);
    else if (/^-[A-Za-z0-9]+$/.test(a)) for (const c of a.slice(1)) shorts.add(c);
  }
  const exact = longs.has('exact') || shorts.has('X');
  let layout: IpvsLayout | undefined = 'list';
  if (isSave || shorts.has('S') || longs.has('save')) layout = 'save';
  else if (shorts.has('c') || longs.has('connection')) layout = 'connections';
  else if (longs.has('timeout')) layout = 'timeout';
  else if (longs.has('daemon')) layout = 'daemon';
  else if (longs.has('stats')) layout = 'stats';
  else if (longs.has('rate')) layout = 'rate';
  else if (longs.has('thresholds')) layout = 'thresholds';
  else if (longs.has('persistent-conn')) layout = 'persistent-conn';
  else if (
    shorts.has('C') ||
    longs.has('clear') ||
    shorts.has('Z') ||
    longs.has('zero') ||
    shorts.has('h') ||
    shorts.has('v') ||
    longs.has('help') ||
    longs.has('version') ||
    shorts.has('R') ||
    longs.has('restore')
  ) {
    layout = undefined;
  }
  return { argsStart: at + 1, layout, exact, isRule: false };
}
