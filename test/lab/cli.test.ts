// The `lab` command: list, argument and scenario errors, the non-root message, and (as root) up -> kubectl -> down
// with a private state folder, so a lab someone keeps running on this machine is never touched.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { isAlive } from './dataplane/cleanup';
import { nodeScriptArgv } from './dataplane/node-script';
import { kubectl, labSkipReason } from './dataplane/probe';
import { findTool, listNetns } from './dataplane/sys';
import { scenariosDir } from './scenario';

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-lab-cli-test-'));

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function lab(args: string[], opts: { asUser?: number } = {}): Promise<Result> {
  let [cmd, ...rest] = nodeScriptArgv(__dirname, 'cli');
  rest = [...rest, ...args];
  if (opts.asUser !== undefined) {
    rest = [`--reuid=${opts.asUser}`, `--regid=${opts.asUser}`, '--clear-groups', cmd, ...rest];
    cmd = findTool('setpriv')!;
  }
  return new Promise((resolve) => {
    execFile(
      cmd,
      rest,
      { encoding: 'utf8', timeout: 150_000, env: { ...process.env, KPP_LAB_STATE_DIR: stateDir } },
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

after(() => {
  fs.rmSync(stateDir, { recursive: true, force: true });
});

describe('lab command without a lab', () => {
  it('list prints every scenario with a description', async () => {
    const r = await lab(['list']);
    assert.equal(r.code, 0, r.stderr);
    for (const name of ['healthy', 'seed-gateway-bypass', 'stale-rules', 'legacy-1.20']) {
      assert.match(r.stdout, new RegExp(`^${name.replace('.', '\\.')}\\s+\\S.*$`, 'm'));
    }
  });

  it('usage errors exit 2 with the usage', async () => {
    const r = await lab(['up']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /up needs a scenario name or --file PATH/);
    assert.match(r.stderr, /usage: npm run lab/);
    assert.equal((await lab(['sideways'])).code, 2);
  });

  it('an unknown scenario or a bad file is named before anything starts', async () => {
    const unknown = await lab(['up', 'nope']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown scenario "nope"; known: .*healthy/);
    const file = path.join(stateDir, 'bad.json');
    const healthy = JSON.parse(fs.readFileSync(path.join(scenariosDir(), 'healthy.json'), 'utf8'));
    healthy.services[1].ports[0].targetPort = 0;
    fs.writeFileSync(file, JSON.stringify(healthy));
    const bad = await lab(['up', '--file', file]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /services\[1\]\.ports\[0\]\.targetPort: must be an integer port/);
  });

  const setpriv = findTool('setpriv');
  const asNobody = process.getuid?.() === 0 && setpriv ? undefined : 'needs root and setpriv to try as a plain user';
  it('as a plain user, up says it needs root and how to run without it', { skip: asNobody }, async () => {
    const r = await lab(['up', 'healthy'], { asUser: 65534 });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /needs root/);
    assert.match(r.stderr, /unshare/);
  });
});

const skipReason = labSkipReason();
describe('lab up / down', { skip: skipReason ? `lab tests skipped: ${skipReason}` : undefined }, () => {
  const kubeconfig = path.join(stateDir, 'kubeconfig.yaml');
  let daemonPid = 0;

  after(async () => {
    if (daemonPid && isAlive(daemonPid)) await lab(['down']);
  });

  it('up returns once the lab is ready and leaves it running', async () => {
    const r = await lab(['up', 'healthy', '--kubeconfig', kubeconfig]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(
      r.stdout,
      new RegExp(`kubeconfig: ${kubeconfig.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(context kpp-lab\\)`),
    );
    daemonPid = Number(/daemon pid (\d+)/.exec(r.stdout)?.[1]);
    assert.ok(isAlive(daemonPid), 'the daemon runs after up returned');
    assert.ok(listNetns().some((n) => n.startsWith(`kpp-p${daemonPid}r`)));
  });

  it('kubectl works with the printed kubeconfig, and exec reaches the data plane', async () => {
    const [nodes, curl] = await Promise.all([
      kubectl(kubeconfig, ['get', 'nodes']),
      kubectl(kubeconfig, ['exec', 'client', '--', 'curl', '-sS', '--max-time', '15', 'http://172.16.0.80/']),
    ]);
    assert.equal(nodes.code, 0, nodes.stderr);
    assert.match(nodes.stdout, /^node-a\s+Ready/m);
    assert.match(nodes.stdout, /^node-b\s+Ready/m);
    assert.equal(curl.code, 0, curl.stderr);
    assert.match(curl.stdout, /^web-\d\n$/);
  });

  it('status shows it, and a second up refuses', async () => {
    assert.equal((await lab(['status'])).code, 0);
    const again = await lab(['up', 'healthy']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already running/);
  });

  it('down stops the daemon and removes its namespaces and files', async () => {
    const r = await lab(['down']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!isAlive(daemonPid), 'the daemon is gone');
    assert.deepEqual(
      listNetns().filter((n) => n.startsWith(`kpp-p${daemonPid}r`)),
      [],
    );
    assert.ok(!fs.existsSync(kubeconfig), 'the kubeconfig is removed');
    assert.ok(!fs.existsSync(path.join(stateDir, 'lab.json')));
    assert.equal((await lab(['status'])).code, 1);
  });
});
