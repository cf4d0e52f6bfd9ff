/**
 * kube-proxy's Services as a dump shows them (the shapes the kube view fills in, for iptables and nftables mode
 * alike) and the reader of kube-proxy's rule comments. The views themselves are built in iptables/kubeView.ts and
 * nft/kubeView.ts; both read these.
 */
import { isDigitCode, isWhiteCode } from '../common/chars';

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

/** What kube-proxy writes after the service port name in an entry rule's comment. */
const SERVICE_COMMENT_KINDS: ReadonlySet<string> = new Set([
  'cluster IP',
  'external IP',
  'loadbalancer IP',
  'has no endpoints',
  'has no local endpoints',
  'health check node port',
]);

/** A comment split into the service port name and the rest (`ns/svc:p80 cluster IP` -> spn, kind). */
export type ServiceComment = { spn: string; kind?: string; endpoint?: string };

/**
 * `ns/name:port` alone, `ns/name:port KIND` (one of SERVICE_COMMENT_KINDS) or a ladder's `ns/name:port -> ip:port`;
 * the first word needs a slash with a character on each side, and outside a ladder's comment a namespace and a
 * name that start as Kubernetes names do. Read by characters: the view reads 10,000+ comments of a big dump, and the
 * patterns this replaces (kept in the unit test as the reference) backtracked over each word.
 */
export function parseServiceComment(comment: string | undefined): ServiceComment | undefined {
  if (!comment) return undefined;
  const n = comment.length;
  let end = 0;
  while (end < n && !isWhiteCode(comment.charCodeAt(end))) end++;
  const slash = comment.indexOf('/', 1);
  if (slash < 0 || slash > end - 2) return undefined;
  const spn = comment.slice(0, end);
  if (end === n) return isServicePortName(spn) ? { spn } : undefined;
  let at = end;
  while (at < n && isWhiteCode(comment.charCodeAt(at))) at++;
  if (comment.charCodeAt(at) === 45 && comment.charCodeAt(at + 1) === 62) {
    // `-> ip:port`: blanks after the arrow, then one word to the end.
    let from = at + 2;
    while (from < n && isWhiteCode(comment.charCodeAt(from))) from++;
    let to = from;
    while (to < n && !isWhiteCode(comment.charCodeAt(to))) to++;
    if (from > at + 2 && from < n && to === n) return { spn, endpoint: comment.slice(from) };
  }
  const kind = comment.slice(at);
  return SERVICE_COMMENT_KINDS.has(kind) && isServicePortName(spn) ? { spn, kind } : undefined;
}

/** `ns/n...`: a namespace of lower-case letters, digits, `-` and `.` (starting and ending alphanumeric), `/`, a name. */
function isServicePortName(spn: string): boolean {
  const slash = spn.indexOf('/');
  if (slash < 1 || !isLowerAlnumCode(spn.charCodeAt(0)) || !isLowerAlnumCode(spn.charCodeAt(slash - 1))) return false;
  for (let i = 1; i < slash; i++) {
    const c = spn.charCodeAt(i);
    if (!isLowerAlnumCode(c) && c !== 45 && c !== 46) return false;
  }
  return isLowerAlnumCode(spn.charCodeAt(slash + 1));
}

function isLowerAlnumCode(c: number): boolean {
  return (c >= 97 && c <= 122) || isDigitCode(c);
}
