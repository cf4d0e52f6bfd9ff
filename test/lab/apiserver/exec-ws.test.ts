// pods/exec over a raw `ws` client: channel framing (v5, v4, base64), the status frame, close codes, HTTP errors.
import assert from 'node:assert/strict';
import * as https from 'node:https';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { fakeExec, startTestLab, type TestLab } from './testkit';
import type { LabApiServer } from './types';

interface Frame {
  channel: number;
  data: Buffer;
}

interface ExecResult {
  protocol: string;
  frames: Frame[];
  closeCode: number;
  out(channel: number): string;
}

type Upgrade = { kind: 'ws'; ws: WebSocket } | { kind: 'http'; status: number; body: string };

function execPath(
  pod: string,
  command: string[],
  params: Record<string, string> = { stdout: 'true', stderr: 'true' },
): string {
  const q = new URLSearchParams(params);
  for (const c of command) q.append('command', c);
  return `/api/v1/namespaces/shop/pods/${pod}/exec?${q.toString()}`;
}

function connect(
  server: LabApiServer,
  path: string,
  protocols: string[],
  token: string | null = server.token,
): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`wss://127.0.0.1:${server.port}${path}`, protocols, {
      ca: server.caPem,
      headers: token === null ? {} : { Authorization: `Bearer ${token}` },
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ kind: 'http', status: res.statusCode ?? 0, body }));
    });
    ws.on('open', () => resolve({ kind: 'ws', ws }));
    ws.on('error', reject);
  });
}

/** Collects frames until the server closes; `base64` decodes text frames of the base64 protocols. */
function collect(ws: WebSocket, base64: boolean, afterOpen?: (ws: WebSocket) => void): Promise<ExecResult> {
  return new Promise((resolve) => {
    const frames: Frame[] = [];
    ws.on('message', (raw, isBinary) => {
      const buf = Buffer.isBuffer(raw) ? raw : Buffer.concat(raw as Buffer[]);
      if (base64) {
        assert.equal(isBinary, false, 'base64 protocols use text frames');
        frames.push({ channel: buf[0] - 48, data: Buffer.from(buf.subarray(1).toString(), 'base64') });
      } else {
        assert.equal(isBinary, true, 'channel protocols use binary frames');
        frames.push({ channel: buf[0], data: buf.subarray(1) });
      }
    });
    ws.on('close', (code) =>
      resolve({
        protocol: ws.protocol,
        frames,
        closeCode: code,
        out: (ch) => Buffer.concat(frames.filter((f) => f.channel === ch).map((f) => f.data)).toString(),
      }),
    );
    afterOpen?.(ws);
  });
}

async function runExec(
  server: LabApiServer,
  path: string,
  protocols: string[],
  afterOpen?: (ws: WebSocket) => void,
): Promise<ExecResult> {
  const up = await connect(server, path, protocols);
  if (up.kind !== 'ws') throw new Error(`upgrade refused: ${up.status} ${up.body}`);
  return collect(up.ws, up.ws.protocol.includes('base64'), afterOpen);
}

describe('exec over WebSocket', () => {
  let lab: TestLab;
  before(async () => {
    lab = await startTestLab();
  });
  after(() => lab.close());

  it('v5: stdout on channel 1, Success on channel 3, close 1000', async () => {
    const r = await runExec(lab.server, execPath('web-1', ['printf', 'hello']), ['v5.channel.k8s.io']);
    assert.equal(r.protocol, 'v5.channel.k8s.io');
    assert.deepEqual(
      r.frames[0],
      { channel: 1, data: Buffer.alloc(0) },
      'the session opens with an empty frame on stdout, as a kubelet does',
    );
    assert.equal(r.out(1), 'hello');
    assert.equal(r.out(2), '');
    assert.equal(r.out(3), '{"metadata":{},"status":"Success"}');
    assert.equal(r.frames.at(-1)?.channel, 3, 'the status frame comes last');
    assert.equal(r.closeCode, 1000);
  });

  it('v4: stderr on channel 2 and a NonZeroExitCode status with the exit code', async () => {
    const r = await runExec(lab.server, execPath('web-1', ['sh', '-c', 'echo err >&2; exit 3']), ['v4.channel.k8s.io']);
    assert.equal(r.protocol, 'v4.channel.k8s.io');
    assert.equal(r.out(2), 'err\n');
    assert.deepEqual(JSON.parse(r.out(3)), {
      metadata: {},
      status: 'Failure',
      message:
        'command terminated with non-zero exit code: error executing command [sh -c echo err >&2; exit 3], exit code 3',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
    assert.equal(r.closeCode, 1000);
  });

  it('keeps stdout and stderr apart and honours stdout=false', async () => {
    const both = await runExec(lab.server, execPath('web-1', ['sh', '-c', 'printf out; printf err >&2']), [
      'v5.channel.k8s.io',
    ]);
    assert.equal(both.out(1), 'out');
    assert.equal(both.out(2), 'err');
    const errOnly = await runExec(
      lab.server,
      execPath('web-1', ['sh', '-c', 'printf out; printf err >&2'], { stderr: 'true' }),
      ['v5.channel.k8s.io'],
    );
    assert.equal(errOnly.out(1), '');
    assert.equal(errOnly.out(2), 'err');
  });

  it('v5: stdin on channel 0, closed by a channel-255 frame', async () => {
    const r = await runExec(
      lab.server,
      execPath('web-1', ['cat'], { stdin: 'true', stdout: 'true', stderr: 'true' }),
      ['v5.channel.k8s.io'],
      (ws) => {
        ws.send(Buffer.concat([Buffer.from([0]), Buffer.from('ping\n')]));
        ws.send(Buffer.from([255, 0]));
      },
    );
    assert.equal(r.out(1), 'ping\n');
    assert.equal(r.out(3), '{"metadata":{},"status":"Success"}');
  });

  it("picks the client's most preferred protocol it speaks", async () => {
    const r = await runExec(lab.server, execPath('web-1', ['printf', 'hello']), [
      'v9.channel.k8s.io',
      'v4.channel.k8s.io',
      'v5.channel.k8s.io',
    ]);
    assert.equal(r.protocol, 'v4.channel.k8s.io');
  });

  it('base64.channel.k8s.io: text frames, plain-text error channel', async () => {
    const ok = await runExec(lab.server, execPath('web-1', ['printf', 'hello']), ['base64.channel.k8s.io']);
    assert.equal(ok.out(1), 'hello');
    assert.equal(ok.out(3), '', 'pre-v4 protocols say nothing on success');
    const failed = await runExec(lab.server, execPath('web-1', ['sh', '-c', 'echo err >&2; exit 3']), [
      'base64.channel.k8s.io',
    ]);
    assert.equal(
      failed.out(3),
      'command terminated with non-zero exit code: error executing command [sh -c echo err >&2; exit 3], exit code 3',
    );
  });

  it("a command the pod lacks exits 127 with the runtime's message", async () => {
    const r = await runExec(lab.server, execPath('web-1', ['curl', '-s', 'http://172.16.0.20']), ['v5.channel.k8s.io']);
    assert.match(r.out(2), /exec: "curl": executable file not found in \$PATH/);
    assert.equal(JSON.parse(r.out(3)).details.causes[0].message, '127');
  });

  it('refuses before the upgrade with plain HTTP v1.Status answers', async () => {
    const cases: [string, string[], string | null, number, RegExp][] = [
      [execPath('ghost', ['printf', 'x']), ['v5.channel.k8s.io'], lab.server.token, 404, /^pods "ghost" not found$/],
      [
        execPath('web-1', ['printf', 'x'], { stdout: 'true', container: 'nope' }),
        ['v5.channel.k8s.io'],
        lab.server.token,
        400,
        /^container nope is not valid for pod web-1$/,
      ],
      [
        execPath('web-1', ['printf', 'x'], {}),
        ['v5.channel.k8s.io'],
        lab.server.token,
        400,
        /at least 1 of stdin, stdout, stderr/,
      ],
      [
        execPath('web-1', ['printf', 'x']),
        ['v2.channel.k8s.io'],
        lab.server.token,
        400,
        /none of the offered subprotocols/,
      ],
      [execPath('web-1', ['printf', 'x']), ['v5.channel.k8s.io'], null, 401, /^Unauthorized$/],
    ];
    for (const [path, protocols, token, status, message] of cases) {
      const up = await connect(lab.server, path, protocols, token);
      assert.equal(up.kind, 'http', path);
      if (up.kind !== 'http') continue;
      assert.equal(up.status, status, path);
      const body = JSON.parse(up.body);
      assert.equal(body.kind, 'Status');
      assert.equal(body.code, status);
      assert.match(body.message, message);
    }
  });

  it('answers an SPDY upgrade with the same Status (404) and a clear 400 when the pod exists', async () => {
    const spdy = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = https.request(`${lab.server.url}${path}`, {
          method: 'POST',
          ca: lab.server.caPem,
          headers: {
            Authorization: `Bearer ${lab.server.token}`,
            Connection: 'Upgrade',
            Upgrade: 'SPDY/3.1',
            'X-Stream-Protocol-Version': 'v4.channel.k8s.io',
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('upgrade', () => reject(new Error('SPDY must not be upgraded')));
        req.on('error', reject);
        req.end();
      });
    const missing = await spdy(execPath('ghost', ['printf', 'x']));
    assert.equal(missing.status, 404);
    assert.equal(JSON.parse(missing.body).message, 'pods "ghost" not found');
    const exists = await spdy(execPath('web-1', ['printf', 'x']));
    assert.equal(exists.status, 400);
    assert.match(JSON.parse(exists.body).message, /only over WebSocket/);
  });
});

describe('exec and server close', () => {
  it('close() ends a running exec session and kills its process', async () => {
    let killed = 0;
    const lab = await startTestLab({
      exec: (req) => {
        const proc = fakeExec(req);
        return { ...proc, kill: () => (killed++, proc.kill()) };
      },
    });
    const up = await connect(lab.server, execPath('web-1', ['sleep', '30']), ['v5.channel.k8s.io']);
    assert.equal(up.kind, 'ws');
    if (up.kind !== 'ws') return;
    const result = collect(up.ws, false);
    const started = Date.now();
    await lab.close();
    const r = await result;
    assert.ok(Date.now() - started < 2000);
    assert.notEqual(r.closeCode, 1000, 'an aborted session does not claim a normal end');
    assert.equal(killed, 1);
  });
});
