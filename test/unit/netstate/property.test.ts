import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { detectNetworkFormat, lookupRoute, parseNetworkText } from '../../../src/core/netstate';
import { corpusFiles } from '../../helpers/corpus';

const OWN_SAMPLES = [
  'root@n:~# ip route\ndefault via 10.0.2.2 dev enp0s3 proto dhcp metric 100\n10.0.2.0/24 dev enp0s3  proto kernel  scope link  src 10.0.2.15 linkdown\nblackhole 10.233.84.0/24 proto bird\ndefault proto static\n\tnexthop via 10.0.0.1 dev eth0 weight 1\n',
  '$ ip route get 172.16.0.1\n172.16.0.1 via 192.168.10.1 dev eth0 src 10.244.1.5 uid 0 \n    cache <local> expires 10sec\nRTNETLINK answers: Network is unreachable\n',
  '3: eth0@if12: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default\n    link/ether 0a:58:0a:f4:01:05 brd ff:ff:ff:ff:ff:ff link-netnsid 0\n    inet 10.244.1.5/24 brd 10.244.1.255 scope global eth0\n       valid_lft forever preferred_lft forever\n2: eth0    inet 10.0.2.15/24 scope global eth0\\       valid_lft forever preferred_lft forever\n',
  'Kernel IP routing table\nDestination     Gateway         Genmask         Flags Metric Ref    Use Iface\n0.0.0.0         10.0.2.2        0.0.0.0         UG    100    0        0 enp0s3\n',
  ' [NEW] tcp      6 120 SYN_SENT src=10.0.0.1 dst=10.96.0.1 sport=1 dport=443 [UNREPLIED] src=10.0.0.9 dst=10.0.0.1 sport=6443 dport=1 mark=0 use=1\nconntrack v1.4.4 (conntrack-tools): 1 flow entries have been shown.\n',
  'Name: KUBE-LOOP-BACK\nType: hash:ip,port,ip\nHeader: family inet hashsize 1024 maxelem 65536\nNumber of entries: 1\nMembers:\n10.244.0.2,tcp:53,10.244.0.2\ncreate X hash:net\nadd X 10.0.0.0/8 comment "a b"\n',
];

const SAMPLES = [...OWN_SAMPLES, ...corpusFiles('routes').map((f) => f.text.split('\n').slice(0, 60).join('\n'))];

type Mutation =
  | { kind: 'truncate'; line: number; at: number }
  | { kind: 'insert'; line: number; at: number; junk: string }
  | { kind: 'delete'; line: number; at: number; count: number }
  | { kind: 'duplicate'; line: number }
  | { kind: 'swap'; line: number; other: number };

const JUNK = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    ' ',
    '\t',
    '\\',
    '<',
    '>',
    '=',
    ':',
    '/',
    '@',
    ',',
    '[',
    ']',
    '"',
    '...',
    'nexthop',
    'cache',
    'src=',
    'dst=',
    'Members:',
    'Name: ',
    '1: x: <UP>',
    'via',
    'default',
    '\u00a0',
    '\r',
  ),
);

const MUTATION: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), line: fc.nat(), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), line: fc.nat(), at: fc.nat(), junk: JUNK }),
  fc.record({
    kind: fc.constant('delete' as const),
    line: fc.nat(),
    at: fc.nat(),
    count: fc.integer({ min: 1, max: 8 }),
  }),
  fc.record({ kind: fc.constant('duplicate' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), line: fc.nat(), other: fc.nat() }),
);

function mutate(text: string, mutations: Mutation[]): string {
  const lines = text.split('\n');
  for (const m of mutations) {
    const i = m.line % lines.length;
    const l = lines[i];
    const at = 'at' in m ? m.at % (l.length + 1) : 0;
    if (m.kind === 'truncate') lines[i] = l.slice(0, at);
    else if (m.kind === 'insert') lines[i] = l.slice(0, at) + m.junk + l.slice(at);
    else if (m.kind === 'delete') lines[i] = l.slice(0, at) + l.slice(at + m.count);
    else if (m.kind === 'duplicate') lines.splice(i, 0, l);
    else {
      const j = m.other % lines.length;
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
  }
  return lines.join('\n');
}

test('random line mutations of samples never throw and keep positions inside the text', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SAMPLES),
      fc.array(MUTATION, { minLength: 1, maxLength: 6 }),
      (sample, mutations) => {
        const text = mutate(sample, mutations);
        const s = parseNetworkText(text);
        const lines = text.split(/\r\n|\r|\n/);
        for (const d of s.diagnostics) {
          assert.ok(d.span.line >= 0 && d.span.line < lines.length);
          assert.ok(d.span.column >= 0 && d.span.length >= 1);
          assert.match(d.code, /^routes-[a-z-]+$/);
        }
        for (const r of s.routes) {
          assert.ok(r.span.line < lines.length && r.span.column >= 0);
          lookupRoute(s.routes, '10.96.0.1', { tables: ['local', 'main'], includePartial: true });
        }
        JSON.stringify(s);
        const d = detectNetworkFormat(text);
        assert.ok(d.confidence >= 0 && d.confidence <= 1);
      },
    ),
    { numRuns: 400 },
  );
});

test('arbitrary text never throws', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(JUNK, fc.string({ maxLength: 40 })), { maxLength: 12 }), (parts) => {
      const text = parts.join(' ').replace(/ (?=\S{0,3}$)/, '\n');
      parseNetworkText(text);
      detectNetworkFormat(text);
    }),
    { numRuns: 300 },
  );
});
