import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket, type Packet } from '../../../src/core/iptables/trace';
import { corpusFile, corpusFiles, CORPUS_MISSING } from '../../helpers/corpus';
import { assertSumsToOne } from './helpers';

test('corpus 091 (kube-proxy fixture): 10.0.0.2 -> 172.30.0.44:80 tcp splits 0.5/0.5 over two endpoints', (t) => {
  const text = corpusFile('iptables', '091');
  if (!text) return t.skip(CORPUS_MISSING);
  const r = tracePacket(parseIptables(text), {
    src: '10.0.0.2',
    dst: '172.30.0.44',
    dport: 80,
    proto: 'tcp',
    hook: 'prerouting',
  });
  assertSumsToOne(r);
  assert.equal(r.paths.length, 2);
  assert.deepEqual(
    r.paths.map((p) => p.dnat),
    [
      { ip: '10.180.0.4', port: 80 },
      { ip: '10.180.0.5', port: 80 },
    ],
  );
  for (const p of r.paths) {
    assert.ok(Math.abs(p.probability - 0.5) < 1e-9);
    assert.equal(p.verdict, 'ACCEPT');
    // The fixture is restore input without builtin chains: the kube-proxy jumps are implied and said so.
    assert.ok(p.assumptionMessages.some((m) => m.code === 'assume.kube-jumps' && m.params.chain === 'PREROUTING'));
    const lines = text.split('\n');
    for (const s of p.steps)
      if (s.line >= 0 && s.ruleId !== undefined) assert.ok(lines[s.line].includes(s.chain), `${s.chain} at ${s.line}`);
  }
});

test('every corpus dump traces without throwing and sums to 1', (t) => {
  const files = corpusFiles('iptables');
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  const packets: Packet[] = [
    { src: '10.244.1.5', dst: '10.96.0.1', dport: 443, proto: 'tcp', hook: 'prerouting' },
    {
      src: '192.168.1.10',
      dst: '10.0.0.10',
      dport: 53,
      proto: 'udp',
      hook: 'output',
      localAddresses: ['192.168.1.10'],
    },
    {
      src: '8.8.8.8',
      dst: '192.168.1.10',
      dport: 30080,
      proto: 'tcp',
      hook: 'prerouting',
      localAddresses: ['192.168.1.10'],
    },
  ];
  for (const f of files) {
    const dump = parseIptables(f.text);
    for (const pkt of packets) {
      const r = tracePacket(dump, pkt);
      assertSumsToOne(r);
      for (const p of r.paths) for (const s of p.steps) assert.ok(s.line >= -1 && s.line < dump.lineCount, f.name);
    }
  }
});
