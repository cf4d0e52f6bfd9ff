/**
 * `kubectl exec` for lab pods: runs the argv inside the pod's network namespace (`ip netns exec NS argv...`, spawn,
 * never a shell) with a PATH that holds only the tools the pod's image "ships", so a missing tool fails like it
 * does in a container: exit 127 with the runtime's message. Pods with every tool (hostNetwork debug pods, ephemeral
 * debug containers) get the system PATH.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { ExecError, type ExecHandler, type ExecProcess, type ExecRequest } from '../apiserver';
import type { Tool } from '../scenario';
import { findTool, SYSTEM_PATH } from './sys';

/** What every lab image has besides its scenario `tools` (a busybox-like base). */
export const BASE_TOOLS = [
  'sh',
  'cat',
  'echo',
  'ls',
  'env',
  'sleep',
  'true',
  'false',
  'printf',
  'test',
  'grep',
  'head',
  'tail',
  'timeout',
  'wc',
  'id',
] as const;

/**
 * What a kube-proxy image ships for looking at the node (those installed here): the iptables family in both
 * backends, nft, ipset, conntrack, ip, and ipvsadm when present. Its exec runs in the node's namespace.
 */
export const KUBE_PROXY_BINARIES = [
  'iptables',
  'iptables-save',
  'iptables-restore',
  'ip6tables',
  'ip6tables-save',
  'ip6tables-restore',
  'iptables-legacy',
  'iptables-legacy-save',
  'iptables-nft',
  'iptables-nft-save',
  'nft',
  'ipset',
  'conntrack',
  'ip',
  'ipvsadm',
] as const;

export interface ExecContainer {
  name: string;
  /** `all`: the system PATH. Otherwise the base tools plus these. */
  tools: 'all' | Tool[];
  /** More host programs on the container's PATH (a kube-proxy image's iptables, nft, ...); missing ones are left out. */
  binaries?: readonly string[];
  /** false: a distroless image, no base tools at all (not even sh); default true. */
  base?: boolean;
}

/** The programs a container's image has, or `all`. */
export function imageTools(c: ExecContainer): 'all' | string[] {
  if (c.tools === 'all') return 'all';
  const names = new Set<string>([...(c.base === false ? [] : BASE_TOOLS), ...c.tools, ...(c.binaries ?? [])]);
  return [...names].filter((n) => findTool(n) !== undefined).sort();
}

export interface ExecTarget {
  netns: string;
  containers: ExecContainer[];
}

export interface ExecContext {
  /** The pod's namespace and containers, or undefined when there is no such pod. */
  findPod(namespace: string, name: string): ExecTarget | undefined;
  /** Where per-container PATH folders of symlinks go. */
  binDir: string;
  /** Every started process is reported, so the lab can stop it at teardown. */
  track(child: ChildProcess): void;
}

export function notFoundMessage(command: string): string {
  const why = command.includes('/')
    ? `stat ${command}: no such file or directory`
    : 'executable file not found in $PATH';
  return `OCI runtime exec failed: exec failed: unable to start container process: exec: "${command}": ${why}: unknown\n`;
}

/** A PATH folder with symlinks to the allowed host tools; made once per tool set (an empty one for distroless). */
function pathFor(ctx: ExecContext, names: string[]): string {
  const id = names.length ? createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 12) : 'none';
  const dir = path.join(ctx.binDir, id);
  if (!fs.existsSync(dir)) {
    const tmp = `${dir}.${process.pid}.tmp`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    for (const name of names) {
      const target = findTool(name);
      if (target) fs.symlinkSync(target, path.join(tmp, name));
    }
    fs.renameSync(tmp, dir);
  }
  return dir;
}

function failedProcess(stderrText: string, code: number): ExecProcess {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.end();
  stderr.end(stderrText);
  return { stdout, stderr, exited: Promise.resolve(code), kill: () => undefined };
}

export function makeExecHandler(ctx: ExecContext): ExecHandler {
  return (req: ExecRequest): ExecProcess => {
    const target = ctx.findPod(req.namespace, req.pod);
    if (!target) throw new ExecError(`pods "${req.pod}" not found`, 404, 'NotFound');
    const container = req.container ? target.containers.find((c) => c.name === req.container) : target.containers[0];
    if (!container)
      throw new ExecError(`container ${req.container} is not valid for pod ${req.pod}`, 400, 'BadRequest');
    if (req.command.length === 0)
      throw new ExecError('you must specify at least one command for the container', 400, 'BadRequest');

    const command = req.command[0];
    let envPath = SYSTEM_PATH;
    const allowed = imageTools(container);
    if (allowed !== 'all') {
      envPath = pathFor(ctx, allowed);
      if (!allowed.includes(path.basename(command)) || (command.includes('/') && !fs.existsSync(command))) {
        return failedProcess(notFoundMessage(command), 127);
      }
    }

    const child = spawn(findTool('ip')!, ['netns', 'exec', target.netns, ...req.command], {
      stdio: [req.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env: { PATH: envPath, HOME: '/root', LANG: 'C', ...(req.tty ? { TERM: 'xterm' } : {}) },
      cwd: '/',
    });
    ctx.track(child);
    const exited = new Promise<number>((resolve) => {
      child.on('error', () => resolve(127));
      child.on('close', (code, signal) => {
        resolve(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 9) : 0));
      });
    });
    return {
      stdout: child.stdout!,
      stderr: child.stderr!,
      ...(child.stdin ? { stdin: child.stdin } : {}),
      exited,
      kill: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      },
    };
  };
}
