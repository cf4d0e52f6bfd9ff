// The report's next steps point at its sections where they are: the evidence comes before the next steps, the
// commands run after them (an inconclusive verdict said "the evidence below", in both languages).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportMarkdown } from '../../../src/core/diagnose/report';
import type { DiagnoseReport } from '../../../src/core/diagnose/types';
import { decideVerdict } from '../../../src/core/diagnose/verdict';
import { connects, calicoPod, PLAN_B, scenario } from './fixtures';

test('an inconclusive report points up to the evidence and down to the commands run', () => {
  const p = PLAN_B;
  // The ClusterIP times out, the endpoints answer, and the node's rules could not be read: no verdict.
  const input = scenario({
    plan: p,
    outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'ok') },
    nodeEvidence: { name: p.nodeName, error: 'no running hostNetwork kube-proxy pod on node ' + p.nodeName },
  });
  for (const [lang, evidence, next, checks, above, below] of [
    ['en', '## Evidence', '## Next steps', '## Commands run in the pod', 'evidence above', 'commands run below'],
    ['zh-CN', '## 证据', '## 下一步', '## 在 Pod 中执行的命令', '上面的证据', '下面执行过的命令'],
  ] as const) {
    const verdict = decideVerdict(input, lang);
    assert.equal(verdict.code, 'inconclusive', verdict.summary);
    const report: DiagnoseReport = {
      service: { namespace: p.svcNamespace, name: p.svcName, clusterIP: p.clusterIP, port: p.port, protocol: 'TCP' },
      source: { namespace: p.svcNamespace, pod: p.podName },
      checks: input.checks,
      verdict,
      durationMs: 5400,
    };
    const md = reportMarkdown(report, lang);
    const at = (s: string) => md.indexOf(s);
    assert.ok(at(evidence) >= 0 && at(evidence) < at(next) && at(next) < at(checks), md.slice(0, 400));
    assert.ok(verdict.nextSteps[0].includes(above) && verdict.nextSteps[0].includes(below), verdict.nextSteps[0]);
  }
});
