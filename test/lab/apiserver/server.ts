// The lab API server: HTTPS on loopback, bearer-token auth, fault switches, routing to discovery/reads/writes/exec.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { makeLabCerts } from './certs';
import { aggregatedDiscoveryDoc, apiGroupDoc, apiGroupListDoc, apiResourceListDoc, apiVersionsDoc } from './discovery';
import {
  checkExecRequest,
  chooseSubprotocol,
  isWebSocketUpgrade,
  offeredSubprotocols,
  runExecSession,
  startProcess,
} from './exec';
import { bearerToken, parseJsonBody, readBody, sendJson, sendStatus, sendText, statusOf, writeRawStatus } from './http';
import { writeKubeconfigFile } from './kubeconfig';
import { bodyFormat, discoveryFormat, type BodyFormat } from './media';
import { addEphemeralContainers, createPod, deletePod } from './pods';
import { openApiV3 } from './openapi';
import { inVersion } from './present';
import { serveRead } from './reads';
import { resourceTypeFor, servedResource, servedSubresources, type ResourceType } from './resources';
import { parseRoute, type ResourcePath, type Route } from './routes';
import { errors } from './status';
import { ObjectStore } from './store';
import type { FaultSwitches, KubeObject, LabApiServer, LabApiServerOptions, ServerMode } from './types';
import { versionInfo } from './version';

/** The user name the lab's token stands for (appears in Forbidden messages). */
const labUser = 'kpp-lab';
/** The user of the second token: may get, list and watch everything, and nothing else (no exec, no writes). */
export const viewerUser = 'viewer';

type Caller = 'admin' | 'viewer' | 'anonymous';

const verbOfMethod: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

const execSubresources = new Set(['exec', 'attach', 'portforward']);

/** The viewer's RBAC, as a `view` ClusterRole binding gives it: reads only, no exec (which is `create`). */
function viewerMay(verb: string, subresource: string | undefined): boolean {
  return ['get', 'list', 'watch'].includes(verb) && !execSubresources.has(subresource ?? '');
}

/**
 * The viewer's RBAC on a request. Exec is `create` on `pods/exec` (kubectl's WebSocket GET included), like a real
 * API server authorizes it.
 */
function authorizeViewer(method: string, p: ResourcePath, type: ResourceType): void {
  const exec = execSubresources.has(p.subresource ?? '');
  const read = (method === 'GET' || method === 'HEAD') && !exec;
  if (read && viewerMay('get', p.subresource)) return;
  const verb = exec
    ? 'create'
    : p.name === undefined && method === 'DELETE'
      ? 'deletecollection'
      : (verbOfMethod[method] ?? method.toLowerCase());
  const resource = p.subresource ? `${type.plural}/${p.subresource}` : type.plural;
  const what =
    p.name !== undefined
      ? `${type.group ? `${type.plural}.${type.group}` : type.plural} "${p.name}"`
      : type.group
        ? `${type.plural}.${type.group}`
        : type.plural;
  const scope =
    type.namespaced && p.namespace !== undefined ? `in the namespace "${p.namespace}"` : 'at the cluster scope';
  throw errors.forbidden(
    `${what} is forbidden: User "${viewerUser}" cannot ${verb} resource "${resource}" in API group "${type.group}" ${scope}`,
    p.name ?? '',
    type.plural,
    type.group,
  );
}
const loopbackHosts = new Set(['127.0.0.1', 'localhost']);
const podType = resourceTypeFor('Pod')!;

/** The answer to a SelfSubjectAccessReview (`kubectl auth can-i`) for this caller. */
function accessReview(body: unknown, caller: Caller, version: string): object {
  const input = (body && typeof body === 'object' ? body : {}) as { spec?: Record<string, unknown> };
  const spec = input.spec ?? {};
  const attrs = (spec.resourceAttributes ?? undefined) as Record<string, unknown> | undefined;
  const nonResource = (spec.nonResourceAttributes ?? undefined) as Record<string, unknown> | undefined;
  if (!attrs && !nonResource)
    throw errors.invalid('SelfSubjectAccessReview', '', [
      {
        reason: 'FieldValueRequired',
        message: 'Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified',
        field: 'spec.resourceAttributes',
      },
    ]);
  const verb = String((attrs ?? nonResource)?.verb ?? '');
  const subresource = attrs && typeof attrs.subresource === 'string' ? attrs.subresource : undefined;
  const allowed =
    caller === 'admin' || (caller === 'viewer' && (attrs ? viewerMay(verb, subresource) : verb === 'get'));
  const reason =
    caller === 'admin'
      ? `RBAC: allowed by ClusterRoleBinding "kpp-lab-admin" of ClusterRole "cluster-admin" to User "${labUser}"`
      : allowed
        ? `RBAC: allowed by ClusterRoleBinding "kpp-lab-viewer" of ClusterRole "view" to User "${viewerUser}"`
        : '';
  return {
    kind: 'SelfSubjectAccessReview',
    apiVersion: `authorization.k8s.io/${version}`,
    metadata: { creationTimestamp: null },
    spec,
    status: { allowed, ...(reason ? { reason } : {}) },
  };
}

class LabServer {
  readonly token = randomBytes(32).toString('hex');
  readonly viewerToken = randomBytes(32).toString('hex');
  readonly faults: FaultSwitches = { unauthorized: false, forbidExec: false, delayMs: 0 };
  readonly store: ObjectStore;
  readonly mode: ServerMode;
  private readonly server: https.Server;
  private readonly wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    handleProtocols: (offered) => chooseSubprotocol([...offered]) ?? false,
  });
  private readonly sockets = new Set<Socket>();
  /** Ends a long-running exchange (watch, exec session) when the server closes. */
  private readonly enders = new Set<() => void>();
  private readonly pendingDelays = new Set<() => void>();
  private closing: Promise<void> | undefined;
  /** The server "went away" (suspend) and drops whatever still arrives, until resume. */
  private refusing = false;
  private suspending: Promise<void> | undefined;
  private goAwayFault: { requests: number; downForMs?: number; seen: number } | undefined;
  private resumeTimer: NodeJS.Timeout | undefined;
  port = 0;

  constructor(
    private readonly opts: LabApiServerOptions,
    readonly caPem: string,
    certPem: string,
    keyPem: string,
  ) {
    this.mode = opts.mode ?? 'current';
    this.store = new ObjectStore(opts.objects, opts.adoptObjects === true);
    this.server = https.createServer({ cert: certPem, key: keyPem }, (req, res) => void this.onRequest(req, res));
    this.server.on(
      'upgrade',
      (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.onUpgrade(req, socket, head),
    );
    const track = (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    };
    this.server.on('connection', track);
    this.server.on('secureConnection', track);
    this.server.on('tlsClientError', () => undefined);
  }

  get url(): string {
    return `https://${this.opts.host ?? '127.0.0.1'}:${this.port}`;
  }

  listen(port = this.opts.port ?? 0): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, this.opts.host ?? '127.0.0.1', () => {
        this.server.off('error', reject);
        const address = this.server.address();
        this.port = typeof address === 'object' && address ? address.port : 0;
        resolve();
      });
    });
  }

  private log(line: string): void {
    this.opts.log?.(line);
  }

  private track(end: () => void): () => void {
    this.enders.add(end);
    return () => this.enders.delete(end);
  }

  /** Holds an answer back by faults.delayMs; released early (rejected) when the server closes. */
  private async delay(): Promise<void> {
    const ms = this.faults.delayMs;
    if (ms <= 0) return;
    const pending = this.pendingDelays;
    await new Promise<void>((resolve, reject) => {
      const cancel = () => {
        clearTimeout(timer);
        pending.delete(cancel);
        reject(new Error('lab API server closing'));
      };
      const timer = setTimeout(() => {
        pending.delete(cancel);
        resolve();
      }, ms);
      pending.add(cancel);
    });
  }

  private authenticate(req: IncomingMessage, route: Route): Caller {
    if (this.faults.unauthorized) throw errors.unauthorized();
    const presented = bearerToken(req);
    // Like a real cluster's system:public-info-viewer: version and health need no credentials.
    if (presented === undefined && (route.kind === 'version' || route.kind === 'health')) return 'anonymous';
    if (presented !== undefined && this.isToken(presented)) return 'admin';
    if (presented !== undefined && this.isToken(presented, this.viewerToken)) return 'viewer';
    throw errors.unauthorized();
  }

  private isToken(presented: string, token = this.token): boolean {
    const a = Buffer.from(presented);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** Arms the "goes away after N requests" fault: the N-th request is answered, then the server stops listening. */
  goAwayAfter(requests: number, downForMs?: number): void {
    if (!Number.isInteger(requests) || requests < 1) throw new Error(`goAwayAfter needs a request count >= 1`);
    this.goAwayFault = { requests, seen: 0, ...(downForMs !== undefined ? { downForMs } : {}) };
  }

  /**
   * Counts a request against the goAway fault. False: the server is going away, drop the request unanswered.
   * `whenDone` registers what runs once the request's exchange has ended.
   */
  private admit(whenDone: (then: () => void) => void): boolean {
    if (this.refusing) return false;
    const g = this.goAwayFault;
    if (!g) return true;
    if (++g.seen < g.requests) return true;
    this.goAwayFault = undefined;
    this.refusing = true;
    whenDone(() => {
      void this.suspend().then(() => {
        if (g.downForMs !== undefined) {
          this.resumeTimer = setTimeout(() => void this.resume().catch(() => undefined), g.downForMs);
        }
      });
    });
    return true;
  }

  get listening(): boolean {
    return this.server.listening && !this.refusing;
  }

  /**
   * The API server goes away: open connections are cut (watches, exec sessions), the listener stops, so clients
   * see connection refused; `resume` listens again on the same port.
   */
  suspend(): Promise<void> {
    if (this.closing) return this.closing;
    this.refusing = true;
    clearTimeout(this.resumeTimer);
    this.suspending ??= (async () => {
      const stopped = this.server.listening
        ? new Promise<void>((resolve) => this.server.close(() => resolve()))
        : Promise.resolve();
      for (const s of this.sockets) s.destroy();
      for (const cancel of [...this.pendingDelays]) cancel();
      for (const end of [...this.enders]) end();
      await stopped;
    })();
    return this.suspending;
  }

  async resume(): Promise<void> {
    if (this.closing) throw new Error('the lab API server is closed');
    clearTimeout(this.resumeTimer);
    await this.suspending;
    this.suspending = undefined;
    if (!this.server.listening) await this.listen(this.port);
    this.refusing = false;
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'https://lab.invalid');
    if (!this.admit((then) => res.on('close', then))) {
      req.socket.destroy();
      return;
    }
    res.on('close', () =>
      this.log(
        `${req.method} ${url.pathname}${url.search} ${res.writableFinished ? res.statusCode : 'aborted'} ${Date.now() - started}ms`,
      ),
    );
    try {
      const route = parseRoute(url.pathname);
      if (route.kind === 'lab-faults') return await this.serveFaults(req, res);
      await this.delay();
      const caller = this.authenticate(req, route);
      await this.route(req, res, route, url.searchParams, caller);
    } catch (e) {
      if (this.closing || this.refusing) {
        res.destroy();
        return;
      }
      sendStatus(res, statusOf(e));
    }
  }

  private async serveFaults(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Not a Kubernetes path: needs the token even while the `unauthorized` fault is on, so tests can lift it.
    const presented = bearerToken(req);
    if (presented === undefined || !this.isToken(presented)) throw errors.unauthorized();
    if (req.method === 'POST') {
      const body = parseJsonBody(await readBody(req)) as Partial<Record<keyof FaultSwitches, unknown>>;
      if (body.unauthorized !== undefined) this.faults.unauthorized = body.unauthorized === true;
      if (body.forbidExec !== undefined) this.faults.forbidExec = body.forbidExec === true;
      if (body.delayMs !== undefined) {
        const ms = Number(body.delayMs);
        if (!Number.isFinite(ms) || ms < 0) throw errors.badRequest('delayMs must be a non-negative number');
        this.faults.delayMs = ms;
      }
    } else if (req.method !== 'GET') throw errors.methodNotAllowed();
    sendJson(res, 200, this.faults);
  }

  private async route(
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    query: URLSearchParams,
    caller: Caller,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    if (route.kind !== 'resource' && method !== 'GET' && method !== 'HEAD') throw errors.methodNotAllowed();
    switch (route.kind) {
      case 'version':
        return sendJson(res, 200, versionInfo(this.mode));
      case 'openapi-v3': {
        const doc = openApiV3(this.mode, route.pathname);
        if (!doc) throw errors.noSuchResource();
        return sendJson(res, 200, doc);
      }
      case 'health':
        return sendText(res, 200, 'ok');
      case 'discovery-root': {
        const format = discoveryFormat(req.headers.accept, this.mode);
        if (format.aggregated)
          return sendJson(res, 200, aggregatedDiscoveryDoc(this.mode, route.which, format.version), format.contentType);
        return sendJson(
          res,
          200,
          route.which === 'api' ? apiVersionsDoc(`127.0.0.1:${this.port}`) : apiGroupListDoc(this.mode),
        );
      }
      case 'discovery-group': {
        const doc = apiGroupDoc(this.mode, route.group);
        if (!doc) throw errors.noSuchResource();
        return sendJson(res, 200, doc);
      }
      case 'discovery-resources': {
        const doc = apiResourceListDoc(this.mode, route.group, route.version);
        if (!doc) throw errors.noSuchResource();
        return sendJson(res, 200, doc);
      }
      case 'resource':
        return this.serveResource(req, res, route.path, query, caller);
      case 'lab-faults':
      case 'unknown':
        throw errors.noSuchResource();
    }
  }

  private resolveType(p: ResourcePath): ResourceType {
    const type = servedResource(this.mode, p.group, p.version, p.plural);
    if (!type) throw errors.noSuchResource();
    if (!type.namespaced && p.namespace !== undefined) throw errors.noSuchResource();
    if (type.namespaced && p.namespace === undefined && p.name !== undefined) throw errors.noSuchResource();
    if (p.subresource !== undefined && !servedSubresources(this.mode, type).some((s) => s.name === p.subresource))
      throw errors.noSuchResource();
    return type;
  }

  private async readWriteBody(
    req: IncomingMessage,
    allowed: BodyFormat[],
  ): Promise<{ format: BodyFormat; body: unknown }> {
    const contentType = req.headers['content-type'] ?? 'application/json';
    const format = bodyFormat(contentType);
    if (!format || !allowed.includes(format)) throw errors.unsupportedMediaType(contentType);
    return { format, body: parseJsonBody(await readBody(req)) };
  }

  private podHost() {
    return { store: this.store, options: this.opts, log: (line: string) => this.log(line) };
  }

  private async serveResource(
    req: IncomingMessage,
    res: ServerResponse,
    p: ResourcePath,
    query: URLSearchParams,
    caller: Caller,
  ): Promise<void> {
    const type = this.resolveType(p);
    const method = req.method ?? 'GET';
    if (type.kind === 'SelfSubjectAccessReview') {
      if (method !== 'POST' || p.name !== undefined) throw errors.methodNotAllowed();
      const { body } = await this.readWriteBody(req, ['json']);
      return sendJson(res, 201, accessReview(body, caller, p.version));
    }
    if (caller === 'viewer') authorizeViewer(method, p, type);
    const dryRun = query.getAll('dryRun').includes('All');
    const answer = (code: number, o: KubeObject) =>
      sendJson(res, code, inVersion({ type, version: p.version, format: { as: 'object' }, include: 'Object' }, o));
    const ns = p.namespace ?? '';

    if (p.subresource === undefined) {
      if (method === 'GET' || method === 'HEAD')
        return serveRead({ store: this.store, track: (end) => this.track(end) }, req, res, type, p, query);
      if (type === podType && method === 'POST' && p.name === undefined) {
        const { body } = await this.readWriteBody(req, ['json']);
        return answer(201, createPod(this.podHost(), ns, body, dryRun));
      }
      if (type === podType && method === 'DELETE' && p.name !== undefined)
        return answer(200, deletePod(this.podHost(), ns, p.name, dryRun));
      throw errors.methodNotAllowed();
    }

    const name = p.name ?? '';
    switch (p.subresource) {
      case 'exec':
        if (method !== 'GET' && method !== 'POST') throw errors.methodNotAllowed();
        checkExecRequest(this.execChecks(), p, query);
        this.requireExec();
        throw errors.badRequest('Upgrade request required');
      case 'log': {
        if (method !== 'GET') throw errors.methodNotAllowed();
        if (!this.store.get(type, ns, name)) throw errors.notFound(type.plural, type.group, name);
        return sendText(res, 200, '');
      }
      case 'ephemeralcontainers': {
        if (method === 'GET') {
          const pod = this.store.get(type, ns, name);
          if (!pod) throw errors.notFound(type.plural, type.group, name);
          return answer(200, pod);
        }
        const allowed: BodyFormat[] | undefined =
          method === 'PATCH'
            ? ['strategic-merge-patch', 'merge-patch', 'json-patch']
            : method === 'PUT'
              ? ['json']
              : undefined;
        if (!allowed) throw errors.methodNotAllowed();
        const { format, body } = await this.readWriteBody(req, allowed);
        return answer(200, addEphemeralContainers(this.podHost(), ns, name, format, body));
      }
      default:
        throw errors.noSuchResource();
    }
  }

  /** The exec handler; a server without one (API only) says so the same way on the WebSocket and SPDY paths. */
  private requireExec() {
    if (!this.opts.exec)
      throw errors.badRequest('this lab serves the API only (no data plane): exec runs nowhere; use a scenario lab');
    return this.opts.exec;
  }

  private execChecks() {
    return {
      forbidExec: this.faults.forbidExec,
      user: labUser,
      findPod: (ns: string, name: string) => this.store.get(podType, ns, name),
    };
  }

  private async onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'https://lab.invalid');
    const logLine = (outcome: string) =>
      this.log(
        `${req.method} ${url.pathname}${url.search} upgrade:${req.headers.upgrade ?? ''} ${outcome} ${Date.now() - started}ms`,
      );
    socket.on('error', () => undefined);
    if (!this.admit((then) => socket.on('close', then))) {
      socket.destroy();
      return;
    }
    try {
      const route = parseRoute(url.pathname);
      await this.delay();
      const caller = this.authenticate(req, route);
      if (route.kind !== 'resource' || route.path.subresource !== 'exec')
        throw errors.badRequest(`upgrade is not supported on ${url.pathname}`);
      const p = route.path;
      const type = this.resolveType(p);
      if (type !== podType) throw errors.noSuchResource();
      if (caller === 'viewer') authorizeViewer(req.method ?? 'GET', p, type);
      const { request, streams } = checkExecRequest(this.execChecks(), p, url.searchParams);
      const exec = this.requireExec();
      if (!isWebSocketUpgrade(req)) {
        throw errors.badRequest(
          `the lab API server runs exec only over WebSocket (v5.channel.k8s.io, v4.channel.k8s.io), not "${req.headers.upgrade ?? ''}"; use kubectl >= 1.30 or a WebSocket client`,
        );
      }
      const offered = offeredSubprotocols(req);
      if (offered.length > 0 && !chooseSubprotocol(offered)) {
        throw errors.badRequest(
          `none of the offered subprotocols [${offered.join(', ')}] is supported; use v5.channel.k8s.io or v4.channel.k8s.io`,
        );
      }
      // The client may have given up during a delay: start nothing it cannot stop.
      if (socket.destroyed) return;
      const proc = startProcess(exec, request);
      let upgraded = false;
      socket.once('close', () => {
        if (!upgraded) proc.kill();
      });
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        upgraded = true;
        logLine(`101 ${ws.protocol || '(no subprotocol)'}`);
        const session = runExecSession(ws, request, streams, proc);
        const untrack = this.track(() => session.abort());
        void session.done.finally(untrack);
      });
    } catch (e) {
      const status = statusOf(e);
      logLine(String(status.code));
      writeRawStatus(socket, status);
    }
  }

  /** Graceful: ends watches and exec sessions, then closes every connection. */
  close(): Promise<void> {
    clearTimeout(this.resumeTimer);
    this.closing ??= (async () => {
      await this.suspending;
      for (const cancel of [...this.pendingDelays]) cancel();
      for (const end of [...this.enders]) end();
      const stopped = this.server.listening
        ? new Promise<void>((resolve) => this.server.close(() => resolve()))
        : Promise.resolve();
      this.server.closeAllConnections();
      const deadline = Date.now() + 500;
      while (this.sockets.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const s of this.sockets) s.destroy();
      this.wss.close();
      await stopped;
    })();
    return this.closing;
  }

  /** Abrupt: every socket destroyed at once, nothing said to clients, listener stopped. */
  goAway(): Promise<void> {
    if (this.closing) return this.closing;
    for (const s of this.sockets) s.destroy();
    return this.close();
  }
}

export async function startLabApiServer(opts: LabApiServerOptions): Promise<LabApiServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!loopbackHosts.has(host)) throw new Error(`the lab API server listens on loopback only, not "${host}"`);
  const certs = await makeLabCerts(path.join(opts.workDir, 'pki'));
  const lab = new LabServer(opts, certs.caPem, certs.certPem, certs.keyPem);
  await lab.listen();
  if (opts.goAwayAfterRequests !== undefined) lab.goAwayAfter(opts.goAwayAfterRequests, opts.downForMs);
  return {
    url: lab.url,
    port: lab.port,
    token: lab.token,
    viewerToken: lab.viewerToken,
    caPem: lab.caPem,
    writeKubeconfig: (file: string, options?: { currentContext?: string }) =>
      writeKubeconfigFile(file, {
        server: lab.url,
        caPem: lab.caPem,
        token: lab.token,
        viewerToken: lab.viewerToken,
        ...(options?.currentContext ? { currentContext: options.currentContext } : {}),
      }),
    faults: lab.faults,
    goAway: () => lab.goAway(),
    suspend: () => lab.suspend(),
    resume: () => lab.resume(),
    goAwayAfter: (requests: number, downForMs?: number) => lab.goAwayAfter(requests, downForMs),
    get listening() {
      return lab.listening;
    },
    store: lab.store,
    close: () => lab.close(),
  };
}
