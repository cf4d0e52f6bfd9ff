// The service-not-reached hint states that no rule sends the packet to the Service's chain: true only when every
// path ended with a verdict. A path that stopped UNKNOWN at a chain the paste left out may have been on its way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket, type Packet } from '../../../src/core/iptables/trace';
import { traceHints } from '../../../src/core/iptables/traceHints';

const SERVICE_RULES = [
  '-A KUBE-SERVICES -d 10.43.7.7/32 -p tcp -m comment --comment "shop/web:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-ABCDEFGHIJKLMNOP',
  '-A KUBE-SVC-ABCDEFGHIJKLMNOP -m comment --comment "shop/web:http -> 10.42.1.5:8080" -j KUBE-SEP-QRSTUVWXYZ234567',
  '-A KUBE-SEP-QRSTUVWXYZ234567 -p tcp -m comment --comment "shop/web:http" -m tcp -j DNAT --to-destination 10.42.1.5:8080',
];
const packet: Packet = {
  src: '10.42.2.9',
  dst: '10.43.7.7',
  dport: 80,
  proto: 'tcp',
  hook: 'prerouting',
  localAddresses: ['192.168.5.5'],
};

function hintsOf(prerouting: string[]): string[] {
  const text = [
    '*nat',
    ':PREROUTING ACCEPT [0:0]',
    ':KUBE-SERVICES - [0:0]',
    ':KUBE-SVC-ABCDEFGHIJKLMNOP - [0:0]',
    ':KUBE-SEP-QRSTUVWXYZ234567 - [0:0]',
    ...prerouting,
    ...SERVICE_RULES,
    'COMMIT',
  ].join('\n');
  const model = buildModel(parseIptables(text));
  return traceHints(model, packet, tracePacket(model.dump, packet, { lang: 'en' }), 'en');
}

test("a path stopped UNKNOWN at a CNI's chain the paste left out: no hint that the Service's rule is missing", () => {
  const hints = hintsOf([
    '-A PREROUTING -m comment --comment "cali:6gwbT8clXdHdC1b1" -j cali-PREROUTING',
    '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
  ]);
  assert.ok(!hints.some((h) => /no rule of the dump sends the packet/.test(h)), hints.join('\n'));
  assert.ok(!hints.some((h) => /Check the port and protocol/.test(h)), hints.join('\n'));
});

test('every path ended with a verdict and none entered the Service chain: the hint says no rule sends it there', () => {
  // PREROUTING never jumps to KUBE-SERVICES (a node without kube-proxy's portal rule).
  const hints = hintsOf(['-A PREROUTING -s 192.0.2.0/24 -j ACCEPT']);
  assert.ok(
    hints.some((h) => /no rule of the dump sends the packet to its chain KUBE-SVC-ABCDEFGHIJKLMNOP/.test(h)),
    hints.join('\n'),
  );
});
