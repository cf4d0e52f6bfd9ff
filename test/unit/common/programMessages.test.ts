/**
 * Messages of the programs around a command, pasted above or below its output (`sudo: unable to resolve host ...`
 * above every sudo on a host missing from /etc/hosts, `bash: ipvsadm: command not found`, kubectl's `error: ...`):
 * the paste's, not the output's, noted quietly by every engine instead of warned about as lines it cannot read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { isProse } from '../../../src/core/common/prose';
import { KUBERNETES_IPVS, seedDump } from '../../helpers/dumps';

const SAVE = seedDump(['172.18.0.2:6443'], 'default/kubernetes:https', '10.96.0.1').text;
const IPVS = KUBERNETES_IPVS;
const MESSAGES = [
  'sudo: unable to resolve host node-a: Name or service not known',
  'sudo: unable to resolve host node-a: Temporary failure in name resolution',
  'bash: ipset: command not found',
  'error: unable to upgrade connection: container not found ("kube-proxy")',
];

test('a program’s message above an output is a note of every engine, and the output reads as without it', () => {
  for (const message of MESSAGES) {
    for (const [text, engine] of [
      [SAVE, 'iptables'],
      [IPVS, 'ipvs'],
    ] as const) {
      const a = analyzeText(`${message}\n${text}`);
      assert.equal(a.detection.kind, engine, message);
      const first = diagnosticsOf(a, 'en').filter((d) => d.span.line === 0);
      assert.deepEqual(
        first.map((d) => d.severity),
        ['info'],
        `${engine}: ${message}: ${first.map((d) => d.code)}`,
      );
    }
  }
});

test('lines of the outputs themselves are not program messages', () => {
  for (const line of [
    '-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y',
    ':KUBE-SERVICES - [0:0]',
    'cali-fw-abc  all  --  0.0.0.0/0            0.0.0.0/0',
    'Name: KUBE-CLUSTER-IP',
    '-> 172.18.0.2:6443              Masq    1      2          0',
  ])
    assert.equal(isProse(line), false, line);
});
