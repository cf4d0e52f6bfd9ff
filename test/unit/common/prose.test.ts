import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isProse } from '../../../src/core/common/prose';

test('a sentence is three words or more that start with a word; a rule or two words are not prose', () => {
  for (const line of ['Then the packet goes to KUBE-SERVICES', "It's fine, see below", '- The default rule changed'])
    assert.equal(isProse(line), true, line);
  for (const line of ['Chain INPUT', 'iptables -A INPUT -s 10.0.0.1 -j DROP', 'COMMIT', '10.0.0.1 dev eth0 scope'])
    assert.equal(isProse(line), false, line);
});

test('a flattened paste of millions of words (echo $(...), a chat that joined the lines) is read, not a stack overflow', () => {
  const words = 'Then ' + 'word '.repeat(3_200_000) + 'end';
  assert.equal(isProse(words), true);
  assert.equal(isProse('x '.repeat(5_000_000) + 'x'), true);
  assert.equal(isProse('1 '.repeat(5_000_000) + '1'), false); // a number first: no sentence
});

test("a program's message is prose; a host prefix before the output's lines (pdsh, clush) is not", () => {
  for (const line of [
    'sudo: unable to resolve host node-a: Name or service not known',
    'bash: ipvsadm: command not found',
    'error: unable to upgrade connection: container not found ("kube-proxy")',
    'error: error dialing backend: dial tcp 10.0.0.5:10250: i/o timeout',
    'sudo: a terminal is required to read the password; either use the -S option to read from standard input',
  ])
    assert.equal(isProse(line), true, line);
  for (const line of [
    'node1: -A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y',
    'node1: :KUBE-SERVICES - [0:0]',
    'node1: TCP  10.96.0.1:443 rr',
    'node1: -> 10.244.1.5:6443 Masq 1 0 0',
    'node1: TCP  [fd00::1]:443 rr',
  ])
    assert.equal(isProse(line), false, line);
});

test("a short question, a list item's caption and sudo's password prompt are prose; no tool's line is", () => {
  for (const line of [
    'Any idea?',
    'Thanks!',
    'Help?!',
    '1. iptables-save:',
    '- On node-1:',
    '[sudo] password for ops:',
  ])
    assert.equal(isProse(line), true, line);
  for (const line of ['COMMIT', 'KUBE-SERVICES', '1. -A INPUT -j DROP', '[0:0]', '-A X -j DROP!'])
    assert.equal(isProse(line), false, line);
});

test("a chat's name-and-time line, a mail's greeting or closing and tmux's status line are prose; no tool's line is", () => {
  for (const line of [
    '[9:14 PM] Jane Doe',
    '[21:14] ops-bot',
    'Hi,',
    'Thanks,',
    'Best regards,',
    '[k8s] 0:bash* 1:vim-                                   "node-1" 21:03 07-Dec-26',
  ])
    assert.equal(isProse(line), true, line);
  // Counters before a rule or a chain (iptables-save -c) with two-digit bytes look like a time.
  for (const line of [
    '[0:0] -A KUBE-SERVICES -j RETURN',
    '[1:60] -A KUBE-SERVICES -j RETURN',
    '[5:30] :KUBE-SVC-X',
    ':KUBE-SVC-X - [0:0]',
    'COMMIT',
    'Chain KUBE-SVC-X,',
  ])
    assert.equal(isProse(line), false, line);
});

test("a YAML key around an output kept in a manifest is prose; a host prefix before a dump's word is not", () => {
  for (const line of ['apiVersion: v1', 'kind: ConfigMap', 'name: node-1-rules', 'rules.v4: |', 'output: >-'])
    assert.equal(isProse(line), true, line);
  for (const line of ['node1: COMMIT', 'node1: -A KUBE-SERVICES -j RETURN', 'KUBE-SVC-X: ACCEPT'])
    assert.equal(isProse(line), false, line);
});
