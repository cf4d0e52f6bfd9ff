/**
 * The kube-proxy view keys chains and endpoints by name ids of the dump's name table. Its maps must still read
 * as maps by name (get, has, size, iteration in insertion order), asking must not add names, and a dump whose
 * rules are not in the rule store (an `iptables -L` listing) must give the same view through names added on use.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { buildModel } from '../../../src/core/iptables/model';
import { DumpNames, NameKeyedMap } from '../../../src/core/iptables/nameIdTable';
import { parseIptables } from '../../../src/core/iptables/parser';
import { NameTable } from '../../../src/core/iptables/ruleStore';
import { SERVICE_CHAIN_LISTING } from '../../helpers/dumps';

test('a name-keyed map reads as a ReadonlyMap by name, in insertion order', () => {
  const names = DumpNames.of(parseIptables('*nat\n:B - [0:0]\n:A - [0:0]\n-A A -j B\nCOMMIT'));
  const map = new NameKeyedMap<string>(names);
  map.setId(names.id('B'), 'second written first');
  map.setId(names.id('A'), 'a');
  map.setId(names.id('B'), 'b'); // a later value keeps the first position, as Map.set does
  assert.equal(map.size, 2);
  assert.deepEqual([...map.keys()], ['B', 'A']);
  assert.deepEqual([...map.values()], ['b', 'a']);
  assert.deepEqual(
    [...map],
    [
      ['B', 'b'],
      ['A', 'a'],
    ],
  );
  assert.deepEqual(
    new Map(map),
    new Map([
      ['B', 'b'],
      ['A', 'a'],
    ]),
  );
  const seen: string[] = [];
  map.forEach((v, k, m) => {
    assert.equal(m, map);
    seen.push(`${k}=${v}`);
  });
  assert.deepEqual(seen, ['B=b', 'A=a']);
  assert.equal(map.get('A'), 'a');
  assert.equal(map.has('B'), true);
  const before = names.count;
  assert.equal(map.get('NOT-A-CHAIN'), undefined);
  assert.equal(map.has('NOT-A-CHAIN'), false);
  assert.equal(names.count, before, 'asking for a name does not add it');
});

test('a listing (rules outside the rule store) gives the kube view by names added on use', () => {
  const text = [
    'Chain KUBE-SERVICES (2 references)',
    ' pkts bytes target     prot opt in     out     source               destination',
    '    0     0 KUBE-SVC-ABC  tcp  --  *      *       0.0.0.0/0            10.96.0.10           /* ns/web:http cluster IP */ tcp dpt:80',
    '',
    ...SERVICE_CHAIN_LISTING,
  ].join('\n');
  const m = buildModel(parseIptables(text));
  assert.equal(m.dump.rules[0].chainNameId, undefined, 'listing rows are not rules of the store');
  assert.equal(m.kube.services.length, 1);
  const s = m.kube.services[0];
  assert.deepEqual(
    [s.name, s.clusterIP, s.port, s.protocol, s.chain],
    ['ns/web:http', '10.96.0.10', 80, 'tcp', 'KUBE-SVC-ABC'],
  );
  assert.deepEqual(
    s.endpoints.map((e) => [e.chain, e.ip, e.port, e.share]),
    [
      ['KUBE-SEP-1', '10.0.0.1', 80, 0.5],
      ['KUBE-SEP-2', '10.0.0.2', 80, 0.5],
    ],
  );
  assert.equal(m.kube.serviceByChain.get('KUBE-SVC-ABC'), s);
  const entry = m.kube.endpointByChain.get('KUBE-SEP-1');
  assert.equal(entry?.service, s);
  assert.equal(entry?.endpoint, s.endpoints[0]);
  assert.equal(entry?.endpoint.dnatLine, 11);
  assert.deepEqual([...m.kube.endpointByChain.keys()], ['KUBE-SEP-1', 'KUBE-SEP-2']);
});

test('the name table gives one id per distinct name, short or long, in any characters, read from text or given', () => {
  fc.assert(
    fc.property(
      // The empty name too (`--comment ""`): its hash once failed to match its own slot and added it on every ask.
      fc.array(
        fc.array(fc.constantFrom('a', 'b', '-', 'K', 'é', 'ÿ', 'Ā', '中', ' '), { minLength: 0, maxLength: 14 }),
        {
          maxLength: 40,
        },
      ),
      (parts) => {
        const words = parts.map((p) => p.join(''));
        const text = `#${words.join('|')}#`;
        const table = new NameTable(1);
        const ids = new Map<string, number>();
        let at = 1;
        for (const w of words) {
          // Each word once from the text, once as a string of its own: both are the same name.
          const id = table.idOf(text, at, at + w.length);
          assert.equal(table.names[id], w);
          assert.equal(table.idOf(w, 0, w.length), id);
          assert.equal(table.find(w), id);
          if (ids.has(w)) assert.equal(id, ids.get(w));
          else assert.ok(![...ids.values()].includes(id), `${JSON.stringify(w)} took another name's id`);
          ids.set(w, id);
          at += w.length + 1;
        }
        assert.equal(table.names.length, ids.size);
      },
    ),
    { numRuns: 300 },
  );
});

test('names that differ in one character, at any position, are different names', () => {
  const table = new NameTable();
  const names = new Set<string>();
  for (let len = 1; len <= 13; len++) {
    const base = 'KUBE-SEP-ABCDE'.slice(0, len);
    names.add(base);
    for (let at = 0; at < len; at++)
      for (const c of ['z', 'é', 'Ā']) names.add(base.slice(0, at) + c + base.slice(at + 1));
  }
  const ids = [...names].map((n) => table.idOf(` ${n} `, 1, n.length + 1));
  assert.equal(new Set(ids).size, names.size);
  assert.deepEqual(
    ids.map((id) => table.names[id]),
    [...names],
  );
  assert.deepEqual(
    [...names].map((n) => table.idOf(n, 0, n.length)),
    ids,
  );
});
