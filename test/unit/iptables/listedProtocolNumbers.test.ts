/**
 * iptables 1.8.9 (Debian bookworm, Fedora 39, kube-proxy images built on them) lists the protocol column as its
 * number under `-n` (`0`, `6`, `17`); every other release lists its name. Both read alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText } from '../../../src/core/analyze';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket } from '../../../src/core/iptables/trace';

// A Service of my own (shop/cart:http, udp and tcp) listed as `iptables -t nat -nvL` prints it.
const listing = (tcp: string, udp: string, all: string) =>
  [
    'Chain KUBE-SERVICES (2 references)',
    ' pkts bytes target     prot opt in     out     source               destination',
    `    0     0 KUBE-SVC-I5LIAMPLWKMBJ54B  ${tcp}  --  *      *       0.0.0.0/0            172.16.40.7          /* shop/cart:http cluster IP */ tcp dpt:80`,
    `    0     0 KUBE-SVC-4XI5CTFPAP7AFMBM  ${udp}  --  *      *       0.0.0.0/0            172.16.40.8          /* shop/dns:dns cluster IP */ udp dpt:53`,
    `   12   720 KUBE-NODEPORTS  ${all}  --  *      *       0.0.0.0/0            0.0.0.0/0            /* kubernetes service nodeports; NOTE: this must be the last rule in this chain */ ADDRTYPE match dst-type LOCAL`,
    '',
    'Chain KUBE-SVC-I5LIAMPLWKMBJ54B (1 references)',
    ' pkts bytes target     prot opt in     out     source               destination',
    `    0     0 KUBE-SEP-U5IMCMQRVVKVFTND  ${all}  --  *      *       0.0.0.0/0            0.0.0.0/0            /* shop/cart:http -> 10.244.3.4:8080 */`,
    '',
    'Chain KUBE-SEP-U5IMCMQRVVKVFTND (1 references)',
    ' pkts bytes target     prot opt in     out     source               destination',
    `    0     0 DNAT       ${tcp}  --  *      *       0.0.0.0/0            0.0.0.0/0            /* shop/cart:http */ tcp to:10.244.3.4:8080`,
  ].join('\n');

const byName = listing('tcp', 'udp', 'all');
const byNumber = listing('6  ', '17 ', '0  ');

test('a listing with protocol numbers reads the protocols a listing with names reads', () => {
  const rules = (text: string) =>
    parseIptables(text).tables.flatMap((t) =>
      [...t.chains.values()].flatMap((c) =>
        c.rules.map((r) => JSON.stringify(r.matches.map((m) => m.options.map((o) => [o.name, o.values])))),
      ),
    );
  assert.deepEqual(rules(byNumber), rules(byName));
});

test("a Service listed with protocol numbers has its protocol's name, and its chain's hash is verified", () => {
  for (const text of [byName, byNumber]) {
    const services = analyzeText(text).iptables!.kube.services;
    const cart = services.find((s) => s.name === 'shop/cart:http')!;
    assert.equal(cart.protocol, 'tcp');
    assert.equal(cart.hashVerified, true);
    assert.equal(services.find((s) => s.name === 'shop/dns:dns')!.protocol, 'udp');
  }
});

test('a rule listed with protocol 0 matches every protocol, and a negated number its name', () => {
  const model = buildModel(parseIptables(byNumber));
  const packet = { src: '10.244.9.9', dst: '172.16.40.7', dport: 80, proto: 'tcp', hook: 'prerouting' } as const;
  const { paths } = tracePacket(model.dump, packet, { lang: 'en' });
  assert.deepEqual(
    paths.map((p) => p.dnat),
    [{ ip: '10.244.3.4', port: 8080 }],
  );
  const negated = parseIptables(byNumber.replace('KUBE-NODEPORTS  0  ', 'KUBE-NODEPORTS  !6 '));
  const nodePorts = negated.tables[0].chains.get('KUBE-SERVICES')!.rules[2];
  const protocol = nodePorts.matches[0].options.find((o) => o.name === 'protocol')!;
  assert.deepEqual([protocol.values, protocol.negated], [['tcp'], true]);
});
