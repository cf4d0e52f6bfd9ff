/**
 * Lab scenarios as data: the schema of `test/lab/scenarios/<name>.json`, the loader, and validation that names
 * the bad field (`pods[3].ip: ...`).
 *
 * A scenario describes a small cluster and the faults to inject:
 * - `nodeNetwork`: the lab "host network" segment the nodes share, and the upstream router every node uses as its
 *   default gateway. The router silently drops whatever it is asked to forward (nothing leaves the lab).
 * - `serviceCidr` (ClusterIPs), `clusterCidr` (all pod CIDRs; kube-proxy's --cluster-cidr), `clusterDomain`.
 * - `nodes`: name, node IP on `nodeNetwork`, pod CIDR (inside `clusterCidr`), `podNetwork`: `routed` (default: a
 *   routed veth per pod, gateway 169.254.1.1 on the node's end, Calico style) or `bridge` (flannel style: the pods'
 *   veths are ports of a bridge `cni0` in the node holding the pod CIDR's first address, the pods' gateway; the
 *   pods have the CIDR's prefix length; bridge-nf-call-iptables is on in the node).
 * - `pods`: namespace, name, node, IP (inside its node's pod CIDR), labels, `tools` (the subset of curl, wget, nc, ip,
 *   nslookup the image ships; other commands than a small base set exit 127 like a runtime does), `role`:
 *   `client` (serves nothing), `backend` (HTTP), `apiserver` (HTTPS), `dns` (the lab DNS server, UDP and TCP).
 *   A pod serves on every targetPort of every Service it is an endpoint of. `ready: false` makes it a not-ready
 *   endpoint (its readiness probe fails; it still serves). `network`: `veth` (default) or `macvlan` (`ipvlan`,
 *   where the kernel has the driver): the pod's eth0 is a macvlan (ipvlan L2) link whose parent is a veth into the node network's segment, not into its node;
 *   its `ip` is an address on `nodeNetwork.cidr` and its default gateway the network's router, so its packets never
 *   enter the node's netfilter (client pods only). `distroless: true`: the image has no tools at all, not even sh.
 * - `services`: ClusterIP or NodePort, `clusterIP` (inside `serviceCidr`, or `"None"`: a headless ClusterIP Service,
 *   no rules, its DNS name answers with its ready endpoints' addresses), ports (name, port, targetPort, protocol
 *   TCP/UDP, nodePort for NodePort Services), and either a `selector` (endpoints = matching pods in the Service's
 *   namespace, as the endpoints controller does) or `endpointPods` (`ns/name` list, for selector-less Services such
 *   as `default/kubernetes`, whose endpoints the API server itself maintains).
 * - `kubeProxyMode`: `iptables` (default: the generator's iptables-restore input) or `nftables` (kube-proxy's
 *   `table ip kube-proxy`, loaded with `nft -f`).
 * - `kubeProxyPods` (default true): one hostNetwork pod per node in kube-system, `kube-proxy-<suffix>` with
 *   `k8s-app: kube-proxy`, whose exec runs in the node's namespace with the node tools of a kube-proxy image
 *   (iptables, iptables-save, nft, ip, ipset, conntrack; ipvsadm when installed). false: a cluster without them.
 * - `faults` (all optional):
 *   - `customGateway`: the seed case. The pod gets a second link on its own L2 segment (`segment`, the pod's address
 *     `podAddress` on it) to a gateway (`gateway`) that silently drops; `routes` (CIDRs or `default`) go via that
 *     gateway instead of the node, so the node's netfilter never sees those packets. Routes to `clusterCidr` stay
 *     via the node, so pod IPs (e.g. the apiserver endpoints) remain reachable directly.
 *   - `staleRules`: `[{node, services}]`: that node's kube-proxy rules lack those Services (a stale sync).
 *   - `backendDown`: Services whose endpoint pods do not listen (connections are refused after DNAT).
 *   - `nodePathDown`: `[{from, to}]`: node `from`'s route to node `to`'s pod CIDR is a blackhole (a broken tunnel):
 *     from `from` and its pods, connections to pods on `to` time out, DNATed ones included.
 *   - `dnsDown`: the `dns` pods do not serve.
 *   - `noEndpoints`: Services scaled to zero: their endpoint pods do not exist, Endpoints are empty.
 *   - `endpointsNotReady`: Services whose endpoint pods all fail readiness (not-ready endpoints; the pods serve).
 *   - `legacyApi`: the API server acts like Kubernetes 1.20 (no discovery.k8s.io/v1).
 *   - `apiGoesAway`: `{afterRequests, downForMs?}`: the API server answers that many requests, then stops
 *     listening (connections cut, then connection refused); back after `downForMs`, else at `lab -- api-start`.
 *   - `execDenied`: the kubeconfig the lab writes has kpp-lab-viewer as its current context (a user who may read
 *     but not exec or create pods: 403 Forbidden); context kpp-lab is still there.
 *   `customGateway.interface` names the pod's link on the segment (default eth1).
 *   - `filters`: `[{in, target, rejectWith?, to?, port?}]`: a firewall rule as a NetworkPolicy or a node firewall
 *     writes it, inserted first: in a node (`in` a node name: its FORWARD chain) or in a pod (`in` a pod `ns/name`:
 *     its INPUT chain), matching packets to pod `to` (default any) and TCP port `port` (default any), with target
 *     DROP or REJECT (`rejectWith` as iptables' `--reject-with`, default icmp-port-unreachable).
 * - Service ports may give `containerPort`: the port the endpoint pods really listen on (and declare), when it is
 *   not the targetPort (a Service whose targetPort does not match the container). Services may set
 *   `internalTrafficPolicy` (`Cluster` default, or `Local`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatIp, inCidr, parseCidr, parseIPv4 } from '../../src/core/common/ip';

export const TOOLS = ['curl', 'wget', 'nc', 'ip', 'nslookup'] as const;
export type Tool = (typeof TOOLS)[number];
export const ROLES = ['client', 'backend', 'apiserver', 'dns'] as const;
export type Role = (typeof ROLES)[number];
export type Protocol = 'TCP' | 'UDP';
export type ServiceType = 'ClusterIP' | 'NodePort';
export const POD_NETWORKS = ['routed', 'bridge'] as const;
/** How a node attaches its pods: routed veths with a link-local gateway (Calico style), or a cni0 bridge (flannel). */
export type PodNetwork = (typeof POD_NETWORKS)[number];
export const POD_LINKS = ['veth', 'macvlan', 'ipvlan'] as const;
/**
 * A pod's primary interface: a veth into its node, or a macvlan (ipvlan L2) link on the node network's segment. ipvlan
 * needs the kernel's ipvlan driver; without it the lab says so at start.
 */
export type PodLink = (typeof POD_LINKS)[number];

export interface ScenarioNode {
  name: string;
  ip: string;
  podCidr: string;
  /** Default `routed`. */
  podNetwork: PodNetwork;
}

export interface ScenarioPod {
  namespace: string;
  name: string;
  node: string;
  ip: string;
  role: Role;
  labels: Record<string, string>;
  tools: Tool[];
  /** Readiness of the pod (and so of its endpoints); default true. */
  ready: boolean;
  /** The container's name; default: the role. */
  container: string;
  /** Default `veth`. macvlan/ipvlan: `ip` is an address on the node network, the gateway its router. */
  network: PodLink;
  /** An image with no tools at all, not even sh: every exec exits 127. */
  distroless: boolean;
}

export interface ScenarioServicePort {
  name: string;
  port: number;
  targetPort: number;
  protocol: Protocol;
  nodePort?: number;
  /** The port the endpoint pods listen on and declare; default targetPort. */
  containerPort?: number;
}

export interface ScenarioService {
  namespace: string;
  name: string;
  type: ServiceType;
  /** An IPv4 address, or `None` (headless). */
  clusterIP: string;
  ports: ScenarioServicePort[];
  selector?: Record<string, string>;
  endpointPods?: string[];
  /** Default `Cluster`. */
  internalTrafficPolicy: 'Cluster' | 'Local';
}

export interface CustomGatewayFault {
  pod: string;
  segment: string;
  gateway: string;
  podAddress: string;
  routes: string[];
  /** The pod's interface on the segment; default eth1 (Multus would say net1). */
  interface: string;
}

/** Node `from` cannot reach the pods of node `to` (a broken tunnel or route between nodes). */
export interface NodePathDownFault {
  from: string;
  to: string;
}

export interface ApiGoesAwayFault {
  /** The API server answers this many requests, then stops listening (clients see connection refused). */
  afterRequests: number;
  /** Listen again after this long; absent: until `npm run lab -- api-start`. */
  downForMs?: number;
}

export const REJECT_WITH = [
  'icmp-port-unreachable',
  'icmp-host-unreachable',
  'icmp-net-unreachable',
  'icmp-host-prohibited',
  'icmp-admin-prohibited',
  'tcp-reset',
] as const;

/** A DROP/REJECT rule in a node's FORWARD chain or a pod's INPUT chain (a NetworkPolicy, a node firewall). */
export interface FilterFault {
  /** A node name, or a pod as `ns/name`. */
  in: string;
  target: 'DROP' | 'REJECT';
  rejectWith?: (typeof REJECT_WITH)[number];
  /** Only packets to this pod (`ns/name`). */
  to?: string;
  /** Only TCP packets to this port. */
  port?: number;
}

export interface StaleRulesFault {
  node: string;
  services: string[];
}

export interface ScenarioFaults {
  customGateway?: CustomGatewayFault;
  staleRules: StaleRulesFault[];
  backendDown: string[];
  nodePathDown: NodePathDownFault[];
  dnsDown: boolean;
  noEndpoints: string[];
  endpointsNotReady: string[];
  legacyApi: boolean;
  apiGoesAway?: ApiGoesAwayFault;
  /** The kubeconfig's current context is kpp-lab-viewer: exec and pod creation answer 403 (kpp-lab still works). */
  execDenied: boolean;
  filters: FilterFault[];
}

export interface Scenario {
  name: string;
  description: string;
  clusterDomain: string;
  serviceCidr: string;
  clusterCidr: string;
  nodeNetwork: { cidr: string; router: string };
  nodes: ScenarioNode[];
  pods: ScenarioPod[];
  services: ScenarioService[];
  /** One hostNetwork kube-proxy pod per node in kube-system (`k8s-app: kube-proxy`); default true. */
  kubeProxyPods: boolean;
  /** kube-proxy's mode on every node: `iptables` (default) or `nftables` (its `table ip kube-proxy`). */
  kubeProxyMode: 'iptables' | 'nftables';
  faults: ScenarioFaults;
}

export interface ScenarioProblem {
  /** The field, as a path: `pods[3].ip`, `faults.customGateway.gateway`. */
  path: string;
  message: string;
}

export type ScenarioResult = { ok: true; scenario: Scenario } | { ok: false; problems: ScenarioProblem[] };

/** The shipped scenarios' folder, whether running from `test/lab` (tsx) or `out/test/lab` (tsc, JSON not copied). */
export function scenariosDir(): string {
  const beside = path.join(__dirname, 'scenarios');
  return fs.existsSync(beside) ? beside : path.resolve(__dirname, '..', '..', '..', 'test', 'lab', 'scenarios');
}

export function listScenarios(): { name: string; description: string }[] {
  const dir = scenariosDir();
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const result = parseScenario(fs.readFileSync(path.join(dir, f), 'utf8'));
      const name = f.slice(0, -'.json'.length);
      return { name, description: result.ok ? result.scenario.description : '(invalid scenario file)' };
    });
}

/** Loads a shipped scenario by name, or a file by path; throws an Error listing every problem. */
export function loadScenario(nameOrFile: string): Scenario {
  const isFile = nameOrFile.includes('/') || nameOrFile.endsWith('.json');
  const file = isFile ? path.resolve(nameOrFile) : path.join(scenariosDir(), `${nameOrFile}.json`);
  if (!fs.existsSync(file)) {
    const known = listScenarios().map((s) => s.name);
    throw new Error(
      isFile ? `scenario file not found: ${file}` : `unknown scenario "${nameOrFile}"; known: ${known.join(', ')}`,
    );
  }
  const result = parseScenario(fs.readFileSync(file, 'utf8'));
  if (!result.ok) {
    const lines = result.problems.map((p) => `  ${p.path}: ${p.message}`);
    throw new Error(`invalid scenario ${file}:\n${lines.join('\n')}`);
  }
  return result.scenario;
}

export function parseScenario(text: string): ScenarioResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [{ path: '(file)', message: `not JSON: ${(e as Error).message}` }] };
  }
  return validateScenario(data);
}

// ---------------------------------------------------------------------------------------------------------------

const SCENARIO_NAME = /^[a-z0-9][-a-z0-9.]*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;
const IFNAME = /^[a-z][a-z0-9_.-]{0,14}$/;

type Obj = Record<string, unknown>;

/** Collects problems while reading untrusted JSON field by field. */
class Reader {
  readonly problems: ScenarioProblem[] = [];

  problem(at: string, message: string): void {
    this.problems.push({ path: at, message });
  }

  object(value: unknown, at: string, known: readonly string[]): Obj | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problem(at, 'must be an object');
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) this.problem(join(at, key), `unknown field (known: ${known.join(', ')})`);
    }
    return value as Obj;
  }

  array(value: unknown, at: string): unknown[] | undefined {
    if (!Array.isArray(value)) {
      this.problem(at, 'must be an array');
      return undefined;
    }
    return value;
  }

  string(o: Obj, key: string, at: string, optional = false): string | undefined {
    const v = o[key];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'string' || v === '') {
      this.problem(join(at, key), v === undefined ? 'is required' : 'must be a non-empty string');
      return undefined;
    }
    return v;
  }

  /** A node name: a DNS subdomain as Kubernetes allows (`ip-10-0-1-5.eu-west-1.compute.internal`), not just a label. */
  nodeName(o: Obj, key: string, at: string): string | undefined {
    const v = this.string(o, key, at);
    if (v !== undefined && (v.length > 63 || !v.split('.').every((l) => DNS_LABEL.test(l)))) {
      this.problem(join(at, key), `"${v}" is not a DNS name of at most 63 characters (labels joined by '.')`);
      return undefined;
    }
    return v;
  }

  name(o: Obj, key: string, at: string): string | undefined {
    const v = this.string(o, key, at);
    if (v !== undefined && (!DNS_LABEL.test(v) || v.length > 63)) {
      this.problem(join(at, key), `"${v}" is not a DNS label (lowercase letters, digits, '-')`);
      return undefined;
    }
    return v;
  }

  ipv4(o: Obj, key: string, at: string): string | undefined {
    const v = this.string(o, key, at);
    if (v !== undefined && parseIPv4(v) === undefined) {
      this.problem(join(at, key), `"${v}" is not an IPv4 address`);
      return undefined;
    }
    return v;
  }

  cidr(o: Obj, key: string, at: string): string | undefined {
    const v = this.string(o, key, at);
    if (v === undefined) return undefined;
    const c = parseCidr(v);
    if (!c || c.family !== 4 || !v.includes('/')) {
      this.problem(join(at, key), `"${v}" is not an IPv4 CIDR like 10.244.1.0/24`);
      return undefined;
    }
    return v;
  }

  port(o: Obj, key: string, at: string, optional = false): number | undefined {
    const v = o[key];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 65535) {
      this.problem(join(at, key), v === undefined ? 'is required' : 'must be an integer port 1-65535');
      return undefined;
    }
    return v;
  }

  bool(o: Obj, key: string, at: string, fallback: boolean): boolean {
    const v = o[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') {
      this.problem(join(at, key), 'must be true or false');
      return fallback;
    }
    return v;
  }

  labels(o: Obj, key: string, at: string): Record<string, string> | undefined {
    const v = o[key];
    if (v === undefined) return undefined;
    const keys = typeof v === 'object' && v !== null ? Object.keys(v) : [];
    const m = this.object(v, join(at, key), keys);
    if (!m) return undefined;
    const out: Record<string, string> = {};
    for (const [k, val] of Object.entries(m)) {
      if (!LABEL_KEY.test(k)) this.problem(join(join(at, key), k), 'is not a valid label key');
      else if (typeof val !== 'string' || !LABEL_VALUE.test(val) || val.length > 63)
        this.problem(join(join(at, key), k), 'must be a valid label value (string)');
      else out[k] = val;
    }
    return out;
  }

  stringList(o: Obj, key: string, at: string): string[] {
    const v = o[key];
    if (v === undefined) return [];
    const list = this.array(v, join(at, key));
    if (!list) return [];
    const out: string[] = [];
    list.forEach((item, i) => {
      if (typeof item !== 'string' || item === '') this.problem(`${join(at, key)}[${i}]`, 'must be a non-empty string');
      else out.push(item);
    });
    return out;
  }
}

function join(at: string, key: string): string {
  return at ? `${at}.${key}` : key;
}

function cidrsOverlap(a: string, b: string): boolean {
  const ca = parseCidr(a);
  const cb = parseCidr(b);
  if (!ca || !cb) return false;
  const narrow = ca.prefix >= cb.prefix ? a : b;
  const wide = narrow === a ? b : a;
  return inCidr(narrow.split('/')[0], wide);
}

export function validateScenario(data: unknown): ScenarioResult {
  const r = new Reader();
  const top = r.object(data, '', [
    '$schema',
    'name',
    'description',
    'clusterDomain',
    'serviceCidr',
    'clusterCidr',
    'nodeNetwork',
    'nodes',
    'pods',
    'services',
    'kubeProxyPods',
    'kubeProxyMode',
    'faults',
  ]);
  if (!top) return { ok: false, problems: r.problems };

  const name = r.string(top, 'name', '');
  if (name !== undefined && !SCENARIO_NAME.test(name))
    r.problem('name', `"${name}" must be lowercase letters, digits, '-' and '.'`);
  const description = r.string(top, 'description', '');
  const clusterDomain = r.string(top, 'clusterDomain', '', true) ?? 'cluster.local';
  const serviceCidr = r.cidr(top, 'serviceCidr', '');
  const clusterCidr = r.cidr(top, 'clusterCidr', '');
  if (serviceCidr && clusterCidr && cidrsOverlap(serviceCidr, clusterCidr))
    r.problem('serviceCidr', `overlaps clusterCidr ${clusterCidr}`);

  let nodeNetwork: Scenario['nodeNetwork'] | undefined;
  const nn = top.nodeNetwork === undefined ? undefined : r.object(top.nodeNetwork, 'nodeNetwork', ['cidr', 'router']);
  if (top.nodeNetwork === undefined) r.problem('nodeNetwork', 'is required');
  if (nn) {
    const cidr = r.cidr(nn, 'cidr', 'nodeNetwork');
    const router = r.ipv4(nn, 'router', 'nodeNetwork');
    if (cidr && router && !inCidr(router, cidr)) r.problem('nodeNetwork.router', `${router} is not inside ${cidr}`);
    for (const [other, otherName] of [
      [serviceCidr, 'serviceCidr'],
      [clusterCidr, 'clusterCidr'],
    ] as const) {
      if (cidr && other && cidrsOverlap(cidr, other)) r.problem('nodeNetwork.cidr', `overlaps ${otherName} ${other}`);
    }
    if (cidr && router) nodeNetwork = { cidr, router };
  }

  const nodes = readNodes(r, top, nodeNetwork, clusterCidr);
  const pods = readPods(r, top, nodes, nodeNetwork);
  const services = readServices(r, top, serviceCidr, pods);
  const kubeProxyPods = r.bool(top, 'kubeProxyPods', '', true);
  const kubeProxyMode = (r.string(top, 'kubeProxyMode', '', true) ?? 'iptables') as Scenario['kubeProxyMode'];
  if (kubeProxyMode !== 'iptables' && kubeProxyMode !== 'nftables')
    r.problem(
      'kubeProxyMode',
      `"${String(kubeProxyMode)}" is not iptables or nftables (IPVS does not exist in this kernel)`,
    );
  const faults = readFaults(r, top, { nodes, pods, services, serviceCidr, clusterCidr, nodeNetwork });

  if (r.problems.length > 0 || !name || !description || !serviceCidr || !clusterCidr || !nodeNetwork)
    return { ok: false, problems: r.problems };
  return {
    ok: true,
    scenario: {
      name,
      description,
      clusterDomain,
      serviceCidr,
      clusterCidr,
      nodeNetwork,
      nodes,
      pods,
      services,
      kubeProxyPods,
      kubeProxyMode,
      faults,
    },
  };
}

function readNodes(
  r: Reader,
  top: Obj,
  nodeNetwork: Scenario['nodeNetwork'] | undefined,
  clusterCidr: string | undefined,
): ScenarioNode[] {
  const out: ScenarioNode[] = [];
  const list = r.array(top.nodes, 'nodes') ?? [];
  if (top.nodes !== undefined && list.length === 0) r.problem('nodes', 'needs at least one node');
  list.forEach((raw, i) => {
    const at = `nodes[${i}]`;
    const o = r.object(raw, at, ['name', 'ip', 'podCidr', 'podNetwork']);
    if (!o) return;
    const name = r.nodeName(o, 'name', at);
    const ip = r.ipv4(o, 'ip', at);
    const podCidr = r.cidr(o, 'podCidr', at);
    const podNetwork = (r.string(o, 'podNetwork', at, true) ?? 'routed') as PodNetwork;
    if (!(POD_NETWORKS as readonly string[]).includes(podNetwork))
      r.problem(`${at}.podNetwork`, `"${podNetwork}" is not one of ${POD_NETWORKS.join(', ')}`);
    if (name && out.some((n) => n.name === name)) r.problem(`${at}.name`, `duplicate node "${name}"`);
    if (ip && nodeNetwork) {
      if (!inCidr(ip, nodeNetwork.cidr))
        r.problem(`${at}.ip`, `${ip} is not inside nodeNetwork.cidr ${nodeNetwork.cidr}`);
      if (ip === nodeNetwork.router) r.problem(`${at}.ip`, `${ip} is the router's address`);
    }
    if (ip && out.some((n) => n.ip === ip)) r.problem(`${at}.ip`, `duplicate node IP ${ip}`);
    if (podCidr && clusterCidr && !cidrsOverlap(podCidr, clusterCidr))
      r.problem(`${at}.podCidr`, `${podCidr} is not inside clusterCidr ${clusterCidr}`);
    if (podCidr && out.some((n) => cidrsOverlap(n.podCidr, podCidr)))
      r.problem(`${at}.podCidr`, `${podCidr} overlaps another node's pod CIDR`);
    if (name && ip && podCidr) out.push({ name, ip, podCidr, podNetwork });
  });
  return out;
}

/** The first address of a CIDR: a bridge node's cni0 address, its pods' gateway. */
export function bridgeAddress(podCidr: string): string {
  const c = parseCidr(podCidr)!;
  return formatIp({ family: 4, value: c.base + 1n });
}

function readPods(
  r: Reader,
  top: Obj,
  nodes: ScenarioNode[],
  nodeNetwork: Scenario['nodeNetwork'] | undefined,
): ScenarioPod[] {
  const out: ScenarioPod[] = [];
  const list = r.array(top.pods, 'pods') ?? [];
  list.forEach((raw, i) => {
    const at = `pods[${i}]`;
    const o = r.object(raw, at, [
      'namespace',
      'name',
      'node',
      'ip',
      'role',
      'labels',
      'tools',
      'ready',
      'container',
      'network',
      'distroless',
    ]);
    if (!o) return;
    const namespace = r.name(o, 'namespace', at);
    const name = r.name(o, 'name', at);
    const nodeName = r.string(o, 'node', at);
    const ip = r.ipv4(o, 'ip', at);
    const role = r.string(o, 'role', at);
    if (role !== undefined && !(ROLES as readonly string[]).includes(role))
      r.problem(`${at}.role`, `"${role}" is not one of ${ROLES.join(', ')}`);
    const labels = r.labels(o, 'labels', at) ?? {};
    const tools = r.stringList(o, 'tools', at);
    tools.forEach((t, j) => {
      if (!(TOOLS as readonly string[]).includes(t))
        r.problem(`${at}.tools[${j}]`, `"${t}" is not one of ${TOOLS.join(', ')}`);
    });
    const ready = r.bool(o, 'ready', at, true);
    const container = o.container === undefined ? role : r.name(o, 'container', at);
    const network = (r.string(o, 'network', at, true) ?? 'veth') as PodLink;
    if (!(POD_LINKS as readonly string[]).includes(network))
      r.problem(`${at}.network`, `"${network}" is not one of ${POD_LINKS.join(', ')}`);
    const distroless = r.bool(o, 'distroless', at, false);
    if (distroless && tools.length > 0)
      r.problem(`${at}.tools`, 'a distroless image has no tools at all: leave tools out or empty');
    const node = nodes.find((n) => n.name === nodeName);
    if (nodeName && !node) r.problem(`${at}.node`, `no node named "${nodeName}"`);
    if (network === 'veth') {
      if (ip && node && !inCidr(ip, node.podCidr))
        r.problem(`${at}.ip`, `${ip} is not inside ${node.name}'s podCidr ${node.podCidr}`);
      if (ip && node && ip === node.podCidr.split('/')[0])
        r.problem(`${at}.ip`, `${ip} is the pod CIDR's network address`);
      if (ip && node && node.podNetwork === 'bridge' && ip === bridgeAddress(node.podCidr))
        r.problem(`${at}.ip`, `${ip} is ${node.name}'s bridge address (cni0, the pods' gateway)`);
    } else if (ip && nodeNetwork) {
      // A macvlan/ipvlan pod sits on the node network's segment, with its own address there.
      if (!inCidr(ip, nodeNetwork.cidr))
        r.problem(`${at}.ip`, `a ${network} pod's ip must be inside nodeNetwork.cidr ${nodeNetwork.cidr}, not ${ip}`);
      else if (ip === nodeNetwork.router || nodes.some((n) => n.ip === ip))
        r.problem(`${at}.ip`, `${ip} is already the router's or a node's address`);
      else if (ip === nodeNetwork.cidr.split('/')[0]) r.problem(`${at}.ip`, `${ip} is the network address`);
      if (role !== undefined && role !== 'client')
        r.problem(`${at}.network`, `only a client pod can be ${network}-attached (role is ${role})`);
    }
    if (ip && out.some((p) => p.ip === ip)) r.problem(`${at}.ip`, `duplicate pod IP ${ip}`);
    if (namespace && name && out.some((p) => p.namespace === namespace && p.name === name))
      r.problem(`${at}.name`, `duplicate pod ${namespace}/${name}`);
    if (namespace && name && nodeName && node && ip && role && (ROLES as readonly string[]).includes(role) && container)
      out.push({
        namespace,
        name,
        node: nodeName,
        ip,
        role: role as Role,
        labels,
        tools: tools as Tool[],
        ready,
        container,
        network,
        distroless,
      });
  });
  return out;
}

function readServices(r: Reader, top: Obj, serviceCidr: string | undefined, pods: ScenarioPod[]): ScenarioService[] {
  const out: ScenarioService[] = [];
  const list = r.array(top.services, 'services') ?? [];
  list.forEach((raw, i) => {
    const at = `services[${i}]`;
    const o = r.object(raw, at, [
      'namespace',
      'name',
      'type',
      'clusterIP',
      'ports',
      'selector',
      'endpointPods',
      'internalTrafficPolicy',
    ]);
    if (!o) return;
    const namespace = r.name(o, 'namespace', at);
    const name = r.name(o, 'name', at);
    const type = (r.string(o, 'type', at, true) ?? 'ClusterIP') as ServiceType;
    if (type !== 'ClusterIP' && type !== 'NodePort') r.problem(`${at}.type`, `"${type}" is not ClusterIP or NodePort`);
    const headless = o.clusterIP === 'None';
    if (headless && type !== 'ClusterIP') r.problem(`${at}.clusterIP`, 'only a ClusterIP Service can be headless');
    const clusterIP = headless ? 'None' : r.ipv4(o, 'clusterIP', at);
    if (clusterIP && !headless && serviceCidr && !inCidr(clusterIP, serviceCidr))
      r.problem(`${at}.clusterIP`, `${clusterIP} is not inside serviceCidr ${serviceCidr}`);
    if (clusterIP && !headless && out.some((s) => s.clusterIP === clusterIP))
      r.problem(`${at}.clusterIP`, `duplicate ClusterIP ${clusterIP}`);
    if (namespace && name && out.some((s) => s.namespace === namespace && s.name === name))
      r.problem(`${at}.name`, `duplicate Service ${namespace}/${name}`);
    const ports = readServicePorts(r, o, at, type);
    const selector = r.labels(o, 'selector', at);
    const endpointPods = o.endpointPods === undefined ? undefined : r.stringList(o, 'endpointPods', at);
    const internalTrafficPolicy = r.string(o, 'internalTrafficPolicy', at, true) ?? 'Cluster';
    if (internalTrafficPolicy !== 'Cluster' && internalTrafficPolicy !== 'Local')
      r.problem(`${at}.internalTrafficPolicy`, `"${internalTrafficPolicy}" is not Cluster or Local`);
    if (selector && endpointPods) r.problem(`${at}.endpointPods`, 'give either selector or endpointPods, not both');
    endpointPods?.forEach((ref, j) => {
      if (!pods.some((p) => `${p.namespace}/${p.name}` === ref))
        r.problem(`${at}.endpointPods[${j}]`, `no pod "${ref}"`);
    });
    if (namespace && name && clusterIP && ports)
      out.push({
        namespace,
        name,
        type,
        clusterIP,
        ports,
        ...(selector ? { selector } : {}),
        ...(endpointPods ? { endpointPods } : {}),
        internalTrafficPolicy: internalTrafficPolicy === 'Local' ? 'Local' : 'Cluster',
      });
  });
  const nodePorts = out.flatMap((s) => s.ports.map((p) => p.nodePort).filter((n) => n !== undefined));
  if (new Set(nodePorts).size !== nodePorts.length) r.problem('services', 'a nodePort is used twice');
  return out;
}

function readServicePorts(r: Reader, o: Obj, at: string, type: ServiceType): ScenarioServicePort[] | undefined {
  const list = r.array(o.ports, `${at}.ports`);
  if (!list) return undefined;
  if (list.length === 0) r.problem(`${at}.ports`, 'needs at least one port');
  const ports: ScenarioServicePort[] = [];
  list.forEach((raw, j) => {
    const pat = `${at}.ports[${j}]`;
    const p = r.object(raw, pat, ['name', 'port', 'targetPort', 'protocol', 'nodePort', 'containerPort']);
    if (!p) return;
    const name = p.name === undefined ? '' : r.name(p, 'name', pat);
    const port = r.port(p, 'port', pat);
    const targetPort = r.port(p, 'targetPort', pat, true) ?? port;
    const protocol = (r.string(p, 'protocol', pat, true) ?? 'TCP') as Protocol;
    if (protocol !== 'TCP' && protocol !== 'UDP') r.problem(`${pat}.protocol`, `"${protocol}" is not TCP or UDP`);
    const nodePort = r.port(p, 'nodePort', pat, true);
    const containerPort = r.port(p, 'containerPort', pat, true);
    if (nodePort !== undefined && type !== 'NodePort')
      r.problem(`${pat}.nodePort`, 'only a NodePort Service has nodePorts');
    if (nodePort !== undefined && (nodePort < 30000 || nodePort > 32767))
      r.problem(`${pat}.nodePort`, `${nodePort} is outside the default range 30000-32767`);
    if (type === 'NodePort' && nodePort === undefined)
      r.problem(`${pat}.nodePort`, 'a NodePort Service port needs a nodePort');
    if (name === undefined || port === undefined || targetPort === undefined) return;
    if (ports.some((q) => q.name === name)) r.problem(`${pat}.name`, `duplicate port name "${name}"`);
    if (ports.some((q) => q.port === port && q.protocol === protocol))
      r.problem(`${pat}.port`, `duplicate port ${port}/${protocol}`);
    ports.push({
      name,
      port,
      targetPort,
      protocol,
      ...(nodePort !== undefined ? { nodePort } : {}),
      ...(containerPort !== undefined ? { containerPort } : {}),
    });
  });
  if (ports.length > 1 && ports.some((p) => p.name === ''))
    r.problem(`${at}.ports`, 'with several ports, every port needs a name');
  return ports;
}

interface FaultContext {
  nodes: ScenarioNode[];
  pods: ScenarioPod[];
  services: ScenarioService[];
  serviceCidr?: string;
  clusterCidr?: string;
  nodeNetwork?: Scenario['nodeNetwork'];
}

function readFaults(r: Reader, top: Obj, ctx: FaultContext): ScenarioFaults {
  const faults: ScenarioFaults = {
    staleRules: [],
    backendDown: [],
    nodePathDown: [],
    dnsDown: false,
    noEndpoints: [],
    endpointsNotReady: [],
    legacyApi: false,
    execDenied: false,
    filters: [],
  };
  if (top.faults === undefined) return faults;
  const o = r.object(top.faults, 'faults', [
    'customGateway',
    'staleRules',
    'backendDown',
    'nodePathDown',
    'dnsDown',
    'noEndpoints',
    'endpointsNotReady',
    'legacyApi',
    'apiGoesAway',
    'execDenied',
    'filters',
  ]);
  if (!o) return faults;
  const serviceRefs = (key: string): string[] => {
    const refs = r.stringList(o, key, 'faults');
    refs.forEach((ref, i) => {
      if (!ctx.services.some((s) => `${s.namespace}/${s.name}` === ref))
        r.problem(`faults.${key}[${i}]`, `no Service "${ref}"`);
    });
    return refs;
  };
  faults.backendDown = serviceRefs('backendDown');
  faults.noEndpoints = serviceRefs('noEndpoints');
  faults.endpointsNotReady = serviceRefs('endpointsNotReady');
  faults.dnsDown = r.bool(o, 'dnsDown', 'faults', false);
  faults.legacyApi = r.bool(o, 'legacyApi', 'faults', false);
  faults.execDenied = r.bool(o, 'execDenied', 'faults', false);
  if (faults.dnsDown && !ctx.pods.some((p) => p.role === 'dns')) r.problem('faults.dnsDown', 'no pod has role dns');

  if (o.staleRules !== undefined) {
    (r.array(o.staleRules, 'faults.staleRules') ?? []).forEach((raw, i) => {
      const at = `faults.staleRules[${i}]`;
      const s = r.object(raw, at, ['node', 'services']);
      if (!s) return;
      const node = r.string(s, 'node', at);
      if (node && !ctx.nodes.some((n) => n.name === node)) r.problem(`${at}.node`, `no node named "${node}"`);
      const services = r.stringList(s, 'services', at);
      if (services.length === 0) r.problem(`${at}.services`, 'list at least one Service');
      services.forEach((ref, j) => {
        if (!ctx.services.some((sv) => `${sv.namespace}/${sv.name}` === ref))
          r.problem(`${at}.services[${j}]`, `no Service "${ref}"`);
      });
      if (node) faults.staleRules.push({ node, services });
    });
  }

  if (o.nodePathDown !== undefined) {
    (r.array(o.nodePathDown, 'faults.nodePathDown') ?? []).forEach((raw, i) => {
      const at = `faults.nodePathDown[${i}]`;
      const d = r.object(raw, at, ['from', 'to']);
      if (!d) return;
      const from = r.string(d, 'from', at);
      const to = r.string(d, 'to', at);
      for (const [key, node] of [
        ['from', from],
        ['to', to],
      ] as const)
        if (node && !ctx.nodes.some((n) => n.name === node)) r.problem(`${at}.${key}`, `no node named "${node}"`);
      if (from && from === to) r.problem(`${at}.to`, 'must differ from "from"');
      if (from && to) faults.nodePathDown.push({ from, to });
    });
  }

  if (o.filters !== undefined) {
    (r.array(o.filters, 'faults.filters') ?? []).forEach((raw, i) => {
      const at = `faults.filters[${i}]`;
      const d = r.object(raw, at, ['in', 'target', 'rejectWith', 'to', 'port']);
      if (!d) return;
      const where = r.string(d, 'in', at);
      if (
        where &&
        !ctx.nodes.some((n) => n.name === where) &&
        !ctx.pods.some((p) => `${p.namespace}/${p.name}` === where)
      )
        r.problem(`${at}.in`, `no node or pod (ns/name) "${where}"`);
      const target = r.string(d, 'target', at);
      if (target && target !== 'DROP' && target !== 'REJECT')
        r.problem(`${at}.target`, `"${target}" is not DROP or REJECT`);
      const rejectWith = r.string(d, 'rejectWith', at, true);
      if (rejectWith !== undefined && !(REJECT_WITH as readonly string[]).includes(rejectWith))
        r.problem(`${at}.rejectWith`, `"${rejectWith}" is not one of ${REJECT_WITH.join(', ')}`);
      if (rejectWith !== undefined && target !== 'REJECT') r.problem(`${at}.rejectWith`, 'only a REJECT has one');
      const to = r.string(d, 'to', at, true);
      if (to !== undefined && !ctx.pods.some((p) => `${p.namespace}/${p.name}` === to))
        r.problem(`${at}.to`, `no pod "${to}"`);
      const port = r.port(d, 'port', at, true);
      if (where && (target === 'DROP' || target === 'REJECT'))
        faults.filters.push({
          in: where,
          target,
          ...(rejectWith !== undefined ? { rejectWith: rejectWith as FilterFault['rejectWith'] } : {}),
          ...(to !== undefined ? { to } : {}),
          ...(port !== undefined ? { port } : {}),
        });
    });
  }

  if (o.apiGoesAway !== undefined) {
    const at = 'faults.apiGoesAway';
    const g = r.object(o.apiGoesAway, at, ['afterRequests', 'downForMs']);
    if (g) {
      const count = (key: string, min: number, optional: boolean): number | undefined => {
        const v = g[key];
        if (v === undefined && optional) return undefined;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
          r.problem(`${at}.${key}`, v === undefined ? 'is required' : `must be an integer >= ${min}`);
          return undefined;
        }
        return v;
      };
      const afterRequests = count('afterRequests', 1, false);
      const downForMs = count('downForMs', 0, true);
      if (afterRequests !== undefined)
        faults.apiGoesAway = { afterRequests, ...(downForMs !== undefined ? { downForMs } : {}) };
    }
  }

  if (o.customGateway !== undefined) {
    const at = 'faults.customGateway';
    const g = r.object(o.customGateway, at, ['pod', 'segment', 'gateway', 'podAddress', 'routes', 'interface']);
    if (g) {
      const pod = r.string(g, 'pod', at);
      const target = ctx.pods.find((p) => `${p.namespace}/${p.name}` === pod);
      if (pod && !target) r.problem(`${at}.pod`, `no pod "${pod}"`);
      if (target && target.network !== 'veth')
        r.problem(`${at}.pod`, `${pod} is ${target.network}-attached; the custom gateway needs a veth pod`);
      const iface = r.string(g, 'interface', at, true) ?? 'eth1';
      if (!IFNAME.test(iface) || iface === 'eth0' || iface === 'lo')
        r.problem(`${at}.interface`, `"${iface}" is not a free interface name like eth1 or net1`);
      const segment = r.cidr(g, 'segment', at);
      const gateway = r.ipv4(g, 'gateway', at);
      const podAddress = r.ipv4(g, 'podAddress', at);
      if (segment) {
        if (gateway && !inCidr(gateway, segment))
          r.problem(`${at}.gateway`, `${gateway} is not inside segment ${segment}`);
        if (podAddress && !inCidr(podAddress, segment))
          r.problem(`${at}.podAddress`, `${podAddress} is not inside segment ${segment}`);
        if (gateway && gateway === podAddress) r.problem(`${at}.podAddress`, 'must differ from the gateway');
        const others: [string | undefined, string][] = [
          [ctx.serviceCidr, 'serviceCidr'],
          [ctx.clusterCidr, 'clusterCidr'],
          [ctx.nodeNetwork?.cidr, 'nodeNetwork.cidr'],
        ];
        for (const [other, label] of others) {
          if (other && cidrsOverlap(segment, other))
            r.problem(`${at}.segment`, `overlaps ${label} ${other} (it must be its own L2 segment)`);
        }
      }
      const routes = r.stringList(g, 'routes', at);
      if (routes.length === 0) r.problem(`${at}.routes`, 'list at least one route (a CIDR or "default")');
      routes.forEach((route, j) => {
        const c = route === 'default' ? true : parseCidr(route);
        if (!c || (c !== true && (c.family !== 4 || !route.includes('/'))))
          r.problem(`${at}.routes[${j}]`, `"${route}" is not "default" or an IPv4 CIDR`);
      });
      if (pod && segment && gateway && podAddress)
        faults.customGateway = { pod, segment, gateway, podAddress, routes, interface: iface };
    }
  }
  return faults;
}
