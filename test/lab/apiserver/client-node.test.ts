// @kubernetes/client-node (the product's client) against the lab: list, Status errors, exec, watch.
// The package is ESM-only: loaded with a dynamic import (Node 20.19+ can also require() it from compiled CommonJS).
import type * as k8s from '@kubernetes/client-node' with { 'resolution-mode': 'import' };
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startTestLab, waitFor, type TestLab } from './testkit';

interface ExecOutcome {
  stdout: string;
  stderr: string;
  status: k8s.V1Status;
}

type ClientNode = typeof k8s;

function execIn(api: ClientNode, kc: k8s.KubeConfig, command: string[]): Promise<ExecOutcome> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out = { stdout: '', stderr: '' };
  stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  return new Promise((resolve, reject) => {
    new api.Exec(kc)
      .exec('shop', 'web-1', 'main', command, stdout, stderr, null, false, (status) => resolve({ ...out, status }))
      .catch(reject);
  });
}

describe('@kubernetes/client-node against the lab', () => {
  let lab: TestLab;
  let kc: k8s.KubeConfig;
  let api: ClientNode;
  before(async () => {
    api = await import('@kubernetes/client-node');
    lab = await startTestLab();
    kc = new api.KubeConfig();
    kc.loadFromFile(lab.kubeconfig);
  });
  after(() => lab.close());

  it('lists pods and EndpointSlices through the typed APIs', async () => {
    const pods = await kc
      .makeApiClient(api.CoreV1Api)
      .listNamespacedPod({ namespace: 'shop', labelSelector: 'app=web' });
    assert.deepEqual(
      pods.items.map((p) => `${p.metadata?.name} ${p.status?.podIP} ${p.spec?.nodeName}`),
      ['web-1 10.244.1.10 node-a', 'web-2 10.244.2.11 node-b'],
    );
    const slices = await kc.makeApiClient(api.DiscoveryV1Api).listEndpointSliceForAllNamespaces();
    assert.deepEqual(
      slices.items[0].endpoints.map((e) => e.nodeName),
      ['node-a', 'node-b'],
    );
  });

  it('surfaces a 404 v1.Status body', async () => {
    await assert.rejects(
      kc.makeApiClient(api.CoreV1Api).readNamespacedPod({ namespace: 'shop', name: 'ghost' }),
      (e: { code?: number; body?: unknown }) => {
        assert.equal(e.code, 404);
        const body = (typeof e.body === 'string' ? JSON.parse(e.body) : e.body) as { kind: string; message: string };
        assert.equal(body.kind, 'Status');
        assert.equal(body.message, 'pods "ghost" not found');
        return true;
      },
    );
  });

  it('execs with stdout, stderr and the status', async () => {
    const ok = await execIn(api, kc, ['printf', 'hello']);
    assert.equal(ok.stdout, 'hello');
    assert.equal(ok.status.status, 'Success');
    const failed = await execIn(api, kc, ['sh', '-c', 'echo err >&2; exit 3']);
    assert.equal(failed.stderr, 'err\n');
    assert.equal(failed.status.reason, 'NonZeroExitCode');
    assert.equal(failed.status.details?.causes?.[0].message, '3');
  });

  it('watches ADDED then DELETED', async () => {
    const seen: string[] = [];
    const request = await new api.Watch(kc).watch(
      '/api/v1/namespaces/shop/pods',
      {},
      (type: string, obj: k8s.V1Pod) => seen.push(`${type} ${obj.metadata?.name}`),
      () => undefined,
    );
    try {
      await waitFor('initial events', () => seen.length >= 2);
      lab.server.store.remove('Pod', 'shop', 'web-2');
      await waitFor('DELETED event', () => seen.length >= 3);
      assert.deepEqual(seen, ['ADDED web-1', 'ADDED web-2', 'DELETED web-2']);
    } finally {
      request.abort();
    }
  });
});
