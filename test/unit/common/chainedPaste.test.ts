/**
 * Wrappers that move lines or columns come together: a coloured output double-spaced by a mail, a kube-proxy log
 * copied from a page's source. Each reads through the others, and every position crosses all their maps.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf, type Analysis } from '../../../src/core/analyze';
import { documentDiagnostic } from '../../../src/core/documentPositions';
import { seedDump } from '../../helpers/dumps';
import { klogRestoreLine, klogSync } from '../../helpers/kubeProxyLogs';
import { readingOf } from '../../helpers/reading';

const SAVE = seedDump(['10.244.3.40:5432'], 'db/primary:pg', '10.96.33.9').text.replace(
  '\nCOMMIT',
  '\n-A KUBE-SERVICES -p tcp --bogus 3 -j ACCEPT\nCOMMIT',
);
const ESC = '\x1b';
const coloured = (text: string) => text.replace(/KUBE-SVC-/g, `${ESC}[01;31m${ESC}[KKUBE-SVC-${ESC}[m${ESC}[K`);
const doubleSpaced = (text: string) => text.replace(/\n/g, '\n\n');
const pageSource = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/>/g, '&gt;');

/** The text under the finding on `--bogus`, and the notes' codes. */
function bogusIn(a: Analysis, text: string): { word: string; codes: string[] } {
  const all = diagnosticsOf(a, 'en');
  const { span } = documentDiagnostic(
    a,
    all.find((d) => d.code === 'unknown-option')!,
  );
  return {
    word: text.split('\n')[span.line].slice(span.column, span.column + span.length),
    codes: all.map((d) => d.code),
  };
}

test('a coloured, double-spaced paste reads as the output, positions through both', () => {
  const pasted = doubleSpaced(coloured(SAVE));
  assert.equal(readingOf(pasted), readingOf(SAVE));
  const a = analyzeText(pasted);
  const { word, codes } = bogusIn(a, pasted);
  assert.equal(word, '--bogus');
  assert.ok(codes.includes('terminal-escapes') && codes.includes('double-spaced-paste'), codes.join());
  // The colour note is on the text's first sequence.
  const note = documentDiagnostic(
    a,
    diagnosticsOf(a, 'en').find((d) => d.code === 'terminal-escapes')!,
  ).span;
  const firstEscape = pasted.indexOf(ESC);
  const line = pasted.slice(0, firstEscape).split('\n').length - 1;
  assert.deepEqual([note.line, note.column], [line, firstEscape - pasted.lastIndexOf('\n', firstEscape) - 1]);
});

test("a kube-proxy log from a page's source: the restore input, positions through the references and the escapes", () => {
  const log = klogSync(klogRestoreLine(SAVE));
  const page = pageSource(log);
  const a = analyzeText(page);
  assert.equal(a.detection.kind, 'iptables');
  assert.deepEqual(
    a.iptables!.kube.services.map((s) => [s.name, s.clusterIP]),
    [['db/primary:pg', '10.96.33.9']],
  );
  const { word, codes } = bogusIn(a, page);
  assert.equal(word, '--bogus');
  assert.ok(codes.includes('html-references') && codes.includes('kube-proxy-log'), codes.join());
  // Coloured and double-spaced too.
  const mailed = doubleSpaced(coloured(log));
  const b = analyzeText(mailed);
  assert.equal(b.iptables?.kube.services.length, 1);
  assert.equal(bogusIn(b, mailed).word, '--bogus');
});
