/**
 * `kpp` on a double-spaced paste (a blank line after every line): lines given and taken are the paste's own, and
 * the blank lines the copy added have nothing to explain.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/corpus';
import { seedDump } from '../helpers/dumps';

const cli = join(repoRoot(), 'bin', 'kpp.js');
const dir = mkdtempSync(join(tmpdir(), 'kpp-cli-double-'));
const SAVE = seedDump(['172.18.0.2:6443'], 'default/kubernetes:https', '10.96.0.1').text;
const file = join(dir, 'from-mail.txt');
writeFileSync(file, SAVE.replace(/\n/g, '\n\n'));
/** 1-based line of the paste where the output's rule to the endpoint is (its output line i is paste line 2i - 1). */
const DNAT_LINE = 2 * (SAVE.split('\n').findIndex((l) => l.includes('-j DNAT')) + 1) - 1;

function kpp(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, LC_ALL: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('kpp trace and explain give and take the paste’s own lines', () => {
  const trace = JSON.parse(kpp('trace', file, '--src', '10.244.0.5', '--dst', '10.96.0.1:443', '--json').stdout);
  const lines = trace.paths.flatMap((p: { steps: { line: number; target?: string }[] }) => p.steps.map((s) => s.line));
  assert.ok(lines.includes(DNAT_LINE), JSON.stringify(lines));
  assert.match(kpp('explain', file, '--line', String(DNAT_LINE)).stdout, /172\.18\.0\.2:6443/);
  assert.equal(kpp('explain', file, '--line', String(DNAT_LINE + 1)).stdout, 'Nothing to explain on this line.\n');
  const parsed = JSON.parse(kpp('parse', file, '--json').stdout);
  assert.equal(parsed.counts.rules, SAVE.split('\n').filter((l) => l.startsWith('-A ')).length);
  assert.deepEqual(
    parsed.diagnostics.map((d: { code: string }) => d.code),
    ['double-spaced-paste'],
  );
});
