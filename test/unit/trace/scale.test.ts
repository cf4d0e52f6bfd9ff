/**
 * A trace's size grows with a Service's endpoints, not with their square (issue #29, "Never hang"): paths share
 * the steps they have in common, a load-balancing ladder's rules a path skipped are one step, and the limits that
 * stop a trace early say so. Dumps come from the project's own generator; sizes, not times, are asserted (the
 * times are in `npm run bench`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import {
  formatTraceTree,
  tracePacket,
  type Packet,
  type TraceOptions,
  type TraceResult,
} from '../../../src/core/iptables/trace';
import type { IptablesDump } from '../../../src/core/iptables/dump';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';
import { assertSumsToOne } from './helpers';

interface ServiceDump {
  dump: IptablesDump;
  packet: Packet;
  /** `ip:port` of each endpoint, in the order of the Service chain's ladder. */
  endpoints: string[];
  svcChain: string;
}

const made = new Map<number, ServiceDump>();

/** One ClusterIP Service with n endpoints, as kube-proxy writes it; a pod of another node sends to it. */
function serviceDump(n: number): ServiceDump {
  const cached = made.get(n);
  if (cached) return cached;
  const snapshot = normaliseCluster(syntheticCluster({ services: 1, endpointsPerService: n }));
  const dump = parseIptables(
    generateIptablesRestore(snapshot, { clusterCidr: '10.128.0.0/9', largeClusterMode: false }).text,
  );
  const s = buildModel(dump).kube.services[0];
  assert.equal(s.endpoints.length, n);
  const out: ServiceDump = {
    dump,
    packet: {
      src: '10.250.0.5',
      dst: s.clusterIP!,
      dport: s.port!,
      proto: 'tcp',
      hook: 'prerouting',
      localAddresses: ['192.168.0.2'],
    },
    endpoints: s.endpoints.map((e) => `${e.ip}:${e.port}`),
    svcChain: s.chain!,
  };
  made.set(n, out);
  return out;
}

function trace(n: number, options: TraceOptions = {}): TraceResult {
  const d = serviceDump(n);
  return tracePacket(d.dump, d.packet, options);
}

/** Steps the result holds: each shared step once, plus every path's own. */
function storedSteps(r: TraceResult): number {
  return r.sharedSteps.length + r.paths.reduce((a, p) => a + p.ownSteps.length, 0);
}

describe('trace: a Service with many endpoints', () => {
  it('costs linearly: four times the endpoints, about four times the answer', () => {
    const small = trace(50);
    const large = trace(200);
    assert.equal(small.paths.length, 50);
    assert.equal(large.paths.length, 200);
    // What a face serialises (paths' own steps and the shared ones; `steps` is built only when read).
    const ratio = JSON.stringify(large).length / JSON.stringify(small).length;
    assert.ok(ratio < 5, `answer grew ${ratio.toFixed(2)}x for 4x the endpoints`);
    const stepRatio = storedSteps(large) / storedSteps(small);
    assert.ok(stepRatio < 5, `steps grew ${stepRatio.toFixed(2)}x`);
    const text = formatTraceTree(large).length / formatTraceTree(small).length;
    assert.ok(text < 5, `the readable tree grew ${text.toFixed(2)}x`);
  });

  it('each path is bounded: the ladder rules it skipped are one step', () => {
    const r = trace(200);
    const { svcChain } = serviceDump(200);
    const longest = Math.max(...r.paths.map((p) => p.steps.length));
    assert.ok(
      longest <= trace(2).paths.reduce((a, p) => Math.max(a, p.steps.length), 0) + 1,
      `a path has ${longest} steps`,
    );
    r.paths.forEach((p, k) => {
      const skips = p.steps.filter(
        (s) => s.chain === svcChain && s.action === 'fork' && s.noteMessage?.code.startsWith('note.random-not-taken'),
      );
      if (k === 0) return assert.equal(skips.length, 0);
      assert.equal(skips.length, 1, `path ${k}`);
      // The one step stands for the k rules before this endpoint's, lines first..last.
      assert.equal(skips[0].skipped?.count ?? 1, k);
      if (k > 1) assert.equal(skips[0].skipped!.lastLine - skips[0].line, k - 1);
    });
  });

  it('keeps the meaning: probabilities sum to 1, each path DNATs to its own endpoint, 1/n each', () => {
    const n = 300;
    const r = trace(n);
    assertSumsToOne(r);
    assert.equal(r.truncated, undefined);
    assert.deepEqual(
      r.paths.map((p) => (p.dnat ? `${p.dnat.ip}:${p.dnat.port}` : p.verdict)),
      serviceDump(n).endpoints,
    );
    for (const p of r.paths) assert.ok(Math.abs(p.probability - 1 / n) < 1e-9, String(p.probability));
    // Every path's walk still starts at PREROUTING and passes the Service's chain.
    for (const p of r.paths) {
      assert.equal(p.steps[0].chain, 'PREROUTING');
      assert.ok(p.steps.some((s) => s.chain === serviceDump(n).svcChain && s.action === 'jump'));
    }
  });

  it('the shared tree rebuilds every path: parents come first, a path leaves it at its prefix', () => {
    const r = trace(40);
    r.sharedSteps.forEach((s, i) => assert.ok(s.parent < i, `shared step ${i} after its parent ${s.parent}`));
    const users = new Array<number>(r.sharedSteps.length).fill(0);
    for (const p of r.paths) {
      const head = [];
      for (let i = p.prefix; i >= 0; i = r.sharedSteps[i].parent) {
        head.push(r.sharedSteps[i].step);
        users[i]++;
      }
      assert.deepEqual([...head.reverse(), ...p.ownSteps], p.steps);
    }
    assert.ok(
      users.every((u) => u >= 2),
      'a shared step is taken by two paths at least',
    );
  });

  it('a 5,000-endpoint Service traces whole with the default limits', () => {
    const r = trace(5000);
    assert.equal(r.paths.length, 5000);
    assert.equal(r.truncated, undefined);
    assert.ok(r.paths.every((p) => p.verdict === 'ACCEPT' && p.dnat));
    assertSumsToOne(r);
    assert.ok(storedSteps(r) < 30 * 5000, `${storedSteps(r)} steps`);
  });

  it('any ladder: sum 1, one path per endpoint, steps linear in n (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120 }), (n) => {
        const r = trace(n);
        assertSumsToOne(r);
        assert.equal(r.paths.length, n);
        assert.ok(storedSteps(r) <= 20 * n + 20, `${storedSteps(r)} steps for ${n} endpoints`);
      }),
      { numRuns: 15 },
    );
  });
});

describe('trace: limits stop a trace early and say so', () => {
  const unknown = (r: TraceResult) => r.paths.filter((p) => p.verdict === 'UNKNOWN');

  it('paths: forking stops, the rest of the ladder is one UNKNOWN path, the sum stays 1', () => {
    const r = trace(100, { maxPaths: 10 });
    assertSumsToOne(r);
    assert.ok(r.paths.length <= 10);
    assert.equal(r.truncated?.reason, 'paths');
    assert.equal(r.truncated?.limit, 10);
    assert.equal(r.truncated?.paths, unknown(r).length);
    assert.ok(Math.abs(r.truncated!.probability - unknown(r).reduce((a, p) => a + p.probability, 0)) < 1e-12);
    assert.match(r.truncated!.message, /stopped forking at 10 paths/);
    assert.ok(r.warnings.includes(r.truncated!.message), 'the faces that show warnings show it');
    const zh = trace(100, { maxPaths: 10, lang: 'zh-CN' });
    assert.match(zh.truncated!.message, /追踪在 10 条路径处停止分叉/);
  });

  it('steps: a trace that records too many steps stops, every unfinished path UNKNOWN', () => {
    const r = trace(100, { maxSteps: 300 });
    assertSumsToOne(r);
    assert.equal(r.truncated?.reason, 'steps');
    assert.ok(storedSteps(r) < 340, `${storedSteps(r)} steps kept`);
    assert.ok(unknown(r).length >= 1);
    assert.equal(r.truncated?.messageCode.code, 'truncated.steps');
  });

  it('evaluations: the rule budget ends the trace', () => {
    const r = trace(100, { maxEvaluations: 500 });
    assertSumsToOne(r);
    assert.equal(r.truncated?.reason, 'evaluations');
    assert.equal(r.truncated?.paths, unknown(r).length);
  });

  it('time: past the budget by the clock given, the trace ends (a fake clock, no waiting)', () => {
    let clock = 0;
    const now = () => (clock += 300);
    const r = trace(100, { maxMillis: 1000, now });
    assertSumsToOne(r);
    assert.equal(r.truncated?.reason, 'time');
    assert.ok(
      r.paths.some((p) => p.verdict === 'ACCEPT'),
      'what was walked before the budget ran out is kept',
    );
    assert.match(r.truncated!.message, /stopped after 1000 ms/);
    assert.match(
      tracePacket(serviceDump(100).dump, serviceDump(100).packet, {
        maxMillis: 1000,
        now: () => (clock += 300),
        lang: 'zh-CN',
      }).truncated!.message,
      /1000 毫秒后停止/,
    );
    // With a clock that does not move, nothing is cut.
    assert.equal(trace(100, { maxMillis: 1000, now: () => 0 }).truncated, undefined);
  });

  it('the readable tree ends with the reason', () => {
    const text = formatTraceTree(trace(100, { maxPaths: 10 }), 'en');
    assert.match(text, /warning: The trace stopped forking at 10 paths/);
  });
});
