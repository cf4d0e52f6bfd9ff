// The lab's object store: objects by resource type, a resourceVersion counter, and an event history for watches.
import { randomUUID } from 'node:crypto';
import { convertTo } from './conversion';
import { resourceTypeFor, groupVersionOf, type ResourceType } from './resources';
import type { KubeObject, LabStore } from './types';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  rv: number;
  type: EventType;
  resource: ResourceType;
  object: KubeObject;
  /** The object before a MODIFIED event (selectors decide ADDED/DELETED for a watcher from both). */
  previous?: KubeObject;
}

const historyLimit = 10_000;

export function nowTimestamp(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

function keyOf(ns: string | undefined, name: string): string {
  return `${ns ?? ''}/${name}`;
}

function requireType(kindOrPlural: string): ResourceType {
  const type = resourceTypeFor(kindOrPlural);
  if (!type) throw new Error(`the lab API server does not serve kind "${kindOrPlural}"`);
  return type;
}

export class ObjectStore implements LabStore {
  private rv = 0;
  private readonly objects = new Map<ResourceType, Map<string, KubeObject>>();
  private readonly history: StoreEvent[] = [];
  private readonly listeners = new Set<(e: StoreEvent) => void>();

  constructor(initial: KubeObject[]) {
    for (const o of initial) this.upsert(o);
  }

  get resourceVersion(): number {
    return this.rv;
  }

  private bucket(type: ResourceType): Map<string, KubeObject> {
    let b = this.objects.get(type);
    if (!b) {
      b = new Map();
      this.objects.set(type, b);
    }
    return b;
  }

  private record(e: Omit<StoreEvent, 'rv'>): void {
    const event = { ...e, rv: this.rv };
    this.history.push(event);
    if (this.history.length > historyLimit) this.history.shift();
    for (const l of [...this.listeners]) l(event);
  }

  /** Stores a copy (in the storage version, with uid/creationTimestamp/resourceVersion filled) and returns it. */
  upsert(input: KubeObject): KubeObject {
    const type = requireType(input.kind);
    if (!input.metadata?.name) throw new Error(`cannot store a ${type.kind} without metadata.name`);
    const copy = convertTo(structuredClone(input), type.storageVersion);
    copy.apiVersion = groupVersionOf(type.group, type.storageVersion);
    copy.kind = type.kind;
    if (type.namespaced) copy.metadata.namespace ||= 'default';
    else delete copy.metadata.namespace;
    const key = keyOf(copy.metadata.namespace, copy.metadata.name);
    const bucket = this.bucket(type);
    const previous = bucket.get(key);
    this.rv++;
    copy.metadata.uid ??= previous?.metadata.uid ?? randomUUID();
    copy.metadata.creationTimestamp ??= previous?.metadata.creationTimestamp ?? nowTimestamp();
    copy.metadata.resourceVersion = String(this.rv);
    bucket.set(key, copy);
    this.record({ type: previous ? 'MODIFIED' : 'ADDED', resource: type, object: copy, previous });
    return structuredClone(copy);
  }

  /** Removes an object (kind like "Pod" or plural like "pods"); returns what was removed. */
  remove(kindOrPlural: string, ns: string | undefined, name: string): KubeObject | undefined {
    const type = requireType(kindOrPlural);
    const key = keyOf(type.namespaced ? ns || 'default' : undefined, name);
    const bucket = this.bucket(type);
    const existing = bucket.get(key);
    if (!existing) return undefined;
    bucket.delete(key);
    this.rv++;
    const gone = structuredClone(existing);
    gone.metadata.resourceVersion = String(this.rv);
    this.record({ type: 'DELETED', resource: type, object: gone });
    return structuredClone(gone);
  }

  get(type: ResourceType, ns: string | undefined, name: string): KubeObject | undefined {
    const o = this.bucket(type).get(keyOf(type.namespaced ? ns : undefined, name));
    return o && structuredClone(o);
  }

  /** Sorted by namespace then name, as the real server's storage keys are. */
  listType(type: ResourceType, ns?: string): KubeObject[] {
    return [...this.bucket(type).entries()]
      .filter(([, o]) => ns === undefined || !type.namespaced || o.metadata.namespace === ns)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => structuredClone(o));
  }

  list(kindOrPlural: string, ns?: string): KubeObject[] {
    return this.listType(requireType(kindOrPlural), ns);
  }

  /** Events after `rv`, or undefined when history no longer reaches back that far. */
  eventsSince(rv: number): StoreEvent[] | undefined {
    const oldest = this.history[0];
    if (oldest && rv < oldest.rv - 1) return undefined;
    return this.history.filter((e) => e.rv > rv);
  }

  subscribe(listener: (e: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
