// `kpp diagnose`, `kpp services` and `kpp capture` (dist/cli.js) against the lab: every scenario's verdict, the
// services list next to kubectl's, and the faults (API gone, 403, timeout, pod deleted mid-check, hostile names),
// each with a clear message and nothing of ours left in the cluster. Needs root, `ip` and kubectl; skips with the
// reason otherwise. Run serially: npx tsx --test --test-concurrency=1 test/lab/diagnose.test.ts
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { repoRoot } from '../helpers/corpus';
import { removeLabNamespaces, removeStaleLabs } from './dataplane/cleanup';
import { startLab, type Lab } from './dataplane/lab';
import { kubectl, labSkipReason } from './dataplane/probe';
import { listNetns } from './dataplane/sys';
import { listScenarios, loadScenario } from './scenario';

const root = repoRoot(__dirname);
const cli = path.join(root, 'dist', 'cli.js');
const skipReason = labSkipReason();
const OUR_PREFIX = `kpp-p${process.pid}r`;
const known = new Set(listScenarios().map((s) => s.name));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** dist/cli.js, rebuilt when a source it bundles is newer (a targeted run after an edit must not test old code). */
function ensureBuilt(): void {
  const newest = (dir: string): number => {
    let t = 0;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
    }
    return t;
  };
  const built = fs.existsSync(cli) ? fs.statSync(cli).mtimeMs : 0;
  if (built > newest(path.join(root, 'src'))) return;
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, `build failed: ${r.stderr}`);
}

function kpp(args: string[], opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { encoding: 'utf8', timeout: opts.timeoutMs ?? 90_000, env: { ...process.env, LANG: 'C', ...opts.env } },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : null
          : 0;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

interface Report {
  service: { namespace: string; name: string; clusterIP: string; port: number; protocol: string };
  source: { namespace: string; pod: string; container?: string; ip?: string; node?: string; debugContainer?: string };
  checks: {
    id: string;
    argv: string[];
    exitCode: number | null;
    durationMs: number;
    ok: boolean;
    stdout: string;
    stderr: string;
  }[];
  node?: { name: string; via?: string; counters: { before: unknown[]; after: unknown[] }; error?: string };
  verdict: { code: string; summary: string; evidence: unknown[]; nextSteps: string[] };
}

function parseReport(r: Run): Report {
  try {
    return JSON.parse(r.stdout) as Report;
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 300)}`);
  }
}

/** Pods this product created (debug pods) anywhere in the cluster. */
async function ourPods(lab: Lab): Promise<string[]> {
  const r = await kubectl(lab.kubeconfig, [
    'get',
    'pods',
    '-A',
    '-l',
    'app.kubernetes.io/managed-by=kube-packet-path',
    '-o',
    'name',
  ]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.split('\n').filter(Boolean);
}

if (skipReason) {
  test('kpp diagnose against the lab', { skip: `lab tests skipped: ${skipReason}` }, () => undefined);
} else {
  const running = new Set<Lab>();
  const timings: string[] = [];

  before(() => {
    removeStaleLabs();
    ensureBuilt();
  });

  after(async () => {
    for (const lab of running) await lab.stop();
    removeLabNamespaces(listNetns().filter((n) => n.startsWith(OUR_PREFIX)));
    removeStaleLabs();
    if (timings.length) process.stdout.write(`# diagnose times: ${timings.join(', ')}\n`);
  });

  /** A fresh lab for the block's tests, torn down after them; skipped when the scenario is not in this tree. */
  const scenario = (name: string, body: (lab: () => Lab) => void) => {
    if (!known.has(name)) {
      test(`scenario ${name}`, { skip: `scenario ${name} is not in test/lab/scenarios yet` }, () => undefined);
      return;
    }
    describe(name, () => {
      let current: Lab | undefined;
      before(async () => {
        current = await startLab(loadScenario(name));
        running.add(current);
      });
      after(async () => {
        if (current) {
          await current.stop();
          running.delete(current);
        }
      });
      body(() => {
        if (!current) throw new Error(`lab ${name} did not start`);
        return current;
      });
    });
  };

  const diagnose = async (
    lab: Lab,
    label: string,
    extra: string[] = [],
    svc = 'svc/web',
  ): Promise<{ run: Run; report: Report }> => {
    const run = await kpp([
      'diagnose',
      svc,
      '-n',
      'default',
      '--from',
      'pod/client',
      '--json',
      '--kubeconfig',
      lab.kubeconfig,
      ...extra,
    ]);
    timings.push(`${label} ${run.ms} ms`);
    return { run, report: parseReport(run) };
  };

  /** The verdict, its exit code, the JSON contract's keys, and that nothing of ours is left. */
  const verdicts = (lab: () => Lab, name: string, cases: [string, string[]?, string?][]) => {
    for (const [code, extra = [], svc = 'svc/web'] of cases) {
      it(`${svc} ${extra.join(' ') || 'from pod/client'} -> ${code}`, async (t) => {
        const label = `${name}${extra.length ? ` ${extra.join(' ')}` : ''}${svc === 'svc/web' ? '' : ` ${svc}`}`;
        const { run, report } = await diagnose(lab(), label, extra, svc);
        t.diagnostic(`${report.verdict.code} in ${run.ms} ms: ${report.verdict.summary}`);
        assert.equal(report.verdict.code, code, `${report.verdict.summary}\n${run.stderr}`);
        assert.equal(run.code, code === 'ok' ? 0 : 1, run.stderr);
        assert.deepEqual(Object.keys(report.verdict).sort(), ['code', 'evidence', 'nextSteps', 'summary']);
        const from = ['--from', 'pod/client', ...extra].filter((_, i, a) => a[i - 1] === '--from').pop();
        assert.equal(`pod/${report.source.pod}`, from);
        for (const c of report.checks) {
          for (const k of ['id', 'argv', 'exitCode', 'durationMs', 'ok', 'stdout', 'stderr'])
            assert.ok(k in c, `${c.id}: ${k}`);
          assert.ok(Array.isArray(c.argv) && c.argv.every((a) => typeof a === 'string'));
        }
        assert.deepEqual(await ourPods(lab()), [], 'no debug pod is left');
      });
    }
  };

  scenario('healthy', (lab) => {
    verdicts(lab, 'healthy', [['ok']]);

    it('the report says where the node evidence came from and that the probe moved the counters', async () => {
      const { report } = await diagnose(lab(), 'healthy (node)');
      assert.equal(report.node?.name, 'node-a');
      assert.match(report.node?.via ?? '', /^exec kube-system\/kube-proxy-/);
      assert.ok(report.node!.counters.before.length > 0 && report.node!.counters.after.length > 0);
    });

    it('without --from picks a running pod of the namespace and says which', async () => {
      const run = await kpp([
        'diagnose',
        'svc/web',
        '-n',
        'default',
        '--json',
        '--kubeconfig',
        lab().kubeconfig,
        '--verbose',
      ]);
      const report = parseReport(run);
      assert.match(run.stderr, /no --from given: checking from pod default\/client/);
      assert.equal(report.source.pod, 'client');
      assert.equal(report.verdict.code, 'ok');
    });

    it('prints the Markdown report without --json, in Chinese with --lang zh-CN', async () => {
      const en = await kpp([
        'diagnose',
        'svc/web',
        '-n',
        'default',
        '--from',
        'pod/client',
        '--kubeconfig',
        lab().kubeconfig,
      ]);
      assert.equal(en.code, 0, en.stderr);
      assert.match(en.stdout, /^# /);
      assert.match(en.stdout, /`ok`/);
      const zh = await kpp([
        'diagnose',
        'svc/web',
        '-n',
        'default',
        '--from',
        'pod/client',
        '--lang',
        'zh-CN',
        '--kubeconfig',
        lab().kubeconfig,
      ]);
      assert.equal(zh.code, 0, zh.stderr);
      assert.match(zh.stdout, /[\u4e00-\u9fff]/);
    });

    it('kpp services -A --json lists what kubectl get svc -A -o json lists', async () => {
      const [ours, theirs] = await Promise.all([
        kpp(['services', '-A', '--json', '--kubeconfig', lab().kubeconfig]),
        kubectl(lab().kubeconfig, ['get', 'svc', '-A', '-o', 'json']),
      ]);
      assert.equal(ours.code, 0, ours.stderr);
      const mine = (
        JSON.parse(ours.stdout) as {
          services: {
            namespace: string;
            name: string;
            clusterIP: string;
            ports: { port: number; protocol: string }[];
          }[];
        }
      ).services
        .map(
          (s) => `${s.namespace}/${s.name} ${s.clusterIP} ${s.ports.map((p) => `${p.port}/${p.protocol}`).join(',')}`,
        )
        .sort();
      const kube = (
        JSON.parse(theirs.stdout) as {
          items: {
            metadata: { namespace: string; name: string };
            spec: { clusterIP: string; ports: { port: number; protocol?: string }[] };
          }[];
        }
      ).items
        .map(
          (s) =>
            `${s.metadata.namespace}/${s.metadata.name} ${s.spec.clusterIP} ${s.spec.ports.map((p) => `${p.port}/${p.protocol ?? 'TCP'}`).join(',')}`,
        )
        .sort();
      assert.deepEqual(mine, kube);
      const text = await kpp(['services', '-n', 'default', '--kubeconfig', lab().kubeconfig]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^NAME\s+TYPE\s+CLUSTER-IP\s+PORT\(S\)\s+ENDPOINTS$/m);
      assert.match(text.stdout, /^web\s+ClusterIP\s+172\.16\.0\.80\s+80\/TCP\s+3\/3 ready$/m);
    });

    it('kpp capture node/node-a writes the node dumps and prints their paths', async () => {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-capture-'));
      try {
        const r = await kpp(['capture', 'node/node-a', '--out', out, '--kubeconfig', lab().kubeconfig]);
        assert.equal(r.code, 0, r.stderr);
        const files = r.stdout.split('\n').filter(Boolean);
        assert.ok(
          files.some((f) => f.endsWith('node-a.iptables-save-c.txt')),
          r.stdout,
        );
        assert.ok(
          files.some((f) => f.endsWith('node-a.ip-o-addr.txt')),
          r.stdout,
        );
        for (const f of files) assert.ok(fs.existsSync(f) && fs.statSync(f).size > 0, f);
        const save = fs.readFileSync(
          files.find((f) => f.includes('iptables-save'))!,
          'utf8',
        );
        assert.match(save, /-A KUBE-SERVICES -d 172\.16\.0\.80\/32/);
        assert.match(
          fs.readFileSync(
            files.find((f) => f.includes('ip-o-addr'))!,
            'utf8',
          ),
          /192\.168\.10\.11/,
        );
      } finally {
        fs.rmSync(out, { recursive: true, force: true });
      }
    });

    it('the viewer context (exec answers 403) -> exec-forbidden with the API message', async () => {
      const { run, report } = await diagnose(lab(), 'healthy viewer', ['--context', 'kpp-lab-viewer']);
      assert.equal(run.code, 1);
      assert.equal(report.verdict.code, 'exec-forbidden');
      assert.match(JSON.stringify(report.verdict), /cannot create resource \\"pods\/exec\\"/);
    });

    it('hostile names never reach a shell: validation rejects them with a clear message (exit 2)', async () => {
      const marker = path.join(os.tmpdir(), `kpp-pwned-${process.pid}`);
      const cases: [string[], RegExp][] = [
        [['diagnose', `svc/web;touch ${marker}`, '-n', 'default'], /is not a valid Service name/],
        [['diagnose', 'svc/web', '-n', 'default', '--from', `pod/$(touch ${marker})`], /is not a valid pod name/],
        [['diagnose', 'svc/web', '-n', '`id`'], /is not a valid namespace name/],
        [
          ['diagnose', 'svc/web', '-n', 'default', '--from', 'pod/client', '--container', 'a|b'],
          /is not a valid container name/,
        ],
        [['capture', `node/node-a&&touch ${marker}`], /is not a valid node name/],
        [['services', '-n', 'default;id'], /is not a valid namespace name/],
      ];
      for (const [args, message] of cases) {
        const r = await kpp([...args, '--kubeconfig', lab().kubeconfig]);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, message);
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      }
      // A Service and a pod with such names in the cluster: listed around (with a warning), never used.
      lab().api.store.upsert({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: `evil;touch ${marker}`, namespace: 'default' },
        spec: { clusterIP: '172.16.9.9', ports: [{ port: 80, protocol: 'TCP' }] },
      });
      try {
        const r = await kpp(['services', '-n', 'default', '--json', '--kubeconfig', lab().kubeconfig]);
        assert.equal(r.code, 0, r.stderr);
        const listed = JSON.parse(r.stdout) as { services: { name: string }[]; warnings?: string[] };
        assert.ok(!listed.services.some((s) => s.name.includes('evil')));
        assert.ok(
          listed.warnings?.some((w) => w.includes('is not a valid name')),
          r.stdout,
        );
      } finally {
        lab().api.store.remove('Service', 'default', `evil;touch ${marker}`);
      }
      assert.equal(fs.existsSync(marker), false);
    });

    it('usage and lookup errors: one line naming what is wrong (exit 2)', async () => {
      const cases: [string[], RegExp][] = [
        [['diagnose'], /^kpp diagnose: missing svc\/NAME$/],
        [['diagnose', 'deploy/web'], /expected svc\/NAME, got "deploy\/web"/],
        [
          ['diagnose', 'svc/nope', '-n', 'default'],
          /^kpp diagnose: Service default\/nope not found \(list them with: kpp services -n default\)$/,
        ],
        [
          ['diagnose', 'svc/web', '-n', 'default', '--port', '8443'],
          /Service default\/web has no port 8443 \(ports: http:80\/TCP \(targetPort 8080\)\)/,
        ],
        [['diagnose', 'svc/web', '-n', 'default', '--from', 'pod/ghost'], /pod default\/ghost not found/],
        [
          ['diagnose', 'svc/web', '-n', 'default', '--from', 'pod/client', '--container', 'nope'],
          /pod default\/client has no container nope \(containers: client\)/,
        ],
        [
          ['diagnose', 'svc/web', '--context', 'nope'],
          /context "nope" is not in the kubeconfig \(contexts: kpp-lab, kpp-lab-viewer\)/,
        ],
        [['capture', 'node/ghost'], /404: node ghost not found/],
        [['services', '-n', 'default', '-A'], /-n and -A cannot go together/],
      ];
      for (const [args, message] of cases) {
        const r = await kpp([...args, '--kubeconfig', lab().kubeconfig]);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
        assert.match(r.stderr.trim(), message);
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      }
    });

    it('a slow API: --request-timeout ends the call with one line (exit 2)', async () => {
      lab().api.faults.delayMs = 3000;
      try {
        const r = await kpp(['services', '-n', 'default', '--request-timeout', '1', '--kubeconfig', lab().kubeconfig]);
        assert.equal(r.code, 2);
        assert.match(r.stderr, /^kpp services: timed out after 1 s: list services in default/);
        assert.equal(r.stderr.trim().split('\n').length, 1);
      } finally {
        lab().api.faults.delayMs = 0;
      }
    });

    it('without a usable kube-proxy pod: node evidence needs --yes; with it a debug pod is made and deleted', async () => {
      const proxies = lab()
        .api.store.list('Pod', 'kube-system')
        .filter((p) => p.metadata.name.startsWith('kube-proxy-'));
      for (const p of proxies) lab().api.store.remove('Pod', 'kube-system', p.metadata.name);
      try {
        const without = await diagnose(lab(), 'healthy no-kube-proxy');
        assert.equal(without.report.verdict.code, 'ok');
        assert.match(without.report.node?.error ?? '', /privileged debug pod, which was not confirmed/);
        const withYes = await diagnose(lab(), 'healthy debug-pod --yes', ['--yes']);
        assert.equal(withYes.report.verdict.code, 'ok', withYes.run.stderr);
        assert.match(withYes.report.node?.via ?? '', /^debug pod default\/kpp-node-debug-node-a-/);
        assert.ok(withYes.report.node!.counters.after.length > 0);
        assert.deepEqual(await ourPods(lab()), [], 'the debug pod was deleted');
      } finally {
        for (const p of proxies) lab().api.store.upsert(p);
      }
    });

    it('the API going away mid-check: exit 2 with "cluster unreachable", one line', async () => {
      lab().api.goAwayAfter(8);
      try {
        const r = await kpp([
          'diagnose',
          'svc/web',
          '-n',
          'default',
          '--from',
          'pod/client',
          '--json',
          '--kubeconfig',
          lab().kubeconfig,
        ]);
        assert.equal(r.code, 2, r.stdout);
        assert.match(r.stderr, /^kpp diagnose: cluster unreachable: /);
        assert.equal(r.stderr.trim().split('\n').length, 1);
      } finally {
        if (!lab().api.listening) await lab().api.resume();
      }
      assert.deepEqual(await ourPods(lab()), []);
    });

    it('the API going away: exit 2 with "cluster unreachable" (last: the server does not come back)', async () => {
      await lab().api.goAway();
      const r = await kpp([
        'diagnose',
        'svc/web',
        '-n',
        'default',
        '--from',
        'pod/client',
        '--json',
        '--kubeconfig',
        lab().kubeconfig,
      ]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^kpp diagnose: cluster unreachable: connect ECONNREFUSED 127\.0\.0\.1:\d+ /);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.equal(r.stdout, '');
    });
  });

  scenario('seed-gateway-bypass', (lab) => {
    verdicts(lab, 'seed-gateway-bypass', [
      ['pod-route-bypasses-node'],
      ['pod-route-bypasses-node', [], 'svc/kubernetes'],
    ]);

    it('cancelled (SIGINT) while a debug pod exists: exit 130 and the pod is deleted', async () => {
      const proxies = lab()
        .api.store.list('Pod', 'kube-system')
        .filter((p) => p.metadata.name.startsWith('kube-proxy-'));
      for (const p of proxies) lab().api.store.remove('Pod', 'kube-system', p.metadata.name);
      try {
        const child = spawn(
          process.execPath,
          [
            cli,
            'diagnose',
            'svc/web',
            '-n',
            'default',
            '--from',
            'pod/client',
            '--json',
            '--yes',
            '--kubeconfig',
            lab().kubeconfig,
          ],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        // Wait until the debug pod exists, then interrupt.
        const deadline = Date.now() + 20_000;
        while ((await ourPods(lab())).length === 0 && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 100));
        child.kill('SIGINT');
        const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
        assert.equal(code, 130, stderr);
        assert.match(stderr, /cancelled/);
        assert.deepEqual(await ourPods(lab()), []);
      } finally {
        for (const p of proxies) lab().api.store.upsert(p);
      }
    });

    it('the client pod deleted while its probes run: exit 2, a clear message, nothing left', async () => {
      const running = kpp([
        'diagnose',
        'svc/web',
        '-n',
        'default',
        '--from',
        'pod/client',
        '--json',
        '--kubeconfig',
        lab().kubeconfig,
      ]);
      // The ClusterIP probe takes seconds to time out here: delete the pod in the middle of it.
      await new Promise((r) => setTimeout(r, 2500));
      const del = await kubectl(lab().kubeconfig, ['delete', 'pod', 'client', '--grace-period=0', '--wait=false']);
      assert.equal(del.code, 0, del.stderr);
      const r = await running;
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /^kpp diagnose: pod default\/client (is gone|was deleted) /);
      assert.deepEqual(await ourPods(lab()), []);
    });
  });

  // Nothing may depend on the lab's addresses: another address plan, another client pod and namespace.
  scenario('healthy-alt-addresses', (lab) =>
    verdicts(lab, 'healthy-alt-addresses', [
      ['ok', ['-n', 'shop', '--from', 'pod/toolbox']],
      ['ok', ['--from-namespace', 'shop', '--from', 'pod/toolbox'], 'svc/kubernetes'],
    ]),
  );
  scenario('seed-gateway-bypass-alt-addresses', (lab) =>
    verdicts(lab, 'seed-gateway-bypass-alt-addresses', [
      ['pod-route-bypasses-node', ['-n', 'shop', '--from', 'pod/toolbox']],
      ['pod-route-bypasses-node', ['--from-namespace', 'shop', '--from', 'pod/toolbox'], 'svc/kubernetes'],
    ]),
  );
  // Endpoints on a node the client's node cannot reach, dotted node names, another DNS domain, one apiserver.
  scenario('node-path-down', (lab) => {
    const from = ['--from-namespace', 'payments', '--from', 'pod/probe-0'];
    verdicts(lab, 'node-path-down', [
      ['backend-unreachable', ['-n', 'payments', ...from], 'svc/ledger'],
      // One endpoint on each side: whichever the ClusterIP probe lands on, a share of connections fails.
      ['backend-unreachable', ['-n', 'payments', ...from], 'svc/cache'],
      ['ok', from, 'svc/kubernetes'],
      ['ok', ['-n', 'kube-system', ...from], 'svc/kube-dns'],
      // An image with nc only: no curl, no ip (routes from /proc/net/route), no DNS client.
      ['backend-unreachable', ['-n', 'payments', '--from', 'pod/probe-nc'], 'svc/ledger'],
      ['ok', ['--from-namespace', 'payments', '--from', 'pod/probe-nc'], 'svc/kubernetes'],
    ]);
    it('the summary says the path to the endpoints is broken and names their node', async () => {
      const { report } = await diagnose(lab(), 'node-path-down ledger', ['-n', 'payments', ...from], 'svc/ledger');
      assert.match(report.verdict.summary, /the path to the backends is broken/);
      assert.ok(report.verdict.summary.includes('on node edge-3.dc1.example.net'), report.verdict.summary);
      const cache = await diagnose(lab(), 'node-path-down cache', ['-n', 'payments', ...from], 'svc/cache');
      assert.ok(cache.report.verdict.summary.includes('edge-3.dc1.example.net'), cache.report.verdict.summary);
    });
    it("one endpoint that answered is not reported as failed; the Service's name is looked up in the cluster's domain", async () => {
      const { report } = await diagnose(lab(), 'node-path-down kubernetes', from, 'svc/kubernetes');
      const texts = (report.verdict.evidence as { text: string }[]).map((e) => e.text);
      assert.ok(texts.includes('The only endpoint probed answered a direct connect.'), texts.join('\n'));
      const dns = report.checks.find((c) => c.id === 'dns');
      assert.deepEqual(dns?.argv, ['nslookup', 'kubernetes.default.svc.k8s.example.net']);
    });
  });
  // kube-proxy in nftables mode: the node's rules are `table ip kube-proxy`, read with nft, without counters.
  scenario('nft-gateway-bypass', (lab) =>
    verdicts(lab, 'nft-gateway-bypass', [
      ['pod-route-bypasses-node', ['-n', 'payments', '--from', 'pod/probe-0'], 'svc/ledger'],
      ['pod-route-bypasses-node', ['--from-namespace', 'payments', '--from', 'pod/probe-0'], 'svc/kubernetes'],
      ['ok', ['-n', 'payments', '--from', 'pod/probe-nc'], 'svc/ledger'],
    ]),
  );
  // Faults between the pod and the backends, each named by its cause, on yet another address plan.
  scenario('faults-in-the-path', (lab) => {
    const shell = ['-n', 'billing', '--from', 'pod/shell'];
    verdicts(lab, 'faults-in-the-path', [
      ['backend-unreachable', [...shell, '--port', 'http'], 'svc/invoices'],
      ['ok', [...shell, '--port', 'admin'], 'svc/invoices'],
      ['ok', ['-n', 'billing', '--from-namespace', 'ops', '--from', 'pod/toolbox', '--port', 'admin'], 'svc/invoices'],
      ['no-endpoints', shell, 'svc/ledger'],
      ['backend-unreachable', shell, 'svc/audit'],
      ['backend-unreachable', shell, 'svc/search'],
      ['backend-unreachable', shell, 'svc/reports'],
      ['no-endpoints', shell, 'svc/ghost'],
      ['backend-unreachable', ['-n', 'billing', '--from', 'pod/loopy'], 'svc/loopy'],
      ['ok', ['-n', 'billing', '--from', 'pod/selfie'], 'svc/selfie'],
      [
        'ok',
        ['-n', 'kube-system', '--from-namespace', 'billing', '--from', 'pod/shell', '--port', 'dns'],
        'svc/kube-dns',
      ],
    ]);
    const summary = async (label: string, svc: string, extra: string[] = shell) =>
      (await diagnose(lab(), `faults-in-the-path ${label}`, extra, svc)).report;
    it('each summary names its cause with what this cluster showed', async () => {
      const invoices = await summary('invoices', 'svc/invoices', [...shell, '--port', 'http']);
      assert.match(
        invoices.verdict.summary,
        /declare container ports 8081\/TCP, 9090\/TCP, not the Service's targetPort 8080/,
      );
      const ledger = await summary('ledger', 'svc/ledger');
      assert.match(
        ledger.verdict.summary,
        /internalTrafficPolicy Local and no ready endpoint .* on node k8s-node-01\.dc2\.example/,
      );
      const audit = await summary('audit', 'svc/audit');
      assert.match(audit.verdict.summary, /FORWARD line \d+ drops the packets to 10\.233\.65\.13:8080 .*timed out/);
      const search = await summary('search', 'svc/search');
      assert.match(search.verdict.summary, /FORWARD line \d+ rejects .*icmp-host-prohibited.*unreachable/);
      const reports = await summary('reports', 'svc/reports');
      assert.match(
        reports.verdict.summary,
        /refuses a direct connect to port 8080 too.*nothing listens on the Service's targetPort 8080/,
      );
      const ghost = await summary('ghost', 'svc/ghost');
      assert.match(ghost.verdict.summary, /its selector app=ghost matches no pod in namespace billing/);
      const texts = (ghost.verdict.evidence as { text: string }[]).map((e) => e.text);
      assert.ok(
        texts.some((t) => /^The refusal the pod got at 10\.233\.12\.85:80 is that REJECT/.test(t)),
        texts.join('\n'),
      );
      const toolbox = await summary('toolbox', 'svc/invoices', [
        '-n',
        'billing',
        '--from-namespace',
        'ops',
        '--from',
        'pod/toolbox',
        '--port',
        'admin',
      ]);
      assert.match(toolbox.verdict.summary, /from namespace ops its bare name invoices does not resolve/);
      const loopy = await summary('loopy', 'svc/loopy', ['-n', 'billing', '--from', 'pod/loopy']);
      assert.match(loopy.verdict.summary, /only ready endpoint is pod billing\/loopy itself .*hairpin/);
    });
  });
  scenario('headless-and-dns-tcp', (lab) => {
    const toolbox = ['--from', 'pod/toolbox'];
    const resolver = (port: string) => ['-n', 'infra', '--from-namespace', 'data', ...toolbox, '--port', port];
    verdicts(lab, 'headless-and-dns-tcp', [
      ['ok', ['-n', 'data', ...toolbox], 'svc/pg'],
      ['backend-unreachable', ['-n', 'data', ...toolbox], 'svc/mq'],
      ['ok', resolver('53'), 'svc/resolver'],
      ['ok', resolver('53/udp'), 'svc/resolver'],
      ['ok', resolver('dns'), 'svc/resolver'],
      ['backend-unreachable', resolver('53/tcp'), 'svc/resolver'],
      ['backend-unreachable', resolver('dns-tcp'), 'svc/resolver'],
    ]);
    const run = async (label: string, svc: string, extra: string[]) =>
      (await diagnose(lab(), `headless-and-dns-tcp ${label}`, extra, svc)).report;

    it('headless: no ClusterIP to probe; the name resolves to the pods, each connected to directly', async () => {
      const pg = await run('pg', 'svc/pg', ['-n', 'data', ...toolbox]);
      assert.equal(pg.service.clusterIP, 'None');
      const ids = pg.checks.map((c) => c.id);
      assert.ok(!ids.includes('connect-clusterip'), ids.join(' '));
      const pods = ['10.160.1.21:5432', '10.160.2.21:5432'];
      for (const target of pods) assert.ok(ids.includes(`connect-endpoint:${target}`), ids.join(' '));
      assert.match(pg.verdict.summary, /headless data\/pg works/);
      const mq = await run('mq', 'svc/mq', ['-n', 'data', ...toolbox]);
      assert.match(mq.verdict.summary, /^Headless Service data\/mq: .*refused, on node w2/);
    });

    it('--port 53 checks UDP and says so, naming the TCP port and the command that checks it', async () => {
      const udp = await run('53', 'svc/resolver', resolver('53'));
      assert.equal(udp.service.protocol, 'UDP');
      const first = udp.verdict.evidence[0] as { source: string; text: string };
      assert.equal(first.source, 'api');
      assert.ok(
        first.text.startsWith(
          'This report checks 53/UDP (dns); the Service serves the same port number as 53/TCP (dns-tcp) too',
        ),
        first.text,
      );
      assert.ok(
        first.text.includes(
          '`kpp diagnose svc/resolver -n infra --port 53/tcp --from pod/toolbox --from-namespace data`',
        ),
        first.text,
      );
      // The command it gives is the one that finds the TCP fault: the node's FORWARD drops TCP to the DNS pod.
      const tcp = await run('53/tcp', 'svc/resolver', resolver('53/tcp'));
      assert.equal(tcp.service.protocol, 'TCP');
      assert.match(tcp.verdict.summary, /FORWARD line \d+ drops the packets to 10\.160\.2\.54:53 .*timed out/);
      assert.ok((tcp.verdict.evidence[0] as { text: string }).text.includes('--port 53/udp'));
      const zh = await kpp([
        'diagnose',
        'svc/resolver',
        ...resolver('53'),
        '--lang',
        'zh-CN',
        '--kubeconfig',
        lab().kubeconfig,
      ]);
      assert.equal(zh.code, 0, zh.stderr);
      assert.match(zh.stdout, /本报告检查的是 53\/UDP \(dns\)；该 Service 还以 53\/TCP \(dns-tcp\) 提供同一端口号/);
    });

    it('a port the Service lacks, in Chinese: the error line lists its ports by protocol', async () => {
      const r = await kpp([
        'diagnose',
        'svc/resolver',
        ...resolver('53/sctp'),
        '--lang',
        'zh-CN',
        '--kubeconfig',
        lab().kubeconfig,
      ]);
      assert.equal(r.code, 2);
      assert.equal(
        r.stderr,
        'kpp diagnose: Service infra/resolver 没有端口 53/sctp（端口：dns:53/UDP, dns-tcp:53/TCP）（用 --port 指定它的一个端口：端口号、端口名，或带协议的端口号（53/tcp））\n',
      );
    });
  });
  scenario('no-endpoints', (lab) => verdicts(lab, 'no-endpoints', [['no-endpoints']]));
  scenario('endpoints-not-ready', (lab) => verdicts(lab, 'endpoints-not-ready', [['endpoints-not-ready']]));
  scenario('backend-down', (lab) => verdicts(lab, 'backend-down', [['backend-unreachable']]));
  scenario('stale-rules', (lab) => verdicts(lab, 'stale-rules', [['clusterip-dnat-missing']]));
  scenario('dns-broken', (lab) => verdicts(lab, 'dns-broken', [['dns-failure']]));
  scenario('legacy-1.20', (lab) => {
    verdicts(lab, 'legacy-1.20', [['ok']]);
    it('kpp services reads core/v1 Endpoints where discovery.k8s.io/v1 is absent', async () => {
      const r = await kpp(['services', '-n', 'default', '--json', '--kubeconfig', lab().kubeconfig]);
      assert.equal(r.code, 0, r.stderr);
      const web = (
        JSON.parse(r.stdout) as { services: { name: string; endpoints: { ready: number; source: string } }[] }
      ).services.find((s) => s.name === 'web');
      assert.deepEqual(web?.endpoints, { ready: 3, total: 3, source: 'Endpoints' });
    });
  });
  scenario('macvlan-pod', (lab) => verdicts(lab, 'macvlan-pod', [['pod-route-bypasses-node']]));
  const ipvlan =
    fs.existsSync('/sys/module/ipvlan') ||
    spawnSync('sh', ['-c', 'find /lib/modules/"$(uname -r)" -name "ipvlan.ko*" | grep -q .']).status === 0;
  if (ipvlan) {
    scenario('ipvlan-pod', (lab) => verdicts(lab, 'ipvlan-pod', [['pod-route-bypasses-node']]));
  } else test('scenario ipvlan-pod', { skip: 'this kernel has no ipvlan module' }, () => undefined);
  scenario('bridge-healthy', (lab) => verdicts(lab, 'bridge-healthy', [['ok']]));
  scenario('no-tools', (lab) => {
    verdicts(lab, 'no-tools', [['tool-missing'], ['ok', ['--yes']]]);
    it('--yes runs the checks in an ephemeral debug container and says so', async () => {
      const { report } = await diagnose(lab(), 'no-tools --yes (2)', ['--yes']);
      assert.match(report.source.debugContainer ?? '', /^kpp-debug-[0-9a-f]{6}$/);
      assert.equal(report.source.container, 'client');
    });
  });
  scenario('exec-denied', (lab) =>
    verdicts(lab, 'exec-denied', [['exec-forbidden'], ['ok', ['--context', 'kpp-lab']]]),
  );
}
