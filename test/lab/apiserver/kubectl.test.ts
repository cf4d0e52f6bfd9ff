// kubectl, an independent client, against the lab API server: discovery, tables, JSON, exec, pod lifecycle.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectlClientVersion, startTestLab, type TestLab } from './testkit';

const clientVersion = kubectlClientVersion();
const skip = clientVersion ? false : 'kubectl is not available (set KPP_KUBECTL or put kubectl on PATH)';

/** The data rows of kubectl's table output, split on runs of spaces. */
function rows(stdout: string): string[][] {
  return stdout
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));
}

function row(stdout: string, first: string, second?: string): string[] {
  const found = rows(stdout).find((r) => r[0] === first && (second === undefined || r[1] === second));
  assert.ok(found, `no row ${first} ${second ?? ''} in:\n${stdout}`);
  return found;
}

// Tests touch disjoint objects, so they may run side by side (each kubectl run costs ~1 s of process start-up and discovery).
describe(`kubectl ${clientVersion ?? ''} against the lab (current mode)`, { skip, concurrency: 4 }, () => {
  let lab: TestLab;
  before(async () => {
    lab = await startTestLab({
      createPod: async (pod) => ({ ...pod, status: { podIP: '192.168.0.1', hostIP: '192.168.0.1' } }),
      deletePod: async () => undefined,
    });
  });
  after(() => lab?.close());

  it('kubectl version -o json shows the server version', async () => {
    const r = await lab.kubectl(['version', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).serverVersion.gitVersion, 'v1.31.0');
  });

  it('kubectl get svc -A prints CLUSTER-IP and PORT(S)', async () => {
    const r = await lab.kubectl(['get', 'svc', '-A']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(rows(r.stdout)[0], ['NAMESPACE', 'NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    assert.deepEqual(row(r.stdout, 'shop', 'web').slice(0, 6), [
      'shop',
      'web',
      'NodePort',
      '172.16.0.20',
      '<none>',
      '80:30080/TCP',
    ]);
    assert.deepEqual(row(r.stdout, 'default', 'kubernetes').slice(3, 6), ['172.16.0.1', '<none>', '443/TCP']);
  });

  it('kubectl get endpoints lists ready addresses', async () => {
    const r = await lab.kubectl(['get', 'endpoints', '-n', 'shop']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(row(r.stdout, 'web').slice(0, 2), ['web', '10.244.1.10:8080,10.244.2.11:8080']);
  });

  it('kubectl get pods -o wide shows IP and NODE', async () => {
    const r = await lab.kubectl(['get', 'pods', '-A', '-o', 'wide']);
    assert.equal(r.code, 0, r.stderr);
    const header = rows(r.stdout)[0];
    const web1 = row(r.stdout, 'shop', 'web-1');
    assert.equal(web1[header.indexOf('IP')], '10.244.1.10');
    assert.equal(web1[header.indexOf('NODE')], 'node-a');
    assert.equal(web1[header.indexOf('STATUS')], 'Running');
  });

  it('kubectl get endpointslices', async () => {
    const r = await lab.kubectl(['get', 'endpointslices', '-n', 'shop']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(row(r.stdout, 'web-abc12').slice(0, 4), ['web-abc12', 'IPv4', '8080', '10.244.1.10,10.244.2.11']);
  });

  it('kubectl get pods -l app=web selects by label', async () => {
    const r = await lab.kubectl(['get', 'pods', '-A', '-l', 'app=web', '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), ['pod/web-1', 'pod/web-2']);
  });

  it('kubectl get svc,ep resolves short names', async () => {
    const r = await lab.kubectl(['get', 'svc,ep', '-n', 'shop', '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), ['service/web', 'endpoints/web']);
  });

  it('kubectl get svc -o json parses', async () => {
    const r = await lab.kubectl(['get', 'svc', '-A', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const list = JSON.parse(r.stdout);
    assert.deepEqual(
      list.items.map(
        (s: { metadata: { name: string }; spec: { clusterIP: string } }) => `${s.metadata.name}=${s.spec.clusterIP}`,
      ),
      ['kubernetes=172.16.0.1', 'web=172.16.0.20'],
    );
  });

  it('kubectl exec prints stdout', async () => {
    const r = await lab.kubectl(['exec', '-n', 'shop', 'web-1', '--', 'printf', 'hello']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'hello');
  });

  it('kubectl exec passes stderr and the exit code', async () => {
    const r = await lab.kubectl(['exec', '-n', 'shop', 'web-1', '--', 'sh', '-c', 'echo err >&2; exit 3']);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /^err$/m);
    assert.match(r.stderr, /command terminated with exit code 3/);
  });

  it('kubectl exec -i sends stdin', async () => {
    const r = await lab.kubectl(['exec', '-i', '-n', 'shop', 'web-1', '--', 'cat'], { stdin: 'from stdin\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'from stdin\n');
  });

  it('kubectl exec into a missing pod or container says so', async () => {
    const pod = await lab.kubectl(['exec', '-n', 'shop', 'ghost', '--', 'printf', 'x']);
    assert.equal(pod.code, 1);
    assert.match(pod.stderr, /pods "ghost" not found/);
    const container = await lab.kubectl(['exec', '-n', 'shop', 'web-1', '-c', 'nope', '--', 'printf', 'x']);
    assert.equal(container.code, 1);
    assert.match(container.stderr, /container nope is not valid for pod web-1/);
  });

  it('kubectl api-resources lists kinds with short names', async () => {
    const r = await lab.kubectl(['api-resources']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(row(r.stdout, 'services').slice(0, 3), ['services', 'svc', 'v1']);
    assert.deepEqual(row(r.stdout, 'endpoints').slice(0, 3), ['endpoints', 'ep', 'v1']);
    assert.deepEqual(row(r.stdout, 'pods').slice(0, 2), ['pods', 'po']);
    assert.deepEqual(row(r.stdout, 'endpointslices').slice(0, 2), ['endpointslices', 'discovery.k8s.io/v1']);
  });

  it('kubectl get --raw /apis returns the group list', async () => {
    const r = await lab.kubectl(['get', '--raw', '/apis']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).groups[0].preferredVersion, {
      groupVersion: 'discovery.k8s.io/v1',
      version: 'v1',
    });
  });

  it('kubectl create -f, wait, exec and delete a privileged hostNetwork pod', async () => {
    const file = path.join(lab.dir, 'debug-pod.json');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'kpp-debug', namespace: 'shop' },
        spec: {
          nodeName: 'node-a',
          hostNetwork: true,
          containers: [{ name: 'debug', image: 'busybox', securityContext: { privileged: true } }],
        },
      }),
    );
    const create = await lab.kubectl(['create', '-f', file]);
    assert.equal(create.code, 0, create.stderr);
    assert.match(create.stdout, /pod\/kpp-debug created/);
    const wait = await lab.kubectl(['wait', '--for=condition=Ready', 'pod/kpp-debug', '-n', 'shop', '--timeout=10s']);
    assert.equal(wait.code, 0, wait.stderr);
    const exec = await lab.kubectl(['exec', '-n', 'shop', 'kpp-debug', '--', 'printf', 'hello']);
    assert.equal(exec.stdout, 'hello');
    const del = await lab.kubectl(['delete', 'pod', 'kpp-debug', '-n', 'shop', '--timeout=10s']);
    assert.equal(del.code, 0, del.stderr);
    const gone = await lab.kubectl(['get', 'pod', 'kpp-debug', '-n', 'shop']);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /NotFound/);
  });

  it('kubectl get -w prints changes', async () => {
    let listed!: () => void;
    const listShown = new Promise<void>((r) => (listed = r));
    const watching = lab.kubectl(['get', 'pods', '-n', 'default', '-w', '--request-timeout=6s'], {
      onStdout: (soFar) => soFar.includes('client') && listed(),
    });
    await listShown;
    // The watch resumes from the list's resourceVersion, so a change right after the list is never missed.
    const client = lab.server.store.list('Pod', 'default').find((p) => p.metadata.name === 'client')!;
    lab.server.store.upsert({
      ...client,
      status: { ...(client.status as object), phase: 'Failed', containerStatuses: [] },
    });
    const r = await watching;
    assert.equal(r.code, 0, r.stderr);
    const statuses = rows(r.stdout)
      .filter((x) => x[0] === 'client')
      .map((x) => x[2]);
    assert.deepEqual(statuses, ['Running', 'Failed']);
  });
});

describe(`kubectl ${clientVersion ?? ''} against the lab (legacy-1.20 mode)`, { skip }, () => {
  let lab: TestLab;
  before(async () => {
    lab = await startTestLab({ mode: 'legacy-1.20' });
  });
  after(() => lab?.close());

  it('serves EndpointSlices only as discovery.k8s.io/v1beta1', async () => {
    const version = await lab.kubectl(['version', '-o', 'json']);
    assert.equal(JSON.parse(version.stdout).serverVersion.gitVersion, 'v1.20.15');
    const raw = await lab.kubectl(['get', '--raw', '/apis']);
    assert.equal(raw.code, 0, raw.stderr);
    assert.doesNotMatch(raw.stdout, /discovery\.k8s\.io\/v1"/);
    const resources = await lab.kubectl(['api-resources']);
    assert.deepEqual(row(resources.stdout, 'endpointslices').slice(0, 2), [
      'endpointslices',
      'discovery.k8s.io/v1beta1',
    ]);
    const slices = await lab.kubectl(['get', 'endpointslices.v1beta1.discovery.k8s.io', '-n', 'shop', '-o', 'json']);
    assert.equal(slices.code, 0, slices.stderr);
    assert.deepEqual(JSON.parse(slices.stdout).items[0].endpoints[0].topology['kubernetes.io/hostname'], 'node-a');
    const v1 = await lab.kubectl(['get', 'endpointslices.v1.discovery.k8s.io', '-n', 'shop']);
    assert.notEqual(v1.code, 0);
  });
});
