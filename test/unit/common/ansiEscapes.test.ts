/**
 * An output captured from a terminal (`kubectl exec -it ... -- ip addr > f`, `grep --color=always`, `script`) keeps
 * the terminal's colour sequences: they read as nothing, every position still on the text's own characters.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { readAnsiEscapes } from '../../../src/core/common/ansiEscapes';
import { documentDiagnostic } from '../../../src/core/documentPositions';
import { seedDump } from '../../helpers/dumps';
import { readingOf } from '../../helpers/reading';

const SAVE = seedDump(['172.18.0.2:6443', '172.18.0.3:6443'], 'default/kubernetes:https', '10.96.0.1').text;
const ADDR = [
  '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000',
  '    inet 127.0.0.1/8 scope host lo',
  '       valid_lft forever preferred_lft forever',
  '2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP group default qlen 1000',
  '    link/ether 52:54:00:ab:cd:01 brd ff:ff:ff:ff:ff:ff',
  '    inet 192.168.30.4/24 brd 192.168.30.255 scope global eth0',
  '       valid_lft forever preferred_lft forever',
].join('\n');
const ROUTES = 'default via 192.168.30.1 dev eth0 proto dhcp metric 100 \n10.244.3.0/24 via 192.168.30.5 dev eth0 \n';

const ESC = '\x1b';
/** As `ip -color` paints them: addresses magenta, interfaces blue, states green, each followed by a reset. */
const ipColours = (text: string) =>
  text
    .replace(/\b(\d+\.\d+\.\d+\.\d+)/g, `${ESC}[35m$1${ESC}[0m`)
    .replace(/\b(eth0|lo)(:?) /g, `${ESC}[34m$1$2 ${ESC}[0m`)
    .replace(/state (UP|UNKNOWN) /g, `state ${ESC}[32m$1 ${ESC}[0m`);
/** As `grep --color=always KUBE-SVC` marks its matches. */
const grepColours = (text: string) => text.replace(/KUBE-SVC-/g, `${ESC}[01;31m${ESC}[KKUBE-SVC-${ESC}[m${ESC}[K`);

test('a coloured output reads as the output for every engine', () => {
  for (const [text, colour] of [
    [SAVE, grepColours],
    [ADDR, ipColours],
    [ROUTES, ipColours],
  ] as const) {
    const coloured = colour(text);
    assert.notEqual(coloured, text);
    assert.equal(readingOf(coloured), readingOf(text), text.slice(0, 30));
  }
  const a = analyzeText(ipColours(ADDR));
  assert.deepEqual(
    a.network!.interfaces.map((i) => [i.name, i.addresses.map((x) => x.address)]),
    [
      ['lo', ['127.0.0.1']],
      ['eth0', ['192.168.30.4']],
    ],
  );
});

test('positions cross the sequences both ways, and the note points at the first', () => {
  const coloured = ipColours(ROUTES);
  const read = readAnsiEscapes(coloured)!;
  assert.equal(read.text, ROUTES);
  const lines = coloured.split('\n');
  // `192.168.30.5` on line 1: in the text it is after its colour sequence.
  const engineColumn = ROUTES.split('\n')[1].indexOf('192.168.30.5');
  const textColumn = lines[1].indexOf('192.168.30.5');
  assert.deepEqual(read.positions.toOriginal(1, engineColumn + 1), { line: 1, column: textColumn + 1 });
  assert.deepEqual(read.positions.toEngine(1, textColumn + 1), { line: 1, column: engineColumn + 1 });
  // Inside a sequence: the character it comes before.
  assert.deepEqual(read.positions.toEngine(1, textColumn - 2), { line: 1, column: engineColumn });
  const a = analyzeText(coloured);
  const note = diagnosticsOf(a, 'en').find((d) => d.code === 'terminal-escapes')!;
  const { line, column } = documentDiagnostic(a, note).span;
  assert.deepEqual({ line, column }, { line: 0, column: lines[0].indexOf(ESC) });
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'terminal-escapes')!.message, /终端转义序列/);
  assert.equal(readAnsiEscapes(ROUTES), undefined);
});
