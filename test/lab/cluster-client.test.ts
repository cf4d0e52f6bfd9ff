// src/cluster against the lab API server alone (no data plane, no root): lists with the slice/Endpoints
// fallback, watches, exec with exit codes, and every failure as a ClusterError a person can act on.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ALL_NAMESPACES, ClusterSession, isClusterError, type WatchEvent } from '../../src/cluster';
import { startTestLab, waitFor, type TestLab } from './apiserver/testkit';

const clusterError = (code: string, message?: RegExp) => (e: unknown) => {
  assert.ok(isClusterError(e), `not a ClusterError: ${String(e)}`);
  assert.equal(e.code, code, e.message);
  if (message) assert.match(e.message, message);
  return true;
};

describe('ClusterSession against the lab API server', () => {
  let lab: TestLab;
  let session: ClusterSession;
  before(async () => {
    lab = await startTestLab();
    session = await ClusterSession.open({ kubeconfig: lab.kubeconfig, timeoutMs: 5000 });
  });
  after(async () => {
    session?.dispose();
    await lab?.close();
  });

  it('reads the context and namespace from the kubeconfig without writing it', async () => {
    const before = fs.readFileSync(lab.kubeconfig, 'utf8');
    const other = await ClusterSession.open({ kubeconfig: lab.kubeconfig, namespace: 'shop' });
    assert.equal(other.context, 'kpp-lab');
    assert.equal(other.namespace, 'shop');
    assert.equal(session.namespace, 'default');
    assert.equal(fs.readFileSync(lab.kubeconfig, 'utf8'), before);
    other.dispose();
  });

  it('lists Services in one namespace and in all, validated', async () => {
    const shop = await session.listServices('shop');
    assert.deepEqual(
      shop.map((s) => `${s.namespace}/${s.name} ${s.clusterIP}`),
      ['shop/web 172.16.0.20'],
    );
    const all = await session.listServices(ALL_NAMESPACES);
    assert.deepEqual(all.map((s) => `${s.namespace}/${s.name}`).sort(), ['default/kubernetes', 'shop/web']);
  });

  it('reads endpoints from EndpointSlices into the snapshot', async () => {
    const snap = await session.snapshot('shop', { pods: true, nodes: true });
    assert.equal(snap.endpointSources['shop/web'], 'EndpointSlice');
    assert.deepEqual(
      snap.endpoints['shop/web'].http.map((e) => `${e.ip} ${e.nodeName}`),
      ['10.244.1.10 node-a', '10.244.2.11 node-b'],
    );
    assert.equal(snap.pods?.length, 2);
    assert.equal(snap.nodes?.length, 2);
  });

  it('execs an argv array with stdout, stderr and the exit code', async () => {
    const ok = await session.exec('shop', 'web-1', ['printf', 'hello']);
    assert.equal(ok.stdout, 'hello');
    assert.equal(ok.exitCode, 0);
    const failed = await session.exec('shop', 'web-1', ['sh', '-c', 'echo err >&2; exit 3']);
    assert.equal(failed.stderr, 'err\n');
    assert.equal(failed.exitCode, 3);
    const missing = await session.exec('shop', 'web-1', ['curl', 'x']);
    assert.equal(missing.exitCode, 127);
    assert.match(missing.stderr, /executable file not found/);
  });

  it('ends an exec at its timeout and on cancel', async () => {
    const t = await session.exec('shop', 'web-1', ['sleep', '30'], { timeoutMs: 300 });
    assert.equal(t.error, 'timeout');
    assert.equal(t.exitCode, null);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 200);
    await assert.rejects(
      session.exec('shop', 'web-1', ['sleep', '30'], { signal: ctl.signal }),
      clusterError('cancelled'),
    );
  });

  it('turns a refused exec into exec-forbidden with the API message, and a missing pod into not-found', async () => {
    lab.server.faults.forbidExec = true;
    try {
      await assert.rejects(
        session.exec('shop', 'web-1', ['printf', 'hello']),
        clusterError(
          'exec-forbidden',
          /^403: you may not exec into pods in shop: .*cannot create resource "pods\/exec"/,
        ),
      );
    } finally {
      lab.server.faults.forbidExec = false;
    }
    await assert.rejects(
      session.exec('shop', 'ghost', ['printf', 'hello']),
      clusterError('not-found', /pod shop\/ghost not found/),
    );
  });

  it('rejects hostile names before any request', async () => {
    await assert.rejects(
      session.exec('shop', 'web-1; rm -rf /', ['printf']),
      clusterError('invalid-name', /is not a valid pod name/),
    );
    await assert.rejects(session.listServices('$(id)'), clusterError('invalid-name', /is not a valid namespace name/));
  });

  it('says 401 for refused credentials', async () => {
    lab.server.faults.unauthorized = true;
    try {
      await assert.rejects(
        session.listServices('shop'),
        clusterError('unauthorized', /^401: the cluster refused the credentials/),
      );
    } finally {
      lab.server.faults.unauthorized = false;
    }
  });

  it('times out a slow answer', async () => {
    lab.server.faults.delayMs = 2000;
    try {
      await assert.rejects(
        session.listServices('shop', { timeoutMs: 300 }),
        clusterError('timeout', /timed out after 0\.3 s: list services in shop/),
      );
    } finally {
      lab.server.faults.delayMs = 0;
    }
  });

  it('a watch survives the API going away: onError with backoff, then a fresh SYNC', async () => {
    const seen: WatchEvent[] = [];
    const errors: { code: string; retryInMs: number }[] = [];
    const stop = session.watch('services', 'shop', (e) => seen.push(e), {
      backoffMs: 50,
      maxBackoffMs: 200,
      onError: (e, retryInMs) => errors.push({ code: e.code, retryInMs }),
    });
    try {
      await waitFor('sync', () => seen.find((e) => e.type === 'SYNC'));
      await lab.server.suspend();
      await waitFor('two failures', () => errors.length >= 2, 10_000);
      assert.ok(
        errors.every((e) => e.code === 'unreachable'),
        JSON.stringify(errors),
      );
      assert.ok(errors[1].retryInMs > errors[0].retryInMs, 'the delay grows');
      await lab.server.resume();
      await waitFor('a second SYNC', () => seen.filter((e) => e.type === 'SYNC').length >= 2, 10_000);
    } finally {
      stop();
      if (!lab.server.listening) await lab.server.resume();
    }
  });

  it('watches: SYNC, then changes', async () => {
    const seen: WatchEvent[] = [];
    const stop = session.watch('pods', 'shop', (e) => seen.push(e));
    try {
      await waitFor('sync', () => seen.find((e) => e.type === 'SYNC'));
      assert.equal(seen[0].objects?.length, 2);
      lab.server.store.remove('Pod', 'shop', 'web-2');
      await waitFor('DELETED', () => seen.find((e) => e.type === 'DELETED'));
    } finally {
      stop();
    }
  });
});

describe('exec-plugin credentials', () => {
  it('runs the plugin, and runs it again after a 401 (client-node alone keeps its cached token)', async () => {
    const lab = await startTestLab();
    try {
      const tokenFile = path.join(lab.dir, 'plugin-token');
      const calls = path.join(lab.dir, 'plugin-calls');
      fs.writeFileSync(tokenFile, 'wrong-token');
      const plugin = path.join(lab.dir, 'plugin.js');
      fs.writeFileSync(
        plugin,
        `const fs = require('fs');
fs.appendFileSync(${JSON.stringify(calls)}, 'x');
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential',
  status: { token: fs.readFileSync(${JSON.stringify(tokenFile)}, 'utf8'), expirationTimestamp: '2999-01-01T00:00:00Z' } }));`,
      );
      const text = fs
        .readFileSync(lab.kubeconfig, 'utf8')
        .replace(
          /^(\s*)token: .*$/m,
          (_m, indent: string) =>
            `${indent}exec:\n${indent}  apiVersion: client.authentication.k8s.io/v1beta1\n${indent}  command: ${JSON.stringify(process.execPath)}\n${indent}  args: [${JSON.stringify(plugin)}]\n${indent}  interactiveMode: Never`,
        );
      const kubeconfig = path.join(lab.dir, 'exec-kubeconfig');
      fs.writeFileSync(kubeconfig, text);
      const s = await ClusterSession.open({ kubeconfig });
      try {
        await assert.rejects(
          s.listServices('shop'),
          clusterError('unauthorized', /^401: the cluster refused the credentials/),
        );
        assert.equal(fs.readFileSync(calls, 'utf8').length, 2, 'asked once, then again after the 401');
        fs.writeFileSync(tokenFile, lab.server.token);
        const svc = await s.listServices('shop');
        assert.deepEqual(
          svc.map((x) => x.name),
          ['web'],
        );
        // The cached (wrong) token got a 401, so the plugin ran once more.
        assert.equal(fs.readFileSync(calls, 'utf8').length, 3);
      } finally {
        s.dispose();
      }
    } finally {
      await lab.close();
    }
  });
});

describe('TLS', () => {
  it('a server certificate the kubeconfig does not trust: a TLS error naming the server', async () => {
    const lab = await startTestLab();
    try {
      const text = fs.readFileSync(lab.kubeconfig, 'utf8').replace(/^\s*certificate-authority-data: .*\n/m, '');
      const untrusted = path.join(lab.dir, 'untrusted-kubeconfig');
      fs.writeFileSync(untrusted, text);
      const s = await ClusterSession.open({ kubeconfig: untrusted });
      try {
        await assert.rejects(
          s.listServices('shop'),
          clusterError('tls', /^TLS error talking to https:\/\/127\.0\.0\.1:\d+: .*certificate/),
        );
      } finally {
        s.dispose();
      }
    } finally {
      await lab.close();
    }
  });
});

describe('ClusterSession faults without a server', () => {
  it('says cluster unreachable with the address', async () => {
    const lab = await startTestLab();
    const kubeconfig = path.join(lab.dir, 'kubeconfig');
    // A port nothing listens on.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const text = fs.readFileSync(kubeconfig, 'utf8').replace(/https:\/\/127\.0\.0\.1:\d+/, `https://127.0.0.1:${port}`);
    const dead = path.join(lab.dir, 'dead-kubeconfig');
    fs.writeFileSync(dead, text);
    const s = await ClusterSession.open({ kubeconfig: dead });
    try {
      await assert.rejects(
        s.listServices('default'),
        clusterError('unreachable', new RegExp(`^cluster unreachable: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`)),
      );
    } finally {
      s.dispose();
      await lab.close();
    }
  });
});
