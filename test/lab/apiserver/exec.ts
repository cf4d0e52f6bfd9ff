// pods/{name}/exec: checks before the upgrade (answered as HTTP v1.Status, the same on the WebSocket and SPDY
// paths), then the channel protocol over WebSocket: stream id in byte 0, status on channel 3, close 1000.
import type { IncomingMessage } from 'node:http';
import { WebSocket, type RawData } from 'ws';
import { containerNames } from './pods';
import type { ResourcePath } from './routes';
import { ApiError, errors, ExecError } from './status';
import type { ExecProcess, ExecRequest, KubeObject } from './types';

interface ChannelProtocol {
  /** Binary frames with a channel byte; otherwise text frames: '0'+channel then base64. */
  binary: boolean;
  /** v4+: the error channel carries a JSON v1.Status; before: a plain message, nothing on success. */
  jsonStatus: boolean;
  /** v5: a frame on channel 255 whose payload byte names a stream the peer has closed. */
  streamClose: boolean;
}

/** The subprotocols a kubelet accepts for exec over WebSocket. */
const channelProtocols: Record<string, ChannelProtocol> = {
  'v5.channel.k8s.io': { binary: true, jsonStatus: true, streamClose: true },
  'v4.channel.k8s.io': { binary: true, jsonStatus: true, streamClose: false },
  'v4.base64.channel.k8s.io': { binary: false, jsonStatus: true, streamClose: false },
  'channel.k8s.io': { binary: true, jsonStatus: false, streamClose: false },
  'base64.channel.k8s.io': { binary: false, jsonStatus: false, streamClose: false },
};
const noSubprotocol: ChannelProtocol = channelProtocols['channel.k8s.io'];

const channel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4, close: 255 } as const;

/** Time allowed for output to drain after the process exited (a background child may hold the pipes). */
const drainAfterExitMs = 2000;

export function offeredSubprotocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  return header
    ? header
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/** The client's most preferred protocol that the lab speaks, as a kubelet picks it. */
export function chooseSubprotocol(offered: string[]): string | undefined {
  return offered.find((p) => channelProtocols[p] !== undefined);
}

export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  return (
    req.method === 'GET' &&
    (req.headers.upgrade ?? '').toLowerCase() === 'websocket' &&
    typeof req.headers['sec-websocket-key'] === 'string' &&
    req.headers['sec-websocket-version'] === '13'
  );
}

function isTrue(v: string | null): boolean {
  return v === 'true' || v === '1';
}

export interface ExecChecks {
  forbidExec: boolean;
  user: string;
  findPod(namespace: string, name: string): KubeObject | undefined;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

function containerIsStopped(pod: KubeObject, container: string): boolean {
  const status = obj(pod.status);
  const phase = status.phase;
  if (phase === 'Pending' || phase === 'Succeeded' || phase === 'Failed') return true;
  const all = [status.containerStatuses, status.initContainerStatuses, status.ephemeralContainerStatuses].flatMap(
    (v) => (Array.isArray(v) ? (v as Obj[]) : []),
  );
  const cs = all.find((s) => s.name === container);
  return cs !== undefined && cs.state !== undefined && obj(cs.state).running === undefined;
}

/** The exec the client asked for, with the output streams it wants. */
export interface CheckedExec {
  request: ExecRequest;
  streams: { stdout: boolean; stderr: boolean };
}

/** Everything a real API server and kubelet check before upgrading; throws ApiError. */
export function checkExecRequest(checks: ExecChecks, path: ResourcePath, query: URLSearchParams): CheckedExec {
  const namespace = path.namespace ?? '';
  const name = path.name ?? '';
  if (checks.forbidExec) {
    throw errors.forbidden(
      `pods "${name}" is forbidden: User "${checks.user}" cannot create resource "pods/exec" in API group "" in the namespace "${namespace}"`,
      name,
      'pods',
    );
  }
  const pod = checks.findPod(namespace, name);
  if (!pod) throw errors.notFound('pods', '', name);
  const command = query.getAll('command');
  const wants = {
    stdin: isTrue(query.get('stdin')),
    stdout: isTrue(query.get('stdout')),
    stderr: isTrue(query.get('stderr')),
  };
  if (!wants.stdin && !wants.stdout && !wants.stderr)
    throw errors.badRequest('you must specify at least 1 of stdin, stdout, stderr');
  if (command.length === 0) throw errors.badRequest('you must specify at least one command for the container');
  if (typeof obj(pod.spec).nodeName !== 'string') throw errors.badRequest(`pod ${name} does not have a host assigned`);
  const names = containerNames(pod);
  let container = query.get('container') ?? '';
  if (!container) {
    if (names.regular.length !== 1) {
      throw errors.badRequest(
        `a container name must be specified for pod ${name}, choose one of: [${names.regular.join(' ')}]`,
      );
    }
    container = names.regular[0];
  } else if (!names.all.includes(container)) {
    throw errors.badRequest(`container ${container} is not valid for pod ${name}`);
  }
  if (containerIsStopped(pod, container)) throw errors.badRequest(`container not found ("${container}")`);
  return {
    request: { namespace, pod: name, container, command, stdin: wants.stdin, tty: isTrue(query.get('tty')) },
    streams: { stdout: wants.stdout, stderr: wants.stderr },
  };
}

/** Starts the process through the lab's handler; ExecError (or any throw) becomes an HTTP v1.Status. */
export function startProcess(handler: (r: ExecRequest) => ExecProcess, request: ExecRequest): ExecProcess {
  try {
    return handler(request);
  } catch (e) {
    if (e instanceof ExecError) throw errors.fromExecError(e);
    if (e instanceof ApiError) throw e;
    throw errors.internal(`error executing command in container: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function statusFrameText(
  protocol: ChannelProtocol,
  command: string[],
  exit: { code: number } | { error: string },
): string {
  if ('error' in exit) {
    const message = `Internal error occurred: error executing command in container: ${exit.error}`;
    return protocol.jsonStatus
      ? JSON.stringify({
          metadata: {},
          status: 'Failure',
          message,
          reason: 'InternalError',
          details: { causes: [{ message: exit.error }] },
          code: 500,
        })
      : message;
  }
  if (exit.code === 0) return protocol.jsonStatus ? JSON.stringify({ metadata: {}, status: 'Success' }) : '';
  const message = `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${exit.code}`;
  return protocol.jsonStatus
    ? JSON.stringify({
        metadata: {},
        status: 'Failure',
        message,
        reason: 'NonZeroExitCode',
        details: { causes: [{ reason: 'ExitCode', message: String(exit.code) }] },
      })
    : message;
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

export interface ExecSession {
  /** Ends the session early (server closing): kills the process, closes with 1001. */
  abort(): void;
  done: Promise<void>;
}

export function runExecSession(
  ws: WebSocket,
  request: ExecRequest,
  wants: { stdout: boolean; stderr: boolean },
  proc: ExecProcess,
): ExecSession {
  const protocol = channelProtocols[ws.protocol] ?? noSubprotocol;
  let finished = false;

  const send = (ch: number, data: Buffer | string): void => {
    if (ws.readyState !== WebSocket.OPEN) return;
    const payload = typeof data === 'string' ? Buffer.from(data) : data;
    if (protocol.binary) ws.send(Buffer.concat([Buffer.from([ch]), payload]), { binary: true });
    else ws.send(String.fromCharCode(48 + ch) + payload.toString('base64'), { binary: false });
  };

  const pump = (stream: NodeJS.ReadableStream, ch: number | undefined): Promise<void> =>
    new Promise((resolve) => {
      stream.on('data', (chunk: Buffer | string) => {
        if (ch !== undefined) send(ch, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      });
      stream.on('end', () => resolve());
      stream.on('close', () => resolve());
      stream.on('error', () => resolve());
    });

  // Without stdin the process reads end-of-file at once, as in a container.
  if (!request.stdin) proc.stdin?.end();
  // A kubelet announces the session with an empty frame on the lowest writable channel.
  send(wants.stdout ? channel.stdout : wants.stderr ? channel.stderr : channel.error, Buffer.alloc(0));
  const outputDone = Promise.all([
    pump(proc.stdout, wants.stdout ? channel.stdout : undefined),
    pump(proc.stderr, wants.stderr ? (request.tty ? channel.stdout : channel.stderr) : undefined),
  ]);

  ws.on('message', (raw, isBinary) => {
    let frame = toBuffer(raw);
    if (frame.length === 0) return;
    let ch = frame[0];
    frame = frame.subarray(1);
    if (!protocol.binary && !isBinary) {
      ch -= 48;
      frame = Buffer.from(frame.toString('latin1'), 'base64');
    }
    if (ch === channel.stdin) proc.stdin?.write(frame);
    else if (ch === channel.close && protocol.streamClose && frame[0] === channel.stdin) proc.stdin?.end();
    // channel.resize: terminal size changes have no meaning for the lab's processes.
  });
  ws.on('close', () => {
    if (!finished) proc.kill();
  });
  ws.on('error', () => undefined);

  const done = (async () => {
    let exit: { code: number } | { error: string };
    try {
      exit = { code: await proc.exited };
    } catch (e) {
      exit = { error: e instanceof Error ? e.message : String(e) };
    }
    let drainTimer: NodeJS.Timeout | undefined;
    await Promise.race([outputDone, new Promise<void>((r) => (drainTimer = setTimeout(r, drainAfterExitMs)))]);
    clearTimeout(drainTimer);
    finished = true;
    const text = statusFrameText(protocol, request.command, exit);
    if (text) send(channel.error, text);
    if (ws.readyState === WebSocket.OPEN) ws.close(1000);
  })();

  return {
    done,
    abort() {
      if (finished) return;
      finished = true;
      proc.kill();
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
        ws.close(1001, 'lab API server closing');
    },
  };
}
