/**
 * The packet a face asks to trace is checked in one place (`core/tracePacketInput.ts`), each face naming the fields
 * its own way; a share is printed by one function per form (`core/common/shares.ts`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatPreciseShare, formatProbability, formatShare, roundProbability } from '../../../src/core/common/shares';
import { checkTracePacket, parseTraceDestination, type TraceInputNames } from '../../../src/core/tracePacketInput';

const CLI: TraceInputNames = {
  src: '--src',
  dst: '--dst',
  proto: '--proto',
  hook: '--hook',
  localAddresses: '--local-ip',
};
const REQUEST: TraceInputNames = {
  src: 'src',
  dst: 'dst',
  proto: 'proto',
  hook: 'hook',
  localAddresses: 'localAddresses',
};

test('a good packet: protocol and hook in any case, IPv6 in brackets, defaults tcp and prerouting', () => {
  assert.deepEqual(checkTracePacket({ src: 'fd00::1', dst: '[fd00::10]:53', proto: 'UDP', hook: 'Output' }, CLI), {
    ok: true,
    packet: { src: 'fd00::1', dst: 'fd00::10', dport: 53, proto: 'udp', hook: 'output' },
  });
  const r = checkTracePacket({ src: '10.0.0.1', dst: '10.96.0.1:0', inIface: 'eth0', localAddresses: [] }, REQUEST);
  assert.deepEqual(r, {
    ok: true,
    packet: {
      src: '10.0.0.1',
      dst: '10.96.0.1',
      dport: 0,
      proto: 'tcp',
      hook: 'prerouting',
      inIface: 'eth0',
      localAddresses: [],
    },
  });
});

test('the first problem, named as the face names the field', () => {
  const problems: [Parameters<typeof checkTracePacket>[0], string, string][] = [
    [{ dst: '10.0.0.1:80' }, '--src IP is required', 'src IP is required'],
    [{ src: '10.0.0.1' }, '--dst IP:PORT is required', 'dst IP:PORT is required'],
    [{ src: 'x', dst: '10.0.0.1:80' }, '--src: "x" is not an IP address', 'src: "x" is not an IP address'],
    [
      { src: '10.0.0.1', dst: '10.0.0.2:70000' },
      '--dst: "10.0.0.2:70000" is not IP:PORT (use [v6]:PORT for IPv6)',
      'dst: "10.0.0.2:70000" is not IP:PORT (use [v6]:PORT for IPv6)',
    ],
    [
      { src: '10.0.0.1', dst: '[fd00::1]:80' },
      '--src and --dst must be both IPv4 or both IPv6',
      'src and dst must be both IPv4 or both IPv6',
    ],
    [
      { src: '10.0.0.1', dst: '10.0.0.2:80', proto: 'icmp' },
      '--proto must be one of tcp, udp, sctp',
      'proto must be one of tcp, udp, sctp',
    ],
    [
      { src: '10.0.0.1', dst: '10.0.0.2:80', hook: 'input' },
      '--hook must be one of prerouting, output',
      'hook must be one of prerouting, output',
    ],
    [
      { src: '10.0.0.1', dst: '10.0.0.2:80', localAddresses: ['10.0.0.9', '10.0.0.5/24'] },
      '--local-ip: "10.0.0.5/24" is not an IP address',
      'localAddresses: "10.0.0.5/24" is not an IP address',
    ],
  ];
  for (const [input, cli, request] of problems) {
    assert.deepEqual(checkTracePacket(input, CLI), { ok: false, field: fieldOf(cli), message: cli });
    assert.deepEqual(checkTracePacket(input, REQUEST), { ok: false, field: fieldOf(cli), message: request });
  }
  // A request's JSON may carry anything: refused, not thrown.
  assert.equal(checkTracePacket({ src: 5 as unknown as string, dst: '10.0.0.2:80' }, REQUEST).ok, false);
});

function fieldOf(cliMessage: string): string {
  if (cliMessage.startsWith('--src and')) return 'dst';
  const option = /^--([a-z-]+)/.exec(cliMessage)![1];
  return option === 'local-ip' ? 'localAddresses' : option;
}

test('a destination is ip:port or [v6]:port with the port in range', () => {
  assert.deepEqual(parseTraceDestination('10.96.0.1:443'), { host: '10.96.0.1', port: 443 });
  assert.deepEqual(parseTraceDestination('[fd00::1]:65535'), { host: 'fd00::1', port: 65535 });
  for (const bad of ['10.96.0.1', 'fd00::1:443', '[fd00::1]', '10.96.0.1:65536', 'name:80', '10.96.0.1:-1'])
    assert.equal(parseTraceDestination(bad), undefined, bad);
});

test('shares: one decimal, two below 1% (1 of 5,000 endpoints is not 0%), precise in tooltips', () => {
  assert.deepEqual([1 / 3, 1, 0.5, 1 / 400, 1 / 5000, 0].map(formatShare), [
    '33.3%',
    '100%',
    '50%',
    '0.25%',
    '0.02%',
    '0%',
  ]);
  assert.equal(formatShare(undefined), '?');
  assert.deepEqual([1 / 3, 1, 1 / 5000].map(formatPreciseShare), ['33.3333%', '100%', '0.02%']);
  assert.deepEqual([1 / 3, 1, 0, 0.5].map(formatProbability), ['0.333333', '1', '0', '0.5']);
  assert.equal(roundProbability(0.33333333335000004), 0.33333333335);
  assert.equal(roundProbability(1 / 3), 0.333333333333);
});
