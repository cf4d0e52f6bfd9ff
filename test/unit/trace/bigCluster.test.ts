/**
 * Tracing a big cluster: 10k Services x 5 endpoints in kube-proxy's shape, about 170k rules, built directly (not
 * parsed). What is proven is that the index finds every Service's endpoints within a few rule evaluations; how
 * fast a trace is belongs to `npm run bench` ("trace median / p95"), not to a test.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Chain, IptablesDump, Match, OptionArg, Rule, Table, Target } from '../../../src/core/iptables/dump';
import { tracePacket } from '../../../src/core/iptables/trace';
import { assertSumsToOne } from './helpers';

const SERVICES = 10_000;
const ENDPOINTS = 5;
const NO_SPAN = { line: 0, column: 0, length: 0 };

const opt = (name: string, value?: string, negated = false): OptionArg => ({
  name,
  written: `--${name}`,
  values: value === undefined ? [] : [value],
  negated,
  span: NO_SPAN,
  valueSpans: [],
});
const mod = (module: string, ...options: OptionArg[]): Match => ({ module, options });
const jump = (name: string, ...options: OptionArg[]): Target => ({ name, kind: 'jump', span: NO_SPAN, options });

class DumpBuilder {
  readonly rules: Rule[] = [];
  readonly tables = new Map<string, Table>();
  private line = 0;

  chain(table: string, name: string, policy?: string): Chain {
    let t = this.tables.get(table);
    if (!t) {
      t = { name: table, chains: new Map() };
      this.tables.set(table, t);
    }
    let c = t.chains.get(name);
    if (!c) {
      c = {
        table,
        name,
        builtin: policy !== undefined,
        policy,
        declSpan: { line: this.line++, column: 0, length: 1 },
        rules: [],
      };
      t.chains.set(name, c);
    }
    return c;
  }

  add(table: string, chain: string, matches: Match[], target: Target): void {
    const c = this.chain(table, chain);
    const rule: Rule = {
      id: this.rules.length,
      table,
      chain,
      line: this.line++,
      span: NO_SPAN,
      chainSpan: NO_SPAN,
      command: 'append',
      text: `${chain} ... -j ${target.name}`,
      matches,
      target,
      tokens: [],
      index: c.rules.length,
    };
    c.rules.push(rule);
    this.rules.push(rule);
  }

  build(): IptablesDump {
    return {
      format: 'iptables-save',
      family: 4,
      removedAt: new Map(),
      editedRule: new Map(),
      renames: [],
      tables: [...this.tables.values()],
      rules: this.rules,
      headers: [],
      backendWarnings: [],
      diagnostics: [],
      tokensOfLine: () => [],
      tokens: [],
      lineCount: this.line,
    };
  }
}

const serviceIp = (i: number) => `172.20.${i >> 8}.${i & 255}`;
const endpointIp = (i: number, e: number) => `10.${100 + e}.${i >> 8}.${i & 255}`;

function bigDump(): IptablesDump {
  const b = new DumpBuilder();
  for (const c of ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING']) b.chain('nat', c, 'ACCEPT');
  for (const c of ['INPUT', 'FORWARD', 'OUTPUT']) b.chain('filter', c, 'ACCEPT');
  b.add('nat', 'PREROUTING', [], jump('KUBE-SERVICES'));
  b.add('nat', 'OUTPUT', [], jump('KUBE-SERVICES'));
  b.add('nat', 'POSTROUTING', [], jump('KUBE-POSTROUTING'));
  b.add('nat', 'KUBE-MARK-MASQ', [], jump('MARK', opt('or-mark', '0x4000')));
  b.add('nat', 'KUBE-POSTROUTING', [mod('mark', opt('mark', '0x4000/0x4000', true))], jump('RETURN'));
  b.add('nat', 'KUBE-POSTROUTING', [], jump('MARK', opt('xor-mark', '0x4000')));
  b.add('nat', 'KUBE-POSTROUTING', [], jump('MASQUERADE'));
  b.add('filter', 'FORWARD', [mod('conntrack', opt('ctstate', 'NEW'))], jump('KUBE-SERVICES'));
  b.chain('filter', 'KUBE-SERVICES');
  for (let i = 0; i < SERVICES; i++) {
    const svc = `KUBE-SVC-${i}`;
    const where = [
      mod('', opt('destination', `${serviceIp(i)}/32`), opt('protocol', 'tcp')),
      mod('comment', opt('comment', `ns/svc${i}:p cluster IP`)),
      mod('tcp', opt('dport', '80')),
    ];
    b.add('nat', 'KUBE-SERVICES', where, jump(svc));
    b.add('nat', svc, [mod('', opt('source', '10.0.0.0/8', true)), ...where], jump('KUBE-MARK-MASQ'));
    for (let e = 0; e < ENDPOINTS; e++) {
      const sep = `KUBE-SEP-${i}-${e}`;
      const stat =
        e < ENDPOINTS - 1
          ? [mod('statistic', opt('mode', 'random'), opt('probability', (1 / (ENDPOINTS - e)).toFixed(10)))]
          : [];
      b.add('nat', svc, [mod('comment', opt('comment', `ns/svc${i}:p`)), ...stat], jump(sep));
      b.add('nat', sep, [mod('', opt('source', `${endpointIp(i, e)}/32`))], jump('KUBE-MARK-MASQ'));
      b.add(
        'nat',
        sep,
        [mod('', opt('protocol', 'tcp')), mod('tcp')],
        jump('DNAT', opt('to-destination', `${endpointIp(i, e)}:8080`)),
      );
    }
    if (i % 10 === 0)
      b.add(
        'filter',
        'KUBE-SERVICES',
        [
          mod('', opt('destination', `172.21.${i >> 8}.${i & 255}/32`), opt('protocol', 'tcp')),
          mod('tcp', opt('dport', '80')),
        ],
        jump('REJECT'),
      );
  }
  b.add('nat', 'KUBE-SERVICES', [mod('addrtype', opt('dst-type', 'LOCAL'))], jump('KUBE-NODEPORTS'));
  b.chain('nat', 'KUBE-NODEPORTS');
  return b.build();
}

test(`traces through ${SERVICES} Services (~170k rules) reach each Service's endpoints through the index`, () => {
  const dump = bigDump();
  assert.ok(dump.rules.length >= 160_000, `${dump.rules.length} rules`);
  const packetTo = (i: number) => ({
    src: '10.244.3.3',
    dst: serviceIp(i),
    dport: 80,
    proto: 'tcp' as const,
    hook: 'prerouting' as const,
    localAddresses: ['192.168.0.1'],
  });
  tracePacket(dump, packetTo(0)); // builds the index
  const traceTo = (i: number) => tracePacket(dump, packetTo(i));
  for (let k = 0; k < 300; k++) {
    const i = (k * 7919) % SERVICES;
    const r = traceTo(i);
    assert.equal(r.paths.length, ENDPOINTS);
    assertSumsToOne(r);
    assert.deepEqual(
      r.paths.map((p) => p.dnat?.ip),
      Array.from({ length: ENDPOINTS }, (_, e) => endpointIp(i, e)),
    );
  }
  // The last Service is the worst case for a linear scan of KUBE-SERVICES.
  const last = traceTo(SERVICES - 1);
  assert.equal(last.paths[0].dnat?.ip, endpointIp(SERVICES - 1, 0));
  // The index, not luck: the last Service is reached in a handful of rule evaluations, not 10k.
  const bounded = tracePacket(dump, packetTo(SERVICES - 1), { maxEvaluations: 200 });
  assert.ok(
    bounded.paths.every((p) => p.verdict === 'ACCEPT'),
    bounded.warnings.join('; '),
  );
  // A destination no rule names falls through the whole chain via the index's catch-all list.
  const miss = tracePacket(dump, { ...packetTo(0), dst: '172.29.0.1' });
  assert.equal(miss.paths.length, 1);
  assert.equal(miss.paths[0].dnat, null);
});
