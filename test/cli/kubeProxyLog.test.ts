/**
 * `kpp` on a kube-proxy log whose line carries the whole restore input escaped: parse, lint, trace and explain
 * report and take positions in the log as the person has it (1-based lines and columns of the log file).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/corpus';
import { KUBE_DNS, klogRestoreLine, klogSync } from '../helpers/kubeProxyLogs';
import { kubeProxyDump } from '../unit/trace/helpers';

const cli = join(repoRoot(), 'bin', 'kpp.js');
const dir = mkdtempSync(join(tmpdir(), 'kpp-cli-log-'));
const DUMP = kubeProxyDump([KUBE_DNS]);
// The second line of the log (1-based line 2) carries the input.
const LOG_LINE = klogRestoreLine(DUMP);
const LOG = klogSync(LOG_LINE);
const file = join(dir, 'kube-proxy.log');
writeFileSync(file, LOG);

function kpp(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, LC_ALL: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('kpp parse and lint put every diagnostic on the log line, at its column there', () => {
  const parsed = JSON.parse(kpp('parse', file, '--json').stdout);
  assert.equal(parsed.services[0].name, 'kube-system/kube-dns:p');
  assert.deepEqual(
    parsed.diagnostics.map((d: { line: number; column: number; code: string }) => [d.line, d.column, d.code]),
    [[2, 1, 'kube-proxy-log']],
  );
  const linted = JSON.parse(kpp('lint', file, '--json').stdout);
  for (const d of linted.diagnostics) assert.equal(d.line, 2, d.code);
});

test('kpp trace gives the log line for every step, and kpp explain reads the column asked on it', () => {
  const r = kpp('trace', file, '--src', '10.244.1.5', '--dst', '10.96.0.10:53', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as {
    paths: { steps: { line: number | null }[] }[];
    sharedSteps?: { line: number | null }[];
  };
  const steps = [...(out.sharedSteps ?? []), ...out.paths.flatMap((p) => p.steps)];
  assert.ok(steps.length > 3);
  for (const s of steps) if (s.line !== null) assert.equal(s.line, 2);
  const column = LOG_LINE.indexOf('-j KUBE-SVC-') + 4;
  const explained = kpp('explain', file, '--line', '2', '--column', String(column)).stdout;
  assert.match(explained, /kube-system\/kube-dns/);
});

test('kpp explain without --column on the log line explains the first rule it carries, not the blanked log text', () => {
  const r = kpp('explain', file, '--line', '2');
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /Nothing to explain/);
  assert.match(r.stdout, /In chain \*\*\S+\*\*/);
});

test('kpp trace hints quote the log line, not the line inside the escaped input', () => {
  // A Service without endpoints (kube-proxy's REJECT) and a rule with an error: both hints name a line.
  const empty = { ...KUBE_DNS, name: 'empty', clusterIP: '10.96.0.99', endpoints: [] };
  const broken = `${kubeProxyDump([KUBE_DNS, empty]).replace(/\nCOMMIT\n/, '\n-A KUBE-SERVICES -m\nCOMMIT\n')}`;
  const logFile = join(dir, 'kube-proxy-hints.log');
  writeFileSync(logFile, klogSync(klogRestoreLine(broken)));
  const r = kpp('trace', logFile, '--src', '10.244.1.5', '--dst', '10.96.0.99:53', '--json');
  assert.equal(r.code, 0, r.stderr);
  const warnings = (JSON.parse(r.stdout) as { warnings: string[] }).warnings;
  const noEndpoints = warnings.find((w) => /has no endpoints/.test(w));
  const errors = warnings.find((w) => /The dump has 1 error/.test(w));
  assert.match(noEndpoints ?? '', /line 2,/);
  assert.match(errors ?? '', /at line 2:/);
});
