/**
 * A plain, validated snapshot of the cluster objects that decide kube-proxy's rules: Services, their endpoints
 * (from EndpointSlices, or core/v1 Endpoints on clusters that have no slices), and optionally Pods and Nodes.
 * Everything here is JSON-serialisable so the CLI, the language server and the extension can pass it around.
 */

export type Protocol = 'TCP' | 'UDP' | 'SCTP';
export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
export type TrafficPolicy = 'Cluster' | 'Local';
export type SessionAffinity = 'None' | 'ClientIP';

export interface ServicePortSpec {
  /** Port name; `''` for the single unnamed port a Service may have. */
  name: string;
  port: number;
  protocol: Protocol;
  /** Number or named container port, as written; absent when the Service did not say. */
  targetPort?: number | string;
  nodePort?: number;
}

export interface ServiceInfo {
  namespace: string;
  name: string;
  type: ServiceType;
  /** `''` (not allocated), `'None'` (headless) or an IP address. */
  clusterIP: string;
  /** All cluster IPs (dual-stack); `[clusterIP]` on clusters that predate the field. */
  clusterIPs: string[];
  ports: ServicePortSpec[];
  externalIPs: string[];
  /** `status.loadBalancer.ingress[].ip` of VIP-mode ingresses (kube-proxy programs these). */
  loadBalancerIPs: string[];
  /** Ingress IPs with `ipMode: Proxy`: the load balancer proxies, kube-proxy writes no rule for them. */
  loadBalancerProxyIPs: string[];
  loadBalancerSourceRanges: string[];
  externalTrafficPolicy: TrafficPolicy;
  internalTrafficPolicy: TrafficPolicy;
  sessionAffinity: SessionAffinity;
  /** `sessionAffinityConfig.clientIP.timeoutSeconds` (API default 10800). */
  affinityTimeoutSeconds: number;
  healthCheckNodePort?: number;
  externalName?: string;
}

export interface EndpointInfo {
  /** The address exactly as the API gave it (kube-proxy hashes this text into the KUBE-SEP name). */
  ip: string;
  port: number;
  protocol: Protocol;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  nodeName?: string;
  zone?: string;
  /** The pod behind the address (`targetRef` of kind Pod), in the Service's namespace. */
  pod?: string;
}

/** Endpoints of one Service, keyed by the Service port name (`''` for an unnamed port). */
export type EndpointsByPort = Record<string, EndpointInfo[]>;

export interface PodInfo {
  namespace: string;
  name: string;
  ip?: string;
  ips: string[];
  nodeName?: string;
  hostNetwork: boolean;
  phase?: string;
}

export interface NodeInfo {
  name: string;
  internalIPs: string[];
  externalIPs: string[];
  podCIDRs: string[];
  zone?: string;
}

/** A problem with one input object or field; the object or field is left out and the rest goes on. */
export interface SnapshotIssue {
  /** Stable kebab-case code, e.g. `invalid-cluster-ip`. */
  code: string;
  message: string;
  /** Where in the input, e.g. `items[3].spec.clusterIP`. */
  path: string;
}

export interface ClusterSnapshot {
  services: ServiceInfo[];
  /** Keyed by `namespace/name` of the Service. */
  endpoints: Record<string, EndpointsByPort>;
  /** Which object kind each Service's endpoints came from (EndpointSlices win when both exist). */
  endpointSources: Record<string, 'EndpointSlice' | 'Endpoints'>;
  pods?: PodInfo[];
  nodes?: NodeInfo[];
  issues: SnapshotIssue[];
  /** `issues` as sentences (`path: message`), for callers that only print. */
  warnings: string[];
}

export function serviceKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}
