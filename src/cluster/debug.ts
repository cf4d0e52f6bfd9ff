/**
 * The two changes a diagnosis may make to a cluster, each only after the caller's confirmation:
 * - an ephemeral debug container in the source pod (shares the pod's network namespace) when the pod has no tools;
 * - a privileged hostNetwork debug pod pinned to a node, when no kube-proxy pod can be used to read the node.
 * Both run `sleep <lifetime>` so they end by themselves even if this process dies; the pod also carries
 * `activeDeadlineSeconds` and is deleted by `dispose()` (call it in `finally`: it runs on cancel and error too).
 * Kubernetes cannot remove an ephemeral container from a pod: it stays listed in the pod's spec, terminated.
 */
import { randomBytes } from 'node:crypto';
import type { Lang } from '../core/i18n/catalog';
import { ClusterError, errorText, hintText, isClusterError, textIn, type CatalogText } from './errors';
import type { CallOptions } from './http';
import type { ClusterSession, KubeObject } from './session';
import { checkImage, checkNamespace, checkNodeName, checkPodName } from './validate';

export const DEFAULT_DEBUG_IMAGE = 'nicolaka/netshoot';
/** How long a debug container or pod lives at most (it ends by itself after this). */
export const DEFAULT_DEBUG_LIFETIME_S = 600;
/** Label on every pod this product creates, for `kubectl get pods -l app.kubernetes.io/managed-by=kube-packet-path`. */
export const MANAGED_BY_LABEL = { 'app.kubernetes.io/managed-by': 'kube-packet-path' };

/** What is about to be created in the cluster, for the person to confirm (each face says it in its language). */
export type PlannedCreation =
  | { kind: 'ephemeral-container'; image: string; namespace: string; pod: string; lifetimeSeconds: number }
  | { kind: 'debug-pod'; image: string; namespace: string; node: string };

/** The planned creation as a phrase of `lang` ("add an ephemeral debug container (image ...) to pod ns/name; ..."). */
/** The creation as a catalog text (a confirmation question, or the cause of a not-confirmed error). */
export function creationText(c: PlannedCreation): CatalogText {
  return c.kind === 'ephemeral-container'
    ? {
        key: 'cluster.create.ephemeral-container',
        params: { image: c.image, pod: `${c.namespace}/${c.pod}`, lifetime: c.lifetimeSeconds },
      }
    : { key: 'cluster.create.debug-pod', params: { image: c.image, node: c.node, namespace: c.namespace } };
}

export function describeCreation(lang: Lang, c: PlannedCreation): string {
  return textIn(lang, creationText(c));
}

/** Asked before anything is created; false or absent: nothing is created (ClusterError `not-confirmed`). */
export type ConfirmCreation = (creation: PlannedCreation) => Promise<boolean>;

export interface DebugOptions extends CallOptions {
  confirm?: ConfirmCreation;
  image?: string;
  lifetimeSeconds?: number;
  /** How long to wait for the container/pod to run (default 90 s: an image pull). */
  startTimeoutMs?: number;
}

export interface DebugHandle {
  namespace: string;
  pod: string;
  container: string;
  /** How it is described in the report. */
  via: string;
  /** Removes what was created (a pod is deleted; an ephemeral container cannot be, it ends at its lifetime). */
  dispose(): Promise<void>;
}

function suffix(): string {
  return randomBytes(3).toString('hex');
}

async function confirmed(opts: DebugOptions, creation: PlannedCreation): Promise<void> {
  const yes = opts.confirm ? await opts.confirm(creation) : false;
  if (!yes) {
    throw new ClusterError(
      'not-confirmed',
      errorText('not-confirmed', { what: creationText(creation) }),
      hintText('not-confirmed'),
    );
  }
}

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

function containerState(pod: KubeObject, name: string, field: string): true | CatalogText | false {
  const st = arr(pod.status?.[field]).find((s) => s.name === name);
  const state = (st?.state ?? {}) as Obj;
  if (state.running) return true;
  const waiting = state.waiting as Obj | undefined;
  const reason = typeof waiting?.reason === 'string' ? waiting.reason : '';
  if (/ErrImagePull|ImagePullBackOff|InvalidImageName|CreateContainerError|CreateContainerConfigError/.test(reason)) {
    return errorText('debug-container-cannot-start', {
      container: name,
      reason: `${reason}${typeof waiting?.message === 'string' ? `: ${waiting.message}` : ''}`,
    });
  }
  const term = state.terminated as Obj | undefined;
  if (term) return errorText('debug-container-ended', { container: name, reason: String(term.reason ?? 'terminated') });
  return false;
}

/** Adds an ephemeral container to `pod` (after confirmation) and waits until it runs. */
export async function addDebugContainer(
  session: ClusterSession,
  namespace: string,
  pod: string,
  opts: DebugOptions = {},
): Promise<DebugHandle> {
  checkNamespace(namespace);
  checkPodName(pod);
  const image = checkImage(opts.image ?? DEFAULT_DEBUG_IMAGE);
  const lifetime = Math.max(30, Math.round(opts.lifetimeSeconds ?? DEFAULT_DEBUG_LIFETIME_S));
  await confirmed(opts, { kind: 'ephemeral-container', image, namespace, pod, lifetimeSeconds: lifetime });
  const name = `kpp-debug-${suffix()}`;
  await session.addEphemeralContainer(
    namespace,
    pod,
    {
      name,
      image,
      command: ['sleep', String(lifetime)],
      imagePullPolicy: 'IfNotPresent',
      stdin: false,
      tty: false,
      terminationMessagePolicy: 'File',
    },
    { signal: opts.signal, timeoutMs: opts.timeoutMs },
  );
  await session.waitForPod(
    namespace,
    pod,
    (p) => {
      if (p.metadata?.deletionTimestamp) return errorText('pod-being-deleted', { pod: `${namespace}/${pod}` });
      return containerState(p, name, 'ephemeralContainerStatuses');
    },
    { signal: opts.signal, timeoutMs: opts.startTimeoutMs ?? 90_000 },
  );
  return {
    namespace,
    pod,
    container: name,
    via: `ephemeral container ${name} (${image}) in ${namespace}/${pod}`,
    // Ephemeral containers cannot be deleted; `sleep` ends it. Nothing else to remove.
    dispose: async () => undefined,
  };
}

/**
 * Creates a privileged hostNetwork pod pinned to `node` (after confirmation), waits until it runs, and returns a
 * handle whose dispose() deletes it (best effort, with its own timeout, also after a cancel).
 */
export async function createNodeDebugPod(
  session: ClusterSession,
  node: string,
  opts: DebugOptions & { namespace?: string } = {},
): Promise<DebugHandle> {
  checkNodeName(node);
  const namespace = checkNamespace(opts.namespace ?? session.namespace);
  const image = checkImage(opts.image ?? DEFAULT_DEBUG_IMAGE);
  const lifetime = Math.max(30, Math.round(opts.lifetimeSeconds ?? DEFAULT_DEBUG_LIFETIME_S));
  await confirmed(opts, { kind: 'debug-pod', image, namespace, node });
  const base = `kpp-node-debug-${node}`.slice(0, 50).replace(/[.-]+$/, '');
  const name = `${base}-${suffix()}`;
  const body: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { ...MANAGED_BY_LABEL, 'kube-packet-path/role': 'node-debug' } },
    spec: {
      nodeName: node,
      hostNetwork: true,
      restartPolicy: 'Never',
      activeDeadlineSeconds: lifetime,
      terminationGracePeriodSeconds: 0,
      tolerations: [{ operator: 'Exists' }],
      containers: [
        {
          name: 'debugger',
          image,
          command: ['sleep', String(lifetime)],
          imagePullPolicy: 'IfNotPresent',
          securityContext: { privileged: true },
        },
      ],
    },
  };
  await session.createPod(namespace, body, { signal: opts.signal, timeoutMs: opts.timeoutMs });
  const dispose = async () => {
    try {
      await session.deletePod(namespace, name, { timeoutMs: 10_000, gracePeriodSeconds: 0 });
    } catch (e) {
      // Leave a sentence the caller can show; the pod still ends at activeDeadlineSeconds.
      throw new ClusterError(
        isClusterError(e) ? e.code : 'api',
        errorText('debug-pod-not-deleted', {
          pod: `${namespace}/${name}`,
          text: isClusterError(e) ? e : (e as Error).message,
        }),
        hintText('debug-pod-not-deleted', { namespace, name }),
      );
    }
  };
  try {
    await session.waitForPod(
      namespace,
      name,
      (p) => {
        if (p.status?.phase === 'Failed')
          return errorText('debug-pod-failed', {
            pod: `${namespace}/${name}`,
            text: String(p.status?.message ?? p.status?.reason ?? ''),
          });
        if (p.status?.phase !== 'Running') {
          const s = containerState(p, 'debugger', 'containerStatuses');
          return typeof s === 'object' ? s : false;
        }
        const s = containerState(p, 'debugger', 'containerStatuses');
        return s === false ? true : s;
      },
      { signal: opts.signal, timeoutMs: opts.startTimeoutMs ?? 90_000 },
    );
  } catch (e) {
    await dispose().catch(() => undefined);
    throw e;
  }
  return { namespace, pod: name, container: 'debugger', via: `debug pod ${namespace}/${name}`, dispose };
}
