/**
 * The same output pasted in the forms people paste it must read the same: Windows line ends, indentation by
 * spaces or a tab, a byte order mark, trailing blanks, line numbers (`cat -n`, `nl`), typographic quotes on rule
 * lines, HTML character references, and every line behind `# ` for iptables text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { corpusFiles, CORPUS_MISSING } from '../../helpers/corpus';
import { readingOf } from '../../helpers/reading';

const FORMS: [string, (text: string) => string][] = [
  ['CRLF', (t) => t.replace(/\r?\n/g, '\r\n')],
  [
    'indented by 4',
    (t) =>
      t
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n'),
  ],
  [
    'indented by a tab',
    (t) =>
      t
        .split('\n')
        .map((l) => `\t${l}`)
        .join('\n'),
  ],
  ['byte order mark', (t) => `\ufeff${t}`],
  [
    'cat -n',
    (t) =>
      t
        .split('\n')
        .map((l, i) => `${String(i + 1).padStart(6)}\t${l}`)
        .join('\n'),
  ],
  [
    'typographic quotes on rule lines (a word processor)',
    (t) =>
      t
        .split('\n')
        .map((l) => (/^\s*-[AIRD] /.test(l) ? l.replace(/"/g, (_, at: number) => (at % 2 ? '\u201d' : '\u201c')) : l))
        .join('\n'),
  ],
  [
    'nl (blank lines not numbered)',
    (t) => {
      let n = 0;
      return t
        .split('\n')
        .map((l) => (l.trim() === '' ? l : `${String(++n).padStart(6)}\t${l}`))
        .join('\n');
    },
  ],
  [
    "HTML references (a page's source)",
    (t) => t.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  ],
  [
    'trailing blanks',
    (t) =>
      t
        .split('\n')
        .map((l) => `${l}   `)
        .join('\n'),
  ],
];

test('every corpus file reads the same in each paste form', (t) => {
  const files = [...corpusFiles('iptables'), ...corpusFiles('ipvs'), ...corpusFiles('routes')];
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  for (const f of files) {
    const plain = readingOf(f.text);
    for (const [form, change] of FORMS) assert.equal(readingOf(change(f.text)), plain, `${f.name} ${form}`);
  }
});

test('an iptables save dump reads the same behind "# " on every line (a test log)', (t) => {
  // Dumps that are already behind hashes, diffs and nft text have their own unwrapping; plain save dumps do not.
  const files = corpusFiles('iptables').filter(
    (f) => /^\*\w+\s*$/m.test(f.text) && !/^\s*#\s+-A/m.test(f.text) && !/^[<>] /m.test(f.text),
  );
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  for (const f of files)
    assert.equal(
      readingOf(
        f.text
          .split('\n')
          .map((l) => `# ${l}`)
          .join('\n'),
      ),
      readingOf(f.text),
      f.name,
    );
});

test('every corpus file reads inside Markdown code fences (an issue or a wiki) as with blank lines in their place', (t) => {
  const files = [...corpusFiles('iptables'), ...corpusFiles('ipvs'), ...corpusFiles('routes')];
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  for (const f of files) {
    const plain = readingOf(`\n${f.text}\n`);
    assert.equal(readingOf(`\`\`\`bash\n${f.text}\n\`\`\``), plain, `${f.name} backticks`);
    assert.equal(readingOf(`~~~\n${f.text}\n~~~~`), plain, `${f.name} tildes`);
  }
});
