import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normaliseCluster, parseClusterJson } from '../../../src/core/kube/objects';

const codes = (s: { issues: { code: string }[] }) => s.issues.map((i) => i.code);

/** The shape of `kubectl get svc,endpoints -A -o json` (written for this test). */
const kubectlList = {
  apiVersion: 'v1',
  kind: 'List',
  metadata: { resourceVersion: '' },
  items: [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default' },
      spec: {
        clusterIP: '172.16.0.1',
        clusterIPs: ['172.16.0.1'],
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
        sessionAffinity: 'None',
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'shop', namespace: 'prod' },
      spec: {
        type: 'LoadBalancer',
        clusterIP: '172.16.5.5',
        ports: [{ name: 'web', port: 80, targetPort: 'http', nodePort: 31080 }],
        externalIPs: ['203.0.113.4'],
        externalTrafficPolicy: 'Local',
        internalTrafficPolicy: 'Cluster',
        healthCheckNodePort: 32001,
        loadBalancerSourceRanges: ['198.51.100.0/24 '],
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 300 } },
      },
      status: {
        loadBalancer: {
          ingress: [{ ip: '192.0.2.10' }, { ip: '192.0.2.11', ipMode: 'Proxy' }, { hostname: 'lb.example.com' }],
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'kubernetes', namespace: 'default' },
      subsets: [
        {
          addresses: [{ ip: '192.168.1.10' }, { ip: '192.168.1.11' }],
          ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
        },
      ],
    },
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'shop', namespace: 'prod' },
      subsets: [
        {
          addresses: [{ ip: '10.244.1.5', nodeName: 'node-1' }],
          notReadyAddresses: [{ ip: '10.244.2.6', nodeName: 'node-2' }],
          ports: [{ name: 'web', port: 8080 }],
        },
      ],
    },
  ],
};

test('kubectl get svc,endpoints -A -o json: Services and Endpoints become a snapshot', () => {
  const s = normaliseCluster(kubectlList);
  assert.deepEqual(s.issues, []);
  assert.deepEqual(s.services[0], {
    namespace: 'default',
    name: 'kubernetes',
    type: 'ClusterIP',
    clusterIP: '172.16.0.1',
    clusterIPs: ['172.16.0.1'],
    ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
    externalIPs: [],
    loadBalancerIPs: [],
    loadBalancerProxyIPs: [],
    loadBalancerSourceRanges: [],
    externalTrafficPolicy: 'Cluster',
    internalTrafficPolicy: 'Cluster',
    sessionAffinity: 'None',
    affinityTimeoutSeconds: 10800,
  });
  const shop = s.services[1];
  assert.equal(shop.type, 'LoadBalancer');
  assert.deepEqual(shop.clusterIPs, ['172.16.5.5']);
  assert.deepEqual(shop.ports, [{ name: 'web', port: 80, protocol: 'TCP', targetPort: 'http', nodePort: 31080 }]);
  assert.deepEqual(shop.loadBalancerIPs, ['192.0.2.10']);
  assert.deepEqual(shop.loadBalancerProxyIPs, ['192.0.2.11']);
  assert.deepEqual(shop.loadBalancerSourceRanges, ['198.51.100.0/24']);
  assert.equal(shop.externalTrafficPolicy, 'Local');
  assert.equal(shop.healthCheckNodePort, 32001);
  assert.equal(shop.sessionAffinity, 'ClientIP');
  assert.equal(shop.affinityTimeoutSeconds, 300);
  assert.deepEqual(
    s.endpoints['default/kubernetes'].https.map((e) => e.ip),
    ['192.168.1.10', '192.168.1.11'],
  );
  assert.deepEqual(s.endpoints['prod/shop'].web, [
    {
      ip: '10.244.1.5',
      port: 8080,
      protocol: 'TCP',
      ready: true,
      serving: true,
      terminating: false,
      nodeName: 'node-1',
    },
    {
      ip: '10.244.2.6',
      port: 8080,
      protocol: 'TCP',
      ready: false,
      serving: false,
      terminating: false,
      nodeName: 'node-2',
    },
  ]);
  assert.deepEqual(s.endpointSources, { 'default/kubernetes': 'Endpoints', 'prod/shop': 'Endpoints' });
  assert.equal(s.pods, undefined);
});

test('typed lists from the API (items without kind) and EndpointSlice v1/v1beta1', () => {
  const services = {
    kind: 'ServiceList',
    apiVersion: 'v1',
    items: [{ metadata: { name: 'api', namespace: 'a' }, spec: { clusterIP: '10.0.0.1', ports: [{ port: 80 }] } }],
  };
  const v1 = {
    kind: 'EndpointSliceList',
    apiVersion: 'discovery.k8s.io/v1',
    items: [
      {
        metadata: { name: 'api-abcde', namespace: 'a', labels: { 'kubernetes.io/service-name': 'api' } },
        addressType: 'IPv4',
        endpoints: [
          { addresses: ['10.1.0.1'], conditions: { ready: true }, nodeName: 'n1', zone: 'z1' },
          { addresses: ['10.1.0.2'], conditions: { ready: false, serving: true, terminating: true } },
        ],
        ports: [{ name: '', port: 8080, protocol: 'TCP' }],
      },
    ],
  };
  const v1beta1 = {
    apiVersion: 'discovery.k8s.io/v1beta1',
    kind: 'EndpointSlice',
    metadata: { name: 'api-fghij', namespace: 'a', labels: { 'kubernetes.io/service-name': 'api' } },
    addressType: 'IPv4',
    endpoints: [
      {
        addresses: ['10.1.0.3'],
        conditions: { ready: true },
        topology: { 'kubernetes.io/hostname': 'n3', 'topology.kubernetes.io/zone': 'z3' },
      },
    ],
    ports: [{ port: 8080 }],
  };
  const s = normaliseCluster([services, v1, v1beta1]);
  assert.deepEqual(s.issues, []);
  assert.equal(s.services[0].name, 'api');
  assert.deepEqual(s.services[0].ports, [{ name: '', port: 80, protocol: 'TCP' }]);
  assert.deepEqual(s.endpoints['a/api'][''], [
    {
      ip: '10.1.0.1',
      port: 8080,
      protocol: 'TCP',
      ready: true,
      serving: true,
      terminating: false,
      nodeName: 'n1',
      zone: 'z1',
    },
    { ip: '10.1.0.2', port: 8080, protocol: 'TCP', ready: false, serving: true, terminating: true },
    {
      ip: '10.1.0.3',
      port: 8080,
      protocol: 'TCP',
      ready: true,
      serving: true,
      terminating: false,
      nodeName: 'n3',
      zone: 'z3',
    },
  ]);
  assert.equal(s.endpointSources['a/api'], 'EndpointSlice');
});

test('EndpointSlices win over Endpoints for the same Service; Endpoints still serve Services without slices', () => {
  const s = normaliseCluster({
    kind: 'List',
    items: [
      {
        kind: 'Endpoints',
        metadata: { name: 'a', namespace: 'x' },
        subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }],
      },
      {
        kind: 'Endpoints',
        metadata: { name: 'b', namespace: 'x' },
        subsets: [{ addresses: [{ ip: '10.0.0.2' }], ports: [{ port: 80 }] }],
      },
      {
        kind: 'EndpointSlice',
        metadata: { name: 'a-1', namespace: 'x', labels: { 'kubernetes.io/service-name': 'a' } },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.0.0.9'] }],
        ports: [{ name: '', port: 80 }],
      },
    ],
  });
  assert.deepEqual(
    s.endpoints['x/a'][''].map((e) => e.ip),
    ['10.0.0.9'],
  );
  assert.deepEqual(
    s.endpoints['x/b'][''].map((e) => e.ip),
    ['10.0.0.2'],
  );
  assert.deepEqual(s.endpointSources, { 'x/a': 'EndpointSlice', 'x/b': 'Endpoints' });
});

test('the same endpoint in two slices is kept once, preferring the copy that names its node', () => {
  const mk = (name: string, nodeName?: string) => ({
    kind: 'EndpointSlice',
    metadata: { name, namespace: 'x', labels: { 'kubernetes.io/service-name': 'a' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.0.0.1'], ...(nodeName ? { nodeName } : {}) }],
    ports: [{ name: 'p', port: 80 }],
  });
  const s = normaliseCluster([mk('a-1'), mk('a-2', 'n1')]);
  assert.deepEqual(s.endpoints['x/a'].p, [
    { ip: '10.0.0.1', port: 80, protocol: 'TCP', ready: true, serving: true, terminating: false, nodeName: 'n1' },
  ]);
});

test('bad objects and fields become coded issues with paths; the rest is kept', () => {
  const s = normaliseCluster({
    kind: 'List',
    items: [
      {
        kind: 'Service',
        metadata: { name: 'Bad Name', namespace: 'x' },
        spec: { clusterIP: '10.0.0.1', ports: [{ port: 80 }] },
      },
      { kind: 'Service', metadata: { name: 'inj" -j ACCEPT', namespace: 'x' }, spec: { clusterIP: '10.0.0.1' } },
      {
        kind: 'Service',
        metadata: { name: 'ip', namespace: 'x' },
        spec: { clusterIP: '10.0.0.300', ports: [{ port: 80 }] },
      },
      {
        kind: 'Service',
        metadata: { name: 'ok', namespace: 'x' },
        spec: {
          clusterIP: '10.0.0.2',
          externalIPs: ['1.2.3.4', 'nope'],
          loadBalancerSourceRanges: ['10.0.0.0/33'],
          ports: [
            { name: 'a', port: 80 },
            { name: 'b', port: 70000 },
            { name: 'c', port: 81, protocol: 'ICMP' },
            { name: 'a', port: 82 },
            { name: 'UPPER', port: 83 },
          ],
          sessionAffinity: 'ClientIP',
          sessionAffinityConfig: { clientIP: { timeoutSeconds: -1 } },
        },
      },
      { kind: 'Service', metadata: { name: 'ok', namespace: 'x' }, spec: { clusterIP: '10.0.0.3' } },
      { kind: 'Service', metadata: { name: 'nons' }, spec: { clusterIP: '10.0.0.4' } },
      {
        kind: 'EndpointSlice',
        metadata: { name: 'orphan-1', namespace: 'x' },
        addressType: 'IPv4',
        endpoints: [],
        ports: [],
      },
      {
        kind: 'EndpointSlice',
        metadata: { name: 'ok-1', namespace: 'x', labels: { 'kubernetes.io/service-name': 'ok' } },
        addressType: 'IPv4',
        endpoints: [
          { addresses: ['10.9.9.9'] },
          { addresses: ['x.y'] },
          { addresses: ['10.9.9.8'], nodeName: 'Bad_Node' },
        ],
        ports: [{ name: 'a', port: 8080 }, { name: 'z' }],
      },
      { kind: 'ConfigMap', metadata: { name: 'c', namespace: 'x' } },
      42,
    ],
  });
  assert.deepEqual(
    s.services.map((x) => `${x.namespace}/${x.name}`),
    ['x/ok', 'default/nons'],
  );
  const ok = s.services[0];
  assert.deepEqual(ok.externalIPs, ['1.2.3.4']);
  assert.deepEqual(ok.loadBalancerSourceRanges, []);
  assert.deepEqual(
    ok.ports.map((p) => p.name),
    ['a'],
  );
  assert.equal(ok.affinityTimeoutSeconds, 10800);
  assert.deepEqual(
    s.endpoints['x/ok'].a.map((e) => [e.ip, e.nodeName]),
    [
      ['10.9.9.9', undefined],
      ['10.9.9.8', undefined],
    ],
  );
  assert.deepEqual(codes(s).sort(), [
    'duplicate-port-name',
    'duplicate-service',
    'ignored-kind',
    'invalid-affinity-timeout',
    'invalid-cluster-ip',
    'invalid-endpoint-ip',
    'invalid-external-ip',
    'invalid-name',
    'invalid-name',
    'invalid-node-name',
    'invalid-object',
    'invalid-port',
    'invalid-port',
    'invalid-port-name',
    'invalid-protocol',
    'invalid-source-range',
    'missing-namespace',
    'slice-without-service',
  ]);
  const ip = s.issues.find((i) => i.code === 'invalid-cluster-ip')!;
  assert.equal(ip.path, 'items[2].spec.clusterIP');
  assert.ok(s.warnings.includes(`items[2].spec.clusterIP: ${ip.message}`));
  assert.equal(s.warnings.length, s.issues.length);
});

test('headless and ExternalName Services stay in the snapshot (the generator skips them)', () => {
  const s = normaliseCluster([
    { kind: 'Service', metadata: { name: 'db', namespace: 'x' }, spec: { clusterIP: 'None', ports: [{ port: 5432 }] } },
    {
      kind: 'Service',
      metadata: { name: 'ext', namespace: 'x' },
      spec: { type: 'ExternalName', externalName: 'db.example.com' },
    },
  ]);
  assert.deepEqual(s.issues, []);
  assert.equal(s.services[0].clusterIP, 'None');
  assert.deepEqual(s.services[0].clusterIPs, []);
  assert.equal(s.services[1].externalName, 'db.example.com');
});

test('Pods and Nodes are kept when present', () => {
  const s = normaliseCluster({
    kind: 'List',
    items: [
      {
        kind: 'Pod',
        metadata: { name: 'web-1', namespace: 'x' },
        spec: { nodeName: 'n1' },
        status: { podIP: '10.1.0.5', podIPs: [{ ip: '10.1.0.5' }, { ip: 'fd00::5' }], phase: 'Running' },
      },
      {
        kind: 'Node',
        metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'eu-1a' } },
        spec: { podCIDR: '10.1.0.0/24' },
        status: {
          addresses: [
            { type: 'InternalIP', address: '192.168.0.5' },
            { type: 'Hostname', address: 'n1' },
            { type: 'ExternalIP', address: '203.0.113.5' },
          ],
        },
      },
    ],
  });
  assert.deepEqual(s.pods, [
    {
      namespace: 'x',
      name: 'web-1',
      ip: '10.1.0.5',
      ips: ['10.1.0.5', 'fd00::5'],
      hostNetwork: false,
      nodeName: 'n1',
      phase: 'Running',
    },
  ]);
  assert.deepEqual(s.nodes, [
    {
      name: 'n1',
      internalIPs: ['192.168.0.5'],
      externalIPs: ['203.0.113.5'],
      podCIDRs: ['10.1.0.0/24'],
      zone: 'eu-1a',
    },
  ]);
});

test('text that is not JSON gives one invalid-json issue', () => {
  const s = parseClusterJson('{"kind": "List", items: [');
  assert.deepEqual(codes(s), ['invalid-json']);
  assert.deepEqual(s.services, []);
  assert.deepEqual(codes(parseClusterJson(JSON.stringify(kubectlList))), []);
});

test('any JSON value normalises without throwing, and every issue has a code and a path', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
      const s = normaliseCluster(v);
      for (const i of s.issues) assert.ok(/^[a-z]+(-[a-z]+)*$/.test(i.code) && i.path.length > 0);
    }),
    { numRuns: 300 },
  );
  // Objects that look like Kubernetes items but carry random field values.
  const item = fc.record(
    {
      kind: fc.constantFrom('Service', 'Endpoints', 'EndpointSlice', 'Pod', 'Node'),
      metadata: fc.record(
        {
          name: fc.oneof(fc.string(), fc.constant('ok')),
          namespace: fc.oneof(fc.string(), fc.constant('ns')),
          labels: fc.dictionary(fc.string(), fc.jsonValue()),
        },
        { requiredKeys: [] },
      ),
      spec: fc.dictionary(
        fc.constantFrom(
          'clusterIP',
          'clusterIPs',
          'ports',
          'type',
          'externalIPs',
          'loadBalancerSourceRanges',
          'sessionAffinityConfig',
          'podCIDRs',
        ),
        fc.jsonValue(),
      ),
      subsets: fc.array(fc.dictionary(fc.constantFrom('addresses', 'notReadyAddresses', 'ports'), fc.jsonValue())),
      endpoints: fc.jsonValue(),
      ports: fc.jsonValue(),
      status: fc.jsonValue(),
    },
    { requiredKeys: ['kind'] },
  );
  fc.assert(
    fc.property(fc.array(item, { maxLength: 8 }), (items) => void normaliseCluster({ kind: 'List', items })),
    { numRuns: 300 },
  );
});

test('an endpoint names its pod from targetRef (slices and Endpoints); other kinds and bad names are left out', () => {
  const s = normaliseCluster([
    {
      kind: 'Service',
      metadata: { namespace: 'a', name: 'web' },
      spec: { clusterIP: '10.0.0.8', ports: [{ port: 80 }] },
    },
    {
      kind: 'EndpointSlice',
      apiVersion: 'discovery.k8s.io/v1',
      metadata: { namespace: 'a', name: 'web-x', labels: { 'kubernetes.io/service-name': 'web' } },
      addressType: 'IPv4',
      endpoints: [
        { addresses: ['10.1.0.5'], targetRef: { kind: 'Pod', name: 'web-0' } },
        { addresses: ['10.1.0.6'], targetRef: { kind: 'Node', name: 'n1' } },
        { addresses: ['10.1.0.7'], targetRef: { kind: 'Pod', name: 'bad;rm -rf' } },
      ],
      ports: [{ port: 8080 }],
    },
    {
      kind: 'Service',
      metadata: { namespace: 'a', name: 'old' },
      spec: { clusterIP: '10.0.0.9', ports: [{ port: 80 }] },
    },
    {
      kind: 'Endpoints',
      metadata: { namespace: 'a', name: 'old' },
      subsets: [{ addresses: [{ ip: '10.1.0.9', targetRef: { kind: 'Pod', name: 'old-1' } }], ports: [{ port: 80 }] }],
    },
  ]);
  assert.deepEqual(
    s.endpoints['a/web'][''].map((e) => e.pod),
    ['web-0', undefined, undefined],
  );
  assert.equal(s.endpoints['a/old'][''][0].pod, 'old-1');
});

test("a Service's endpoints over many slices: one entry per address and port, a later slice's node name kept", () => {
  const slice = (n: number, addresses: string[], nodeName?: string) => ({
    kind: 'EndpointSlice',
    apiVersion: 'discovery.k8s.io/v1',
    metadata: { name: `big-${n}`, namespace: 'a', labels: { 'kubernetes.io/service-name': 'big' } },
    addressType: 'IPv4',
    endpoints: addresses.map((ip) => ({
      addresses: [ip],
      conditions: { ready: true },
      ...(nodeName ? { nodeName } : {}),
    })),
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  });
  const ips = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `10.2.${(from + i) >> 8}.${(from + i) & 255}`);
  const s = normaliseCluster([
    {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'big', namespace: 'a' },
      spec: { clusterIP: '10.0.0.9', ports: [{ name: 'http', port: 80 }] },
    },
    slice(1, ips(0, 100)),
    slice(2, ips(100, 100), 'n2'),
    // During a rollout a slice repeats addresses of others: the first entry stays, and gains the node it lacked.
    slice(3, [...ips(50, 10), ...ips(150, 10)], 'n3'),
    slice(4, ips(200, 100)),
  ]);
  const eps = s.endpoints['a/big'].http;
  assert.equal(eps.length, 300);
  assert.deepEqual(
    eps.slice(48, 62).map((e) => `${e.ip} ${e.nodeName ?? '-'}`),
    ['10.2.0.48 -', '10.2.0.49 -', ...ips(50, 10).map((ip) => `${ip} n3`), '10.2.0.60 -', '10.2.0.61 -'],
  );
  assert.deepEqual(eps.filter((e) => e.nodeName === 'n2').length, 100, 'the slice that knew its node first keeps it');
});

test('IPv4 with leading zeros reads as Kubernetes reads it (decimal), in every address field, with one note', () => {
  const snap = normaliseCluster([
    {
      kind: 'Service',
      metadata: { name: 'legacy', namespace: 'apps' },
      spec: {
        type: 'LoadBalancer',
        clusterIP: '010.096.000.010',
        clusterIPs: ['010.096.000.010'],
        externalIPs: ['203.000.113.009'],
        loadBalancerSourceRanges: ['010.000.000.000/8'],
        ports: [{ name: 'dns', port: 53, protocol: 'UDP', nodePort: 30053 }],
      },
      status: { loadBalancer: { ingress: [{ ip: '192.000.002.077' }] } },
    },
    {
      kind: 'Endpoints',
      metadata: { name: 'legacy', namespace: 'apps' },
      subsets: [
        {
          addresses: [{ ip: '010.244.001.008' }],
          notReadyAddresses: [{ ip: '10.244.2.9' }],
          ports: [{ name: 'dns', port: 53, protocol: 'UDP' }],
        },
      ],
    },
    {
      kind: 'Pod',
      metadata: { name: 'old', namespace: 'apps' },
      spec: { nodeName: 'n1' },
      status: { podIP: '010.244.001.008', podIPs: [{ ip: '010.244.001.008' }] },
    },
    {
      kind: 'Node',
      metadata: { name: 'n1' },
      spec: { podCIDRs: ['010.244.001.000/24'] },
      status: {
        addresses: [
          { type: 'InternalIP', address: '172.016.000.011' },
          { type: 'ExternalIP', address: '198.051.100.007' },
        ],
      },
    },
  ]);
  const svc = snap.services[0];
  // `010` is ten, not octal eight: Go's parser read every part as decimal.
  assert.equal(svc.clusterIP, '10.96.0.10');
  assert.deepEqual(svc.clusterIPs, ['10.96.0.10']);
  assert.deepEqual(svc.externalIPs, ['203.0.113.9']);
  assert.deepEqual(svc.loadBalancerIPs, ['192.0.2.77']);
  assert.deepEqual(svc.loadBalancerSourceRanges, ['10.0.0.0/8']);
  assert.deepEqual(
    snap.endpoints['apps/legacy'].dns.map((e) => [e.ip, e.ready]),
    [
      ['10.244.1.8', true],
      ['10.244.2.9', false],
    ],
  );
  assert.equal(snap.pods?.[0].ip, '10.244.1.8');
  assert.deepEqual(snap.pods?.[0].ips, ['10.244.1.8']);
  assert.deepEqual(snap.nodes?.[0].internalIPs, ['172.16.0.11']);
  assert.deepEqual(snap.nodes?.[0].externalIPs, ['198.51.100.7']);
  assert.deepEqual(snap.nodes?.[0].podCIDRs, ['10.244.1.0/24']);
  assert.deepEqual(codes(snap), ['legacy-ip']);
  assert.equal(snap.issues[0].path, '[0].spec.clusterIP');
  assert.match(
    snap.issues[0].message,
    /"010\.096\.000\.010" has leading zeros: read as 10\.96\.0\.10.*\(10 more addresses so written\)/,
  );
});

test('what is no address with leading zeros either stays an invalid address', () => {
  for (const bad of [
    '256.0.0.1',
    '0256.0.0.1',
    '010.096.000',
    '010.096.000.010.1',
    '0x0a.0.0.1',
    '10.96.0.1 ',
    '１０.96.0.1',
  ]) {
    const snap = normaliseCluster([
      { kind: 'Service', metadata: { name: 's', namespace: 'a' }, spec: { clusterIP: bad, ports: [{ port: 80 }] } },
    ]);
    assert.equal(snap.services.length, 0, bad);
    assert.deepEqual(codes(snap), ['invalid-cluster-ip'], bad);
  }
});

test('a list whose pages repeat its items gives one duplicate-service issue, not one per repeat', () => {
  const page = ['a', 'b', 'c'].map((name) => ({
    kind: 'Service',
    metadata: { name, namespace: 'shop' },
    spec: { clusterIP: '10.96.0.1', ports: [{ port: 80 }] },
  }));
  // A proxy that hands out the same page three times.
  const snap = normaliseCluster({ kind: 'ServiceList', items: [...page, ...page, ...page] });
  assert.deepEqual(
    snap.services.map((s) => s.name),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(codes(snap), ['duplicate-service']);
  assert.equal(snap.issues[0].path, 'items[3]');
  assert.equal(
    snap.issues[0].message,
    'Service shop/a appears twice; the first is kept (5 more repeats of Services, the first of each kept)',
  );
  const once = normaliseCluster([page[0], page[0]]);
  assert.deepEqual(once.warnings, ['[1]: Service shop/a appears twice; the first is kept']);
});
