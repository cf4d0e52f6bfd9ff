/**
 * Outputs shown with line numbers (`cat -n`, `nl`: the number, then a tab) read as the output itself, columns where
 * the pasted text has them; a listing's own `num` column and other numbered text are not taken for them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { blankLineNumbers } from '../../../src/core/common/lineNumbers';
import { certaintyOf, detectDump } from '../../../src/core/detect';
import { seedDump } from '../../helpers/dumps';
import { readingOf } from '../../helpers/reading';

/** The seed's Service with one apiserver endpoint, as iptables-save writes it. */
const SAVE = seedDump(['172.18.0.2:6443'], 'default/kubernetes:https', '10.96.0.1').text;

const catN = (text: string) =>
  text
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(6)}\t${l}`)
    .join('\n');

test('cat -n of a save dump reads as the dump: a note, and every column where the numbered text has it', () => {
  const text = catN(SAVE);
  assert.equal(certaintyOf(detectDump(text)), 'sure');
  assert.equal(readingOf(text), readingOf(SAVE));
  const a = analyzeText(text);
  const [note] = diagnosticsOf(a, 'en');
  assert.deepEqual([note.code, note.span], ['numbered-paste', { line: 0, column: 0, length: 7 }]);
  assert.match(diagnosticsOf(a, 'zh-CN')[0].message, /行号/);
  const rule = a.iptables!.dump.rules.find((r) => r.chain === 'KUBE-SERVICES')!;
  assert.equal(rule.span.column, 7);
  assert.equal(a.iptables!.kube.services[0].endpoints[0].ip, '172.18.0.2');
});

test('ipvsadm and ip route output numbered by nl (blank lines not numbered) read as themselves', () => {
  const ipvs = `IP Virtual Server version 1.2.1 (size=4096)
Prot LocalAddress:Port Scheduler Flags
  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn
TCP  10.96.0.1:443 rr
  -> 172.18.0.2:6443              Masq    1      3          0

TCP  10.96.0.10:53 rr
  -> 10.244.0.3:53                Masq    1      0          0
`;
  const routes =
    'default via 192.168.100.1 dev eth0\n10.244.0.0/24 dev cni0 proto kernel scope link src 10.244.0.1\n\n172.16.0.1 via 192.168.100.1 dev eth0 src 192.168.100.23\n';
  for (const plain of [ipvs, routes]) {
    let n = 0;
    const text = plain
      .split('\n')
      .map((l) => (l.trim() === '' ? l : `${String(++n).padStart(6)}\t${l}`))
      .join('\n');
    assert.equal(readingOf(text), readingOf(plain));
    assert.equal(diagnosticsOf(analyzeText(text), 'en')[0].code, 'numbered-paste');
  }
  assert.equal(analyzeText(ipvs).ipvs!.services.length, 2);
});

test('not line numbers: a listing with --line-numbers, numbers that do not rise, too few numbered lines', () => {
  const listing = `Chain KUBE-SERVICES (2 references)
num  target     prot opt source               destination
1    KUBE-SVC-NPX46M4PTMTKRN6Y  6    --  0.0.0.0/0            10.96.0.1            /* default/kubernetes:https cluster IP */ tcp dpt:443
2    KUBE-NODEPORTS  0    --  0.0.0.0/0            0.0.0.0/0            /* kubernetes service nodeports */ ADDRTYPE match dst-type LOCAL
`;
  assert.equal(blankLineNumbers(listing), undefined);
  assert.equal(blankLineNumbers('3\tcart\n1\tcheckout\n2\tweb\n'), undefined);
  assert.equal(blankLineNumbers('1\tone\n2\ttwo\nthree\nfour\nfive\n'), undefined);
  assert.notEqual(blankLineNumbers('1\tone\n2\ttwo\n3\tthree\n'), undefined);
});

test('cat -n quoted in a chat: the quote marks, then the numbers behind them', () => {
  const text = catN(SAVE)
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  const a = analyzeText(text);
  assert.equal(readingOf(text), readingOf(SAVE));
  assert.deepEqual(
    diagnosticsOf(a, 'en')
      .slice(0, 2)
      .map((d) => d.code),
    ['quoted-paste', 'numbered-paste'],
  );
});

/** vim's `:set number` (width 3) or `less -N` (width 7): right-aligned, one blank, the empty lines numbered too. */
const editorNumbers = (text: string, width: number) =>
  text
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(width)} ${l}`.trimEnd())
    .join('\n');

test("an editor's or a pager's numbers (vim, less -N) read as the output, columns where the numbered text has them", () => {
  const ipvs =
    'IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\nTCP  10.96.0.1:443 rr\n  -> 172.18.0.2:6443              Masq    1      3          0\n';
  for (const width of [3, 7]) {
    for (const text of [SAVE, `${SAVE}\n\n${SAVE.split('\n')[0]}`, ipvs]) {
      const numbered = editorNumbers(text, width);
      assert.equal(readingOf(numbered), readingOf(text), `${width}: ${text.slice(0, 20)}`);
    }
    const a = analyzeText(editorNumbers(SAVE, width));
    const note = diagnosticsOf(a, 'en').find((d) => d.code === 'numbered-paste')!;
    assert.deepEqual(note.span, { line: 0, column: 0, length: width + 1 });
    assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'numbered-paste')!.message, /less -N/);
    const plain = analyzeText(SAVE);
    assert.deepEqual(
      a.iptables!.dump.rules.map((r) => [r.line, r.span.column - width - 1]),
      plain.iptables!.dump.rules.map((r) => [r.line, r.span.column]),
    );
  }
  // The shell's prompt after the pager's last line is no line of the output.
  assert.equal(readingOf(`${editorNumbers(SAVE, 3)}\n$ `), readingOf(`${SAVE}\n$ `));
  // Numbers that skip, or change width, are no editor's.
  assert.equal(blankLineNumbers('  1 *nat\n  3 :INPUT ACCEPT [0:0]\n  4 COMMIT\n'), undefined);
  assert.equal(blankLineNumbers(' 1 *nat\n  2 :INPUT ACCEPT [0:0]\n  3 COMMIT\n'), undefined);
});
