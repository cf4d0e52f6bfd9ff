/**
 * A lone carriage return (terminals that redraw a line, old Mac files) once made the rule-word scanner stand still
 * and `kpp parse` loop forever. Each input here runs in a worker thread that is ended after a generous limit, so a
 * hang fails the test instead of freezing the suite. The limit catches hangs; it is not a performance assertion.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { normalizeLineBreaks } from '../../../src/core/common/lines';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';

const LIMIT_MS = 20_000;

/** Runs analyze + lint of `text` in a worker; resolves with the diagnostics' lines, rejects when the limit passes. */
function analyzeInWorker(text: string): Promise<number[]> {
  const analyzePath = require.resolve('../../../src/core/analyze');
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    try { require('tsx/cjs'); } catch {}
    const { analyzeText, diagnosticsOf } = require(workerData.analyzePath);
    const d = diagnosticsOf(analyzeText(workerData.text), 'en');
    parentPort.postMessage(d.map((x) => x.span.line));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { text, analyzePath } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`still running after ${LIMIT_MS} ms: ${JSON.stringify(text).slice(0, 200)}`));
    }, LIMIT_MS);
    worker.once('message', (lines: number[]) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(lines);
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

// Found by the fuzz run: a lone CR inside a quoted comment, with and without NULs beside it.
const HANGS = [
  '*nat\n-A KUBE-SERVICES -m comment --comment "default/web\r cluster IP" -j KUBE-SVC-X\nCOMMIT\n',
  '-A KUBE-SEP-Y -p tcp -m comment --comment "a\r\0" -j DNAT --to-destination 10.0.0.1:80\n-A KUBE-SEP-Y -j\r\0 MARK\n',
  '*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -m comment --comment "x\r\n-A INPUT -j ACCEPT\rCOMMIT\n',
  '\r\r"\r\0\r\'\r-A\r"',
];

for (const [i, text] of HANGS.entries()) {
  test(`lone CR input ${i + 1} finishes`, async () => {
    const lines = await analyzeInWorker(text);
    const count = normalizeLineBreaks(text).split('\n').length;
    for (const line of lines) assert.ok(line >= 0 && line < count, `diagnostic on line ${line} of ${count}`);
  });
}

test('a lone CR ends a line, as in the editor: engine lines match TextDocument lines', () => {
  const text = '*nat\r:KUBE-SERVICES - [0:0]\r\n-A KUBE-SERVICES -j KUBE-MISSING\rCOMMIT\r';
  const doc = TextDocument.create('file:///x', 'iptables', 1, text);
  const rule = buildModel(parseIptables(text)).ruleAtLine(2);
  assert.ok(rule, 'the rule after a lone CR is read');
  assert.equal(
    doc
      .getText({ start: { line: rule.span.line, character: 0 }, end: { line: rule.span.line, character: 100 } })
      .trimEnd(),
    '-A KUBE-SERVICES -j KUBE-MISSING',
  );
  const undefinedChain = diagnosticsOf(analyzeText(text), 'en').find((d) => d.code === 'undefined-chain');
  assert.equal(undefinedChain?.span.line, 2);
  assert.equal(doc.lineCount, 5);
});

test('normalizing keeps offsets: one character for one', () => {
  const text = 'a\rb\r\nc\r';
  const n = normalizeLineBreaks(text);
  assert.equal(n.length, text.length);
  assert.equal(n, 'a\nb\r\nc\n');
  assert.equal(normalizeLineBreaks('no breaks'), 'no breaks');
});
