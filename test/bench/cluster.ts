/**
 * The cluster half's figures (root only: the lab needs network namespaces):
 * - listing 5,000 Services from the lab API with `kpp services -A` next to `kubectl get svc -A` on the same server
 *   in the same run (alternating, median of each; target ratio at most 1.5), and the same with `--json` /
 *   `-o json` (kpp's table also counts each Service's ready endpoints, so it reads EndpointSlices too);
 * - the seed verdict: `kpp diagnose svc/kubernetes -n default --from pod/client` on `seed-gateway-bypass`
 *   (target under 10 s, whole process).
 * Each lab runs in a state folder of its own and is taken down afterwards, also on failure.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/corpus';
import { against, info, type Figure } from './report';
import { median } from './stats';

const RUNS = 5;
const SCALE = '5000x3';
const LIST_RATIO_TARGET = 1.5;
const SEED_TARGET_MS = 10_000;

function labCli(state: string, args: string[], timeoutMs = 180_000) {
  const root = repoRoot();
  return spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'test', 'lab', 'cli.ts'), ...args],
    {
      env: { ...process.env, KPP_LAB_STATE_DIR: state },
      encoding: 'utf8',
      timeout: timeoutMs,
    },
  );
}

/** Runs `fn` with a lab of `scenario` up; undefined (and why, on stderr) when it does not come up. */
function withLab<T>(scenario: string[], fn: (kubeconfig: string) => T): T | undefined {
  const state = mkdtempSync(join(tmpdir(), 'kpp-bench-lab-'));
  const kubeconfig = join(state, 'kubeconfig');
  try {
    const up = labCli(state, ['up', ...scenario, '--kubeconfig', kubeconfig]);
    if (up.status !== 0) {
      console.error(
        `bench: lab ${scenario.join(' ')} did not come up (exit ${up.status ?? up.signal}): ${(up.stderr || up.stdout).trim().split('\n').slice(-3).join(' | ')}`,
      );
      return undefined;
    }
    return fn(kubeconfig);
  } finally {
    labCli(state, ['down'], 60_000);
    rmSync(state, { recursive: true, force: true });
  }
}

function timed(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { ms: number; status: number | null; stdout: string } {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: 120_000 });
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, status: r.status, stdout: r.stdout ?? '' };
}

export interface ClusterBenchResult {
  listOursMs?: number;
  listKubectlMs?: number;
  listJsonOursMs?: number;
  listJsonKubectlMs?: number;
  listedServices?: number;
  seedMs?: number;
  seedVerdict?: string;
  skipped?: string;
}

export function runClusterBench(): ClusterBenchResult {
  if (process.getuid?.() !== 0) return { skipped: 'not root (the lab needs network namespaces)' };
  if (spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status !== 0)
    return { skipped: 'kubectl not found' };
  const cli = join(repoRoot(), 'dist', 'cli.js');
  const result: ClusterBenchResult = {};
  withLab(['--scale', SCALE], (kubeconfig) => {
    const env = { ...process.env, KUBECONFIG: kubeconfig };
    const kpp = (json: boolean) => timed(process.execPath, [cli, 'services', '-A', ...(json ? ['--json'] : [])], env);
    const kubectl = (json: boolean) => timed('kubectl', ['get', 'svc', '-A', ...(json ? ['-o', 'json'] : [])], env);
    // Warm both (the first request pays the TLS set-up and the server's first list), then alternate.
    kpp(false);
    kubectl(false);
    const runs = { ours: [] as number[], theirs: [] as number[], oursJson: [] as number[], theirsJson: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      const a = kpp(false);
      const b = kubectl(false);
      const c = kpp(true);
      const d = kubectl(true);
      if (a.status === 0 && b.status === 0) {
        runs.ours.push(a.ms);
        runs.theirs.push(b.ms);
      }
      if (c.status === 0 && d.status === 0) {
        runs.oursJson.push(c.ms);
        runs.theirsJson.push(d.ms);
        if (result.listedServices === undefined) {
          const listed = JSON.parse(c.stdout) as unknown;
          result.listedServices = Array.isArray(listed)
            ? listed.length
            : (listed as { services?: unknown[] }).services?.length;
        }
      }
    }
    if (runs.ours.length) {
      result.listOursMs = median(runs.ours);
      result.listKubectlMs = median(runs.theirs);
    }
    if (runs.oursJson.length) {
      result.listJsonOursMs = median(runs.oursJson);
      result.listJsonKubectlMs = median(runs.theirsJson);
    }
  });
  withLab(['seed-gateway-bypass'], (kubeconfig) => {
    const env = { ...process.env, KUBECONFIG: kubeconfig };
    const r = timed(
      process.execPath,
      [cli, 'diagnose', 'svc/kubernetes', '-n', 'default', '--from', 'pod/client', '--json'],
      env,
    );
    result.seedMs = r.ms;
    try {
      result.seedVerdict = (JSON.parse(r.stdout) as { verdict: { code: string } }).verdict.code;
    } catch {
      result.seedVerdict = `no report (exit ${r.status})`;
    }
  });
  return result;
}

export function clusterFigures(r: ClusterBenchResult | undefined): Figure[] {
  if (!r) return [];
  if (r.skipped) return [info('cluster half', `skipped: ${r.skipped}`)];
  const ratio = r.listOursMs !== undefined && r.listKubectlMs ? r.listOursMs / r.listKubectlMs : undefined;
  const ms = (v: number) => `${Math.round(v)} ms`;
  return [
    info(
      `list ${SCALE.split('x')[0]} Services: kpp services -A / kubectl get svc -A`,
      r.listOursMs !== undefined
        ? `${ms(r.listOursMs)} / ${ms(r.listKubectlMs ?? NaN)} (${r.listedServices ?? '?'} listed)`
        : '-',
    ),
    against(
      'list ratio kpp/kubectl (wall)',
      ratio,
      LIST_RATIO_TARGET + 1e-9,
      (v) => v.toFixed(2),
      `<= ${LIST_RATIO_TARGET}`,
    ),
    info(
      'list as JSON: kpp services -A --json / kubectl get svc -A -o json',
      r.listJsonOursMs !== undefined ? `${ms(r.listJsonOursMs)} / ${ms(r.listJsonKubectlMs ?? NaN)}` : '-',
    ),
    against(
      `seed verdict (kpp diagnose, ${r.seedVerdict ?? '-'})`,
      r.seedVerdict === 'pod-route-bypasses-node' ? r.seedMs : NaN,
      SEED_TARGET_MS,
      ms,
      `< ${SEED_TARGET_MS / 1000} s`,
    ),
  ];
}
