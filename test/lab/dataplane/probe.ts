/**
 * What the lab tests use to look at a lab from outside: kubectl (an independent client) with stdout, stderr and
 * the exit code, whether the machine can run a lab at all, and kube-proxy rule counters from `iptables-save -c`.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findTool, labSupport } from './sys';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** kubectl as found on the caller's PATH (then the system folders). */
export function findKubectl(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':').filter((d) => d)) {
    const candidate = path.join(dir, 'kubectl');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return findTool('kubectl');
}

/** Runs kubectl the way a person does; never throws for a non-zero exit. */
export function kubectl(
  kubeconfig: string,
  args: string[],
  opts: { input?: string; timeoutMs?: number; cacheDir?: string } = {},
): Promise<CommandResult> {
  const started = Date.now();
  const argv = ['--kubeconfig', kubeconfig, ...(opts.cacheDir ? ['--cache-dir', opts.cacheDir] : []), ...args];
  return new Promise((resolve) => {
    const child = execFile(
      findKubectl() ?? 'kubectl',
      argv,
      { encoding: 'utf8', timeout: opts.timeoutMs ?? 60_000, env: { ...process.env, KUBECONFIG: kubeconfig } },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    else child.stdin?.end();
  });
}

/** Why the lab tests cannot run here, or undefined when they can. */
export function labSkipReason(): string | undefined {
  const support = labSupport();
  if (!support.ok) return support.reason;
  if (!findKubectl()) return 'kubectl is not on PATH (the lab tests use it as an independent client)';
  return undefined;
}

/** Packets counted by the nat KUBE-SERVICES rule for `ip:port` in `iptables-save -c -t nat` output. */
export function serviceRulePackets(save: string, ip: string, port: number): number | undefined {
  for (const line of save.split('\n')) {
    const m = /^\[(\d+):(\d+)\] -A KUBE-SERVICES (.*)$/.exec(line);
    if (!m) continue;
    const rule = m[3];
    if (rule.includes(`-d ${ip}/32 `) && new RegExp(`--dport ${port}( |$)`).test(rule)) return Number(m[1]);
  }
  return undefined;
}
