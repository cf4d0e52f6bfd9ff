import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConntrack } from '../../../src/core/netstate';

const TCP =
  'tcp      6 86359 ESTABLISHED src=10.244.1.5 dst=172.16.0.1 sport=48316 dport=443 src=192.168.10.20 dst=10.244.1.5 sport=6443 dport=48316 [ASSURED] mark=0 zone=3 use=1';

test('tcp entry: protocol, timeout, state, both tuples, flags and the derived DNAT', () => {
  const { conntrack, diagnostics } = parseConntrack(TCP);
  assert.deepEqual(diagnostics, []);
  const e = conntrack[0];
  assert.equal(e.protocol, 'tcp');
  assert.equal(e.protocolNumber, 6);
  assert.equal(e.timeout, 86359);
  assert.equal(e.state, 'ESTABLISHED');
  assert.deepEqual(
    [e.original.src, e.original.dst, e.original.sport, e.original.dport],
    ['10.244.1.5', '172.16.0.1', 48316, 443],
  );
  assert.deepEqual(
    [e.reply?.src, e.reply?.dst, e.reply?.sport, e.reply?.dport],
    ['192.168.10.20', '10.244.1.5', 6443, 48316],
  );
  assert.equal(e.assured, true);
  assert.equal(e.unreplied, false);
  assert.deepEqual(e.flags, ['ASSURED']);
  assert.equal(e.mark, '0');
  assert.equal(e.zone, '3');
  assert.equal(e.use, 1);
  assert.deepEqual(e.dnat, { fromAddress: '172.16.0.1', fromPort: 443, toAddress: '192.168.10.20', toPort: 6443 });
  assert.equal(e.snat, undefined);
  assert.equal(e.partial, false);
  assert.deepEqual(e.spans.state, { line: 0, column: TCP.indexOf('ESTABLISHED'), length: 11 });
  assert.deepEqual(e.original.spans.dst, { line: 0, column: TCP.indexOf('172.16.0.1'), length: 10 });
});

test('-E events with SNAT and DNAT, leading spaces and [UNREPLIED]', () => {
  const line =
    '    [NEW] sctp     132 10 CLOSED src=10.0.9.254 dst=10.0.9.101 sport=49035 dport=10000 [UNREPLIED] src=10.42.1.36 dst=10.42.2.0 sport=9999 dport=36208';
  const [e] = parseConntrack(line).conntrack;
  assert.equal(e.event, 'NEW');
  assert.deepEqual(e.spans.event, { line: 0, column: 4, length: 5 });
  assert.equal(e.protocol, 'sctp');
  assert.equal(e.protocolNumber, 132);
  assert.equal(e.state, 'CLOSED');
  assert.equal(e.unreplied, true);
  assert.deepEqual(e.dnat, { fromAddress: '10.0.9.101', fromPort: 10000, toAddress: '10.42.1.36', toPort: 9999 });
  assert.deepEqual(e.snat, { fromAddress: '10.0.9.254', fromPort: 49035, toAddress: '10.42.2.0', toPort: 36208 });
});

test('icmp type/code/id stay in their tuples; DESTROY has no timeout; -o extended l3 prefix', () => {
  const text = [
    'icmp     1 29 src=10.0.0.2 dst=8.8.8.8 type=8 code=0 id=24606 [UNREPLIED] src=8.8.8.8 dst=10.0.0.2 type=0 code=0 id=24606 mark=0 use=2',
    ' [DESTROY] udp      17 src=10.0.0.1 dst=10.0.0.2 sport=1 dport=2 src=10.0.0.2 dst=10.0.0.1 sport=2 dport=1 id=77',
    'ipv4     2 udp      17 29 src=10.244.1.5 dst=10.96.0.10 sport=5353 dport=53 [UNREPLIED] src=10.244.2.3 dst=10.244.1.5 sport=53 dport=5353 mark=0 use=1',
  ].join('\n');
  const [icmp, destroy, ext] = parseConntrack(text).conntrack;
  assert.deepEqual(
    [icmp.original.icmpType, icmp.original.icmpCode, icmp.original.icmpId, icmp.reply?.icmpType],
    [8, 0, 24606, 0],
  );
  assert.equal(icmp.dnat, undefined);
  assert.equal(icmp.id, undefined);
  assert.equal(destroy.event, 'DESTROY');
  assert.equal(destroy.timeout, undefined);
  assert.equal(destroy.id, '77');
  assert.equal(ext.l3, 'ipv4');
  assert.equal(ext.protocol, 'udp');
  assert.equal(ext.timeout, 29);
  assert.equal(ext.dnat?.toAddress, '10.244.2.3');
});

test('the summary line, also when glued in front of an entry', () => {
  const text = [
    'conntrack v1.4.4 (conntrack-tools): 38 flow entries have been shown.',
    'conntrack v1.4.2 (conntrack-tools): ' + TCP,
    '97 flow entries have been shown.',
    'conntrack v1.4.6 (conntrack-tools): 2 flow events have been shown.',
  ].join('\n');
  const { conntrack, conntrackSummaries, diagnostics } = parseConntrack(text);
  assert.deepEqual(diagnostics, []);
  assert.equal(conntrack.length, 1);
  assert.equal(conntrack[0].span.column, 36);
  assert.equal(conntrack[0].dnat?.toAddress, '192.168.10.20');
  assert.deepEqual(
    conntrackSummaries.map((s) => [s.line, s.version, s.count, s.kind]),
    [
      [0, '1.4.4', 38, 'entries'],
      [2, '1.4.2', 97, 'entries'],
      [3, '1.4.6', 2, 'events'],
    ],
  );
});

test('a line cut at its start: protocol inferred from the number, marked partial, info diagnostic', () => {
  const { conntrack, diagnostics } = parseConntrack(
    '6 46 TIME_WAIT src=10.64.4.48 dst=10.0.0.10 sport=59817 dport=53 src=10.64.2.4 dst=10.64.4.48 sport=53 dport=59817 [ASSURED] mark=0 use=1\n',
  );
  assert.equal(conntrack[0].protocol, 'tcp');
  assert.equal(conntrack[0].protocolNumber, 6);
  assert.equal(conntrack[0].timeout, 46);
  assert.equal(conntrack[0].partial, true);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.severity]),
    [['routes-conntrack-missing-protocol', 'info']],
  );
});
