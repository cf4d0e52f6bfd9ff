// What a big `iptables -L -n -v --line-numbers` listing keeps: its rows without a token object per word (read again
// from the line when a hover asks), so a listing of one chain, whose every row jumps to a chain the paste lacks, no
// longer costs over 50 times its size before lint starts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';

const HEADER = 'num   pkts bytes target     prot opt in     out     source               destination';
const WORDS = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
const row = (i: number) =>
  `${i + 1}    12K  3M KUBE-SVC-X${i}  tcp  --  *      *       0.0.0.0/0            172.30.${i >> 8}.${i & 255}` +
  `         /* ${WORDS} */ tcp dpt:443`;

/** V8's collector, for a heap figure without garbage (what `--expose-gc` gives, asked for at run time). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

test('a listing row keeps under 4 KB of heap, a 40-word comment included (over 9 KB when each word kept a token)', () => {
  const rows = 20_000;
  const text = ['Chain KUBE-SERVICES (2 references)', HEADER, ...Array.from({ length: rows }, (_, i) => row(i))].join(
    '\n',
  );
  const gc = collector();
  gc();
  const before = getHeapStatistics().used_heap_size;
  const dump = parseIptables(text);
  gc();
  const perRow = (getHeapStatistics().used_heap_size - before) / rows;
  assert.equal(dump.rules.length, rows);
  assert.ok(perRow < 4096, `${Math.round(perRow)} bytes a row`);
});

test("a listing row's tokens, read again from its line, are the words it was listed with", () => {
  const line =
    '7    12K  3M KUBE-SVC-A  tcp  --  eth0   *       !10.0.0.0/8   10.96.0.1   /* ns/a:https */ tcp dpt:443';
  const model = buildModel(parseIptables(['Chain KUBE-SERVICES (2 references)', HEADER, line].join('\n')));
  const rule = model.ruleAtLine(2)!;
  assert.equal(rule.table, 'nat');
  const tokens = model.tokensOnLine(2).map((t) => [t.kind, t.text, t.span.column, t.span.length]);
  const at = (word: string) => line.indexOf(word);
  assert.deepEqual(tokens, [
    ['value', '7', 0, 1],
    ['counter', '12K', at('12K'), 3],
    ['counter', '3M', at('3M'), 2],
    ['target', 'KUBE-SVC-A', at('KUBE-SVC-A'), 10],
    ['value', 'tcp', at('tcp'), 3],
    ['value', '--', at('--'), 2],
    ['value', 'eth0', at('eth0'), 4],
    ['value', '!10.0.0.0/8', at('!10'), 11],
    ['value', '10.96.0.1', at('10.96'), 9],
    ['value', '/*', at('/*'), 2],
    ['commentText', 'ns/a:https', at('ns/a'), 10],
    ['commentText', '*/', at('*/'), 2],
    ['value', 'tcp', at('tcp dpt'), 3],
    ['value', 'dpt:443', at('dpt:'), 7],
  ]);
  // The same objects' values each time they are asked for, and the row's options point at the same columns.
  assert.deepEqual(model.tokensOnLine(2), model.tokensOnLine(2));
  assert.equal(model.tokenAt(2, at('ns/a') + 2)?.kind, 'commentText');
  assert.equal(rule.target?.span.column, at('KUBE-SVC-A'));
});
