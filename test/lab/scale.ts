/**
 * A lab for scale: N Services x M endpoints served by the lab API server only (no data plane: no namespaces, no
 * rules, exec answers an error), for the tree and listing benchmarks. `npm run lab -- up --scale 5000x3`, or
 * `startScaleLab({ services: 5000, endpoints: 3 })` from a benchmark. Starts in about a second for 5,000 x 3.
 *
 * Objects: Namespaces `scale-0`..`scale-<k-1>` (Services spread round-robin), Nodes `node-0`.. (pod CIDRs
 * 10.64.0.0/16, 10.65.0.0/16, ...), per Service `svc-<i>` one ClusterIP (from 10.96.0.0/12), port 80 -> 8080/TCP,
 * selector `app: svc-<i>`, its Endpoints and one EndpointSlice, and M Running pods `svc-<i>-<j>` spread over the
 * nodes; plus `default/kubernetes`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatIp, parseCidr } from '../../src/core/common/ip';
import { startLabApiServer, type KubeObject, type LabApiServer } from './apiserver';
import { uid } from './dataplane/objects';

export interface ScaleOptions {
  services: number;
  endpoints: number;
  /** Namespaces the Services are spread over; default 1 per 500 Services (at least 1, at most 50). */
  namespaces?: number;
  /** Default 3. */
  nodes?: number;
}

export const MAX_SCALE_SERVICES = 100_000;
export const MAX_SCALE_ENDPOINTS = 100;

/** `5000x3` -> 5,000 Services with 3 endpoints each. */
export function parseScale(text: string): ScaleOptions {
  const m = /^(\d+)x(\d+)$/.exec(text.trim());
  if (!m) throw new Error(`--scale wants SERVICESxENDPOINTS like 5000x3, not "${text}"`);
  const services = Number(m[1]);
  const endpoints = Number(m[2]);
  if (services < 1 || services > MAX_SCALE_SERVICES)
    throw new Error(`--scale: Services must be 1-${MAX_SCALE_SERVICES}, not ${services}`);
  if (endpoints > MAX_SCALE_ENDPOINTS)
    throw new Error(`--scale: endpoints must be 0-${MAX_SCALE_ENDPOINTS}, not ${endpoints}`);
  return { services, endpoints };
}

const SERVICE_CIDR = parseCidr('10.96.0.0/12')!;

function addr(base: bigint, offset: number): string {
  return formatIp({ family: 4, value: base + BigInt(offset) });
}

/** Every object a scale lab serves. Deterministic for the same options. */
export function scaleObjects(
  opts: ScaleOptions,
  created = new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
): KubeObject[] {
  const nodeCount = opts.nodes ?? 3;
  const nsCount = opts.namespaces ?? Math.min(50, Math.max(1, Math.ceil(opts.services / 500)));
  const meta = (kind: string, name: string, namespace?: string, extra: Record<string, unknown> = {}) => ({
    name,
    ...(namespace !== undefined ? { namespace } : {}),
    uid: uid('scale', kind, namespace ?? '', name),
    resourceVersion: '1',
    creationTimestamp: created,
    ...extra,
  });
  const out: KubeObject[] = [];
  const namespaces = Array.from({ length: nsCount }, (_, i) => `scale-${i}`);
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease', ...namespaces]) {
    out.push({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: meta('Namespace', name, undefined, { labels: { 'kubernetes.io/metadata.name': name } }),
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }
  const nodes = Array.from({ length: nodeCount }, (_, i) => ({
    name: `node-${i}`,
    ip: `10.0.0.${10 + i}`,
    cidr: `10.${64 + i}.0.0/16`,
    base: parseCidr(`10.${64 + i}.0.0/16`)!.base,
    used: 0,
  }));
  for (const n of nodes) {
    out.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: meta('Node', n.name, undefined, {
        labels: { 'kubernetes.io/hostname': n.name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' },
      }),
      spec: { podCIDR: n.cidr, podCIDRs: [n.cidr] },
      status: {
        addresses: [
          { type: 'InternalIP', address: n.ip },
          { type: 'Hostname', address: n.name },
        ],
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            lastHeartbeatTime: created,
            lastTransitionTime: created,
          },
        ],
        nodeInfo: { kubeletVersion: 'v1.32.0', kubeProxyVersion: 'v1.32.0', osImage: 'kpp lab (scale)' },
      },
    });
  }
  out.push(
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta('Service', 'kubernetes', 'default', {
        labels: { component: 'apiserver', provider: 'kubernetes' },
      }),
      spec: {
        type: 'ClusterIP',
        clusterIP: addr(SERVICE_CIDR.base, 1),
        clusterIPs: [addr(SERVICE_CIDR.base, 1)],
        ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
        sessionAffinity: 'None',
      },
      status: { loadBalancer: {} },
    },
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: meta('Endpoints', 'kubernetes', 'default'),
      subsets: [{ addresses: [{ ip: nodes[0].ip }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }],
    },
  );
  const condition = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: created });
  for (let i = 0; i < opts.services; i++) {
    const ns = namespaces[i % nsCount];
    const name = `svc-${i}`;
    const clusterIP = addr(SERVICE_CIDR.base, 16 + i);
    const pods = Array.from({ length: opts.endpoints }, (_, j) => {
      const node = nodes[(i * opts.endpoints + j) % nodeCount];
      node.used++;
      return { name: `${name}-${j}`, node, ip: addr(node.base, 10 + node.used) };
    });
    out.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta('Service', name, ns, { labels: { app: name } }),
      spec: {
        type: 'ClusterIP',
        clusterIP,
        clusterIPs: [clusterIP],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        selector: { app: name },
        ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
        sessionAffinity: 'None',
        internalTrafficPolicy: 'Cluster',
      },
      status: { loadBalancer: {} },
    });
    const targetRef = (p: (typeof pods)[number]) => ({
      kind: 'Pod',
      namespace: ns,
      name: p.name,
      uid: uid('scale', 'Pod', ns, p.name),
    });
    out.push({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: meta('Endpoints', name, ns, { labels: { app: name } }),
      ...(pods.length
        ? {
            subsets: [
              {
                addresses: pods.map((p) => ({ ip: p.ip, nodeName: p.node.name, targetRef: targetRef(p) })),
                ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
              },
            ],
          }
        : {}),
    });
    out.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: meta('EndpointSlice', `${name}-${uid('scale', 'slice', ns, name).slice(0, 5)}`, ns, {
        labels: {
          'kubernetes.io/service-name': name,
          'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
        },
      }),
      addressType: 'IPv4',
      endpoints: pods.map((p) => ({
        addresses: [p.ip],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: p.node.name,
        targetRef: targetRef(p),
      })),
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    });
    for (const p of pods) {
      out.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: meta('Pod', p.name, ns, { labels: { app: name } }),
        spec: {
          nodeName: p.node.name,
          containers: [{ name: 'web', image: 'kpp-lab/backend:1', ports: [{ containerPort: 8080, protocol: 'TCP' }] }],
        },
        status: {
          phase: 'Running',
          conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(condition),
          hostIP: p.node.ip,
          podIP: p.ip,
          podIPs: [{ ip: p.ip }],
          startTime: created,
          containerStatuses: [
            {
              name: 'web',
              image: 'kpp-lab/backend:1',
              imageID: '',
              ready: true,
              started: true,
              restartCount: 0,
              state: { running: { startedAt: created } },
            },
          ],
        },
      });
    }
  }
  return out;
}

export interface ScaleLab {
  api: LabApiServer;
  kubeconfig: string;
  workDir: string;
  /** Objects served at start, by kind. */
  counts: Record<string, number>;
  stop(): Promise<void>;
}

export async function startScaleLab(
  opts: ScaleOptions & { workDir?: string; kubeconfigPath?: string; apiLog?: (line: string) => void },
): Promise<ScaleLab> {
  const ownWorkDir = !opts.workDir;
  const workDir = opts.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-lab-scale-'));
  const objects = scaleObjects(opts);
  const counts: Record<string, number> = {};
  for (const o of objects) counts[o.kind] = (counts[o.kind] ?? 0) + 1;
  let api: LabApiServer;
  try {
    api = await startLabApiServer({
      objects,
      adoptObjects: true,
      workDir,
      ...(opts.apiLog ? { log: opts.apiLog } : {}),
    });
  } catch (e) {
    if (ownWorkDir) fs.rmSync(workDir, { recursive: true, force: true });
    throw e;
  }
  const kubeconfig = api.writeKubeconfig(opts.kubeconfigPath ?? path.join(workDir, 'kubeconfig'));
  return {
    api,
    kubeconfig,
    workDir,
    counts,
    stop: async () => {
      await api.close();
      if (ownWorkDir) fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}
