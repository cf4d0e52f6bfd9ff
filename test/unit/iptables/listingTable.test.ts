// The table of a listing pasted without its command: nat's own chains and targets outweigh the built-in chains it
// lists, and two listings pasted as one (a built-in chain twice) are not guessed into one table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIptables } from '../../../src/core/iptables/parser';

const HEADER = 'target     prot opt source               destination';
const chain = (name: string, ...rules: string[]) => [`Chain ${name} (policy ACCEPT)`, HEADER, ...rules, ''].join('\n');
const PORTALS = 'KUBE-SERVICES  all  --  0.0.0.0/0            0.0.0.0/0            /* kubernetes service portals */';
const tablesOf = (text: string) => parseIptables(text).tables.map((t) => t.name);

test("a listing of nat's PREROUTING and OUTPUT with kube-proxy's nat chains and a DNAT is nat, not raw", () => {
  const listing = [
    chain('PREROUTING', PORTALS),
    chain('OUTPUT', PORTALS),
    chain('KUBE-SERVICES', 'KUBE-SVC-A  tcp  --  0.0.0.0/0            10.96.0.1            tcp dpt:443'),
    chain('KUBE-SVC-A', 'KUBE-SEP-A  all  --  0.0.0.0/0            0.0.0.0/0'),
    chain('KUBE-SEP-A', 'DNAT       tcp  --  0.0.0.0/0            0.0.0.0/0            tcp to:192.168.1.10:6443'),
  ].join('\n');
  assert.deepEqual(tablesOf(listing), ['nat']);
  // The same built-in chains with no nat chain nor target: raw's.
  assert.deepEqual(tablesOf([chain('PREROUTING'), chain('OUTPUT')].join('\n')), ['raw']);
});

test('iptables -L and iptables -t nat -L pasted as one listing stay in filter, not mangle', () => {
  const filter = [chain('INPUT'), chain('FORWARD', 'KUBE-FORWARD  all  --  0.0.0.0/0  0.0.0.0/0'), chain('OUTPUT')];
  const nat = [chain('PREROUTING', PORTALS), chain('INPUT'), chain('OUTPUT', PORTALS), chain('POSTROUTING')];
  assert.deepEqual(tablesOf([...filter, ...nat].join('\n')), ['filter']);
  // Mangle lists PREROUTING first; a listing that starts with INPUT and has PREROUTING further down is no table's.
  const mangle = ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'];
  assert.deepEqual(tablesOf(mangle.map((name) => chain(name)).join('\n')), ['mangle']);
  assert.deepEqual(tablesOf(['INPUT', 'FORWARD', 'OUTPUT', 'PREROUTING'].map((name) => chain(name)).join('\n')), [
    'filter',
  ]);
});

test('a listing row with thousands of comments reads each one, in order', () => {
  // Each `/*` once searched for its `*/` from the row's start: 40k comments on a row took 15 s.
  const n = 5000;
  const comments = Array.from({ length: n }, (_, i) => `/* c${i} */`).join(' ');
  const text = [
    'Chain INPUT (policy ACCEPT 0 packets, 0 bytes)',
    ' pkts bytes target     prot opt in     out     source               destination',
    `    0     0 ACCEPT     all  --  *      *       0.0.0.0/0            0.0.0.0/0            ${comments}`,
  ].join('\n');
  const rule = parseIptables(text).rules[0];
  const written = rule.matches.filter((m) => m.module === 'comment').flatMap((m) => m.options.map((o) => o.values[0]));
  assert.equal(written.length, n);
  assert.deepEqual([written[0], written[1], written[n - 1]], ['c0', 'c1', `c${n - 1}`]);
});
