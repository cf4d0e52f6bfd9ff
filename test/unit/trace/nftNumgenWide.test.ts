/**
 * kube-proxy's nftables mode picks a Service's endpoint with one rule, `numgen random mod N vmap { 0 : goto e0,
 * ... }`. Each of the N paths used to show that whole rule on its fork and goto steps, so a trace grew with N²
 * (34 MB of JSON at N = 1000; "Invalid string length" at N = 4000). A path shows the rule cut to the element it
 * took; a narrow rule is shown whole, as before. Sizes, not times, are asserted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseIptables } from '../../../src/core/iptables/parser';
import { formatTraceTree, tracePacket, type TraceResult } from '../../../src/core/iptables/trace';
import { assertSumsToOne, TCP } from './helpers';

const endpointIp = (i: number) => `10.244.${(i >> 8) & 255}.${i & 255}`;

/** One Service with n endpoints as kube-proxy's nftables mode writes it. */
function numgenRuleset(n: number): string {
  const elements = Array.from({ length: n }, (_, i) => `${i} : goto endpoint-${i}`).join(', ');
  const out = [
    'table ip kube-proxy {',
    '\tchain nat-prerouting {',
    '\t\ttype nat hook prerouting priority dstnat; policy accept;',
    '\t\tip daddr 10.96.0.1 tcp dport 80 goto service-x',
    '\t}',
    '\tchain service-x {',
    `\t\tnumgen random mod ${n} vmap { ${elements} }`,
    '\t}',
  ];
  for (let i = 0; i < n; i++)
    out.push(`\tchain endpoint-${i} {`, `\t\tmeta l4proto tcp dnat to ${endpointIp(i)}:80`, '\t}');
  out.push('}', '');
  return out.join('\n');
}

const traced = new Map<number, TraceResult>();
function traceService(n: number): TraceResult {
  let result = traced.get(n);
  if (!result) {
    result = tracePacket(parseIptables(numgenRuleset(n)), TCP('1.2.3.4', '10.96.0.1', 80));
    traced.set(n, result);
  }
  return result;
}

/** The rule text every step of the trace carries, shared steps once. */
function ruleChars(result: TraceResult): number {
  let chars = result.sharedSteps.reduce((a, s) => a + s.step.rule.length, 0);
  for (const p of result.paths) chars += p.ownSteps.reduce((a, s) => a + s.rule.length, 0);
  return chars;
}

describe('trace: an nft Service with many endpoints (numgen vmap)', () => {
  it('each path shows the numgen rule cut to the element it took, and the verdict and endpoint are right', () => {
    const n = 2000;
    const result = traceService(n);
    assert.equal(result.truncated, undefined);
    assert.equal(result.paths.length, n);
    assertSumsToOne(result);
    result.paths.forEach((p, k) => {
      assert.equal(p.verdict, 'ACCEPT');
      assert.deepEqual(p.dnat, { ip: endpointIp(k), port: 80 });
      const numgenSteps = p.steps.filter((s) => s.chain === 'service-x');
      assert.deepEqual(
        numgenSteps.map((s) => s.action),
        ['fork', 'goto'],
      );
      const first = k === 0 ? '' : '..., ';
      const last = k === n - 1 ? '' : ', ...';
      for (const s of numgenSteps) {
        assert.equal(s.line, 6);
        assert.equal(s.rule, `numgen random mod ${n} vmap { ${first}${k} : goto endpoint-${k}${last} }`);
      }
    });
  });

  it('grows linearly: twice the endpoints, about twice the rule text and the printed tree (English and Chinese)', () => {
    const small = traceService(1000);
    const big = traceService(2000);
    const ratio = ruleChars(big) / ruleChars(small);
    assert.ok(ratio < 2.5, `rule text grew ${ratio.toFixed(1)}x for 2x the endpoints`);
    for (const lang of ['en', 'zh-CN'] as const) {
      const textSmall = formatTraceTree(small, lang);
      const textBig = formatTraceTree(big, lang);
      assert.ok(textBig.length / textSmall.length < 2.5, `${lang}: tree grew ${textBig.length / textSmall.length}x`);
      assert.ok(textBig.length < 2000 * 1000, `${lang}: ${textBig.length} characters for 2000 paths`);
      assert.match(textBig, /\[fork\] numgen random mod 2000 vmap \{ \.\.\., 7 : goto endpoint-7, \.\.\. \}/);
    }
    assert.match(formatTraceTree(big, 'zh-CN'), /numgen random mod 2000 .*endpoint-7\b/);
  });

  it('a modulus far beyond its elements (nft allows up to 2^32 - 1) stops at the paths limit, not out of memory', () => {
    const text = numgenRuleset(2).replace('numgen random mod 2 ', 'numgen random mod 4294967295 ');
    const result = tracePacket(parseIptables(text), TCP('1.2.3.4', '10.96.0.1', 80));
    assert.equal(result.truncated?.reason, 'paths');
    assert.deepEqual(
      result.paths.map((p) => p.verdict),
      ['UNKNOWN'],
    );
  });

  it('a narrow numgen rule is shown whole on every path', () => {
    const result = traceService(3);
    const rule = 'numgen random mod 3 vmap { 0 : goto endpoint-0, 1 : goto endpoint-1, 2 : goto endpoint-2 }';
    for (const p of result.paths) {
      const numgenSteps = p.steps.filter((s) => s.chain === 'service-x');
      assert.equal(numgenSteps.length, 2);
      for (const s of numgenSteps) assert.equal(s.rule, rule);
    }
  });
});
