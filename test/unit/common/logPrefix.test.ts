/**
 * Dumps pasted from logs (`kubectl logs --timestamps`, journalctl, `kubectl logs --prefix`) carry a prefix on
 * every line. Each engine must read the output behind it with the positions of the pasted text, and a dump
 * without prefixes must be left as it is.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf, explainLine } from '../../../src/core/analyze';
import { blankLogPrefixes, logPrefixLength } from '../../../src/core/common/logPrefix';
import { detectDump } from '../../../src/core/detect';
import { corpusFiles, CORPUS_MISSING } from '../../helpers/corpus';
import { seedDump } from '../../helpers/dumps';
import { readingOf } from '../../helpers/reading';

test('log prefixes are recognised, alone and stacked; dump lines are not taken for one', () => {
  assert.equal(logPrefixLength('2026-12-04T10:00:01.123456789Z -A INPUT -j ACCEPT'), 31);
  assert.equal(logPrefixLength('2026-12-04 10:00:01,123 COMMIT'), 24);
  assert.equal(logPrefixLength('Dec  4 10:00:01 node-1 dump.sh[4242]: *nat'), 38);
  assert.equal(logPrefixLength('2026-12-04T10:00:01+0000 node-1 kube-dump[7]:   -> 10.0.0.1:80  Masq 1 0 0'), 46);
  assert.equal(
    logPrefixLength('[pod/debug-x7k2p/dump] 2026-12-04T10:00:01Z -A INPUT -j ACCEPT'),
    44,
    'kubectl logs --prefix --timestamps',
  );
  // Only the prefix goes: output behind a bare time that looks like `host program:` stays.
  const behind = (line: string) => line.slice(logPrefixLength(line));
  assert.equal(
    behind('2026-12-04T10:00:01.123456789Z Prot LocalAddress:Port Scheduler Flags'),
    'Prot LocalAddress:Port Scheduler Flags',
  );
  assert.equal(
    behind('2026-12-04T10:00:01.123456789Z TCP 14:58  ESTABLISHED 10.244.1.5:40000'),
    'TCP 14:58  ESTABLISHED 10.244.1.5:40000',
  );
  assert.equal(
    behind('2026-12-04T10:00:01Z 2: eth0@if5: <BROADCAST,MULTICAST,UP> mtu 1500'),
    '2: eth0@if5: <BROADCAST,MULTICAST,UP> mtu 1500',
  );
  assert.equal(
    behind('2026-12-04T10:00:01Z # Warning: iptables-legacy tables present'),
    '# Warning: iptables-legacy tables present',
  );
  // journalctl -o short-precise and -o short-full, a CRI log file, kubectl logs -l, a blank before the zone.
  assert.equal(behind('Dec 04 10:00:01.123456 host p[1]: -A INPUT -j ACCEPT'), '-A INPUT -j ACCEPT');
  assert.equal(behind('Fri 2026-12-04 10:00:01 UTC host p[1]: -A INPUT -j ACCEPT'), '-A INPUT -j ACCEPT');
  assert.equal(behind('2026-12-04T10:00:01.123456789Z stdout F -A INPUT -j ACCEPT'), '-A INPUT -j ACCEPT');
  assert.equal(behind('[web-7d9/dump] -A INPUT -j ACCEPT'), '-A INPUT -j ACCEPT');
  assert.equal(behind('2026-12-04 10:00:01.123 +0000 -A INPUT -j ACCEPT'), '-A INPUT -j ACCEPT');
  for (const line of [
    '-A INPUT -j ACCEPT',
    ':KUBE-SERVICES - [0:0]',
    'TCP  10.96.0.1:443 rr',
    '[5:300] -A INPUT -j DROP',
    'default via 10.0.0.1 dev eth0',
    '[1617711432.123456]    [NEW] tcp      6 120 SYN_SENT src=10.0.0.1',
    'tcp      6 431999 ESTABLISHED src=10.244.1.5',
  ]) {
    assert.equal(logPrefixLength(line), 0, line);
  }
});

test('an iptables-save dump from `kubectl logs --timestamps` reads as the dump, at the positions pasted', () => {
  const seed = seedDump();
  const stamp = (i: number) => `2026-12-04T10:00:${String(i % 60).padStart(2, '0')}.000000Z `;
  const logged = seed.lines.map((l, i) => stamp(i) + l).join('\n');
  const a = analyzeText(logged);
  assert.equal(a.detection.kind, 'iptables');
  assert.equal(detectDump(logged).kind, 'iptables');
  const plain = analyzeText(seed.text);
  assert.deepEqual(
    a.iptables!.kube.services.map((s) => [s.name, s.clusterIP, s.port, s.endpoints.length, s.hashVerified]),
    plain.iptables!.kube.services.map((s) => [s.name, s.clusterIP, s.port, s.endpoints.length, s.hashVerified]),
  );
  // Columns are those of the pasted line: the prefix is 28 characters.
  const line = seed.lineOf('cluster IP');
  const rule = a.iptables!.ruleAtLine(line)!;
  assert.equal(rule.span.column, 28);
  assert.equal(
    logged.split('\n')[line].slice(rule.chainSpan.column, rule.chainSpan.column + rule.chainSpan.length),
    'KUBE-SERVICES',
  );
  assert.match(explainLine(a, line, 28 + 5, 'en')?.markdown ?? '', /KUBE-SERVICES/);
  const notes = diagnosticsOf(a, 'zh-CN').filter((d) => d.code === 'log-prefixed-paste');
  assert.deepEqual(
    notes.map((d) => [d.span.line, d.span.column, d.span.length, d.severity]),
    [[0, 0, 28, 'info']],
  );
  assert.match(notes[0].message, /日志前缀/);
  assert.deepEqual(
    diagnosticsOf(a, 'en')
      .filter((d) => d.code !== 'log-prefixed-paste')
      .map((d) => d.code),
    diagnosticsOf(plain, 'en').map((d) => d.code),
  );
});

test('ipvsadm output from journalctl reads as its services; a dump without prefixes is left alone', () => {
  const journal = [
    'Dec  4 10:00:01 node-1 dump.sh[4242]: IP Virtual Server version 1.2.1 (size=4096)',
    'Dec  4 10:00:01 node-1 dump.sh[4242]: Prot LocalAddress:Port Scheduler Flags',
    'Dec  4 10:00:01 node-1 dump.sh[4242]:   -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
    'Dec  4 10:00:01 node-1 dump.sh[4242]: TCP  10.96.0.1:443 rr',
    'Dec  4 10:00:01 node-1 dump.sh[4242]:   -> 10.0.0.1:6443                Masq    1      3          0',
  ].join('\n');
  const a = analyzeText(journal);
  assert.equal(a.detection.kind, 'ipvs');
  assert.deepEqual(
    a.ipvs!.services.map((s) => [s.address, s.port, s.realServers.map((r) => [r.address, r.activeConn])]),
    [['10.96.0.1', 443, [['10.0.0.1', 3]]]],
  );
  assert.equal(a.ipvs!.services[0].span.column, 38);
  assert.ok(a.ipvs!.diagnostics.some((d) => d.code === 'log-prefixed-paste'));

  // ipvsadm -Lnc behind kubectl's timestamps: the connection lines keep their own `14:58`.
  const stamp = '2026-12-04T10:00:01.123456789Z ';
  const lnc = analyzeText(
    [
      `${stamp}IPVS connection entries`,
      `${stamp}pro expire state       source             virtual            destination`,
      `${stamp}TCP 14:58  ESTABLISHED 10.244.1.5:40000  10.96.0.1:443      10.1.0.1:6443`,
    ].join('\n'),
  );
  assert.equal(lnc.detection.kind, 'ipvs');
  assert.deepEqual(
    lnc.ipvs!.connections.map((c) => [c.expire, c.state, c.destination?.address]),
    [[898, 'ESTABLISHED', '10.1.0.1']],
  );

  const text = seedDump().text;
  assert.equal(blankLogPrefixes(text), undefined);
  // One stamped line among many is no log paste.
  assert.equal(blankLogPrefixes(`2026-12-04T10:00:01Z started\n${text}`), undefined);
});

test('every corpus file reads the same behind each kind of log prefix as without it', (t) => {
  const files = [...corpusFiles('iptables'), ...corpusFiles('ipvs'), ...corpusFiles('routes')];
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  const prefixes = [
    '2026-12-04T10:00:01.123456789Z ',
    'Dec  4 10:00:01 node-1 dump.sh[4242]: ',
    '[pod/debug-x7k2p/dump] ',
    '2026-12-04T10:00:01+0000 node-1 dump[7]: ',
  ];
  for (const f of files) {
    const plain = readingOf(f.text);
    for (const prefix of prefixes) {
      assert.equal(
        readingOf(
          f.text
            .split('\n')
            .map((l) => prefix + l)
            .join('\n'),
        ),
        plain,
        `${f.name} behind ${JSON.stringify(prefix)}`,
      );
    }
  }
});
