import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket } from '../../../src/core/iptables/trace';
import { compileSets, inSet } from '../../../src/core/iptables/trace/ipsets';
import type { PacketState } from '../../../src/core/iptables/trace/state';
import type { KnownSet } from '../../../src/core/iptables/trace/types';
import { parseIp } from '../../../src/core/common/ip';

const set = (name: string, type: string, members: string[], numberOfEntries?: number): KnownSet => ({
  name,
  type,
  members: members.map((m) => ({ elements: m.split(',') })),
  ...(numberOfEntries !== undefined ? { numberOfEntries } : {}),
});
const packet = (src: string, dst: string, dport: number, proto: 'tcp' | 'udp' = 'tcp', sport?: number): PacketState =>
  ({
    src: parseIp(src)!.value,
    dst: parseIp(dst)!.value,
    dport,
    proto,
    ...(sport !== undefined ? { sport } : {}),
  }) as PacketState;

test('members decide membership by the set type: ip,port; ip,port,ip; net', () => {
  const sets = compileSets([
    set('KUBE-CLUSTER-IP', 'hash:ip,port', ['10.96.0.1,tcp:443', '10.96.0.10,udp:53']),
    set('KUBE-LOOP-BACK', 'hash:ip,port,ip', ['10.244.0.5,udp:53,10.244.0.5']),
    set('BLOCKED', 'hash:net', ['192.168.0.0/16']),
  ])!;
  const cluster = sets.get('KUBE-CLUSTER-IP')!;
  assert.equal(inSet(cluster, ['dst', 'dst'], packet('10.244.1.5', '10.96.0.1', 443), 4), true);
  assert.equal(inSet(cluster, ['dst', 'dst'], packet('10.244.1.5', '10.96.0.1', 80), 4), false);
  assert.equal(
    inSet(cluster, ['dst', 'dst'], packet('10.244.1.5', '10.96.0.10', 53, 'tcp'), 4),
    false,
    'udp:53 is not tcp',
  );
  const loop = sets.get('KUBE-LOOP-BACK')!;
  assert.equal(inSet(loop, ['dst', 'dst', 'src'], packet('10.244.0.5', '10.244.0.5', 53, 'udp'), 4), true);
  assert.equal(inSet(loop, ['dst', 'dst', 'src'], packet('10.244.0.6', '10.244.0.5', 53, 'udp'), 4), false);
  assert.equal(inSet(sets.get('BLOCKED')!, ['src'], packet('192.168.3.4', '10.0.0.1', 80), 4), true);
});

test('a cut listing proves membership but not absence', () => {
  const cut = compileSets([set('KUBE-CLUSTER-IP', 'hash:ip,port', ['10.96.0.1,tcp:443'], 143)])!.get(
    'KUBE-CLUSTER-IP',
  )!;
  assert.equal(inSet(cut, ['dst', 'dst'], packet('10.244.1.5', '10.96.0.1', 443), 4), true);
  assert.equal(inSet(cut, ['dst', 'dst'], packet('10.244.1.5', '10.96.0.2', 443), 4), undefined);
});

test('the tracer decides -m set from given members and still forks on sets it was not given', () => {
  const dump = parseIptables(
    [
      '*nat',
      ':PREROUTING ACCEPT [0:0]',
      ':KUBE-SERVICES - [0:0]',
      ':KUBE-MARK-MASQ - [0:0]',
      '-A PREROUTING -j KUBE-SERVICES',
      '-A KUBE-MARK-MASQ -j MARK --or-mark 0x4000',
      '-A KUBE-SERVICES ! -s 10.244.0.0/16 -m set --match-set KUBE-CLUSTER-IP dst,dst -j KUBE-MARK-MASQ',
      '-A KUBE-SERVICES -m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT',
      'COMMIT',
      '',
    ].join('\n'),
  );
  const p = { src: '10.1.1.1', dst: '10.96.0.1', dport: 443, proto: 'tcp' as const, hook: 'prerouting' as const };
  const known = tracePacket(dump, p, { ipsets: [set('KUBE-CLUSTER-IP', 'hash:ip,port', ['10.96.0.1,tcp:443'])] });
  assert.deepEqual(
    known.paths.map((x) => [x.probability, x.mark, x.assumptions.length]),
    [[1, 0x4000, 0]],
  );
  const outside = tracePacket(
    dump,
    { ...p, dport: 80 },
    { ipsets: [set('KUBE-CLUSTER-IP', 'hash:ip,port', ['10.96.0.1,tcp:443'])] },
  );
  assert.deepEqual(
    outside.paths.map((x) => [x.probability, x.mark]),
    [[1, 0]],
  );
  assert.ok(tracePacket(dump, p).paths.length > 1, 'without the members the trace forks on membership');
});
