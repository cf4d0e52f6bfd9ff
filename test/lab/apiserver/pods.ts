// Pod writes: create (then Running via the createPod callback), delete, ephemeral containers.
import { randomBytes } from 'node:crypto';
import { resourceTypeFor } from './resources';
import { errors, type StatusCause } from './status';
import { nowTimestamp, type ObjectStore } from './store';
import type { KubeObject, LabApiServerOptions } from './types';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]).map(obj) : []);

export interface PodHost {
  store: ObjectStore;
  options: Pick<LabApiServerOptions, 'createPod' | 'deletePod' | 'addEphemeralContainer'>;
  log(line: string): void;
}

const podType = resourceTypeFor('Pod')!;
const nodeType = resourceTypeFor('Node')!;
const namespaceType = resourceTypeFor('Namespace')!;

const dnsLabel = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
type Cause = Required<Pick<StatusCause, 'reason' | 'message' | 'field'>>;

const required = (field: string, why = 'Required value'): Cause => ({
  reason: 'FieldValueRequired',
  message: why,
  field,
});
const invalidValue = (field: string, value: string, why: string): Cause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: "${value}": ${why}`,
  field,
});

function containerCauses(containers: Obj[], field: string, taken: Set<string>): Cause[] {
  const causes: Cause[] = [];
  containers.forEach((c, i) => {
    const at = `${field}[${i}]`;
    if (typeof c.name !== 'string' || !c.name) causes.push(required(`${at}.name`));
    else if (!dnsLabel.test(c.name))
      causes.push(
        invalidValue(
          `${at}.name`,
          c.name,
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'",
        ),
      );
    else if (taken.has(c.name))
      causes.push({ reason: 'FieldValueDuplicate', message: `Duplicate value: "${c.name}"`, field: `${at}.name` });
    else taken.add(c.name);
    if (typeof c.image !== 'string' || !c.image) causes.push(required(`${at}.image`));
  });
  return causes;
}

/** Every container name of a pod (regular, init and ephemeral), for exec's container check. */
export function containerNames(pod: KubeObject): { regular: string[]; all: string[] } {
  const spec = obj(pod.spec);
  const names = (v: unknown) => arr(v).map((c) => String(c.name));
  const regular = names(spec.containers);
  return { regular, all: [...regular, ...names(spec.initContainers), ...names(spec.ephemeralContainers)] };
}

function randomSuffix(): string {
  // The alphabet the real server uses for generateName (no vowels, no look-alikes).
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return [...randomBytes(5)].map((b) => alphabet[b % alphabet.length]).join('');
}

function runningStatus(pod: KubeObject, returned: Obj): Obj {
  const now = nowTimestamp();
  const status: Obj = { ...obj(pod.status), ...returned };
  status.phase = returned.phase ?? 'Running';
  status.startTime ??= now;
  if (!returned.conditions) {
    status.conditions = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
      type,
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: now,
    }));
  }
  status.containerStatuses ??= arr(obj(pod.spec).containers).map((c) => ({
    name: c.name,
    image: c.image,
    imageID: '',
    ready: true,
    started: true,
    restartCount: 0,
    state: { running: { startedAt: now } },
    lastState: {},
  }));
  return status;
}

/** Re-stores a pod only if it is still the same pod (not deleted or re-created meanwhile). */
function updateIfSame(host: PodHost, pod: KubeObject, change: (current: KubeObject) => KubeObject): void {
  const current = host.store.get(podType, pod.metadata.namespace, pod.metadata.name);
  if (current && current.metadata.uid === pod.metadata.uid) host.store.upsert(change(current));
}

export function createPod(host: PodHost, namespace: string, body: unknown, dryRun: boolean): KubeObject {
  const input = obj(body);
  if (input.kind !== undefined && input.kind !== 'Pod')
    throw errors.badRequest(`the object kind "${String(input.kind)}" does not match the resource pods (kind Pod)`);
  if (input.apiVersion !== undefined && input.apiVersion !== 'v1') {
    throw errors.badRequest(
      `the API version in the data (${String(input.apiVersion)}) does not match the expected API version (v1)`,
    );
  }
  const meta = obj(input.metadata);
  if (meta.namespace !== undefined && meta.namespace !== namespace) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const name =
    typeof meta.name === 'string' && meta.name
      ? meta.name
      : typeof meta.generateName === 'string' && meta.generateName
        ? meta.generateName + randomSuffix()
        : '';
  const spec = obj(input.spec);
  const causes: Cause[] = [];
  if (!name) causes.push(required('metadata.name', 'Required value: name or generateName is required'));
  else if (!dnsSubdomain.test(name))
    causes.push(
      invalidValue(
        'metadata.name',
        name,
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'",
      ),
    );
  const containers = arr(spec.containers);
  if (containers.length === 0) causes.push(required('spec.containers'));
  causes.push(...containerCauses(containers, 'spec.containers', new Set()));
  const nodeName = spec.nodeName;
  if (typeof nodeName !== 'string' || !nodeName) {
    causes.push(
      required('spec.nodeName', 'Required value: the lab runs only pods pinned to a node with spec.nodeName'),
    );
  } else if (!host.store.get(nodeType, undefined, nodeName)) {
    causes.push({ reason: 'FieldValueNotFound', message: `Not found: "${nodeName}"`, field: 'spec.nodeName' });
  }
  if (causes.length) throw errors.invalid('Pod', name, causes);
  if (!host.store.get(namespaceType, undefined, namespace)) throw errors.notFound('namespaces', '', namespace);
  if (host.store.get(podType, namespace, name)) throw errors.alreadyExists('pods', '', name);
  if (!host.options.createPod)
    throw errors.methodNotAllowed('creating pods is not enabled in this lab (no createPod handler)');

  const { generateName: _g, ...restMeta } = meta;
  const pod: KubeObject = {
    ...input,
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...restMeta, ...(meta.generateName ? { generateName: meta.generateName } : {}), name, namespace },
    spec,
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: nowTimestamp() }],
      qosClass: 'BestEffort',
    },
  };
  if (dryRun) return pod;
  const stored = host.store.upsert(pod);
  const createPodCallback = host.options.createPod;
  void Promise.resolve()
    .then(() => createPodCallback(structuredClone(stored)))
    .then(
      (returned) =>
        updateIfSame(host, stored, (current) => ({
          ...current,
          metadata: {
            ...current.metadata,
            ...obj(returned.metadata),
            name: current.metadata.name,
            namespace: current.metadata.namespace,
            uid: current.metadata.uid,
          },
          status: runningStatus(current, obj(returned.status)),
        })),
      (e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        host.log(`createPod ${namespace}/${name} failed: ${message}`);
        updateIfSame(host, stored, (current) => ({
          ...current,
          status: { ...obj(current.status), phase: 'Failed', reason: 'LabCreateFailed', message },
        }));
      },
    );
  return stored;
}

export function deletePod(host: PodHost, namespace: string, name: string, dryRun: boolean): KubeObject {
  const pod = host.store.get(podType, namespace, name);
  if (!pod) throw errors.notFound('pods', '', name);
  if (dryRun || pod.metadata.deletionTimestamp) return pod;
  const callback = host.options.deletePod;
  if (!callback) return host.store.remove('Pod', namespace, name) ?? pod;
  // Graceful deletion as on a real cluster: Terminating first, gone once the runtime has stopped it.
  const terminating = host.store.upsert({
    ...pod,
    metadata: { ...pod.metadata, deletionTimestamp: nowTimestamp(), deletionGracePeriodSeconds: 0 },
  });
  void Promise.resolve()
    .then(() => callback(namespace, name))
    .catch((e: unknown) =>
      host.log(`deletePod ${namespace}/${name} failed: ${e instanceof Error ? e.message : String(e)}`),
    )
    .finally(() => {
      const current = host.store.get(podType, namespace, name);
      if (current && current.metadata.uid === pod.metadata.uid) host.store.remove('Pod', namespace, name);
    });
  return terminating;
}

/** Containers in a PATCH/PUT of pods/{name}/ephemeralcontainers, by body format. */
function ephemeralContainersIn(format: string, body: unknown): Obj[] {
  if (format === 'json-patch') {
    if (!Array.isArray(body)) throw errors.badRequest('a JSON patch must be an array of operations');
    return (body as Obj[]).flatMap((op) => {
      if (op.op !== 'add' && op.op !== 'replace') return [];
      const p = String(op.path ?? '');
      if (p === '/spec/ephemeralContainers') return arr(op.value);
      return /^\/spec\/ephemeralContainers\/(-|\d+)$/.test(p) ? [obj(op.value)] : [];
    });
  }
  return arr(obj(obj(body).spec).ephemeralContainers);
}

export function addEphemeralContainers(
  host: PodHost,
  namespace: string,
  name: string,
  format: string,
  body: unknown,
): KubeObject {
  const pod = host.store.get(podType, namespace, name);
  if (!pod) throw errors.notFound('pods', '', name);
  const spec = obj(pod.spec);
  const existing = arr(spec.ephemeralContainers);
  const existingNames = new Set(existing.map((c) => String(c.name)));
  const fresh = ephemeralContainersIn(format, body).filter((c) => !existingNames.has(String(c.name)));
  if (fresh.length === 0) return pod;
  const taken = new Set(containerNames(pod).all);
  const causes = containerCauses(fresh, `spec.ephemeralContainers`, taken);
  if (causes.length) throw errors.invalid('Pod', name, causes);
  const callback = host.options.addEphemeralContainer;
  if (!callback)
    throw errors.methodNotAllowed(
      'ephemeral containers are not enabled in this lab (no addEphemeralContainer handler)',
    );

  const waiting = fresh.map((c) => ({
    name: c.name,
    image: c.image,
    imageID: '',
    ready: false,
    restartCount: 0,
    state: { waiting: { reason: 'ContainerCreating' } },
    lastState: {},
  }));
  const status = obj(pod.status);
  const stored = host.store.upsert({
    ...pod,
    spec: { ...spec, ephemeralContainers: [...existing, ...fresh] },
    status: { ...status, ephemeralContainerStatuses: [...arr(status.ephemeralContainerStatuses), ...waiting] },
  });
  for (const container of fresh) {
    const setState = (state: Obj) =>
      updateIfSame(host, stored, (current) => {
        const st = obj(current.status);
        const statuses = arr(st.ephemeralContainerStatuses).map((s) =>
          s.name === container.name ? { ...s, state } : s,
        );
        return { ...current, status: { ...st, ephemeralContainerStatuses: statuses } };
      });
    void Promise.resolve()
      .then(() => callback(namespace, name, structuredClone(container)))
      .then(
        () => setState({ running: { startedAt: nowTimestamp() } }),
        (e: unknown) => {
          const message = e instanceof Error ? e.message : String(e);
          host.log(`addEphemeralContainer ${namespace}/${name}/${String(container.name)} failed: ${message}`);
          setState({
            terminated: { exitCode: 128, reason: 'StartError', message, startedAt: null, finishedAt: nowTimestamp() },
          });
        },
      );
  }
  return stored;
}
