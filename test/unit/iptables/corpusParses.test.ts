import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import { corpusFile, corpusFiles, CORPUS_MISSING } from '../../helpers/corpus';

const files = corpusFiles('iptables');

test('every iptables corpus file parses and models without throwing', (t) => {
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  for (const f of files) {
    const m = buildModel(parseIptables(f.text));
    assert.ok(m.dump.lineCount > 0, f.name);
    for (const d of m.dump.diagnostics)
      assert.ok(d.span.line >= 0 && d.span.line < m.dump.lineCount, `${f.name}: ${d.code} at ${d.span.line}`);
  }
});

// Counts read off the files by hand (SOURCES.md lists the same rule and declaration counts).
const EXPECTED: Record<
  string,
  { format: string; rules: number; chains?: number; services?: number; tables?: string[] }
> = {
  '001': { format: 'iptables-save', rules: 44, chains: 25, services: 6, tables: ['filter', 'nat'] },
  '019': { format: 'iptables-save', rules: 62, services: 8 },
  '023': { format: 'iptables-save', rules: 85, chains: 37, services: 3 },
  '029': { format: 'iptables-S', rules: 73, services: 9 },
  '037': { format: 'iptables-save', rules: 71, chains: 46, tables: ['mangle', 'filter', 'nat'] },
  '091': { format: 'iptables-save', rules: 61, chains: 26, services: 6, tables: ['filter', 'nat'] },
  '007': { format: 'rule-lines', rules: 8, services: 4 },
};

for (const [prefix, want] of Object.entries(EXPECTED)) {
  test(`corpus ${prefix}: format, counts and services`, (t) => {
    const text = corpusFile('iptables', prefix);
    if (!text) return t.skip(CORPUS_MISSING);
    const m = buildModel(parseIptables(text));
    assert.equal(m.dump.format, want.format);
    assert.equal(m.dump.rules.length, want.rules);
    if (want.chains !== undefined)
      assert.equal(
        m.dump.tables.reduce((n, x) => n + x.chains.size, 0),
        want.chains,
      );
    if (want.services !== undefined) assert.equal(m.kube.services.length, want.services);
    if (want.tables)
      assert.deepEqual(
        m.dump.tables.map((x) => x.name),
        want.tables,
      );
  });
}

test('corpus 091 (kube-proxy fixture): Services, endpoints, shares and verified hashes', (t) => {
  const text = corpusFile('iptables', '091');
  if (!text) return t.skip(CORPUS_MISSING);
  const m = buildModel(parseIptables(text));
  const byName = new Map(m.kube.services.map((s) => [s.name, s]));
  const svc4 = byName.get('ns4/svc4:p80')!;
  assert.equal(svc4.clusterIP, '172.30.0.44');
  assert.equal(svc4.chain, 'KUBE-SVC-4SW47YFZTEDKD3PK');
  assert.equal(svc4.hashVerified, true);
  assert.deepEqual(svc4.externalIPs, ['192.168.99.33']);
  assert.deepEqual(
    svc4.endpoints.map((e) => [e.ip, e.port, e.share, e.hashVerified]),
    [
      ['10.180.0.4', 80, 0.5, true],
      ['10.180.0.5', 80, 0.5, true],
    ],
  );
  const svc2 = byName.get('ns2/svc2:p80')!;
  assert.equal(svc2.nodePort, 3001);
  assert.deepEqual(svc2.loadBalancerIPs, ['1.2.3.4']);
  assert.equal(svc2.trafficPolicy, 'Local');
  assert.equal(byName.get('ns6/svc6:p80')!.noEndpoints, true);
  assert.ok(m.kube.services.filter((s) => s.chain).every((s) => s.hashVerified === true));
});

test('corpus 051 (terminal-wrapped paste): the split target is joined', (t) => {
  const text = corpusFile('iptables', '051');
  if (!text) return t.skip(CORPUS_MISSING);
  const d = parseIptables(text);
  assert.ok(d.rules.some((r) => r.chain === 'POSTROUTING' && r.target?.name === 'KUBE-POSTROUTING'));
});

test('property: mutated corpus text never throws', (t) => {
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: files.length - 1 }),
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.nat(),
          fc.constantFrom('delete', 'insert', 'truncate', 'dup'),
          fc.string({ maxLength: 8 }),
        ),
        { maxLength: 12 },
      ),
      (fileIndex, edits) => {
        const lines = files[fileIndex].text.split('\n');
        for (const [li, col, kind, s] of edits) {
          const i = li % lines.length;
          const l = lines[i];
          const c = l.length ? col % l.length : 0;
          if (kind === 'delete') lines[i] = l.slice(0, c) + l.slice(c + 1);
          else if (kind === 'insert') lines[i] = l.slice(0, c) + s + l.slice(c);
          else if (kind === 'truncate') lines[i] = l.slice(0, c);
          else lines.splice(i, 0, l);
        }
        const m = buildModel(parseIptables(lines.join('\n')));
        assert.ok(Array.isArray(m.kube.services));
      },
    ),
    { numRuns: 300 },
  );
});
