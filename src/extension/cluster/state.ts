/**
 * What the sidebar knows of the chosen kube context: Services, their endpoints and the nodes, kept current by
 * watches (src/cluster does the I/O). The context and namespace chosen here are the extension's own (remembered
 * in its global state); the user's kubeconfig is never rewritten. Every failure is kept where it happened, so the
 * tree shows it on the row it concerns and everything else keeps working.
 */
import * as vscode from 'vscode';
import { normaliseCluster } from '../../core/kube/objects';
import {
  serviceKey,
  type EndpointInfo,
  type EndpointsByPort,
  type NodeInfo,
  type ServiceInfo,
} from '../../core/kube/types';
import {
  ALL_NAMESPACES,
  ClusterError,
  ClusterSession,
  isClusterError,
  type KubeObject,
  type WatchEvent,
  type WatchKind,
} from '../../cluster';
import { readSettings } from '../config';

const CONTEXT_KEY = 'kubePacketPath.cluster.context';
const NAMESPACE_KEY = 'kubePacketPath.cluster.namespace';

export type Section = 'session' | WatchKind;

/** A failure as a sentence; anything that is not a ClusterError keeps its own message. */
export function asClusterError(e: unknown): ClusterError {
  if (isClusterError(e)) return e;
  return new ClusterError('api', e instanceof Error ? e.message : String(e));
}

function objectKey(o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

/** The Service a raw endpoints object belongs to: a slice's label, or the Endpoints object's own name. */
function ownerKey(o: KubeObject): string | undefined {
  const ns = o.metadata?.namespace;
  const owner = o.kind === 'EndpointSlice' ? o.metadata?.labels?.['kubernetes.io/service-name'] : o.metadata?.name;
  return ns && owner ? serviceKey(ns, owner) : undefined;
}

export class ClusterState implements vscode.Disposable {
  private session: ClusterSession | undefined;
  private opening: Promise<ClusterSession> | undefined;
  private readonly stops: (() => void)[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires (debounced) when anything the tree shows has changed. */
  readonly onDidChange = this.changed.event;
  private changeTimer: NodeJS.Timeout | undefined;

  readonly services = new Map<string, ServiceInfo>();
  /** The same Services by namespace: a namespace row lists its own without scanning every Service. */
  private readonly servicesByNamespace = new Map<string, Map<string, ServiceInfo>>();
  private readonly rawEndpoints = new Map<string, KubeObject>();
  /** Service key -> keys of its raw endpoints objects. */
  private readonly endpointOwners = new Map<string, Set<string>>();
  private readonly endpointCache = new Map<string, EndpointsByPort>();
  readonly nodes = new Map<string, NodeInfo>();
  /** Node name -> its kube-proxy pod (`kube-system/kube-proxy-x`), read when the Nodes folder opens. */
  kubeProxyPods: Map<string, string> | undefined;
  readonly errors = new Map<Section, ClusterError>();
  readonly synced = new Set<WatchKind>();
  filter = '';

  constructor(private readonly memento: vscode.Memento) {}

  /** The context chosen in the extension, or undefined for the kubeconfig's current-context. */
  get chosenContext(): string | undefined {
    return this.memento.get<string>(CONTEXT_KEY) || undefined;
  }

  /** `*` for every namespace (the default), else one namespace. */
  get namespaceScope(): string {
    return this.memento.get<string>(NAMESPACE_KEY) || ALL_NAMESPACES;
  }

  get current(): ClusterSession | undefined {
    return this.session;
  }

  /** The session, opened (kubeconfig read) on first use. Rejects with a ClusterError the caller shows. */
  async open(): Promise<ClusterSession> {
    if (this.session) return this.session;
    this.opening ??= (async () => {
      const settings = readSettings();
      const context = this.chosenContext;
      return ClusterSession.open({
        ...(settings.kubeconfig ? { kubeconfig: settings.kubeconfig } : {}),
        ...(context ? { context } : {}),
        timeoutMs: settings.requestTimeoutSeconds * 1000,
      });
    })();
    try {
      this.session = await this.opening;
      this.errors.delete('session');
      return this.session;
    } catch (e) {
      this.errors.set('session', asClusterError(e));
      throw this.errors.get('session');
    } finally {
      this.opening = undefined;
    }
  }

  /** (Re)connects: forgets everything, opens the session and starts the watches. */
  async connect(): Promise<void> {
    this.disconnect();
    try {
      await this.open();
    } catch {
      this.fire();
      return;
    }
    this.startWatches();
    this.fire();
  }

  async setContext(context: string | undefined): Promise<void> {
    await this.memento.update(CONTEXT_KEY, context);
    await this.connect();
  }

  async setNamespace(ns: string): Promise<void> {
    await this.memento.update(NAMESPACE_KEY, ns === ALL_NAMESPACES ? undefined : ns);
    await this.connect();
  }

  setFilter(text: string): void {
    this.filter = text.trim().toLowerCase();
    this.fire();
  }

  private startWatches(): void {
    const s = this.session;
    if (!s) return;
    const scope = this.namespaceScope;
    const watch = (kind: WatchKind, ns: string, apply: (e: WatchEvent) => void) =>
      this.stops.push(
        s.watch(
          kind,
          ns,
          (e) => {
            this.errors.delete(kind);
            this.synced.add(kind);
            apply(e);
            this.fire();
          },
          {
            onError: (err) => {
              this.errors.set(kind, err);
              this.fire();
            },
          },
        ),
      );
    watch('services', scope, (e) => this.applyServices(e));
    watch('endpoints', scope, (e) => this.applyEndpoints(e));
    watch('nodes', ALL_NAMESPACES, (e) => this.applyNodes(e));
  }

  private applyServices(e: WatchEvent): void {
    if (e.type === 'SYNC') {
      this.clearServices();
      for (const svc of normaliseCluster(e.objects ?? []).services) this.setService(svc);
      return;
    }
    if (!e.object) return;
    const key = objectKey(e.object);
    const svc = e.type === 'DELETED' ? undefined : normaliseCluster([e.object]).services[0];
    if (svc) this.setService(svc);
    else this.deleteService(key);
  }

  private setService(svc: ServiceInfo): void {
    const key = serviceKey(svc.namespace, svc.name);
    this.services.set(key, svc);
    let inNs = this.servicesByNamespace.get(svc.namespace);
    if (!inNs) this.servicesByNamespace.set(svc.namespace, (inNs = new Map()));
    inNs.set(key, svc);
  }

  private deleteService(key: string): void {
    const svc = this.services.get(key);
    if (!svc) return;
    this.services.delete(key);
    const inNs = this.servicesByNamespace.get(svc.namespace);
    inNs?.delete(key);
    if (inNs && inNs.size === 0) this.servicesByNamespace.delete(svc.namespace);
  }

  private clearServices(): void {
    this.services.clear();
    this.servicesByNamespace.clear();
  }

  private applyEndpoints(e: WatchEvent): void {
    const add = (o: KubeObject) => {
      const key = `${o.kind ?? ''}:${objectKey(o)}`;
      const owner = ownerKey(o);
      this.rawEndpoints.set(key, o);
      if (!owner) return;
      let set = this.endpointOwners.get(owner);
      if (!set) this.endpointOwners.set(owner, (set = new Set()));
      set.add(key);
      this.endpointCache.delete(owner);
    };
    if (e.type === 'SYNC') {
      this.rawEndpoints.clear();
      this.endpointOwners.clear();
      this.endpointCache.clear();
      for (const o of e.objects ?? []) add(o);
      return;
    }
    if (!e.object) return;
    const o = e.object;
    if (e.type === 'DELETED') {
      const key = `${o.kind ?? ''}:${objectKey(o)}`;
      this.rawEndpoints.delete(key);
      const owner = ownerKey(o);
      if (owner) {
        this.endpointOwners.get(owner)?.delete(key);
        this.endpointCache.delete(owner);
      }
    } else add(o);
  }

  private applyNodes(e: WatchEvent): void {
    if (e.type === 'SYNC') {
      this.nodes.clear();
      for (const n of normaliseCluster(e.objects ?? []).nodes ?? []) this.nodes.set(n.name, n);
      return;
    }
    if (!e.object) return;
    const name = e.object.metadata?.name ?? '';
    if (e.type === 'DELETED') this.nodes.delete(name);
    else {
      const n = normaliseCluster([e.object]).nodes?.[0];
      if (n) this.nodes.set(name, n);
    }
  }

  /** The endpoints of one Service by port name, built from its slices (or Endpoints) when first asked. */
  endpointsOf(key: string): EndpointsByPort {
    const cached = this.endpointCache.get(key);
    if (cached) return cached;
    const objects = [...(this.endpointOwners.get(key) ?? [])]
      .map((k) => this.rawEndpoints.get(k))
      .filter((o): o is KubeObject => !!o);
    const byPort = normaliseCluster(objects).endpoints[key] ?? {};
    this.endpointCache.set(key, byPort);
    return byPort;
  }

  /** Whether the Service should have endpoints and none is ready (the tree's warning icon). */
  lacksReadyEndpoints(svc: ServiceInfo): boolean {
    if (svc.type === 'ExternalName' || !this.synced.has('endpoints')) return false;
    const all: EndpointInfo[] = Object.values(this.endpointsOf(serviceKey(svc.namespace, svc.name))).flat();
    return !all.some((e) => e.ready);
  }

  namespaces(): string[] {
    const scope = this.namespaceScope;
    if (scope !== ALL_NAMESPACES) return [scope];
    return [...this.servicesByNamespace.keys()].sort();
  }

  servicesIn(ns: string): ServiceInfo[] {
    const out: ServiceInfo[] = [];
    for (const svc of this.servicesByNamespace.get(ns)?.values() ?? []) {
      if (this.filter && !svc.name.toLowerCase().includes(this.filter)) continue;
      out.push(svc);
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Reads the kube-proxy pods once (the Nodes folder); a failure is kept as the `pods` section's error. */
  async loadKubeProxyPods(): Promise<void> {
    if (this.kubeProxyPods || !this.session) return;
    try {
      const pods = await this.session.findPods('kube-system', 'k8s-app=kube-proxy');
      const byNode = new Map<string, string>();
      for (const p of pods) {
        const node = typeof p.spec?.nodeName === 'string' ? p.spec.nodeName : undefined;
        if (node && p.metadata?.name) byNode.set(node, `kube-system/${p.metadata.name}`);
      }
      this.kubeProxyPods = byNode;
      this.errors.delete('pods');
    } catch (e) {
      this.errors.set('pods', asClusterError(e));
    }
    this.fire();
  }

  private fire(): void {
    // Watches of a big cluster deliver bursts of events: redraw once per burst.
    if (this.changeTimer) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      this.changed.fire();
    }, 150);
  }

  disconnect(): void {
    for (const stop of this.stops.splice(0)) stop();
    this.session?.dispose();
    this.session = undefined;
    this.clearServices();
    this.rawEndpoints.clear();
    this.endpointOwners.clear();
    this.endpointCache.clear();
    this.nodes.clear();
    this.kubeProxyPods = undefined;
    this.errors.clear();
    this.synced.clear();
  }

  dispose(): void {
    this.disconnect();
    if (this.changeTimer) clearTimeout(this.changeTimer);
    this.changed.dispose();
  }
}
