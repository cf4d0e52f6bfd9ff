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
  /** Each bucket's keys in storage order, kept until a key is added or removed (lists page through them). */
  private readonly sortedKeys = new Map<ResourceType, string[]>();
  private readonly history: StoreEvent[] = [];
  private readonly listeners = new Set<(e: StoreEvent) => void>();

  private adopting = false;

  /** `adopt`: the initial objects are the caller's to give away (not copied; a scale lab's 35,000 start faster). */
  constructor(initial: KubeObject[], adopt = false) {
    this.adopting = adopt;
    for (const o of initial) this.store(o);
    this.adopting = false;
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
    // Trimmed in batches (a shift per event is quadratic when a scale lab stores 35,000 objects at start).
    if (this.history.length > historyLimit * 1.5) this.history.splice(0, this.history.length - historyLimit);
    for (const l of [...this.listeners]) l(event);
  }

  /** Stores a copy (in the storage version, with uid/creationTimestamp/resourceVersion filled) and returns it. */
  upsert(input: KubeObject): KubeObject {
    return structuredClone(this.store(input));
  }

  /** upsert without the copy for the caller: returns the stored object itself. */
  private store(input: KubeObject): KubeObject {
    const type = requireType(input.kind);
    if (!input.metadata?.name) throw new Error(`cannot store a ${type.kind} without metadata.name`);
    const copy = convertTo(this.adopting ? input : structuredClone(input), type.storageVersion);
    copy.apiVersion = groupVersionOf(type.group, type.storageVersion);
    copy.kind = type.kind;
    if (type.namespaced) copy.metadata.namespace ||= 'default';
    else delete copy.metadata.namespace;
    const key = keyOf(copy.metadata.namespace, copy.metadata.name);
    const bucket = this.bucket(type);
    const previous = bucket.get(key);
    if (!previous) this.sortedKeys.delete(type);
    this.rv++;
    copy.metadata.uid ??= previous?.metadata.uid ?? randomUUID();
    copy.metadata.creationTimestamp ??= previous?.metadata.creationTimestamp ?? nowTimestamp();
    copy.metadata.resourceVersion = String(this.rv);
    bucket.set(key, copy);
    this.record({ type: previous ? 'MODIFIED' : 'ADDED', resource: type, object: copy, previous });
    return copy;
  }

  /** Removes an object (kind like "Pod" or plural like "pods"); returns what was removed. */
  remove(kindOrPlural: string, ns: string | undefined, name: string): KubeObject | undefined {
    const type = requireType(kindOrPlural);
    const key = keyOf(type.namespaced ? ns || 'default' : undefined, name);
    const bucket = this.bucket(type);
    const existing = bucket.get(key);
    if (!existing) return undefined;
    bucket.delete(key);
    this.sortedKeys.delete(type);
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
    return this.listShared(type, ns).map((o) => structuredClone(o));
  }

  /**
   * The stored objects themselves, sorted as listType, without copying: read them, never change them. Lets a
   * paged list of 15,000 pods copy only the page it sends.
   */
  listShared(type: ResourceType, ns?: string): readonly KubeObject[] {
    const bucket = this.bucket(type);
    let keys = this.sortedKeys.get(type);
    if (!keys) {
      keys = [...bucket.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.sortedKeys.set(type, keys);
    }
    const out: KubeObject[] = [];
    for (const key of keys) {
      const o = bucket.get(key)!;
      if (ns === undefined || !type.namespaced || o.metadata.namespace === ns) out.push(o);
    }
    return out;
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
