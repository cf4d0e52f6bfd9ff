import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { explainIpvsLine, parseIpvs, resolveVirtual, type IpvsDump, type IpvsToken } from '../../../src/core/ipvs';
import { detectDump } from '../../../src/core/detect';
import { CONNECTIONS, EXACT, LIST, MESSY, PERSISTENT_CONN, RATE, SAVE, STATS, THRESHOLDS, TIMEOUT } from './samples';

function codes(dump: IpvsDump): string[] {
  return dump.diagnostics.map((d) => d.code);
}

/** The text a token's span points at, so spans are checked against the source, not against themselves. */
function at(text: string, tok: IpvsToken): string {
  const line = text.split('\n')[tok.span.line];
  return line.slice(tok.span.column, tok.span.column + tok.span.length);
}

describe('ipvsadm -Ln', () => {
  const dump = parseIpvs(LIST);

  it('reads the header and every service with exact fields', () => {
    assert.equal(dump.format, 'list');
    assert.deepEqual(dump.header && { version: dump.header.version, size: dump.header.size, line: dump.header.line }, {
      version: '1.2.1',
      size: 4096,
      line: 1,
    });
    assert.deepEqual(
      dump.services.map((s) => [
        s.protocol,
        s.address,
        s.port,
        s.fwmark,
        s.family,
        s.scheduler,
        s.flags,
        s.persistent,
        s.netmask,
        s.pe,
        s.realServers.length,
      ]),
      [
        ['TCP', '10.96.0.1', 443, undefined, 4, 'rr', [], undefined, undefined, undefined, 3],
        ['TCP', '10.96.100.5', 80, undefined, 4, 'sh', ['sh-fallback', 'sh-port'], 3600, '255.255.255.0', undefined, 2],
        ['UDP', '10.96.0.10', 53, undefined, 4, 'rr', ['ops'], undefined, undefined, undefined, 1],
        ['TCP', 'fd00:10:96::1', 443, undefined, 6, 'wrr', [], 10800, undefined, 'sip', 2],
        ['FWM', undefined, undefined, 7, 6, 'mh', ['mh-port'], undefined, undefined, undefined, 1],
        ['SCTP', '10.96.7.7', 3868, undefined, 4, 'lc', [], undefined, undefined, undefined, 0],
      ],
    );
    assert.deepEqual(codes(dump), []);
  });

  it('reads real servers: forward method, weight, counters, IPv6 brackets', () => {
    const rows = dump.services.flatMap((s) =>
      s.realServers.map((r) => [r.address, r.port, r.forward, r.weight, r.activeConn, r.inactConn, r.line]),
    );
    assert.deepEqual(rows, [
      ['192.168.10.11', 6443, 'Masq', 1, 3, 12, 5],
      ['192.168.10.12', 6443, 'Masq', 1, 2, 9, 6],
      ['192.168.10.13', 6443, 'Masq', 0, 1, 4, 7],
      ['10.244.1.7', 8080, 'Route', 2, 0, 0, 9],
      ['10.244.2.9', 8080, 'Tunnel', 1, 0, 0, 10],
      ['10.244.0.5', 53, 'Local', 1, 0, 17, 12],
      ['fd00:10:244:1::5', 6443, 'Masq', 3, 0, 0, 14],
      ['fd00:10:244:2::5', 6443, 'Masq', 1, 0, 0, 15],
      ['fd00:10:244:3::7', 0, 'Route', 1, 0, 0, 17],
    ]);
  });

  it('gives every token a 0-based span that points at its text', () => {
    const kinds = (line: number): string[] =>
      dump.tokens
        .all()
        .filter((t) => t.span.line === line)
        .map((t) => `${t.kind}=${at(LIST, t)}`);
    assert.deepEqual(kinds(0), ['prompt=[root@node1 ~]#', 'command=ipvsadm -Ln']);
    assert.deepEqual(kinds(8), [
      'protocol=TCP',
      'address=10.96.100.5',
      'port=80',
      'scheduler=sh',
      'flag=(sh-fallback,sh-port)',
      'keyword=persistent',
      'persistentTimeout=3600',
      'keyword=mask',
      'netmask=255.255.255.0',
    ]);
    assert.deepEqual(kinds(14), [
      'arrow=->',
      'address=[fd00:10:244:1::5]',
      'port=6443',
      'forward=Masq',
      'weight=3',
      'activeConn=0',
      'inactConn=0',
    ]);
    assert.deepEqual(kinds(16), ['protocol=FWM', 'fwmark=7', 'family=IPv6', 'scheduler=mh', 'flag=(mh-port)']);
    const weight = dump.tokens.all().find((t) => t.kind === 'weight' && t.span.line === 7)!;
    assert.deepEqual(weight.span, { line: 7, column: 42, length: 1 });
    assert.equal(weight.service, 0);
    assert.equal(weight.realServer, 2);
  });

  it('records what each line is', () => {
    assert.deepEqual(
      dump.lines.slice(0, 6).map((l) => l.kind),
      ['command', 'header', 'columnHeader', 'columnHeader', 'service', 'realServer'],
    );
    assert.deepEqual(dump.lines[9], {
      kind: 'realServer',
      layout: 'list',
      service: 1,
      realServer: 0,
      span: { line: 9, column: 2, length: 59 },
    });
  });
});

describe('numeric listings', () => {
  it('--stats expands K/M/G suffixes and marks them approximate', () => {
    const dump = parseIpvs(STATS);
    assert.equal(dump.format, 'stats');
    const svc = dump.services[0];
    assert.equal(svc.scheduler, undefined);
    assert.deepEqual(svc.stats, {
      conns: 812,
      inPkts: 123456,
      outPkts: 654321,
      inBytes: 12000,
      outBytes: 3000000,
      approximate: true,
    });
    assert.deepEqual(svc.realServers[0].stats, {
      conns: 400,
      inPkts: 60000,
      outPkts: 300000,
      inBytes: 512000,
      outBytes: 2000000000,
      approximate: true,
    });
    assert.equal(svc.realServers[0].forward, undefined);
    const counters = dump.tokens.all().filter((t) => t.kind === 'counter' && t.span.line === 3);
    assert.deepEqual(
      counters.map((t) => [t.column, at(STATS, t)]),
      [
        ['Conns', '812'],
        ['InPkts', '123456'],
        ['OutPkts', '654321'],
        ['InBytes', '12K'],
        ['OutBytes', '3M'],
      ],
    );
    assert.deepEqual(codes(dump), []);
  });

  it('--rate fills rates, not stats', () => {
    const dump = parseIpvs(RATE);
    assert.equal(dump.format, 'rate');
    assert.deepEqual(dump.services[0].rates, {
      cps: 3,
      inPps: 40,
      outPps: 38,
      inBps: 5120,
      outBps: 9000,
      approximate: false,
    });
    assert.equal(dump.services[0].stats, undefined);
    assert.deepEqual(dump.services[0].realServers[0].rates, {
      cps: 3,
      inPps: 40,
      outPps: 38,
      inBps: 5120,
      outBps: 9000,
      approximate: false,
    });
  });

  it('--thresholds and --persistent-conn read four columns by their header', () => {
    const th = parseIpvs(THRESHOLDS);
    assert.equal(th.format, 'thresholds');
    const r = th.services[0].realServers[0];
    assert.deepEqual([r.thresholds, r.activeConn, r.inactConn, r.weight], [{ upper: 100, lower: 50 }, 7, 3, undefined]);
    const pc = parseIpvs(PERSISTENT_CONN);
    assert.equal(pc.format, 'persistent-conn');
    const p = pc.services[0].realServers[0];
    assert.deepEqual([p.weight, p.persistConn, p.activeConn, p.inactConn], [1, 4, 2, 1]);
    assert.equal(pc.services[0].persistent, 10800);
  });

  it('--exact keeps big numbers whole', () => {
    const dump = parseIpvs(EXACT);
    assert.equal(dump.exact, true);
    assert.deepEqual(dump.services[0].stats, {
      conns: 5,
      inPkts: 123456789012,
      outPkts: 987,
      inBytes: 4096,
      outBytes: 123456789,
      approximate: false,
    });
  });

  it('merges -Ln and --stats of the same service in one transcript', () => {
    const text = [
      '$ ipvsadm -Ln',
      'TCP  10.96.0.1:443 rr',
      '  -> 172.18.0.2:6443              Masq    1      0          0',
      '$ ipvsadm -Ln --stats',
      'TCP  10.96.0.1:443                       7       70       60     7000     6000',
      '  -> 172.18.0.2:6443                     7       70       60     7000     6000',
    ].join('\n');
    const dump = parseIpvs(text);
    assert.equal(dump.format, 'mixed');
    assert.equal(dump.services.length, 1);
    assert.equal(dump.services[0].scheduler, 'rr');
    assert.equal(dump.services[0].stats?.conns, 7);
    assert.equal(dump.services[0].realServers.length, 1);
    assert.equal(dump.services[0].realServers[0].forward, 'Masq');
    assert.equal(dump.services[0].realServers[0].stats?.inBytes, 7000);
  });
});

describe('connections and timeouts', () => {
  it('-Lnc entries: protocol, expire seconds, state, three endpoints', () => {
    const dump = parseIpvs(CONNECTIONS);
    assert.equal(dump.format, 'connections');
    assert.deepEqual(
      dump.connections.map((c) => [c.protocol, c.expire, c.state, c.source, c.virtual, c.destination]),
      [
        [
          'TCP',
          898,
          'ESTABLISHED',
          { address: '10.244.1.3', port: 41234 },
          { address: '10.96.0.1', port: 443 },
          { address: '172.18.0.2', port: 6443 },
        ],
        [
          'UDP',
          299,
          'UDP',
          { address: '10.244.1.3', port: 53312 },
          { address: '10.96.0.10', port: 53 },
          { address: '10.244.0.5', port: 53 },
        ],
        [
          'TCP',
          10799,
          'NONE',
          { address: '10.244.2.8', port: 0 },
          { address: '10.96.100.5', port: 0 },
          { address: '10.244.1.7', port: 0 },
        ],
        [
          'TCP',
          1,
          'TIME_WAIT',
          { address: 'fd00::3', port: 40000 },
          { address: 'fd00:10:96::1', port: 443 },
          { address: 'fd00:10:244:1::5', port: 6443 },
        ],
      ],
    );
    assert.deepEqual(codes(dump), []);
    const roles = dump.tokens
      .all()
      .filter((t) => t.kind === 'address' && t.span.line === 3)
      .map((t) => t.role);
    assert.deepEqual(roles, ['source', 'virtual', 'destination']);
  });

  it('--timeout', () => {
    const dump = parseIpvs(TIMEOUT);
    assert.equal(dump.format, 'timeout');
    const to = dump.timeouts!;
    assert.deepEqual([to.tcp, to.tcpFin, to.udp, to.line], [900, 120, 300, 1]);
    assert.deepEqual(
      dump.tokens
        .all()
        .filter((t) => t.kind === 'timeout')
        .map((t) => [t.column, at(TIMEOUT, t)]),
      [
        ['tcp', '900'],
        ['tcpfin', '120'],
        ['udp', '300'],
      ],
    );
  });
});

describe('cut lines', () => {
  it('leave missing values undefined', () => {
    const to = parseIpvs('Timeout (tcp tcpfin udp): 900').timeouts!;
    assert.deepEqual([to.tcp, to.tcpFin, to.udp], [900, undefined, undefined]);
    const conn = parseIpvs('TCP 00:12 ESTABLISHED 1.2.3.4:5').connections[0];
    assert.deepEqual([conn.source, conn.virtual, conn.truncated], [{ address: '1.2.3.4', port: 5 }, undefined, true]);
    const svc = parseIpvs('TCP  10.96.0.1:443 rr persistent').services[0];
    assert.deepEqual([svc.scheduler, svc.persistent, svc.truncated], ['rr', undefined, true]);
  });
});

describe('ipvsadm -S (save / restore) format', () => {
  const dump = parseIpvs(SAVE);

  it('is ipvsadm input when it only adds and deletes services (a chain name never starts with -)', () => {
    const servicesOnly = ['-A -t 192.0.2.7:80 -s rr', '-A -u 192.0.2.8:53 -s wlc', '-D -t 192.0.2.7:80', ''].join('\n');
    assert.deepEqual(
      { kind: detectDump(servicesOnly).kind, certain: detectDump(servicesOnly).confidence >= 0.5 },
      { kind: 'ipvs', certain: true },
    );
    assert.deepEqual(
      parseIpvs(servicesOnly).services.map((s) => `${s.protocol} ${s.address}:${s.port}`),
      ['UDP 192.0.2.8:53'],
    );
    // The iptables reading of the same shape stays: a chain after -A.
    assert.equal(detectDump('-A KUBE-SERVICES -j RETURN\n-D KUBE-SERVICES -j RETURN\n').kind, 'iptables');
  });

  it('declares services with ipvsadm defaults', () => {
    assert.equal(dump.format, 'save');
    assert.deepEqual(
      dump.services.map((s) => [
        s.protocol,
        s.address,
        s.port,
        s.fwmark,
        s.scheduler,
        s.flags,
        s.persistent,
        s.realServers.length,
      ]),
      [
        ['TCP', '10.96.0.1', 443, undefined, 'rr', [], 10800, 2],
        ['UDP', '10.96.0.10', 53, undefined, 'rr', [], undefined, 1],
        ['SCTP', '10.96.7.7', 3868, undefined, 'wlc', [], undefined, 0],
        ['FWM', undefined, undefined, 1481, 'sh', ['sh-fallback', 'sh-port'], undefined, 1],
        ['TCP', 'fd00::1', 80, undefined, 'wlc', [], undefined, 1],
      ],
    );
    assert.deepEqual(codes(dump), []);
  });

  it('adds real servers: -m Masq, -i Tunnel, default Route, weight, port from the service', () => {
    const rows = dump.services.flatMap((s) =>
      s.realServers.map((r) => [r.address, r.port, r.forward, r.weight, r.activeConn]),
    );
    assert.deepEqual(rows, [
      ['172.18.0.2', 6443, 'Masq', 1, undefined],
      ['172.18.0.3', 6443, 'Masq', 0, undefined],
      ['10.244.0.5', 53, 'Masq', 1, undefined],
      ['10.244.2.11', 80, 'Tunnel', 1, undefined],
      ['fd00::5', 80, 'Route', 1, undefined],
    ]);
  });

  it('reads `ipvsadm -A ...` script lines, long options and a -p without timeout', () => {
    const d = parseIpvs(
      'ipvsadm -A --tcp-service 10.0.0.1:80 --scheduler wrr --persistent\nipvsadm -a -t 10.0.0.1:80 -r 10.0.0.2:8080 --masquerading --weight=3',
    );
    assert.deepEqual([d.services[0].scheduler, d.services[0].persistent], ['wrr', 360]);
    const r = d.services[0].realServers[0];
    assert.deepEqual([r.address, r.port, r.forward, r.weight], ['10.0.0.2', 8080, 'Masq', 3]);
  });

  it('applies -d, -D and -C as ipvsadm would: the final table, renumbered lines and tokens, and what each line did', () => {
    const text = [
      '-A -t 10.96.0.1:443 -s rr',
      '-a -t 10.96.0.1:443 -r 10.0.0.1:6443 -m -w 1',
      '-a -t 10.96.0.1:443 -r 10.0.0.2:6443 -m -w 1',
      '-A -u 10.96.0.10:53 -s rr',
      '-a -u 10.96.0.10:53 -r 10.244.0.2:53 -m',
      '-d -t 10.96.0.1:443 -r 10.0.0.1:6443',
      '-D -u 10.96.0.10:53',
      '-D -u 10.96.0.10:53',
      '-d -t 10.96.0.1:443 -r 10.0.0.9:6443',
      '-A -u 10.96.0.10:53 -s wrr',
      '-A -t 10.96.0.2:80',
    ].join('\n');
    const d = parseIpvs(text);
    assert.deepEqual(
      d.services.map((s) => [s.protocol, s.address, s.scheduler, s.realServers.map((r) => r.address)]),
      [
        ['TCP', '10.96.0.1', 'rr', ['10.0.0.2']],
        ['UDP', '10.96.0.10', 'wrr', []],
        ['TCP', '10.96.0.2', 'wlc', []],
      ],
      'the deleted server and service are gone; a service added again after -D is a new one',
    );
    // Deleting what is not there is where ipvsadm stops.
    assert.deepEqual(
      d.diagnostics.map((x) => [x.code, x.span.line]),
      [
        ['ipvs-save-delete-unknown', 7],
        ['ipvs-save-delete-unknown', 8],
      ],
    );
    assert.deepEqual(
      d.removals.map((r) => [r.line, r.service.address, r.realServer?.address]),
      [
        [5, '10.96.0.1', '10.0.0.1'],
        [6, '10.96.0.10', undefined],
      ],
    );
    // Lines and tokens point at the entries that are left, by their new indexes.
    assert.deepEqual(
      d.lines.map((l) => [l.kind, l.service, l.realServer, l.removal]),
      [
        ['saveService', 0, undefined, undefined],
        ['saveRealServer', undefined, undefined, 0],
        ['saveRealServer', 0, 0, undefined],
        ['saveService', undefined, undefined, 1],
        ['saveRealServer', undefined, undefined, 1],
        ['saveOther', undefined, undefined, 0],
        ['saveOther', undefined, undefined, 1],
        ['saveOther', undefined, undefined, undefined],
        ['saveOther', undefined, undefined, undefined],
        ['saveService', 1, undefined, undefined],
        ['saveService', 2, undefined, undefined],
      ],
    );
    for (const tok of d.tokens) {
      if (tok.service === undefined) continue;
      const svc = d.services[tok.service];
      assert.ok(svc, `token on line ${tok.span.line + 1} points at a service that exists`);
      if (tok.realServer !== undefined)
        assert.ok(svc.realServers[tok.realServer], `token on line ${tok.span.line + 1} points at a real server`);
    }
    const hover = (line: number, lang: 'en' | 'zh-CN' = 'en') => explainIpvsLine(d, line, lang)?.markdown ?? '';
    assert.match(hover(5), /Takes real server 10\.0\.0\.1:6443 out of TCP 10\.96\.0\.1:443 \(added on line 2\)/);
    assert.match(hover(6), /Deletes virtual service UDP 10\.96\.0\.10:53 \(added on line 4\)/);
    assert.match(hover(1), /Real server 10\.0\.0\.1:6443 of TCP 10\.96\.0\.1:443 is taken out again on line 6/);
    assert.match(hover(5, 'zh-CN'), /把真实服务器 10\.0\.0\.1:6443 从 TCP 10\.96\.0\.1:443（第 2 行添加）中移除/);
    assert.equal(resolveVirtual(d, { protocol: 'TCP', ip: '10.96.0.1', port: 443 })?.service.realServers.length, 1);

    const cleared = parseIpvs('-A -t 10.0.0.1:80\n-a -t 10.0.0.1:80 -r 10.0.0.2:80 -m\n-C\n-A -t 10.0.0.3:80');
    assert.deepEqual(
      cleared.services.map((s) => s.address),
      ['10.0.0.3'],
    );
    assert.deepEqual(
      cleared.lines.map((l) => l.removal),
      [0, 0, undefined, undefined],
    );
  });

  it('deletes every copy of a service, lets a later listing show a deleted server again, and edits nothing missing', () => {
    const listing = [
      '$ ipvsadm -Ln',
      'Prot LocalAddress:Port Scheduler Flags',
      '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
      'TCP  10.96.0.1:443 rr',
      '  -> 10.1.0.1:6443                Masq    1      0          0',
      '  -> 10.1.0.2:6443                Masq    1      0          0',
    ];
    // The same listing twice, then a delete: no copy of the service is left.
    const twice = parseIpvs([...listing, ...listing, '$ ipvsadm -D -t 10.96.0.1:443'].join('\n'));
    assert.deepEqual(twice.services, []);
    assert.deepEqual(
      twice.diagnostics.map((x) => x.code),
      [],
    );
    // A server taken out with -d and listed again afterwards (--stats merges into the listing) is in the table.
    const stats = [
      '$ ipvsadm -Ln --stats',
      'Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes',
      '  -> RemoteAddress:Port',
      'TCP  10.96.0.1:443                      10      100       90     6000     5000',
      '  -> 10.1.0.1:6443                       4       40       36     2400     2000',
      '  -> 10.1.0.2:6443                       6       60       54     3600     3000',
    ];
    const back = parseIpvs([...listing, '$ ipvsadm -d -t 10.96.0.1:443 -r 10.1.0.1:6443', ...stats].join('\n'));
    assert.deepEqual(
      back.services.map((sv) => sv.realServers.map((r) => [r.address, r.stats?.conns])),
      [
        [
          ['10.1.0.2', 6],
          ['10.1.0.1', 4],
        ],
      ],
    );
    assert.deepEqual(
      [back.lines[11].service, back.lines[11].realServer, back.lines[11].removal],
      [0, 1, undefined],
      'the later line is the server in the table',
    );
    // `ipvsadm -C` (with the command word) clears the table and says how much it took out.
    const cleared = parseIpvs(
      [
        'ipvsadm -A -t 10.0.0.1:80 -s rr',
        'ipvsadm -a -t 10.0.0.1:80 -r 10.1.0.1:80 -m',
        'ipvsadm -A -u 10.0.0.1:53',
        'ipvsadm -C',
      ].join('\n'),
    );
    assert.deepEqual(cleared.services, []);
    assert.match(
      explainIpvsLine(cleared, 3)?.markdown ?? '',
      /Clears the whole table: the 2 virtual services added above leave it/,
    );
    // -e and -E change what is there; after a delete (or never added) ipvsadm stops and adds nothing.
    const edits = parseIpvs(
      [
        '-A -t 10.0.0.1:80',
        '-a -t 10.0.0.1:80 -r 10.1.0.1:80 -m -w 1',
        '-d -t 10.0.0.1:80 -r 10.1.0.1:80',
        '-e -t 10.0.0.1:80 -r 10.1.0.1:80 -w 5',
        '-E -t 10.0.0.9:80 -s wrr',
        '-e -t 10.0.0.9:80 -r 10.1.0.1:80 -w 2',
      ].join('\n'),
    );
    assert.deepEqual(
      edits.services.map((sv) => [sv.address, sv.realServers.length]),
      [['10.0.0.1', 0]],
    );
    assert.deepEqual(edits.orphanRealServers, [], 'an edit of a server of an unknown service makes no orphan either');
    assert.deepEqual(
      edits.diagnostics.map((x) => [x.code, x.span.line]),
      [
        ['ipvs-save-edit-unknown', 3],
        ['ipvs-save-edit-unknown', 4],
        ['ipvs-save-edit-unknown', 5],
      ],
    );
  });

  it('flags a real server for an undeclared service and unknown options', () => {
    const d = parseIpvs('-a -t 10.0.0.9:80 -r 10.0.0.2:80 -m\n-A -t 10.0.0.1:80 --bogus');
    assert.deepEqual(codes(d), ['ipvs-save-unknown-service', 'ipvs-save-unknown-option']);
    assert.equal(d.orphanRealServers.length, 1);
  });
});

describe('what people paste', () => {
  it('indentation, a Chinese comment, ragged blanks, an orphan, "..." and a cut last line', () => {
    const dump = parseIpvs(MESSY);
    assert.equal(dump.orphanRealServers.length, 1);
    assert.equal(dump.orphanRealServers[0].address, '10.244.9.9');
    assert.deepEqual(
      dump.services.map((s) => [s.protocol, s.address, s.port, s.scheduler, s.realServers.length]),
      [
        ['TCP', '10.96.0.10', 53, 'rr', 1],
        ['UDP', '10.96.0.10', 53, 'rr', 1],
      ],
    );
    const cut = dump.services[1].realServers[0];
    assert.deepEqual([cut.forward, cut.weight, cut.activeConn, cut.truncated], ['Masq', 1, undefined, true]);
    assert.deepEqual(codes(dump), ['ipvs-orphan-real-server', 'ipvs-elided', 'ipvs-truncated-line']);
    assert.deepEqual(
      dump.diagnostics.map((d) => d.span.line),
      [0, 4, 6],
    );
    assert.equal(dump.lines[1].kind, 'comment');
    const scheduler = dump.tokens.all().find((t) => t.kind === 'scheduler' && t.span.line === 2)!;
    assert.equal(at(MESSY, scheduler), 'rr');
  });

  it('turns unknown lines into positioned diagnostics instead of throwing', () => {
    const text =
      'TCP  10.96.0.1:443 rr\n%% this is not ipvsadm %%\n  -> 10.0.0.1:80 Bogus 1 0 0\nTCP  999.1.1.1:80 rr\n  -> 10.0.0.2:80 Masq 1 0 0';
    const dump = parseIpvs(text);
    assert.deepEqual(codes(dump), [
      'ipvs-unrecognized-line',
      'ipvs-unknown-forward',
      'ipvs-bad-address',
      'ipvs-orphan-real-server',
    ]);
    assert.deepEqual(dump.diagnostics[0].span, { line: 1, column: 0, length: 25 });
    assert.equal(dump.services.length, 1);
  });

  it('lines after another command are its output, not warnings', () => {
    const dump = parseIpvs('$ grep mode /etc/kube-proxy.conf\nmode: ipvs\n$ ipvsadm -Ln\nTCP  10.96.0.1:443 rr');
    assert.deepEqual(codes(dump), []);
    assert.equal(dump.lines[1].kind, 'foreign');
    assert.equal(dump.services.length, 1);
  });

  it('host names from a listing without -n', () => {
    const dump = parseIpvs('TCP  kubernetes.default:https rr\n  -> master-1:6443 Masq 1 0 0');
    assert.deepEqual([dump.services[0].address, dump.services[0].port], ['kubernetes.default', 443]);
    assert.deepEqual(codes(dump), ['ipvs-host-name']);
  });

  it("reports a missing ip_vs module from ipvsadm's own error", () => {
    const dump = parseIpvs(
      "Can't initialize ipvs: Protocol not available\nAre you sure that IP Virtual Server is built in the kernel or as module?",
    );
    assert.deepEqual(codes(dump), ['ipvs-module-not-loaded']);
  });

  it('empty and blank input', () => {
    assert.deepEqual(parseIpvs('').services, []);
    assert.equal(parseIpvs('\n\n  \n').format, 'unknown');
  });
});

describe('a paste cut inside its last line', () => {
  const OUTPUT = `IP Virtual Server version 1.2.1 (size=4096)
Prot LocalAddress:Port Scheduler Flags
  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn
TCP  10.96.0.10:53 rr
  -> 10.244.0.3:53                Masq    1      0          0
  -> 10.244.1.7:53                Masq    1      0          0
`;

  it("says so beside the finding the cut makes of the last word (a real server's or a service's address)", () => {
    for (const [cut, line] of [
      [OUTPUT.slice(0, OUTPUT.lastIndexOf('10.244.1.7') + 6), 5],
      [`${OUTPUT}TCP  10.96.0.`, 6],
    ] as const) {
      for (const text of [cut, `${cut}\n`]) {
        const dump = parseIpvs(text);
        const note = dump.diagnostics.find((d) => d.code === 'ipvs-cut-line');
        assert.ok(note, text);
        assert.equal(note.severity, 'info');
        assert.equal(note.span.line, line);
        assert.ok(dump.diagnostics.some((d) => d.span.line === line && d.severity === 'warning'));
      }
    }
    assert.match(
      parseIpvs(OUTPUT.slice(0, OUTPUT.lastIndexOf('10.244.1.7') + 6), { lang: 'zh-CN' }).diagnostics.find(
        (d) => d.code === 'ipvs-cut-line',
      )!.message,
      /粘贴被截断/,
    );
  });

  it("is not said of a whole output, of the same finding on other lines, of prose, nor beside a line's missing columns", () => {
    const twice = OUTPUT.replace('10.244.0.3:53', '10.244.0.x').replace('10.244.1.7:53', '10.244.1.x');
    for (const text of [OUTPUT, twice, `${OUTPUT}Any ide`, OUTPUT.replace(/Masq {4}1 {6}0 {10}0\n$/, 'Ma')])
      assert.ok(!codes(parseIpvs(text)).includes('ipvs-cut-line'), text);
  });
});
