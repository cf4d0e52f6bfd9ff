/**
 * Synthetic clusters for benchmarks and property tests: a `v1` List of Nodes, Services and their EndpointSlices
 * (or core/v1 Endpoints) with unique, valid cluster IPs, pod IPs, NodePorts and load-balancer IPs.
 * Deterministic for a given seed. Impossible sizes (more Services than the Service CIDR or the NodePort range
 * holds) throw a RangeError: the options come from code, not from a user's cluster.
 */
import { parseCidr, type Cidr } from '../common/ip';

export interface SyntheticOptions {
  services: number;
  endpointsPerService: number;
  /** Seeds node placement, target ports and readiness; default 1. */
  seed?: number;
  /** Every Nth Service is a NodePort Service (unset or 0: none). */
  nodePortEvery?: number;
  /** Every Nth Service is a LoadBalancer with one ingress IP (takes precedence over nodePortEvery). */
  loadBalancerEvery?: number;
  /** Every Nth externally reachable Service has externalTrafficPolicy Local. */
  localPolicyEvery?: number;
  /** Every Nth Service has ClientIP session affinity. */
  affinityEvery?: number;
  /** Every Nth Service has one external IP. */
  externalIPEvery?: number;
  /** Every Nth LoadBalancer has loadBalancerSourceRanges. */
  sourceRangesEvery?: number;
  /** Roughly one endpoint in N is not ready (chosen by the seed). */
  notReadyOneIn?: number;
  /** Ports per Service, named p0, p1, ... (default 1). */
  portsPerService?: number;
  /** Services are spread round-robin over this many namespaces (default 10). */
  namespaces?: number;
  /** Endpoints are spread over this many nodes, `node-0`... (default 3). */
  nodes?: number;
  endpointKind?: 'EndpointSlice' | 'Endpoints';
  /** Default 10.96.0.0/12. */
  serviceCidr?: string;
  /** Default 10.128.0.0/9. */
  podCidr?: string;
}

export interface KubeList {
  apiVersion: 'v1';
  kind: 'List';
  items: Record<string, unknown>[];
}

const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;
/** RFC 2544 benchmarking range: load-balancer IPs from the first half, external IPs from the second. */
const LB_RANGE = parseCidr('198.18.0.0/16')!;
const EXTERNAL_RANGE = parseCidr('198.19.0.0/16')!;
const NODE_RANGE = parseCidr('192.168.0.0/16')!;

/** mulberry32: small, fast, good enough to vary test data reproducibly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function ipv4Text(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** Hands out consecutive host addresses of a v4 CIDR (skipping the network address). */
function allocator(cidrText: string, what: string): (count: number) => string[] {
  const cidr: Cidr | undefined = parseCidr(cidrText);
  if (!cidr || cidr.family !== 4) throw new RangeError(`${what} ${cidrText} is not an IPv4 CIDR`);
  const base = Number(cidr.base);
  const size = 2 ** (32 - cidr.prefix);
  let next = 1;
  return (count) => {
    if (next + count >= size) throw new RangeError(`${what} ${cidrText} has no room for ${count} more addresses`);
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(ipv4Text(base + next++));
    return out;
  };
}

function every(n: number | undefined, i: number): boolean {
  return !!n && n > 0 && i % n === 0;
}

/** Builds the List; 10k Services x 5 endpoints takes a fraction of a second. */
export function syntheticCluster(opts: SyntheticOptions): KubeList {
  const { services, endpointsPerService } = opts;
  if (!Number.isInteger(services) || services < 0) throw new RangeError('services must be a non-negative integer');
  if (!Number.isInteger(endpointsPerService) || endpointsPerService < 0)
    throw new RangeError('endpointsPerService must be a non-negative integer');
  const rand = prng(opts.seed ?? 1);
  const namespaces = Math.max(1, opts.namespaces ?? 10);
  const nodeCount = Math.max(1, opts.nodes ?? 3);
  const portsPerService = Math.max(1, opts.portsPerService ?? 1);
  const useSlices = (opts.endpointKind ?? 'EndpointSlice') === 'EndpointSlice';
  const serviceIPs = allocator(opts.serviceCidr ?? '10.96.0.0/12', 'service CIDR');
  const podIPs = allocator(opts.podCidr ?? '10.128.0.0/9', 'pod CIDR');
  let nextNodePort = NODE_PORT_MIN;
  let nextLb = 1;
  let nextExternal = 1;

  const items: Record<string, unknown>[] = [];
  for (let n = 0; n < nodeCount; n++) {
    items.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: `node-${n}`, labels: { 'topology.kubernetes.io/zone': `zone-${n % 3}` } },
      spec: { podCIDRs: [opts.podCidr ?? '10.128.0.0/9'] },
      status: { addresses: [{ type: 'InternalIP', address: ipv4Text(Number(NODE_RANGE.base) + n + 10) }] },
    });
  }

  for (let i = 0; i < services; i++) {
    const namespace = `ns-${i % namespaces}`;
    const name = `svc-${i}`;
    const isLb = every(opts.loadBalancerEvery, i);
    const isNodePort = !isLb && every(opts.nodePortEvery, i);
    const hasExternalIP = every(opts.externalIPEvery, i);
    const reachable = isLb || isNodePort || hasExternalIP;
    const targetPort = 8000 + Math.floor(rand() * 1000);

    const ports = Array.from({ length: portsPerService }, (_, k) => {
      const port: Record<string, unknown> = {
        name: `p${k}`,
        port: 80 + k,
        protocol: 'TCP',
        targetPort: targetPort + k,
      };
      if (isLb || isNodePort) {
        if (nextNodePort > NODE_PORT_MAX)
          throw new RangeError(`more NodePorts requested than ${NODE_PORT_MIN}-${NODE_PORT_MAX} holds`);
        port.nodePort = nextNodePort++;
      }
      return port;
    });
    const spec: Record<string, unknown> = {
      type: isLb ? 'LoadBalancer' : isNodePort ? 'NodePort' : 'ClusterIP',
      clusterIP: serviceIPs(1)[0],
      ports,
    };
    spec.clusterIPs = [spec.clusterIP];
    if (hasExternalIP) spec.externalIPs = [ipv4Text(Number(EXTERNAL_RANGE.base) + nextExternal++)];
    if (reachable) spec.externalTrafficPolicy = every(opts.localPolicyEvery, i) ? 'Local' : 'Cluster';
    if (isLb && spec.externalTrafficPolicy === 'Local') {
      if (nextNodePort > NODE_PORT_MAX)
        throw new RangeError(`more NodePorts requested than ${NODE_PORT_MIN}-${NODE_PORT_MAX} holds`);
      spec.healthCheckNodePort = nextNodePort++;
    }
    if (isLb && every(opts.sourceRangesEvery, i)) spec.loadBalancerSourceRanges = ['203.0.113.0/24', '198.51.100.0/24'];
    if (every(opts.affinityEvery, i)) {
      spec.sessionAffinity = 'ClientIP';
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
    }
    const service: Record<string, unknown> = { apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec };
    if (isLb) {
      if (nextLb >= 2 ** 16) throw new RangeError('more LoadBalancer IPs requested than 198.18.0.0/16 holds');
      service.status = { loadBalancer: { ingress: [{ ip: ipv4Text(Number(LB_RANGE.base) + nextLb++) }] } };
    }
    items.push(service);

    const endpoints = podIPs(endpointsPerService).map((ip) => ({
      ip,
      nodeName: `node-${Math.floor(rand() * nodeCount)}`,
      ready: !(opts.notReadyOneIn && opts.notReadyOneIn > 0 && rand() < 1 / opts.notReadyOneIn),
    }));
    const endpointPorts = ports.map((p) => ({ name: p.name, port: p.targetPort, protocol: 'TCP' }));
    if (useSlices) {
      items.push({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { namespace, name: `${name}-x${i.toString(36)}`, labels: { 'kubernetes.io/service-name': name } },
        addressType: 'IPv4',
        endpoints: endpoints.map((e) => ({
          addresses: [e.ip],
          conditions: { ready: e.ready, serving: e.ready, terminating: false },
          nodeName: e.nodeName,
        })),
        ports: endpointPorts,
      });
    } else {
      const toAddress = (e: (typeof endpoints)[number]) => ({ ip: e.ip, nodeName: e.nodeName });
      const ready = endpoints.filter((e) => e.ready).map(toAddress);
      const notReady = endpoints.filter((e) => !e.ready).map(toAddress);
      const subset: Record<string, unknown> = { ports: endpointPorts };
      if (ready.length) subset.addresses = ready;
      if (notReady.length) subset.notReadyAddresses = notReady;
      items.push({
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { namespace, name },
        subsets: endpoints.length ? [subset] : [],
      });
    }
  }
  return { apiVersion: 'v1', kind: 'List', items };
}
