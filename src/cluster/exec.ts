/**
 * Exec in a container over the Kubernetes WebSocket channel protocol (v5/v4.channel.k8s.io, then channel.k8s.io),
 * with an argv array (never a shell string), a per-call timeout and cancellation. The HTTP answer of a refused
 * upgrade is read here (client-node only says `Unexpected server response: 403`), so a 403 becomes
 * `exec-forbidden` with the API's own message and a 404 names the pod.
 */
import type { IncomingMessage } from 'node:http';
import { WebSocket, type RawData } from 'ws';
import { cancelledError, ClusterError, errorText, httpError, transportError, type RequestWhat } from './errors';
import { withQuery, type ApiTransport } from './http';

export interface ExecOptions {
  container?: string;
  /** Ends the call (socket closed) after this long; the result then has `error: 'timeout'`. */
  timeoutMs?: number;
  /** Cancelling rejects with ClusterError('cancelled'). */
  signal?: AbortSignal;
  /** Output kept per stream (default 64 MiB); the rest is dropped and `truncated` set. */
  maxOutputBytes?: number;
}

export interface ExecResult {
  argv: string[];
  stdout: string;
  stderr: string;
  /** null when the process did not report one (timeout, runtime failure). */
  exitCode: number | null;
  durationMs: number;
  /** `timeout`, `not-found` (no such executable), or the runtime's message. */
  error?: string;
  truncated?: boolean;
}

/** Output kept per stream unless told otherwise. */
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

const SUBPROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'channel.k8s.io'];
const CH_STDOUT = 1;
const CH_STDERR = 2;
const CH_ERROR = 3;
const CH_CLOSE = 255;

interface StatusFrame {
  status?: string;
  reason?: string;
  message?: string;
  details?: { causes?: { reason?: string; message?: string }[] };
}

/** The exit code and error text a status frame carries. */
export function readExecStatus(text: string, jsonStatus: boolean): { exitCode: number | null; error?: string } {
  if (!jsonStatus) return text.trim() ? { exitCode: null, error: text.trim() } : { exitCode: 0 };
  let s: StatusFrame;
  try {
    s = JSON.parse(text) as StatusFrame;
  } catch {
    return { exitCode: null, error: text.trim() || 'unreadable exec status' };
  }
  if (s.status === 'Success') return { exitCode: 0 };
  const cause = s.details?.causes?.find((c) => c.reason === 'ExitCode');
  if (cause && /^\d+$/.test(cause.message ?? '')) return { exitCode: Number(cause.message) };
  const message = s.message ?? 'exec failed';
  if (/executable file not found|no such file or directory/i.test(message))
    return { exitCode: 127, error: 'not-found' };
  return { exitCode: null, error: message };
}

export async function execInPod(
  transport: ApiTransport,
  namespace: string,
  pod: string,
  argv: string[],
  opts: ExecOptions = {},
): Promise<ExecResult> {
  if (!Array.isArray(argv) || argv.length === 0 || argv.some((a) => typeof a !== 'string')) {
    throw new ClusterError('invalid-name', errorText('exec-argv'), '');
  }
  if (opts.signal?.aborted) throw cancelledError();
  const what: RequestWhat = { verb: 'exec into', resource: 'pods/exec', namespace, name: pod };
  const started = Date.now();
  const conn = await transport.connectionOptions();
  const query = new URLSearchParams();
  for (const a of argv) query.append('command', a);
  if (opts.container) query.set('container', opts.container);
  query.set('stdout', 'true');
  query.set('stderr', 'true');
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/exec?${query}`;
  const url = transport.url(withQuery(path));
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  const timeoutMs = opts.timeoutMs ?? transport.defaultTimeoutMs;
  const max = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;

  return new Promise<ExecResult>((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncated = false;
    let statusText: string | undefined;
    let settled = false;
    let jsonStatus = true;
    const { agent: _agent, headers, ...tls } = conn;
    const ws = new WebSocket(url, SUBPROTOCOLS, {
      ...(tls as object),
      headers: { ...(headers as Record<string, string>), 'User-Agent': 'kube-packet-path' },
      handshakeTimeout: Math.min(timeoutMs, transport.defaultTimeoutMs),
      perMessageDeflate: false,
    });
    const result = (extra: Partial<ExecResult>): ExecResult => ({
      argv,
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8'),
      exitCode: null,
      durationMs: Date.now() - started,
      ...(truncated ? { truncated } : {}),
      ...extra,
    });
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const timer = setTimeout(() => {
      done(() => resolve(result({ exitCode: null, error: 'timeout' })));
      ws.terminate();
    }, timeoutMs);
    const onAbort = () => {
      done(() => reject(cancelledError()));
      ws.terminate();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    ws.on('open', () => {
      jsonStatus = ws.protocol.startsWith('v4') || ws.protocol.startsWith('v5');
    });
    ws.on('unexpected-response', (_req, res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const e = httpError(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), what);
        done(() => reject(e));
        ws.terminate();
      });
      res.on('error', (e) => done(() => reject(transportError(e, transport.server))));
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      let buf = Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.isBuffer(data)
          ? data
          : Buffer.from(data as ArrayBuffer);
      if (!isBinary) {
        // base64 protocols send '<channel digit><base64>'; not offered, but read them anyway.
        const text = buf.toString('utf8');
        buf = Buffer.concat([Buffer.from([Number(text[0])]), Buffer.from(text.slice(1), 'base64')]);
      }
      if (buf.length === 0) return;
      const ch = buf[0];
      const payload = buf.subarray(1);
      if (ch === CH_STDOUT || ch === CH_STDERR) {
        if (payload.length === 0) return;
        const isOut = ch === CH_STDOUT;
        const used = isOut ? outBytes : errBytes;
        const room = Math.max(0, max - used);
        const keep = payload.length > room ? payload.subarray(0, room) : payload;
        if (keep.length < payload.length) truncated = true;
        if (isOut) {
          out.push(Buffer.from(keep));
          outBytes += keep.length;
        } else {
          err.push(Buffer.from(keep));
          errBytes += keep.length;
        }
      } else if (ch === CH_ERROR) {
        statusText = (statusText ?? '') + payload.toString('utf8');
      } else if (ch === CH_CLOSE) {
        // v5: the server closed one of its streams; the status frame and the close follow.
      }
    });
    ws.on('close', () => {
      const st = readExecStatus(statusText ?? '', jsonStatus && statusText !== undefined);
      if (statusText === undefined && jsonStatus) {
        done(() => resolve(result({ exitCode: null, error: 'the exec stream closed without an exit status' })));
        return;
      }
      done(() => resolve(result({ exitCode: st.exitCode, ...(st.error ? { error: st.error } : {}) })));
    });
    ws.on('error', (e) => {
      done(() => reject(transportError(e, transport.server)));
      ws.terminate();
    });
  });
}
