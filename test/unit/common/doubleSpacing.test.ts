/**
 * An output copied out of a mail, a word processor or a chat that made each line a paragraph has a blank line after
 * every line (a CRLF output converted again, `\r\r\n`, too): it reads as the output, every position on its own line
 * of the paste, with one note.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { readDoubleSpacing } from '../../../src/core/common/doubleSpacing';
import { documentDiagnostic } from '../../../src/core/documentPositions';
import { KUBERNETES_IPVS, KUBERNETES_SAVE } from '../../helpers/dumps';
import { readingOf } from '../../helpers/reading';

const SAVE = KUBERNETES_SAVE;
const LISTING = [
  'Chain KUBE-SERVICES (2 references)',
  ' pkts bytes target     prot opt in     out     source               destination',
  '    3   180 KUBE-SVC-NPX46M4PTMTKRN6Y  tcp  --  *      *       0.0.0.0/0            10.96.0.1            /* default/kubernetes:https cluster IP */ tcp dpt:443',
  '',
  'Chain KUBE-SVC-NPX46M4PTMTKRN6Y (1 references)',
  ' pkts bytes target     prot opt in     out     source               destination',
  '    3   180 KUBE-SEP-QZ3EQWJ5PDF7H2KU  all  --  *      *       0.0.0.0/0            0.0.0.0/0            /* default/kubernetes:https -> 172.18.0.2:6443 */',
  '',
  'Chain KUBE-SEP-QZ3EQWJ5PDF7H2KU (1 references)',
  ' pkts bytes target     prot opt in     out     source               destination',
  '    3   180 DNAT       tcp  --  *      *       0.0.0.0/0            0.0.0.0/0            /* default/kubernetes:https */ tcp to:172.18.0.2:6443',
].join('\n');
const IPVS = KUBERNETES_IPVS;

const doubleSpaced = (text: string) => text.replace(/\n/g, '\n\n');
const crCrLf = (text: string) => text.replace(/\n/g, '\r\r\n');

test('a double-spaced output reads as the output for every engine, also from CR CR LF line ends', () => {
  for (const text of [SAVE, LISTING, IPVS]) {
    const expected = JSON.parse(readingOf(text));
    for (const copy of [doubleSpaced, crCrLf]) {
      // The engines read the output's own lines: the faces map them to the paste's.
      const read = JSON.parse(readingOf(copy(text)));
      assert.deepEqual(read, expected, `${copy.name}: ${text.slice(0, 30)}`);
    }
  }
  assert.equal(analyzeText(doubleSpaced(LISTING)).iptables!.dump.rules.length, 3);
  assert.equal(analyzeText(doubleSpaced(IPVS)).ipvs!.services[0].realServers.length, 2);
});

test("an output's own blank lines are kept, positions point at the paste's lines, and one note says so", () => {
  const read = readDoubleSpacing(doubleSpaced(LISTING))!;
  assert.equal(read.text, LISTING);
  const a = analyzeText(doubleSpaced(LISTING));
  const dnat = a.iptables!.dump.rules.find((r) => r.target?.name === 'DNAT')!;
  assert.deepEqual(a.positions!.toOriginal(dnat.line, 4), { line: 20, column: 4 });
  assert.deepEqual(a.positions!.toEngine(20, 4), { line: dnat.line, column: 4 });
  const notes = diagnosticsOf(a, 'en').filter((d) => d.code === 'double-spaced-paste');
  assert.equal(notes.length, 1);
  assert.equal(documentDiagnostic(a, notes[0]).span.line, 0);
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'double-spaced-paste')!.message, /空行/);
});

test('outputs and prose with blank lines of their own are not double-spaced', () => {
  assert.equal(readDoubleSpacing(LISTING), undefined);
  assert.equal(readDoubleSpacing(SAVE), undefined);
  assert.equal(readDoubleSpacing('Hi,\n\nthe rules are below.\n\nThanks\n'), undefined);
  // A caption typed above a double-spaced paste does not hide it.
  assert.notEqual(readDoubleSpacing(`Output of iptables -t nat -nvL:\n${doubleSpaced(LISTING)}`), undefined);
});

test('a double-spaced page source or kube-proxy log reads as it does single-spaced, through both readers', () => {
  const page = SAVE.replace(/"/g, '&quot;');
  const log = [
    'I1207 09:00:01.000000       1 proxier.go:1500] "Syncing iptables rules"',
    `I1207 09:00:01.000001       1 proxier.go:1538] "Restoring iptables" rules="${SAVE.replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
    'I1207 09:00:01.000002       1 proxier.go:1550] "SyncProxyRules complete" elapsed="12ms"',
    '',
  ].join('\n');
  // What was read, and where in the text (the doubled text's lines are twice the single one's).
  const read = (text: string, lineOf = (line: number) => line) => {
    const a = analyzeText(text);
    return {
      rules: a.iptables?.dump.rules.map((r) => r.text),
      problems: diagnosticsOf(a, 'en')
        .filter((d) => d.code !== 'double-spaced-paste')
        .map((d) => `${d.code}: ${d.message} @${lineOf(documentDiagnostic(a, d).span.line)}`),
      doubled: diagnosticsOf(a, 'en').some((d) => d.code === 'double-spaced-paste'),
    };
  };
  for (const text of [page, log]) {
    const expected = read(text);
    assert.ok(expected.rules!.length > 0);
    // The log's three lines are too few to call double-spaced: its reader reads through the blank lines.
    const doubled = text === page;
    assert.deepEqual(
      read(doubleSpaced(text), (line) => line / 2),
      { ...expected, doubled },
      text.slice(0, 40),
    );
  }
});
