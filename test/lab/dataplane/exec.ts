/**
 * `kubectl exec` for lab pods: runs the argv inside the pod's network namespace (`ip netns exec NS argv...`, spawn,
 * never a shell) with a PATH that holds only the tools the pod's image "ships", so a missing tool fails like it
 * does in a container: exit 127 with the runtime's message. Pods with every tool (hostNetwork debug pods, ephemeral
 * debug containers) get the system PATH.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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

export interface ExecContainer {
  name: string;
  /** `all`: the system PATH. Otherwise the base tools plus these. */
  tools: 'all' | Tool[];
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

/** A PATH folder with symlinks to the allowed host tools; made once per tool set. */
function pathFor(ctx: ExecContext, tools: Tool[]): string {
  const names = [...BASE_TOOLS, ...tools].sort();
  const dir = path.join(
    ctx.binDir,
    names.filter((n) => !(BASE_TOOLS as readonly string[]).includes(n)).join('-') || 'base',
  );
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    for (const name of names) {
      const target = findTool(name);
      if (target) fs.symlinkSync(target, path.join(dir, name));
    }
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
    if (container.tools !== 'all') {
      envPath = pathFor(ctx, container.tools);
      const allowed = [...BASE_TOOLS, ...container.tools] as string[];
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
