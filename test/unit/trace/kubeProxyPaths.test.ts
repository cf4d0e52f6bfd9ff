import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertSumsToOne, kubeProxyDump, TCP, trace, type SvcSpec } from './helpers';

const NODE = '192.168.10.11';
const SERVICES: SvcSpec[] = [
  {
    ns: 'default',
    name: 'web',
    clusterIP: '172.16.0.20',
    port: 80,
    endpoints: ['10.244.1.5:8080', '10.244.2.6:8080', '10.244.3.7:8080'],
  },
  { ns: 'default', name: 'kubernetes', clusterIP: '172.16.0.1', port: 443, endpoints: ['192.168.10.11:6443'] },
  { ns: 'shop', name: 'empty', clusterIP: '172.16.0.30', port: 8080, endpoints: [] },
  {
    ns: 'shop',
    name: 'front',
    clusterIP: '172.16.0.40',
    port: 80,
    endpoints: ['10.244.1.9:80', '10.244.2.9:80'],
    nodePort: 30080,
  },
];
const DUMP = kubeProxyDump(SERVICES);

describe('trace: kube-proxy dumps', () => {
  it('pod -> 3-endpoint ClusterIP gives three DNAT paths of 1/3 each', () => {
    const r = trace(DUMP, TCP('10.244.1.20', '172.16.0.20', 80));
    assertSumsToOne(r);
    assert.equal(r.paths.length, 3);
    const targets = r.paths.map((p) => `${p.dnat?.ip}:${p.dnat?.port}`);
    assert.deepEqual(targets, ['10.244.1.5:8080', '10.244.2.6:8080', '10.244.3.7:8080']);
    for (const p of r.paths) {
      assert.ok(Math.abs(p.probability - 1 / 3) < 1e-9, String(p.probability));
      assert.equal(p.verdict, 'ACCEPT');
      assert.equal(p.masquerade, false, 'pod source inside the cluster CIDR is not masqueraded');
      assert.equal(p.route, 'forward');
      assert.deepEqual(p.assumptions, []);
    }
    // Each path walks PREROUTING -> KUBE-SERVICES -> KUBE-SVC -> KUBE-SEP -> DNAT with the dump's lines.
    const first = r.paths[0].steps;
    assert.deepEqual(
      first.slice(0, 2).map((s) => [s.table, s.chain, s.action]),
      [
        ['nat', 'PREROUTING', 'jump'],
        ['nat', 'KUBE-SERVICES', 'jump'],
      ],
    );
    const dnatStep = first.find((s) => s.action === 'nat');
    assert.ok(dnatStep && dnatStep.chain.startsWith('KUBE-SEP-'));
    assert.match(DUMP.split('\n')[dnatStep.line], /DNAT --to-destination 10\.244\.1\.5:8080/);
    assert.equal(typeof dnatStep.ruleId, 'number');
  });

  it('a Service with no endpoints is rejected by the filter table', () => {
    const r = trace(DUMP, TCP('10.244.1.20', '172.16.0.30', 8080, { localAddresses: [NODE] }));
    assertSumsToOne(r);
    assert.equal(r.paths.length, 1);
    const p = r.paths[0];
    assert.equal(p.verdict, 'REJECT');
    assert.equal(p.dnat, null);
    const last = p.steps[p.steps.length - 1];
    assert.deepEqual([last.table, last.chain, last.action], ['filter', 'KUBE-SERVICES', 'terminal']);
    assert.match(last.note ?? '', /icmp-port-unreachable/);
  });

  it('hook output from the node: nat OUTPUT DNATs, the node address outside the cluster CIDR is masqueraded', () => {
    const r = trace(DUMP, {
      src: NODE,
      dst: '172.16.0.20',
      dport: 80,
      proto: 'tcp',
      hook: 'output',
      localAddresses: [NODE],
    });
    assertSumsToOne(r);
    assert.equal(r.paths.length, 3);
    for (const p of r.paths) {
      assert.equal(p.verdict, 'ACCEPT');
      assert.equal(p.route, 'output');
      assert.equal(p.masquerade, true);
      assert.ok(p.steps.some((s) => s.table === 'nat' && s.chain === 'OUTPUT'));
      assert.ok(!p.steps.some((s) => s.chain === 'PREROUTING'));
      assert.ok(p.steps.some((s) => s.table === 'filter' && s.chain === 'OUTPUT'));
      // KUBE-MARK-MASQ set 0x4000; KUBE-POSTROUTING read it, cleared it and masqueraded.
      const marks = p.steps.filter((s) => s.action === 'mark').map((s) => s.note);
      assert.deepEqual(marks, ['mark 0x0 -> 0x4000', 'mark 0x4000 -> 0x0']);
      const post = p.steps.filter((s) => s.chain === 'KUBE-POSTROUTING').map((s) => s.action);
      assert.deepEqual(post, ['mark', 'nat']);
      assert.equal(p.mark, 0);
    }
  });

  it('MASQUERADE when the source is outside the cluster CIDR (! -s), not when inside', () => {
    const outside = trace(DUMP, TCP('192.168.50.7', '172.16.0.20', 80, { localAddresses: [NODE] }));
    assertSumsToOne(outside);
    assert.equal(outside.paths.length, 3);
    for (const p of outside.paths) {
      assert.equal(p.masquerade, true);
      const masq = p.steps.find((s) => s.action === 'nat' && s.chain === 'KUBE-POSTROUTING');
      assert.ok(masq && masq.table === 'nat');
    }
    const inside = trace(DUMP, TCP('10.244.7.7', '172.16.0.20', 80, { localAddresses: [NODE] }));
    for (const p of inside.paths) assert.equal(p.masquerade, false);
    // An endpoint on the node itself: after DNAT the packet is routed to INPUT, where nat POSTROUTING never runs,
    // so the masquerade mark stays set and no MASQUERADE happens.
    const toNode = trace(DUMP, TCP('192.168.50.7', '172.16.0.1', 443, { localAddresses: [NODE] }));
    assert.equal(toNode.paths.length, 1);
    assert.deepEqual(toNode.paths[0].dnat, { ip: '192.168.10.11', port: 6443 });
    assert.equal(toNode.paths[0].route, 'input');
    assert.equal(toNode.paths[0].masquerade, false);
    assert.equal(toNode.paths[0].mark, 0x4000);
  });

  it('a pod reaching itself through its Service (hairpin) is marked and masqueraded', () => {
    const r = trace(DUMP, TCP('10.244.1.9', '172.16.0.40', 80, { localAddresses: [NODE] }));
    assertSumsToOne(r);
    const self = r.paths.find((p) => p.dnat?.ip === '10.244.1.9');
    const other = r.paths.find((p) => p.dnat?.ip === '10.244.2.9');
    assert.ok(self && other);
    assert.equal(self.masquerade, true);
    assert.equal(other.masquerade, false);
  });

  it('NodePort via --dst-type LOCAL with localAddresses', () => {
    const r = trace(DUMP, TCP('203.0.113.9', NODE, 30080, { localAddresses: [NODE] }));
    assertSumsToOne(r);
    assert.equal(r.paths.length, 2);
    assert.deepEqual(
      r.paths.map((p) => p.dnat),
      [
        { ip: '10.244.1.9', port: 80 },
        { ip: '10.244.2.9', port: 80 },
      ],
    );
    for (const p of r.paths) {
      assert.ok(p.steps.some((s) => s.chain === 'KUBE-NODEPORTS' && s.action === 'jump'));
      assert.equal(p.masquerade, true, 'KUBE-EXT marks NodePort traffic for masquerade');
      assert.ok(Math.abs(p.probability - 0.5) < 1e-9);
      assert.deepEqual(p.assumptions, []);
    }
  });

  it('NodePort without localAddresses forks on whether the address is local, and says so', () => {
    const r = trace(DUMP, TCP('203.0.113.9', NODE, 30080));
    assertSumsToOne(r);
    assert.equal(r.paths.length, 3);
    const notLocal = r.paths.filter((p) => p.dnat === null);
    assert.equal(notLocal.length, 1);
    // Whether the address is the node's is a fact, not a coin flip: the not-local alternative is certain under its
    // condition, and the local one shares out its probability between the endpoints only.
    assert.equal(notLocal[0].probability, 1);
    assert.deepEqual(notLocal[0].given, ['if 192.168.10.11 is not an address of this node']);
    for (const p of r.paths.filter((q) => q.dnat)) {
      assert.ok(Math.abs(p.probability - 0.5) < 1e-9);
      assert.deepEqual(p.given, ['if 192.168.10.11 is an address of this node']);
    }
    assert.match(notLocal[0].assumptions.join('\n'), /192\.168\.10\.11 is not an address of this node/);
    for (const p of r.paths.filter((q) => q.dnat)) {
      assert.match(p.assumptions.join('\n'), /192\.168\.10\.11 is an address of this node/);
    }
    assert.ok(r.warnings.some((w) => /localAddresses/.test(w)));
  });

  it('a port that is not the Service port matches nothing and passes untouched', () => {
    const r = trace(DUMP, TCP('10.244.1.20', '172.16.0.20', 81, { localAddresses: [NODE] }));
    assertSumsToOne(r);
    assert.equal(r.paths.length, 1);
    assert.equal(r.paths[0].dnat, null);
    assert.equal(r.paths[0].verdict, 'ACCEPT');
  });

  it('FORWARD policy DROP: only marked (masqueraded) traffic is accepted by KUBE-FORWARD', () => {
    const dump = kubeProxyDump(SERVICES, { forwardPolicy: 'DROP' });
    const pod = trace(dump, TCP('10.244.1.20', '172.16.0.20', 80, { localAddresses: [NODE] }));
    assertSumsToOne(pod);
    for (const p of pod.paths) {
      assert.equal(p.verdict, 'DROP');
      assert.equal(p.steps[p.steps.length - 1].action, 'policy');
    }
    const external = trace(dump, TCP('192.168.50.7', '172.16.0.20', 80, { localAddresses: [NODE] }));
    for (const p of external.paths) assert.equal(p.verdict, 'ACCEPT');
  });

  it('UDP packets do not match TCP Service rules', () => {
    const r = trace(DUMP, { ...TCP('10.244.1.20', '172.16.0.20', 80, { localAddresses: [NODE] }), proto: 'udp' });
    assert.equal(r.paths.length, 1);
    assert.equal(r.paths[0].dnat, null);
  });
});
