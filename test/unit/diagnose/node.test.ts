import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareCounters, nodeCaptureChecks, nodeRulesCheck } from '../../../src/core/diagnose/node';
import { nodeModeOf, ruleCounters } from '../../../src/core/diagnose/nodeDumps';
import type { CheckResult } from '../../../src/core/diagnose/types';
import { endpoints, nodeDump, PLAN_A, PLAN_B, service, servicePort } from './fixtures';

function result(id: string, exitCode: number, stdout: string, stderr = ''): CheckResult {
  return { id, kind: 'node-rules', argv: [], exitCode, durationMs: 40, ok: exitCode === 0, stdout, stderr };
}

describe('node capture checks', () => {
  test('mode known: the dump of that mode, addresses, routes', () => {
    assert.deepEqual(
      nodeCaptureChecks('iptables').map((c) => [c.id, c.argv.join(' ')]),
      [
        ['node-rules', 'iptables-save -c'],
        ['node-addresses', 'ip -o addr'],
        ['node-routes', 'ip route'],
      ],
    );
    assert.deepEqual(nodeRulesCheck('ipvs').argv, ['ipvsadm', '-Ln', '--stats']);
    assert.deepEqual(nodeRulesCheck('nftables').argv, ['nft', 'list', 'ruleset']);
  });

  test('mode unknown: every dump tool, then nodeModeOf picks', () => {
    const checks = nodeCaptureChecks();
    assert.deepEqual(
      checks.map((c) => c.id),
      ['node-iptables', 'node-ipvs', 'node-nft', 'node-addresses', 'node-routes'],
    );
    const ipt = nodeDump(PLAN_A, { svcPackets: 3 });
    assert.deepEqual(
      nodeModeOf([
        result('node-iptables', 0, ipt),
        result('node-ipvs', 127, '', 'sh: ipvsadm: not found'),
        result('node-nft', 1, '', 'nft: command not found'),
      ]),
      { mode: 'iptables', dump: ipt },
    );
    const ipvs =
      'IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes\n  -> RemoteAddress:Port\nTCP  10.96.0.1:443                       3       18       12     1260     4532\n  -> 172.20.5.11:6443                    3       18       12     1260     4532\n';
    const ipvsIpt =
      '*nat\n:PREROUTING ACCEPT [0:0]\n:KUBE-SERVICES - [0:0]\n-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES\n-A KUBE-SERVICES -m comment --comment "Kubernetes service cluster ip + port for masquerade purpose" -m set --match-set KUBE-CLUSTER-IP src,dst -j KUBE-MARK-MASQ\nCOMMIT\n';
    assert.equal(nodeModeOf([result('node-iptables', 0, ipvsIpt), result('node-ipvs', 0, ipvs)]).mode, 'ipvs');
    const nft = 'table ip kube-proxy {\n\tchain services {\n\t}\n}\n';
    assert.equal(nodeModeOf([result('node-iptables', 0, '# empty\n'), result('node-nft', 0, nft)]).mode, 'nftables');
    assert.deepEqual(nodeModeOf([result('node-iptables', 1, '', 'permission denied')]), {});
  });
});

describe('rule counters', () => {
  for (const p of [PLAN_A, PLAN_B]) {
    test(`plan ${p.name}: iptables-save -c from the generator`, () => {
      const svc = service(p);
      const dump = nodeDump(p, { svcPackets: 12, other: 3 });
      const counters = ruleCounters(dump, svc, servicePort(p));
      const entry = counters[0];
      assert.equal(entry.role, 'service');
      assert.equal(entry.table, 'nat');
      assert.equal(entry.chain, 'KUBE-SERVICES');
      assert.equal(entry.packets, 12);
      assert.equal(entry.bytes, 720);
      assert.match(
        entry.rule,
        new RegExp(`^-A KUBE-SERVICES .*-d ${p.clusterIP.replace(/\./g, '\\.')}.* --dport ${p.port} -j KUBE-SVC-`),
      );
      assert.equal(
        dump.split('\n')[entry.line - 1].includes(entry.rule.slice(3)),
        true,
        'the line is 1-based and points at the rule',
      );
      assert.ok(counters.some((c) => c.role === 'service-chain' && c.chain.startsWith('KUBE-SVC-')));
      assert.equal(counters.filter((c) => c.role === 'endpoint' && /DNAT/.test(c.rule)).length, p.endpoints.length);
      assert.ok(!counters.some((c) => c.rule.includes('kube-dns')), 'other Services are not counted');
    });
  }

  test('the filter REJECT of a Service without endpoints', () => {
    const p = PLAN_A;
    const dump = nodeDump(p, { eps: [], svcPackets: 4 });
    const counters = ruleCounters(dump, service(p), servicePort(p));
    assert.ok(
      counters.some(
        (c) => c.role === 'no-endpoints' && c.table === 'filter' && /REJECT/.test(c.rule) && c.packets === 4,
      ),
    );
    assert.ok(!counters.some((c) => c.role === 'service'));
  });

  test('dumps without counters and other ports give nothing', () => {
    const p = PLAN_B;
    const plain = nodeDump(p).replace(/^\[\d+:\d+\] /gm, '');
    assert.deepEqual(ruleCounters(plain, service(p), servicePort(p)), []);
    assert.deepEqual(ruleCounters(nodeDump(p), service(p), { ...servicePort(p), port: 1 }), []);
    assert.deepEqual(ruleCounters('', service(p), servicePort(p)), []);
  });

  test('nft list ruleset of iptables-nft rules', () => {
    const p = PLAN_A;
    const text = `table ip nat {
	chain PREROUTING {
		type nat hook prerouting priority dstnat; policy accept;
		counter packets 310 bytes 18600 jump KUBE-SERVICES
	}
	chain KUBE-SERVICES {
		meta l4proto tcp ip daddr ${p.clusterIP} tcp dport ${p.port} counter packets 21 bytes 1260 jump KUBE-SVC-ABCDEFGHIJKLMNOP
	}
	chain KUBE-SVC-ABCDEFGHIJKLMNOP {
		counter packets 21 bytes 1260 jump KUBE-SEP-QRSTUVWXYZ234567
	}
	chain KUBE-SEP-QRSTUVWXYZ234567 {
		meta l4proto tcp counter packets 21 bytes 1260 dnat to ${p.endpoints[0]}:${p.targetPort}
	}
}
`;
    const counters = ruleCounters(text, service(p), servicePort(p));
    assert.equal(counters[0].role, 'service');
    assert.equal(counters[0].packets, 21);
    assert.equal(counters[0].line, 7);
    assert.ok(counters.some((c) => c.role === 'endpoint' && c.packets === 21));
  });

  test('ipvsadm -Ln --stats', () => {
    const p = PLAN_B;
    const text = `IP Virtual Server version 1.2.1 (size=4096)
Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes
  -> RemoteAddress:Port
TCP  ${p.clusterIP}:${p.port}                  15      2K      1K     120K     400K
  -> ${p.endpoints[0]}:${p.targetPort}                    8      1K      600     60K      210K
  -> ${p.endpoints[1]}:${p.targetPort}                    7      1K      400     60K      190K
UDP  ${p.clusterIP}:${p.port}                    0        0        0        0        0
`;
    const counters = ruleCounters(text, service(p), servicePort(p));
    assert.deepEqual(
      counters.map((c) => [c.role, c.line, c.packets]),
      [
        ['ipvs-service', 4, 2000],
        ['ipvs-real-server', 5, 1000],
        ['ipvs-real-server', 6, 1000],
      ],
    );
    assert.equal(counters[0].rule, `TCP ${p.clusterIP}:${p.port}`);
  });

  test('compareCounters pairs rules by text, not by line', () => {
    const p = PLAN_A;
    const svc = service(p);
    const before = ruleCounters(nodeDump(p, { svcPackets: 5 }), svc, servicePort(p));
    // kube-proxy resynced in between: one more Service, every line moved.
    const afterDump = nodeDump(p, { svcPackets: 9 }).replace('*nat\n', '*nat\n:KUBE-EXTRA - [0:0]\n');
    const after = ruleCounters(afterDump, svc, servicePort(p));
    const changes = compareCounters(before, after);
    const entry = changes.find((c) => c.counter.role === 'service');
    assert.equal(entry?.before, 5);
    assert.equal(entry?.after, 9);
    assert.equal(entry?.delta, 4);
    assert.notEqual(entry?.counter.line, before[0].line);
    const gone = compareCounters(
      before,
      ruleCounters(nodeDump(p, { eps: endpoints(p, true, ['10.42.9.9']) }), svc, servicePort(p)),
    );
    assert.ok(
      gone.some((c) => c.after === undefined && c.before !== undefined),
      'a rule only before keeps its count',
    );
  });
});
