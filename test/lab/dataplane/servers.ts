/**
 * Starting and stopping the pods' servers (backends, apiserver endpoints, cluster DNS): one `pod-server` process
 * per serving pod, run with `ip netns exec <pod netns>` so it listens inside the pod's namespace only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DnsZone } from './dns';
import { bundledScriptArgv } from './node-script';
import type { PodPlan } from './plan';
import type { PodServerConfig } from './pod-server';
import { findTool, SYSTEM_PATH } from './sys';

export interface RunningServer {
  pod: string;
  pid: number;
  stop(): void;
}

const READY_TIMEOUT_MS = 15_000;

export function startPodServer(
  p: PodPlan,
  workDir: string,
  tls: PodServerConfig['tls'],
  dns: DnsZone,
): Promise<RunningServer> {
  const config: PodServerConfig = {
    pod: p.pod.name,
    listeners: p.listeners,
    ...(p.listeners.some((l) => l.kind === 'https') ? { tls } : {}),
    ...(p.listeners.some((l) => l.kind.startsWith('dns')) ? { dns } : {}),
  };
  const file = path.join(workDir, 'servers', `${p.pod.namespace}.${p.pod.name}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(config));

  const child = spawn(
    findTool('ip')!,
    ['netns', 'exec', p.netns, ...bundledScriptArgv(__dirname, 'pod-server', workDir), file],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: SYSTEM_PATH, LANG: 'C' },
    },
  );
  return waitReady(child, p.key);
}

function waitReady(child: ChildProcess, key: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const stop = () => {
      child.stdin?.end();
      if (child.exitCode === null && child.pid) {
        try {
          process.kill(child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`server of pod ${key} not ready after ${READY_TIMEOUT_MS} ms: ${err.trim()}`));
    }, READY_TIMEOUT_MS);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('ready\n')) {
        clearTimeout(timer);
        resolve({ pod: key, pid: child.pid!, stop });
      }
    });
    child.stdin!.on('error', () => undefined);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server of pod ${key} exited ${code}: ${err.trim()}`));
    });
  });
}
