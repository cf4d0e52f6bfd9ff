// A command's output past the exec limit: the capture neither writes nor reads a dump cut in the middle, and a check
// in the client pod does not read a cut table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeCheckResult, POD_CHECK_OUTPUT_BYTES, wasCut } from '../../../src/cluster/capture';
import { captureFiles } from '../../../src/cluster/captureFiles';
import { podCheckOutput } from '../../../src/cluster/diagnose';
import { classifyCheck } from '../../../src/core/diagnose/classify';
import { nodeCaptureChecks } from '../../../src/core/diagnose/node';

const rulesSpec = nodeCaptureChecks(undefined, 30_000, 4).find((s) => s.id === 'node-iptables')!;
const dump = '*nat\n:KUBE-SERVICES - [0:0]\n-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -j KUBE-SVC-X\nCOMMIT\n';

describe('a node command whose output was cut', () => {
  it('is a failed check saying why, with nothing to read, and no capture file', () => {
    const cut = nodeCheckResult(rulesSpec, {
      argv: rulesSpec.argv,
      stdout: dump.slice(0, 60),
      stderr: '',
      exitCode: 0,
      durationMs: 900,
      truncated: true,
    });
    assert.equal(cut.ok, false);
    assert.equal(cut.exitCode, null);
    assert.equal(cut.stdout, '');
    assert.match(cut.error ?? '', /printed more than 128 MiB; a cut output is not read/);
    assert.deepEqual(captureFiles('node-a', [cut]), []);
    assert.equal(wasCut(cut), true);
  });

  it("another command's output is cut at exec's own limit, a rules dump's only at kpp's file limit", () => {
    const routes = nodeCaptureChecks(undefined, 30_000, 4).find((s) => s.id === 'node-routes')!;
    const cut = { stdout: 'x', stderr: '', exitCode: 0, durationMs: 1, truncated: true };
    assert.match(nodeCheckResult(routes, { ...cut, argv: routes.argv }).error ?? '', /more than 64 MiB/);
    assert.match(nodeCheckResult(rulesSpec, { ...cut, argv: rulesSpec.argv }).error ?? '', /more than 128 MiB/);
  });

  it('a whole output is kept as the node printed it', () => {
    const whole = nodeCheckResult(rulesSpec, {
      argv: rulesSpec.argv,
      stdout: dump,
      stderr: '',
      exitCode: 0,
      durationMs: 9,
    });
    assert.equal(whole.ok, true);
    assert.equal(wasCut(whole), false);
    assert.equal(whole.stdout, dump);
    assert.deepEqual(
      captureFiles('node-a', [whole]).map((f) => f.name),
      ['node-a.iptables-save-c.txt'],
    );
  });
});

describe('a check in the client pod whose output was cut (a pod whose commands flood)', () => {
  const routes = { id: 'routes', kind: 'routes' as const, argv: ['ip', 'route'], timeoutMs: 5_000 };
  const table = 'default via 10.244.1.1 dev eth0\n10.244.1.0/24 dev eth0 scope link\n';

  it('is a failed check saying it printed more than the pod limit, with nothing read of the cut table', () => {
    const raw = podCheckOutput(routes, {
      argv: routes.argv,
      stdout: table.slice(0, 20),
      stderr: '',
      exitCode: 0,
      durationMs: 40,
      truncated: true,
    });
    assert.equal(raw.stdout, '');
    assert.equal(raw.exitCode, null);
    assert.equal(raw.error, `printed more than ${POD_CHECK_OUTPUT_BYTES / 1024 / 1024} MiB; a cut output is not read`);
    assert.equal(classifyCheck(routes, raw).ok, false);
  });

  it('a whole output is read as the pod printed it', () => {
    const raw = podCheckOutput(routes, { argv: routes.argv, stdout: table, stderr: '', exitCode: 0, durationMs: 4 });
    assert.equal(raw.stdout, table);
    assert.equal(raw.error, undefined);
    assert.equal(classifyCheck(routes, raw).ok, true);
  });
});
