/**
 * What the dump cannot decide is not a coin flip: forks on a fact of the node (is this address its own?) are
 * alternatives under their condition, and probabilities stay for kube-proxy's draws; a Service without endpoints is
 * said to be one; steps that decide nothing fold.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyze';
import { foldSteps } from '../../../src/core/iptables/trace/fold';
import { noEndpointsSummary, traceHints } from '../../../src/core/iptables/traceHints';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket } from '../../../src/core/iptables/trace';
import { nodeAddressesFromPaste } from '../../../src/core/nodeAddresses';
import { assertSumsToOne, kubeProxyDump, TCP } from './helpers';

const TEXT = kubeProxyDump([
  { ns: 'default', name: 'checkout', clusterIP: '10.96.0.10', port: 80, endpoints: [] },
  {
    ns: 'default',
    name: 'web',
    clusterIP: '10.96.0.20',
    port: 80,
    endpoints: ['10.244.1.5:8080', '10.244.2.6:8080', '10.244.3.7:8080'],
  },
]);
const DUMP = parseIptables(TEXT);

describe('trace: alternatives, not coin flips', () => {
  it('whether the ClusterIP is an address of the node is two alternatives, each certain under its condition', () => {
    const r = tracePacket(DUMP, TCP('10.244.0.9', '10.96.0.10', 80));
    assertSumsToOne(r);
    const byVerdict = Object.fromEntries(r.paths.map((p) => [p.verdict, p]));
    assert.deepEqual(Object.keys(byVerdict).sort(), ['ACCEPT', 'REJECT']);
    // Not "50% ACCEPT / 50% REJECT": each is what happens if its condition holds.
    assert.equal(byVerdict.REJECT.probability, 1);
    assert.equal(byVerdict.ACCEPT.probability, 1);
    assert.deepEqual(byVerdict.REJECT.given, ['if 10.96.0.10 is not an address of this node']);
    assert.deepEqual(byVerdict.ACCEPT.given, ['if 10.96.0.10 is an address of this node']);
    assert.deepEqual(byVerdict.REJECT.givenMessages, [{ code: 'assume.not-local', params: { addr: '10.96.0.10' } }]);
  });

  it('the node addresses decide it: one path, nothing given', () => {
    const r = tracePacket(DUMP, TCP('10.244.0.9', '10.96.0.10', 80, { localAddresses: ['192.168.0.5'] }));
    assert.deepEqual(
      r.paths.map((p) => [p.verdict, p.probability, p.given]),
      [['REJECT', 1, []]],
    );
  });

  it("kube-proxy's random draws keep their probabilities", () => {
    const r = tracePacket(DUMP, TCP('10.244.0.9', '10.96.0.20', 80));
    assertSumsToOne(r);
    const dnat = r.paths.filter((p) => p.dnat);
    assert.equal(dnat.length, 3);
    for (const p of dnat) assert.ok(Math.abs(p.probability - 1 / 3) < 1e-9, String(p.probability));
    for (const p of dnat) assert.deepEqual(p.given, []);
  });

  it("an `ip addr` section of the same paste gives the node's addresses", () => {
    const session = [
      '$ ip -o addr',
      '2: eth0    inet 192.168.0.5/24 brd 192.168.0.255 scope global eth0\\       valid_lft forever preferred_lft forever',
      '$ iptables-save',
      TEXT,
    ].join('\n');
    const a = analyzeText(session);
    assert.deepEqual(nodeAddressesFromPaste(a.network), ['192.168.0.5']);
    assert.equal(nodeAddressesFromPaste(analyzeText(TEXT).network), undefined);
  });
});

describe('trace: a Service without endpoints', () => {
  it('says the Service has no endpoints and kube-proxy rejects, not to check the port and protocol', () => {
    const packet = TCP('10.244.0.9', '10.96.0.10', 80, { localAddresses: ['192.168.0.5'] });
    const r = tracePacket(DUMP, packet);
    const model = analyzeText(TEXT).iptables!;
    const summary = noEndpointsSummary(model, packet, r, 'en');
    assert.match(
      summary ?? '',
      /^default\/checkout:p has no endpoints: kube-proxy rejects the connection \(filter\/KUBE-SERVICES line \d+, icmp-port-unreachable\)/,
    );
    const hints = traceHints(model, packet, r, 'en');
    assert.ok(hints.includes(summary!), hints.join('\n'));
    assert.ok(!hints.some((h) => /Check the port and protocol/.test(h)), hints.join('\n'));
    assert.match(noEndpointsSummary(model, packet, r, 'zh-CN') ?? '', /没有端点：kube-proxy 拒绝该连接/);
  });

  it('a Service that has endpoints gets no such summary; a wrong port still gets the port advice', () => {
    const model = analyzeText(TEXT).iptables!;
    const ok = TCP('10.244.0.9', '10.96.0.20', 80, { localAddresses: ['192.168.0.5'] });
    assert.equal(noEndpointsSummary(model, ok, tracePacket(DUMP, ok), 'en'), undefined);
    const wrong = TCP('10.244.0.9', '10.96.0.20', 81, { localAddresses: ['192.168.0.5'] });
    assert.match(traceHints(model, wrong, tracePacket(DUMP, wrong), 'en').join('\n'), /Check the port and protocol/);
  });
});

describe('trace: steps that decide nothing fold', () => {
  const step = (action: string, chain: string, rule = `-A ${chain} ...`) => ({ action, chain, table: 'filter', rule });
  it('a jump into a chain that ends without a match, nested or in a row, is one fold; acting steps stay', () => {
    const steps = [
      step('jump', 'FORWARD'), // -> KUBE-FORWARD
      step('return', 'KUBE-FORWARD', ''),
      step('jump', 'FORWARD'), // -> KUBE-SERVICES
      step('jump', 'KUBE-SERVICES'), // -> KUBE-X
      step('return', 'KUBE-X', ''),
      step('return', 'KUBE-SERVICES', ''),
      step('terminal', 'FORWARD'),
    ];
    const folded = foldSteps(steps);
    assert.deepEqual(
      folded.map((f) => (f.kind === 'step' ? f.step.action : `nothing ${f.steps.length}`)),
      ['nothing 6', 'terminal'],
    );
  });

  it('a chain that acted on the packet before it ended is not folded', () => {
    const steps = [
      step('jump', 'POSTROUTING'),
      step('mark', 'KUBE-POSTROUTING'),
      step('return', 'KUBE-POSTROUTING', ''),
      step('policy', 'POSTROUTING'),
    ];
    assert.deepEqual(
      foldSteps(steps).map((f) => f.kind),
      ['step', 'step', 'step', 'step'],
    );
  });
});
