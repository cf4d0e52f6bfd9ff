/**
 * Firewall scripts as people write them, read as the shell runs them: a command after shell on its line (a
 * one-line function, a condition, a loop's body), a command its tool refuses (`iptables -6 ...`), a stray bare rule
 * line among the commands, and here-documents that write other files (sysctl, /etc/hosts) beside those that feed
 * iptables-restore. Samples written here, modelled on host firewall scripts and provisioning snippets.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { parseIptables } from '../../../src/core/iptables/parser';
import { traceText } from '../../../src/core/traceAnalysis';

const codes = (text: string) => parseIptables(text).diagnostics.map((d) => [d.span.line, d.code]);
const rulesOf = (text: string, chain: string, table = 'filter') =>
  parseIptables(text)
    .tables.find((t) => t.name === table)
    ?.chains.get(chain)
    ?.rules.map((r) => [r.line, r.text]);

test('iptables -6 and ip6tables -4 are refused (exit status 2): said, in both languages, and no rule of either family', () => {
  const text = [
    '#!/bin/sh',
    'iptables -A INPUT -p tcp --dport 22 -j ACCEPT',
    'iptables -6 -A INPUT -p tcp --dport 80 -j DROP',
    'sudo ip6tables --ipv4 -I INPUT 1 -j DROP',
    'iptables -A INPUT -p tcp --dport 443 -j DROP -6',
    'iptables -P INPUT DROP',
  ].join('\n');
  const lines = text.split('\n');
  const a = analyzeText(text);
  const refused = diagnosticsOf(a, 'en').filter((d) => d.code === 'command-family-refused');
  assert.deepEqual(
    refused.map((d) => [d.span.line, d.span.column, d.span.length, d.severity]),
    [
      [2, lines[2].indexOf('-6'), 2, 'error'],
      [3, lines[3].indexOf('--ipv4'), 6, 'error'],
      [4, lines[4].indexOf('-6'), 2, 'error'],
    ],
  );
  assert.match(refused[0].message, /iptables refuses -6: it is the IPv4 tool, and stops with exit status 2/);
  assert.match(refused[1].message, /ip6tables refuses --ipv4: it is the IPv6 tool/);
  const zh = diagnosticsOf(a, 'zh-CN').filter((d) => d.code === 'command-family-refused');
  assert.match(zh[0].message, /iptables 拒绝 -6：它是 IPv4 工具/);
  // Only the IPv4 command changed a rule: the HTTP DROP is not traced as an IPv4 rule.
  assert.deepEqual(rulesOf(text, 'INPUT'), [[1, 'INPUT -p tcp --dport 22 -j ACCEPT']]);
  const http = traceText(
    text,
    { src: '10.0.0.9', dst: '10.0.0.1', dport: 80, proto: 'tcp', hook: 'prerouting', localAddresses: ['10.0.0.1'] },
    'en',
  ).answer;
  assert.equal(http.engine, 'iptables');
  if (http.engine === 'iptables')
    assert.deepEqual(
      http.result.paths.map((p) => [p.verdict, p.steps.map((s) => s.line)]),
      [['DROP', [5]]],
    );
  // A script of ip6tables commands with one refused `ip6tables -4` is still read as IPv6.
  const v6 = parseIptables('ip6tables -A INPUT -p ipv6-icmp -j ACCEPT\nip6tables -4 -A INPUT -j DROP');
  assert.deepEqual(
    v6.diagnostics.map((d) => [d.span.line, d.code]),
    [[1, 'command-family-refused']],
  );
  assert.deepEqual(
    v6.rules.map((r) => r.line),
    [0],
  );
});

test('a command after shell on its line is read: a one-line function, a condition, a loop body', () => {
  const text = [
    '#!/bin/bash',
    'allow() { $IPT -A INPUT -p tcp --dport "$1" -j ACCEPT; }',
    'function block { iptables -A INPUT -s "$1" -j DROP; }',
    'IPT=/sbin/iptables',
    'if ! iptables -C INPUT -i lo -j ACCEPT 2>/dev/null; then iptables -A INPUT -i lo -j ACCEPT; fi',
    'for p in 80 443; do $IPT -A INPUT -p tcp --dport $p -j ACCEPT; done',
    'allow 22',
    '$IPT -P INPUT DROP',
  ].join('\n');
  const lines = text.split('\n');
  // The function's `$IPT` runs the tool the script sets after the definition; the shell lines are one note.
  assert.deepEqual(codes(text), [[3, 'shell-lines-not-run']]);
  assert.deepEqual(rulesOf(text, 'INPUT'), [
    [1, 'INPUT -p tcp --dport "$1" -j ACCEPT'],
    [2, 'INPUT -s "$1" -j DROP'],
    [4, 'INPUT -i lo -j ACCEPT'],
    [5, 'INPUT -p tcp --dport $p -j ACCEPT'],
  ]);
  const dump = parseIptables(text);
  const rule = dump.rules.find((r) => r.line === 1)!;
  assert.equal(rule.span.column, lines[1].indexOf('-A'));
  assert.equal(dump.rules.find((r) => r.line === 4)!.span.column, lines[4].lastIndexOf('-A'));
  // A function that runs something else is shell, as before.
  assert.deepEqual(codes('log() { logger -t fw "$1"; }\niptables -A INPUT -j ACCEPT'), [[0, 'shell-lines-not-run']]);
});

test('a script with one bare rule line stays a script: its commands are applied, the bare line is said', () => {
  const text = [
    '#!/bin/sh',
    'iptables -F INPUT',
    'iptables -A INPUT -i lo -j ACCEPT',
    '-A INPUT -p tcp --dport 22 -j ACCEPT',
    'iptables -A INPUT -p tcp --dport 80 -j ACCEPT',
    'iptables -P INPUT DROP',
  ].join('\n');
  const a = analyzeText(text);
  assert.deepEqual(
    diagnosticsOf(a, 'en').map((d) => [d.span.line, d.code]),
    [[3, 'rule-line-not-command']],
  );
  assert.match(diagnosticsOf(a, 'en')[0].message, /the shell would not run it/);
  assert.match(diagnosticsOf(a, 'zh-CN')[0].message, /shell 不会运行它/);
  assert.deepEqual(
    rulesOf(text, 'INPUT')!.map((r) => r[0]),
    [2, 3, 4],
  );
  assert.equal(a.iptables!.dump.tables[0].chains.get('INPUT')!.policy, 'DROP');
  // A transcript still is one: the same command beside what `iptables-save | grep` printed, or -S output.
  const transcript = [
    '$ sudo iptables -A INPUT -p tcp --dport 22 -j ACCEPT',
    '$ sudo iptables-save | grep dport',
    '-A INPUT -p tcp -m tcp --dport 22 -j ACCEPT',
  ].join('\n');
  assert.deepEqual(codes(transcript), [[0, 'command-not-applied']]);
  const listed = ['iptables -A INPUT -j ACCEPT', 'iptables -S INPUT 1', '-A INPUT -j ACCEPT'].join('\n');
  assert.deepEqual(codes(listed), [[0, 'command-not-applied']]);
});

test('only a here-document fed to iptables-restore or written to a rules file is restore input', () => {
  const text = [
    '#!/bin/sh',
    'cat > /etc/sysctl.d/99-forward.conf <<EOF',
    'net.ipv4.ip_forward = 1',
    'EOF',
    'cat <<EOF > /etc/hosts',
    '10.0.0.5 app',
    '-A INPUT -j DROP',
    'EOF',
    "sudo tee /etc/iptables/rules.v4 >/dev/null <<'RULES'",
    '*filter',
    ':INPUT ACCEPT [0:0]',
    '-A INPUT -i lo -j ACCEPT',
    'COMMIT',
    'RULES',
    'cat <<EOF | ip6tables-restore -n',
    '*filter',
    '-A INPUT -p ipv6-icmp -j ACCEPT',
    'COMMIT',
    'EOF',
    'iptables -A INPUT -p tcp --dport 22 -j ACCEPT',
  ].join('\n');
  // The sysctl and hosts files' lines are the script's shell (one note), not restore input's unknown lines or rules.
  const a = analyzeText(text);
  assert.deepEqual(
    diagnosticsOf(a, 'en').map((d) => [d.span.line, d.code, d.params?.count]),
    [[1, 'shell-lines-not-run', 7]],
  );
  assert.deepEqual(
    a.iptables!.dump.rules.map((r) => r.line),
    [11, 16, 19],
  );
  // A here-document nothing closes (a cut paste) is no here-document: its lines are read as they are.
  assert.deepEqual(
    parseIptables('cat <<EOF > /etc/hosts\n-A INPUT -j DROP').rules.map((r) => r.line),
    [1],
  );
});
