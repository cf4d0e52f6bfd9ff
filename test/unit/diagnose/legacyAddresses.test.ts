// Kubernetes' API accepted IPv4 with leading zeros for years (Go's parser before 1.17 read `010.096.000.010` as
// 10.96.0.10, decimal) and serves what it stored; kube-proxy reads them so (netutils.ParseIPSloppy) and programs the
// canonical address, which is what a node's dump prints. API objects written here as such a cluster serves them
// (core/v1 Endpoints, as a ~1.20 cluster; discovery.k8s.io/v1 EndpointSlices) go from the objects to the verdict.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pickSource } from '../../../src/cluster/diagnose';
import type { KubeObject } from '../../../src/cluster/session';
import { normaliseCluster } from '../../../src/core/kube/objects';
import {
  both,
  calicoPod,
  connects,
  dnsOk,
  evidence,
  nodeDump,
  PLANS,
  scenario,
  service as serviceOf,
  type AddressPlan,
} from './fixtures';

/** Every part of an IPv4 address written with three digits, as old clients stored them. */
function padded(ip: string): string {
  return ip
    .split('.')
    .map((part) => part.padStart(3, '0'))
    .join('.');
}

function serviceObject(p: AddressPlan, clusterIP: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: p.svcName, namespace: p.svcNamespace },
    spec: {
      type: 'ClusterIP',
      clusterIP,
      clusterIPs: [clusterIP],
      selector: { app: p.svcName },
      ports: [{ name: p.portName || undefined, port: p.port, protocol: 'TCP', targetPort: p.targetPort }],
      sessionAffinity: 'None',
    },
    status: { loadBalancer: {} },
  };
}

function endpointsObject(p: AddressPlan, address: (ip: string) => string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: p.svcName, namespace: p.svcNamespace },
    subsets: [
      {
        addresses: p.endpoints.map((ip, i) => ({
          ip: address(ip),
          nodeName: `peer-${i}`,
          targetRef: { kind: 'Pod', namespace: p.svcNamespace, name: `${p.svcName}-${i}` },
        })),
        ports: [{ ...(p.portName ? { name: p.portName } : {}), port: p.targetPort, protocol: 'TCP' }],
      },
    ],
  };
}

function sliceObject(p: AddressPlan, address: (ip: string) => string): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${p.svcName}-x7k2q`,
      namespace: p.svcNamespace,
      labels: { 'kubernetes.io/service-name': p.svcName },
    },
    addressType: 'IPv4',
    endpoints: p.endpoints.map((ip, i) => ({
      addresses: [address(ip)],
      conditions: { ready: true, serving: true, terminating: false },
      nodeName: `peer-${i}`,
    })),
    ports: [{ name: p.portName, port: p.targetPort, protocol: 'TCP' }],
  };
}

function podObject(p: AddressPlan, name: string, ip: string, over: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: p.svcNamespace },
    spec: { nodeName: p.nodeName, containers: [{ name: 'app' }] },
    status: { phase: 'Running', podIP: ip, podIPs: [{ ip }] },
    ...over,
  };
}

function nodeObject(p: AddressPlan): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: p.nodeName },
    spec: { podCIDR: padded(p.podCIDR.split('/')[0]) + '/' + p.podCIDR.split('/')[1] },
    status: { addresses: [{ type: 'InternalIP', address: padded(p.nodeIP) }] },
  };
}

/** The diagnosis' input as the cluster side assembles it from these objects. */
function inputFrom(p: AddressPlan, objects: KubeObject[]) {
  const snap = normaliseCluster(objects);
  const svc = snap.services[0];
  assert.ok(svc, `the Service is kept: ${snap.warnings.join('; ')}`);
  const eps = snap.endpoints[`${p.svcNamespace}/${p.svcName}`]?.[p.portName] ?? [];
  const source = snap.pods?.find((q) => q.name === p.podName);
  const node = snap.nodes?.[0];
  assert.ok(source && node);
  // The node's rules as kube-proxy wrote them: canonical addresses, as iptables-save prints them.
  const rules = (n: number) => nodeDump(p, { svc: serviceOf(p), svcPackets: n });
  return {
    snap,
    input: scenario({
      plan: p,
      svc,
      eps,
      pod: source,
      node,
      outputs: { ...calicoPod(p), ...connects(p, 'ok', 'ok'), ...dnsOk(p) },
      nodeEvidence: evidence(p, rules(0), rules(1)),
    }),
  };
}

describe('addresses the API stored with leading zeros', () => {
  for (const p of PLANS) {
    test(`plan ${p.name}: a Service whose clusterIP and endpoints are padded is diagnosed, not dropped`, () => {
      const { snap, input } = inputFrom(p, [
        serviceObject(p, padded(p.clusterIP)),
        endpointsObject(p, padded),
        podObject(p, p.podName, padded(p.podIP)),
        nodeObject(p),
      ]);
      assert.equal(input.service.clusterIP, p.clusterIP);
      assert.deepEqual(input.service.clusterIPs, [p.clusterIP]);
      assert.deepEqual(
        input.endpoints.map((e) => e.ip),
        p.endpoints,
      );
      assert.equal(input.source.ip, p.podIP);
      assert.deepEqual(input.node?.internalIPs, [p.nodeIP]);
      assert.deepEqual(input.node?.podCIDRs, [p.podCIDR]);
      // One note for all of them, naming the first and what it reads as.
      const notes = snap.issues.filter((i) => i.code === 'legacy-ip');
      assert.equal(notes.length, 1);
      assert.match(notes[0].message, new RegExp(`"${padded(p.clusterIP)}" has leading zeros: read as ${p.clusterIP}`));
      const { en, zh } = both(input);
      assert.equal(en.code, 'ok', en.summary);
      assert.equal(zh.code, 'ok');
      // The pod probes the addresses kube-proxy DNATs to; the padded text appears nowhere in the verdict.
      for (const ip of p.endpoints)
        assert.ok(input.checks.some((c) => c.id === `connect-endpoint:${ip}:${p.targetPort}`));
      const texts = [en.summary, ...en.evidence.map((e) => e.text)].join('\n');
      assert.ok(texts.includes(p.clusterIP) && !texts.includes(padded(p.clusterIP)), texts);
    });

    test(`plan ${p.name}: padded endpoint addresses (Endpoints and EndpointSlices) are no "no-endpoints"`, () => {
      for (const endpointsOf of [endpointsObject, sliceObject]) {
        const { input } = inputFrom(p, [
          serviceObject(p, p.clusterIP),
          endpointsOf(p, padded),
          podObject(p, p.podName, p.podIP),
          nodeObject(p),
        ]);
        assert.deepEqual(
          input.endpoints.map((e) => e.ip),
          p.endpoints,
        );
        const { en } = both(input);
        assert.notEqual(en.code, 'no-endpoints');
        assert.equal(en.code, 'ok', en.summary);
      }
    });

    test(`plan ${p.name}: the source pod is not picked among the backends when their addresses are padded`, () => {
      const snap = normaliseCluster([serviceObject(p, p.clusterIP), endpointsObject(p, padded)]);
      const backends = new Set(snap.endpoints[`${p.svcNamespace}/${p.svcName}`][p.portName].map((e) => e.ip));
      // `a-backend` sorts first and is a backend (its own address padded too); the client must be picked.
      const picked = pickSource(
        [podObject(p, 'a-backend', padded(p.endpoints[0])), podObject(p, p.podName, padded(p.podIP))],
        backends,
      );
      assert.equal(picked?.metadata?.name, p.podName);
    });
  }
});
