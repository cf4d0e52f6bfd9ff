/**
 * kube-proxy's Services as a dump shows them (the shapes the kube view fills in, for iptables and nftables mode
 * alike) and the reader of kube-proxy's rule comments. The views themselves are built in iptables/kubeView.ts and
 * nft/kubeView.ts; both read these.
 */

export interface KubeEndpoint {
  ip: string;
  port?: number;
  /** The KUBE-SEP- chain. */
  chain: string;
  /** The `--probability` on the service chain's rule, when present. */
  probability?: number;
  /**
   * Effective share of new connections: p_k times what earlier rules left over. Undefined when the paste lacks
   * part of the ladder (a grep'd paste): the rules shown cannot tell the share.
   */
  share?: number;
  /** 0-based line of the service chain rule that jumps to this endpoint. */
  ruleLine?: number;
  /** Line of the DNAT rule in the endpoint chain. */
  dnatLine?: number;
  hashVerified: boolean | null;
}

export type TrafficPolicy = 'Cluster' | 'Local';

export interface KubeService {
  /** Service port name `ns/name:port` (or `ns/name` for an unnamed port); '' when comments are missing. */
  name: string;
  namespace?: string;
  service?: string;
  portName?: string;
  protocol?: string;
  clusterIP?: string;
  port?: number;
  nodePort?: number;
  externalIPs: string[];
  loadBalancerIPs: string[];
  /** `Local` when kube-proxy built KUBE-SVL/KUBE-XLB chains or "no local endpoints" rules. */
  trafficPolicy?: TrafficPolicy;
  sessionAffinitySeconds?: number;
  /** The KUBE-SVC- chain (or KUBE-SVL- when only that exists). */
  chain?: string;
  /** Every chain kube-proxy made for this service port, by role. */
  chains: { kind: string; name: string }[];
  hashVerified: boolean | null;
  endpoints: KubeEndpoint[];
  /** Filter-table "has no endpoints" rule present. */
  noEndpoints: boolean;
  noLocalEndpoints: boolean;
  /** Lines of rules that belong to this service. */
  lines: number[];
}

export interface VersionHint {
  /** Stable code; its sentence is `iptables.version.<code>` in the i18n catalog. */
  code: string;
  line: number;
}

export interface KubeProxyView {
  /**
   * `iptables` when KUBE-SERVICES rules or KUBE-SVC chains exist, `ipvs` for IPVS-mode chains, `nftables` for the
   * Services of kube-proxy's nftables mode (`table ip kube-proxy`), else `none`.
   */
  mode: 'iptables' | 'ipvs' | 'nftables' | 'none';
  services: KubeService[];
  serviceByChain: ReadonlyMap<string, KubeService>;
  /** Entries are read-only views: compare their fields, not the objects. */
  endpointByChain: ReadonlyMap<string, { readonly service: KubeService; readonly endpoint: KubeEndpoint }>;
  /** Mark value KUBE-MARK-MASQ sets (e.g. `0x4000`). */
  masqueradeMark?: string;
  dropMark?: string;
  versionHints: VersionHint[];
}

const SVC_COMMENT =
  /^(\S+?\/\S+?)(?:\s+(cluster IP|external IP|loadbalancer IP|has no endpoints|has no local endpoints|health check node port))?$/;
const ARROW_COMMENT = /^(\S+?\/\S+?)\s+->\s+(\S+)$/;

/** A comment split into the service port name and the rest (`ns/svc:p80 cluster IP` -> spn, kind). */
export type ServiceComment = { spn: string; kind?: string; endpoint?: string };

export function parseServiceComment(comment: string | undefined): ServiceComment | undefined {
  if (!comment) return undefined;
  const arrow = ARROW_COMMENT.exec(comment);
  if (arrow) return { spn: arrow[1], endpoint: arrow[2] };
  const m = SVC_COMMENT.exec(comment);
  if (!m || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/[a-z0-9]/.test(m[1])) return undefined;
  return { spn: m[1], ...(m[2] ? { kind: m[2] } : {}) };
}
