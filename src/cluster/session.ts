/**
 * One connection to one kube context: reads (Services, EndpointSlices or core/v1 Endpoints, Pods, Nodes), watches
 * with backoff, exec, and the few writes a confirmed diagnosis needs (debug pods, ephemeral containers). Used by
 * the CLI and the extension's tree; imports no `vscode`.
 */
import { normaliseCluster } from '../core/kube/objects';
import type { ClusterSnapshot, NodeInfo, PodInfo, ServiceInfo } from '../core/kube/types';
import {
  cancelledError,
  ClusterError,
  endlessListError,
  errorText,
  hintText,
  isClusterError,
  watchErrorEvent,
  type CatalogText,
  type RequestWhat,
} from './errors';
import { execInPod, type ExecOptions, type ExecResult } from './exec';
import { ApiTransport, DEFAULT_TIMEOUT_MS, type CallOptions } from './http';
import { loadKubeconfig, type KubeconfigOptions, type LoadedKubeconfig } from './kubeconfig';
import { checkContainerName, checkNamespace, checkNodeName, checkPodName, checkServiceName } from './validate';

/** Items per page of a list (kubectl's default chunk size). */
const LIST_PAGE_ITEMS = 500;
/** Past these a list is not a cluster's: 2,000 pages of 500, a million items. */
const MAX_LIST_PAGES = 2000;
const MAX_LIST_ITEMS = 1_000_000;
/** A watch the server ends sooner than this is followed by a pause (with backoff) before the next one. */
const SHORT_WATCH_MS = 5000;

/** `listServices(ALL_NAMESPACES)`: every namespace (`-A`). */
export const ALL_NAMESPACES = '*';
export type NamespaceScope = string;

/** A Kubernetes object as the API sends it. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    uid?: string;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
    [k: string]: unknown;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface KubeList {
  metadata?: { resourceVersion?: string; continue?: string };
  items: KubeObject[];
}

/** What `watch` and the lists read. `endpoints` is EndpointSlices, or core/v1 Endpoints on clusters without them. */
export type WatchKind = 'services' | 'endpoints' | 'pods' | 'nodes';

export interface WatchEvent {
  /** `SYNC`: the full current list (at start and after every relist); then single changes. */
  type: 'SYNC' | 'ADDED' | 'MODIFIED' | 'DELETED';
  /** The changed object (ADDED/MODIFIED/DELETED). */
  object?: KubeObject;
  /** SYNC: every object. */
  objects?: KubeObject[];
  /** Which kind `endpoints` came from. */
  endpointSource?: 'EndpointSlice' | 'Endpoints';
}

export interface WatchOptions {
  /** Called on each failure before the next retry (the watch goes on; call the disposer to stop it). */
  onError?: (e: ClusterError, retryInMs: number) => void;
  /** First retry delay (doubles to `maxBackoffMs`). Default 1 s. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export interface SessionOptions extends KubeconfigOptions {
  /** Default per-call timeout (ms). */
  timeoutMs?: number;
}

export interface ContextInfo {
  context: string;
  namespace: string;
  server: string;
  user: string;
  cluster: string;
  contexts: string[];
  files: string[];
  skipped: string[];
}

function podPath(ns: string, name?: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(ns)}/pods${name ? `/${encodeURIComponent(name)}` : ''}`;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export class ClusterSession {
  readonly info: ContextInfo;
  readonly transport: ApiTransport;
  /** Whether the cluster serves discovery.k8s.io/v1 (undefined: not asked yet). */
  private slices: boolean | undefined;

  private constructor(loaded: LoadedKubeconfig, timeoutMs: number, reload?: () => Promise<LoadedKubeconfig['kc']>) {
    this.info = {
      context: loaded.context,
      namespace: loaded.namespace,
      server: loaded.server,
      user: loaded.user,
      cluster: loaded.cluster,
      contexts: loaded.contexts,
      files: loaded.files,
      skipped: loaded.skipped,
    };
    this.transport = new ApiTransport(loaded.kc, loaded.server, loaded.user, timeoutMs, reload);
  }

  /** Reads the kubeconfig (kubectl's rules) and picks the context; no request is made yet. */
  static async open(opts: SessionOptions = {}): Promise<ClusterSession> {
    const loaded = await loadKubeconfig(opts);
    if (opts.namespace !== undefined) checkNamespace(opts.namespace);
    const reload = async () => (await loadKubeconfig({ ...opts, context: loaded.context })).kc;
    return new ClusterSession(loaded, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, reload);
  }

  get namespace(): string {
    return this.info.namespace;
  }

  get context(): string {
    return this.info.context;
  }

  dispose(): void {
    this.transport.dispose();
  }

  // ---- raw reads ----

  /**
   * GET a list in pages of `limit` items (500, as kubectl asks), following `continue`: a big cluster's Services or
   * EndpointSlices as one answer can be hundreds of MB, past the answer limit and any timeout.
   */
  async list(path: string, what: RequestWhat, opts: CallOptions & { limit?: number } = {}): Promise<KubeList> {
    const items: KubeObject[] = [];
    const tokens = new Set<string>();
    let pages = 0;
    let cont: string | undefined;
    let resourceVersion: string | undefined;
    do {
      const page = await this.transport.json<KubeList>(path, what, {
        ...opts,
        query: { limit: opts.limit ?? LIST_PAGE_ITEMS, ...(cont ? { continue: cont } : {}) },
      });
      pages++;
      for (const it of page.items ?? []) items.push(it);
      cont = page.metadata?.continue || undefined;
      resourceVersion = page.metadata?.resourceVersion;
      // A server that hands back a token it gave before (a proxy that drops the query, a broken aggregated API),
      // or pages on without end, would have this loop run in silence for ever, its memory growing.
      if (cont !== undefined && (tokens.has(cont) || pages >= MAX_LIST_PAGES || items.length >= MAX_LIST_ITEMS))
        throw endlessListError(what, pages, items.length, tokens.has(cont));
      if (cont !== undefined) tokens.add(cont);
    } while (cont);
    return { metadata: { ...(resourceVersion ? { resourceVersion } : {}) }, items };
  }

  private scopePath(kind: WatchKind, ns: NamespaceScope, slices: boolean): string {
    const base = kind === 'endpoints' && slices ? '/apis/discovery.k8s.io/v1' : '/api/v1';
    const plural = kind === 'endpoints' ? (slices ? 'endpointslices' : 'endpoints') : kind;
    if (kind === 'nodes') return `${base}/nodes`;
    if (ns === ALL_NAMESPACES) return `${base}/${plural}`;
    return `${base}/namespaces/${encodeURIComponent(checkNamespace(ns))}/${plural}`;
  }

  private what(kind: WatchKind, ns: NamespaceScope, verb = 'list'): RequestWhat {
    const resource = kind === 'endpoints' ? (this.slices === false ? 'endpoints' : 'endpointslices') : kind;
    return { verb, resource, ...(kind !== 'nodes' && ns !== ALL_NAMESPACES ? { namespace: ns } : {}) };
  }

  /** Whether discovery.k8s.io/v1 is served (asked once per session; a 1.20 cluster answers 404). */
  async servesEndpointSlices(opts: CallOptions = {}): Promise<boolean> {
    if (this.slices !== undefined) return this.slices;
    const r = await this.transport.raw(
      '/apis/discovery.k8s.io/v1',
      { verb: 'discover', resource: 'discovery.k8s.io/v1' },
      opts,
    );
    if (r.status === 401 || r.status === 403) {
      // Discovery refused: the list below will say why; assume slices.
      this.slices = true;
    } else this.slices = r.status >= 200 && r.status < 300;
    return this.slices;
  }

  /** The raw objects of one kind. */
  async listRaw(
    kind: WatchKind,
    ns: NamespaceScope,
    opts: CallOptions = {},
  ): Promise<KubeList & { endpointSource?: 'EndpointSlice' | 'Endpoints' }> {
    const slices = kind === 'endpoints' ? await this.servesEndpointSlices(opts) : false;
    const list = await this.list(this.scopePath(kind, ns, slices), this.what(kind, ns), opts);
    const apiVersion = kind === 'endpoints' && slices ? 'discovery.k8s.io/v1' : 'v1';
    const k =
      kind === 'endpoints'
        ? slices
          ? 'EndpointSlice'
          : 'Endpoints'
        : kind === 'services'
          ? 'Service'
          : kind === 'pods'
            ? 'Pod'
            : 'Node';
    // Items of a typed list carry no kind: give them theirs so normaliseCluster reads them for what they are.
    for (const it of list.items) {
      it.kind ??= k;
      it.apiVersion ??= apiVersion;
    }
    return kind === 'endpoints' ? { ...list, endpointSource: slices ? 'EndpointSlice' : 'Endpoints' } : list;
  }

  // ---- validated reads ----

  async listServices(ns: NamespaceScope, opts: CallOptions = {}): Promise<ServiceInfo[]> {
    return normaliseCluster((await this.listRaw('services', ns, opts)).items).services;
  }

  async listPods(ns: NamespaceScope, opts: CallOptions = {}): Promise<PodInfo[]> {
    return normaliseCluster((await this.listRaw('pods', ns, opts)).items).pods ?? [];
  }

  async listNodes(opts: CallOptions = {}): Promise<NodeInfo[]> {
    return normaliseCluster((await this.listRaw('nodes', ALL_NAMESPACES, opts)).items).nodes ?? [];
  }

  /** Services and their endpoints (and optionally pods and nodes) as one validated snapshot. */
  async snapshot(
    ns: NamespaceScope,
    opts: CallOptions & { pods?: boolean; nodes?: boolean } = {},
  ): Promise<ClusterSnapshot> {
    const [svc, eps, pods, nodes] = await Promise.all([
      this.listRaw('services', ns, opts),
      this.listRaw('endpoints', ns, opts),
      opts.pods ? this.listRaw('pods', ns, opts) : undefined,
      opts.nodes ? this.listRaw('nodes', ALL_NAMESPACES, opts) : undefined,
    ]);
    return normaliseCluster([...svc.items, ...eps.items, ...(pods?.items ?? []), ...(nodes?.items ?? [])]);
  }

  async getService(ns: string, name: string, opts: CallOptions = {}): Promise<KubeObject> {
    checkNamespace(ns);
    checkServiceName(name);
    const o = await this.transport.json<KubeObject>(
      `/api/v1/namespaces/${ns}/services/${name}`,
      { verb: 'get', resource: 'services', namespace: ns, name },
      opts,
    );
    o.kind ??= 'Service';
    return o;
  }

  /** The endpoints of one Service (slices by label, or the Endpoints object), raw. */
  async getServiceEndpoints(ns: string, name: string, opts: CallOptions = {}): Promise<KubeObject[]> {
    checkNamespace(ns);
    checkServiceName(name);
    if (await this.servesEndpointSlices(opts)) {
      const list = await this.transport.json<KubeList>(
        `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`,
        { verb: 'list', resource: 'endpointslices', namespace: ns },
        { ...opts, query: { labelSelector: `kubernetes.io/service-name=${name}` } },
      );
      return (list.items ?? []).map((it) => ({ ...it, kind: 'EndpointSlice', apiVersion: 'discovery.k8s.io/v1' }));
    }
    try {
      const o = await this.transport.json<KubeObject>(
        `/api/v1/namespaces/${ns}/endpoints/${name}`,
        { verb: 'get', resource: 'endpoints', namespace: ns, name },
        opts,
      );
      return [{ ...o, kind: 'Endpoints', apiVersion: 'v1' }];
    } catch (e) {
      if (isClusterError(e) && e.code === 'not-found') return [];
      throw e;
    }
  }

  async getPod(ns: string, name: string, opts: CallOptions = {}): Promise<KubeObject> {
    checkNamespace(ns);
    checkPodName(name);
    const o = await this.transport.json<KubeObject>(
      podPath(ns, name),
      { verb: 'get', resource: 'pods', namespace: ns, name },
      opts,
    );
    o.kind ??= 'Pod';
    return o;
  }

  async getNode(name: string, opts: CallOptions = {}): Promise<KubeObject> {
    checkNodeName(name);
    const o = await this.transport.json<KubeObject>(
      `/api/v1/nodes/${name}`,
      { verb: 'get', resource: 'nodes', name },
      opts,
    );
    o.kind ??= 'Node';
    return o;
  }

  /** Pods matching a label selector (and optionally a field selector such as `spec.nodeName=node-a`). */
  async findPods(
    ns: NamespaceScope,
    labelSelector: string,
    fieldSelector?: string,
    opts: CallOptions = {},
  ): Promise<KubeObject[]> {
    const path = ns === ALL_NAMESPACES ? '/api/v1/pods' : podPath(checkNamespace(ns));
    const list = await this.transport.json<KubeList>(
      path,
      { verb: 'list', resource: 'pods', ...(ns !== ALL_NAMESPACES ? { namespace: ns } : {}) },
      { ...opts, query: { labelSelector, ...(fieldSelector ? { fieldSelector } : {}) } },
    );
    return (list.items ?? []).map((it) => ({ ...it, kind: 'Pod' }));
  }

  // ---- watch ----

  /**
   * Lists, then watches, one kind in one namespace (or all). `onEvent` gets a SYNC with the whole list first and
   * after every relist, then single changes. Failures (an ERROR event among them) go to `onError` and are retried
   * with backoff (1 s doubling to 30 s); a 410 Gone relists; a watch that ends within 5 s is followed by the same
   * backoff, which a watch that lasts resets. Returns the disposer.
   */
  watch(kind: WatchKind, ns: NamespaceScope, onEvent: (e: WatchEvent) => void, opts: WatchOptions = {}): () => void {
    const ctl = new AbortController();
    const signal = ctl.signal;
    const first = opts.backoffMs ?? 1000;
    const max = opts.maxBackoffMs ?? 30_000;
    const run = async () => {
      let delay = first;
      let rv: string | undefined;
      while (!signal.aborted) {
        try {
          if (rv === undefined) {
            const list = await this.listRaw(kind, ns, { signal });
            rv = list.metadata?.resourceVersion ?? '';
            if (signal.aborted) return;
            onEvent({
              type: 'SYNC',
              objects: list.items,
              ...(list.endpointSource ? { endpointSource: list.endpointSource } : {}),
            });
          }
          const slices = kind === 'endpoints' ? this.slices !== false : false;
          let gone = false;
          let failed: { code?: number; message?: string } | undefined;
          const started = Date.now();
          await this.transport.stream(
            this.scopePath(kind, ns, slices),
            this.what(kind, ns, 'watch'),
            (line) => {
              let ev: { type?: string; object?: KubeObject };
              try {
                ev = JSON.parse(line);
              } catch {
                return;
              }
              const o = ev.object;
              if (ev.type === 'ERROR') {
                const status = (o ?? {}) as { code?: number; message?: string };
                if (status.code === 410) gone = true;
                else failed ??= status;
                return;
              }
              if (o?.metadata?.resourceVersion) rv = o.metadata.resourceVersion;
              if (ev.type === 'BOOKMARK' || !o) return;
              if (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED') {
                onEvent({
                  type: ev.type,
                  object: o,
                  ...(kind === 'endpoints' ? { endpointSource: slices ? 'EndpointSlice' : 'Endpoints' } : {}),
                });
              }
            },
            {
              signal,
              query: { watch: 1, allowWatchBookmarks: true, resourceVersion: rv || undefined, timeoutSeconds: 290 },
            },
          );
          if (failed) throw watchErrorEvent(this.what(kind, ns, 'watch'), failed);
          if (gone) rv = undefined;
          // A watch the server (or a proxy's idle timeout) ends at once would otherwise be asked again at once,
          // hundreds of times a second: pause, longer each time, until watches last again.
          // 410 Gone is the protocol's "list again": at once. Any other quick end pauses.
          if (!gone && Date.now() - started < SHORT_WATCH_MS) {
            await sleep(delay, signal);
            delay = Math.min(max, delay * 2);
          } else delay = first;
        } catch (e) {
          if (signal.aborted) return;
          const err = isClusterError(e) ? e : new ClusterError('api', (e as Error).message ?? String(e));
          if (err.status === 410) rv = undefined;
          else if (err.code !== 'timeout') rv = undefined; // relist after a broken connection: events may be lost
          try {
            opts.onError?.(err, delay);
          } catch {
            // a listener's bug must not end the watch
          }
          await sleep(delay, signal);
          delay = Math.min(max, delay * 2);
        }
      }
    };
    void run().catch(() => undefined);
    return () => ctl.abort();
  }

  // ---- exec and writes ----

  /** Runs argv in a container (argv array only). Rejects with ClusterError for refusals (403 `exec-forbidden`, 404). */
  async exec(ns: string, pod: string, argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
    checkNamespace(ns);
    checkPodName(pod);
    if (opts.container !== undefined) checkContainerName(opts.container);
    return execInPod(this.transport, ns, pod, argv, opts);
  }

  async createPod(ns: string, pod: KubeObject, opts: CallOptions = {}): Promise<KubeObject> {
    checkNamespace(ns);
    return this.transport.json<KubeObject>(
      podPath(ns),
      { verb: 'create', resource: 'pods', namespace: ns },
      {
        ...opts,
        method: 'POST',
        body: pod,
      },
    );
  }

  /** Deletes a pod; a pod already gone is not an error. */
  async deletePod(ns: string, name: string, opts: CallOptions & { gracePeriodSeconds?: number } = {}): Promise<void> {
    checkNamespace(ns);
    checkPodName(name);
    try {
      await this.transport.json(
        podPath(ns, name),
        { verb: 'delete', resource: 'pods', namespace: ns, name },
        {
          ...opts,
          method: 'DELETE',
          body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: opts.gracePeriodSeconds ?? 0 },
        },
      );
    } catch (e) {
      if (isClusterError(e) && e.code === 'not-found') return;
      throw e;
    }
  }

  /** Adds an ephemeral container (strategic-merge patch of the ephemeralcontainers subresource). */
  async addEphemeralContainer(
    ns: string,
    pod: string,
    container: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<KubeObject> {
    checkNamespace(ns);
    checkPodName(pod);
    return this.transport.json<KubeObject>(
      `${podPath(ns, pod)}/ephemeralcontainers`,
      { verb: 'add an ephemeral container to', resource: 'pods', namespace: ns, name: pod },
      {
        ...opts,
        method: 'PATCH',
        contentType: 'application/strategic-merge-patch+json',
        body: { spec: { ephemeralContainers: [container] } },
      },
    );
  }

  /** Polls a pod until `ready(pod)` says yes; rejects with a clear message when it fails, disappears or times out. */
  async waitForPod(
    ns: string,
    name: string,
    ready: (pod: KubeObject) => boolean | CatalogText,
    opts: CallOptions & { intervalMs?: number } = {},
  ): Promise<KubeObject> {
    const timeoutMs = opts.timeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (opts.signal?.aborted) throw cancelledError();
      const pod = await this.getPod(ns, name, {
        signal: opts.signal,
        timeoutMs: Math.min(this.transport.defaultTimeoutMs, Math.max(1000, deadline - Date.now())),
      });
      const r = ready(pod);
      if (r === true) return pod;
      if (typeof r === 'object') throw new ClusterError('api', r, '');
      if (Date.now() > deadline) {
        throw new ClusterError(
          'timeout',
          errorText('pod-not-ready', { pod: `${ns}/${name}`, seconds: Math.round(timeoutMs / 1000) }),
          hintText('pod-not-ready', { namespace: ns, name }),
        );
      }
      await sleep(opts.intervalMs ?? 250, opts.signal);
    }
  }
}
