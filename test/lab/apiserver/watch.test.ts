// Watches over raw HTTPS: JSON lines of {type, object}, as client-go and client-node read them.
import assert from 'node:assert/strict';
import * as https from 'node:https';
import { after, before, describe, it } from 'node:test';
import { apiRequest, startTestLab, waitFor, type TestLab } from './testkit';
import type { KubeObject, LabApiServer } from './types';

interface WatchEvent {
  type: string;
  object: KubeObject & { rows?: { cells: unknown[] }[] };
}

interface OpenWatch {
  events: WatchEvent[];
  ended: Promise<void>;
  /** Waits until `count` events have arrived. */
  received(count: number): Promise<WatchEvent[]>;
  close(): void;
}

function openWatch(server: LabApiServer, path: string, accept = 'application/json'): Promise<OpenWatch> {
  return new Promise((resolve, reject) => {
    const events: WatchEvent[] = [];
    const req = https.get(
      `${server.url}${path}`,
      { headers: { Authorization: `Bearer ${server.token}`, Accept: accept }, ca: server.caPem },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`watch answered ${res.statusCode}`));
        let buffer = '';
        const ended = new Promise<void>((done) => {
          res.on('end', done);
          res.on('close', done);
        });
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            events.push(JSON.parse(buffer.slice(0, nl)) as WatchEvent);
            buffer = buffer.slice(nl + 1);
          }
        });
        resolve({
          events,
          ended,
          received: (count) =>
            waitFor(
              `${count} watch events (have ${events.length})`,
              () => events.length >= count && events.slice(0, count),
            ),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
  });
}

const summary = (events: WatchEvent[]) => events.map((e) => `${e.type} ${e.object.metadata.name}`);

describe('watch', () => {
  let lab: TestLab;
  before(async () => {
    lab = await startTestLab();
  });
  after(() => lab.close());

  it('starts with ADDED for what exists, then MODIFIED and DELETED after store.upsert/remove', async () => {
    const w = await openWatch(lab.server, '/api/v1/namespaces/shop/pods?watch=1');
    assert.deepEqual(summary(await w.received(2)), ['ADDED web-1', 'ADDED web-2']);
    const web1 = lab.server.store.list('Pod', 'shop').find((p) => p.metadata.name === 'web-1')!;
    lab.server.store.upsert({ ...web1, status: { ...(web1.status as object), phase: 'Failed' } });
    lab.server.store.remove('Pod', 'shop', 'web-2');
    const events = await w.received(4);
    assert.deepEqual(summary(events.slice(2)), ['MODIFIED web-1', 'DELETED web-2']);
    assert.equal((events[2].object.status as { phase: string }).phase, 'Failed');
    assert.equal(events[2].object.kind, 'Pod', 'watch event objects carry kind and apiVersion');
    assert.ok(Number(events[3].object.metadata.resourceVersion) > Number(events[2].object.metadata.resourceVersion));
    // Objects elsewhere do not leak into a namespaced watch.
    lab.server.store.upsert({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'other', namespace: 'default' },
      spec: {},
    });
    lab.server.store.upsert(web1);
    await w.received(5);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(summary(w.events.slice(4)), ['MODIFIED web-1']);
    w.close();
  });

  it('resumes from a list resourceVersion without replaying what the list showed', async () => {
    const list = (await apiRequest(lab.server, '/api/v1/namespaces/default/services')).json();
    lab.server.store.upsert({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'late', namespace: 'default' },
      spec: { clusterIP: '172.16.0.99' },
    });
    const w = await openWatch(
      lab.server,
      `/api/v1/namespaces/default/services?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
    );
    assert.deepEqual(summary(await w.received(1)), ['ADDED late']);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(w.events.length, 1, 'the existing kubernetes Service is not replayed');
    w.close();
  });

  it('turns label changes into ADDED/DELETED for a selector watch', async () => {
    const w = await openWatch(lab.server, '/api/v1/pods?watch=1&labelSelector=app%3Dclient');
    assert.deepEqual(summary(await w.received(1)), ['ADDED client']);
    const client = lab.server.store.list('Pod', 'default').find((p) => p.metadata.name === 'client')!;
    lab.server.store.upsert({ ...client, metadata: { ...client.metadata, labels: { app: 'other' } } });
    lab.server.store.upsert(client);
    assert.deepEqual(summary((await w.received(3)).slice(1)), ['DELETED client', 'ADDED client']);
    w.close();
  });

  it('ends cleanly after timeoutSeconds', async () => {
    const started = Date.now();
    const w = await openWatch(lab.server, '/api/v1/nodes?watch=1&timeoutSeconds=1');
    await w.ended;
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 900 && elapsed < 3000, `ended after ${elapsed}ms`);
    assert.deepEqual(summary(w.events), ['ADDED node-a', 'ADDED node-b']);
  });

  it('sends Table rows as event objects when asked for a Table', async () => {
    const w = await openWatch(
      lab.server,
      '/api/v1/nodes?watch=1',
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    );
    const [first] = await w.received(1);
    assert.equal(first.object.kind, 'Table');
    assert.equal(first.object.rows?.length, 1);
    assert.equal(first.object.rows?.[0].cells[0], 'node-a');
    w.close();
  });

  it('sends a BOOKMARK after the initial events when asked (sendInitialEvents)', async () => {
    const w = await openWatch(
      lab.server,
      '/api/v1/namespaces?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan',
    );
    const events = await w.received(3);
    assert.deepEqual(
      events.map((e) => e.type),
      ['ADDED', 'ADDED', 'BOOKMARK'],
    );
    assert.deepEqual(events[2].object.metadata.annotations, { 'k8s.io/initial-events-end': 'true' });
    w.close();
  });
});

describe('watch and server close', () => {
  it('close() ends open watches promptly', async () => {
    const lab = await startTestLab();
    const w = await openWatch(lab.server, '/api/v1/pods?watch=1');
    await w.received(3);
    const started = Date.now();
    await lab.close();
    await w.ended;
    assert.ok(Date.now() - started < 2000);
  });
});
