import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { explainNoVirtual, parseIpvs, resolveVirtual } from '../../../src/core/ipvs';

const TEXT = [
  'TCP  10.96.0.1:443 rr',
  '  -> 10.0.0.1:6443 Masq 1 0 0',
  '  -> 10.0.0.2:6443 Masq 1 0 0',
  '  -> 10.0.0.3:6443 Masq 0 4 0',
  'TCP  10.96.0.2:80 wrr',
  '  -> 10.0.1.1:80 Masq 3 0 0',
  '  -> 10.0.1.2:80 Masq 1 0 0',
  'UDP  10.96.0.10:53 wlc',
  '  -> 10.0.2.1:53 Masq 1 0 0',
  '  -> 10.0.2.2:53 Masq 1 0 0',
  'TCP  10.96.0.3:80 sh',
  '  -> 10.0.3.1:80 Masq 1 0 0',
  '  -> 10.0.3.2:80 Masq 1 0 0',
  'TCP  10.96.0.4:0 rr persistent 300',
  '  -> 10.0.4.1:0 Route 1 0 0',
  'TCP  [fd00::10]:443 rr',
  '  -> [fd00::20]:443 Masq 1 0 0',
  'FWM  9 fo',
  '  -> 10.0.5.1:0 Route 1 0 0',
  '  -> 10.0.5.2:0 Route 5 0 0',
].join('\n');
const dump = parseIpvs(TEXT);

function shares(r: ReturnType<typeof resolveVirtual>): [string, number | undefined, boolean][] {
  return r!.realServers.map((e) => [`${e.realServer.address}:${e.realServer.port}`, e.share, e.draining]);
}

describe('resolveVirtual', () => {
  it('rr: equal shares among weight>0, weight 0 draining', () => {
    const r = resolveVirtual(dump, { ip: '10.96.0.1', port: 443, protocol: 'TCP' });
    assert.equal(r?.matchedBy, 'exact');
    assert.equal(r?.policy, 'equal');
    assert.deepEqual(shares(r), [
      ['10.0.0.1:6443', 0.5, false],
      ['10.0.0.2:6443', 0.5, false],
      ['10.0.0.3:6443', 0, true],
    ]);
    assert.equal(
      r?.explanation,
      'TCP 10.96.0.1:443, round robin over 2 real servers (50% each); 1 more with weight 0 (draining), bound by kube-proxy to kube-ipvs0.',
    );
  });

  it('wrr: by weight', () => {
    const r = resolveVirtual(dump, { ip: '10.96.0.2', port: 80 });
    assert.deepEqual(shares(r), [
      ['10.0.1.1:80', 0.75, false],
      ['10.0.1.2:80', 0.25, false],
    ]);
    assert.match(r!.explanation, /10\.0\.1\.1:80 75%, 10\.0\.1\.2:80 25%/);
  });

  it('wlc: depends on connections, and says so; protocol matters', () => {
    assert.equal(resolveVirtual(dump, { ip: '10.96.0.10', port: 53, protocol: 'TCP' }), undefined);
    const r = resolveVirtual(dump, { ip: '10.96.0.10', port: 53, protocol: 'UDP' });
    assert.equal(r?.policy, 'connections');
    assert.deepEqual(shares(r), [
      ['10.0.2.1:53', undefined, false],
      ['10.0.2.2:53', undefined, false],
    ]);
    assert.match(r!.explanation, /depends on current connections/);
  });

  it('sh: hash-sticky per source, shares approximate', () => {
    const r = resolveVirtual(dump, { ip: '10.96.0.3', port: 80 });
    assert.equal(r?.policy, 'hash-source');
    assert.ok(r!.realServers.every((e) => e.approximate && e.share === 0.5));
    assert.match(r!.explanation, /each client address always lands on the same server/);
  });

  it('port-0 persistent services match any port; IPv6 compares canonically; fwmark lookup; fo picks highest weight', () => {
    assert.equal(resolveVirtual(dump, { ip: '10.96.0.4', port: 8443 })?.matchedBy, 'port-zero');
    assert.equal(resolveVirtual(dump, { ip: 'fd00:0:0::10', port: 443 })?.service.address, 'fd00::10');
    const fo = resolveVirtual(dump, { fwmark: 9 });
    assert.deepEqual(shares(fo), [
      ['10.0.5.1:0', 0, false],
      ['10.0.5.2:0', 1, false],
    ]);
    assert.equal(resolveVirtual(dump, { ip: '10.96.9.9', port: 80 }), undefined);
    assert.equal(
      explainNoVirtual({ ip: '10.96.9.9', port: 80 }),
      'No virtual service for TCP 10.96.9.9:80 in this dump.',
    );
  });

  it('explains in Chinese', () => {
    assert.match(
      resolveVirtual(dump, { ip: '10.96.0.1', port: 443 }, 'zh-CN')!.explanation,
      /轮询（rr），在 2 个真实服务器之间分配（各占 50%）/,
    );
  });
});
