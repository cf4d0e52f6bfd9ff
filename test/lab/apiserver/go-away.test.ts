// The API server going away mid-check and coming back: suspend/resume (what `npm run lab -- api-stop/api-start`
// do), and the goAwayAfter fault (the N-th request is answered, then the listener closes).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiRequest, kubectlClientVersion, startTestLab, type TestLab } from './testkit';

const skipKubectl = kubectlClientVersion()
  ? false
  : 'kubectl is not available (set KPP_KUBECTL or put kubectl on PATH)';

const outcome = (p: Promise<{ status: number }>) =>
  p.then(
    (r) => r.status,
    (e: NodeJS.ErrnoException) => e.code ?? e.message,
  );

describe('suspend and resume', () => {
  let lab: TestLab;
  before(async () => {
    lab = await startTestLab();
  });
  after(() => lab.close());

  it(
    'kubectl sees connection refused while suspended, and works again on the same port after resume',
    {
      skip: skipKubectl,
    },
    async () => {
      const port = lab.server.port;
      assert.equal((await lab.kubectl(['get', 'ns'])).code, 0);
      await lab.server.suspend();
      assert.equal(lab.server.listening, false);
      const down = await lab.kubectl(['get', 'pods', '-A']);
      assert.equal(down.code, 1);
      assert.match(down.stderr, /The connection to the server 127\.0\.0\.1:\d+ was refused/);
      await lab.server.resume();
      assert.equal(lab.server.listening, true);
      assert.equal(lab.server.port, port);
      const up = await lab.kubectl(['get', 'pods', '-A']);
      assert.equal(up.code, 0, up.stderr);
    },
  );

  it('cuts a watch that is open when it goes away', async () => {
    const watching = outcome(apiRequest(lab.server, '/api/v1/pods?watch=1&timeoutSeconds=30', { timeoutMs: 5000 }));
    await new Promise((r) => setTimeout(r, 200));
    await lab.server.suspend();
    assert.match(String(await watching), /^(ECONNRESET|200)$/);
    assert.equal(await outcome(apiRequest(lab.server, '/version')), 'ECONNREFUSED');
    await lab.server.resume();
    assert.equal(await outcome(apiRequest(lab.server, '/version')), 200);
  });
});

describe('goAwayAfter', () => {
  it('answers N requests, then refuses until resumed', async () => {
    const lab = await startTestLab();
    try {
      lab.server.goAwayAfter(3);
      for (let i = 0; i < 3; i++) assert.equal(await outcome(apiRequest(lab.server, '/api/v1/pods')), 200);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(await outcome(apiRequest(lab.server, '/api/v1/pods')), 'ECONNREFUSED');
      assert.equal(lab.server.listening, false);
      await lab.server.resume();
      assert.equal(await outcome(apiRequest(lab.server, '/api/v1/pods')), 200);
    } finally {
      await lab.close();
    }
  });

  it('comes back by itself after downForMs (the option a scenario sets)', async () => {
    const lab = await startTestLab({ goAwayAfterRequests: 1, downForMs: 300 });
    try {
      assert.equal(await outcome(apiRequest(lab.server, '/api/v1/nodes')), 200);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(await outcome(apiRequest(lab.server, '/api/v1/nodes')), 'ECONNREFUSED');
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(await outcome(apiRequest(lab.server, '/api/v1/nodes')), 200);
    } finally {
      await lab.close();
    }
  });

  it(
    'kubectl mid-way: the first calls work, the next says the connection was refused',
    { skip: skipKubectl },
    async () => {
      const lab = await startTestLab();
      try {
        assert.equal((await lab.kubectl(['get', 'pods', '-A'])).code, 0); // discovery cached
        // With discovery cached, kubectl get asks /version, then lists: two requests.
        lab.server.goAwayAfter(2);
        assert.equal((await lab.kubectl(['get', 'svc', '-A'])).code, 0);
        await new Promise((r) => setTimeout(r, 50));
        const r = await lab.kubectl(['get', 'pods', '-A']);
        assert.equal(r.code, 1);
        assert.match(r.stderr, /refused/);
      } finally {
        await lab.close();
      }
    },
  );
});
