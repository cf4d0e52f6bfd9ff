import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket, type Packet } from '../../../src/core/iptables/trace';
import { traceHints } from '../../../src/core/iptables/traceHints';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { list, service, slice, tcp, endpoints } from '../generate/clusterBuilders';

const VIP = '198.51.100.9';
const NODE = '192.168.5.5';
const packetFrom = (src: string): Packet => ({
  src,
  dst: VIP,
  dport: 80,
  proto: 'tcp',
  hook: 'prerouting',
  inIface: 'eth0',
  localAddresses: [NODE],
});

function hintsFor(text: string, packet: Packet, lang: 'en' | 'zh-CN' = 'en') {
  const model = buildModel(parseIptables(text));
  const result = tracePacket(model.dump, packet, { lang });
  return { result, hints: traceHints(model, packet, result, lang) };
}

test('a source outside loadBalancerSourceRanges is named as the cause (1.27+ layout: KUBE-PROXY-FIREWALL drops)', () => {
  const snapshot = normaliseCluster(
    list(
      service(
        'default',
        'web',
        {
          type: 'LoadBalancer',
          clusterIP: '10.96.0.10',
          ports: [tcp('http', 80, { nodePort: 30080 })],
          loadBalancerSourceRanges: ['203.0.113.0/24'],
        },
        { loadBalancer: { ingress: [{ ip: VIP }] } },
      ),
      slice('default', 'web', endpoints(1), [tcp('http', 8080)]),
    ),
  );
  const { text } = generateIptablesRestore(snapshot, { clusterCidr: '10.0.0.0/8', nodeIPs: [NODE] });
  const blocked = hintsFor(text, packetFrom('8.8.8.8'));
  assert.ok(blocked.result.paths.every((p) => !p.dnat));
  assert.equal(blocked.hints.length, 1, blocked.hints.join('\n'));
  assert.match(
    blocked.hints[0],
    /source 8\.8\.8\.8 is not in its loadBalancerSourceRanges \(203\.0\.113\.0\/24\): KUBE-FW-/,
  );
  assert.doesNotMatch(blocked.hints[0], /Check the port/);
  assert.match(hintsFor(text, packetFrom('8.8.8.8'), 'zh-CN').hints[0], /loadBalancerSourceRanges/);
  const allowed = hintsFor(text, packetFrom('203.0.113.40'));
  assert.ok(allowed.result.paths.some((p) => p.dnat));
  assert.deepEqual(allowed.hints, []);
});

test('the older layout (KUBE-FW marks with KUBE-MARK-DROP) gets the same hint; a wrong port still gets the port hint', () => {
  const text = [
    '*nat',
    ':PREROUTING ACCEPT [0:0]',
    ':KUBE-SERVICES - [0:0]',
    ':KUBE-FW-AAAAAAAAAAAAAAAA - [0:0]',
    ':KUBE-XLB-AAAAAAAAAAAAAAAA - [0:0]',
    ':KUBE-MARK-DROP - [0:0]',
    '-A PREROUTING -j KUBE-SERVICES',
    `-A KUBE-SERVICES -d ${VIP}/32 -p tcp -m comment --comment "default/lb:http loadbalancer IP" -m tcp --dport 80 -j KUBE-FW-AAAAAAAAAAAAAAAA`,
    '-A KUBE-FW-AAAAAAAAAAAAAAAA -m comment --comment "default/lb:http loadbalancer IP" -s 203.0.113.0/24 -j KUBE-XLB-AAAAAAAAAAAAAAAA',
    '-A KUBE-FW-AAAAAAAAAAAAAAAA -m comment --comment "default/lb:http loadbalancer IP" -j KUBE-MARK-DROP',
    '-A KUBE-MARK-DROP -j MARK --set-xmark 0x8000/0x8000',
    '-A KUBE-XLB-AAAAAAAAAAAAAAAA -j DNAT --to-destination 10.244.1.5:8080',
    'COMMIT',
  ].join('\n');
  const blocked = hintsFor(text, packetFrom('8.8.8.8'));
  assert.match(blocked.hints.join('\n'), /KUBE-FW-AAAAAAAAAAAAAAAA marked it for drop at line 10/);
  const wrongPort = hintsFor(text, { ...packetFrom('8.8.8.8'), dport: 81 });
  assert.match(wrongPort.hints.join('\n'), /no rule matched 81\/TCP/);
});
