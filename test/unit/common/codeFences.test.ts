/**
 * An output pasted into a GitHub issue or a wiki sits between Markdown code fences: the fence lines read as blank
 * lines, the output between them as it would without them, with its columns where the editor shows them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { blankCodeFences } from '../../../src/core/common/codeFences';
import { seedDump } from '../../helpers/dumps';

const SAVE = seedDump(['172.18.0.2:6443'], 'default/kubernetes:https', '10.96.0.1').text;

test('a dump between fences reads as the dump: its Service, its rules on the lines shown, no warning for a fence', () => {
  const fenced = `Here is the output:\n\n\`\`\`console\n${SAVE}\n\`\`\`\n`;
  const a = analyzeText(fenced);
  assert.equal(a.detection.kind, 'iptables');
  assert.equal(a.iptables!.kube.services[0].name, 'default/kubernetes:https');
  const plain = analyzeText(SAVE);
  assert.deepEqual(
    a.iptables!.dump.rules.map((r) => [r.line - 3, r.span.column, r.comment]),
    plain.iptables!.dump.rules.map((r) => [r.line, r.span.column, r.comment]),
  );
  const warnings = diagnosticsOf(a, 'en').filter((d) => d.severity !== 'info');
  // The prose above the fence is a ticket's, which the parser reads as such.
  assert.deepEqual(
    warnings.map((d) => `${d.span.line}:${d.code}`),
    diagnosticsOf(plain, 'en')
      .filter((d) => d.severity !== 'info')
      .map((d) => `${d.span.line + 3}:${d.code}`),
  );
});

test('fence lines are blanked in place: tildes, an info string, indentation, CRLF; other lines untouched', () => {
  const text = '  ```shell {.numbered}\r\n*nat\r\n~~~~\r\n`` not a fence\r\nCOMMIT\r\n';
  const blanked = blankCodeFences(text)!;
  assert.deepEqual(blanked.lines, [0, 2]);
  assert.equal(blanked.text.length, text.length);
  assert.deepEqual(blanked.text.split('\n'), [
    ' '.repeat(22) + '\r',
    '*nat\r',
    '    \r',
    '`` not a fence\r',
    'COMMIT\r',
    '',
  ]);
});

test('backticks inside a rule are no fence, and a paste without fences is left as it is', () => {
  const rule = '-A KUBE-SERVICES -m comment --comment "```" -j RETURN';
  assert.equal(blankCodeFences(`*nat\n${rule}\nCOMMIT\n`), undefined);
  assert.equal(blankCodeFences(SAVE), undefined);
  // A backtick fence's info string never has a backtick in it (CommonMark): ``` a ` b is prose.
  assert.equal(blankCodeFences('``` a ` b\n'), undefined);
});

test('a chat quote around a fenced session paste: quote marks, then fences, then the session read by sections', () => {
  const session = `$ iptables-save -t nat\n${SAVE}\n$ ip route\ndefault via 192.0.2.1 dev eth0\n`;
  const quoted = `\`\`\`\n${session}\`\`\``
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  const a = analyzeText(quoted);
  assert.equal(a.iptables!.kube.services[0].name, 'default/kubernetes:https');
  assert.equal(a.network!.routes.length, 1);
  assert.ok(!diagnosticsOf(a, 'en').some((d) => d.code === 'unrecognized-line'));
});
