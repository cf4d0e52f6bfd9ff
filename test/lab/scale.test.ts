// The scale lab: N Services x M endpoints served by the lab API only (no data plane, no root needed), as a function
// for benchmarks and as `npm run lab -- up --scale NxM`; and the lab command's api-stop / api-start on it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { isAlive } from './dataplane/cleanup';
import { nodeScriptArgv } from './dataplane/node-script';
import { findKubectl, kubectl } from './dataplane/probe';
import { parseScale, scaleObjects, startScaleLab } from './scale';

const skipKubectl = findKubectl() ? false : 'kubectl is not on PATH (the scale tests use it as an independent client)';
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-lab-scale-kubectl-'));
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-lab-scale-state-'));

after(() => {
  fs.rmSync(cacheDir, { recursive: true, force: true });
  fs.rmSync(stateDir, { recursive: true, force: true });
});

describe('scale objects', () => {
  it('parses NxM and refuses the rest', () => {
    assert.deepEqual(parseScale('5000x3'), { services: 5000, endpoints: 3 });
    assert.deepEqual(parseScale('10x0'), { services: 10, endpoints: 0 });
    for (const bad of ['5000', 'x3', '0x3', '5000x101', '1e3x1', '5000 x 3', '200000x1'])
      assert.throws(() => parseScale(bad), /--scale/, bad);
  });

  it('makes N Services with M endpoints each, their slices and pods, deterministically', () => {
    const objects = scaleObjects({ services: 1200, endpoints: 2 }, '2026-01-01T00:00:00Z');
    const count = (kind: string) => objects.filter((o) => o.kind === kind).length;
    assert.equal(count('Service'), 1201); // + default/kubernetes
    assert.equal(count('Endpoints'), 1201);
    assert.equal(count('EndpointSlice'), 1200);
    assert.equal(count('Pod'), 2400);
    assert.equal(count('Namespace'), 4 + 3); // ceil(1200 / 500) scale namespaces
    const ips = objects.filter((o) => o.kind === 'Service').map((o) => (o.spec as { clusterIP: string }).clusterIP);
    assert.equal(new Set(ips).size, ips.length, 'ClusterIPs are unique');
    const podIps = objects.filter((o) => o.kind === 'Pod').map((o) => (o.status as { podIP: string }).podIP);
    assert.equal(new Set(podIps).size, podIps.length, 'pod IPs are unique');
    assert.deepEqual(scaleObjects({ services: 1200, endpoints: 2 }, '2026-01-01T00:00:00Z'), objects);
  });
});

describe('startScaleLab (5,000 x 3)', () => {
  it(
    'starts fast; kubectl lists 5,000 Services and 15,000 pods; exec says there is no data plane',
    {
      skip: skipKubectl,
      timeout: 120_000,
    },
    async () => {
      const started = Date.now();
      const lab = await startScaleLab({ services: 5000, endpoints: 3 });
      const startMs = Date.now() - started;
      try {
        assert.ok(startMs < 15_000, `started in ${startMs} ms`);
        process.stderr.write(`# scale lab 5000x3 up in ${startMs} ms\n`);
        const k = (...args: string[]) =>
          kubectl(lab.kubeconfig, ['--cache-dir', cacheDir, ...args], { timeoutMs: 90_000 });
        const svc = await k('get', 'svc', '-A', '--no-headers');
        assert.equal(svc.code, 0, svc.stderr);
        const lines = svc.stdout.trim().split('\n');
        assert.equal(lines.length, 5001);
        assert.match(svc.stdout, /^scale-0\s+svc-0\s+ClusterIP\s+10\.96\.0\.16\s+<none>\s+80\/TCP\s/m);
        const eps = await k('get', 'endpoints', '-n', 'scale-3', 'svc-3', '--no-headers');
        assert.match(eps.stdout, /^svc-3\s+(10\.\d+\.\d+\.\d+:8080,?){3}\s/m);
        const slices = await k('get', 'endpointslices', '-A', '-o', 'name');
        assert.equal(slices.stdout.trim().split('\n').length, 5000);
        const pods = await k('get', 'pods', '-A', '-o', 'name');
        assert.equal(pods.stdout.trim().split('\n').length, 15_000);
        const exec = await k('exec', '-n', 'scale-0', 'svc-0-0', '--', 'true');
        assert.equal(exec.code, 1);
        assert.match(exec.stderr, /serves the API only \(no data plane\)/);
      } finally {
        await lab.stop();
      }
      assert.ok(!fs.existsSync(lab.workDir), 'its work folder is removed');
    },
  );
});

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function labCommand(args: string[]): Promise<Result> {
  const [cmd, ...rest] = nodeScriptArgv(__dirname, 'cli');
  return new Promise((resolve) => {
    execFile(
      cmd,
      [...rest, ...args],
      { encoding: 'utf8', timeout: 60_000, env: { ...process.env, KPP_LAB_STATE_DIR: stateDir } },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('npm run lab -- up --scale, api-stop, api-start', () => {
  it(
    'serves the scale lab in the background; the API server goes away and comes back on the same port',
    {
      skip: skipKubectl,
      timeout: 120_000,
    },
    async () => {
      const usage = await labCommand(['up', '--scale', '12']);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /--scale wants SERVICESxENDPOINTS/);

      const up = await labCommand(['up', '--scale', '300x2']);
      assert.equal(up.code, 0, up.stderr + up.stdout);
      assert.match(up.stdout, /lab "scale:300x2" is up \(daemon pid (\d+), API https:\/\/127\.0\.0\.1:(\d+)\)/);
      const pid = Number(/daemon pid (\d+)/.exec(up.stdout)![1]);
      const kubeconfig = path.join(stateDir, 'kubeconfig');
      const k = (...args: string[]) => kubectl(kubeconfig, ['--cache-dir', cacheDir, '--request-timeout=10s', ...args]);
      try {
        assert.equal((await k('get', 'svc', '-A', '-o', 'name')).stdout.trim().split('\n').length, 301);

        const stop = await labCommand(['api-stop']);
        assert.equal(stop.code, 0, stop.stderr);
        assert.match(stop.stdout, /stopped: clients now see connection refused/);
        const refused = await k('get', 'svc', '-A');
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /The connection to the server 127\.0\.0\.1:\d+ was refused/);
        assert.match((await labCommand(['status'])).stdout, /the API server is stopped/);

        const start = await labCommand(['api-start']);
        assert.equal(start.code, 0, start.stderr);
        assert.equal((await k('get', 'ns', '-o', 'name')).code, 0);

        // Mid-check: two more requests are answered (kubectl: /version, then the list), then it is gone for 1 s.
        const armed = await labCommand(['api-stop', '--after', '2', '--for', '1000']);
        assert.equal(armed.code, 0, armed.stderr);
        assert.equal((await k('get', 'ns', '-o', 'name')).code, 0);
        await new Promise((r) => setTimeout(r, 100));
        assert.equal((await k('get', 'ns')).code, 1);
        await new Promise((r) => setTimeout(r, 1500));
        const back = await k('get', 'ns', '-o', 'name');
        assert.equal(back.code, 0, back.stderr);

        assert.equal((await labCommand(['api-stop', '--after', '0'])).code, 2);
      } finally {
        const down = await labCommand(['down']);
        assert.equal(down.code, 0, down.stderr);
      }
      assert.ok(!isAlive(pid), 'the daemon is gone');
      assert.ok(!fs.existsSync(kubeconfig), 'its kubeconfig is removed');
    },
  );
});
