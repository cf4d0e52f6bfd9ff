import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lintIpvs, parseIpvs } from '../../../src/core/ipvs';

const CJK = /[\u4e00-\u9fff]/;

function lintCodes(text: string): [string, string, number][] {
  return lintIpvs(parseIpvs(text)).map((d) => [d.code, d.severity, d.span.line]);
}

describe('lintIpvs', () => {
  it('a virtual service without real servers', () => {
    assert.deepEqual(lintCodes('TCP  10.96.0.1:443 rr\nTCP  10.96.0.2:80 rr\n  -> 10.0.0.1:80 Masq 1 0 0'), [
      ['ipvs-no-real-servers', 'warning', 0],
    ]);
  });

  it('a service on the last pasted line may just be cut: info, not warning', () => {
    const found = lintIpvs(
      parseIpvs('TCP  10.96.0.2:80 rr\n  -> 10.0.0.1:80 Masq 1 0 0\nTCP  10.96.0.1:443 rr\n...\n'),
    );
    assert.deepEqual(
      found.map((d) => [d.code, d.severity, d.span.line]),
      [['ipvs-no-real-servers', 'info', 2]],
    );
    assert.match(found[0].message, /cut/);
  });

  it('all weights zero, or some draining', () => {
    const all = 'TCP  10.96.0.1:443 rr\n  -> 10.0.0.1:443 Masq 0 1 0\n  -> 10.0.0.2:443 Masq 0 0 0';
    assert.deepEqual(lintCodes(all), [['ipvs-all-weights-zero', 'warning', 0]]);
    const some = 'TCP  10.96.0.1:443 rr\n  -> 10.0.0.1:443 Masq 1 1 0\n  -> 10.0.0.2:443 Masq 0 0 0';
    assert.deepEqual(lintCodes(some), [['ipvs-weight-zero', 'info', 2]]);
  });

  it('every server that takes connections overloaded (--thresholds): nothing is scheduled', () => {
    const header =
      'Prot LocalAddress:Port            Uthreshold Lthreshold ActiveConn InActConn\n  -> RemoteAddress:Port\n';
    const full =
      header +
      'TCP  10.96.0.2:80 rr\n  -> 172.18.1.2:80                4          2          3          1\n  -> 172.18.1.3:80                4          2          4          0';
    assert.deepEqual(lintCodes(full), [['ipvs-all-overloaded', 'warning', 2]]);
    assert.match(lintIpvs(parseIpvs(full), 'zh-CN')[0].message, CJK);
    const room =
      header +
      'TCP  10.96.0.2:80 rr\n  -> 172.18.1.2:80                4          2          3          1\n  -> 172.18.1.3:80                4          2          1          0';
    assert.deepEqual(lintCodes(room), []);
    const noLimit =
      header + 'TCP  10.96.0.2:80 rr\n  -> 172.18.1.2:80                0          0          300        100';
    assert.deepEqual(lintCodes(noLimit), []);
  });

  it('duplicate virtual services and real servers, with the first one as related location', () => {
    const text = [
      'TCP  10.96.0.1:443 rr',
      '  -> 10.0.0.1:443 Masq 1 0 0',
      '  -> 10.0.0.1:443 Masq 1 0 0',
      'TCP  10.96.0.1:443 rr',
      '  -> 10.0.0.2:443 Masq 1 0 0',
    ].join('\n');
    const found = lintIpvs(parseIpvs(text));
    assert.deepEqual(
      found.map((d) => [d.code, d.span.line]),
      [
        ['ipvs-duplicate-real-server', 2],
        ['ipvs-duplicate-virtual-service', 3],
      ],
    );
    assert.equal(found[1].related?.[0].span.line, 0);
    assert.match(found[1].message, /first on line 1/);
  });

  it('IPv6 written two ways is the same service', () => {
    assert.deepEqual(
      lintCodes(
        'TCP  [fd00::1]:80 rr\n  -> [fd00::5]:80 Masq 1 0 0\nTCP  [fd00:0::1]:80 rr\n  -> [fd00::6]:80 Masq 1 0 0',
      ).map((c) => c[0]),
      ['ipvs-duplicate-virtual-service'],
    );
  });

  it('unknown scheduler, flag of another scheduler, reserved and cross-family addresses', () => {
    assert.deepEqual(
      lintCodes('TCP  10.96.0.1:80 xyz\n  -> 10.0.0.1:80 Masq 1 0 0').map((c) => c[0]),
      ['ipvs-unknown-scheduler'],
    );
    assert.deepEqual(
      lintCodes('-A -t 10.96.0.1:80 -s rr -b sh-port\n-a -t 10.96.0.1:80 -r 10.0.0.1 -m').map((c) => c[0]),
      ['ipvs-flag-other-scheduler'],
    );
    assert.deepEqual(
      lintCodes('TCP  10.96.0.1:80 rr\n  -> 253.0.48.0:80 Masq 1 0 0').map((c) => c[0]),
      ['ipvs-reserved-address'],
    );
    assert.deepEqual(
      lintCodes('TCP  [fd00::1]:80 rr\n  -> 10.0.0.1:80 Masq 1 0 0').map((c) => c[0]),
      ['ipvs-family-mismatch'],
    );
    assert.deepEqual(lintCodes('TCP  [fd00::1]:80 rr\n  -> 10.0.0.1:80 Tunnel 1 0 0'), []);
  });

  it('an empty table under a header', () => {
    assert.deepEqual(
      lintCodes(
        'IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
      ),
      [['ipvs-empty-table', 'info', 0]],
    );
  });

  it('messages are localised', () => {
    const dump = parseIpvs('TCP  10.96.0.1:443 rr');
    assert.match(lintIpvs(dump, 'zh-CN')[0].message, CJK);
    assert.doesNotMatch(lintIpvs(dump, 'en')[0].message, CJK);
    assert.match(parseIpvs('junk line', { lang: 'zh-CN' }).diagnostics[0].message, /无法识别/);
  });
});
