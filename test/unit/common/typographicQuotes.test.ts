/**
 * A dump that went through a word processor, a mail client or a wiki has “ ” for its quotes: on rule lines they read
 * as iptables' straight quotes, columns unchanged; prose keeps its own (Chinese quotes with them).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { straightenRuleQuotes } from '../../../src/core/common/typographicQuotes';
import { seedDump } from '../../helpers/dumps';
import { readingOf } from '../../helpers/reading';

const SAVE = seedDump(['172.18.0.2:6443'], 'default/kubernetes:https', '10.96.0.1').text;
/** The first rule line with a quote: where the note points. */
const FIRST_QUOTED = SAVE.split('\n').findIndex((l) => l.startsWith('-A ') && l.includes('"'));

const typographic = (text: string) => text.replace(/ "/g, ' \u201c').replace(/" /g, '\u201d ');

test('a dump with typographic quotes reads as the dump: Service names from the comments, columns, one note', () => {
  const text = typographic(SAVE);
  assert.notEqual(text, SAVE);
  assert.equal(readingOf(text), readingOf(SAVE));
  const a = analyzeText(text);
  assert.equal(a.iptables!.kube.services[0].name, 'default/kubernetes:https');
  const plain = analyzeText(SAVE);
  assert.deepEqual(
    a.iptables!.dump.rules.map((r) => [r.span, r.comment]),
    plain.iptables!.dump.rules.map((r) => [r.span, r.comment]),
  );
  const notes = diagnosticsOf(a, 'en').filter((d) => d.code === 'typographic-quotes');
  assert.deepEqual(
    notes.map((d) => d.span),
    [{ line: FIRST_QUOTED, column: SAVE.split('\n')[FIRST_QUOTED].indexOf('"'), length: 1 }],
  );
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'typographic-quotes')!.message, /排版引号/);
});

test('prose keeps its quotes: a Chinese ticket around a dump with straight quotes has nothing to straighten', () => {
  const ticket = `客户说 Pod 访问“kubernetes”服务超时，节点上正常。\n${SAVE}\n请检查“路由”。\n`;
  assert.equal(straightenRuleQuotes(ticket), undefined);
  assert.equal(
    diagnosticsOf(analyzeText(ticket), 'en').some((d) => d.code === 'typographic-quotes'),
    false,
  );
});
