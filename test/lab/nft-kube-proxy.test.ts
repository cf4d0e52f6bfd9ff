/**
 * kube-proxy's nftables mode against the real nft: a ruleset in kube-proxy's layout (maps, numgen ladders,
 * endpoint chains, chain names hashed here with node:crypto, apart from the product's own SHA-256) is loaded by
 * `nft -f` into a private network namespace (`unshare --net`: never the host's), printed back by
 * `nft list ruleset`, and must read as the Services it was written from. nft lays the listing out its own way
 * (elements in hash order, one per line), which is what users paste. Skips with a message without nft or root.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { buildModel } from '../../src/core/iptables/model';
import { parseIptables } from '../../src/core/iptables/parser';
import { tracePacket } from '../../src/core/iptables/trace';
import { which } from '../helpers/which';

interface Wanted {
  spn: string;
  protocol: string;
  clusterIP: string;
  port: number;
  nodePort?: number;
  endpoints: string[];
}

const hashed = (prefix: string, rest: string) =>
  `${prefix}-${createHash('sha256')
    .update(rest)
    .digest()
    .subarray(0, 5)
    .reduce((s, b) => s + b.toString(2).padStart(8, '0'), '')
    .match(/.{5}/g)!
    .map((bits) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[parseInt(bits, 2)])
    .join('')}-${rest}`;

/** A cluster of `count` Service ports and the ruleset kube-proxy's nftables mode would write for it. */
function kubeProxyRuleset(count: number): { text: string; wanted: Wanted[] } {
  const wanted: Wanted[] = [];
  const serviceIps: string[] = [];
  const nodePorts: string[] = [];
  const noEndpoints: string[] = [];
  const chains: string[] = [];
  for (let i = 0; i < count; i++) {
    const protocol = i % 6 === 5 ? 'udp' : 'tcp';
    const base = `ns-${i % 4}/svc-${i}/${protocol}/p${80 + (i % 3)}`;
    const w: Wanted = {
      spn: `ns-${i % 4}/svc-${i}:p${80 + (i % 3)}`,
      protocol,
      clusterIP: `10.96.${i >> 8}.${(i & 255) + 1}`,
      port: 80 + (i % 3),
      endpoints: [],
    };
    const endpointCount = i % 7 === 3 ? 0 : 1 + (i % 4);
    for (let e = 0; e < endpointCount; e++) w.endpoints.push(`10.244.${i % 200}.${e + 10}:${8000 + e}`);
    if (i % 5 === 0 && endpointCount > 0) w.nodePort = 30000 + i;
    wanted.push(w);
    if (endpointCount === 0) {
      noEndpoints.push(`${w.clusterIP} . ${protocol} . ${w.port} comment "${w.spn}" : goto reject-chain`);
      continue;
    }
    const svc = hashed('service', base);
    serviceIps.push(`${w.clusterIP} . ${protocol} . ${w.port} : goto ${svc}`);
    const eps = w.endpoints.map((ep) => hashed('endpoint', `${base}__${ep.replace(':', '/')}`));
    chains.push(
      `chain ${svc} {`,
      `ip daddr ${w.clusterIP} ${protocol} dport ${w.port} ip saddr != 10.244.0.0/16 jump mark-for-masquerade`,
      `numgen random mod ${eps.length} vmap { ${eps.map((c, k) => `${k} : goto ${c}`).join(', ')} }`,
      '}',
    );
    if (w.nodePort) {
      const ext = hashed('external', base);
      nodePorts.push(`${protocol} . ${w.nodePort} : goto ${ext}`);
      chains.push(`chain ${ext} {`, 'jump mark-for-masquerade', `goto ${svc}`, '}');
    }
    w.endpoints.forEach((ep, k) =>
      chains.push(
        `chain ${eps[k]} {`,
        `ip saddr ${ep.split(':')[0]} jump mark-for-masquerade`,
        `meta l4proto ${protocol} dnat to ${ep}`,
        '}',
      ),
    );
  }
  const map = (name: string, type: string, elements: string[]) => [
    `map ${name} {`,
    `type ${type} : verdict`,
    ...(elements.length ? [`elements = { ${elements.join(', ')} }`] : []),
    '}',
  ];
  const text = [
    'table ip kube-proxy {',
    ...map('service-ips', 'ipv4_addr . inet_proto . inet_service', serviceIps),
    ...map('service-nodeports', 'inet_proto . inet_service', nodePorts),
    ...map('no-endpoint-services', 'ipv4_addr . inet_proto . inet_service', noEndpoints),
    'chain nat-prerouting {',
    'type nat hook prerouting priority dstnat; policy accept;',
    'jump services',
    '}',
    'chain filter-forward {',
    'type filter hook forward priority -110; policy accept;',
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
  ].join('\n');
  return { text, wanted };
}

test("kube-proxy's nftables mode: a ruleset the real nft loaded and listed reads and traces as the Services it was written from", (t) => {
  if (!which('nft') || !which('unshare'))
    return t.skip('missing nft or unshare on PATH (apt-get install nftables util-linux)');
  if (process.getuid?.() !== 0) return t.skip('needs root for a private network namespace');
  const { text, wanted } = kubeProxyRuleset(120);
  // Both commands in one private namespace: the ruleset never reaches the host's.
  const r = spawnSync('unshare', ['--net', 'sh', '-c', 'nft -f - && nft list ruleset'], {
    input: text,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.status, 0, r.stderr);
  const listed = r.stdout;
  assert.match(listed, /map service-ips \{/);

  const kube = buildModel(parseIptables(listed)).kube;
  assert.equal(kube.mode, 'nftables');
  const read = kube.services
    .map((s) => ({
      spn: s.name,
      protocol: s.protocol,
      clusterIP: s.clusterIP,
      port: s.port,
      ...(s.nodePort !== undefined ? { nodePort: s.nodePort } : {}),
      endpoints: s.endpoints.map((e) => `${e.ip}:${e.port}`),
    }))
    .sort((a, b) => a.spn.localeCompare(b.spn));
  const want = wanted.map((w) => ({ ...w })).sort((a, b) => a.spn.localeCompare(b.spn));
  assert.deepEqual(read, want);
  // The tracer walks the listed ruleset: nat-prerouting, the @service-ips lookup, the numgen ladder, the DNAT;
  // a source outside the pod range is marked for masquerade (this ruleset has no masquerading chain to act on it).
  const dump = parseIptables(listed);
  for (const w of wanted) {
    const r = tracePacket(dump, {
      src: '10.250.0.9',
      dst: w.clusterIP,
      dport: w.port,
      proto: w.protocol as 'tcp' | 'udp',
      hook: 'prerouting',
      inIface: 'eth0',
      localAddresses: ['192.168.0.11'],
    });
    if (w.endpoints.length === 0) {
      assert.deepEqual(
        r.paths.map((p) => p.verdict),
        ['REJECT'],
        w.spn,
      );
      continue;
    }
    assert.deepEqual(
      r.paths.map((p) => `${p.dnat?.ip}:${p.dnat?.port}`),
      w.endpoints,
      w.spn,
    );
    for (const p of r.paths)
      assert.ok(
        Math.abs(p.probability - 1 / w.endpoints.length) < 1e-12 && (p.mark & 0x4000) !== 0 && p.verdict === 'ACCEPT',
        w.spn,
      );
  }
  for (const s of kube.services) {
    assert.equal(s.noEndpoints, s.endpoints.length === 0, s.name);
    if (s.endpoints.length) assert.equal(s.hashVerified, true, s.name);
    for (const e of s.endpoints) {
      assert.equal(e.hashVerified, true, e.chain);
      assert.ok(Math.abs(e.share! - 1 / s.endpoints.length) < 1e-12, e.chain);
    }
  }
});
