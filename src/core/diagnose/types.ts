/**
 * The contract between the pure diagnosis (check plans and verdicts, `src/core/diagnose`) and whoever runs the
 * checks (`src/cluster`, used by the CLI and the extension). Everything is plain JSON-serialisable data: the
 * report below is exactly what `kpp diagnose --json` prints.
 */
import type { EndpointInfo, NodeInfo, PodInfo, ServiceInfo, ServicePortSpec } from '../kube/types';

/** One place for the verdict codes; their texts live in `core/i18n/messages/diagnose.ts`. */
export const VERDICT_CODES = [
  'ok',
  'no-endpoints',
  'endpoints-not-ready',
  'pod-route-bypasses-node',
  'clusterip-dnat-missing',
  'backend-unreachable',
  'dns-failure',
  'tool-missing',
  'exec-forbidden',
  'inconclusive',
] as const;
export type VerdictCode = (typeof VERDICT_CODES)[number];

/** A command to run in a container: always an argv array, never a shell string built from cluster data. */
export interface CheckSpec {
  /** Stable id, e.g. `connect-clusterip`, `connect-endpoint:10.244.2.20:8080`, `route-clusterip`, `dns`. */
  id: string;
  /** What the check is for (the verdict reads results by this). */
  kind: CheckKind;
  argv: string[];
  /** The address or name the check is about (ClusterIP, endpoint ip:port, DNS name), for the report. */
  target?: string;
  timeoutMs: number;
}

export type CheckKind =
  | 'tools' // which tools the container has
  | 'connect-clusterip'
  | 'connect-endpoint'
  | 'dns'
  /** The Service's bare name from a pod of another namespace: what its search list makes of it. */
  | 'dns-short'
  | 'route-clusterip'
  | 'route-endpoint'
  | 'addresses'
  | 'links'
  | 'neighbours'
  | 'routes'
  | 'resolv-conf'
  // Node side (`node.ts`): run in the node's namespace, not in the pod.
  | 'node-rules'
  | 'node-addresses'
  | 'node-routes';

/** What running a check gave. `exitCode` null: the command could not be started or was ended (see `error`). */
export interface CheckResult {
  id: string;
  kind?: CheckKind;
  argv: string[];
  exitCode: number | null;
  durationMs: number;
  /** Whether the check's own question was answered yes (connected, resolved, route found). */
  ok: boolean;
  stdout: string;
  stderr: string;
  /** Why it did not run: `timeout`, `forbidden`, `not-found` (no such executable), or a transport message. */
  error?: string;
  target?: string;
}

/** Node-side evidence: the node's rules before and after the pod's probes, read in the node's own namespace. */
export interface NodeEvidence {
  name: string;
  /** kube-proxy's mode as read from the node (`iptables`, `ipvs`, `nftables`) or undefined when not known. */
  mode?: 'iptables' | 'ipvs' | 'nftables';
  /** Dump text (`iptables-save -c`, `ipvsadm -Ln --stats`, `nft list ruleset`) before and after the probes. */
  before?: string;
  after?: string;
  /** `ip -o addr` of the node. */
  addresses?: string;
  /** `ip route` of the node. */
  routes?: string;
  /** How the evidence was read (`exec kube-system/kube-proxy-abc`, `debug pod default/kpp-node-debug-x`). */
  via?: string;
  /** Why node evidence is missing or partial. */
  error?: string;
  /** The node could be read only through a debug pod, which was not confirmed (`--yes`, the prompt). */
  unconfirmed?: boolean;
}

/** The packet counters of the Service's rules on the node, before and after the probes. */
export interface RuleCounter {
  /** 1-based line of the rule in the dump it was read from. */
  line: number;
  chain: string;
  rule: string;
  packets: number;
  /** The table (`nat`, `filter`) for iptables rules; absent for IPVS. */
  table?: string;
  bytes?: number;
  /**
   * What the rule is for the Service: `service` the nat KUBE-SERVICES jump for ClusterIP:port (the one that shows
   * whether a probe entered the node's netfilter), `service-chain` / `endpoint` the KUBE-SVC / KUBE-SEP rules,
   * `no-endpoints` the filter REJECT, `service-other` another KUBE-SERVICES rule for the address, and the IPVS
   * virtual service / real server.
   */
  role?:
    'service' | 'service-chain' | 'endpoint' | 'no-endpoints' | 'service-other' | 'ipvs-service' | 'ipvs-real-server';
}

export interface Evidence {
  /** The check id or `node-rules` / `api` / `trace`. */
  source: string;
  /** One sentence in the report's language. */
  text: string;
  argv?: string[];
  /** What the command printed, trimmed to what proves the point. */
  output?: string;
  line?: number;
  before?: number;
  after?: number;
}

export interface Verdict {
  code: VerdictCode;
  summary: string;
  evidence: Evidence[];
  nextSteps: string[];
}

/** Everything the verdict reasons over. */
export interface DiagnoseInput {
  service: ServiceInfo;
  port: ServicePortSpec;
  /** The Service port's endpoints as the API lists them. */
  endpoints: EndpointInfo[];
  /** Whether the API answered for endpoints at all (false: could not be read). */
  endpointsKnown: boolean;
  source: PodInfo;
  /** The node that hosts the source pod, when known. */
  node?: NodeInfo;
  checks: CheckResult[];
  nodeEvidence?: NodeEvidence;
  /** The cluster's DNS domain (`cluster.local` unless told). */
  clusterDomain?: string;
  /** The pod had no tool and the ephemeral debug container that would have had them was not confirmed. */
  debugUnconfirmed?: boolean;
  /** Exec into the pod was refused (403) or failed before any check ran. */
  execError?: { status?: number; message: string };
  /**
   * For a Service without endpoints: its selector (`k=v,...`; absent: the Service has none) and the pods of its
   * namespace it matches, running and ready. Absent when not read.
   */
  selected?: { selector?: string; matching: number; running: number; ready: number };
  /**
   * The port names the Service's Endpoints or EndpointSlices list endpoints for (`""` an unnamed port): kube-proxy
   * pairs them with the Service's ports by name, so endpoints under another name back nothing.
   */
  endpointPortNames?: string[];
  /** Pods behind the endpoints (a few, as the API gives them), with the container ports they declare. */
  endpointPods?: EndpointPodPorts[];
}

/** A pod behind an endpoint and the ports its containers declare (`spec.containers[].ports`). */
export interface EndpointPodPorts {
  namespace: string;
  name: string;
  ip?: string;
  ports: { name?: string; port: number; protocol: string }[];
}

/** `kpp diagnose --json`: the contract. */
export interface DiagnoseReport {
  service: { namespace: string; name: string; clusterIP: string; port: number; protocol: string };
  source: { namespace: string; pod: string; container?: string; ip?: string; node?: string; debugContainer?: string };
  checks: CheckResult[];
  node?: { name: string; via?: string; counters: { before: RuleCounter[]; after: RuleCounter[] }; error?: string };
  verdict: Verdict;
  /** Wall time of the whole diagnosis. */
  durationMs?: number;
}

/** Tools found in the container by the tool probe; the plan picks the first that fits each check. */
export interface ToolSet {
  curl: boolean;
  wget: boolean;
  nc: boolean;
  /** bash with `/dev/tcp` (a fixed script; addresses passed as arguments, never spliced into it). */
  bash: boolean;
  ip: boolean;
  nslookup: boolean;
  getent: boolean;
  cat: boolean;
  timeout: boolean;
}

export interface PlanRequest {
  service: ServiceInfo;
  port: ServicePortSpec;
  endpoints: EndpointInfo[];
  source: PodInfo;
  tools: ToolSet;
  clusterDomain?: string;
  /** Per-check timeout (the setting / `--timeout`). */
  timeoutMs: number;
}

/*
 * The functions both sides use (src/core/diagnose):
 *   plan.ts     toolProbeCheck(): CheckSpec; readTools(r: CheckResult): ToolSet; planChecks(req: PlanRequest): CheckSpec[];
 *               classifyCheck(spec: CheckSpec, raw: Omit<CheckResult, 'ok'>): CheckResult  (sets `ok` from exit code/output)
 *   node.ts     nodeCaptureChecks(mode?): CheckSpec[]; ruleCounters(dump: string, service, port): RuleCounter[]
 *   verdict.ts  decideVerdict(input: DiagnoseInput, lang: Lang): Verdict
 *   report.ts   reportMarkdown(report: DiagnoseReport, lang: Lang): string
 */
