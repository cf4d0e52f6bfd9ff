/**
 * iptables commands as people paste them from docs, shell history and scripts (`sudo iptables -t nat -A ...`):
 * each is read as the rule or chain command it runs, in the table it names, on its own line. Samples written here,
 * modelled on port-forwarding how-tos, k3s/kind troubleshooting threads and a node's bash history.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { detectDump } from '../../../src/core/detect';
import { parseIptables } from '../../../src/core/iptables/parser';
import { traceText } from '../../../src/core/traceAnalysis';
import { hover } from '../../../src/server/features/hover';
import { documentSymbols } from '../../../src/server/features/symbols';
import { LineIndex } from '../../../src/server/lineIndex';

const script = [
  '#!/bin/sh',
  '# forward 8080 on the host to the app container',
  'iptables -t nat -N APP-DNAT',
  'iptables -t nat -A PREROUTING -p tcp --dport 8080 -j APP-DNAT',
  'iptables -t nat -A APP-DNAT -p tcp -j DNAT --to-destination 172.17.0.2:80',
  'sudo iptables -A INPUT -p tcp --dport 22 -j ACCEPT',
  'iptables -P INPUT DROP',
  'sudo iptables -w -t filter -I INPUT 1 -i lo -j ACCEPT',
  '$ ip6tables -A INPUT -p ipv6-icmp -j ACCEPT',
].join('\n');

/** The parse's diagnostics of a text, by line and code. */
const notes = (text: string) => parseIptables(text).diagnostics.map((d) => [d.span.line, d.code]);

const chainRules = (text: string, table: string, chain: string) =>
  parseIptables(text)
    .tables.find((t) => t.name === table)
    ?.chains.get(chain)
    ?.rules.map((r) => r.line);

test('a script of iptables commands is read as the rules and chains of the tables it names, on their lines', () => {
  const dump = parseIptables(script);
  // The ip6tables command changes IPv6 rules, kept apart from the script's IPv4 ones: said, not applied.
  assert.deepEqual(
    dump.diagnostics.map((d) => [d.span.line, d.code]),
    [[8, 'command-other-family']],
  );
  assert.deepEqual(chainRules(script, 'nat', 'PREROUTING'), [3]);
  assert.deepEqual(chainRules(script, 'nat', 'APP-DNAT'), [4]);
  // -I INPUT 1 goes before the rule appended earlier; filter is the default table.
  assert.deepEqual(chainRules(script, 'filter', 'INPUT'), [7, 5]);
  const input = dump.tables.find((t) => t.name === 'filter')!.chains.get('INPUT')!;
  assert.equal(input.policy, 'DROP');
  const app = dump.tables.find((t) => t.name === 'nat')!.chains.get('APP-DNAT')!;
  assert.equal(app.declSpan?.line, 2);
  // The rule's words start at its command: `-A` is the rule's first token, its chain the second.
  const rule = dump.rules.find((r) => r.line === 3)!;
  assert.equal(rule.span.column, script.split('\n')[3].indexOf('-A'));
  assert.equal(rule.text, 'PREROUTING -p tcp --dport 8080 -j APP-DNAT');
  assert.equal(detectDump(script).kind, 'iptables');
});

test('hovers, outline and trace work on such a script', () => {
  const a = analyzeText(script);
  const line = script.split('\n')[4];
  const h = hover(a, 4, line.indexOf('DNAT --to'), 'en');
  assert.match(JSON.stringify(h), /172\.17\.0\.2:80/);
  const names = JSON.stringify(documentSymbols(a, LineIndex.of(script)));
  assert.match(names, /APP-DNAT/);
  // The trace's fast path reads only lines it can prove: a script's lines are read whole, with the same answer.
  const { answer } = traceText(
    script,
    {
      src: '10.0.0.9',
      dst: '192.168.1.5',
      dport: 8080,
      proto: 'tcp',
      hook: 'prerouting',
      localAddresses: ['192.168.1.5'],
    },
    'en',
  );
  assert.equal(answer.engine, 'iptables');
  if (answer.engine !== 'iptables') return;
  assert.deepEqual(
    answer.result.paths[0].steps.map((s) => `${s.table}/${s.chain}:${s.line}`),
    ['nat/PREROUTING:3', 'nat/APP-DNAT:4'],
  );
  assert.deepEqual(answer.result.paths[0].dnat, { ip: '172.17.0.2', port: 80 });
});

test("a command's own options, continuation lines and the shell around it are no part of its rule", () => {
  const text = [
    'iptables -A POSTROUTING -t nat -o eth0 -j MASQUERADE',
    'iptables -w 5 -t nat -A PREROUTING -p tcp --dport 80 \\',
    '    -m comment --comment "web; port 80" \\',
    '    -j DNAT --to-destination 10.0.0.2:8080 # the app',
    'iptables -C FORWARD -d 10.0.0.2 -j ACCEPT 2>/dev/null || iptables -I FORWARD -d 10.0.0.2 -j ACCEPT',
    'iptables -t nat -D POSTROUTING -o eth0 -j MASQUERADE',
  ].join('\n');
  const dump = parseIptables(text);
  assert.deepEqual(dump.diagnostics, []);
  const nat = dump.tables.find((t) => t.name === 'nat')!;
  // `-t nat` after the rule command names the table too; the -D of line 6 deletes that rule, written otherwise.
  assert.deepEqual(
    nat.chains.get('POSTROUTING')!.rules.map((r) => r.line),
    [],
  );
  assert.equal(dump.removedAt.get(dump.rules[0]), 5);
  const dnat = nat.chains.get('PREROUTING')!.rules[0];
  assert.equal(dnat.endLine, 3);
  assert.equal(dnat.comment, 'web; port 80');
  assert.equal(dnat.target?.name, 'DNAT');
  // `-C ... || iptables -I ...`: the check changes nothing, the insert is read.
  const forward = dump.tables.find((t) => t.name === 'filter')!.chains.get('FORWARD')!;
  assert.deepEqual(
    forward.rules.map((r) => [r.line, r.command, r.text]),
    [[4, 'insert', 'FORWARD -d 10.0.0.2 -j ACCEPT']],
  );
});

test('what a script does to rules the text does not show is said, not applied silently', () => {
  const text = [
    'iptables -D INPUT -p tcp --dport 23 -j ACCEPT 2>/dev/null; iptables -A INPUT -p tcp --dport 22 -j ACCEPT',
    'iptables -t nat -D KUBE-SERVICES -j KUBE-OLD',
  ].join('\n');
  const a = analyzeText(text);
  const said = (lang: 'en' | 'zh-CN') =>
    diagnosticsOf(a, lang)
      .filter((d) => d.severity === 'info')
      .map((d) => [d.span.line, d.span.column, d.code, d.message]);
  assert.deepEqual(
    said('en').map(([line, column, code]) => [line, column, code]),
    [
      [0, 0, 'command-not-read'],
      [1, 16, 'delete-no-match'],
    ],
  );
  assert.match(String(said('en')[0][3]), /this -D is not applied/);
  assert.match(String(said('en')[1][3]), /only if the kernel had one before these commands ran/);
  assert.match(String(said('zh-CN')[0][3]), /-D 未被应用/);
  assert.match(String(said('zh-CN')[1][3]), /这里不删除任何规则/);
  assert.deepEqual(chainRules(text, 'filter', 'INPUT'), [0]);
  // A command that lists rules still only says which table the output after it is.
  const listed = parseIptables('$ iptables -t nat -S\n-A KUBE-SERVICES -j KUBE-NODEPORTS');
  assert.deepEqual(
    listed.tables.map((t) => t.name),
    ['nat'],
  );
  assert.equal(listed.rules.length, 1);
});

/** A firewall script as such scripts are written: the tool in a variable, run through its path or with sudo. */
const firewall = [
  '#!/bin/bash',
  'IPT="/usr/sbin/iptables"',
  'IP6T=/usr/sbin/ip6tables',
  'LAN=eth1',
  '',
  '$IPT -F',
  '$IPT -P INPUT DROP',
  '$IPT -A INPUT -m state --state ESTABLISHED,RELATED -j ACCEPT',
  '${IPT} -A INPUT -p tcp --dport 22 -j ACCEPT',
  '"$IPT" -t nat -A PREROUTING -i eth0 -p tcp --dport 8443 -j DNAT --to-destination 192.168.10.20:443',
  '$IP6T -A INPUT -p ipv6-icmp -j ACCEPT',
  'sudo /sbin/iptables -A INPUT -p udp --dport 53 -j ACCEPT',
  '/usr/sbin/iptables-legacy -A INPUT -p tcp --dport 9100 -s 10.0.0.0/8 -j ACCEPT',
  '$FW -A INPUT -j DROP',
].join('\n');

test('a command run through a path or a variable the script set to iptables is read as the command it is', () => {
  const a = analyzeText(firewall);
  assert.equal(a.detection.kind, 'iptables');
  const found = diagnosticsOf(a, 'en').map((d) => [d.span.line, d.code]);
  // The assignments are the script's shell, said once; `$FW` names no tool the script set: not guessed from its
  // name, and a line with a rule's words is never quiet.
  assert.deepEqual(found, [
    [1, 'shell-lines-not-run'],
    [10, 'command-other-family'],
    [13, 'unrecognized-line'],
  ]);
  const filter = a.iptables!.dump.tables.find((t) => t.name === 'filter')!;
  assert.equal(filter.chains.get('INPUT')!.policy, 'DROP');
  assert.deepEqual(chainRules(firewall, 'filter', 'INPUT'), [7, 8, 11, 12]);
  assert.deepEqual(chainRules(firewall, 'nat', 'PREROUTING'), [9]);
  const { answer } = traceText(
    firewall,
    { src: '203.0.113.7', dst: '198.51.100.1', dport: 8443, proto: 'tcp', hook: 'prerouting', inIface: 'eth0' },
    'en',
  );
  assert.equal(answer.engine, 'iptables');
  if (answer.engine === 'iptables') assert.deepEqual(answer.result.paths[0].dnat, { ip: '192.168.10.20', port: 443 });
  // A path alone is no command: a file under a directory named iptables is not one.
  assert.equal(detectDump('/etc/iptables/rules.v4\n/etc/iptables/rules.v6').kind, 'unknown');
  assert.deepEqual(
    parseIptables('/etc/iptables -A INPUT -j DROP').diagnostics.map((d) => d.code),
    ['unrecognized-line'],
  );
});

test('a variable is the tool the script set it to before the line, and an ip6tables variable runs ip6tables', () => {
  const text = ['IPT=iptables', '$IPT -A INPUT -p tcp --dport 80 -j ACCEPT', 'IPT=echo', '$IPT -A INPUT -j DROP'].join(
    '\n',
  );
  // The assignment in force at each line decides: `echo -A INPUT -j DROP` changes no rule.
  assert.deepEqual(chainRules(text, 'filter', 'INPUT'), [1]);
  // Both families through variables; and a variable set again to the other family's tool, which runs the tool set
  // before each line, as the shell does: the ip6tables commands are said, not put in the IPv4 chains.
  const cases: [string[], (string | number)[][], number[]][] = [
    [
      [
        'IPT=iptables # IPv4',
        'IP6T=$(command -v ip6tables)',
        '$IPT -A INPUT -p tcp --dport 22 -j ACCEPT',
        '$IP6T -A INPUT -p tcp --dport 22 -j ACCEPT',
      ],
      [
        [0, 'shell-lines-not-run'],
        [3, 'command-other-family'],
      ],
      [2],
    ],
    [
      [
        'IPT=/sbin/ip6tables',
        '$IPT -A INPUT -s fd00::/8 -j ACCEPT',
        'IPT=/sbin/iptables',
        '$IPT -A INPUT -s 10.0.0.0/8 -j DROP',
      ],
      [
        [0, 'shell-lines-not-run'],
        [1, 'command-other-family'],
      ],
      [3],
    ],
  ];
  for (const [lines, said, rules] of cases) {
    const script = lines.join('\n');
    assert.deepEqual(notes(script), said, script);
    assert.deepEqual(chainRules(script, 'filter', 'INPUT'), rules, script);
  }
  // A variable used before the script sets it runs nothing known; in a shell function defined first and called
  // after the assignment, it runs the tool set later.
  assert.deepEqual(chainRules('$IPT -A INPUT -j DROP\nIPT=iptables', 'filter', 'INPUT'), undefined);
  const functions = [
    '#!/bin/sh',
    'allow() {',
    '  $IPT -A INPUT -s "$1" -j ACCEPT',
    '}',
    'function lockdown {',
    '  $IPT -P INPUT DROP',
    '  if [ -n "${ADMIN}" ]; then',
    '    $IPT -A INPUT -s "$ADMIN" -j ACCEPT',
    '  fi',
    '}',
    '$IPT -A INPUT -j LOG',
    'IPT=/sbin/iptables',
    'lockdown',
    'allow 10.0.0.0/8',
  ].join('\n');
  assert.deepEqual(chainRules(functions, 'filter', 'INPUT'), [2, 7]);
  // The use outside a function, before the assignment, is still no command.
  assert.deepEqual(notes(functions), [
    [1, 'shell-lines-not-run'],
    [10, 'unrecognized-line'],
  ]);
  // A default the script gives (`${IPTABLES:-/sbin/iptables}`) names the tool too, when nothing set it otherwise.
  const defaults = [
    'IPTABLES=${IPTABLES:-/sbin/iptables}',
    '$IPTABLES -t nat -A POSTROUTING -o eth0 -j MASQUERADE',
    '${IPT4:-iptables} -A FORWARD -i docker0 -j ACCEPT',
    'IPT6=true',
    '${IPT6:-ip6tables} -A FORWARD -j DROP',
  ].join('\n');
  assert.deepEqual(chainRules(defaults, 'nat', 'POSTROUTING'), [1]);
  assert.deepEqual(chainRules(defaults, 'filter', 'FORWARD'), [2]);
});

test('the word that ends a here-document of restore input ends it quietly', () => {
  const text = [
    '#!/bin/sh',
    'iptables-restore --noflush <<RULES',
    '*filter',
    ':KUBE-FW - [0:0]',
    '-A INPUT -j KUBE-FW',
    '-A KUBE-FW -p tcp --dport 6443 -j ACCEPT',
    'COMMIT',
    'RULES',
    'iptables -A INPUT -p tcp --dport 10250 -j ACCEPT',
    "sudo iptables-restore -n <<-'EOF'",
    '\t*nat',
    '\t-A POSTROUTING -s 10.42.0.0/16 -j MASQUERADE',
    '\tCOMMIT',
    '\tEOF',
    'EOF',
  ].join('\n');
  // Only a line after the here-document ended is no word of it.
  assert.deepEqual(notes(text), [[14, 'unrecognized-line']]);
  assert.deepEqual(chainRules(text, 'filter', 'INPUT'), [4, 8]);
  assert.deepEqual(chainRules(text, 'nat', 'POSTROUTING'), [11]);
});

test('restore input a script pipes from a here-document or writes to a rules file is no printed output', () => {
  const text = [
    'iptables -A INPUT -p tcp --dport 22 -j ACCEPT',
    "cat <<'EOF' | sudo iptables-restore -n",
    '*filter',
    '-A INPUT -p tcp --dport 80 -j ACCEPT',
    'COMMIT',
    'EOF',
    'sudo tee /etc/iptables/rules.v4 >/dev/null <<RULES',
    '*nat',
    '-A POSTROUTING -o eth0 -j MASQUERADE',
    'COMMIT',
    'RULES',
  ].join('\n');
  // The command before it is applied (not a transcript's history), and the shell lines around the input are quiet.
  assert.deepEqual(parseIptables(text).diagnostics, []);
  assert.deepEqual(chainRules(text, 'filter', 'INPUT'), [0, 3]);
  assert.deepEqual(chainRules(text, 'nat', 'POSTROUTING'), [8]);
  // A here-string (`<<<`) opens no here-document.
  const herestring = ['iptables-restore -n <<< "$RULES"', 'RULES'].join('\n');
  assert.deepEqual(notes(herestring), [[1, 'unrecognized-line']]);
});

test('a command continued by backslashes over many lines: each word token sits on its own line and column', () => {
  const n = 300;
  const lines = ['#!/bin/sh', 'iptables -A INPUT -p tcp \\'];
  for (let i = 0; i < n; i++) lines.push(`    -m comment --comment c${i} \\`);
  lines.push('    -j ACCEPT', '');
  const model = analyzeText(lines.join('\n')).iptables!;
  for (const i of [0, 5, 9, 150, n - 1]) {
    const line = 2 + i;
    const token = model.tokensOnLine(line).find((t) => t.text === `c${i}`);
    assert.ok(token, `line ${line}: ${JSON.stringify(model.tokensOnLine(line))}`);
    assert.deepEqual(token.span, { line, column: lines[line].indexOf(`c${i}`), length: `c${i}`.length });
  }
  const target = model.tokensOnLine(2 + n).find((t) => t.text === 'ACCEPT');
  assert.deepEqual(target?.span, { line: 2 + n, column: 7, length: 6 });
});

/** A firewall script as written on hosts: shell around the iptables commands, which run through a variable. */
const shellAround = [
  '#!/bin/bash',
  'set -euo pipefail',
  'IPT=/sbin/iptables',
  'echo "Flushing rules"',
  '$IPT -F',
  '$IPT -P INPUT DROP',
  'for port in 22 80 443; do',
  '  $IPT -A INPUT -p tcp --dport $port -j ACCEPT',
  'done',
  'if [ -n "$ADMIN_NET" ]; then',
  '  $IPT -A INPUT -s "$ADMIN_NET" -j ACCEPT',
  'fi',
  '$IPT -A INPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT',
  'exit 0',
].join('\n');

test("a script's shell lines are said once, as not run, and its commands are read in the order written", () => {
  const a = analyzeText(shellAround);
  const found = diagnosticsOf(a, 'en');
  assert.deepEqual(
    found.map((d) => [d.span.line, d.severity, d.code]),
    [[1, 'info', 'shell-lines-not-run']],
  );
  assert.match(found[0].message, /^8 lines of shell around the iptables commands .* are not run/);
  assert.match(diagnosticsOf(a, 'zh-CN')[0].message, /8 行 shell 代码/);
  assert.deepEqual(chainRules(shellAround, 'filter', 'INPUT'), [7, 10, 12]);
  // Functions, a case, plain commands: each line counted, a second `}` too.
  const functions = [
    'modprobe br_netfilter',
    'sysctl -w net.ipv4.ip_forward=1',
    'ip route add 10.8.0.0/24 via 10.0.0.2 dev eth1',
    'allow() {',
    '  iptables -A INPUT -p tcp --dport "$1" -j ACCEPT',
    '}',
    'function nat {',
    '  iptables -t nat -A POSTROUTING -o eth0 -j MASQUERADE',
    '}',
    'case "$1" in',
    '  start)',
    '    allow 22',
    '    ;;',
    'esac',
    '[ -x /usr/local/bin/post-fw ] && /usr/local/bin/post-fw',
    ':',
  ].join('\n');
  const said = parseIptables(functions).diagnostics;
  assert.deepEqual(
    said.map((d) => [d.span.line, d.code, d.params?.count]),
    [[0, 'shell-lines-not-run', 14]],
  );
});

test('around a script, a line that may be a mangled rule keeps its warning, a sentence stays prose', () => {
  const text = [
    'Open the ports like this:',
    'set -e',
    'iptables -A INPUT -p tcp --dport 22 -j ACCEPT',
    '  --dport 80 -j ACCEPT',
    'INPUT -p tcp -j DROP',
    '$FW -F',
    'then save them with the usual tool',
    'fi',
  ].join('\n');
  assert.deepEqual(notes(text), [
    [0, 'text-line'],
    [1, 'shell-lines-not-run'],
    [3, 'unrecognized-line'],
    [4, 'unrecognized-line'],
    [5, 'unrecognized-line'],
    [6, 'text-line'],
  ]);
  // A dump (or a transcript) with a stray shell line is no script: the line is warned about as before.
  const dump = ['*filter', ':INPUT ACCEPT [0:0]', 'echo reloading', '-A INPUT -j ACCEPT', 'fi', 'COMMIT'].join('\n');
  assert.deepEqual(notes(dump), [
    [2, 'unrecognized-line'],
    [4, 'unrecognized-line'],
  ]);
  const transcript = ['$ iptables -A INPUT -j DROP', 'fi', '$ iptables -S', '-P INPUT ACCEPT', '-A INPUT -j DROP'];
  assert.deepEqual(notes(transcript.join('\n')), [
    [0, 'command-not-applied'],
    [1, 'unrecognized-line'],
  ]);
});

test('a restore command that loads a file says the text does not show those rules; a here-document is read', () => {
  const said = (text: string) =>
    parseIptables(text)
      .diagnostics.filter((d) => d.code === 'restore-file-not-shown')
      .map((d) => [d.span.line, d.message]);
  assert.deepEqual(
    said(
      'set -e\niptables -F\niptables-restore < /etc/iptables/rules.v4\niptables -A INPUT -p tcp --dport 22 -j ACCEPT\n',
    ),
    [
      [
        2,
        'iptables-restore loads the rules of /etc/iptables/rules.v4, which the text does not show: lint and the trace read only the rules written here.',
      ],
    ],
  );
  assert.deepEqual(
    said('sudo /usr/sbin/ip6tables-restore -n -T filter /etc/iptables/rules.v6\n').map(([line]) => line),
    [0],
  );
  assert.match(String(said('$ sudo iptables-restore --noflush <rules.v4\n')[0]?.[1]), /of rules\.v4,/);
  // Lines the text gives it, and options alone, load nothing unseen.
  assert.deepEqual(said('iptables-restore --noflush <<EOF\n*filter\n-A INPUT -j DROP\nCOMMIT\nEOF\n'), []);
  assert.deepEqual(said('iptables-restore -T filter\niptables-restore -w 5 2>/dev/null\n'), []);
});
