/**
 * The outline is written as JSON text in the worker, item by item (src/server/jsonAnswer.ts), and the editor gets
 * the very text it got when the outline was built whole, positions mapped and fitted: on a kube-proxy dump big
 * enough to fold its chains, on a kube-proxy log whose lines are not the engine's, in Chinese, and across the
 * blocks' edges.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, type Analysis } from '../../../src/core/analyze';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';
import { fitResponse } from '../../../src/server/fit';
import { documentSymbols } from '../../../src/server/features/symbols';
import { networkSymbols } from '../../../src/server/features/networkSymbols';
import { listed, OpenList, writeJson, type JsonText } from '../../../src/server/jsonAnswer';
import { LineIndex } from '../../../src/server/lineIndex';
import { resultToDocument } from '../../../src/server/pasteMapping';
import { answerOf, HANDLERS, type Held } from '../../../src/server/worker';
import { CART, KUBE_DNS, klogRestoreLine, klogSync } from '../../helpers/kubeProxyLogs';
import { kubeProxyDump } from '../trace/helpers';

const METHOD = 'textDocument/documentSymbol';
const textOf = (t: JsonText) => Buffer.concat(t.blocks, t.length).toString('utf8');

/** The outline as the worker answered it before: built whole, mapped, fitted, and serialised at once. */
function builtWhole(doc: Held, lang: 'en' | 'zh-CN'): string {
  const whole = [...documentSymbols(doc.analysis, doc.lines, lang), ...networkSymbols(doc.analysis, doc.lines, lang)];
  const mapped = resultToDocument(METHOD, whole, doc.analysis.positions);
  return JSON.stringify(fitResponse(METHOD, mapped, doc.documentLines ?? doc.lines).value);
}

function held(text: string): Held {
  const analysis: Analysis = analyzeText(text, 'iptables');
  const engineText = analysis.positions?.engineText;
  return {
    uri: 'file:///work/d.iptables',
    analysis,
    lines: LineIndex.of(engineText ?? text),
    ...(engineText ? { documentLines: LineIndex.of(text) } : {}),
  };
}

const written = (doc: Held, lang: 'en' | 'zh-CN') => {
  const answer = answerOf(doc, METHOD, {}, lang);
  assert.ok('text' in answer, 'the outline is written as text');
  assert.deepEqual(answer.changes, []);
  return answer.text;
};

test('the outline of a dump that folds its Service chains is the text of the outline built whole', () => {
  // Past 1,000 chains in nat: KUBE-SVC and KUBE-SEP chains are listed under Services only.
  const dump = generateIptablesRestore(
    normaliseCluster(syntheticCluster({ services: 400, endpointsPerService: 3, nodePortEvery: 5 })),
    { clusterCidr: '10.0.0.0/8' },
  ).text;
  const doc = held(dump);
  for (const lang of ['en', 'zh-CN'] as const) {
    const text = written(doc, lang);
    assert.equal(textOf(text), builtWhole(doc, lang), lang);
    assert.equal(text.length, Buffer.byteLength(textOf(text)));
  }
  const outline = JSON.parse(textOf(written(doc, 'en'))) as { name: string; detail?: string }[];
  assert.deepEqual(
    outline.map((s) => s.name),
    ['*filter', '*nat', 'Services'],
  );
  assert.match(outline[1].detail!, /under Services/);
});

test("the outline of a kube-proxy log is in the log's lines, as when built whole", () => {
  const log = klogSync(klogRestoreLine(kubeProxyDump([KUBE_DNS, CART])));
  const doc = held(log);
  assert.ok(doc.analysis.positions, 'the log carries the dump escaped');
  assert.equal(textOf(written(doc, 'en')), builtWhole(doc, 'en'));
});

test('a symbol past its line is fitted item by item as it was fitted in the whole answer', () => {
  // A selection past its line's end: the editor would reject it.
  const lines = LineIndex.of('abc\ndef');
  const symbol = (line: number, character: number) => ({
    name: 'x',
    range: { start: { line, character: 0 }, end: { line, character: 3 } },
    selectionRange: { start: { line, character }, end: { line, character } },
  });
  const each = (item: unknown) => fitResponse(METHOD, item, lines).value;
  const value = [new OpenList({ name: 'top' }, 'children', [symbol(0, 1), symbol(1, 9)])];
  assert.equal(textOf(writeJson(value, each)), JSON.stringify(fitResponse(METHOD, listed(value), lines).value));
});

test('text longer than a block is cut between characters, never inside one', () => {
  // 3-byte characters after 1 odd byte: the 1 MiB edges fall inside characters unless the writer moves them.
  const names = Array.from({ length: 3000 }, (_, i) => `${i % 2 ? 'é' : 'x'}${'服务端点'.repeat(100)}`);
  const value = [
    new OpenList(
      { name: 'Services' },
      'children',
      names.map((name) => ({ name })),
    ),
  ];
  const text = writeJson(value, (x) => x);
  assert.ok(text.blocks.length > 1, 'several blocks');
  for (const block of text.blocks) assert.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(block));
  assert.equal(textOf(text), JSON.stringify(listed(value)));
});

test("an open list's property must be its object's last (it is written open)", () => {
  const misplaced = new OpenList({ name: 'x' }, 'children', []);
  assert.throws(() => writeJson([misplaced], (x) => ({ ...(x as object), after: 1 })), /not its object's last/);
});

test('answers fitted whole (folds, lenses, colours, hints) are written as the text of their value', () => {
  const doc = held(kubeProxyDump([KUBE_DNS, CART]));
  const everything = { start: { line: 0, character: 0 }, end: { line: doc.lines.lineCount, character: 0 } };
  for (const [method, params] of [
    ['textDocument/foldingRange', {}],
    ['textDocument/codeLens', {}],
    ['textDocument/semanticTokens/range', { range: everything }],
    ['textDocument/inlayHint', { range: everything }],
  ] as const) {
    const answer = answerOf(doc, method, params, 'en');
    assert.ok('text' in answer, `${method} is written as text`);
    const whole = fitResponse(method, HANDLERS[method](doc, params, 'en'), doc.lines).value;
    assert.equal(textOf(answer.text), JSON.stringify(whole), method);
  }
});
