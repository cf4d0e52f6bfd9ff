// Test support for the lab API server: sample objects, a fake exec handler, a kubectl runner.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { startLabApiServer } from './index';
import type { ExecProcess, ExecRequest, KubeObject, LabApiServer, LabApiServerOptions } from './types';

const created = '2024-01-01T00:00:00Z';

const node = (name: string, ip: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name }, creationTimestamp: created },
  status: {
    addresses: [{ type: 'InternalIP', address: ip }],
    conditions: [{ type: 'Ready', status: 'True' }],
    nodeInfo: {
      kubeletVersion: 'v1.31.0',
      osImage: 'Debian GNU/Linux 12',
      kernelVersion: '6.1.0',
      containerRuntimeVersion: 'containerd://1.7.0',
    },
  },
});

const pod = (ns: string, name: string, labels: Record<string, string>, nodeName: string, ip: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: ns, labels, creationTimestamp: created },
  spec: { nodeName, containers: [{ name: 'main', image: 'busybox' }] },
  status: {
    phase: 'Running',
    podIP: ip,
    hostIP: '192.168.0.1',
    containerStatuses: [{ name: 'main', ready: true, restartCount: 0, state: { running: { startedAt: created } } }],
  },
});

/** A small cluster: two nodes, three pods, the kubernetes Service, a web Service with Endpoints and an EndpointSlice. */
export function sampleObjects(): KubeObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'default', creationTimestamp: created },
      status: { phase: 'Active' },
    },
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop', creationTimestamp: created },
      status: { phase: 'Active' },
    },
    node('node-a', '192.168.0.1'),
    node('node-b', '192.168.0.2'),
    pod('shop', 'web-1', { app: 'web', tier: 'front' }, 'node-a', '10.244.1.10'),
    pod('shop', 'web-2', { app: 'web', tier: 'front' }, 'node-b', '10.244.2.11'),
    pod('default', 'client', { app: 'client' }, 'node-a', '10.244.1.20'),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default', creationTimestamp: created },
      spec: {
        type: 'ClusterIP',
        clusterIP: '172.16.0.1',
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'shop', creationTimestamp: created },
      spec: {
        type: 'NodePort',
        clusterIP: '172.16.0.20',
        selector: { app: 'web' },
        ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'web', namespace: 'shop', creationTimestamp: created },
      subsets: [
        {
          addresses: [{ ip: '10.244.1.10' }, { ip: '10.244.2.11' }],
          ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
        },
      ],
    },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'web-abc12',
        namespace: 'shop',
        labels: { 'kubernetes.io/service-name': 'web' },
        creationTimestamp: created,
      },
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      endpoints: [
        { addresses: ['10.244.1.10'], conditions: { ready: true }, nodeName: 'node-a', zone: 'z1' },
        { addresses: ['10.244.2.11'], conditions: { ready: true }, nodeName: 'node-b', zone: 'z2' },
      ],
    },
  ];
}

/** The only argv the fake exec handler runs for real; anything else is "not found" (127), as a runtime says. */
export const allowedCommands: readonly string[][] = [
  ['printf', 'hello'],
  ['sh', '-c', 'echo err >&2; exit 3'],
  ['sh', '-c', 'printf out; printf err >&2'],
  ['cat'],
  ['sleep', '30'],
];

export function fakeExec(req: ExecRequest): ExecProcess {
  const allowed = allowedCommands.find((argv) => isDeepStrictEqual(argv, req.command));
  if (!allowed) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stderr.end(
      `OCI runtime exec failed: exec failed: unable to start container process: exec: "${req.command[0]}": executable file not found in $PATH: unknown\r\n`,
    );
    stdout.end();
    return { stdout, stderr, exited: Promise.resolve(127), kill: () => undefined };
  }
  const child = spawn(allowed[0], allowed.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)));
  });
  return { stdout: child.stdout, stderr: child.stderr, stdin: child.stdin, exited, kill: () => child.kill('SIGKILL') };
}

export interface TestLab {
  server: LabApiServer;
  dir: string;
  kubeconfig: string;
  kubectl(args: string[], opts?: KubectlOptions): Promise<KubectlResult>;
  close(): Promise<void>;
}

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs kubectl with a private HOME and cache dir (never ~/.kube) and a request timeout; killed if it hangs. */
export interface KubectlOptions {
  /** Hard kill after this long (default 30 s). */
  timeoutSeconds?: number;
  stdin?: string;
  /** Sees stdout as it streams (for `get -w`). */
  onStdout?: (soFar: string) => void;
}

/** The kubectl binary: $KPP_KUBECTL, else `kubectl` on PATH. */
export const kubectlBinary = process.env.KPP_KUBECTL || 'kubectl';

/** kubectl's client version, or undefined when it cannot run here (tests then skip with this reason). */
export function kubectlClientVersion(): string | undefined {
  const r = spawnSync(kubectlBinary, ['version', '--client', '-o', 'json'], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { PATH: process.env.PATH, HOME: os.tmpdir() },
  });
  if (r.status !== 0) return undefined;
  try {
    return (JSON.parse(r.stdout) as { clientVersion: { gitVersion: string } }).clientVersion.gitVersion;
  } catch {
    return undefined;
  }
}

export function runKubectl(
  kubeconfig: string,
  home: string,
  args: string[],
  opts: KubectlOptions = {},
): Promise<KubectlResult> {
  const hasTimeout = args.some((a) => a.startsWith('--request-timeout'));
  const argv = [
    '--kubeconfig',
    kubeconfig,
    '--cache-dir',
    path.join(home, 'kube-cache'),
    ...(hasTimeout ? [] : ['--request-timeout=10s']),
    ...args,
  ];
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C' };
  return new Promise((resolve, reject) => {
    const child = spawn(kubectlBinary, argv, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      opts.onStdout?.(stdout);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), (opts.timeoutSeconds ?? 30) * 1000);
    child.on('error', (e) => {
      clearTimeout(killer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface ApiResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read arbitrary JSON
}

export interface ApiRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | object;
  /** The bearer token; `null` sends none. Default: the lab's token. */
  token?: string | null;
  timeoutMs?: number;
}

/** One HTTPS request to the lab, trusting only its CA. */
export function apiRequest(server: LabApiServer, path: string, opts: ApiRequestOptions = {}): Promise<ApiResponse> {
  const body =
    opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const token = opts.token === undefined ? server.token : opts.token;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    ...opts.headers,
  };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${server.url}${path}`,
      { method: opts.method ?? 'GET', headers, ca: server.caPem, timeout: opts.timeoutMs ?? 10_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`request to ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

export async function startTestLab(extra: Partial<LabApiServerOptions> = {}): Promise<TestLab> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kpp-lab-api-'));
  const server = await startLabApiServer({
    objects: sampleObjects(),
    exec: fakeExec,
    workDir: dir,
    ...(process.env.KPP_LAB_LOG ? { log: (line: string) => process.stderr.write(`[lab-api] ${line}\n`) } : {}),
    ...extra,
  });
  const kubeconfig = server.writeKubeconfig(path.join(dir, 'kubeconfig'));
  return {
    server,
    dir,
    kubeconfig,
    kubectl: (args, opts) => runKubectl(kubeconfig, dir, args, opts),
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
