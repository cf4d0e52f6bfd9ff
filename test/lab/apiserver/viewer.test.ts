// The read-only user of the lab's kubeconfig (context kpp-lab-viewer): get/list/watch work; exec, pod creation,
// deletion and ephemeral containers answer 403 Forbidden with the real server's words, on every path kubectl takes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { viewerContextName } from './kubeconfig';
import { apiRequest, kubectlClientVersion, startTestLab, type TestLab } from './testkit';

const skipKubectl = kubectlClientVersion()
  ? false
  : 'kubectl is not available (set KPP_KUBECTL or put kubectl on PATH)';

describe('viewer user (context kpp-lab-viewer)', () => {
  let lab: TestLab;
  before(async () => {
    lab = await startTestLab({ createPod: (pod) => Promise.resolve(pod) });
  });
  after(() => lab.close());
  const asViewer = (args: string[]) => lab.kubectl(['--context', viewerContextName, ...args]);

  it('the kubeconfig has both contexts; kpp-lab stays the current one', { skip: skipKubectl }, async () => {
    const contexts = await lab.kubectl(['config', 'get-contexts', '-o', 'name']);
    assert.deepEqual(contexts.stdout.trim().split('\n').sort(), ['kpp-lab', 'kpp-lab-viewer']);
    assert.equal((await lab.kubectl(['config', 'current-context'])).stdout.trim(), 'kpp-lab');
  });

  it('lists, gets and watches', { skip: skipKubectl }, async () => {
    const [pods, svc, one] = await Promise.all([
      asViewer(['get', 'pods', '-A', '-o', 'wide']),
      asViewer(['get', 'svc', '-A']),
      asViewer(['get', 'pod', '-n', 'shop', 'web-1', '-o', 'jsonpath={.metadata.name}']),
    ]);
    for (const r of [pods, svc, one]) assert.equal(r.code, 0, r.stderr);
    assert.match(pods.stdout, /web-1/);
    assert.equal(one.stdout, 'web-1');
    const watch = await apiRequest(lab.server, '/api/v1/namespaces/shop/pods?watch=1&timeoutSeconds=1', {
      token: lab.server.viewerToken,
    });
    assert.equal(watch.status, 200);
  });

  it('kubectl exec is forbidden (403, pods/exec) and runs nothing', { skip: skipKubectl }, async () => {
    const r = await asViewer(['exec', '-n', 'shop', 'web-1', '--', 'printf', 'hello']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /Error from server \(Forbidden\): pods "web-1" is forbidden: User "viewer" cannot create resource "pods\/exec" in API group "" in the namespace "shop"/,
    );
  });

  it('exec over plain HTTP answers a v1.Status 403 too', async () => {
    const r = await apiRequest(
      lab.server,
      '/api/v1/namespaces/shop/pods/web-1/exec?command=printf&command=hello&stdout=true',
      { method: 'POST', token: lab.server.viewerToken },
    );
    assert.equal(r.status, 403);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'pods "web-1" is forbidden: User "viewer" cannot create resource "pods/exec" in API group "" in the namespace "shop"',
      reason: 'Forbidden',
      details: { name: 'web-1', kind: 'pods' },
      code: 403,
    });
  });

  it('creating, deleting and debugging pods is forbidden', { skip: skipKubectl }, async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'dbg', namespace: 'shop' },
      spec: { nodeName: 'node-a', containers: [{ name: 'd', image: 'busybox' }] },
    };
    const [create, del, debug] = await Promise.all([
      lab.kubectl(['--context', viewerContextName, 'create', '-f', '-'], { stdin: JSON.stringify(pod) }),
      asViewer(['delete', 'pod', '-n', 'shop', 'web-1', '--wait=false']),
      asViewer(['debug', '-n', 'shop', 'web-1', '--image=busybox', '--', 'sleep', '1']),
    ]);
    assert.match(
      create.stderr,
      /pods is forbidden: User "viewer" cannot create resource "pods" in API group "" in the namespace "shop"/,
    );
    assert.match(del.stderr, /pods "web-1" is forbidden: User "viewer" cannot delete resource "pods"/);
    assert.match(debug.stderr, /cannot patch resource "pods\/ephemeralcontainers" in API group ""/);
    for (const r of [create, del, debug]) assert.notEqual(r.code, 0);
    assert.equal((await lab.kubectl(['get', 'pod', '-n', 'shop', 'web-1', '-o', 'name'])).stdout.trim(), 'pod/web-1');
    assert.equal((await lab.kubectl(['get', 'pod', '-n', 'shop', 'dbg'])).code, 1, 'nothing was created');
  });

  it('the admin context still execs', { skip: skipKubectl }, async () => {
    const r = await lab.kubectl(['exec', '-n', 'shop', 'web-1', '--', 'printf', 'hello']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'hello');
  });
});

describe('kubectl auth can-i (SelfSubjectAccessReview)', () => {
  let lab: TestLab;
  before(async () => {
    lab = await startTestLab();
  });
  after(() => lab.close());

  it('answers yes for the admin, and for the viewer only reads', { skip: skipKubectl }, async () => {
    const can = async (context: string, ...args: string[]) => {
      const r = await lab.kubectl(['--context', context, 'auth', 'can-i', ...args]);
      return `${r.stdout.trim()}/${r.code}`;
    };
    assert.equal(await can('kpp-lab', 'create', 'pods', '--subresource=exec', '-n', 'shop'), 'yes/0');
    assert.equal(await can(viewerContextName, 'create', 'pods', '--subresource=exec', '-n', 'shop'), 'no/1');
    assert.equal(await can(viewerContextName, 'create', 'pods', '-n', 'shop'), 'no/1');
    assert.equal(await can(viewerContextName, 'list', 'services', '-A'), 'yes/0');
    assert.equal(await can(viewerContextName, 'watch', 'endpointslices.discovery.k8s.io', '-n', 'shop'), 'yes/0');
  });

  it('answers a raw review with status.allowed, and refuses anything but create', async () => {
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { namespace: 'shop', verb: 'create', resource: 'pods', subresource: 'exec' } },
    };
    const path = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
    const viewer = await apiRequest(lab.server, path, { method: 'POST', body: review, token: lab.server.viewerToken });
    assert.equal(viewer.status, 201);
    assert.equal(viewer.json().status.allowed, false);
    const admin = await apiRequest(lab.server, path, { method: 'POST', body: review });
    assert.equal(admin.json().status.allowed, true);
    assert.equal((await apiRequest(lab.server, path)).status, 405);
    const empty = await apiRequest(lab.server, path, { method: 'POST', body: { spec: {} } });
    assert.equal(empty.status, 422);
  });
});
