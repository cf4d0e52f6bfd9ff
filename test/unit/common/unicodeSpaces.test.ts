/**
 * A dump copied through a chat, a mail client, a wiki or a web page has no-break spaces for its blanks, and some
 * editors add zero-width spaces at the starts of lines: each reads as a blank, columns unchanged, with one note.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { readUnicodeSpaces } from '../../../src/core/common/unicodeSpaces';
import { KUBERNETES_IPVS, KUBERNETES_SAVE } from '../../helpers/dumps';
import { readingOf } from '../../helpers/reading';

const SAVE = KUBERNETES_SAVE;
const IPVS = KUBERNETES_IPVS;
const ROUTES =
  'default via 192.168.7.1 dev eth0 proto dhcp metric 100\n10.244.1.0/24 via 192.168.7.12 dev eth0 onlink\n';

const noBreak = (text: string) => text.replace(/ /g, '\u00a0');
const narrowNoBreak = (text: string) => text.replace(/ /g, '\u202f');
const zeroWidthStarts = (text: string) => text.replace(/^(?=\S)/gm, '\u200b');

test('every engine reads an output whose blanks are no-break spaces as the output', () => {
  for (const text of [SAVE, IPVS, ROUTES]) {
    for (const copy of [noBreak, narrowNoBreak, zeroWidthStarts]) {
      const copied = copy(text);
      assert.notEqual(copied, text);
      assert.equal(readingOf(copied), readingOf(text), `${copy.name}: ${text.slice(0, 30)}`);
    }
  }
});

test('rules keep their columns and the note points at the first such space', () => {
  const a = analyzeText(noBreak(SAVE));
  const plain = analyzeText(SAVE);
  assert.deepEqual(
    a.iptables!.dump.rules.map((r) => [r.span, r.comment]),
    plain.iptables!.dump.rules.map((r) => [r.span, r.comment]),
  );
  const firstBlank = SAVE.split('\n').findIndex((l) => l.includes(' '));
  const notes = diagnosticsOf(a, 'en').filter((d) => d.code === 'unicode-spaces');
  assert.deepEqual(
    notes.map((d) => d.span),
    [{ line: firstBlank, column: SAVE.split('\n')[firstBlank].indexOf(' '), length: 1 }],
  );
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'unicode-spaces')!.message, /不换行空格/);
  assert.equal(
    diagnosticsOf(plain, 'en').some((d) => d.code === 'unicode-spaces'),
    false,
  );
});

test('a quoted paste whose quote marks are followed by no-break spaces is unquoted too', () => {
  const quoted = SAVE.split('\n')
    .map((l) => `>\u00a0${l}`)
    .join('\n');
  assert.equal(
    readingOf(quoted),
    readingOf(
      SAVE.split('\n')
        .map((l) => `> ${l}`)
        .join('\n'),
    ),
  );
});

test('a zero-width space inside a word is left there: a blank would cut the word in two', () => {
  assert.equal(readUnicodeSpaces('-A KUBE-SVC-\u200bABC -j DROP'), undefined);
  assert.equal(readUnicodeSpaces('-A KUBE-SVC-ABC\u200b -j DROP')?.text, '-A KUBE-SVC-ABC  -j DROP');
  assert.equal(readUnicodeSpaces(SAVE), undefined);
});

test("a file's byte order mark before its first line is no copy's space", () => {
  assert.equal(readUnicodeSpaces(`\ufeff${SAVE}`), undefined);
  assert.equal(readUnicodeSpaces(`\ufeff\u200b${SAVE}`)?.text, `\ufeff ${SAVE}`);
});

test('a paste indented or spaced with ideographic spaces (an input method in full-width mode) reads as the output', () => {
  const ideographic = '\u3000';
  for (const text of [SAVE, IPVS]) {
    // A Chinese document indents its code by two of them; an input method types one for each blank.
    const indented = text.replace(/^(?=\S)/gm, ideographic.repeat(2));
    const spaced = text.replace(/ /g, ideographic);
    assert.equal(readingOf(indented), readingOf(text), `indented: ${text.slice(0, 30)}`);
    assert.equal(readingOf(spaced), readingOf(text), `spaced: ${text.slice(0, 30)}`);
  }
  const a = analyzeText(SAVE.replace(/^(?=\S)/gm, ideographic.repeat(2)));
  const plain = analyzeText(SAVE.replace(/^(?=\S)/gm, '  '));
  // One for one: every rule keeps its columns.
  assert.deepEqual(
    a.iptables!.dump.rules.map((r) => r.span),
    plain.iptables!.dump.rules.map((r) => r.span),
  );
  const note = diagnosticsOf(a, 'en').find((d) => d.code === 'unicode-spaces');
  assert.deepEqual(note?.span, { line: 0, column: 0, length: 1 });
  assert.match(note!.message, /U\+3000/);
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'unicode-spaces')!.message, /全角空格/);
});
