/**
 * An output gathered with Ansible comes as Ansible prints it: after an ad-hoc result header, on one line with `-o`,
 * or as a task result's JSON (`stdout`, `stdout_lines`). Each reads as the output it holds, with one note, and a
 * position in the pasted text reaches the word it is on.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { documentDiagnostic, enginePosition } from '../../../src/core/documentPositions';
import { seedDump } from '../../helpers/dumps';

const SAVE = seedDump(['10.0.1.11:6443', '10.0.1.12:6443'], 'default/kubernetes:https', '10.96.0.1').text;
const LINES = SAVE.trimEnd().split('\n');
const IPVS = `IP Virtual Server version 1.2.1 (size=4096)
Prot LocalAddress:Port Scheduler Flags
  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn
TCP  10.96.0.1:443 rr
  -> 10.0.1.11:6443               Masq    1      3          0
  -> 10.0.1.12:6443               Masq    1      2          0
`;

const result = {
  changed: true,
  cmd: 'iptables-save -t nat',
  rc: 0,
  stderr: '',
  stdout: SAVE.trimEnd(),
  stdout_lines: LINES,
};
const SHAPES: [string, string][] = [
  ['ad-hoc', `node-1 | CHANGED | rc=0 >>\n${SAVE}`],
  ['ad-hoc -o', `node-1 | CHANGED | rc=0 | (stdout) ${SAVE.trimEnd().replace(/\n/g, '\\n')}\n`],
  [
    'debug of stdout_lines, in a play',
    [
      'TASK [show rules] ***********************************************************',
      'ok: [node-1] => {',
      '    "msg": [',
      LINES.map((l) => `        ${JSON.stringify(l)}`).join(',\n'),
      '    ]',
      '}',
      '',
      'PLAY RECAP ******************************************************************',
      'node-1                     : ok=2    changed=1    unreachable=0    failed=0',
      '',
    ].join('\n'),
  ],
  [
    'a registered result (stdout and stdout_lines)',
    `ok: [node-1] => {\n    "out": ${JSON.stringify(result, null, 4)}\n}\n`,
  ],
  ['-v, compact', `changed: [node-1] => ${JSON.stringify(result)}\n`],
];

function summary(text: string) {
  const a = analyzeText(text);
  return {
    tables: a.iptables!.dump.tables.length,
    rules: a.iptables!.dump.rules.map((r) => [r.chain, r.target?.name]),
    services: a.iptables!.kube.services.map((s) => [s.name, s.endpoints.map((e) => `${e.ip}:${e.port}`)]),
  };
}

test('a dump gathered with Ansible reads as the dump in every shape Ansible prints, with one note', () => {
  const clean = summary(SAVE);
  for (const [name, text] of SHAPES) {
    assert.deepEqual(summary(text), clean, name);
    const codes = diagnosticsOf(analyzeText(text), 'en').map((d) => d.code);
    assert.deepEqual(codes, ['ansible-output'], name);
  }
  assert.match(diagnosticsOf(analyzeText(SHAPES[0][1]), 'zh-CN')[0].message, /Ansible 对命令的报告/);
});

test('a position in the pasted Ansible text reaches the word it is on, and back', () => {
  for (const [name, text] of SHAPES) {
    const a = analyzeText(text);
    const dnat = a.iptables!.dump.rules.filter((r) => r.target?.name === 'DNAT')[1];
    const { span } = documentDiagnostic(a, { span: dnat.span, severity: 'info', code: '', message: '' });
    // The rule's span is its line in the paste (with what Ansible put before it, as a container log's prefix).
    const pasted = text.split('\n')[span.line].slice(span.column, span.column + span.length);
    assert.match(pasted, /-A KUBE-SEP-\w+ -p tcp .* --to-destination 10\.0\.1\.12:6443(?:",?|\\n)?$/, name);
    // The endpoint's address, found in the pasted text, is the rule's word for the engines.
    const line = span.line;
    const column = text.split('\n')[line].indexOf('10.0.1.12:6443', span.column);
    const at = enginePosition(a, line, column);
    assert.equal(at.line, dnat.line, name);
    const engineLine = (a.positions?.engineText ?? text).split('\n')[at.line];
    assert.ok(engineLine.slice(at.column).startsWith('10.0.1.12:6443'), name);
  }
});

test('ipvsadm output of two hosts gathered with -o reads as both, and prose around Ansible stays prose', () => {
  const oneLine = (host: string) => `${host} | CHANGED | rc=0 | (stdout) ${IPVS.trimEnd().replace(/\n/g, '\\n')}`;
  const a = analyzeText(`${oneLine('node-1')}\n${oneLine('node-2')}\n`);
  assert.equal(a.ipvs!.services.length, 2);
  assert.equal(a.ipvs!.services[0].realServers.length, 2);
  // Not Ansible's: a dump with a `|` in a comment, or JSON that is no task result.
  for (const text of [SAVE, '{"stdout": "*nat\\nCOMMIT"}\n', 'node-1 | grep KUBE\n'])
    assert.ok(!diagnosticsOf(analyzeText(text), 'en').some((d) => d.code === 'ansible-output'), text);
});

test("a failed task's one-line message is Ansible's, not a line of the output, compact or over several lines", () => {
  const failed = {
    changed: true,
    cmd: 'iptables-save -t nat',
    msg: 'non-zero return code',
    rc: 1,
    stdout: SAVE.trimEnd(),
  };
  for (const text of [
    `fatal: [node-1]: FAILED! => ${JSON.stringify(failed)}\n`,
    `fatal: [node-1]: FAILED! => ${JSON.stringify(failed, null, 4)}\n`,
  ]) {
    assert.deepEqual(summary(text), summary(SAVE), text.slice(0, 40));
    assert.deepEqual(
      diagnosticsOf(analyzeText(text), 'en').map((d) => d.code),
      ['ansible-output'],
      text.slice(0, 40),
    );
  }
});
