/**
 * An output copied from a web page's source or a ticket export has `&quot;`, `&gt;`, `&amp;` for its characters: it
 * reads as the output, each position pointing at the reference in the text, with one note.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { readHtmlReferences } from '../../../src/core/common/htmlReferences';
import { documentDiagnostic } from '../../../src/core/documentPositions';
import { seedDump } from '../../helpers/dumps';
import { readingOf } from '../../helpers/reading';

const SAVE = seedDump(['172.18.0.2:6443'], 'default/kubernetes:https', '10.96.0.1').text;
const escaped = (t: string) =>
  t.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

test("a save dump from a page's source reads as the dump, its spans on the references, one note in both languages", () => {
  const page = escaped(SAVE);
  assert.notEqual(page, SAVE);
  assert.equal(readingOf(page), readingOf(SAVE));
  const a = analyzeText(page);
  assert.equal(a.iptables!.kube.services[0].name, 'default/kubernetes:https');
  const pageLines = page.split('\n');
  // Each rule's span, mapped to the text, is the whole escaped rule line.
  for (const r of a.iptables!.dump.rules) {
    const { span } = documentDiagnostic(a, { span: r.span, severity: 'info', code: '', message: '' });
    assert.equal(span.line, r.line);
    assert.equal(pageLines[span.line].slice(span.column, span.column + span.length), escaped(SAVE.split('\n')[r.line]));
  }
  const notes = diagnosticsOf(a, 'en')
    .filter((d) => d.code === 'html-references')
    .map((d) => documentDiagnostic(a, d));
  const first = pageLines.findIndex((l) => l.includes('&quot;'));
  assert.deepEqual(
    notes.map((d) => d.span),
    [{ line: first, column: pageLines[first].indexOf('&quot;'), length: '&quot;'.length }],
  );
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'html-references')!.message, /HTML 字符引用/);
});

test('a finding behind references points at its word in the text', () => {
  const page = escaped(
    '*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -m comment --comment "a <b> & c" --bogus 1 -j ACCEPT\nCOMMIT\n',
  );
  const a = analyzeText(page);
  const finding = diagnosticsOf(a, 'en').find((d) => d.severity !== 'info');
  assert.ok(finding, 'the unknown option is reported');
  const { span } = documentDiagnostic(a, finding);
  assert.equal(page.split('\n')[span.line].slice(span.column, span.column + span.length), '--bogus');
});

test('every engine position maps into the text and back; numeric references and no-break spaces read too', () => {
  const text = '  -&gt; 10.244.1.5:8080&nbsp;Masq &#34;x&#x22; &#128512; &unknown; &amp\n-A X -d 1.2.3.4 &quot;\n';
  const read = readHtmlReferences(text)!;
  assert.equal(read.text, '  -> 10.244.1.5:8080 Masq "x" \u0020 &unknown; &amp\n-A X -d 1.2.3.4 "\n');
  assert.deepEqual([read.line, read.column], [0, 3]);
  const lines = read.text.split('\n');
  for (let line = 0; line < lines.length; line++)
    for (let column = 0; column <= lines[line].length; column++) {
      const there = read.positions.toOriginal(line, column);
      assert.deepEqual(read.positions.toEngine(there.line, there.column), { line, column }, `${line}:${column}`);
    }
});

test('a dump without references in its head is left as it is', () => {
  assert.equal(readHtmlReferences(SAVE), undefined);
  // A bare ampersand is no reference: a comment may have one.
  assert.equal(readHtmlReferences('-A X -m comment --comment "R&D" -j ACCEPT\n'), undefined);
});

test('a dump a web form kept with <br> line breaks (joined into one line, or before each line break) reads as the dump, each span on the pasted text', () => {
  const joined = SAVE.trimEnd().split('\n').join('<br>');
  const kept = `<pre><code>${SAVE.trimEnd().split('\n').join('<br/>\n')}</code></pre>\n`;
  for (const [name, text] of [
    ['one line', joined],
    ['<br/> before each break, in <pre><code>', kept],
  ] as const) {
    assert.equal(readingOf(text), readingOf(SAVE), name);
    const a = analyzeText(text);
    assert.deepEqual(
      diagnosticsOf(a, 'en').map((d) => d.code),
      ['html-line-breaks'],
      name,
    );
    // The DNAT rule's span is its line in the paste, wherever the form put it (with the break that ends it).
    const dnat = a.iptables!.dump.rules.find((r) => r.target?.name === 'DNAT')!;
    const { span } = documentDiagnostic(a, { span: dnat.span, severity: 'info', code: '', message: '' });
    const at = text.split('\n')[span.line].slice(span.column, span.column + span.length);
    assert.equal(
      at.replace(/<br\/?>$/, ''),
      SAVE.split('\n').find((l) => l.includes('DNAT')),
      name,
    );
  }
  assert.match(diagnosticsOf(analyzeText(joined), 'zh-CN')[0].message, /HTML 换行标记/);
});
