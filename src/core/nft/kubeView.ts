/**
 * The kube-proxy view of a ruleset kube-proxy wrote in nftables mode (`table ip kube-proxy`, beta in 1.31).
 * Its Services are not rules of a KUBE-SERVICES chain but elements of maps: `service-ips` sends
 * `ClusterIP . protocol . port` to the Service's `service-HASH-ns/name/proto/port` chain, `service-nodeports`
 * sends `protocol . nodePort` to its `external-...` chain, `no-endpoint-services` names (in element comments) the
 * Services that have no endpoints. A Service chain picks an endpoint with `numgen random mod N vmap { i : goto
 * endpoint-... }`, each endpoint chain DNATs to its address. Chain names carry the Service port and endpoint, and
 * their hash is checked.
 */
import { splitHostPort } from '../common/ip';
import { parseServiceComment, type KubeEndpoint, type KubeService } from '../iptables/kubeServices';
import { bracedElements, type NftElement, type NftObject } from './objects';
import { nftKubeChain, type NftKubeChain } from '../iptables/chainHashes';
import { optionValue, ruleTargetName, targetOptionValue, type Chain, type IptablesDump } from '../iptables/dump';

export interface NftablesModeView {
  services: KubeService[];
  serviceByChain: Map<string, KubeService>;
  endpointByChain: Map<string, { service: KubeService; endpoint: KubeEndpoint }>;
}

/** kube-proxy's map names (pkg/proxy/nftables). */
const SERVICE_IPS = 'service-ips';
const SERVICE_NODEPORTS = 'service-nodeports';
const NO_ENDPOINT_SERVICES = 'no-endpoint-services';
const NO_ENDPOINT_NODEPORTS = 'no-endpoint-nodeports';
const FIREWALL_IPS = 'firewall-ips';
/** The set of active ClusterIPs (kube-proxy 1.31 on): tells a Service's ClusterIP from its other addresses. */
const CLUSTER_IPS = 'cluster-ips';

interface ServiceEntry {
  service: KubeService & { endpoints: KubeEndpoint[]; lines: number[]; chains: { kind: string; name: string }[] };
  chainsVerified: boolean;
}

/** The Services of the dump's nftables-mode chains and maps; empty when it has none. */
export function readNftablesModeView(dump: IptablesDump): NftablesModeView {
  const view: NftablesModeView = { services: [], serviceByChain: new Map(), endpointByChain: new Map() };
  const byKey = new Map<string, ServiceEntry>();
  const serviceFor = (spn: string, protocol: string, parsed?: NftKubeChain): ServiceEntry => {
    const key = `${spn} ${protocol}`;
    let entry = byKey.get(key);
    if (!entry) {
      const slash = spn.indexOf('/');
      const colon = spn.indexOf(':', slash);
      const service: ServiceEntry['service'] = {
        name: spn,
        namespace: parsed?.namespace ?? spn.slice(0, slash),
        service: parsed?.service ?? (colon >= 0 ? spn.slice(slash + 1, colon) : spn.slice(slash + 1)),
        portName: parsed?.portName ?? (colon >= 0 ? spn.slice(colon + 1) : ''),
        protocol,
        externalIPs: [],
        loadBalancerIPs: [],
        chains: [],
        hashVerified: null,
        endpoints: [],
        noEndpoints: false,
        noLocalEndpoints: false,
        lines: [],
      };
      entry = { service, chainsVerified: true };
      byKey.set(key, entry);
      view.services.push(service);
    }
    return entry;
  };

  // 1. Chains by name: every Service port's chains, and its endpoint chains.
  const endpointChains: { chain: Chain; parsed: NftKubeChain }[] = [];
  const serviceChains: { chain: Chain; parsed: NftKubeChain; entry: ServiceEntry }[] = [];
  for (const table of dump.tables) {
    for (const chain of table.chains.values()) {
      const parsed = nftKubeChain(chain.name);
      if (!parsed) continue;
      if (parsed.kind === 'endpoint') {
        endpointChains.push({ chain, parsed });
        continue;
      }
      const entry = serviceFor(parsed.spn, parsed.protocol, parsed);
      const s = entry.service;
      s.chains.push({ kind: parsed.kind, name: chain.name });
      entry.chainsVerified &&= parsed.hashVerified;
      s.hashVerified = entry.chainsVerified;
      if (parsed.kind === 'service' || (parsed.kind === 'service-local' && !s.chain)) s.chain = chain.name;
      if (parsed.kind === 'service-local') s.trafficPolicy = 'Local';
      view.serviceByChain.set(chain.name, s);
      for (const r of chain.rules) s.lines.push(r.line);
      serviceChains.push({ chain, parsed, entry });
    }
  }
  if (view.services.length === 0 && !dump.nftObjects?.some((o) => o.name === NO_ENDPOINT_SERVICES && o.elements.length))
    return view;

  // 2. The maps: ClusterIPs, external and load-balancer IPs, NodePorts, and Services without endpoints.
  const objects = dump.nftObjects ?? [];
  const named = (name: string): NftObject[] => objects.filter((o) => o.kind === 'map' && o.name === name);
  const firewalled = new Set(named(FIREWALL_IPS).flatMap((m) => m.elements.map((e) => e.key[0])));
  for (const map of named(SERVICE_IPS)) {
    for (const e of map.elements) {
      const s = e.chain ? view.serviceByChain.get(e.chain) : undefined;
      if (!s || e.key.length < 3) continue;
      const [ip, , port] = e.key;
      const kind = nftKubeChain(e.chain!)?.kind;
      if (kind === 'service' || kind === 'service-local') {
        s.clusterIP ??= ip;
        s.port ??= Number(port);
      } else if (firewalled.has(ip) || !s.chains.some((c) => c.kind === 'external')) pushNew(s.loadBalancerIPs, ip);
      else pushNew(s.externalIPs, ip);
      s.lines.push(e.line);
    }
  }
  for (const map of named(SERVICE_NODEPORTS)) {
    for (const e of map.elements) {
      const s = e.chain ? view.serviceByChain.get(e.chain) : undefined;
      if (!s || e.key.length < 2) continue;
      s.nodePort = Number(e.key[1]);
      s.lines.push(e.line);
    }
  }
  // An element whose verdict is `drop` is a Local policy's "no local endpoints"; `goto reject-chain`: none at all.
  // A Service without endpoints has an element per address (ClusterIP, external and load-balancer IPs): its
  // ClusterIP is the one in the cluster-ips set, read first; without the set, the first one nft prints.
  const clusterIPs = new Set(
    objects.filter((o) => o.kind === 'set' && o.name === CLUSTER_IPS).flatMap((o) => o.elements.map((e) => e.key[0])),
  );
  const clusterIPsFirst = (elements: NftElement[]): NftElement[] =>
    clusterIPs.size === 0
      ? elements
      : [...elements.filter((e) => clusterIPs.has(e.key[0])), ...elements.filter((e) => !clusterIPs.has(e.key[0]))];
  for (const [mapName, keyed] of [
    [NO_ENDPOINT_SERVICES, 3],
    [NO_ENDPOINT_NODEPORTS, 2],
  ] as const) {
    for (const map of named(mapName)) {
      for (const e of keyed === 3 ? clusterIPsFirst(map.elements) : map.elements) {
        // The element's comment is the Service port name, read as kube-proxy's rule comments are.
        const spn = parseServiceComment(e.comment)?.spn;
        if (!spn || e.comment !== spn || e.key.length < keyed) continue;
        const protocol = e.key[keyed - 2];
        const s = serviceFor(spn, protocol).service;
        if (e.verdict === 'drop') {
          s.noLocalEndpoints = true;
          s.trafficPolicy = 'Local';
        } else s.noEndpoints = true;
        if (keyed === 2) s.nodePort ??= Number(e.key[1]);
        else if (s.clusterIP === undefined) {
          s.clusterIP = e.key[0];
          s.port = Number(e.key[2]);
        } else if (s.clusterIP !== e.key[0]) pushNew(s.externalIPs, e.key[0]);
        s.lines.push(e.line);
      }
    }
  }

  // 3. Service chains: the ClusterIP of their masquerade rule, the endpoint ladder, session affinity.
  const endpointOf = new Map<string, KubeEndpoint>();
  for (const { chain, parsed, entry } of serviceChains) {
    const s = entry.service;
    // Only the cluster-policy chain lists the Service's endpoints; a local- chain repeats the local ones.
    const listsEndpoints =
      parsed.kind === 'service' || (parsed.kind === 'service-local' && !s.chains.some((c) => c.kind === 'service'));
    for (const r of chain.rules) {
      if (parsed.kind === 'service' || parsed.kind === 'service-local') {
        const dst = optionValue(r, 'destination');
        const dport = optionValue(r, 'dport');
        if (dst && dport && s.clusterIP === undefined) {
          s.clusterIP = dst.replace(/\/(?:32|128)$/, '');
          s.port = Number(dport);
        }
      }
      // The reader reads an affinity set's lookup as `-m recent --rcheck --seconds` (the set's timeout).
      const affinity = optionValue(r, 'seconds', 'recent');
      if (affinity !== undefined) s.sessionAffinitySeconds = Number(affinity);
      if (ruleTargetName(r) !== 'NUMGEN' || !listsEndpoints) continue;
      const share = 1 / Number(targetOptionValue(r, 'mod'));
      for (const e of bracedElements(targetOptionValue(r, 'elements') ?? '')) {
        if (!e.chain || endpointOf.has(e.chain)) continue;
        const endpoint: KubeEndpoint = {
          ip: '',
          chain: e.chain,
          probability: share,
          share,
          ruleLine: r.line,
          hashVerified: null,
        };
        endpointOf.set(e.chain, endpoint);
        s.endpoints.push(endpoint);
        view.endpointByChain.set(e.chain, { service: s, endpoint });
      }
    }
  }

  // 4. Endpoint chains: the DNAT target gives the address (the name tells it too); the hash is checked.
  for (const { chain, parsed } of endpointChains) {
    let endpoint = endpointOf.get(chain.name);
    const s = endpoint
      ? view.endpointByChain.get(chain.name)!.service
      : serviceFor(parsed.spn, parsed.protocol).service;
    if (!endpoint) {
      // No ladder in the paste names this endpoint: its share is not known.
      endpoint = { ip: '', chain: chain.name, hashVerified: null };
      endpointOf.set(chain.name, endpoint);
      s.endpoints.push(endpoint);
      view.endpointByChain.set(chain.name, { service: s, endpoint });
    }
    if (parsed.endpoint) {
      endpoint.ip = parsed.endpoint.ip;
      endpoint.port = parsed.endpoint.port;
    }
    endpoint.hashVerified = parsed.hashVerified;
    for (const r of chain.rules) {
      s.lines.push(r.line);
      if (ruleTargetName(r) !== 'DNAT') continue;
      const to = splitHostPort(targetOptionValue(r, 'to-destination') ?? '');
      if (to?.host) {
        endpoint.ip = to.host;
        if (to.port !== undefined) endpoint.port = to.port;
      }
      endpoint.dnatLine = r.line;
    }
  }
  for (const s of view.services) {
    s.trafficPolicy ??= s.chains.length ? 'Cluster' : undefined;
    if (s.trafficPolicy === undefined) delete s.trafficPolicy;
    s.lines.sort((a, b) => a - b);
  }
  return view;
}

function pushNew(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}
