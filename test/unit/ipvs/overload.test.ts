import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  distribute,
  explainIpvsLine,
  ipvsTracePaths,
  overloadOf,
  parseIpvs,
  resolveVirtual,
} from '../../../src/core/ipvs';

// `ipvsadm -Ln --thresholds`: Uthreshold, Lthreshold, then active and inactive connections.
const THRESHOLDS = [
  'Prot LocalAddress:Port            Uthreshold Lthreshold ActiveConn InActConn',
  '  -> RemoteAddress:Port',
  'TCP  10.96.0.1:443 rr',
  '  -> 172.18.0.2:6443              10         0          7          3',
  '  -> 172.18.0.3:6443              10         0          7          1',
  '  -> 172.18.0.4:6443              0          0          70         30',
  'TCP  10.96.0.2:80 rr',
  '  -> 172.18.1.2:80                4          2          3          1',
  '  -> 172.18.1.3:80                4          2          4          0',
].join('\n');
const dump = parseIpvs(THRESHOLDS);

describe('IPVS thresholds (overload)', () => {
  it('reaching Uthreshold is overloaded; between the clearing mark and Uthreshold it may be; no Uthreshold means never', () => {
    const [a, b, c] = dump.services[0].realServers;
    assert.equal(overloadOf(a), 'yes'); // 10 >= 10
    // Lthreshold 0: the kernel clears the flag below 3/4 of Uthreshold (7.5), so 8 is in the band.
    assert.equal(overloadOf(b), 'maybe');
    assert.equal(overloadOf(c), undefined); // Uthreshold 0 is "no limit", whatever the load
    const [d, e] = dump.services[1].realServers;
    assert.equal(overloadOf(d), 'yes'); // 4 >= 4
    assert.equal(overloadOf(e), 'yes');
  });

  it('an overloaded server gets share 0 and the others split its part', () => {
    const dist = distribute(dump.services[0]);
    assert.deepEqual(
      dist.entries.map((x) => [x.realServer.address, x.share, x.overloaded]),
      [
        ['172.18.0.2', 0, 'yes'],
        ['172.18.0.3', 0.5, 'maybe'],
        ['172.18.0.4', 0.5, undefined],
      ],
    );
    assert.equal(dist.active, 2);
    assert.equal(dist.draining, 0);
    assert.ok(dist.entries[1].approximate, 'a server in the hysteresis band has a guessed share');
  });

  it('explains the service, each server and the all-overloaded case in both languages', () => {
    assert.equal(
      explainIpvsLine(dump, 2)!.markdown,
      'TCP 10.96.0.1:443, round robin over 2 real servers (50% each); 1 more overloaded (over Uthreshold, skipped), bound by kube-proxy to kube-ipvs0.',
    );
    assert.match(
      explainIpvsLine(dump, 3)!.markdown,
      /overloaded: 10 connections reach its Uthreshold 10, so every scheduler skips it \(share 0\) until it falls below 8\.$/,
    );
    assert.match(explainIpvsLine(dump, 4)!.markdown, /near its Uthreshold 10 \(8 connections\).*expected share 50%/);
    assert.doesNotMatch(explainIpvsLine(dump, 5)!.markdown, /Uthreshold/);
    assert.match(
      explainIpvsLine(dump, 6)!.markdown,
      /none able to take new connections \(2 overloaded over Uthreshold.*new connections fail/,
    );
    assert.match(explainIpvsLine(dump, 3, 'zh-CN')!.markdown, /已过载：10 个连接达到上限阈值 10/);
    assert.match(explainIpvsLine(dump, 6, 'zh-CN')!.markdown, /都不能接受新连接/);
  });

  it('a trace skips overloaded servers', () => {
    const r = resolveVirtual(dump, { ip: '10.96.0.1', port: 443 })!;
    assert.deepEqual(
      ipvsTracePaths(r).map((p) => [p.realServer.ip, p.probability]),
      [
        ['172.18.0.3', 0.5],
        ['172.18.0.4', 0.5],
      ],
    );
    assert.deepEqual(ipvsTracePaths(resolveVirtual(dump, { ip: '10.96.0.2', port: 80 })!), []);
  });
});

describe('IPVS trace paths by forwarding method', () => {
  const text = [
    'TCP  10.96.0.9:80 wrr',
    '  -> 10.244.1.7:8080              Masq    3      0          0',
    '  -> 10.244.2.9:80                Route   1      0          0',
    '  -> 10.244.3.3:80                Tunnel  0      0          0',
    'TCP  10.96.0.8:80 rr',
    '  -> 10.244.4.4:80                Local   1      0          0',
    '  -> 10.244.5.5:80                Tunnel  1      0          0',
  ].join('\n');
  const d = parseIpvs(text);

  it('only Masq rewrites the destination; Route keeps the VIP; weight 0 is not a path', () => {
    const paths = ipvsTracePaths(resolveVirtual(d, { ip: '10.96.0.9', port: 80 })!);
    assert.deepEqual(
      paths.map((p) => [p.forward, p.dnat, p.realServer, p.probability, p.realServerLine]),
      [
        ['Masq', { ip: '10.244.1.7', port: 8080 }, { ip: '10.244.1.7', port: 8080 }, 0.75, 1],
        ['Route', null, { ip: '10.244.2.9', port: 80 }, 0.25, 2],
      ],
    );
    const other = ipvsTracePaths(resolveVirtual(d, { ip: '10.96.0.8', port: 80 })!);
    assert.deepEqual(
      other.map((p) => [p.forward, p.dnat]),
      [
        ['Local', null],
        ['Tunnel', null],
      ],
    );
  });

  it('a server without a printed method (ipvsadm -Ln --stats) is taken as Masq, which kube-proxy always sets', () => {
    const stats = parseIpvs(
      [
        'TCP  10.96.0.1:443                 5 10 10 1000 1000',
        '  -> 172.18.0.2:6443                5 10 10 1000 1000',
      ].join('\n'),
    );
    const [p] = ipvsTracePaths(resolveVirtual(stats, { ip: '10.96.0.1', port: 443 })!);
    assert.deepEqual(p.dnat, { ip: '172.18.0.2', port: 6443 });
    assert.equal(p.forward, undefined);
  });
});
