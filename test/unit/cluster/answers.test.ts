// How the cluster client reads an API answer that is slow, endless or big: from a plain HTTP server of the test's
// own on 127.0.0.1 (a kubeconfig naming it), as a slow VPN, a broken proxy or a huge cluster would answer.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ClusterSession, isClusterError } from '../../../src/cluster';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const service = (i: number) => ({
  metadata: { name: `svc-${i}`, namespace: 'shop', uid: `u${i}`, resourceVersion: '1' },
  spec: { type: 'ClusterIP', clusterIP: `10.0.${i >> 8}.${i & 255}`, ports: [{ port: 80, protocol: 'TCP' }] },
});
const listOf = (items: unknown[], cont?: string) =>
  JSON.stringify({
    kind: 'ServiceList',
    apiVersion: 'v1',
    metadata: { resourceVersion: '7', ...(cont ? { continue: cont } : {}) },
    items,
  });

/** A kubeconfig of one cluster at `server` (plain HTTP: `skipTls` lets client-node use it) and a token user. */
function writeKubeconfig(server: string, skipTls: boolean): string {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kpp-answers-')), 'kubeconfig');
  const cluster = `- name: local\n  cluster:\n    server: ${server}${skipTls ? '\n    insecure-skip-tls-verify: true' : ''}`;
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      cluster,
      'users:',
      '- name: tester\n  user:\n    token: not-a-real-token',
      'contexts:',
      '- name: local\n  context:\n    cluster: local\n    user: tester\n    namespace: shop',
      'current-context: local',
      '',
    ].join('\n'),
  );
  return kubeconfig;
}

describe('API answers that are slow, endless or big', () => {
  let server: http.Server;
  let handler: Handler = (_req, res) => res.end();
  let session: ClusterSession;
  const asked: string[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      handler(req, res);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const kubeconfig = writeKubeconfig(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, true);
    session = await ClusterSession.open({ kubeconfig, timeoutMs: 2000 });
  });
  after(() => {
    session?.dispose();
    server.closeAllConnections();
    server.close();
  });

  it('asks for lists in pages of 500 and follows continue', async () => {
    asked.length = 0;
    handler = (req, res) => {
      const page = new URL(req.url ?? '', 'http://x').searchParams.get('continue') === 'p2' ? 2 : 1;
      res.setHeader('Content-Type', 'application/json');
      res.end(page === 1 ? listOf([service(1), service(2)], 'p2') : listOf([service(3)]));
    };
    const names = (await session.listServices('shop')).map((s) => s.name);
    assert.deepEqual(names, ['svc-1', 'svc-2', 'svc-3']);
    assert.deepEqual(asked, [
      '/api/v1/namespaces/shop/services?limit=500',
      '/api/v1/namespaces/shop/services?limit=500&continue=p2',
    ]);
  });

  it('a list whose page token comes back stops with a message, not a silent endless loop', async () => {
    asked.length = 0;
    // What a proxy that drops the query string gives: the first page, with the same token, each time.
    handler = (_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(listOf([service(1)], 'same-token'));
    };
    await assert.rejects(session.listServices('shop'), (e: unknown) => {
      assert.ok(isClusterError(e));
      assert.equal(e.code, 'api');
      assert.match(
        e.message,
        /gave back a page token it had given before: list services in shop stopped after 2 pages/,
      );
      assert.match(e.hint, /dropping the `continue` parameter/);
      return true;
    });
    assert.equal(asked.length, 2);
  });

  it('a list that pages on without end, each page with a new token, stops after 2,000 pages', async () => {
    let page = 0;
    handler = (_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(listOf(page % 2 ? [service(page)] : [], `page-${++page}`));
    };
    await assert.rejects(session.listServices('shop'), (e: unknown) => {
      assert.ok(isClusterError(e));
      assert.match(e.message, /the API kept paging: list services in shop stopped after 2000 pages \(1000 items\)/);
      return true;
    });
  });

  it('a watch the server ends at once, or with an ERROR, waits for the backoff; a 410 Gone lists again at once', async () => {
    for (const ending of ['at once', 'with an ERROR 504', 'with a 410 Gone'] as const) {
      const asked: string[] = [];
      handler = (req, res) => {
        res.setHeader('Content-Type', 'application/json');
        const watch = req.url?.includes('watch=') ?? false;
        asked.push(watch ? 'watch' : 'list');
        if (!watch) return void res.end(listOf([service(1)]));
        const code = ending === 'with a 410 Gone' && asked.filter((a) => a === 'watch').length === 1 ? 410 : 504;
        const status = {
          kind: 'Status',
          code,
          message: code === 410 ? 'too old resource version' : 'Too large resource version',
        };
        res.end(ending === 'at once' ? '' : JSON.stringify({ type: 'ERROR', object: status }) + '\n');
      };
      const errors: string[] = [];
      // A backoff of ten minutes: any second watch in the next moments came without one (before: hundreds).
      const stop = session.watch('services', 'shop', () => undefined, {
        backoffMs: 600_000,
        onError: (e) => errors.push(`${e.status} ${e.message}`),
      });
      await new Promise((done) => setTimeout(done, 700));
      stop();
      if (ending === 'with a 410 Gone') {
        // 410 is the protocol's "list again": the list and the next watch come at once, then the 504 waits.
        assert.deepEqual(asked, ['list', 'watch', 'list', 'watch'], ending);
        assert.equal(errors.length, 1, ending);
      } else {
        assert.deepEqual(asked, ['list', 'watch'], ending);
        if (ending === 'at once') assert.deepEqual(errors, []);
        else
          assert.match(
            errors[0],
            /^504 the API server ended the watch of services in shop with an error 504: Too large/,
          );
      }
    }
  });

  it('an answer still arriving after the timeout is read whole: the timeout is for silence', async () => {
    const body = Buffer.from(listOf(Array.from({ length: 40 }, (_, i) => service(i))));
    handler = (_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      // 8 pieces 400 ms apart: 2.8 s in all, never 2 s without a byte (a margin of 1.6 s for a loaded machine).
      let at = 0;
      const piece = Math.ceil(body.length / 8);
      const next = () => {
        res.write(body.subarray(at, (at += piece)));
        if (at >= body.length) res.end();
        else setTimeout(next, 400);
      };
      next();
    };
    assert.equal((await session.listServices('shop')).length, 40);
  });

  it('an answer that stops arriving times out, saying what was asked', async () => {
    handler = (_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.write('{"kind":"ServiceList","items":[');
    };
    await assert.rejects(session.listServices('shop'), (e: unknown) => {
      assert.ok(isClusterError(e));
      assert.equal(e.code, 'timeout');
      assert.match(e.message, /timed out after 2 s: list services in shop/);
      return true;
    });
  });

  it('an answer that never ends stops at 256 MB with a message, not a crash or all of memory', async () => {
    const block = Buffer.alloc(1024 * 1024, ' ');
    handler = (_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      const pump = () => {
        while (!res.destroyed && res.write(block));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    };
    await assert.rejects(session.listServices('shop'), (e: unknown) => {
      assert.ok(isClusterError(e));
      assert.equal(e.code, 'api');
      assert.match(e.message, /answer to list services in shop is larger than 256 MB/);
      assert.match(e.hint, /is the server a Kubernetes API server/);
      return true;
    });
  });
});

describe('a kubeconfig whose server is plain http://', () => {
  it('says the server address is the problem, not the user credentials', async () => {
    const kubeconfig = writeKubeconfig('http://127.0.0.1:1', false);
    const session = await ClusterSession.open({ kubeconfig });
    try {
      await assert.rejects(session.listServices('default'), (e: unknown) => {
        assert.ok(isClusterError(e));
        assert.equal(e.code, 'kubeconfig');
        assert.match(e.message, /server http:\/\/127\.0\.0\.1:1 is plain http:\/\//);
        assert.doesNotMatch(e.message, /credentials/);
        return true;
      });
    } finally {
      session.dispose();
    }
  });
});
