// `nft list ruleset` on a dual-stack node using iptables-nft holds an `ip` and an `ip6` table of each name. A dump is
// read for one family: the one whose tables hold more rules (nft lists tables in the order they were made, so the
// first is often ip6's, with kube-proxy's empty chains), and for a trace the packet's. Reading the first family gave
// a dump of empty chains and traces of IPv4 Services that never met their DNAT.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText } from '../../../src/core/analyze';
import { parseIptables } from '../../../src/core/iptables/parser';
import { traceText } from '../../../src/core/traceAnalysis';
import { tracePacketRequest } from '../../../src/server/features/trace';
import { DUAL_STACK_NFT } from '../../helpers/dumps';

const packet = (src: string, dst: string) => ({
  src,
  dst,
  dport: 80,
  proto: 'tcp' as const,
  hook: 'prerouting' as const,
});

test('the family with more rules is read, though its tables come second; the other is said to be skipped', () => {
  const d = parseIptables(DUAL_STACK_NFT);
  assert.equal(d.family, 4);
  assert.equal(d.rules.length, 7);
  const skipped = d.diagnostics.filter((x) => x.code === 'nft-table-skipped');
  assert.deepEqual(
    skipped.map((x) => [x.span.line, x.params?.family, x.params?.read]),
    [[0, 'ip6', 'ip']],
  );
  assert.match(skipped[0].message, /here ip \(the family with more rules, or the traced packet's\)/);
  const services = analyzeText(DUAL_STACK_NFT).iptables!.kube.services.map((s) => `${s.name} ${s.clusterIP}`);
  assert.deepEqual(services.sort(), ['default/web:http 10.96.5.5', 'kube-system/kube-dns:dns 10.96.0.10']);
});

test("a packet's family chooses the tables: the IPv6 trace meets the ip6 table's DNAT, the IPv4 one the ip table's", () => {
  assert.equal(parseIptables(DUAL_STACK_NFT, { packetFamily: 6 }).family, 6);
  const v6 = traceText(DUAL_STACK_NFT, packet('fd00:244:2::3', 'fd00:96::5'), 'en').answer;
  assert.ok(v6.engine === 'iptables');
  assert.deepEqual(
    v6.result.paths.map((p) => [p.verdict, p.dnat]),
    [['ACCEPT', { ip: 'fd00:244:1::7', port: 8080 }]],
  );
  assert.ok(!v6.result.warningMessages.some((m) => /famil/.test(m.code)), v6.result.warnings.join('\n'));
  const v4 = traceText(DUAL_STACK_NFT, packet('10.244.2.3', '10.96.5.5'), 'en').answer;
  assert.ok(v4.engine === 'iptables');
  assert.deepEqual(
    v4.result.paths.map((p) => p.dnat),
    [{ ip: '10.244.1.7', port: 8080 }],
  );
});

test("the language server's trace reads the ruleset again for a packet of the family it skipped", () => {
  const held = analyzeText(DUAL_STACK_NFT);
  const asked: number[] = [];
  const forFamily = (family: 4 | 6) => {
    asked.push(family);
    return family === 6 ? analyzeText(DUAL_STACK_NFT, undefined, { packetFamily: 6 }) : held;
  };
  const r = tracePacketRequest(
    held,
    { uri: 'file:///node.nft', src: 'fd00:244:2::3', dst: '[fd00:96::5]:80' },
    'en',
    forFamily,
  );
  assert.deepEqual(asked, [6]);
  assert.deepEqual(
    r.paths.map((p) => p.dnat),
    [{ ip: 'fd00:244:1::7', port: 8080 }],
  );
});
