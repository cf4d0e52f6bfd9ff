import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { generateIptablesRestore, type GenerateOptions } from '../../../src/core/iptables/generate';
import { endpointChainName, serviceChainName } from '../../../src/core/iptables/chainHashes';
import {
  chainRules,
  declaredChains,
  endpoints,
  list,
  service,
  slice,
  tableLines,
  tcp,
  type Json,
} from './clusterBuilders';

function gen(items: Json[], options: GenerateOptions = {}) {
  const snapshot = normaliseCluster(list(...items));
  assert.deepEqual(snapshot.issues, [], 'test cluster should be valid');
  return generateIptablesRestore(snapshot, { clusterCidr: '10.0.0.0/8', ...options });
}

const web = (spec: Json = {}, status?: Json) =>
  service('default', 'web', { clusterIP: '10.96.0.10', ports: [tcp('http', 80)], ...spec }, status);
const webSlice = (eps = endpoints(1), ports = [tcp('http', 8080)]) => slice('default', 'web', eps, ports);
const SPN = 'default/web:http';
const SVC = serviceChainName('KUBE-SVC-', SPN, 'tcp');
const EXT = serviceChainName('KUBE-EXT-', SPN, 'tcp');
const SVL = serviceChainName('KUBE-SVL-', SPN, 'tcp');
const FW = serviceChainName('KUBE-FW-', SPN, 'tcp');
const sep = (ip: string, port = 8080) => endpointChainName(SPN, 'tcp', `${ip}:${port}`);

test('chain names are the ones naming.ts computes, e.g. default/kubernetes:https -> KUBE-SVC-NPX46M4PTMTKRN6Y', () => {
  const { text } = gen([
    service('default', 'kubernetes', { clusterIP: '172.16.0.1', ports: [tcp('https', 443, { targetPort: 6443 })] }),
    slice('default', 'kubernetes', [{ ip: '192.168.1.10' }], [tcp('https', 6443)]),
  ]);
  assert.ok(text.includes('-j KUBE-SVC-NPX46M4PTMTKRN6Y\n'));
  const sepName = endpointChainName('default/kubernetes:https', 'tcp', '192.168.1.10:6443');
  assert.deepEqual(
    declaredChains(text, 'nat').filter((c) => /^KUBE-(SVC|SEP)-/.test(c)),
    ['KUBE-SVC-NPX46M4PTMTKRN6Y', sepName],
  );
  assert.deepEqual(chainRules(text, sepName), [
    `-A ${sepName} -m comment --comment default/kubernetes:https -s 192.168.1.10 -j KUBE-MARK-MASQ`,
    `-A ${sepName} -m comment --comment default/kubernetes:https -m tcp -p tcp -j DNAT --to-destination 192.168.1.10:6443`,
  ]);
});

test('three endpoints: probabilities 0.3333333333, 0.5000000000, then no statistic match', () => {
  const { text } = gen([web(), webSlice(endpoints(3))]);
  assert.deepEqual(chainRules(text, SVC), [
    `-A ${SVC} -m comment --comment "${SPN} cluster IP" -m tcp -p tcp -d 10.96.0.10 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ`,
    `-A ${SVC} -m comment --comment "${SPN} -> 10.1.0.1:8080" -m statistic --mode random --probability 0.3333333333 -j ${sep('10.1.0.1')}`,
    `-A ${SVC} -m comment --comment "${SPN} -> 10.1.0.2:8080" -m statistic --mode random --probability 0.5000000000 -j ${sep('10.1.0.2')}`,
    `-A ${SVC} -m comment --comment "${SPN} -> 10.1.0.3:8080" -j ${sep('10.1.0.3')}`,
  ]);
  assert.equal(
    chainRules(text, 'KUBE-SERVICES', 'nat')[0],
    `-A KUBE-SERVICES -m comment --comment "${SPN} cluster IP" -m tcp -p tcp -d 10.96.0.10 --dport 80 -j ${SVC}`,
  );
});

test('endpoints are ordered by their ip:port text, as kube-proxy sorts them', () => {
  const { text } = gen([web(), webSlice([{ ip: '10.1.0.2' }, { ip: '10.1.0.10' }, { ip: '10.1.0.1' }])]);
  const targets = chainRules(text, SVC)
    .slice(1)
    .map((l) => l.split(' -> ')[1].split('"')[0]);
  assert.deepEqual(targets, ['10.1.0.10:8080', '10.1.0.1:8080', '10.1.0.2:8080'].sort());
});

test('probabilities follow Go %0.10f, including its round-half-even tie at 1/2048', () => {
  const many = Array.from({ length: 2048 }, (_, i) => ({ ip: `10.2.${i >> 8}.${i & 255}` }));
  const { text } = gen([web(), webSlice(many)], { largeClusterMode: false });
  const probs = chainRules(text, SVC)
    .map((l) => / --probability (\S+) /.exec(l)?.[1])
    .filter((p): p is string => !!p);
  assert.equal(probs.length, 2047);
  assert.equal(probs[0], '0.0004882812'); // exact 0.00048828125: Go rounds to even, toFixed would give ...813
  assert.equal(probs[1], (1 / 2047).toFixed(10));
  assert.equal(probs[2044], '0.2500000000');
  assert.equal(probs[2045], '0.3333333333');
  assert.equal(probs[2046], '0.5000000000');
});

test('a Service with no endpoints gets the filter REJECT rules and no nat chains', () => {
  const { text } = gen([
    web(
      { type: 'LoadBalancer', ports: [tcp('http', 80, { nodePort: 30080 })], externalIPs: ['203.0.113.7'] },
      { loadBalancer: { ingress: [{ ip: '198.51.100.9' }] } },
    ),
  ]);
  const noEp = `-m comment --comment "${SPN} has no endpoints"`;
  assert.deepEqual(
    chainRules(text, 'KUBE-SERVICES', 'filter').filter((l) => l.includes(SPN)),
    [`-A KUBE-SERVICES ${noEp} -m tcp -p tcp -d 10.96.0.10 --dport 80 -j REJECT`],
  );
  assert.deepEqual(chainRules(text, 'KUBE-EXTERNAL-SERVICES'), [
    `-A KUBE-EXTERNAL-SERVICES ${noEp} -m tcp -p tcp -d 203.0.113.7 --dport 80 -j REJECT`,
    `-A KUBE-EXTERNAL-SERVICES ${noEp} -m tcp -p tcp -d 198.51.100.9 --dport 80 -j REJECT`,
    `-A KUBE-EXTERNAL-SERVICES ${noEp} -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 30080 -j REJECT`,
  ]);
  assert.ok(
    tableLines(text, 'filter').includes(`-A KUBE-SERVICES ${noEp} -m tcp -p tcp -d 10.96.0.10 --dport 80 -j REJECT`),
  );
  assert.ok(!declaredChains(text, 'nat').some((c) => c === SVC || c === EXT));
  assert.deepEqual(chainRules(text, 'KUBE-NODEPORTS', 'nat'), []);
});

test('not-ready endpoints get no chain; serving+terminating ones are used only when none is ready', () => {
  const mixed = gen([
    web(),
    webSlice([
      { ip: '10.1.0.1' },
      { ip: '10.1.0.2', ready: false, serving: true, terminating: true },
      { ip: '10.1.0.3', ready: false, serving: false },
    ]),
  ]);
  assert.deepEqual(
    declaredChains(mixed.text, 'nat').filter((c) => c.startsWith('KUBE-SEP-')),
    [sep('10.1.0.1')],
  );
  const terminating = gen([
    web(),
    webSlice([
      { ip: '10.1.0.2', ready: false, serving: true, terminating: true },
      { ip: '10.1.0.3', ready: false, serving: false, terminating: true },
    ]),
  ]);
  assert.deepEqual(
    declaredChains(terminating.text, 'nat').filter((c) => c.startsWith('KUBE-SEP-')),
    [sep('10.1.0.2')],
  );
  const none = gen([web(), webSlice([{ ip: '10.1.0.3', ready: false, serving: false }])]);
  assert.ok(none.text.includes(`"${SPN} has no endpoints"`));
});

test('NodePort: KUBE-NODEPORTS jumps to KUBE-EXT, which masquerades and goes to KUBE-SVC', () => {
  const { text } = gen([web({ type: 'NodePort', ports: [tcp('http', 80, { nodePort: 30080 })] }), webSlice()]);
  assert.deepEqual(chainRules(text, 'KUBE-NODEPORTS', 'nat'), [
    `-A KUBE-NODEPORTS -m comment --comment ${SPN} -m tcp -p tcp --dport 30080 -j ${EXT}`,
  ]);
  assert.deepEqual(chainRules(text, EXT), [
    `-A ${EXT} -m comment --comment "masquerade traffic for ${SPN} external destinations" -j KUBE-MARK-MASQ`,
    `-A ${EXT} -j ${SVC}`,
  ]);
  assert.equal(
    chainRules(text, 'KUBE-SERVICES', 'nat').at(-1),
    '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
  );
});

test('external IPs and LoadBalancer IPs jump to KUBE-EXT', () => {
  const { text } = gen([
    web(
      { type: 'LoadBalancer', externalIPs: ['203.0.113.7'], ports: [tcp('http', 80, { nodePort: 30080 })] },
      {
        loadBalancer: {
          ingress: [{ ip: '198.51.100.9' }, { hostname: 'lb.example' }, { ip: '198.51.100.10', ipMode: 'Proxy' }],
        },
      },
    ),
    webSlice(),
  ]);
  const svcRules = chainRules(text, 'KUBE-SERVICES', 'nat');
  assert.ok(
    svcRules.includes(
      `-A KUBE-SERVICES -m comment --comment "${SPN} external IP" -m tcp -p tcp -d 203.0.113.7 --dport 80 -j ${EXT}`,
    ),
  );
  assert.ok(
    svcRules.includes(
      `-A KUBE-SERVICES -m comment --comment "${SPN} loadbalancer IP" -m tcp -p tcp -d 198.51.100.9 --dport 80 -j ${EXT}`,
    ),
  );
  assert.ok(!text.includes('198.51.100.10'), 'ipMode Proxy ingresses get no rule');
  assert.ok(!declaredChains(text, 'nat').includes(FW));
});

test('loadBalancerSourceRanges: KUBE-FW chain, KUBE-PROXY-FIREWALL drop, node IP inside a range also admits the VIP', () => {
  const items = [
    web(
      {
        type: 'LoadBalancer',
        ports: [tcp('http', 80, { nodePort: 30080 })],
        loadBalancerSourceRanges: ['192.168.0.0/16', '203.0.113.0/24'],
      },
      { loadBalancer: { ingress: [{ ip: '198.51.100.9' }] } },
    ),
    webSlice(),
  ];
  const { text } = gen(items, { nodeIPs: ['192.168.5.5'] });
  assert.ok(
    chainRules(text, 'KUBE-SERVICES', 'nat').includes(
      `-A KUBE-SERVICES -m comment --comment "${SPN} loadbalancer IP" -m tcp -p tcp -d 198.51.100.9 --dport 80 -j ${FW}`,
    ),
  );
  assert.deepEqual(chainRules(text, FW), [
    `-A ${FW} -m comment --comment "${SPN} loadbalancer IP" -s 192.168.0.0/16 -j ${EXT}`,
    `-A ${FW} -m comment --comment "${SPN} loadbalancer IP" -s 203.0.113.0/24 -j ${EXT}`,
    `-A ${FW} -m comment --comment "${SPN} loadbalancer IP" -s 198.51.100.9 -j ${EXT}`,
    `-A ${FW} -m comment --comment "other traffic to ${SPN} will be dropped by KUBE-PROXY-FIREWALL"`,
  ]);
  assert.deepEqual(chainRules(text, 'KUBE-PROXY-FIREWALL'), [
    `-A KUBE-PROXY-FIREWALL -m comment --comment "${SPN} traffic not accepted by ${FW}" -m tcp -p tcp -d 198.51.100.9 --dport 80 -j DROP`,
  ]);
  // The NodePort bypasses the source ranges, as in kube-proxy.
  assert.deepEqual(chainRules(text, 'KUBE-NODEPORTS', 'nat'), [
    `-A KUBE-NODEPORTS -m comment --comment ${SPN} -m tcp -p tcp --dport 30080 -j ${EXT}`,
  ]);
  const elsewhere = gen(items, { nodeIPs: ['10.9.9.9'] });
  assert.equal(chainRules(elsewhere.text, FW).length, 3);
  const openToAll = gen([
    web(
      { type: 'LoadBalancer', ports: [tcp('http', 80, { nodePort: 30080 })], loadBalancerSourceRanges: ['0.0.0.0/0'] },
      { loadBalancer: { ingress: [{ ip: '198.51.100.9' }] } },
    ),
    webSlice(),
  ]);
  assert.ok(!declaredChains(openToAll.text, 'nat').includes(FW), 'a zero-length range allows everyone: no firewall');
});

test('externalTrafficPolicy Local with a local endpoint: KUBE-SVL, short-circuit rules, health check port', () => {
  const eps = [
    { ip: '10.1.0.1', nodeName: 'node-a' },
    { ip: '10.1.0.2', nodeName: 'node-b' },
  ];
  const { text } = gen(
    [
      web(
        {
          type: 'LoadBalancer',
          externalTrafficPolicy: 'Local',
          healthCheckNodePort: 32000,
          ports: [tcp('http', 80, { nodePort: 30080 })],
        },
        { loadBalancer: { ingress: [{ ip: '198.51.100.9' }] } },
      ),
      webSlice(eps),
    ],
    { nodeName: 'node-a' },
  );
  assert.deepEqual(chainRules(text, EXT), [
    `-A ${EXT} -m comment --comment "pod traffic for ${SPN} external destinations" -s 10.0.0.0/8 -j ${SVC}`,
    `-A ${EXT} -m comment --comment "masquerade LOCAL traffic for ${SPN} external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ`,
    `-A ${EXT} -m comment --comment "route LOCAL traffic for ${SPN} external destinations" -m addrtype --src-type LOCAL -j ${SVC}`,
    `-A ${EXT} -j ${SVL}`,
  ]);
  assert.deepEqual(chainRules(text, SVL), [
    `-A ${SVL} -m comment --comment "${SPN} -> 10.1.0.1:8080" -j ${sep('10.1.0.1')}`,
  ]);
  assert.equal(chainRules(text, SVC).length, 3); // masquerade rule + two endpoints: cluster traffic still uses both
  assert.deepEqual(
    declaredChains(text, 'nat')
      .filter((c) => c.startsWith('KUBE-SEP-'))
      .sort(),
    [sep('10.1.0.1'), sep('10.1.0.2')].sort(),
  );
  assert.deepEqual(chainRules(text, 'KUBE-NODEPORTS', 'nat'), [
    `-A KUBE-NODEPORTS -m comment --comment ${SPN} -m tcp -p tcp --dport 30080 -j ${EXT}`,
  ]);
  assert.ok(
    tableLines(text, 'filter').includes(
      `-A KUBE-NODEPORTS -m comment --comment "${SPN} health check node port" -m tcp -p tcp --dport 32000 -j ACCEPT`,
    ),
  );
  assert.ok(!text.includes('has no local endpoints'));
});

test('externalTrafficPolicy Local without a local endpoint: DROP "has no local endpoints" for external traffic', () => {
  const { text } = gen(
    [
      web({ type: 'NodePort', externalTrafficPolicy: 'Local', ports: [tcp('http', 80, { nodePort: 30080 })] }),
      webSlice(endpoints(1, 0, 'node-b')),
    ],
    { nodeName: 'node-a' },
  );
  assert.deepEqual(chainRules(text, 'KUBE-EXTERNAL-SERVICES'), [
    `-A KUBE-EXTERNAL-SERVICES -m comment --comment "${SPN} has no local endpoints" -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 30080 -j DROP`,
  ]);
  assert.ok(!declaredChains(text, 'nat').includes(SVL));
  assert.equal(chainRules(text, EXT).length, 3, 'no fall-through to a policy chain');
  assert.ok(
    chainRules(text, 'KUBE-SERVICES', 'nat').some((l) => l.endsWith(`-j ${SVC}`)),
    'cluster IP traffic still works',
  );
  assert.ok(
    !tableLines(text, 'filter').some((l) => l.includes('health check node port')),
    'NodePort Services have no health check port',
  );
});

test('internalTrafficPolicy Local: cluster IP goes to KUBE-SVL, or is dropped when no endpoint is local', () => {
  const items = [
    web({ internalTrafficPolicy: 'Local' }),
    webSlice([
      { ip: '10.1.0.1', nodeName: 'node-a' },
      { ip: '10.1.0.2', nodeName: 'node-b' },
    ]),
  ];
  const local = gen(items, { nodeName: 'node-a' });
  assert.equal(
    chainRules(local.text, 'KUBE-SERVICES', 'nat')[0],
    `-A KUBE-SERVICES -m comment --comment "${SPN} cluster IP" -m tcp -p tcp -d 10.96.0.10 --dport 80 -j ${SVL}`,
  );
  assert.equal(chainRules(local.text, SVL).length, 2);
  assert.ok(!declaredChains(local.text, 'nat').includes(SVC));
  assert.deepEqual(
    declaredChains(local.text, 'nat').filter((c) => c.startsWith('KUBE-SEP-')),
    [sep('10.1.0.1')],
  );
  const remote = gen(items, { nodeName: 'node-c' });
  assert.ok(
    tableLines(remote.text, 'filter').includes(
      `-A KUBE-SERVICES -m comment --comment "${SPN} has no local endpoints" -m tcp -p tcp -d 10.96.0.10 --dport 80 -j DROP`,
    ),
  );
});

test('ClientIP session affinity: recent --rcheck rules before the ladder, --set in each endpoint chain', () => {
  const { text } = gen([
    web({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } } }),
    webSlice(endpoints(2)),
  ]);
  const [a, b] = [sep('10.1.0.1'), sep('10.1.0.2')];
  assert.deepEqual(chainRules(text, SVC).slice(1), [
    `-A ${SVC} -m comment --comment "${SPN} -> 10.1.0.1:8080" -m recent --name ${a} --rcheck --seconds 600 --reap -j ${a}`,
    `-A ${SVC} -m comment --comment "${SPN} -> 10.1.0.2:8080" -m recent --name ${b} --rcheck --seconds 600 --reap -j ${b}`,
    `-A ${SVC} -m comment --comment "${SPN} -> 10.1.0.1:8080" -m statistic --mode random --probability 0.5000000000 -j ${a}`,
    `-A ${SVC} -m comment --comment "${SPN} -> 10.1.0.2:8080" -j ${b}`,
  ]);
  assert.equal(
    chainRules(text, a)[1],
    `-A ${a} -m comment --comment ${SPN} -m recent --name ${a} --set -m tcp -p tcp -j DNAT --to-destination 10.1.0.1:8080`,
  );
});

test('masquerade-all, and no local detection without a cluster CIDR', () => {
  const all = gen([web(), webSlice()], { masqueradeAll: true });
  assert.equal(
    chainRules(all.text, SVC)[0],
    `-A ${SVC} -m comment --comment "${SPN} cluster IP" -m tcp -p tcp -d 10.96.0.10 --dport 80 -j KUBE-MARK-MASQ`,
  );
  const none = gen([web(), webSlice()], { clusterCidr: undefined });
  assert.deepEqual(chainRules(none.text, SVC), [
    `-A ${SVC} -m comment --comment "${SPN} -> 10.1.0.1:8080" -j ${sep('10.1.0.1')}`,
  ]);
  const byInterface = gen([web(), webSlice()], { clusterCidr: undefined, podInterfacePrefix: 'veth' });
  assert.match(chainRules(byInterface.text, SVC)[0], / --dport 80 ! -i veth\+ -j KUBE-MARK-MASQ$/);
});

test('UDP and SCTP ports use their own match module', () => {
  const { text } = gen([
    service('kube-system', 'dns', {
      clusterIP: '10.96.0.53',
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'sig', port: 9, protocol: 'SCTP' },
      ],
    }),
    slice(
      'kube-system',
      'dns',
      [{ ip: '10.1.0.5' }],
      [
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'sig', port: 9, protocol: 'SCTP' },
      ],
    ),
  ]);
  const udp = serviceChainName('KUBE-SVC-', 'kube-system/dns:dns', 'udp');
  assert.ok(
    text.includes(
      `-A KUBE-SERVICES -m comment --comment "kube-system/dns:dns cluster IP" -m udp -p udp -d 10.96.0.53 --dport 53 -j ${udp}`,
    ),
  );
  assert.ok(text.includes('-m sctp -p sctp -j DNAT --to-destination 10.1.0.5:9'));
});

test('headless and ExternalName Services get no rules', () => {
  const { text } = gen([
    service('default', 'db', { clusterIP: 'None', ports: [tcp('pg', 5432)] }),
    slice('default', 'db', endpoints(2), [tcp('pg', 5432)]),
    service('default', 'ext', { type: 'ExternalName', externalName: 'example.com', ports: [tcp('http', 80)] }),
  ]);
  assert.ok(!text.includes('default/db'));
  assert.ok(!text.includes('default/ext'));
});

test('IPv6: a v6 dump writes [ip]:port, blocks ::1 NodePorts and has no localnet guard; a v4 dump skips v6 Services', () => {
  const items = [
    service('default', 'v6', { clusterIP: 'fd00:96:0:0::10', ipFamilies: ['IPv6'], ports: [tcp('http', 80)] }),
    slice('default', 'v6', [{ ip: 'fd00:1::5' }], [tcp('http', 8080)], 'IPv6'),
    service('default', 'dual', {
      clusterIP: '10.96.0.20',
      clusterIPs: ['10.96.0.20', 'fd00:96::20'],
      ports: [tcp('http', 80)],
    }),
    slice('default', 'dual', [{ ip: '10.1.0.20' }], [tcp('http', 8080)]),
    slice('default', 'dual', [{ ip: 'fd00:1::20' }], [tcp('http', 8080)], 'IPv6'),
  ];
  const v6 = gen(items, { ipFamily: 6, clusterCidr: '10.0.0.0/8,fd00:1::/64' });
  assert.deepEqual(v6.warnings, []);
  assert.ok(
    v6.text.includes(
      '-A KUBE-SERVICES -m comment --comment "default/v6:http cluster IP" -m tcp -p tcp -d fd00:96::10 --dport 80 -j ',
    ),
  );
  assert.ok(v6.text.includes('-m tcp -p tcp -j DNAT --to-destination [fd00:1::5]:8080'));
  assert.ok(v6.text.includes(`-j ${endpointChainName('default/v6:http', 'tcp', '[fd00:1::5]:8080')}`));
  assert.ok(v6.text.includes('! -s fd00:1::/64 -j KUBE-MARK-MASQ'));
  assert.ok(v6.text.includes('-m addrtype --dst-type LOCAL ! -d ::1/128 -j KUBE-NODEPORTS'));
  assert.ok(v6.text.includes('--to-destination [fd00:1::20]:8080') && !v6.text.includes('10.1.0.20'));
  assert.ok(!v6.text.includes('block incoming localnet'));
  const v4 = gen(items);
  assert.ok(!v4.text.includes('default/v6'));
  assert.ok(v4.text.includes('--to-destination 10.1.0.20:8080') && !v4.text.includes('fd00'));
  assert.equal(v4.warnings.length, 1);
  assert.match(v4.warnings[0], /1 Service has no IPv4 cluster IP/);
});

test('by default the file declares the builtin chains and jumps into the KUBE chains', () => {
  const { text } = gen([web(), webSlice()]);
  const filter = tableLines(text, 'filter');
  const nat = tableLines(text, 'nat');
  assert.deepEqual(filter.slice(0, 3), [':INPUT ACCEPT [0:0]', ':FORWARD ACCEPT [0:0]', ':OUTPUT ACCEPT [0:0]']);
  assert.deepEqual(nat.slice(0, 4), [
    ':PREROUTING ACCEPT [0:0]',
    ':INPUT ACCEPT [0:0]',
    ':OUTPUT ACCEPT [0:0]',
    ':POSTROUTING ACCEPT [0:0]',
  ]);
  assert.deepEqual(chainRules(text, 'PREROUTING'), [
    '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
  ]);
  assert.deepEqual(chainRules(text, 'POSTROUTING'), [
    '-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING',
  ]);
  assert.equal(chainRules(text, 'INPUT').at(-1), '-A INPUT -j KUBE-FIREWALL');
  assert.ok(
    chainRules(text, 'FORWARD').includes(
      '-A FORWARD -m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD',
    ),
  );
  // Every jump target is declared in its table.
  for (const table of ['filter', 'nat']) {
    const declared = new Set(declaredChains(text, table));
    for (const l of tableLines(text, table).filter((x) => x.startsWith('-A '))) {
      assert.ok(declared.has(l.split(' ')[1]), `${table}: ${l}`);
      const target = / -j (KUBE-\S+)/.exec(l)?.[1];
      if (target) assert.ok(declared.has(target), `${table}: undeclared ${target}`);
    }
  }
  const bare = gen([web(), webSlice()], { builtinJumps: false });
  assert.ok(!bare.text.includes(':INPUT') && !bare.text.includes('-A PREROUTING'));
});

test('the fixed chains: KUBE-MARK-MASQ, KUBE-POSTROUTING, KUBE-FORWARD, KUBE-FIREWALL, and their options', () => {
  const base = gen([web(), webSlice()]);
  assert.deepEqual(chainRules(base.text, 'KUBE-MARK-MASQ'), ['-A KUBE-MARK-MASQ -j MARK --or-mark 0x4000']);
  assert.deepEqual(chainRules(base.text, 'KUBE-POSTROUTING'), [
    '-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN',
    '-A KUBE-POSTROUTING -j MARK --xor-mark 0x4000',
    '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE',
  ]);
  assert.deepEqual(chainRules(base.text, 'KUBE-FORWARD'), [
    '-A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP',
    '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT',
    '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
  ]);
  assert.equal(chainRules(base.text, 'KUBE-FIREWALL').length, 1);

  const tuned = gen([web(), webSlice()], {
    randomFully: true,
    conntrackTcpBeLiberal: true,
    localhostNodePorts: false,
    masqueradeBit: 15,
  });
  assert.equal(
    chainRules(tuned.text, 'KUBE-POSTROUTING')[2],
    '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
  );
  assert.deepEqual(chainRules(tuned.text, 'KUBE-MARK-MASQ'), ['-A KUBE-MARK-MASQ -j MARK --or-mark 0x8000']);
  assert.equal(chainRules(tuned.text, 'KUBE-FORWARD').length, 2);
  assert.deepEqual(chainRules(tuned.text, 'KUBE-FIREWALL'), []);
  assert.match(
    chainRules(tuned.text, 'KUBE-SERVICES', 'nat').at(-1)!,
    /-m addrtype --dst-type LOCAL ! -d 127\.0\.0\.0\/8 -j KUBE-NODEPORTS$/,
  );

  const pinned = gen([web(), webSlice()], {
    nodePortAddresses: ['192.168.0.0/24'],
    nodeIPs: ['192.168.0.7', '10.0.0.7'],
  });
  assert.equal(
    chainRules(pinned.text, 'KUBE-SERVICES', 'nat').at(-1),
    '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -d 192.168.0.7 -j KUBE-NODEPORTS',
  );
});

test('large clusters (more than 1000 endpoints) lose the per-endpoint comments, as in kube-proxy', () => {
  const items = [web(), webSlice(Array.from({ length: 1001 }, (_, i) => ({ ip: `10.3.${i >> 8}.${i & 255}` })))];
  const auto = gen(items);
  assert.equal(auto.stats.largeClusterMode, true);
  const a = sep('10.3.0.1');
  assert.deepEqual(chainRules(auto.text, a), [
    `-A ${a} -s 10.3.0.1 -j KUBE-MARK-MASQ`,
    `-A ${a} -m tcp -p tcp -j DNAT --to-destination 10.3.0.1:8080`,
  ]);
  assert.match(
    chainRules(auto.text, SVC)[1],
    new RegExp(`^-A ${SVC} -m statistic --mode random --probability 0.0009990010 -j KUBE-SEP-`),
  );
  assert.ok(chainRules(auto.text, SVC)[0].includes('cluster IP'), 'the cluster IP rules keep their comments');
  const kept = gen(items, { largeClusterMode: false });
  assert.ok(chainRules(kept.text, a)[0].includes(`--comment ${SPN}`));
});

test('output does not depend on input order', () => {
  const items = [
    web({ type: 'NodePort', ports: [tcp('http', 80, { nodePort: 30080 }), tcp('admin', 81, { nodePort: 30081 })] }),
    webSlice(endpoints(3), [tcp('http', 8080), tcp('admin', 8081)]),
    service('a', 'api', { clusterIP: '10.96.0.2', ports: [tcp('', 443)] }),
    slice('a', 'api', [{ ip: '10.1.9.9' }, { ip: '10.1.9.1' }], [tcp('', 6443)]),
    service('a-b', 'x', { clusterIP: '10.96.0.3', ports: [tcp('', 80)] }),
    slice('a-b', 'x', [{ ip: '10.1.8.1' }], [tcp('', 80)]),
  ];
  const one = gen(items).text;
  const two = gen([...items].reverse()).text;
  assert.equal(two, one);
  const svcRules = chainRules(one, 'KUBE-SERVICES', 'nat').map((l) => /--comment "([^ ]+)/.exec(l)?.[1]);
  assert.deepEqual(svcRules.slice(0, 4), ['a-b/x', 'a/api', 'default/web:admin', 'default/web:http']);
});

test('every rule line splits into well-formed words: quoted comments, balanced quotes, no stray characters', () => {
  const { text } = gen(
    [
      web(
        {
          type: 'LoadBalancer',
          externalTrafficPolicy: 'Local',
          healthCheckNodePort: 32000,
          ports: [tcp('http', 80, { nodePort: 30080 })],
          loadBalancerSourceRanges: ['203.0.113.0/24'],
          sessionAffinity: 'ClientIP',
        },
        { loadBalancer: { ingress: [{ ip: '198.51.100.9' }] } },
      ),
      webSlice([{ ip: '10.1.0.1', nodeName: 'n1' }, { ip: '10.1.0.2' }]),
      service('default', 'empty', { clusterIP: '10.96.0.99', ports: [tcp('', 80)] }),
    ],
    { nodeName: 'n1' },
  );
  for (const line of text.split('\n')) {
    if (!line) continue;
    assert.match(line, /^(\*(filter|nat)|COMMIT|:[A-Z][-A-Z0-9]* (ACCEPT|-) \[0:0\]|-A [A-Z][-A-Z0-9]*( .*)?)$/, line);
    assert.equal((line.match(/"/g) ?? []).length % 2, 0, line);
    const comments = [...line.matchAll(/--comment ("[^"]*"|\S+)/g)].map((m) => m[1]);
    for (const c of comments) if (!c.startsWith('"')) assert.ok(!/\s/.test(c), line);
    assert.ok(!/[\t\r]/.test(line));
  }
});

test('bad options become warnings, never exceptions', () => {
  const snapshot = normaliseCluster(list(web(), webSlice()));
  const r = generateIptablesRestore(snapshot, {
    clusterCidr: 'not-a-cidr',
    masqueradeBit: 99,
    nodeIPs: ['x'],
    nodePortAddresses: ['nope'],
    podInterfacePrefix: 'bad name!',
    ipFamily: 5 as 4,
  });
  assert.equal(r.warnings.length, 6);
  assert.ok(r.text.includes('-j MARK --or-mark 0x4000'));
});
