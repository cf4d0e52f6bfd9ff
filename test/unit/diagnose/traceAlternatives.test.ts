// The trace in a verdict forks on facts a node dump cannot decide (the interface a packet came in on, an ipset the
// dump does not list, whether an address is the node's): such a fork is two alternatives, not two paths the packet
// takes, so the shares of the endpoints are not added up across them. Dumps from the project's generator with rules
// written here as Calico and firewalls write them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gatherFacts } from '../../../src/core/diagnose/verdict';
import { both, calicoPod, connects, dnsOk, evidence, nodeDump, PLANS, scenario, type AddressPlan } from './fixtures';

/** Adds chain declarations and rules to one table of an iptables-save dump (before its COMMIT). */
function withRules(dump: string, table: 'nat' | 'filter', chains: string[], rules: string[], first = false): string {
  const start = dump.indexOf(`*${table}\n`);
  const end = dump.indexOf('\nCOMMIT', start);
  assert.ok(start >= 0 && end > start, `the dump has a ${table} table`);
  const head = dump.slice(0, start + table.length + 2);
  let body = dump.slice(start + table.length + 2, end);
  const declared = chains.map((c) => `:${c} - [0:0]`);
  const counted = rules.map((r) => `[0:0] ${r}`);
  if (first) {
    // Before kube-proxy's own jump from the built-in chain, as Calico inserts its chains.
    const at = body.search(/^(\[\d+:\d+\] )?-A /m);
    body = `${body.slice(0, at)}${counted.join('\n')}\n${body.slice(at)}`;
    return `${head}${declared.join('\n')}\n${body}${dump.slice(end)}`;
  }
  return `${head}${declared.join('\n')}\n${body}\n${counted.join('\n')}${dump.slice(end)}`;
}

/** Calico's nat PREROUTING hook: a jump only for packets from its interfaces, a chain that returns. */
function calicoNat(dump: string): string {
  return withRules(
    dump,
    'nat',
    ['cali-PREROUTING', 'cali-fip-dnat'],
    [
      '-A PREROUTING -m comment --comment "cali:6gwbT8clXdHdC1b1" -i cali+ -j cali-PREROUTING',
      '-A cali-PREROUTING -m comment --comment "cali:r6XmIziWUJsdOK6Z" -j cali-fip-dnat',
    ],
    true,
  );
}

const percent = /(\d+(?:\.\d+)?)%/g;

function sharesIn(text: string): number[] {
  return [...text.matchAll(percent)].map((m) => Number(m[1]));
}

function traceInput(p: AddressPlan, edit: (dump: string) => string) {
  return scenario({
    plan: p,
    outputs: { ...calicoPod(p), ...connects(p, 'timeout', 'ok'), ...dnsOk(p) },
    nodeEvidence: evidence(p, edit(nodeDump(p, { svcPackets: 0 })), edit(nodeDump(p, { svcPackets: 1 }))),
  });
}

describe("the trace's shares in a verdict", () => {
  for (const p of PLANS) {
    const even = Number(((1 / p.endpoints.length) * 100).toFixed(1));

    test(`plan ${p.name}: a fork on the interface that ends alike is one outcome, each endpoint 1/n`, () => {
      const input = traceInput(p, calicoNat);
      const { en, zh } = both(input);
      const line = en.evidence.find((e) => e.source === 'trace');
      assert.ok(line, JSON.stringify(en.evidence));
      assert.deepEqual(
        sharesIn(line.text),
        p.endpoints.map(() => even),
        line.text,
      );
      assert.ok(!/\bif\b/.test(line.text), line.text);
      const zhLine = zh.evidence.find((e) => e.source === 'trace');
      assert.deepEqual(
        sharesIn(zhLine!.text),
        p.endpoints.map(() => even),
        zhLine!.text,
      );
      const facts = gatherFacts(input);
      assert.equal(facts.trace.alternatives, undefined);
      assert.ok(Math.abs(facts.trace.dnat.reduce((s, d) => s + d.share, 0) - 1) < 1e-9);
    });

    test(`plan ${p.name}: alternatives that end differently are said apart, each under its condition`, () => {
      // A firewall's ipset the dump does not list: members are blocked, others pass.
      const rule = '-A FORWARD -m set --match-set blocked-clients src -j REJECT --reject-with icmp-port-unreachable';
      const input = traceInput(p, (d) => withRules(d, 'filter', [], [rule]));
      const { en, zh } = both(input);
      const traced = en.evidence.filter((e) => e.source === 'trace' && /^Traced /.test(e.text));
      assert.equal(traced.length, 2, JSON.stringify(en.evidence));
      const inSet = traced.find((e) => /if .+ is in ipset blocked-clients/.test(e.text));
      const notInSet = traced.find((e) => /if .+ is not in ipset blocked-clients/.test(e.text));
      assert.ok(inSet && notInSet, JSON.stringify(traced));
      for (const e of traced)
        assert.deepEqual(
          sharesIn(e.text),
          p.endpoints.map(() => even),
          e.text,
        );
      // The REJECT is said under the alternative it belongs to, with that alternative's shares.
      const stops = en.evidence.filter((e) => /not a kube-proxy rule/.test(e.text));
      assert.ok(
        stops.length > 0 && stops.every((e) => /is in ipset blocked-clients/.test(e.text)),
        JSON.stringify(stops),
      );
      for (const s of stops) assert.deepEqual(sharesIn(s.text), [even], s.text);
      for (const e of [...en.evidence, ...zh.evidence])
        assert.ok(
          sharesIn(e.text).every((s) => s <= 100),
          e.text,
        );
      const zhTraced = zh.evidence.filter((e) => e.source === 'trace' && /^在节点/.test(e.text));
      assert.ok(
        zhTraced.some((e) => /若 .+ 在 ipset blocked-clients 中/.test(e.text)),
        JSON.stringify(zhTraced),
      );
      assert.ok(
        zhTraced.some((e) => /若 .+ 不在 ipset blocked-clients 中/.test(e.text)),
        JSON.stringify(zhTraced),
      );
      const facts = gatherFacts(input);
      assert.equal(facts.trace.alternatives?.length, 2);
      for (const d of facts.trace.dnat) assert.ok(Math.abs(d.share - 1 / p.endpoints.length) < 1e-9);
    });

    test(`plan ${p.name}: past four alternatives, the rest are counted`, () => {
      // Each set's members are rejected by their own rule: five ways the packet can end.
      const rules = [1, 2, 3, 4].map((n) => `-A FORWARD -m set --match-set deny-${n} src -j REJECT`);
      const { en, zh } = both(traceInput(p, (d) => withRules(d, 'filter', [], rules)));
      assert.equal(en.evidence.filter((e) => /^Traced .*, if /.test(e.text)).length, 4);
      assert.ok(
        en.evidence.some(
          (e) => e.text === 'One more alternative of the trace (a side of facts the dump cannot decide) is not shown.',
        ),
      );
      assert.ok(zh.evidence.some((e) => e.text === '追踪还有 1 个分支（转储无法判定的条件的不同取值）未列出。'));
    });

    test(`plan ${p.name}: "is this address the node's": its addresses decide; unknown, the alternatives end alike`, () => {
      // Docker's hook on a node: only packets for the node's own addresses go to its chain, which returns.
      const docker = (d: string) =>
        withRules(
          d,
          'nat',
          ['DOCKER'],
          ['-A PREROUTING -m addrtype --dst-type LOCAL -j DOCKER', '-A DOCKER -i docker0 -j RETURN'],
          true,
        );
      const known = gatherFacts(traceInput(p, docker));
      const input = traceInput(p, docker);
      delete input.node;
      delete input.nodeEvidence!.addresses;
      const unknown = gatherFacts(input);
      for (const facts of [known, unknown]) {
        assert.equal(facts.trace.alternatives, undefined);
        assert.deepEqual(
          facts.trace.dnat.map((d) => Number((d.share * 100).toFixed(1))),
          p.endpoints.map(() => even),
        );
      }
      const line = both(input).en.evidence.find((e) => e.source === 'trace');
      assert.deepEqual(
        sharesIn(line!.text),
        p.endpoints.map(() => even),
        line!.text,
      );
    });
  }
});
