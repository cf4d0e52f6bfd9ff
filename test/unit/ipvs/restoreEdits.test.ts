/**
 * `ipvsadm -S` output and restore input that edit the table (-A, -a, -e, -d, -D, -C) leave it as ipvsadm would:
 * checked against a plain model of those commands over random sequences, and at a size where searching every
 * service and real server per line took minutes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIpvs } from '../../../src/core/ipvs';
import { Rng } from '../../helpers/mutate';

type Table = Map<string, Map<string, number>>; // service address -> real server address -> weight

function tableOf(text: string): [string, [string, number][]][] {
  return parseIpvs(text).services.map((s) => [
    s.address!,
    s.realServers.map((r): [string, number] => [r.address, r.weight ?? 1]),
  ]);
}

function modelOf(table: Table): [string, [string, number][]][] {
  return [...table].map(([vip, reals]) => [vip, [...reals]]);
}

test('restore edits match a model of the table over random sequences', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const rng = new Rng(seed);
    const pick = (n: number) => rng.int(n);
    const table: Table = new Map();
    const lines: string[] = [];
    let unknown = 0;
    for (let step = 0; step < 60; step++) {
      const vip = `10.96.0.${pick(4)}`;
      const real = `10.0.0.${pick(6)}`;
      const weight = pick(5);
      const reals = table.get(vip);
      const kind = pick(20);
      if (kind < 4) {
        if (reals) continue; // a second -A of a live service is a copy (two listings in a paste): not modelled
        lines.push(`-A -t ${vip}:80 -s rr`);
        table.set(vip, new Map());
      } else if (kind < 10) {
        if (!reals || reals.has(real)) continue;
        lines.push(`-a -t ${vip}:80 -r ${real}:8080 -m -w ${weight}`);
        reals.set(real, weight);
      } else if (kind < 13) {
        lines.push(`-e -t ${vip}:80 -r ${real}:8080 -m -w ${weight}`);
        if (reals?.has(real)) reals.set(real, weight);
        else unknown++;
      } else if (kind < 17) {
        lines.push(`-d -t ${vip}:80 -r ${real}:8080`);
        if (reals?.has(real)) reals.delete(real);
        else unknown++;
      } else if (kind < 19) {
        lines.push(`-D -t ${vip}:80`);
        if (reals) table.delete(vip);
        else unknown++;
      } else {
        lines.push('-C');
        table.clear();
      }
    }
    const text = lines.join('\n');
    assert.deepEqual(tableOf(text), modelOf(table), `seed ${seed}:\n${text}`);
    const refused = parseIpvs(text).diagnostics.filter((d) => /unknown/.test(d.code)).length;
    assert.equal(refused, unknown, `seed ${seed}: refused edits\n${text}`);
  }
});

test('thousands of real servers added, edited and deleted one line each leave the right ones', () => {
  const n = 6000;
  const real = (i: number) => `10.1.${i >> 8}.${i & 255}`;
  const lines = ['-A -t 10.96.0.1:443 -s rr'];
  for (let i = 0; i < n; i++) lines.push(`-a -t 10.96.0.1:443 -r ${real(i)}:6443 -m -w 1`);
  for (let i = 0; i < n; i += 2) lines.push(`-e -t 10.96.0.1:443 -r ${real(i)}:6443 -m -w 3`);
  for (let i = n - 1; i >= 0; i -= 3) lines.push(`-d -t 10.96.0.1:443 -r ${real(i)}:6443`);
  const dump = parseIpvs(lines.join('\n'));
  const left = Array.from({ length: n }, (_, i) => i).filter((i) => (n - 1 - i) % 3 !== 0);
  assert.deepEqual(
    dump.services[0].realServers.map((r) => [r.address, r.weight]),
    left.map((i) => [real(i), i % 2 === 0 ? 3 : 1]),
  );
  assert.equal(dump.diagnostics.length, 0);
});
