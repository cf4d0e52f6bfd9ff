/**
 * kube-proxy's nftables mode for a lab node (scenario `kubeProxyMode: "nftables"`): the ruleset kube-proxy 1.31+
 * writes in `table ip kube-proxy` (maps service-ips, service-nodeports, no-endpoint-services; one chain per Service
 * port and per endpoint, a numgen vmap between endpoints; chain names hashed as kube-proxy does), built from the
 * objects the lab's API serves and loaded with `nft -f` into the node's namespace only.
 */
import { createHash } from 'node:crypto';
import type { ClusterSnapshot } from '../../../src/core/kube/types';

/** kube-proxy's chain name: prefix, base32 of the first 5 bytes of sha256(rest), rest. */
function hashed(prefix: string, rest: string): string {
  const bits = [...createHash('sha256').update(rest).digest().subarray(0, 5)]
    .map((b) => b.toString(2).padStart(8, '0'))
    .join('');
  const code = bits.match(/.{5}/g)!.map((b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[parseInt(b, 2)]);
  return `${prefix}-${code.join('')}-${rest}`;
}

export function nodeNftRules(snapshot: ClusterSnapshot, clusterCidr: string): string {
  const serviceIps: string[] = [];
  const nodePorts: string[] = [];
  const noEndpoints: string[] = [];
  const chains: string[] = [];
  for (const svc of snapshot.services) {
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(svc.clusterIP)) continue;
    for (const port of svc.ports) {
      const proto = port.protocol.toLowerCase();
      const base = `${svc.namespace}/${svc.name}/${proto}/${port.name}`;
      const spn = `${svc.namespace}/${svc.name}${port.name ? `:${port.name}` : ''}`;
      const eps = (snapshot.endpoints[`${svc.namespace}/${svc.name}`]?.[port.name] ?? []).filter((e) => e.ready);
      if (eps.length === 0) {
        noEndpoints.push(`${svc.clusterIP} . ${proto} . ${port.port} comment "${spn}" : goto reject-chain`);
        continue;
      }
      const chain = hashed('service', base);
      serviceIps.push(`${svc.clusterIP} . ${proto} . ${port.port} : goto ${chain}`);
      const epChains = eps.map((e) => hashed('endpoint', `${base}__${e.ip}/${e.port}`));
      chains.push(
        `chain ${chain} {`,
        `ip daddr ${svc.clusterIP} ${proto} dport ${port.port} ip saddr != ${clusterCidr} jump mark-for-masquerade`,
        `numgen random mod ${epChains.length} vmap { ${epChains.map((c, k) => `${k} : goto ${c}`).join(', ')} }`,
        '}',
      );
      if (port.nodePort) {
        const ext = hashed('external', base);
        nodePorts.push(`${proto} . ${port.nodePort} : goto ${ext}`);
        chains.push(`chain ${ext} {`, 'jump mark-for-masquerade', `goto ${chain}`, '}');
      }
      eps.forEach((e, k) =>
        chains.push(
          `chain ${epChains[k]} {`,
          `ip saddr ${e.ip} jump mark-for-masquerade`,
          `meta l4proto ${proto} dnat to ${e.ip}:${e.port}`,
          '}',
        ),
      );
    }
  }
  const map = (name: string, type: string, elements: string[]) => [
    `map ${name} {`,
    `type ${type} : verdict`,
    ...(elements.length ? [`elements = { ${elements.join(', ')} }`] : []),
    '}',
  ];
  return [
    'table ip kube-proxy {',
    ...map('service-ips', 'ipv4_addr . inet_proto . inet_service', serviceIps),
    ...map('service-nodeports', 'inet_proto . inet_service', nodePorts),
    ...map('no-endpoint-services', 'ipv4_addr . inet_proto . inet_service', noEndpoints),
    'chain nat-prerouting {',
    'type nat hook prerouting priority dstnat; policy accept;',
    'jump services',
    '}',
    'chain nat-output {',
    'type nat hook output priority -100; policy accept;',
    'jump services',
    '}',
    'chain nat-postrouting {',
    'type nat hook postrouting priority srcnat; policy accept;',
    'jump masquerading',
    '}',
    'chain masquerading {',
    'meta mark & 0x00004000 == 0 return',
    'meta mark set meta mark ^ 0x00004000',
    'masquerade fully-random',
    '}',
    'chain filter-forward {',
    'type filter hook forward priority -110; policy accept;',
    'ct state new jump endpoints-check',
    '}',
    'chain filter-output {',
    'type filter hook output priority -110; policy accept;',
    'ct state new jump endpoints-check',
    '}',
    'chain endpoints-check {',
    'ip daddr . meta l4proto . th dport vmap @no-endpoint-services',
    '}',
    'chain services {',
    'ip daddr . meta l4proto . th dport vmap @service-ips',
    'fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @service-nodeports',
    '}',
    'chain mark-for-masquerade {',
    'meta mark set meta mark | 0x00004000',
    '}',
    'chain reject-chain {',
    'reject',
    '}',
    ...chains,
    '}',
    '',
  ].join('\n');
}
