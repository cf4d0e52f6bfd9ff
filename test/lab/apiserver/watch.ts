// Watches: a stream of JSON lines {type, object}, from a resourceVersion or starting with ADDED for what exists.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { groupVersionOf } from './resources';
import { matchesSelection, type Selection } from './selectors';
import { presentOne, type Presentation } from './present';
import { failureStatus } from './status';
import type { ObjectStore, StoreEvent } from './store';
import type { KubeObject } from './types';

/** Real servers end a watch after a randomised 30-60 minutes; the lab uses the lower bound. */
const maxWatchSeconds = 30 * 60;

export interface WatchRequest {
  presentation: Presentation;
  namespace?: string;
  selection: Selection;
  /** As sent: undefined, "", "0" or a number. */
  resourceVersion?: string;
  timeoutSeconds?: number;
  sendInitialEvents: boolean;
  allowBookmarks: boolean;
}

export interface WatchHost {
  store: ObjectStore;
  /** Registers a way to end this watch when the server closes; returns the unregister function. */
  track(end: () => void): () => void;
}

type WireEvent = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KubeObject };

/** What a watcher with this selection sees of a store event (selectors turn MODIFIED into ADDED/DELETED at the edges). */
function viewOf(w: WatchRequest, e: StoreEvent): WireEvent | undefined {
  if (e.resource !== w.presentation.type) return undefined;
  if (w.namespace !== undefined && e.object.metadata.namespace !== w.namespace) return undefined;
  const now = matchesSelection(w.selection, e.object);
  if (e.type !== 'MODIFIED') return now ? { type: e.type, object: e.object } : undefined;
  const before = e.previous ? matchesSelection(w.selection, e.previous) : false;
  if (now && before) return { type: 'MODIFIED', object: e.object };
  if (now) return { type: 'ADDED', object: e.object };
  if (before) return { type: 'DELETED', object: e.object };
  return undefined;
}

export function serveWatch(host: WatchHost, w: WatchRequest, req: IncomingMessage, res: ServerResponse): void {
  const { store } = host;
  const p = w.presentation;
  const write = (type: string, object: unknown) => {
    if (!res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
  };
  const send = (e: WireEvent) => write(e.type, presentOne(p, e.object, e.object.metadata.resourceVersion as string));

  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();

  const fromScratch =
    w.resourceVersion === undefined || w.resourceVersion === '' || w.resourceVersion === '0' || w.sendInitialEvents;
  let startRv = store.resourceVersion;
  if (fromScratch) {
    const list = store.listType(p.type, w.namespace).filter((o) => matchesSelection(w.selection, o));
    for (const o of list) send({ type: 'ADDED', object: o });
    if (w.sendInitialEvents && w.allowBookmarks) {
      write('BOOKMARK', {
        kind: p.type.kind,
        apiVersion: groupVersionOf(p.type.group, p.version),
        metadata: { resourceVersion: String(startRv), annotations: { 'k8s.io/initial-events-end': 'true' } },
      });
    }
  } else {
    startRv = Number(w.resourceVersion);
    const past = store.eventsSince(startRv);
    if (!past) {
      write(
        'ERROR',
        failureStatus(410, 'Expired', `too old resource version: ${w.resourceVersion} (${store.resourceVersion})`),
      );
      res.end();
      return;
    }
    for (const e of past) {
      const view = viewOf(w, e);
      if (view) send(view);
    }
    startRv = store.resourceVersion;
  }

  const unsubscribe = store.subscribe((e) => {
    if (e.rv <= startRv) return;
    const view = viewOf(w, e);
    if (view) send(view);
  });
  const seconds = Math.min(
    w.timeoutSeconds && w.timeoutSeconds > 0 ? w.timeoutSeconds : maxWatchSeconds,
    maxWatchSeconds,
  );
  const timer = setTimeout(() => end(), seconds * 1000);
  const untrack = host.track(() => end());
  function end(): void {
    clearTimeout(timer);
    unsubscribe();
    untrack();
    if (!res.writableEnded) res.end();
  }
  req.on('close', end);
  res.on('close', end);
}
