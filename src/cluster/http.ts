/**
 * Requests to the API server with the kubeconfig's credentials (applied by client-node's KubeConfig), each with a
 * timeout and an AbortSignal, answers read as JSON and failures turned into ClusterError (the API's own Status
 * message kept). Nothing here logs a header, a token or a certificate.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { KubeConfig } from './clientNode';
import {
  cancelledError,
  ClusterError,
  httpError,
  isClusterError,
  timeoutError,
  transportError,
  answerTooLargeError,
  errorText,
  hintText,
  type RequestWhat,
} from './errors';

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * How long the API may be silent: until the answer starts, then between its pieces (a big answer still arriving
   * is not cut off). Default: the transport's.
   */
  timeoutMs?: number;
}

export interface RequestOptions extends CallOptions {
  method?: string;
  body?: unknown;
  contentType?: string;
  query?: Record<string, string | number | boolean | undefined>;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
/** The largest answer read: more is a list to narrow (lists come in pages), not one to hold in memory. */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

export function withQuery(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

export class ApiTransport {
  private agent: http.Agent | undefined;

  constructor(
    private kc: KubeConfig,
    /** The API server URL (`https://host:port[/prefix]`). */
    readonly server: string,
    private readonly user: string,
    readonly defaultTimeoutMs = DEFAULT_TIMEOUT_MS,
    /**
     * Re-reads the kubeconfig: after a 401 with exec-plugin credentials the plugin runs again (client-node caches
     * its token until `expirationTimestamp` and never refreshes on 401; kubectl does).
     */
    private readonly reload?: () => Promise<KubeConfig>,
  ) {}

  /** Whether the user's credentials come from an exec plugin or an auth provider (they can be refreshed). */
  private refreshable(): boolean {
    const u = this.kc.getCurrentUser();
    return !!u && (!!u.exec || !!u.authProvider);
  }

  /** Options for one request: TLS material, the agent and auth headers, from the kubeconfig. */
  async connectionOptions(): Promise<https.RequestOptions> {
    const opts: https.RequestOptions = { headers: {} };
    try {
      await this.kc.applyToHTTPSOptions(opts);
    } catch (e) {
      const text = (e as Error).message ?? String(e);
      // client-node refuses a plain-HTTP server unless TLS checks are off: the server's address, not the user's.
      if (/HTTP protocol is not allowed/i.test(text))
        throw new ClusterError('kubeconfig', errorText('plain-http', { server: this.server }), hintText('plain-http'));
      throw new ClusterError(
        'kubeconfig',
        errorText('credentials', { user: this.user, text: text.split('\n')[0].slice(0, 300) }),
        hintText('credentials'),
      );
    }
    if (this.agent) {
      const fresh = opts.agent;
      opts.agent = this.agent;
      if (fresh && fresh !== this.agent && typeof (fresh as http.Agent).destroy === 'function')
        (fresh as http.Agent).destroy();
    } else if (opts.agent) this.agent = opts.agent as http.Agent;
    return opts;
  }

  url(path: string): URL {
    const base = this.server.replace(/\/+$/, '');
    return new URL(base + path);
  }

  /** One request; resolves with the parsed JSON body of a 2xx answer. */
  async json<T>(path: string, what: RequestWhat, opts: RequestOptions = {}): Promise<T> {
    const { status, body } = await this.raw(path, what, opts);
    if (status < 200 || status > 299) throw httpError(status, body, what, this.user);
    try {
      return JSON.parse(body) as T;
    } catch {
      throw new ClusterError(
        'api',
        errorText('not-json', { verb: what.verb, resource: what.resource }),
        hintText('not-json', { server: this.server }),
      );
    }
  }

  /** One request; resolves with the status and body text whatever the status. */
  async raw(path: string, what: RequestWhat, opts: RequestOptions = {}): Promise<{ status: number; body: string }> {
    const r = await this.rawOnce(path, what, opts);
    if (r.status === 401 && this.reload && this.refreshable()) {
      // Once per request: fresh credentials from the plugin, then the same request again.
      this.kc = await this.reload();
      this.agent?.destroy();
      this.agent = undefined;
      return this.rawOnce(path, what, opts);
    }
    return r;
  }

  private async rawOnce(
    path: string,
    what: RequestWhat,
    opts: RequestOptions = {},
  ): Promise<{ status: number; body: string }> {
    const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
    if (opts.signal?.aborted) throw cancelledError();
    const conn = await this.connectionOptions();
    const url = this.url(withQuery(path, opts.query));
    const body =
      opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    const headers: http.OutgoingHttpHeaders = {
      ...(conn.headers as http.OutgoingHttpHeaders),
      Accept: 'application/json',
      'User-Agent': 'kube-packet-path',
    };
    if (body !== undefined) {
      headers['Content-Type'] = opts.contentType ?? 'application/json';
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    const mod = url.protocol === 'http:' ? http : https;
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (e: unknown, value?: { status: number; body: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        if (e) reject(e);
        else resolve(value!);
      };
      const req = mod.request(url, { ...conn, method: opts.method ?? 'GET', headers }, (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (bytes > MAX_ANSWER_BYTES) {
            finish(answerTooLargeError(what));
            req.destroy();
            return;
          }
          chunks.push(c);
          armTimer(); // the answer is arriving: silence counts from its last piece
        });
        res.on('end', () => {
          if (settled) return;
          let text: string;
          try {
            text = Buffer.concat(chunks, bytes).toString('utf8');
          } catch {
            finish(answerTooLargeError(what));
            return;
          }
          finish(undefined, { status: res.statusCode ?? 0, body: text });
        });
        res.on('error', (e) => finish(transportError(e, this.server)));
        res.on('aborted', () => finish(transportError(new Error('the connection closed mid-answer'), this.server)));
      });
      let timer: NodeJS.Timeout | undefined;
      const armTimer = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          finish(timeoutError(what, timeoutMs));
          req.destroy();
        }, timeoutMs);
      };
      armTimer();
      const onAbort = () => {
        finish(cancelledError());
        req.destroy();
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e) => finish(isClusterError(e) ? e : transportError(e, this.server)));
      req.end(body);
    });
  }

  /**
   * A streaming GET (watch): `onLine` gets each newline-delimited JSON line. Resolves when the server ends the
   * stream, rejects on an HTTP error or a broken connection; `signal` ends it quietly (resolves).
   */
  async stream(
    path: string,
    what: RequestWhat,
    onLine: (line: string) => void,
    opts: {
      signal?: AbortSignal;
      connectTimeoutMs?: number;
      /** No byte for this long ends the stream with an error (a connection that died silently). Default 330 s. */
      idleTimeoutMs?: number;
      query?: RequestOptions['query'];
    } = {},
  ): Promise<void> {
    if (opts.signal?.aborted) return;
    const conn = await this.connectionOptions();
    const url = this.url(withQuery(path, opts.query));
    const headers = {
      ...(conn.headers as http.OutgoingHttpHeaders),
      Accept: 'application/json',
      'User-Agent': 'kube-packet-path',
    };
    const mod = url.protocol === 'http:' ? http : https;
    const connectTimeoutMs = opts.connectTimeoutMs ?? this.defaultTimeoutMs;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (e?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        if (e) reject(e);
        else resolve();
      };
      const req = mod.request(url, { ...conn, method: 'GET', headers }, (res) => {
        clearTimeout(timer);
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => finish(httpError(status, Buffer.concat(chunks).toString('utf8'), what, this.user)));
          res.on('error', (e) => finish(transportError(e, this.server)));
          return;
        }
        let pending = '';
        const idleMs = opts.idleTimeoutMs ?? 330_000;
        const tooLong = () => {
          finish(answerTooLargeError(what));
          req.destroy();
        };
        let idle = setTimeout(onIdle, idleMs);
        function onIdle() {
          finish(
            new ClusterError(
              'timeout',
              errorText('watch-idle', { seconds: Math.round(idleMs / 1000) }),
              hintText('watch-idle'),
            ),
          );
          req.destroy();
        }
        res.on('close', () => clearTimeout(idle));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          clearTimeout(idle);
          idle = setTimeout(onIdle, idleMs);
          pending += chunk;
          // One event is one line: a line without end past the answer limit is no watch event.
          if (pending.length > MAX_ANSWER_BYTES) return tooLong();
          let nl: number;
          while ((nl = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, nl).trim();
            pending = pending.slice(nl + 1);
            if (line) onLine(line);
          }
        });
        res.on('end', () => {
          if (pending.trim()) onLine(pending.trim());
          finish();
        });
        res.on('error', (e) => finish(settled ? undefined : transportError(e, this.server)));
        res.on('aborted', () =>
          finish(
            opts.signal?.aborted ? undefined : transportError(new Error('the watch connection closed'), this.server),
          ),
        );
      });
      const timer = setTimeout(() => {
        finish(timeoutError(what, connectTimeoutMs));
        req.destroy();
      }, connectTimeoutMs);
      const onAbort = () => {
        finish();
        req.destroy();
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e) => finish(opts.signal?.aborted ? undefined : transportError(e, this.server)));
      req.end();
    });
  }

  dispose(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }
}
