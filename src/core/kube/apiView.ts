/**
 * kube-proxy's view of a cluster for one IP family: which Service ports it programs, with which addresses,
 * traffic policies and endpoints. Mirrors pkg/proxy (ServiceChangeTracker, BaseServicePortInfo,
 * EndpointSliceCache, CategorizeEndpoints) of kube-proxy 1.28+, without topology hints.
 */
import { cidrContains, formatIp, parseCidr, parseIp, type IpFamily, joinHostPort } from '../common/ip';
import { servicePortName } from '../iptables/chainHashes';
import type { ClusterSnapshot, EndpointInfo, ServiceInfo, ServicePortSpec } from './types';
import { serviceKey } from './types';
import { ownEntry } from '../common/own';

export type LowerProtocol = 'tcp' | 'udp' | 'sctp';

export interface ProxyServicePort {
  service: ServiceInfo;
  port: ServicePortSpec;
  /** `ns/name:port` (or `ns/name`), the text kube-proxy hashes and writes into comments. */
  spn: string;
  protocol: LowerProtocol;
  /** Canonical text of the cluster IP of this family. */
  clusterIP: string;
  /** 0 when the port has none. */
  nodePort: number;
  /** 0 unless the Service is a LoadBalancer with externalTrafficPolicy Local. */
  healthCheckNodePort: number;
  /** Of this family, canonical text. */
  externalIPs: string[];
  loadBalancerVIPs: string[];
  /** Of this family, canonical network text; empty when a range allows everything. */
  sourceRanges: string[];
  externalPolicyLocal: boolean;
  internalPolicyLocal: boolean;
  /** ClientIP affinity timeout; 0 when there is no affinity. */
  affinitySeconds: number;
  /** Endpoints of this port name, protocol and family, one per `ip:port`, in kube-proxy's order. */
  endpoints: EndpointInfo[];
}

export interface ProxyView {
  ports: ProxyServicePort[];
  /** Services that have a cluster IP but none of the requested family. */
  otherFamilyServices: string[];
}

/** Family of an address the snapshot already validated: only IPv6 text has a colon. */
function familyOf(text: string): IpFamily {
  return text.includes(':') ? 6 : 4;
}

/** Go's net.IP.String(): validated IPv4 text is already canonical; IPv6 gets RFC 5952 compression. */
function canonicalIp(text: string): string {
  if (familyOf(text) === 4) return text;
  const ip = parseIp(text);
  return ip ? formatIp(ip) : text;
}

/** The Service's cluster IP of `family`, as kube-proxy's GetClusterIPByFamily picks it. */
export function clusterIPForFamily(svc: ServiceInfo, family: IpFamily): string | undefined {
  const candidates = svc.clusterIPs.length ? svc.clusterIPs : [svc.clusterIP];
  return candidates.find((ip) => familyOf(ip) === family);
}

/** ClusterIP `None`/empty and ExternalName Services get no rules at all. */
export function isProxied(svc: ServiceInfo): boolean {
  return svc.type !== 'ExternalName' && svc.clusterIP !== '' && svc.clusterIP !== 'None';
}

/** `ip:port`, with brackets around IPv6 addresses (Go's net.JoinHostPort), as kube-proxy names endpoints. */
export function endpointString(ep: Pick<EndpointInfo, 'ip' | 'port'>): string {
  return joinHostPort(ep.ip, ep.port);
}

function externalPolicyApplies(svc: ServiceInfo): boolean {
  return svc.type === 'LoadBalancer' || svc.type === 'NodePort' || svc.externalIPs.length > 0;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function endpointsFor(
  snapshot: ClusterSnapshot,
  svc: ServiceInfo,
  port: ServicePortSpec,
  family: IpFamily,
): EndpointInfo[] {
  const byPort = ownEntry(snapshot.endpoints, serviceKey(svc.namespace, svc.name));
  const all = (byPort && ownEntry(byPort, port.name)) ?? [];
  const unique = new Map<string, EndpointInfo>();
  for (const ep of all) {
    if (ep.protocol !== port.protocol || familyOf(ep.ip) !== family) continue;
    const key = endpointString(ep);
    if (!unique.has(key)) unique.set(key, ep);
  }
  // EndpointSliceCache sorts by the endpoint string so rules come out in a stable order.
  const keys = [...unique.keys()].sort(byCodeUnits);
  return keys.map((k) => unique.get(k)!);
}

/** The Service ports kube-proxy programs for `family`, ordered by `namespace/name`, port name, protocol. */
export function proxyView(snapshot: ClusterSnapshot, family: IpFamily): ProxyView {
  const ports: ProxyServicePort[] = [];
  const otherFamilyServices: string[] = [];
  for (const svc of snapshot.services) {
    if (!isProxied(svc)) continue;
    const clusterIP = clusterIPForFamily(svc, family);
    if (!clusterIP) {
      otherFamilyServices.push(serviceKey(svc.namespace, svc.name));
      continue;
    }
    const externalPolicyLocal = externalPolicyApplies(svc) && svc.externalTrafficPolicy === 'Local';
    let sourceRanges = svc.loadBalancerSourceRanges
      .map((r) => parseCidr(r))
      .filter((c) => c !== undefined && c.family === family)
      .map((c) => c!);
    // A zero-length prefix means "allow any", the same as no ranges at all.
    if (sourceRanges.some((c) => c.prefix === 0)) sourceRanges = [];
    for (const port of svc.ports) {
      ports.push({
        service: svc,
        port,
        spn: servicePortName(svc.namespace, svc.name, port.name),
        protocol: port.protocol.toLowerCase() as LowerProtocol,
        clusterIP: canonicalIp(clusterIP),
        nodePort: port.nodePort ?? 0,
        healthCheckNodePort: svc.type === 'LoadBalancer' && externalPolicyLocal ? (svc.healthCheckNodePort ?? 0) : 0,
        externalIPs: svc.externalIPs.filter((ip) => familyOf(ip) === family).map(canonicalIp),
        loadBalancerVIPs: svc.loadBalancerIPs.filter((ip) => familyOf(ip) === family).map(canonicalIp),
        sourceRanges: sourceRanges.map((c) => `${formatIp({ family: c.family, value: c.base })}/${c.prefix}`),
        externalPolicyLocal,
        internalPolicyLocal: svc.internalTrafficPolicy === 'Local',
        affinitySeconds: svc.sessionAffinity === 'ClientIP' ? svc.affinityTimeoutSeconds : 0,
        endpoints: endpointsFor(snapshot, svc, port, family),
      });
    }
  }
  ports.sort(
    (a, b) =>
      byCodeUnits(serviceKey(a.service.namespace, a.service.name), serviceKey(b.service.namespace, b.service.name)) ||
      byCodeUnits(a.port.name, b.port.name) ||
      byCodeUnits(a.protocol, b.protocol),
  );
  return { ports, otherFamilyServices };
}

/** Reachable by NodePort, external IP or load-balancer IP (not only by cluster IP). */
export function externallyAccessible(p: ProxyServicePort): boolean {
  return p.nodePort !== 0 || p.loadBalancerVIPs.length > 0 || p.externalIPs.length > 0;
}

/** Cluster endpoints are needed for Cluster internal policy, and for any external traffic (short-circuiting). */
export function usesClusterEndpoints(p: ProxyServicePort): boolean {
  return !p.internalPolicyLocal || externallyAccessible(p);
}

export function usesLocalEndpoints(p: ProxyServicePort): boolean {
  return p.internalPolicyLocal || (p.externalPolicyLocal && externallyAccessible(p));
}

export interface EndpointCategories {
  /** Endpoints for Cluster policy: ready ones, else serving-and-terminating ones. */
  cluster: EndpointInfo[];
  /** Endpoints on this node for Local policy, with the same fallback. */
  local: EndpointInfo[];
  /** Every endpoint this node sends to: each gets a KUBE-SEP chain. */
  reachable: EndpointInfo[];
  /** Whether the Service has a usable endpoint anywhere in the cluster. */
  hasAny: boolean;
}

/** kube-proxy's CategorizeEndpoints; `nodeName` decides which endpoints are local. */
export function categorizeEndpoints(p: ProxyServicePort, nodeName?: string): EndpointCategories {
  const eps = p.endpoints;
  const none: EndpointCategories = { cluster: [], local: [], reachable: [], hasAny: false };
  if (eps.length === 0) return none;
  const isLocal = (ep: EndpointInfo) => !!nodeName && ep.nodeName === nodeName;
  const servingTerminating = (ep: EndpointInfo) => ep.serving && ep.terminating;
  let hasAny = false;

  let cluster: EndpointInfo[] = [];
  if (usesClusterEndpoints(p)) {
    cluster = eps.filter((ep) => ep.ready);
    if (cluster.length === 0) cluster = eps.filter(servingTerminating);
    hasAny = cluster.length > 0;
  }
  if (!usesLocalEndpoints(p)) return { cluster, local: [], reachable: cluster, hasAny };

  let localReady = false;
  let localServingTerminating = false;
  for (const ep of eps) {
    if (ep.ready) {
      hasAny = true;
      localReady ||= isLocal(ep);
    } else if (servingTerminating(ep)) {
      hasAny = true;
      localServingTerminating ||= isLocal(ep);
    }
  }
  let local: EndpointInfo[] = [];
  if (localReady) local = eps.filter((ep) => isLocal(ep) && ep.ready);
  else if (localServingTerminating) local = eps.filter((ep) => isLocal(ep) && servingTerminating(ep));

  if (!usesClusterEndpoints(p)) return { cluster, local, reachable: local, hasAny };
  if (!localServingTerminating || localReady) return { cluster, local, reachable: cluster, hasAny };
  // Local terminating endpoints are not in the cluster list: merge, keeping kube-proxy's endpoint order.
  const merged = new Map<string, EndpointInfo>();
  for (const ep of [...cluster, ...local]) merged.set(endpointString(ep), ep);
  const reachable = [...merged.entries()].sort((a, b) => byCodeUnits(a[0], b[0])).map((e) => e[1]);
  return { cluster, local, reachable, hasAny };
}

/** Whether `ip` lies in one of `cidrs` (both as text). */
export function ipInAny(ip: string, cidrs: readonly string[]): boolean {
  const addr = parseIp(ip);
  if (!addr) return false;
  return cidrs.some((c) => {
    const cidr = parseCidr(c);
    return !!cidr && cidrContains(cidr, addr);
  });
}
