/**
 * Restore input and scripts that edit chains (-I, -D by rule or number, -R, -F, -E) leave each chain as iptables
 * would: checked against a plain list model of those commands over random sequences, with rules written alike
 * (deletes match the first), jumps between the chains (a rename changes their text), specs spaced differently and
 * counters written before a rule.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIptables } from '../../../src/core/iptables/parser';
import { type Rule, ruleComparableText, ruleTargetName } from '../../../src/core/iptables/dump';

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
    let made = 0;
    const lines = ['*filter', ':X - [0:0]', ':Y - [0:0]'];
    for (let step = 0; step < 80; step++) {
      const names = [...chains.keys()];
      const name = names[pick(names.length)];
      const rules = chains.get(name)!;
      const others = names.filter((n) => n !== name);
      const spec = pick(4) === 0 ? `-j ${others[pick(others.length)]}` : SPECS[pick(SPECS.length)];
      if (pick(12) === 0) {
        // -N and -X: chains made after a rename go after it, as iptables lists them.
        const jumpedTo = [...chains.values()].some((list) => list.includes(`-j ${name}`));
        if (pick(2) === 0 && names.length > 2 && rules.length === 0 && !jumpedTo) {
          lines.push(`-X ${name}`);
          chains.delete(name);
        } else {
          const chain = `N${++made}`;
          lines.push(`-N ${chain}`);
          chains.set(chain, []);
        }
        continue;
      }
      // Written with extra spaces now and then: -D compares rules as iptables does, not as typed.
      const written = pick(5) === 0 ? spec.replace(/ /g, '  ') : spec;
      const kind = pick(20);
      if (kind < 8) {
        // Now and then with counters before it, as iptables-save -c writes them (no part of what -D compares).
        lines.push(`${pick(6) === 0 ? `[${pick(9)}:${pick(999)}] ` : ''}-A ${name} ${written}`);
        rules.push(spec);
      } else if (kind < 10) {
        // Runs of inserts at one place (a ban list written `-I INPUT 1 ...` per address) go in as a block; so do
        // runs at rising places (`-I INPUT 1`, `-I INPUT 2`, ...) and at each place twice (1, 1, 2, 2, ...).
        const run = pick(3) === 0 ? 1 + pick(6) : 1;
        const at = 1 + pick(rules.length + 1);
        const shape = pick(3);
        const place = (from: number, k: number) => (shape === 0 ? from : shape === 1 ? from + k : from + (k >> 1));
        // Now and then in turn with another chain's run (a ban list written for INPUT and FORWARD alike).
        const other = pick(2) === 0 ? others[pick(others.length)] : undefined;
        const otherRules = other === undefined ? undefined : chains.get(other)!;
        const otherAt = otherRules ? 1 + pick(otherRules.length + 1) : 0;
        for (let k = 0; k < run; k++) {
          const inserted = k === 0 ? written : SPECS[pick(SPECS.length)];
          lines.push(`-I ${name} ${place(at, k)} ${inserted}`);
          rules.splice(place(at, k) - 1, 0, k === 0 ? spec : inserted);
          if (!otherRules) continue;
          const theirs = SPECS[pick(SPECS.length)];
          lines.push(`-I ${other} ${place(otherAt, k)} ${theirs}`);
          otherRules.splice(place(otherAt, k) - 1, 0, theirs);
        }
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
    // The same edits as a shell script of iptables commands (no counters there) leave the same chains.
    const script = lines
      .filter((l) => l !== '*filter' && l !== 'COMMIT' && l !== '')
      .map((l) => `iptables -t filter ${l.replace(/^:(\S+) .*/, '-N $1').replace(/^\[\d+:\d+\] /, '')}`);
    for (const text of [lines.join('\n'), ['#!/bin/sh', ...script, ''].join('\n')]) {
      const dump = parseIptables(text);
      const filter = dump.tables.find((t) => t.name === 'filter')!;
      assert.deepEqual([...filter.chains.keys()], [...chains.keys()], `seed ${seed}: chain order\n${text}`);
      for (const [name, specs] of chains) {
        const chain = filter.chains.get(name);
        assert.ok(chain, `seed ${seed}: chain ${name}`);
        assert.deepEqual(
          chain.rules.map((r) => ruleComparableText(r)),
          specs.map((s) => `${name} ${s}`),
          `seed ${seed}, chain ${name}:\n${text}`,
        );
      }
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

test('thousands of renames each move the chain and every jump to it, and keep the chains in order', () => {
  // A rename once walked every chain and rule of the table: 20k renames ran for minutes.
  const n = 4000;
  const lines = ['*filter'];
  for (let i = 0; i < n; i++) lines.push(`:C${i} - [0:0]`);
  for (let i = 0; i < n; i++) lines.push(`-A C${(i + 1) % n} -s 10.2.${i >> 8}.${i & 255}/32 -j C${i}`);
  for (let i = 0; i < n; i++) lines.push(`-E C${i} D${i}`);
  lines.push(':LATER - [0:0]', '-A LATER -j D0', 'COMMIT', '');
  const dump = parseIptables(lines.join('\n'));
  const chains = dump.tables[0].chains;
  assert.deepEqual([...chains.keys()], [...Array.from({ length: n }, (_, i) => `D${i}`), 'LATER']);
  for (let i = 0; i < n; i++) {
    const rules = chains.get(`D${(i + 1) % n}`)!.rules;
    assert.equal(rules.length, 1);
    assert.equal(ruleTargetName(rules[0]), `D${i}`);
    assert.equal(rules[0].chain, `D${(i + 1) % n}`);
  }
  assert.equal(ruleTargetName(chains.get('LATER')!.rules[0]), 'D0');
});

test('a rule deleted or replaced before a rename keeps the name it jumped to; the ones in place follow it', () => {
  const dump = parseIptables(
    [
      '*filter',
      ':X - [0:0]',
      ':Y - [0:0]',
      '-A X -j Y',
      '-A X -s 10.0.0.1/32 -j Y',
      '-E Y Z',
      '-D X -s 10.0.0.1/32 -j Z',
      '-A X -d 10.0.0.2/32 -j Z',
      '-R X 2 -d 10.0.0.3/32 -j Z',
      '-E Z W',
      'COMMIT',
      '',
    ].join('\n'),
  );
  const targets = (rules: readonly Rule[]) => rules.map((r) => `${r.command} ${ruleTargetName(r)}`);
  assert.deepEqual(targets(dump.tables[0].chains.get('X')!.rules), ['append W', 'replace W']);
  assert.deepEqual(targets(dump.rules), ['append W', 'append Z', 'delete Z', 'append Z', 'replace W']);
});

test('a ban list inserted address by address at the top of INPUT reads last one first, in a script and in restore input', () => {
  // Each insert at the front once moved the whole chain: 80k of them took seconds.
  const n = 20000;
  const address = (i: number) => `10.3.${i >> 8}.${i & 255}`;
  const commands = Array.from({ length: n }, (_, i) => `-I INPUT 1 -s ${address(i)}/32 -j DROP`);
  const texts = [
    ['*filter', ':INPUT ACCEPT [0:0]', '-A INPUT -i lo -j ACCEPT', ...commands, 'COMMIT', ''],
    ['#!/bin/sh', 'iptables -A INPUT -i lo -j ACCEPT', ...commands.map((c) => `iptables ${c}`), ''],
  ];
  for (const lines of texts) {
    const rules = parseIptables(lines.join('\n')).tables[0].chains.get('INPUT')!.rules;
    assert.equal(rules.length, n + 1);
    assert.equal(ruleComparableText(rules[0]), `INPUT -s ${address(n - 1)}/32 -j DROP`);
    assert.equal(ruleComparableText(rules[n - 1]), `INPUT -s ${address(0)}/32 -j DROP`);
    assert.equal(ruleComparableText(rules[n]), 'INPUT -i lo -j ACCEPT');
  }
});
