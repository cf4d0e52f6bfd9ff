/**
 * Restore input and scripts that edit chains (-I, -D by rule or number, -R, -F, -E) leave each chain as iptables
 * would: checked against a plain list model of those commands over random sequences, with rules written alike
 * (deletes match the first), jumps between the chains (a rename changes their text), specs spaced differently and
 * counters written before a rule.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIptables } from '../../../src/core/iptables/parser';
import { ruleComparableText } from '../../../src/core/iptables/dump';

/** A small seeded generator: every run checks the same sequences. */
function random(seed: number): (n: number) => number {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

const SPECS = ['-s 10.0.0.1/32 -j ACCEPT', '-p tcp -m tcp --dport 80 -j DROP', '-d 10.96.0.1/32 -j RETURN'];

test('chain edits by rule and by number match a list model over random scripts (renames included)', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const pick = random(seed);
    // The model: chain name -> its rules' specs, in order.
    const chains = new Map<string, string[]>([
      ['X', []],
      ['Y', []],
    ]);
    let renames = 0;
    const lines = ['*filter', ':X - [0:0]', ':Y - [0:0]'];
    for (let step = 0; step < 80; step++) {
      const names = [...chains.keys()];
      const name = names[pick(names.length)];
      const rules = chains.get(name)!;
      const other = names.find((n) => n !== name)!;
      const spec = pick(4) === 0 ? `-j ${other}` : SPECS[pick(SPECS.length)];
      // Written with extra spaces now and then: -D compares rules as iptables does, not as typed.
      const written = pick(5) === 0 ? spec.replace(/ /g, '  ') : spec;
      const kind = pick(20);
      if (kind < 8) {
        // Now and then with counters before it, as iptables-save -c writes them (no part of what -D compares).
        lines.push(`${pick(6) === 0 ? `[${pick(9)}:${pick(999)}] ` : ''}-A ${name} ${written}`);
        rules.push(spec);
      } else if (kind < 10) {
        const at = 1 + pick(rules.length + 1);
        lines.push(`-I ${name} ${at} ${written}`);
        rules.splice(at - 1, 0, spec);
      } else if (kind < 15) {
        lines.push(`-D ${name} ${written}`);
        const at = rules.indexOf(spec);
        if (at >= 0) rules.splice(at, 1);
      } else if (kind < 17) {
        const at = 1 + pick(rules.length + 2);
        lines.push(`-D ${name} ${at}`);
        if (at <= rules.length) rules.splice(at - 1, 1);
      } else if (kind < 18) {
        const at = 1 + pick(rules.length + 2);
        lines.push(`-R ${name} ${at} ${written}`);
        if (at <= rules.length) rules[at - 1] = spec;
      } else if (kind < 19) {
        lines.push(`-F ${name}`);
        rules.length = 0;
      } else {
        // -E: the chain keeps its rules under the new name, and the jumps to it follow.
        const to = `R${++renames}`;
        lines.push(`-E ${name} ${to}`);
        const renamed = new Map<string, string[]>();
        for (const [n, list] of chains)
          renamed.set(
            n === name ? to : n,
            list.map((s) => (s === `-j ${name}` ? `-j ${to}` : s)),
          );
        chains.clear();
        for (const [n, list] of renamed) chains.set(n, list);
      }
    }
    lines.push('COMMIT', '');
    const dump = parseIptables(lines.join('\n'));
    const filter = dump.tables.find((t) => t.name === 'filter')!;
    for (const [name, specs] of chains) {
      const chain = filter.chains.get(name);
      assert.ok(chain, `seed ${seed}: chain ${name}`);
      assert.deepEqual(
        chain.rules.map((r) => ruleComparableText(r)),
        specs.map((s) => `${name} ${s}`),
        `seed ${seed}, chain ${name}:\n${lines.join('\n')}`,
      );
    }
  }
});

test('deleting thousands of rules last-first leaves the chain empty, each delete applied', () => {
  const n = 3000;
  const rule = (i: number) => `-s 10.1.${i >> 8}.${i & 255}/32 -j ACCEPT`;
  const lines = ['*filter', ':X - [0:0]'];
  for (let i = 0; i < n; i++) lines.push(`-A X ${rule(i)}`);
  for (let i = n - 1; i >= 0; i -= 2) lines.push(`-D X ${rule(i)}`);
  lines.push('COMMIT', '');
  const dump = parseIptables(lines.join('\n'));
  const chain = dump.tables[0].chains.get('X')!;
  assert.equal(chain.rules.length, n / 2);
  assert.deepEqual(
    chain.rules.slice(0, 3).map((r) => ruleComparableText(r)),
    [0, 2, 4].map((i) => `X ${rule(i)}`),
  );
  assert.ok(!dump.diagnostics.some((d) => d.code === 'delete-no-match'));
});
