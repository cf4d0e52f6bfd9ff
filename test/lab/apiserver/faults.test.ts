// Fault switches, seen through kubectl and raw HTTPS: unauthorized, forbidExec, delayMs, goAway.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiRequest, kubectlClientVersion, startTestLab, type TestLab } from './testkit';

const skipKubectl = kubectlClientVersion()
  ? false
  : 'kubectl is not available (set KPP_KUBECTL or put kubectl on PATH)';

describe('fault switches', () => {
  let lab: TestLab;
  before(async () => {
    lab = await startTestLab();
  });
  after(() => lab.close());

  it(
    'unauthorized: every request answers 401, kubectl says Unauthorized and exits 1',
    { skip: skipKubectl },
    async () => {
      lab.server.faults.unauthorized = true;
      try {
        const version = await apiRequest(lab.server, '/version', { token: null });
        assert.equal(version.status, 401, 'even the public /version');
        const r = await lab.kubectl(['get', 'pods']);
        assert.equal(r.code, 1);
        // kubectl's words for a 401: "(Unauthorized)" after cached discovery, "(the server has asked for the client to
        // provide credentials)" when discovery itself was refused.
        assert.match(
          r.stderr,
          /error: You must be logged in to the server \((Unauthorized|the server has asked for the client to provide credentials)\)/,
        );
      } finally {
        lab.server.faults.unauthorized = false;
      }
      assert.equal((await lab.kubectl(['get', 'pods'])).code, 0);
    },
  );

  it('forbidExec: kubectl exec exits non-zero and says forbidden', { skip: skipKubectl }, async () => {
    lab.server.faults.forbidExec = true;
    try {
      const r = await lab.kubectl(['exec', '-n', 'shop', 'web-1', '--', 'printf', 'hello']);
      assert.notEqual(r.code, 0);
      assert.match(
        r.stderr,
        /pods "web-1" is forbidden: User "kpp-lab" cannot create resource "pods\/exec" in API group "" in the namespace "shop"/,
      );
      assert.equal(r.stdout, '');
    } finally {
      lab.server.faults.forbidExec = false;
    }
  });

  it('delayMs: kubectl with --request-timeout=1s times out', { skip: skipKubectl }, async () => {
    lab.server.faults.delayMs = 2500;
    try {
      const r = await lab.kubectl(['get', 'pods', '--request-timeout=1s']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /deadline exceeded|Timeout|timed out/i);
    } finally {
      lab.server.faults.delayMs = 0;
    }
  });

  it('delayMs holds back raw answers too', async () => {
    lab.server.faults.delayMs = 300;
    try {
      const started = Date.now();
      assert.equal((await apiRequest(lab.server, '/api/v1/nodes')).status, 200);
      assert.ok(Date.now() - started >= 280);
    } finally {
      lab.server.faults.delayMs = 0;
    }
  });

  it('POST /lab/faults flips switches (with the token, even while unauthorized)', async () => {
    assert.equal(
      (await apiRequest(lab.server, '/lab/faults', { method: 'POST', body: { forbidExec: true }, token: null })).status,
      401,
    );
    const on = await apiRequest(lab.server, '/lab/faults', {
      method: 'POST',
      body: { unauthorized: true, delayMs: 0 },
    });
    assert.deepEqual(on.json(), { unauthorized: true, forbidExec: false, delayMs: 0 });
    assert.equal((await apiRequest(lab.server, '/api/v1/pods')).status, 401);
    const off = await apiRequest(lab.server, '/lab/faults', { method: 'POST', body: { unauthorized: false } });
    assert.equal(off.json().unauthorized, false);
    assert.equal(lab.server.faults.unauthorized, false, 'the switches object is the live one');
    assert.equal((await apiRequest(lab.server, '/lab/faults', { method: 'POST', body: { delayMs: -1 } })).status, 400);
  });
});

describe('goAway', () => {
  it('kubectl then reports connection refused', { skip: skipKubectl }, async () => {
    const lab = await startTestLab();
    try {
      assert.equal((await lab.kubectl(['get', 'ns'])).code, 0);
      await lab.server.goAway();
      const r = await lab.kubectl(['get', 'ns']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /connection to the server 127\.0\.0\.1:\d+ was refused/);
    } finally {
      await lab.close();
    }
  });

  it('cuts open connections at once', async () => {
    const lab = await startTestLab();
    try {
      lab.server.faults.delayMs = 5000;
      const pending = apiRequest(lab.server, '/api/v1/pods').then(
        () => 'answered',
        (e: NodeJS.ErrnoException) => e.code ?? e.message,
      );
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      await lab.server.goAway();
      assert.equal(await pending, 'ECONNRESET');
      assert.ok(Date.now() - started < 1000);
      await assert.rejects(apiRequest(lab.server, '/version'), /ECONNREFUSED/);
    } finally {
      await lab.close();
    }
  });
});
