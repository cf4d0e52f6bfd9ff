/**
 * Running the system tools the lab needs (`ip`, `sysctl`, `iptables-restore`, `openssl`) as argv arrays, never
 * through a shell. Everything that touches the network runs inside a lab namespace: `ip -n NS ...` or
 * `ip netns exec NS ...`. The only commands run in the root namespace are `ip netns add/del/list`.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where tools are looked up; also the PATH given to node-level commands. */
export const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The absolute path of a system tool, or undefined when it is not installed. */
export function findTool(name: string): string | undefined {
  for (const dir of SYSTEM_PATH.split(':')) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function requireTool(name: string): string {
  const found = findTool(name);
  if (!found)
    throw new Error(
      `the lab needs "${name}" on ${SYSTEM_PATH} (Debian: apt-get install iproute2 iptables procps openssl)`,
    );
  return found;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  input?: string;
  timeoutMs?: number;
  /** Reject when the exit code is not 0 (default true). */
  check?: boolean;
  env?: NodeJS.ProcessEnv;
}

export function run(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const [cmd, ...args] = argv;
  const file = cmd.includes('/') ? cmd : requireTool(cmd);
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: opts.env ?? { PATH: SYSTEM_PATH, LANG: 'C' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const result = { code: code ?? 128 + (signal ? 9 : 0), stdout, stderr };
      if ((opts.check ?? true) && result.code !== 0) {
        reject(
          new Error(
            `${argv.join(' ')} exited ${result.code}${signal ? ` (${signal})` : ''}: ${stderr.trim() || stdout.trim()}`,
          ),
        );
      } else resolve(result);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** Words that may go into an `ip -batch` line: names, addresses, CIDRs, numbers. Nothing a batch parser could split. */
const BATCH_WORD = /^[A-Za-z0-9_.:/@-]+$/;

/** Runs many `ip` commands in one process, inside `netns` (or in the root namespace for `netns add/del`). */
export async function ipBatch(netns: string | undefined, lines: string[][]): Promise<void> {
  if (lines.length === 0) return;
  for (const line of lines) {
    for (const word of line)
      if (!BATCH_WORD.test(word)) throw new Error(`refusing ip batch word ${JSON.stringify(word)}`);
  }
  const argv = ['ip', ...(netns ? ['-n', netns] : []), '-batch', '-'];
  await run(argv, { input: lines.map((l) => l.join(' ')).join('\n') + '\n' });
}

/** Runs argv inside a lab namespace. */
export function nsExec(netns: string, argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  return run(['ip', 'netns', 'exec', netns, ...argv], opts);
}

/** Sets sysctls of a lab namespace (never the root namespace's). */
export async function nsSysctl(netns: string, settings: Record<string, string | number>): Promise<void> {
  const pairs = Object.entries(settings).map(([k, v]) => `${k}=${v}`);
  if (pairs.length) await nsExec(netns, ['sysctl', '-q', '-w', ...pairs]);
}

export function listNetns(): string[] {
  const ip = findTool('ip');
  if (!ip) return [];
  const r = spawnSync(ip, ['netns', 'list'], { encoding: 'utf8', env: { PATH: SYSTEM_PATH } });
  if (r.status !== 0) return [];
  return r.stdout
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0])
    .filter((n) => !!n);
}

/** Deletes namespaces synchronously (usable from exit handlers); missing ones are ignored. */
export function deleteNetnsSync(names: string[]): void {
  const ip = findTool('ip');
  if (!ip || names.length === 0) return;
  const input =
    names
      .filter((n) => BATCH_WORD.test(n))
      .map((n) => `netns del ${n}`)
      .join('\n') + '\n';
  spawnSync(ip, ['-force', '-batch', '-'], { input, env: { PATH: SYSTEM_PATH }, stdio: ['pipe', 'ignore', 'ignore'] });
}

/** Whether this process may create network namespaces (root, or root inside `unshare -Urn`). */
export function labSupport(): { ok: true } | { ok: false; reason: string } {
  const missing = ['ip', 'iptables-restore', 'sysctl', 'openssl'].filter((t) => !findTool(t));
  if (missing.length)
    return { ok: false, reason: `missing tools: ${missing.join(', ')} (Debian: iproute2 iptables procps openssl)` };
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    return {
      ok: false,
      reason:
        'the lab needs root: `ip netns` creates network namespaces. Run it as root, or without root inside a user, ' +
        'network and mount namespace for one command (`unshare -Urnm ...`, recipe in test/lab/README.md)',
    };
  }
  return { ok: true };
}
