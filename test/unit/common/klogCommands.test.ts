/**
 * kube-proxy's and the kubelet's klog of the iptables commands they ran (`-v=5`): the commands that change the rules
 * read as typed, a comment's words quoted again, every position on the log's own characters.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { readKlogCommands } from '../../../src/core/common/klogCommands';
import { documentDiagnostic } from '../../../src/core/documentPositions';

const at = (n: number) => `I1207 08:31:${String(10 + n).padStart(2, '0')}.40${n}117       1 iptables.go:466] `;
/** As 1.1x-1.2x log them: the tool, then the arguments as a Go slice (a comment's quotes lost). */
const LOG = [
  `${at(0)}running iptables: iptables [-w 5 -W 100000 -N KUBE-FORWARD -t filter]`,
  `${at(1)}running iptables: iptables [-w 5 -W 100000 -C FORWARD -t filter -m comment --comment kubernetes forwarding rules -j KUBE-FORWARD]`,
  `${at(2)}running iptables: iptables [-w 5 -W 100000 -I FORWARD -t filter -m comment --comment kubernetes forwarding rules -j KUBE-FORWARD]`,
  `${at(3)}running iptables-save [-t nat]`,
  `${at(4)}running iptables: iptables [-w 5 -W 100000 -I OUTPUT -t nat -m comment --comment kubernetes service portals --bogus 9 -j KUBE-SERVICES]`,
  `${at(5)}running iptables: ip6tables [-w 5 -W 100000 -I FORWARD -t filter -j KUBE-FORWARD]`,
  `${at(6)}"SyncProxyRules complete" elapsed="21.4ms"`,
  '',
].join('\n');
/** The oldest form: the operation before the slice. */
const OLDEST = [
  `${at(0)}running iptables -N [KUBE-POSTROUTING -t nat]`,
  `${at(1)}running iptables -I [POSTROUTING -t nat -m comment --comment kubernetes postrouting rules -j KUBE-POSTROUTING]`,
  '',
].join('\n');

test('the commands that change the rules read as typed, comments quoted; checks, listings and ip6tables are nothing', () => {
  const a = analyzeText(LOG);
  assert.equal(a.detection.kind, 'iptables');
  assert.deepEqual(
    a.iptables!.dump.rules.map((r) => [r.line, r.text]),
    [
      [2, 'FORWARD -t filter -m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD'],
      [4, 'OUTPUT -t nat -m comment --comment "kubernetes service portals" --bogus 9 -j KUBE-SERVICES'],
    ],
  );
  const b = analyzeText(OLDEST);
  assert.deepEqual(
    b.iptables!.dump.rules.map((r) => r.text),
    ['POSTROUTING -t nat -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING'],
  );
  const note = diagnosticsOf(a, 'en').find((d) => d.code === 'klog-commands')!;
  assert.equal(LOG.split('\n')[note.span.line].slice(note.span.column, note.span.column + 8), 'iptables');
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'klog-commands')!.message, /klog/);
});

test('a finding after the added quotes points at its word in the log', () => {
  const a = analyzeText(LOG);
  const { span } = documentDiagnostic(
    a,
    diagnosticsOf(a, 'en').find((d) => d.code === 'unknown-option')!,
  );
  assert.equal(LOG.split('\n')[span.line].slice(span.column, span.column + span.length), '--bogus');
});

test('a kube-proxy log that also logged its restore input, and a log without commands, are left to the others', () => {
  const restore = `${at(6)}"Restoring iptables" rules="*nat\\n:KUBE-SERVICES - [0:0]\\nCOMMIT\\n"`;
  assert.equal(readKlogCommands(`${LOG}${restore}\n`), undefined);
  assert.equal(readKlogCommands(`${at(0)}"Syncing iptables rules"\n${at(1)}"SyncProxyRules complete"\n`), undefined);
});

test("the first command read is placed at its tool's word, not at the message's own 'iptables'", () => {
  const read = readKlogCommands(LOG)!;
  const line = LOG.split('\n')[2];
  assert.equal(read.column, line.indexOf('iptables ['));
  assert.equal(line.slice(read.column, read.column + 'iptables'.length), 'iptables');
});
