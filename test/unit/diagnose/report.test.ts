import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleCounters } from '../../../src/core/diagnose/nodeDumps';
import { reportMarkdown, shellQuote } from '../../../src/core/diagnose/report';
import type { DiagnoseInput, DiagnoseReport } from '../../../src/core/diagnose/types';
import { decideVerdict } from '../../../src/core/diagnose/verdict';
import {
  connects,
  counters,
  PLAN_A,
  PLAN_B,
  scenario,
  secondInterfacePod,
  calicoPod,
  dnsOk,
  type AddressPlan,
} from './fixtures';

function reportOf(p: AddressPlan, input: DiagnoseInput, lang: 'en' | 'zh-CN'): DiagnoseReport {
  const ev = input.nodeEvidence;
  return {
    service: {
      namespace: input.service.namespace,
      name: input.service.name,
      clusterIP: input.service.clusterIP,
      port: input.port.port,
      protocol: input.port.protocol,
    },
    source: { namespace: input.source.namespace, pod: input.source.name, ip: p.podIP, node: p.nodeName },
    checks: input.checks,
    ...(ev
      ? {
          node: {
            name: ev.name,
            ...(ev.via ? { via: ev.via } : {}),
            counters: {
              before: ruleCounters(ev.before ?? '', input.service, input.port),
              after: ruleCounters(ev.after ?? '', input.service, input.port),
            },
          },
        }
      : {}),
    verdict: decideVerdict(input, lang),
    durationMs: 4210,
  };
}

test('the seed report: verdict, evidence, next steps, every command with exit code and time, counters', () => {
  const p = PLAN_A;
  const input = scenario({
    plan: p,
    outputs: { ...secondInterfacePod(p), ...connects(p, 'timeout', 'ok') },
    nodeEvidence: counters(p, 7, 7),
  });
  const md = reportMarkdown(reportOf(p, input, 'en'), 'en');
  assert.match(md, /^# Diagnosis: shop\/web \(10\.100\.12\.34:80\/TCP\) from shop\/client-7d9f/);
  assert.match(md, /## Verdict: The pod's route bypasses the node \(`pod-route-bypasses-node`\)/);
  assert.ok(
    md.includes(
      "**The pod's route to 10.100.12.34 goes via 198.51.100.1 on net1, which is not this node; the node's KUBE-SERVICES rule for 10.100.12.34:80 counted 0 packets during the probe: kube-proxy's rules never saw it.**",
    ),
    md.slice(0, 600),
  );
  for (const c of input.checks) {
    const row = md.split('\n').find((l) => l.startsWith(`| \`${c.id}\``));
    assert.ok(row, `row for ${c.id}`);
    assert.ok(row.includes(`| ${c.exitCode} |`) && row.includes(`${Math.round(c.durationMs)} ms`), row);
  }
  assert.ok(md.includes('`ip route get 10.100.12.34`'));
  assert.match(md, /## Node w1: rule counters/);
  assert.match(md, /\| \d+ \| KUBE-SERVICES \| `-A KUBE-SERVICES .*` \| 7 \| 7 \|/);
  assert.match(md, /## Next steps\n\n1\. /);
  assert.match(md, /Took 4210 ms/);
});

test('Chinese report', () => {
  const p = PLAN_B;
  const input = scenario({
    plan: p,
    outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
    nodeEvidence: counters(p, 3, 4),
  });
  const md = reportMarkdown(reportOf(p, input, 'zh-CN'), 'zh-CN');
  assert.match(md, /^# 诊断：从 prod-eu\/batch-runner-0 访问 prod-eu\/orders-api/);
  assert.match(md, /## 结论：正常 \(`ok`\)/);
  assert.match(md, /## 在 Pod 中执行的命令/);
  assert.match(md, /\| 3 \| 4 \(\+1\) \|/);
});

test('hostile output and names cannot break the document', () => {
  const p = PLAN_A;
  const input = scenario({ plan: p, outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) } });
  input.checks[1].stdout = '```\n# injected heading\n| a | b |\n````\n';
  input.checks[1].stderr = '<script>alert(1)</script>';
  const report = reportOf(p, input, 'en');
  report.source.pod = 'x|`y`\n# z';
  report.verdict.evidence.push({
    source: 'a|b',
    text: 'text with ``` and | pipes',
    argv: ['sh', '-c', "echo 'hi' | cat"],
    output: '````\nstill inside\n',
  });
  const md = reportMarkdown(report, 'en');
  assert.ok(
    !/^# injected heading/m.test(md.replace(/^(`{4,})[\s\S]*?^\1/gm, '')),
    'headings from output stay inside fences',
  );
  assert.ok(!md.split('\n').some((l) => l.startsWith('# z')));
  const outsideFences = md.replace(/^ *(`{3,})\n[\s\S]*?^ *\1$/gm, '');
  assert.ok(!outsideFences.includes('<script>'), 'html only inside code fences');
  // Every table row keeps its 5 columns.
  for (const l of md.split('\n').filter((x) => x.startsWith('| `')))
    assert.equal(l.replace(/\\\|/g, '').split('|').length, 7, l);
  assert.equal(shellQuote(['sh', '-c', "echo 'hi' | cat"]), `sh -c 'echo '\\''hi'\\'' | cat'`);
});

test('a report without checks or node says so', () => {
  const p = PLAN_A;
  const input = scenario({ plan: p, outputs: {}, execError: { status: 403, message: 'forbidden' } });
  input.checks = [];
  const md = reportMarkdown(reportOf(p, input, 'en'), 'en');
  assert.match(md, /No command was run in the pod\./);
  assert.ok(!md.includes('rule counters'));
});

test('the title joins an IPv6 ClusterIP with its port in brackets; a headless Service shows None and the port', () => {
  const p = PLAN_A;
  const input = scenario({ plan: p, outputs: {}, execError: { status: 403, message: 'forbidden' } });
  const v6 = reportOf(p, input, 'en');
  v6.service = { ...v6.service, clusterIP: 'fd00:10:96::4a2', port: 8443 };
  assert.match(reportMarkdown(v6, 'en'), /\(\\?\[fd00:10:96::4a2\\?\]:8443\/TCP\)/ /* Markdown escapes the brackets */);
  const headless = reportOf(p, input, 'en');
  headless.service = { ...headless.service, clusterIP: 'None' };
  assert.match(reportMarkdown(headless, 'en'), new RegExp(`\\(None ${p.port}/TCP\\)`));
});
