/**
 * Turns Kubernetes JSON (`kubectl get svc,endpoints -A -o json`, typed lists such as ServiceList or
 * EndpointSliceList, single objects, or arrays of them) into a validated ClusterSnapshot.
 * Nothing throws: a bad object or field becomes an issue and is left out, and the rest is kept.
 */
import {
  isLabelValue,
  kubeCidrText,
  kubeIpText,
  isNamespaceName,
  isPortName,
  isPortNumber,
  isServiceName,
  isSubdomainName,
  protocolOf,
} from './validate';
import type {
  ClusterSnapshot,
  EndpointInfo,
  EndpointsByPort,
  NodeInfo,
  PodInfo,
  ServiceInfo,
  ServicePortSpec,
  ServiceType,
  SnapshotIssue,
  TrafficPolicy,
} from './types';
import { serviceKey } from './types';
import { ownEntry } from '../common/own';
import { formatIp, parseIp } from '../common/ip';

type Json = Record<string, unknown>;

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const ZONE_LABEL = 'topology.kubernetes.io/zone';
const LEGACY_ZONE_LABEL = 'failure-domain.beta.kubernetes.io/zone';
const HOSTNAME_TOPOLOGY_KEY = 'kubernetes.io/hostname';
const DEFAULT_AFFINITY_SECONDS = 10800;
const MAX_AFFINITY_SECONDS = 86400;

function asObject(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

class IssueLog {
  readonly issues: SnapshotIssue[] = [];
  /** Addresses written with leading zeros: the first, and how many (one issue for all, not one each). */
  private legacy?: { path: string; text: string; canonical: string; count: number };
  add(code: string, path: string, message: string): void {
    this.issues.push({ code, path, message });
  }
  /** A Service listed again (a proxy that repeats pages): the first, and how many (one issue for all). */
  private duplicate?: { path: string; key: string; count: number };
  duplicateService(path: string, key: string): void {
    if (this.duplicate) this.duplicate.count++;
    else this.duplicate = { path, key, count: 1 };
  }
  legacyAddress(path: string, text: string, canonical: string): void {
    if (this.legacy) this.legacy.count++;
    else this.legacy = { path, text, canonical, count: 1 };
  }
  /** The issues that stand for many (repeated Services, legacy addresses), added once every object is read. */
  close(): void {
    const d = this.duplicate;
    if (d) {
      const more = d.count - 1;
      const others =
        more === 0 ? '' : ` (${more} more repeat${more === 1 ? '' : 's'} of Services, the first of each kept)`;
      this.add('duplicate-service', d.path, `Service ${d.key} appears twice; the first is kept${others}`);
    }
    const l = this.legacy;
    if (!l) return;
    const others = l.count === 1 ? '' : ` (${l.count - 1} more address${l.count === 2 ? '' : 'es'} so written)`;
    this.add(
      'legacy-ip',
      l.path,
      `address ${JSON.stringify(l.text)} has leading zeros: read as ${l.canonical}, as Kubernetes reads it${others}`,
    );
  }
}

/** An address from an object in canonical text, as Kubernetes reads it (see kubeIpText); undefined if none. */
function readIp(v: unknown, path: string, log: IssueLog): string | undefined {
  const ip = kubeIpText(v);
  if (ip !== undefined && ip !== v) log.legacyAddress(path, v as string, ip);
  return ip;
}

function readCidr(v: unknown, path: string, log: IssueLog): string | undefined {
  const cidr = kubeCidrText(v);
  if (cidr !== undefined && cidr !== v) log.legacyAddress(path, v as string, cidr);
  return cidr;
}

interface Located {
  item: Json;
  path: string;
  /** Kind implied by a typed list (`ServiceList` items carry no `kind` when they come from the API). */
  impliedKind?: string;
}

/** Flattens lists (also nested ones) and arrays into located objects. */
function collect(input: unknown, path: string, impliedKind: string | undefined, out: Located[], log: IssueLog): void {
  if (Array.isArray(input)) {
    input.forEach((v, i) => collect(v, `${path}[${i}]`, impliedKind, out, log));
    return;
  }
  const o = asObject(input);
  if (!o) {
    log.add('invalid-object', path || '(root)', 'expected a Kubernetes object or list');
    return;
  }
  if (Array.isArray(o.items)) {
    const kind = asString(o.kind);
    const itemKind = kind && kind !== 'List' && kind.endsWith('List') ? kind.slice(0, -4) : undefined;
    const prefix = path ? `${path}.items` : 'items';
    o.items.forEach((v, i) => collect(v, `${prefix}[${i}]`, itemKind, out, log));
    return;
  }
  out.push({ item: o, path: path || '(root)', impliedKind });
}

/** The object's kind: as written, as implied by its list, or guessed from its shape. */
function kindOf(l: Located): string | undefined {
  const written = asString(l.item.kind);
  if (written) return written;
  if (l.impliedKind) return l.impliedKind;
  const spec = asObject(l.item.spec);
  if (spec && (Array.isArray(spec.ports) || 'clusterIP' in spec)) return 'Service';
  if (Array.isArray(l.item.subsets)) return 'Endpoints';
  if ('addressType' in l.item) return 'EndpointSlice';
  return undefined;
}

interface Meta {
  namespace: string;
  name: string;
  labels: Json;
}

function metaOf(l: Located, log: IssueLog, nameOk: (s: unknown) => boolean, namespaced: boolean): Meta | undefined {
  const meta = asObject(l.item.metadata);
  const name = meta?.name;
  if (!nameOk(name)) {
    log.add('invalid-name', `${l.path}.metadata.name`, `object name ${JSON.stringify(name)} is not a valid name`);
    return undefined;
  }
  let namespace = '';
  if (namespaced) {
    const ns = meta?.namespace;
    if (ns === undefined || ns === '') {
      namespace = 'default';
      log.add('missing-namespace', `${l.path}.metadata.namespace`, `no namespace; assuming "default"`);
    } else if (!isNamespaceName(ns)) {
      log.add('invalid-namespace', `${l.path}.metadata.namespace`, `namespace ${JSON.stringify(ns)} is not valid`);
      return undefined;
    } else namespace = ns;
  }
  return { namespace, name: name as string, labels: asObject(meta?.labels) ?? {} };
}

function policyOf(v: unknown): TrafficPolicy {
  // `OnlyLocal`/`Global` are the values of the field's alpha years.
  return v === 'Local' || v === 'OnlyLocal' ? 'Local' : 'Cluster';
}

function ipList(values: unknown, path: string, code: string, what: string, log: IssueLog): string[] {
  const out: string[] = [];
  asArray(values).forEach((v, i) => {
    const ip = readIp(v, `${path}[${i}]`, log);
    if (ip !== undefined) out.push(ip);
    else log.add(code, `${path}[${i}]`, `${what} ${JSON.stringify(v)} is not an IP address`);
  });
  return out;
}

function servicePorts(spec: Json, path: string, log: IssueLog): ServicePortSpec[] {
  const ports: ServicePortSpec[] = [];
  const seen = new Set<string>();
  asArray(spec.ports).forEach((raw, i) => {
    const p = asObject(raw);
    const at = `${path}.spec.ports[${i}]`;
    if (!p) return log.add('invalid-port', at, 'port entry is not an object');
    const name = p.name ?? '';
    if (!isPortName(name))
      return log.add('invalid-port-name', `${at}.name`, `port name ${JSON.stringify(name)} is not valid`);
    if (!isPortNumber(p.port))
      return log.add('invalid-port', `${at}.port`, `port ${JSON.stringify(p.port)} is not 1-65535`);
    const protocol = protocolOf(p.protocol);
    if (!protocol)
      return log.add(
        'invalid-protocol',
        `${at}.protocol`,
        `protocol ${JSON.stringify(p.protocol)} is not TCP, UDP or SCTP`,
      );
    if (seen.has(name))
      return log.add('duplicate-port-name', `${at}.name`, `port name ${JSON.stringify(name)} is used twice`);
    seen.add(name);
    const port: ServicePortSpec = { name, port: p.port, protocol };
    if (typeof p.targetPort === 'number' || (typeof p.targetPort === 'string' && p.targetPort !== ''))
      port.targetPort = p.targetPort;
    if (p.nodePort !== undefined && p.nodePort !== 0 && p.nodePort !== null) {
      if (isPortNumber(p.nodePort)) port.nodePort = p.nodePort;
      else log.add('invalid-node-port', `${at}.nodePort`, `nodePort ${JSON.stringify(p.nodePort)} is not 1-65535`);
    }
    ports.push(port);
  });
  return ports;
}

const SERVICE_TYPES: readonly ServiceType[] = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];

function service(l: Located, log: IssueLog): ServiceInfo | undefined {
  const meta = metaOf(l, log, isServiceName, true);
  if (!meta) return undefined;
  const spec = asObject(l.item.spec) ?? {};
  const at = l.path;
  let type: ServiceType = 'ClusterIP';
  if (spec.type !== undefined) {
    if (SERVICE_TYPES.includes(spec.type as ServiceType)) type = spec.type as ServiceType;
    else
      log.add(
        'invalid-service-type',
        `${at}.spec.type`,
        `type ${JSON.stringify(spec.type)} is unknown; treated as ClusterIP`,
      );
  }
  const writtenClusterIP = spec.clusterIP ?? '';
  const clusterIP =
    writtenClusterIP === '' || writtenClusterIP === 'None'
      ? writtenClusterIP
      : readIp(writtenClusterIP, `${at}.spec.clusterIP`, log);
  if (clusterIP === undefined) {
    log.add(
      'invalid-cluster-ip',
      `${at}.spec.clusterIP`,
      `clusterIP ${JSON.stringify(writtenClusterIP)} is not an IP address; Service skipped`,
    );
    return undefined;
  }
  let clusterIPs = ipList(spec.clusterIPs, `${at}.spec.clusterIPs`, 'invalid-cluster-ip', 'clusterIP', log);
  if (clusterIPs.length === 0 && clusterIP !== '' && clusterIP !== 'None') clusterIPs = [clusterIP];
  if (clusterIP === 'None') clusterIPs = [];

  const status = asObject(asObject(l.item.status)?.loadBalancer);
  const loadBalancerIPs: string[] = [];
  const loadBalancerProxyIPs: string[] = [];
  asArray(status?.ingress).forEach((raw, i) => {
    const ing = asObject(raw);
    if (!ing || ing.ip === undefined || ing.ip === '') return; // hostname-only ingresses get no rules
    const ip = readIp(ing.ip, `${at}.status.loadBalancer.ingress[${i}].ip`, log);
    if (ip === undefined) {
      return log.add(
        'invalid-load-balancer-ip',
        `${at}.status.loadBalancer.ingress[${i}].ip`,
        `ingress IP ${JSON.stringify(ing.ip)} is not an IP address`,
      );
    }
    (ing.ipMode === 'Proxy' ? loadBalancerProxyIPs : loadBalancerIPs).push(ip);
  });

  const loadBalancerSourceRanges: string[] = [];
  asArray(spec.loadBalancerSourceRanges).forEach((raw, i) => {
    // The API has long let whitespace padding through; kube-proxy trims it.
    const r = readCidr(typeof raw === 'string' ? raw.trim() : raw, `${at}.spec.loadBalancerSourceRanges[${i}]`, log);
    if (r !== undefined) loadBalancerSourceRanges.push(r);
    else
      log.add(
        'invalid-source-range',
        `${at}.spec.loadBalancerSourceRanges[${i}]`,
        `source range ${JSON.stringify(raw)} is not a CIDR`,
      );
  });

  const sessionAffinity = spec.sessionAffinity === 'ClientIP' ? 'ClientIP' : 'None';
  let affinityTimeoutSeconds = DEFAULT_AFFINITY_SECONDS;
  const timeout = asObject(asObject(spec.sessionAffinityConfig)?.clientIP)?.timeoutSeconds;
  if (timeout !== undefined) {
    if (typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0 && timeout <= MAX_AFFINITY_SECONDS)
      affinityTimeoutSeconds = timeout;
    else
      log.add(
        'invalid-affinity-timeout',
        `${at}.spec.sessionAffinityConfig.clientIP.timeoutSeconds`,
        `timeout ${JSON.stringify(timeout)} is not 1-86400; using 10800`,
      );
  }

  const svc: ServiceInfo = {
    namespace: meta.namespace,
    name: meta.name,
    type,
    clusterIP,
    clusterIPs,
    ports: servicePorts(spec, at, log),
    externalIPs: ipList(spec.externalIPs, `${at}.spec.externalIPs`, 'invalid-external-ip', 'externalIP', log),
    loadBalancerIPs,
    loadBalancerProxyIPs,
    loadBalancerSourceRanges,
    externalTrafficPolicy: policyOf(spec.externalTrafficPolicy),
    internalTrafficPolicy: policyOf(spec.internalTrafficPolicy),
    sessionAffinity,
    affinityTimeoutSeconds,
  };
  if (spec.healthCheckNodePort !== undefined && spec.healthCheckNodePort !== 0) {
    if (isPortNumber(spec.healthCheckNodePort)) svc.healthCheckNodePort = spec.healthCheckNodePort;
    else
      log.add(
        'invalid-node-port',
        `${at}.spec.healthCheckNodePort`,
        `healthCheckNodePort ${JSON.stringify(spec.healthCheckNodePort)} is not 1-65535`,
      );
  }
  if (type === 'ExternalName' && typeof spec.externalName === 'string') svc.externalName = spec.externalName;
  return svc;
}

/** Endpoints of one Service gathered from one object, before EndpointSlices and Endpoints are reconciled. */
interface EndpointBatch {
  key: string;
  byPort: EndpointsByPort;
}

function optionalNodeName(v: unknown, path: string, log: IssueLog): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (isSubdomainName(v)) return v;
  log.add('invalid-node-name', path, `nodeName ${JSON.stringify(v)} is not a valid node name; ignored`);
  return undefined;
}

function optionalZone(v: unknown): string | undefined {
  return isLabelValue(v) ? v : undefined;
}

function coreEndpoints(l: Located, log: IssueLog): EndpointBatch | undefined {
  const meta = metaOf(l, log, isServiceName, true);
  if (!meta) return undefined;
  const byPort: EndpointsByPort = {};
  asArray(l.item.subsets).forEach((rawSubset, s) => {
    const subset = asObject(rawSubset);
    if (!subset) return;
    const at = `${l.path}.subsets[${s}]`;
    const addresses: { ip: string; ready: boolean; nodeName?: string; pod?: string }[] = [];
    for (const [field, ready] of [
      ['addresses', true],
      ['notReadyAddresses', false],
    ] as const) {
      asArray(subset[field]).forEach((rawAddr, a) => {
        const addr = asObject(rawAddr);
        const ip = addr && readIp(addr.ip, `${at}.${field}[${a}].ip`, log);
        if (!addr || ip === undefined) {
          return log.add(
            'invalid-endpoint-ip',
            `${at}.${field}[${a}].ip`,
            `endpoint address ${JSON.stringify(addr?.ip)} is not an IP address`,
          );
        }
        addresses.push({
          ip,
          ready,
          nodeName: optionalNodeName(addr.nodeName, `${at}.${field}[${a}].nodeName`, log),
          pod: targetPod(addr.targetRef),
        });
      });
    }
    asArray(subset.ports).forEach((rawPort, p) => {
      const port = asObject(rawPort);
      const pat = `${at}.ports[${p}]`;
      if (!port) return;
      const name = port.name ?? '';
      if (!isPortName(name))
        return log.add('invalid-port-name', `${pat}.name`, `port name ${JSON.stringify(name)} is not valid`);
      if (!isPortNumber(port.port))
        return log.add('invalid-port', `${pat}.port`, `port ${JSON.stringify(port.port)} is not 1-65535`);
      const protocol = protocolOf(port.protocol);
      if (!protocol)
        return log.add(
          'invalid-protocol',
          `${pat}.protocol`,
          `protocol ${JSON.stringify(port.protocol)} is not TCP, UDP or SCTP`,
        );
      const list = ownEntry(byPort, name) ?? (byPort[name] = []);
      for (const a of addresses) {
        // Endpoints has no serving/terminating: terminating pods simply leave the object.
        const ep: EndpointInfo = {
          ip: a.ip,
          port: port.port,
          protocol,
          ready: a.ready,
          serving: a.ready,
          terminating: false,
        };
        if (a.nodeName) ep.nodeName = a.nodeName;
        if (a.pod) ep.pod = a.pod;
        list.push(ep);
      }
    });
  });
  return { key: serviceKey(meta.namespace, meta.name), byPort };
}

/** Same fields in the same order for every endpoint (one object shape, cheap for 100k endpoints). */
function withPort(
  e: Omit<EndpointInfo, 'port' | 'protocol'>,
  port: number,
  protocol: EndpointInfo['protocol'],
): EndpointInfo {
  const ep: EndpointInfo = { ip: e.ip, port, protocol, ready: e.ready, serving: e.serving, terminating: e.terminating };
  if (e.nodeName !== undefined) ep.nodeName = e.nodeName;
  if (e.zone !== undefined) ep.zone = e.zone;
  if (e.pod !== undefined) ep.pod = e.pod;
  return ep;
}

/** The pod name of an endpoint's `targetRef`, when it names a valid pod. */
function targetPod(ref: unknown): string | undefined {
  const r = asObject(ref);
  return r && r.kind === 'Pod' && isSubdomainName(r.name) ? r.name : undefined;
}

function endpointSlice(l: Located, log: IssueLog): EndpointBatch | undefined {
  const meta = metaOf(l, log, isSubdomainName, true);
  if (!meta) return undefined;
  const owner = meta.labels[SERVICE_NAME_LABEL];
  if (!isServiceName(owner)) {
    log.add(
      'slice-without-service',
      `${l.path}.metadata.labels`,
      `EndpointSlice has no valid "${SERVICE_NAME_LABEL}" label; skipped`,
    );
    return undefined;
  }
  const addressType = l.item.addressType;
  if (addressType === 'FQDN') return { key: serviceKey(meta.namespace, owner), byPort: {} }; // kube-proxy ignores FQDN slices
  const endpoints: Omit<EndpointInfo, 'port' | 'protocol'>[] = [];
  asArray(l.item.endpoints).forEach((raw, e) => {
    const ep = asObject(raw);
    const at = `${l.path}.endpoints[${e}]`;
    if (!ep) return;
    // kube-proxy uses the first address only.
    const written = asArray(ep.addresses)[0];
    const ip = readIp(written, `${at}.addresses[0]`, log);
    if (ip === undefined)
      return log.add(
        'invalid-endpoint-ip',
        `${at}.addresses[0]`,
        `endpoint address ${JSON.stringify(written)} is not an IP address`,
      );
    const cond = asObject(ep.conditions) ?? {};
    const topology = asObject(ep.topology) ?? {}; // discovery.k8s.io/v1beta1 kept node and zone here
    const ready = cond.ready === undefined || cond.ready === null || cond.ready === true;
    const info: Omit<EndpointInfo, 'port' | 'protocol'> = {
      ip,
      ready,
      // kube-proxy reads a missing `serving` as true and a missing `terminating` as false.
      serving: cond.serving === undefined || cond.serving === null || cond.serving === true,
      terminating: cond.terminating === true,
    };
    const nodeName = optionalNodeName(ep.nodeName ?? topology[HOSTNAME_TOPOLOGY_KEY], `${at}.nodeName`, log);
    if (nodeName) info.nodeName = nodeName;
    const zone = optionalZone(ep.zone ?? topology[ZONE_LABEL]);
    if (zone) info.zone = zone;
    const pod = targetPod(ep.targetRef);
    if (pod) info.pod = pod;
    endpoints.push(info);
  });
  const byPort: EndpointsByPort = {};
  asArray(l.item.ports).forEach((raw, p) => {
    const port = asObject(raw);
    const at = `${l.path}.ports[${p}]`;
    if (!port) return;
    const name = port.name ?? '';
    if (!isPortName(name))
      return log.add('invalid-port-name', `${at}.name`, `port name ${JSON.stringify(name)} is not valid`);
    if (!isPortNumber(port.port))
      return log.add(
        'invalid-port',
        `${at}.port`,
        `port ${JSON.stringify(port.port)} is not 1-65535; ignored as kube-proxy does`,
      );
    const protocol = protocolOf(port.protocol);
    if (!protocol)
      return log.add(
        'invalid-protocol',
        `${at}.protocol`,
        `protocol ${JSON.stringify(port.protocol)} is not TCP, UDP or SCTP`,
      );
    const portNumber = port.port;
    byPort[name] = endpoints.map((e) => withPort(e, portNumber, protocol));
  });
  return { key: serviceKey(meta.namespace, owner), byPort };
}

function pod(l: Located, log: IssueLog): PodInfo | undefined {
  const meta = metaOf(l, log, isSubdomainName, true);
  if (!meta) return undefined;
  const spec = asObject(l.item.spec) ?? {};
  const status = asObject(l.item.status) ?? {};
  const ips: string[] = [];
  asArray(status.podIPs).forEach((v, i) => {
    const ip = readIp(asObject(v)?.ip, `${l.path}.status.podIPs[${i}].ip`, log);
    if (ip !== undefined) ips.push(ip);
  });
  const info: PodInfo = { namespace: meta.namespace, name: meta.name, ips, hostNetwork: spec.hostNetwork === true };
  const podIP = readIp(status.podIP, `${l.path}.status.podIP`, log);
  if (podIP !== undefined) info.ip = podIP;
  if (!info.ip && ips.length) info.ip = ips[0];
  if (info.ip && !ips.length) info.ips = [info.ip];
  const nodeName = optionalNodeName(spec.nodeName, `${l.path}.spec.nodeName`, log);
  if (nodeName) info.nodeName = nodeName;
  if (typeof status.phase === 'string') info.phase = status.phase;
  return info;
}

function node(l: Located, log: IssueLog): NodeInfo | undefined {
  const meta = metaOf(l, log, isSubdomainName, false);
  if (!meta) return undefined;
  const spec = asObject(l.item.spec) ?? {};
  const info: NodeInfo = { name: meta.name, internalIPs: [], externalIPs: [], podCIDRs: [] };
  asArray(asObject(l.item.status)?.addresses).forEach((raw, i) => {
    const a = asObject(raw);
    if (!a || (a.type !== 'InternalIP' && a.type !== 'ExternalIP')) return;
    const ip = readIp(a.address, `${l.path}.status.addresses[${i}].address`, log);
    if (ip !== undefined) (a.type === 'InternalIP' ? info.internalIPs : info.externalIPs).push(ip);
  });
  const cidrs: string[] = [];
  asArray(spec.podCIDRs).forEach((c, i) => {
    const cidr = readCidr(c, `${l.path}.spec.podCIDRs[${i}]`, log);
    if (cidr !== undefined) cidrs.push(cidr);
  });
  const podCIDR = cidrs.length ? undefined : readCidr(spec.podCIDR, `${l.path}.spec.podCIDR`, log);
  info.podCIDRs = cidrs.length ? cidrs : podCIDR !== undefined ? [podCIDR] : [];
  const zone = optionalZone(meta.labels[ZONE_LABEL] ?? meta.labels[LEGACY_ZONE_LABEL]);
  if (zone) info.zone = zone;
  return info;
}

/** Where each protocol+address+port sits in a merged list, kept with the list across batches. */
type MergeIndexes = WeakMap<EndpointInfo[], Map<string, number>>;

/**
 * An endpoint's identity: protocol, address, port. IPv6 text is compared as parsed (`fd00::a` and `fd00:0::A` are
 * one); IPv4 text is canonical already (`readIp`), and parsing 100,000 of them would cost more than the merge.
 */
function endpointIdentity(ep: EndpointInfo): string {
  const ip = ep.ip.includes(':') ? parseIp(ep.ip) : undefined;
  return `${ep.protocol}|${ip ? formatIp(ip) : ep.ip}|${ep.port}`;
}

/**
 * How much an endpoint's conditions say, for an address two objects list (EndpointSlices overlap while the
 * controller moves endpoints between them): ready (kube-proxy sends to it), else serving while terminating (it
 * still does when nothing is ready), else terminating (why it is not ready), else not ready.
 */
function conditionRank(ep: EndpointInfo): number {
  if (ep.ready) return 3;
  if (ep.terminating) return ep.serving ? 2 : 1;
  return 0;
}

/** One endpoint from two listings of it: the more telling conditions, and whatever either knows of node, zone, pod. */
function mergeEndpoint(kept: EndpointInfo, other: EndpointInfo): EndpointInfo {
  const [base, extra] = conditionRank(other) > conditionRank(kept) ? [other, kept] : [kept, other];
  if ((base.nodeName || !extra.nodeName) && (base.zone || !extra.zone) && (base.pod || !extra.pod)) return base;
  const ep = { ...base };
  if (!ep.nodeName && extra.nodeName) ep.nodeName = extra.nodeName;
  if (!ep.zone && extra.zone) ep.zone = extra.zone;
  if (!ep.pod && extra.pod) ep.pod = extra.pod;
  return ep;
}

/**
 * Adds a batch into `into`, keeping one entry per protocol+address+port (`mergeEndpoint` of its listings). The index
 * of a list lives as long as the list: rebuilt per batch it was quadratic (a Service's EndpointSlices come 100
 * endpoints each: 40,000 endpoints took 8 s, 80,000 over 2 minutes).
 */
function mergeBatch(into: EndpointsByPort, batch: EndpointsByPort, indexes: MergeIndexes): void {
  for (const [portName, eps] of Object.entries(batch)) {
    const list = ownEntry(into, portName) ?? (into[portName] = []);
    let index = indexes.get(list);
    if (!index) indexes.set(list, (index = new Map(list.map((e, i) => [endpointIdentity(e), i]))));
    for (const ep of eps) {
      const k = endpointIdentity(ep);
      const at = index.get(k);
      if (at === undefined) {
        index.set(k, list.length);
        list.push(ep);
      } else list[at] = mergeEndpoint(list[at], ep);
    }
  }
}

function bucket(map: Map<string, EndpointsByPort>, key: string): EndpointsByPort {
  let b = map.get(key);
  if (!b) map.set(key, (b = {}));
  return b;
}

/** Normalises parsed Kubernetes JSON into a snapshot. */
export function normaliseCluster(input: unknown): ClusterSnapshot {
  const log = new IssueLog();
  const located: Located[] = [];
  collect(input, '', undefined, located, log);

  const services: ServiceInfo[] = [];
  const seenServices = new Set<string>();
  const slices = new Map<string, EndpointsByPort>();
  const endpointsObjects = new Map<string, EndpointsByPort>();
  const mergeIndexes: MergeIndexes = new WeakMap();
  const pods: PodInfo[] = [];
  const nodes: NodeInfo[] = [];
  const ignored = new Map<string, number>();

  for (const l of located) {
    const kind = kindOf(l);
    switch (kind) {
      case 'Service': {
        const svc = service(l, log);
        if (!svc) break;
        const key = serviceKey(svc.namespace, svc.name);
        if (seenServices.has(key)) log.duplicateService(l.path, key);
        else {
          seenServices.add(key);
          services.push(svc);
        }
        break;
      }
      case 'Endpoints': {
        const batch = coreEndpoints(l, log);
        if (batch) mergeBatch(bucket(endpointsObjects, batch.key), batch.byPort, mergeIndexes);
        break;
      }
      case 'EndpointSlice': {
        const batch = endpointSlice(l, log);
        if (batch) mergeBatch(bucket(slices, batch.key), batch.byPort, mergeIndexes);
        break;
      }
      case 'Pod': {
        const p = pod(l, log);
        if (p) pods.push(p);
        break;
      }
      case 'Node': {
        const n = node(l, log);
        if (n) nodes.push(n);
        break;
      }
      default:
        ignored.set(kind ?? '(no kind)', (ignored.get(kind ?? '(no kind)') ?? 0) + 1);
    }
  }
  log.close();
  for (const [kind, count] of ignored) {
    log.add('ignored-kind', '(input)', `ignored ${count} object${count === 1 ? '' : 's'} of kind ${kind}`);
  }

  const endpoints: Record<string, EndpointsByPort> = {};
  const endpointSources: Record<string, 'EndpointSlice' | 'Endpoints'> = {};
  // EndpointSlices are what kube-proxy reads; core Endpoints stand in only for Services that have no slice
  // (clusters older than slices, or a dump that did not include them).
  for (const [key, byPort] of endpointsObjects) {
    endpoints[key] = byPort;
    endpointSources[key] = 'Endpoints';
  }
  for (const [key, byPort] of slices) {
    endpoints[key] = byPort;
    endpointSources[key] = 'EndpointSlice';
  }

  const snapshot: ClusterSnapshot = { services, endpoints, endpointSources, issues: log.issues, warnings: [] };
  if (pods.length) snapshot.pods = pods;
  if (nodes.length) snapshot.nodes = nodes;
  snapshot.warnings = log.issues.map((i) => `${i.path}: ${i.message}`);
  return snapshot;
}

/** Parses JSON text and normalises it; text that is not JSON gives an empty snapshot with one issue. */
export function parseClusterJson(text: string): ClusterSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    const issue: SnapshotIssue = {
      code: 'invalid-json',
      path: '(input)',
      message: `not JSON: ${(e as Error).message}`,
    };
    return {
      services: [],
      endpoints: {},
      endpointSources: {},
      issues: [issue],
      warnings: [`${issue.path}: ${issue.message}`],
    };
  }
  return normaliseCluster(parsed);
}
