// The lab API server over raw HTTPS: discovery, reads, Status errors, pod writes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiRequest, startTestLab, waitFor, type TestLab } from './testkit';
import type { KubeObject } from './types';

const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

function debugPod(name: string, extra: Record<string, unknown> = {}): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop' },
    spec: {
      nodeName: 'node-a',
      hostNetwork: true,
      containers: [{ name: 'debug', image: 'busybox', securityContext: { privileged: true } }],
      ...extra,
    },
  };
}

describe('lab API server over HTTPS (current mode)', () => {
  let lab: TestLab;
  const created: KubeObject[] = [];
  const deleted: string[] = [];
  const ephemeral: string[] = [];
  before(async () => {
    lab = await startTestLab({
      createPod: async (pod) => {
        created.push(pod);
        if (pod.metadata.name === 'doomed') throw new Error('no such image');
        return { ...pod, status: { podIP: '192.168.0.1', hostIP: '192.168.0.1' } };
      },
      deletePod: async (ns, name) => {
        deleted.push(`${ns}/${name}`);
      },
      addEphemeralContainer: async (ns, pod, container) => {
        ephemeral.push(`${ns}/${pod}/${String(container.name)}`);
      },
    });
  });
  after(() => lab.close());

  it('serves /version and health without credentials', async () => {
    const v = await apiRequest(lab.server, '/version', { token: null });
    assert.equal(v.status, 200);
    assert.equal(v.json().gitVersion, 'v1.31.0');
    for (const p of ['/healthz', '/livez', '/readyz'])
      assert.equal((await apiRequest(lab.server, p, { token: null })).text, 'ok');
  });

  it('answers 401 v1.Status without a token or with a wrong one', async () => {
    for (const token of [null, 'not-the-token']) {
      const r = await apiRequest(lab.server, '/api/v1/pods', { token });
      assert.equal(r.status, 401);
      assert.deepEqual(r.json(), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      });
    }
  });

  it('serves aggregated discovery with its Content-Type', async () => {
    const r = await apiRequest(lab.server, '/api', { headers: { Accept: aggregatedAccept } });
    assert.equal(r.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const doc = r.json();
    assert.equal(doc.kind, 'APIGroupDiscoveryList');
    const pods = doc.items[0].versions[0].resources.find((x: { resource: string }) => x.resource === 'pods');
    assert.deepEqual(pods.shortNames, ['po']);
    assert.equal(pods.scope, 'Namespaced');
    assert.deepEqual(
      pods.subresources.map((s: { subresource: string }) => s.subresource),
      ['exec', 'log', 'ephemeralcontainers'],
    );
    const apis = (await apiRequest(lab.server, '/apis', { headers: { Accept: aggregatedAccept } })).json();
    assert.deepEqual(
      apis.items.map((g: { metadata: { name: string } }) => g.metadata.name),
      ['discovery.k8s.io', 'authorization.k8s.io'],
    );
  });

  it('serves legacy discovery documents', async () => {
    const core = (await apiRequest(lab.server, '/api/v1')).json();
    assert.equal(core.kind, 'APIResourceList');
    const names = core.resources.map((x: { name: string }) => x.name);
    for (const n of ['namespaces', 'nodes', 'pods', 'pods/exec', 'pods/ephemeralcontainers', 'services', 'endpoints'])
      assert.ok(names.includes(n), n);
    const svc = core.resources.find((x: { name: string }) => x.name === 'services');
    assert.deepEqual(svc.shortNames, ['svc']);
    assert.equal((await apiRequest(lab.server, '/apis/discovery.k8s.io/v1')).status, 200);
    assert.equal((await apiRequest(lab.server, '/apis/discovery.k8s.io/v1beta1')).status, 404);
  });

  it('lists without kind on items, with resourceVersion on list and objects', async () => {
    const list = (await apiRequest(lab.server, '/api/v1/namespaces/shop/pods')).json();
    assert.equal(list.kind, 'PodList');
    assert.match(list.metadata.resourceVersion, /^\d+$/);
    assert.deepEqual(
      list.items.map((p: KubeObject) => p.metadata.name),
      ['web-1', 'web-2'],
    );
    assert.equal(list.items[0].kind, undefined);
    assert.match(list.items[0].metadata.resourceVersion, /^\d+$/);
    const one = (await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/web-1')).json();
    assert.equal(one.kind, 'Pod');
    assert.equal(one.apiVersion, 'v1');
  });

  it('filters with label and field selectors', async () => {
    const names = async (q: string) =>
      (await apiRequest(lab.server, `/api/v1/pods?${q}`))
        .json()
        .items.map((p: KubeObject) => `${p.metadata.namespace}/${p.metadata.name}`);
    assert.deepEqual(await names('labelSelector=app%3Dweb'), ['shop/web-1', 'shop/web-2']);
    assert.deepEqual(await names('labelSelector=app%20notin%20(web)'), ['default/client']);
    assert.deepEqual(await names('fieldSelector=spec.nodeName%3Dnode-a'), ['default/client', 'shop/web-1']);
    assert.deepEqual(await names('fieldSelector=metadata.namespace%3Dshop,metadata.name!%3Dweb-1'), ['shop/web-2']);
    const bad = await apiRequest(lab.server, '/api/v1/pods?fieldSelector=spec.bogus%3Dx');
    assert.equal(bad.status, 400);
    assert.equal(bad.json().message, 'field label not supported: spec.bogus');
    assert.equal((await apiRequest(lab.server, '/api/v1/pods?labelSelector=app%20in%20web')).status, 400);
  });

  it('pages with limit and continue', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const r = (
        await apiRequest(lab.server, `/api/v1/pods?limit=2${token ? `&continue=${encodeURIComponent(token)}` : ''}`)
      ).json();
      pages++;
      seen.push(...r.items.map((p: KubeObject) => p.metadata.name));
      if (pages === 1) assert.equal(r.metadata.remainingItemCount, 1);
      token = r.metadata.continue;
    } while (token);
    assert.equal(pages, 2);
    assert.deepEqual(seen, ['client', 'web-1', 'web-2']);
    const bad = await apiRequest(lab.server, '/api/v1/pods?limit=1&continue=garbage');
    assert.equal(bad.status, 400);
  });

  it('answers Tables with the columns kubectl prints, honouring includeObject', async () => {
    const svc = await apiRequest(lab.server, '/api/v1/namespaces/shop/services', { headers: { Accept: tableAccept } });
    assert.equal(svc.headers['content-type'], 'application/json;as=Table;v=v1;g=meta.k8s.io');
    const table = svc.json();
    assert.equal(table.kind, 'Table');
    assert.deepEqual(
      table.columnDefinitions
        .filter((c: { priority: number }) => c.priority === 0)
        .map((c: { name: string }) => c.name),
      ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age'],
    );
    assert.deepEqual(table.rows[0].cells.slice(0, 5), ['web', 'NodePort', '172.16.0.20', '<none>', '80:30080/TCP']);
    assert.equal(table.rows[0].object.kind, 'PartialObjectMetadata');
    assert.equal(table.rows[0].object.metadata.namespace, 'shop');

    const none = (
      await apiRequest(lab.server, '/api/v1/namespaces/shop/endpoints?includeObject=None', {
        headers: { Accept: tableAccept },
      })
    ).json();
    assert.equal(none.rows[0].object, undefined);
    assert.equal(none.rows[0].cells[1], '10.244.1.10:8080,10.244.2.11:8080');
    const full = (
      await apiRequest(lab.server, '/api/v1/nodes?includeObject=Object', { headers: { Accept: tableAccept } })
    ).json();
    assert.equal(full.rows[0].object.kind, 'Node');
    assert.equal(full.rows[0].cells[1], 'Ready');
  });

  it('answers 404, 406 and 415 as v1.Status', async () => {
    const missing = await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/nope');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'pods' },
      code: 404,
    });
    const slice = await apiRequest(lab.server, '/apis/discovery.k8s.io/v1/namespaces/shop/endpointslices/nope');
    assert.equal(slice.json().message, 'endpointslices.discovery.k8s.io "nope" not found');
    const unknown = await apiRequest(lab.server, '/api/v1/configmaps');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json().reason, 'NotFound');
    const protobufOnly = await apiRequest(lab.server, '/api/v1/pods', {
      headers: { Accept: 'application/vnd.kubernetes.protobuf' },
    });
    assert.equal(protobufOnly.status, 406);
    const protobufBody = await apiRequest(lab.server, '/api/v1/namespaces/shop/pods', {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' },
      body: 'k8s\0...',
    });
    assert.equal(protobufBody.status, 415);
    assert.equal(protobufBody.json().reason, 'UnsupportedMediaType');
    assert.match(protobufBody.json().message, /JSON/);
  });

  it('validates pod creation: 422 without nodeName, 404 for a missing namespace, 409 when it exists', async () => {
    const noNode = await apiRequest(lab.server, '/api/v1/namespaces/shop/pods', {
      method: 'POST',
      body: { ...debugPod('x'), spec: { containers: [{ name: 'c', image: 'i' }] } },
    });
    assert.equal(noNode.status, 422);
    assert.equal(noNode.json().reason, 'Invalid');
    assert.equal(noNode.json().details.causes[0].field, 'spec.nodeName');
    assert.match(noNode.json().message, /^Pod "x" is invalid: spec.nodeName: Required value/);
    const noNs = await apiRequest(lab.server, '/api/v1/namespaces/ghost/pods', {
      method: 'POST',
      body: { ...debugPod('x'), metadata: { name: 'x' } },
    });
    assert.equal(noNs.status, 404);
    assert.equal(noNs.json().message, 'namespaces "ghost" not found');
    const exists = await apiRequest(lab.server, '/api/v1/namespaces/shop/pods', {
      method: 'POST',
      body: debugPod('web-1'),
    });
    assert.equal(exists.status, 409);
    assert.equal(exists.json().reason, 'AlreadyExists');
    assert.equal(created.length, 0, 'createPod must not be called for rejected pods');
  });

  it('creates a pod (Pending, then Running from createPod) and deletes it (Terminating, then gone)', async () => {
    const r = await apiRequest(lab.server, '/api/v1/namespaces/shop/pods', {
      method: 'POST',
      body: debugPod('kpp-debug'),
    });
    assert.equal(r.status, 201);
    assert.equal(r.json().status.phase, 'Pending');
    const running = await waitFor('pod Running', async () => {
      const p = (await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/kpp-debug')).json();
      return p.status.phase === 'Running' && p;
    });
    assert.equal(running.status.podIP, '192.168.0.1');
    assert.equal(running.status.conditions.find((c: { type: string }) => c.type === 'Ready').status, 'True');
    assert.equal(created.at(-1)?.metadata.name, 'kpp-debug');

    const d = await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/kpp-debug', { method: 'DELETE' });
    assert.equal(d.status, 200);
    assert.ok(d.json().metadata.deletionTimestamp);
    await waitFor(
      'pod gone',
      async () => (await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/kpp-debug')).status === 404,
    );
    assert.deepEqual(deleted, ['shop/kpp-debug']);
  });

  it('marks a pod Failed when createPod throws', async () => {
    await apiRequest(lab.server, '/api/v1/namespaces/shop/pods', { method: 'POST', body: debugPod('doomed') });
    const failed = await waitFor('pod Failed', async () => {
      const p = (await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/doomed')).json();
      return p.status.phase === 'Failed' && p;
    });
    assert.equal(failed.status.message, 'no such image');
  });

  it('adds ephemeral containers by strategic merge patch', async () => {
    const r = await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/web-2/ephemeralcontainers', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      body: { spec: { ephemeralContainers: [{ name: 'debugger', image: 'busybox', command: ['sleep', '3600'] }] } },
    });
    assert.equal(r.status, 200);
    assert.equal(r.json().spec.ephemeralContainers[0].name, 'debugger');
    const statusOf = async () =>
      (await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/web-2')).json().status
        .ephemeralContainerStatuses?.[0];
    await waitFor('ephemeral container running', async () => (await statusOf())?.state?.running !== undefined);
    assert.deepEqual(ephemeral, ['shop/web-2/debugger']);
    const dup = await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/web-2/ephemeralcontainers', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json-patch+json' },
      body: [{ op: 'add', path: '/spec/ephemeralContainers/-', value: { name: 'main', image: 'busybox' } }],
    });
    assert.equal(dup.status, 422, 'a name already used by a regular container is a duplicate');
  });
});

describe('lab API server over HTTPS (legacy-1.20 mode)', () => {
  let lab: TestLab;
  before(async () => {
    lab = await startTestLab({ mode: 'legacy-1.20' });
  });
  after(() => lab.close());

  it('looks like 1.20: version, no aggregated discovery, EndpointSlices only as v1beta1', async () => {
    assert.equal((await apiRequest(lab.server, '/version')).json().gitVersion, 'v1.20.15');
    const api = await apiRequest(lab.server, '/apis', { headers: { Accept: aggregatedAccept } });
    assert.equal(api.headers['content-type'], 'application/json');
    assert.equal(api.json().kind, 'APIGroupList');
    assert.deepEqual(api.json().groups[0].versions, [{ groupVersion: 'discovery.k8s.io/v1beta1', version: 'v1beta1' }]);
    assert.equal((await apiRequest(lab.server, '/apis/discovery.k8s.io/v1/endpointslices')).status, 404);
    const slices = (
      await apiRequest(lab.server, '/apis/discovery.k8s.io/v1beta1/namespaces/shop/endpointslices')
    ).json();
    assert.equal(slices.kind, 'EndpointSliceList');
    assert.equal(slices.apiVersion, 'discovery.k8s.io/v1beta1');
    assert.deepEqual(slices.items[0].endpoints[0].topology, {
      'kubernetes.io/hostname': 'node-a',
      'topology.kubernetes.io/zone': 'z1',
    });
  });

  it('does not serve ephemeral containers (off by default in 1.20)', async () => {
    const r = await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/web-1/ephemeralcontainers');
    assert.equal(r.status, 404);
    const names = (await apiRequest(lab.server, '/api/v1')).json().resources.map((x: { name: string }) => x.name);
    assert.ok(!names.includes('pods/ephemeralcontainers'));
    assert.equal((await apiRequest(lab.server, '/openapi/v3')).status, 404);
  });
});

describe('lab API server logging', () => {
  it('logs each request without the token', async () => {
    const lines: string[] = [];
    const lab = await startTestLab({ log: (line) => lines.push(line) });
    try {
      await apiRequest(lab.server, '/api/v1/pods?labelSelector=app%3Dweb');
      await apiRequest(lab.server, '/api/v1/namespaces/shop/pods/ghost');
      await apiRequest(lab.server, '/lab/faults', { method: 'POST', body: { delayMs: 0 } });
      await apiRequest(lab.server, '/api/v1/pods', { token: 'wrong' });
      await waitFor('4 log lines', () => lines.length >= 4);
      assert.ok(lines.some((l) => l.startsWith('GET /api/v1/pods?labelSelector=app%3Dweb 200 ')));
      assert.ok(lines.some((l) => l.startsWith('GET /api/v1/namespaces/shop/pods/ghost 404 ')));
      assert.ok(!lines.some((l) => l.includes(lab.server.token)), 'no line carries the token');
    } finally {
      await lab.close();
    }
  });
});
