import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket, type Packet } from '../../../src/core/iptables/trace';
import { assertSumsToOne, kubeProxyDump } from './helpers';

describe('trace: properties', () => {
  it('a kube-proxy ladder of n endpoints gives each endpoint 1/n', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 65535 }),
        fc.integer({ min: 1, max: 254 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 1, max: 254 }),
        (n, port, a, b, client) => {
          const endpoints = Array.from({ length: n }, (_, i) => `10.244.${i}.${((i * 7) % 250) + 2}:${8000 + i}`);
          const clusterIP = `172.16.${b}.${a}`;
          const text = kubeProxyDump([
            { ns: 'prop', name: 'svc', clusterIP, port, endpoints },
            { ns: 'prop', name: 'other', clusterIP: '172.17.0.1', port, endpoints: ['10.244.250.1:1'] },
          ]);
          const r = tracePacket(parseIptables(text), {
            src: `10.244.200.${client}`,
            dst: clusterIP,
            dport: port,
            proto: 'tcp',
            hook: 'prerouting',
            localAddresses: ['192.168.0.10'],
          });
          assertSumsToOne(r);
          const byEndpoint = new Map<string, number>();
          for (const p of r.paths) {
            assert.ok(p.dnat, 'every path is DNATed');
            const key = `${p.dnat.ip}:${p.dnat.port}`;
            byEndpoint.set(key, (byEndpoint.get(key) ?? 0) + p.probability);
          }
          assert.deepEqual([...byEndpoint.keys()].sort(), [...endpoints].sort());
          for (const [ep, p] of byEndpoint) assert.ok(Math.abs(p - 1 / n) < 1e-9, `${ep}: ${p} vs ${1 / n}`);
        },
      ),
      { numRuns: 60 },
    );
  });

  const ADDRS = ['10.0.0.1', '10.0.0.2', '10.0.1.5', '192.168.1.1', '127.0.0.1'];
  const CHAINS = ['C0', 'C1', 'C2'];
  const match = fc.oneof(
    fc.constantFrom(...ADDRS, '10.0.0.0/24', '10.0.0.0/8').map((a) => `-s ${a}`),
    fc.constantFrom(...ADDRS, '10.0.0.0/16').map((a) => `! -d ${a}`),
    fc.constantFrom(...ADDRS).map((a) => `-d ${a}`),
    fc.constantFrom('tcp', 'udp', 'icmp', 'sctp').map((p) => `-p ${p}`),
    fc.constantFrom('80', '1:1024', '443', '53').map((p) => `-p tcp --dport ${p}`),
    fc.constantFrom('80,443', '1:100,8080').map((p) => `-p udp -m multiport --dports ${p}`),
    fc.constantFrom('eth0', 'cali+', 'lo').map((i) => `-i ${i}`),
    fc.constantFrom('eth0', 'veth+').map((i) => `! -o ${i}`),
    fc
      .constantFrom('0.5', '0.3333333333', '0.1', '1.0', '0')
      .map((p) => `-m statistic --mode random --probability ${p}`),
    fc.constantFrom('2', '3').map((e) => `-m statistic --mode nth --every ${e} --packet 0`),
    fc.constantFrom('0x4000/0x4000', '0x1', '0x0/0xffff').map((m) => `-m mark --mark ${m}`),
    fc.constantFrom('NEW', 'ESTABLISHED,RELATED', 'DNAT', 'INVALID').map((s) => `-m conntrack --ctstate ${s}`),
    fc.constantFrom('LOCAL', 'UNICAST').map((t) => `-m addrtype --dst-type ${t}`),
    fc.constantFrom('A src', 'B dst,dst').map((s) => `-m set --match-set ${s}`),
    fc.constant('-m recent --name x --rcheck'),
    fc.constant('-m comment --comment "hello world"'),
    fc.constant('-p tcp -m tcp --tcp-flags SYN,ACK SYN'),
  );
  const NAT_TARGETS = [
    'DNAT --to-destination 10.0.1.5:8080',
    'DNAT --to-destination 10.0.0.2',
    'MASQUERADE',
    'SNAT --to-source 1.2.3.4',
  ];
  const target = (table: string) =>
    fc.oneof(
      fc.constantFrom(
        'ACCEPT',
        'DROP',
        'RETURN',
        'LOG --log-prefix x',
        'NOSUCH',
        'REJECT --reject-with icmp-port-unreachable',
      ),
      fc.constantFrom(...CHAINS),
      fc.constantFrom(...CHAINS).map((c) => `GOTO:${c}`),
      fc.constantFrom('--set-xmark 0x4000/0x4000', '--or-mark 0x1', '--xor-mark 0x4000').map((m) => `MARK ${m}`),
      fc.constantFrom(...(table === 'nat' ? NAT_TARGETS : ['CT --notrack'])),
    );
  const rule = (table: string, chains: string[]) =>
    fc.record({
      chain: fc.constantFrom(...chains),
      matches: fc.array(match, { maxLength: 3 }),
      target: fc.option(target(table), { nil: undefined }),
    });
  const BUILTIN: Record<string, string[]> = {
    raw: ['PREROUTING', 'OUTPUT'],
    nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
    filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  };
  const table = (name: string) =>
    fc.record({
      present: fc.boolean(),
      policy: fc.constantFrom('ACCEPT', 'DROP'),
      rules: fc.array(rule(name, [...BUILTIN[name], ...CHAINS]), { maxLength: 12 }),
    });
  const packet: fc.Arbitrary<Packet> = fc.record({
    src: fc.constantFrom(...ADDRS),
    dst: fc.constantFrom(...ADDRS),
    dport: fc.constantFrom(80, 443, 53, 8080, 0),
    sport: fc.option(fc.constantFrom(1000, 53), { nil: undefined }),
    proto: fc.constantFrom('tcp', 'udp', 'sctp', 'icmp'),
    hook: fc.constantFrom('prerouting', 'output'),
    inIface: fc.option(fc.constantFrom('eth0', 'cali12'), { nil: undefined }),
    mark: fc.option(fc.constantFrom(0, 0x4000), { nil: undefined }),
    localAddresses: fc.option(fc.constantFrom(['10.0.0.1'], ['192.168.1.1', '10.0.1.5']), { nil: undefined }),
  });

  it('random packets through random small dumps never throw and always sum to 1', () => {
    fc.assert(
      fc.property(
        fc.record({ raw: table('raw'), nat: table('nat'), filter: table('filter') }),
        packet,
        (tables, pkt) => {
          const lines: string[] = [];
          for (const [name, t] of Object.entries(tables)) {
            if (!t.present) continue;
            lines.push(`*${name}`);
            for (const c of BUILTIN[name]) lines.push(`:${c} ${name === 'nat' ? 'ACCEPT' : t.policy} [0:0]`);
            for (const c of CHAINS) lines.push(`:${c} - [0:0]`);
            for (const r of t.rules) {
              const tgt =
                r.target === undefined
                  ? ''
                  : r.target.startsWith('GOTO:')
                    ? ` -g ${r.target.slice(5)}`
                    : ` -j ${r.target}`;
              lines.push(`-A ${r.chain}${r.matches.map((m) => ` ${m}`).join('')}${tgt}`);
            }
            lines.push('COMMIT');
          }
          const dump = parseIptables(lines.join('\n') + '\n');
          const result = tracePacket(dump, pkt, { maxPaths: 256 });
          assertSumsToOne(result);
          for (const p of result.paths) {
            assert.ok(['ACCEPT', 'DROP', 'REJECT', 'QUEUE', 'UNKNOWN'].includes(p.verdict));
            for (const s of p.steps) assert.ok(s.line >= -1 && s.line < dump.lineCount, `line ${s.line}`);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
