/**
 * `grep -r`, `grep -H` or a grep over several files puts each file's name before every line it prints: the output
 * behind the names reads as the output, for every engine; fields, addresses and log stamps at line starts are no
 * file names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { blankGrepFileNames } from '../../../src/core/common/grepFileNames';
import { KUBERNETES_IPVS, KUBERNETES_SAVE } from '../../helpers/dumps';
import { readingOf } from '../../helpers/reading';

const SAVE = KUBERNETES_SAVE;
const IPVS = KUBERNETES_IPVS;
const ROUTES =
  'default via 192.168.30.1 dev eth0 proto dhcp metric 100\n10.244.3.0/24 via 192.168.30.5 dev eth0\n10.244.4.0/24 via 192.168.30.6 dev eth0\n';
const IPSET = [
  'Name: KUBE-CLUSTER-IP',
  'Type: hash:ip,port',
  'Revision: 6',
  'Header: family inet hashsize 1024 maxelem 65536',
  'Size in memory: 512',
  'References: 2',
  'Number of entries: 1',
  'Members:',
  '10.96.0.1,tcp:443',
].join('\n');
const ROUTES6 =
  'fd00:10:244:1::/64 via fd00:30::5 dev eth0 metric 1024 pref medium\nfd00:10:244:2::/64 via fd00:30::6 dev eth0 metric 1024 pref medium\nfd00:10:244:3::/64 via fd00:30::7 dev eth0 metric 1024 pref medium\n';

const grepped = (text: string, file: string) =>
  text
    .split('\n')
    .map((l) => (l ? `${file}:${l}` : l))
    .join('\n');

test('an output behind the names of the files a grep read reads as the output, with one note', () => {
  for (const text of [SAVE, IPVS, ROUTES]) {
    const named = grepped(text, 'sosreport-node-a/sos_commands/networking/dump.txt');
    assert.equal(readingOf(named), readingOf(text), text.slice(0, 30));
  }
  const a = analyzeText(grepped(SAVE, 'node-a/iptables-save.out'));
  const notes = diagnosticsOf(a, 'en').filter((d) => d.code === 'grep-file-names');
  assert.deepEqual(
    notes.map((d) => d.span),
    [{ line: 0, column: 0, length: 'node-a/iptables-save.out:'.length }],
  );
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'grep-file-names')!.message, /grep/);
});

test('with -n too: the file name, then the line number, then the rule', () => {
  const named = SAVE.split('\n')
    .map((l, i) => `node-a/iptables-save.out:${i + 1}:${l}`)
    .join('\n');
  const a = analyzeText(named);
  assert.equal(a.iptables!.dump.rules.length, analyzeText(SAVE).iptables!.dump.rules.length);
  assert.equal(a.iptables!.kube.services[0].name, 'default/kubernetes:https');
});

test('field names, IPv6 addresses and outputs of their own are not file names', () => {
  for (const text of [SAVE, IPVS, ROUTES, IPSET, ROUTES6]) assert.equal(blankGrepFileNames(text), undefined);
  // Lines of many files are not one grep's.
  const many = SAVE.split('\n')
    .map((l, i) => `f${i}.txt:${l}`)
    .join('\n');
  assert.equal(blankGrepFileNames(many), undefined);
});

test("grep -A/-B/-C's context lines (`name-` where a match has `name:`) read as the output too", () => {
  const file = 'nodes/node-a/iptables-save.txt';
  // Every other line a match, the rest context, as `grep -r -A1 KUBE-` prints around the matches.
  const context = SAVE.split('\n')
    .map((line, i) => `${file}${i % 2 ? '-' : ':'}${line}`)
    .join('\n');
  const a = analyzeText(context);
  const plain = analyzeText(SAVE);
  assert.deepEqual(
    a.iptables!.dump.rules.map((r) => r.text.trim()),
    plain.iptables!.dump.rules.map((r) => r.text.trim()),
  );
  assert.deepEqual(
    diagnosticsOf(a, 'en').map((d) => d.code),
    [...diagnosticsOf(plain, 'en').map((d) => d.code), 'grep-file-names'].sort(),
  );
});
