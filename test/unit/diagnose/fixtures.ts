/**
 * Recorded-style check outputs for the diagnose tests, written for these tests in the formats the tools print
 * (iproute2 5.x/6.x, busybox, curl 7.8x/8.x, GNU/busybox wget, openbsd/busybox nc, bind/busybox nslookup, getent),
 * and node dumps from the project's own generator with counters set per rule. Two address plans (and a few
 * variants) so nothing in the verdict can lean on one set of addresses.
 */
import assert from 'node:assert/strict';
import { decideVerdict } from '../../../src/core/diagnose/verdict';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { classifyCheck } from '../../../src/core/diagnose/classify';
import { planChecks, readTools, toolProbeCheck } from '../../../src/core/diagnose/plan';
import type { CheckResult, CheckSpec, DiagnoseInput, NodeEvidence, ToolSet } from '../../../src/core/diagnose/types';
import type { EndpointInfo, NodeInfo, PodInfo, ServiceInfo, ServicePortSpec } from '../../../src/core/kube/types';

export interface AddressPlan {
  name: string;
  serviceCidr: string;
  clusterCidr: string;
  /** The Service under test. */
  svcName: string;
  svcNamespace: string;
  clusterIP: string;
  port: number;
  portName: string;
  targetPort: number;
  endpoints: string[];
  /** The source pod and its node. */
  podName: string;
  podIP: string;
  podIface: string;
  nodeName: string;
  nodeIP: string;
  nodeIface: string;
  podCIDR: string;
  /** The node network's router (not the node). */
  router: string;
  /** A second network the seed-style fault attaches, with its gateway. */
  extraIface: string;
  extraIP: string;
  extraPrefix: number;
  extraGateway: string;
  /** The bridge address on the node (flannel's cni0 style): first address of the pod CIDR. */
  bridgeIP: string;
  bridgeIface: string;
  clusterDomain: string;
}

/** Plan A: kubeadm defaults-ish, names `w1`, pod interface eth0, a Multus-like `net1`. */
export const PLAN_A: AddressPlan = {
  name: 'A',
  serviceCidr: '10.96.0.0/12',
  clusterCidr: '10.42.0.0/16',
  svcName: 'web',
  svcNamespace: 'shop',
  clusterIP: '10.100.12.34',
  port: 80,
  portName: 'http',
  targetPort: 8080,
  endpoints: ['10.42.2.21', '10.42.3.7'],
  podName: 'client-7d9f',
  podIP: '10.42.1.17',
  podIface: 'eth0',
  nodeName: 'w1',
  nodeIP: '172.20.5.11',
  nodeIface: 'ens192',
  podCIDR: '10.42.1.0/24',
  router: '172.20.5.1',
  extraIface: 'net1',
  extraIP: '198.51.100.23',
  extraPrefix: 24,
  extraGateway: '198.51.100.1',
  bridgeIP: '10.42.1.1',
  bridgeIface: 'cni0',
  clusterDomain: 'cluster.local',
};

/** Plan B: CGNAT pod range, another Service CIDR and domain, pod interface `ens-pod`, second interface `eth1`. */
export const PLAN_B: AddressPlan = {
  name: 'B',
  serviceCidr: '172.30.0.0/16',
  clusterCidr: '100.64.0.0/14',
  svcName: 'orders-api',
  svcNamespace: 'prod-eu',
  clusterIP: '172.30.44.5',
  port: 8443,
  portName: '',
  targetPort: 9443,
  endpoints: ['100.65.9.4', '100.66.0.12', '100.67.200.3'],
  podName: 'batch-runner-0',
  podIP: '100.66.3.9',
  podIface: 'ens-pod',
  nodeName: 'ip-10-10-8-3.eu-west-1.compute.internal',
  nodeIP: '10.10.8.3',
  nodeIface: 'eth0',
  podCIDR: '100.66.3.0/24',
  router: '10.10.8.254',
  extraIface: 'eth1',
  extraIP: '203.0.113.40',
  extraPrefix: 26,
  extraGateway: '203.0.113.1',
  bridgeIP: '100.66.3.1',
  bridgeIface: 'br-pods',
  clusterDomain: 'corp.internal',
};

export const ALL_TOOLS: ToolSet = {
  curl: true,
  wget: true,
  nc: true,
  bash: true,
  ip: true,
  nslookup: true,
  getent: true,
  cat: true,
  timeout: true,
};

export function service(p: AddressPlan, over: Partial<ServiceInfo> = {}): ServiceInfo {
  return {
    namespace: p.svcNamespace,
    name: p.svcName,
    type: 'ClusterIP',
    clusterIP: p.clusterIP,
    clusterIPs: [p.clusterIP],
    ports: [servicePort(p)],
    externalIPs: [],
    loadBalancerIPs: [],
    loadBalancerProxyIPs: [],
    loadBalancerSourceRanges: [],
    externalTrafficPolicy: 'Cluster',
    internalTrafficPolicy: 'Cluster',
    sessionAffinity: 'None',
    affinityTimeoutSeconds: 10800,
    ...over,
  };
}

export function servicePort(p: AddressPlan): ServicePortSpec {
  return { name: p.portName, port: p.port, protocol: 'TCP', targetPort: p.targetPort };
}

export function endpoints(p: AddressPlan, ready = true, ips = p.endpoints): EndpointInfo[] {
  return ips.map((ip, i) => ({
    ip,
    port: p.targetPort,
    protocol: 'TCP',
    ready,
    serving: ready,
    terminating: false,
    nodeName: `peer-${i}`,
  }));
}

export function pod(p: AddressPlan, over: Partial<PodInfo> = {}): PodInfo {
  return {
    namespace: p.svcNamespace,
    name: p.podName,
    ip: p.podIP,
    ips: [p.podIP],
    nodeName: p.nodeName,
    hostNetwork: false,
    phase: 'Running',
    ...over,
  };
}

export function node(p: AddressPlan): NodeInfo {
  return { name: p.nodeName, internalIPs: [p.nodeIP], externalIPs: [], podCIDRs: [p.podCIDR] };
}

// ---------------------------------------------------------------------------------------------------------------
// Node dumps

/**
 * iptables-save -c text kube-proxy would have on the node for these Services/endpoints, with `[p:b]` counters:
 * `svcPackets` on the rules that mention the ClusterIP, `other` on every other rule.
 */
export function nodeDump(
  p: AddressPlan,
  opts: { svc?: ServiceInfo; eps?: EndpointInfo[]; svcPackets?: number; other?: number; omitService?: boolean } = {},
): string {
  const svc = opts.svc ?? service(p);
  const eps = opts.eps ?? endpoints(p);
  const other: ServiceInfo = service(p, {
    namespace: 'kube-system',
    name: 'kube-dns',
    clusterIP: otherIP(p),
    clusterIPs: [otherIP(p)],
    ports: [{ name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 }],
  });
  const otherEps: EndpointInfo[] = [
    {
      ip: p.endpoints[0].replace(/\d+$/, '250'),
      port: 53,
      protocol: 'TCP',
      ready: true,
      serving: true,
      terminating: false,
    },
  ];
  const services = opts.omitService ? [other] : [svc, other];
  const text = generateIptablesRestore(
    {
      services,
      endpoints: {
        [`${svc.namespace}/${svc.name}`]: { [svc.ports[0].name]: eps },
        'kube-system/kube-dns': { 'dns-tcp': otherEps },
      },
      endpointSources: {},
      issues: [],
      warnings: [],
    },
    { clusterCidr: p.clusterCidr, nodeName: p.nodeName },
  ).text;
  const header = `# Generated by iptables-save v1.8.9 (nf_tables) on Sat Dec  5 10:00:00 2026\n`;
  return (
    header +
    text
      .split('\n')
      .map((l) => {
        if (!l.startsWith('-A ')) return l;
        const n =
          l.includes(svc.clusterIP) || (l.includes('KUBE-SVC-') && l.includes(`${svc.namespace}/${svc.name}`))
            ? (opts.svcPackets ?? 0)
            : (opts.other ?? 3);
        return `[${n}:${n * 60}] ${l}`;
      })
      .join('\n')
  );
}

function otherIP(p: AddressPlan): string {
  return p.clusterIP.replace(/\.\d+$/, '.10');
}

export function nodeAddresses(p: AddressPlan, extra: string[] = []): string {
  return [
    `1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever`,
    `2: ${p.nodeIface}    inet ${p.nodeIP}/24 brd ${p.nodeIP.replace(/\d+$/, '255')} metric 100 scope global dynamic ${p.nodeIface}\\       valid_lft 3102sec preferred_lft 3102sec`,
    ...extra,
    '',
  ].join('\n');
}

export function evidence(
  p: AddressPlan,
  before: string,
  after: string,
  over: Partial<NodeEvidence> = {},
): NodeEvidence {
  return {
    name: p.nodeName,
    mode: 'iptables',
    before,
    after,
    addresses: nodeAddresses(p),
    via: `exec kube-system/kube-proxy-x2k9p`,
    ...over,
  };
}

/** Node evidence whose KUBE-SERVICES counters for the Service go from `before` to `after` packets. */
export function counters(
  p: AddressPlan,
  before: number,
  after: number,
  over: Partial<NodeEvidence> = {},
): NodeEvidence {
  return evidence(p, nodeDump(p, { svcPackets: before }), nodeDump(p, { svcPackets: after, other: 5 }), over);
}

// ---------------------------------------------------------------------------------------------------------------
// Pod outputs

export type Raw = { exitCode: number | null; stdout?: string; stderr?: string; error?: string; durationMs?: number };

export function ipOAddr(entries: [idx: number, iface: string, cidr: string][]): string {
  const lines = ['1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever'];
  for (const [idx, iface, cidr] of entries)
    lines.push(
      `${idx}: ${iface}    inet ${cidr} scope global ${iface}\\       valid_lft forever preferred_lft forever`,
    );
  return lines.join('\n') + '\n';
}

/** `ip -d link` of a pod: each entry an interface with its kind (`veth`, `macvlan bridge`, `ipvlan l2`). */
export function ipDLink(entries: [idx: number, iface: string, peer: number, kind: string, mac: string][]): string {
  const out = [
    '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000',
    '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00 promiscuity 0  allmulti 0 minmtu 0 maxmtu 0 addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536',
  ];
  for (const [idx, iface, peer, kind, mac] of entries) {
    const [k, mode] = kind.split(' ');
    out.push(
      `${idx}: ${iface}@if${peer}: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP mode DEFAULT group default `,
    );
    out.push(
      `    link/ether ${mac} brd ff:ff:ff:ff:ff:ff link-netnsid 0 promiscuity 0  allmulti 0 minmtu 68 maxmtu 65535 `,
    );
    const detail = k === 'veth' ? 'veth ' : k === 'ipvlan' ? `ipvlan  mode ${mode} bridge ` : `${k} mode ${mode} `;
    out.push(
      `    ${detail}addrgenmode eui64 numtxqueues 2 numrxqueues 2 gso_max_size 65536 gso_max_segs 65535 tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536 `,
    );
  }
  return out.join('\n') + '\n';
}

export function routeGet(dst: string, via: string | undefined, dev: string, src: string): string {
  return `${dst} ${via ? `via ${via} ` : ''}dev ${dev} src ${src} uid 0 \n    cache \n`;
}

export const CURL_OK = (ip: string): Raw => ({
  exitCode: 0,
  stdout: `connect=0.000731 code=404\n`,
  stderr: '',
  durationMs: 12 + ip.length,
});
export const CURL_TIMEOUT = (ip: string, port: number): Raw => ({
  exitCode: 28,
  stdout: 'connect=0.000000 code=000\n',
  stderr: `curl: (28) Failed to connect to ${ip} port ${port} after 3002 ms: Timeout was reached\n`,
  durationMs: 3010,
});
export const CURL_REFUSED = (ip: string, port: number): Raw => ({
  exitCode: 7,
  stdout: 'connect=0.000000 code=000\n',
  stderr: `curl: (7) Failed to connect to ${ip} port ${port} after 1 ms: Couldn't connect to server\n`,
  durationMs: 4,
});

export function nslookupOk(name: string, server: string, addr: string): Raw {
  return {
    exitCode: 0,
    stdout: `Server:\t\t${server}\nAddress:\t${server}:53\n\n\nName:\t${name}\nAddress: ${addr}\n\n`,
    stderr: '',
    durationMs: 9,
  };
}

export function nslookupNx(name: string, server: string): Raw {
  return {
    exitCode: 1,
    stdout: `Server:\t\t${server}\nAddress:\t${server}:53\n\n** server can't find ${name}: NXDOMAIN\n\n`,
    stderr: '',
    durationMs: 7,
  };
}

export const NSLOOKUP_TIMEOUT: Raw = {
  exitCode: 1,
  stdout: ';; connection timed out; no servers could be reached\n\n',
  stderr: '',
  durationMs: 10004,
};

export function resolvConf(p: AddressPlan): string {
  return `search ${p.svcNamespace}.svc.${p.clusterDomain} svc.${p.clusterDomain} ${p.clusterDomain}\nnameserver ${otherIP(p)}\noptions ndots:5\n`;
}

export function dnsName(p: AddressPlan): string {
  return `${p.svcName}.${p.svcNamespace}.svc.${p.clusterDomain}`;
}

/** A healthy Calico-style pod: veth eth0 with a /32, default via 169.254.1.1. */
export function calicoPod(p: AddressPlan): Record<string, Raw> {
  return {
    'route-clusterip': { exitCode: 0, stdout: routeGet(p.clusterIP, '169.254.1.1', p.podIface, p.podIP) },
    'route-endpoint': { exitCode: 0, stdout: routeGet(p.endpoints[0], '169.254.1.1', p.podIface, p.podIP) },
    addresses: { exitCode: 0, stdout: ipOAddr([[4, p.podIface, `${p.podIP}/32`]]) },
    links: { exitCode: 0, stdout: ipDLink([[4, p.podIface, 17, 'veth', '7a:9c:01:3e:55:d0']]) },
    neighbours: { exitCode: 0, stdout: `169.254.1.1 dev ${p.podIface} lladdr ee:ee:ee:ee:ee:ee STALE\n` },
    routes: {
      exitCode: 0,
      stdout: `default via 169.254.1.1 dev ${p.podIface} \n169.254.1.1 dev ${p.podIface} scope link \n`,
    },
    'resolv-conf': { exitCode: 0, stdout: resolvConf(p) },
  };
}

/** A healthy bridge-style pod (flannel cni0): eth0 veth in the pod CIDR, default via the bridge address. */
export function bridgePod(p: AddressPlan): Record<string, Raw> {
  const prefix = p.podCIDR.split('/')[1];
  return {
    'route-clusterip': { exitCode: 0, stdout: routeGet(p.clusterIP, p.bridgeIP, p.podIface, p.podIP) },
    'route-endpoint': { exitCode: 0, stdout: routeGet(p.endpoints[0], p.bridgeIP, p.podIface, p.podIP) },
    addresses: { exitCode: 0, stdout: ipOAddr([[3, p.podIface, `${p.podIP}/${prefix}`]]) },
    links: { exitCode: 0, stdout: ipDLink([[3, p.podIface, 9, 'veth', '5e:21:aa:04:19:c2']]) },
    neighbours: { exitCode: 0, stdout: `${p.bridgeIP} dev ${p.podIface} lladdr 2a:11:5c:83:0f:71 REACHABLE\n` },
    routes: {
      exitCode: 0,
      stdout: `default via ${p.bridgeIP} dev ${p.podIface} \n${p.clusterCidr} via ${p.bridgeIP} dev ${p.podIface} \n${p.podCIDR} dev ${p.podIface} proto kernel scope link src ${p.podIP} \n`,
    },
    'resolv-conf': { exitCode: 0, stdout: resolvConf(p) },
  };
}

/** The seed fault: a second interface whose default route goes to another gateway; pod routes stay on eth0. */
export function secondInterfacePod(p: AddressPlan, onlyServiceCidr = false): Record<string, Raw> {
  const base = calicoPod(p);
  return {
    ...base,
    'route-clusterip': { exitCode: 0, stdout: routeGet(p.clusterIP, p.extraGateway, p.extraIface, p.extraIP) },
    addresses: {
      exitCode: 0,
      stdout: ipOAddr([
        [4, p.podIface, `${p.podIP}/32`],
        [6, p.extraIface, `${p.extraIP}/${p.extraPrefix}`],
      ]),
    },
    links: {
      exitCode: 0,
      stdout: ipDLink([
        [4, p.podIface, 17, 'veth', '7a:9c:01:3e:55:d0'],
        [6, p.extraIface, 31, 'veth', '3a:0b:7e:11:90:aa'],
      ]),
    },
    neighbours: {
      exitCode: 0,
      stdout: `169.254.1.1 dev ${p.podIface} lladdr ee:ee:ee:ee:ee:ee STALE\n${p.extraGateway} dev ${p.extraIface}  FAILED\n`,
    },
    routes: {
      exitCode: 0,
      stdout: onlyServiceCidr
        ? `default via 169.254.1.1 dev ${p.podIface} \n${p.serviceCidr} via ${p.extraGateway} dev ${p.extraIface} \n169.254.1.1 dev ${p.podIface} scope link \n`
        : `default via ${p.extraGateway} dev ${p.extraIface} \n${p.clusterCidr} via 169.254.1.1 dev ${p.podIface} \n169.254.1.1 dev ${p.podIface} scope link \n`,
    },
  };
}

/** macvlan/ipvlan as the pod's only interface: the pod has an address on the node network, gateway = router. */
export function besideNodePod(
  p: AddressPlan,
  kind: 'macvlan bridge' | 'ipvlan l2' | 'ipvlan l3s',
  podIP: string,
  onlink = false,
): Record<string, Raw> {
  return {
    'route-clusterip': { exitCode: 0, stdout: routeGet(p.clusterIP, onlink ? undefined : p.router, p.podIface, podIP) },
    'route-endpoint': {
      exitCode: 0,
      stdout: routeGet(p.endpoints[0], onlink ? undefined : p.router, p.podIface, podIP),
    },
    addresses: { exitCode: 0, stdout: ipOAddr([[2, p.podIface, `${podIP}/24`]]) },
    links: { exitCode: 0, stdout: ipDLink([[2, p.podIface, 2, kind, '02:42:ac:14:05:28']]) },
    neighbours: { exitCode: 0, stdout: `${p.router} dev ${p.podIface} lladdr 00:1c:73:aa:01:01 REACHABLE\n` },
    routes: {
      exitCode: 0,
      stdout: onlink
        ? `default dev ${p.podIface} scope link \n`
        : `default via ${p.router} dev ${p.podIface} \n${p.router.replace(/\d+$/, '0')}/24 dev ${p.podIface} proto kernel scope link src ${podIP} \n`,
    },
    'resolv-conf': { exitCode: 0, stdout: resolvConf(p) },
  };
}

/** Connect results: the ClusterIP and every endpoint, each answered by `clusterIP` / `endpoint`. */
export function connects(
  p: AddressPlan,
  clusterIP: 'ok' | 'timeout' | 'refused',
  endpoint: 'ok' | 'timeout' | 'refused',
): Record<string, Raw> {
  const r = (k: 'ok' | 'timeout' | 'refused', ip: string, port: number) =>
    k === 'ok' ? CURL_OK(ip) : k === 'timeout' ? CURL_TIMEOUT(ip, port) : CURL_REFUSED(ip, port);
  const out: Record<string, Raw> = { 'connect-clusterip': r(clusterIP, p.clusterIP, p.port) };
  for (const ip of p.endpoints) out[`connect-endpoint:${ip}:${p.targetPort}`] = r(endpoint, ip, p.targetPort);
  return out;
}

export function dnsOk(p: AddressPlan): Record<string, Raw> {
  return { dns: nslookupOk(dnsName(p), otherIP(p), p.clusterIP) };
}

/** The tool probe as it comes back (`command -v` lines). */
export function toolsProbe(names: string[]): CheckResult {
  const spec = toolProbeCheck();
  const paths: Record<string, string> = {
    curl: '/usr/bin/curl',
    wget: '/usr/bin/wget',
    nc: '/usr/bin/nc',
    bash: '/bin/bash',
    ip: '/sbin/ip',
    nslookup: '/usr/bin/nslookup',
    getent: '/usr/bin/getent',
    cat: '/bin/cat',
    timeout: '/usr/bin/timeout',
  };
  return classifyCheck(spec, {
    id: spec.id,
    argv: spec.argv,
    exitCode: 0,
    durationMs: 31,
    stdout: names.map((n) => paths[n] ?? n).join('\n') + '\n',
    stderr: '',
  });
}

/** Runs the plan against recorded outputs: a check without an entry ran and printed nothing (exit 0). */
export function runPlan(plan: CheckSpec[], outputs: Record<string, Raw>): CheckResult[] {
  return plan.map((spec) => {
    const o = outputs[spec.id] ?? { exitCode: 0 };
    return classifyCheck(spec, {
      id: spec.id,
      kind: spec.kind,
      argv: spec.argv,
      exitCode: o.exitCode,
      durationMs: o.durationMs ?? 6,
      stdout: o.stdout ?? '',
      stderr: o.stderr ?? '',
      ...(o.error ? { error: o.error } : {}),
      ...(spec.target ? { target: spec.target } : {}),
    });
  });
}

export interface Scenario {
  plan?: AddressPlan;
  tools?: string[];
  outputs: Record<string, Raw>;
  nodeEvidence?: NodeEvidence;
  svc?: ServiceInfo;
  eps?: EndpointInfo[];
  endpointsKnown?: boolean;
  pod?: PodInfo;
  node?: NodeInfo | null;
  execError?: DiagnoseInput['execError'];
  toolsResult?: CheckResult;
}

/** The whole input as the cluster side would assemble it: probe, plan, recorded outputs, node evidence. */
export function scenario(s: Scenario): DiagnoseInput {
  const p = s.plan ?? PLAN_A;
  const svc = s.svc ?? service(p);
  const eps = s.eps ?? endpoints(p);
  const source = s.pod ?? pod(p);
  const probe = s.toolsResult ?? toolsProbe(s.tools ?? ['curl', 'ip', 'nslookup', 'cat', 'timeout']);
  const plan = planChecks({
    service: svc,
    port: svc.ports[0],
    endpoints: eps,
    source,
    tools: readTools(probe),
    timeoutMs: 3000,
    clusterDomain: p.clusterDomain,
  });
  const checks = [probe, ...runPlan(plan, s.outputs)];
  const input: DiagnoseInput = {
    service: svc,
    port: svc.ports[0],
    endpoints: eps,
    endpointsKnown: s.endpointsKnown ?? true,
    source,
    checks,
    clusterDomain: p.clusterDomain,
  };
  if (s.node !== null) input.node = s.node ?? node(p);
  if (s.nodeEvidence) input.nodeEvidence = s.nodeEvidence;
  if (s.execError) input.execError = s.execError;
  return input;
}

/** The verdict in both languages, checked to agree and to be rendered whole (no raw key, no placeholder). */
export function both(input: DiagnoseInput) {
  const en = decideVerdict(input, 'en');
  const zh = decideVerdict(input, 'zh-CN');
  assert.equal(zh.code, en.code, 'the code does not depend on the language');
  assert.equal(zh.evidence.length, en.evidence.length);
  assert.ok(/[\u4e00-\u9fff]/.test(zh.summary), `Chinese summary: ${zh.summary}`);
  assert.ok(zh.nextSteps.length > 0 && zh.nextSteps.every((s) => /[\u4e00-\u9fff]/.test(s)));
  for (const v of [en, zh]) {
    assert.ok(v.summary.length > 0 && !v.summary.includes('\n'), 'one line');
    assert.ok(!/diagnose\.|\{\w+\}/.test(v.summary), `no raw key or placeholder: ${v.summary}`);
    for (const e of v.evidence) assert.ok(!/diagnose\.[a-z]|\{\w+\}/.test(e.text), `evidence text rendered: ${e.text}`);
    for (const s of v.nextSteps) assert.ok(!/diagnose\.[a-z]/.test(s), s);
  }
  return { en, zh };
}

/** The two address plans every verdict test runs on. */
export const PLANS: AddressPlan[] = [PLAN_A, PLAN_B];

/**
 * The start of kube-proxy's nftables-mode table for a family, written here: its `service-ips` map holding
 * `elements` (`VIP . tcp . PORT : goto CHAIN`, none for an empty map), the prerouting hook and the `services` chain.
 */
export function nftKubeProxyHead(family: 'ip' | 'ip6', elements: readonly string[]): string[] {
  return [
    `table ${family} kube-proxy {`,
    '\tcomment "rules for kube-proxy"',
    '\tmap service-ips {',
    `\t\ttype ${family === 'ip' ? 'ipv4_addr' : 'ipv6_addr'} . inet_proto . inet_service : verdict`,
    '\t\tcomment "ClusterIP, ExternalIP and LoadBalancer IP traffic"',
    ...(elements.length ? [`\t\telements = { ${elements.join(', ')} }`] : []),
    '\t}',
    '\tchain nat-prerouting {',
    '\t\ttype nat hook prerouting priority dstnat; policy accept;',
    '\t\tjump services',
    '\t}',
    '\tchain services {',
    `\t\t${family} daddr . meta l4proto . th dport vmap @service-ips`,
    '\t}',
  ];
}
