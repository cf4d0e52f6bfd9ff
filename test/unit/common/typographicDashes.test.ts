/**
 * A rule pasted through a word processor, a wiki or a Markdown page has its `--` made an en or em dash
 * (`–dport 443`, `—to-destination`): on rule and command lines they read as `--`, every position on the text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { readTypographicDashes } from '../../../src/core/common/typographicDashes';
import { documentDiagnostic } from '../../../src/core/documentPositions';
import { seedDump } from '../../helpers/dumps';
import { readingOf } from '../../helpers/reading';

const SAVE = seedDump(['10.244.8.14:9090'], 'metrics/scraper:web', '10.96.77.3').text;
/** As Confluence and Markdown's smart punctuation render `--`, and Word its em dash. */
const typographic = (text: string) =>
  text.replace(/ --(dport|comment) /g, ' \u2013$1 ').replace(/ --to-destination /g, ' \u2014to-destination ');

test('typographic dashes on rule lines read as --: the rules, Services and endpoints of the dump', () => {
  const pasted = typographic(SAVE);
  assert.notEqual(pasted, SAVE);
  assert.equal(readingOf(pasted), readingOf(SAVE));
  const a = analyzeText(pasted);
  const note = diagnosticsOf(a, 'en').find((d) => d.code === 'typographic-dashes')!;
  const { span } = documentDiagnostic(a, note);
  assert.equal(pasted.split('\n')[span.line][span.column], '\u2013');
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'typographic-dashes')!.message, /排版破折号/);
});

test('a finding after a dash points at its word in the text; one-letter options take one hyphen', () => {
  const pasted =
    '*filter\n:INPUT ACCEPT [0:0]\n-A INPUT \u2013p tcp \u2013dport 22 \u2013bogus 1 \u2013j ACCEPT\nCOMMIT\n';
  const read = readTypographicDashes(pasted)!;
  assert.equal(read.text.split('\n')[2], '-A INPUT -p tcp --dport 22 --bogus 1 -j ACCEPT');
  const a = analyzeText(pasted);
  const bogus = diagnosticsOf(a, 'en').find((d) => d.code === 'unknown-option')!;
  const { span } = documentDiagnostic(a, bogus);
  assert.equal(pasted.split('\n')[span.line].slice(span.column, span.column + span.length), '\u2013bogus');
  // Every engine column maps into the text and back; both characters of `--` to its dash.
  const line = read.text.split('\n')[2];
  for (let column = 0; column <= line.length; column++) {
    const there = read.positions.toOriginal(2, column);
    const back = read.positions.toEngine(there.line, there.column);
    assert.ok(back.line === 2 && (back.column === column || back.column === column - 1), `${column}`);
  }
  assert.deepEqual(read.positions.toEngine(2, pasted.split('\n')[2].indexOf('\u2013dport')), {
    line: 2,
    column: line.indexOf('--dport'),
  });
});

test('commands read too; prose, words and comments keep their dashes', () => {
  const command =
    'sudo iptables -t nat -A PREROUTING -p tcp \u2013dport 80 -j DNAT \u2014to-destination 10.0.9.4:8080\n';
  assert.equal(
    readTypographicDashes(command)!.text,
    'sudo iptables -t nat -A PREROUTING -p tcp --dport 80 -j DNAT --to-destination 10.0.9.4:8080\n',
  );
  // A hyphen and a dash, as a page that made only the second one a dash.
  assert.equal(
    readTypographicDashes('-A X -p tcp -\u2013dport 22 -j ACCEPT\n')?.text,
    '-A X -p tcp --dport 22 -j ACCEPT\n',
  );
  // A dash at a line's start (an option first).
  assert.equal(readTypographicDashes('*filter\n\u2013A INPUT \u2013j ACCEPT\n')?.text, '*filter\n-A INPUT -j ACCEPT\n');
  assert.equal(readTypographicDashes('The rules \u2013 as the node has them \u2013 are below.\n'), undefined);
  assert.equal(readTypographicDashes('We tried \u2013dport on Tuesday.\n'), undefined);
  assert.equal(readTypographicDashes('-A X -m comment --comment "2024\u20132025 \u2013old" -j ACCEPT\n'), undefined);
});

test("a listing's opt column made a dash reads as --: the Service keeps its name", () => {
  const listing = [
    'Chain KUBE-SERVICES (2 references)',
    'target     prot opt source               destination',
    'KUBE-SVC-ABCDEFGHIJKLMNOP  tcp  --  0.0.0.0/0            10.96.77.3           /* metrics/scraper:web cluster IP */ tcp dpt:80',
    '',
  ].join('\n');
  const pasted = listing.replace(' -- ', ' \u2013 ');
  assert.equal(readTypographicDashes(pasted)!.text, listing);
  assert.deepEqual(
    analyzeText(pasted).iptables!.kube.services.map((s) => s.name),
    ['metrics/scraper:web'],
  );
  // Without a listing's header, a dash between blanks is prose.
  assert.equal(readTypographicDashes('-A X -p tcp \u2013 a note\n'), undefined);
});
