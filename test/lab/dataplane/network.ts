/**
 * Builds the lab's network out of namespaces, all named `kpp-...`:
 * - a "host network" namespace with a bridge: each node's eth0 is a veth on it; the bridge also holds the upstream
 *   router address, which silently drops everything it would forward (a blackhole default route);
 * - one namespace per node: forwarding on, rp_filter 0, route_localnet 1; routes to the other nodes' pod CIDRs via
 *   their node IPs (host-gw style); a routed veth per pod whose node end holds the link-scope gateway 169.254.1.1;
 * - one namespace per pod: its /32 address on eth0, `default via 169.254.1.1`;
 * - a `bridge` node (flannel style) instead has a bridge cni0 holding its pod CIDR's first address; each pod's veth
 *   is a port of it, the pod has the CIDR's prefix length and `default via` that address;
 * - a macvlan/ipvlan pod has no veth into its node: its eth0 is a macvlan (ipvlan) link whose parent is a veth on
 *   the node network's bridge, its address is on the node network and its default route goes via the router
 *   (which then also routes the pod CIDRs to their nodes, as a routed network would);
 * - for the seed fault, a gateway namespace on its own L2 segment (a veth to the pod's eth1) that blackholes.
 * Nothing here creates a link, address or route in the root namespace.
 */
import * as fs from 'node:fs';
import { parseCidr } from '../../../src/core/common/ip';
import { bridgeAddress } from '../scenario';
import { allNamespaces, type LabPlan, type PodPlan } from './plan';
import { ipBatch, nsSysctl } from './sys';

/**
 * The pods' next hop, link-local as in Calico. It sits on every pod link of the node with scope link, so ARP
 * answers at once and the node never picks it as a source address (masquerade and replies use the node IP).
 */
export const POD_GATEWAY = '169.254.1.1';

// Pods need no sysctls: each has one route back per source, so even a strict rp_filter inherited from the host
// passes. Forwarding namespaces need rp_filter 0 (asymmetric paths) and forwarding on: a blackhole route drops
// silently only when forwarding is on (otherwise the kernel answers host-unreachable).
const FORWARDING_SYSCTLS = {
  'net.ipv4.conf.all.rp_filter': 0,
  'net.ipv4.conf.default.rp_filter': 0,
  'net.ipv4.ip_forward': 1,
};

const NODE_SYSCTLS = { ...FORWARDING_SYSCTLS, 'net.ipv4.conf.all.route_localnet': 1 };

/** With br_netfilter in the kernel this is per namespace: bridged frames in a bridge node pass its iptables. */
const BRIDGE_NF = 'net.bridge.bridge-nf-call-iptables';

function bridgeSysctls(): Record<string, number> {
  return fs.existsSync('/proc/sys/net/bridge/bridge-nf-call-iptables') ? { [BRIDGE_NF]: 1 } : {};
}

/** The next hop a veth pod's default route uses: the node's cni0 address (bridge) or 169.254.1.1 (routed). */
export function podGateway(p: PodPlan): string {
  return p.node.podNetwork === 'bridge' ? bridgeAddress(p.node.podCidr) : POD_GATEWAY;
}

function prefixLength(cidr: string): number {
  return parseCidr(cidr)!.prefix;
}

/** The node-side interface of the i-th pod on a node. */
function podLink(index: number): string {
  return `v${index}`;
}

export async function createNamespaces(plan: LabPlan): Promise<void> {
  await ipBatch(
    undefined,
    allNamespaces(plan).map((ns) => ['netns', 'add', ns]),
  );
}

export async function buildNetwork(plan: LabPlan): Promise<void> {
  const sc = plan.scenario;
  const gw = sc.faults.customGateway;

  // Sysctls before any link exists: new links take the namespace's defaults (rp_filter 0).
  const segmentPods = plan.pods.filter((p) => p.pod.network !== 'veth');
  await Promise.all([
    nsSysctl(plan.hostNetns, {
      ...FORWARDING_SYSCTLS,
      'net.ipv4.conf.all.send_redirects': 0,
      'net.ipv4.conf.default.send_redirects': 0,
    }),
    ...(plan.gatewayNetns ? [nsSysctl(plan.gatewayNetns, FORWARDING_SYSCTLS)] : []),
    ...plan.nodes.map((n) =>
      nsSysctl(n.netns, { ...NODE_SYSCTLS, ...(n.node.podNetwork === 'bridge' ? bridgeSysctls() : {}) }),
    ),
  ]);

  // The node network: bridge + router address; each node's eth0 is created straight into its namespace.
  const nodePlen = String(prefixLength(sc.nodeNetwork.cidr));
  await ipBatchExplained(plan.hostNetns, [
    ['link', 'set', 'lo', 'up'],
    ['link', 'add', 'br0', 'type', 'bridge'],
    ['link', 'set', 'br0', 'up'],
    ['addr', 'add', `${sc.nodeNetwork.router}/${nodePlen}`, 'dev', 'br0'],
    ['route', 'add', 'blackhole', 'default'],
    ...plan.nodes.flatMap((n, i) => [
      ['link', 'add', `h${i}`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', n.netns],
      ['link', 'set', `h${i}`, 'master', 'br0'],
      ['link', 'set', `h${i}`, 'up'],
    ]),
    // A routed network: pods on the segment (macvlan) reach pod IPs through their nodes.
    ...(segmentPods.length
      ? plan.nodes.map((n) => ['route', 'add', n.node.podCidr, 'via', n.node.ip, 'dev', 'br0'])
      : []),
    ...segmentPods.flatMap((p, i) => [
      // The parent: a veth whose peer is a port of the node network's bridge (never of a node).
      ['link', 'add', `mh${i}`, 'type', 'veth', 'peer', 'name', `mp${i}`],
      ['link', 'set', `mp${i}`, 'master', 'br0'],
      ['link', 'set', `mp${i}`, 'up'],
      ['link', 'set', `mh${i}`, 'up'],
      p.pod.network === 'ipvlan'
        ? ['link', 'add', `mv${i}`, 'link', `mh${i}`, 'type', 'ipvlan', 'mode', 'l2']
        : ['link', 'add', `mv${i}`, 'link', `mh${i}`, 'type', 'macvlan', 'mode', 'bridge'],
      ['link', 'set', `mv${i}`, 'netns', p.netns],
    ]),
  ]);

  if (gw && plan.gatewayNetns) {
    const client = plan.pods.find((p) => p.key === gw.pod)!;
    await ipBatch(plan.gatewayNetns, [
      ['link', 'set', 'lo', 'up'],
      ['link', 'add', 'gw0', 'type', 'veth', 'peer', 'name', gw.interface, 'netns', client.netns],
      ['addr', 'add', `${gw.gateway}/${prefixLength(gw.segment)}`, 'dev', 'gw0'],
      ['link', 'set', 'gw0', 'up'],
      // Silently drop whatever it should forward: ICMP errors would be rate-limited and make failures flaky.
      ['route', 'add', 'blackhole', 'default'],
    ]);
  }

  await Promise.all(
    plan.nodes.map(async (n) => {
      const pods = podsOn(plan, n.node.name).filter((p) => p.pod.network === 'veth');
      const bridge = n.node.podNetwork === 'bridge';
      await ipBatch(n.netns, [
        ['link', 'set', 'lo', 'up'],
        ['addr', 'add', `${n.node.ip}/${nodePlen}`, 'dev', 'eth0'],
        ['link', 'set', 'eth0', 'up'],
        ['route', 'add', 'default', 'via', sc.nodeNetwork.router, 'dev', 'eth0'],
        ...plan.nodes
          .filter((o) => o !== n)
          .map((o) =>
            pathDown(plan, n.node.name, o.node.name)
              ? ['route', 'add', 'blackhole', o.node.podCidr]
              : ['route', 'add', o.node.podCidr, 'via', o.node.ip, 'dev', 'eth0'],
          ),
        ...(bridge
          ? [
              ['link', 'add', 'cni0', 'type', 'bridge'],
              ['addr', 'add', `${bridgeAddress(n.node.podCidr)}/${prefixLength(n.node.podCidr)}`, 'dev', 'cni0'],
              ['link', 'set', 'cni0', 'up'],
            ]
          : []),
        ...pods.flatMap((p, i) => nodeSideOfPod(p, bridge ? `veth${i}` : podLink(i))),
      ]);
    }),
  );

  await Promise.all(
    plan.pods.map((p) =>
      ipBatch(p.netns, p.pod.network === 'veth' ? podSide(plan, p) : segmentPodSide(plan, p, segmentPods.indexOf(p))),
    ),
  );
}

/** Whether the scenario breaks the path from node `from` to the pods of node `to` (fault nodePathDown). */
function pathDown(plan: LabPlan, from: string, to: string): boolean {
  return plan.scenario.faults.nodePathDown.some((d) => d.from === from && d.to === to);
}

/** A macvlan pod: its link (made in the host network namespace) renamed eth0, on the node network. */
function segmentPodSide(plan: LabPlan, p: PodPlan, index: number): string[][] {
  const nn = plan.scenario.nodeNetwork;
  return [
    ['link', 'set', 'lo', 'up'],
    ['link', 'set', `mv${index}`, 'name', 'eth0'],
    ['addr', 'add', `${p.pod.ip}/${prefixLength(nn.cidr)}`, 'dev', 'eth0'],
    ['link', 'set', 'eth0', 'up'],
    ['route', 'add', 'default', 'via', nn.router, 'dev', 'eth0'],
  ];
}

/** ipBatch, with a missing link driver (ipvlan, macvlan) named as what it is. */
async function ipBatchExplained(netns: string, lines: string[][]): Promise<void> {
  try {
    await ipBatch(netns, lines);
  } catch (e) {
    const message = (e as Error).message;
    if (/Unknown device type/.test(message)) {
      const added = lines.filter((l) => l[0] === 'link' && l[1] === 'add').map((l) => l[l.indexOf('type') + 1]);
      const unusual = [...new Set(added)].filter((k) => k !== 'veth' && k !== 'bridge');
      const kinds = unusual.length ? unusual : [...new Set(added)];
      throw new Error(
        `this kernel lacks a link driver the scenario needs (one of: ${kinds.join(', ')}; "ip link add ... type X" ` +
          `says "Unknown device type"): ${message}`,
      );
    }
    throw e;
  }
}

function podsOn(plan: LabPlan, node: string): PodPlan[] {
  return plan.pods.filter((p) => p.node.name === node);
}

function nodeSideOfPod(p: PodPlan, link: string): string[][] {
  if (p.node.podNetwork === 'bridge')
    return [
      ['link', 'add', link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', p.netns],
      ['link', 'set', link, 'master', 'cni0'],
      ['link', 'set', link, 'up'],
    ];
  return [
    ['link', 'add', link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', p.netns],
    ['addr', 'add', `${POD_GATEWAY}/32`, 'dev', link, 'scope', 'link'],
    ['link', 'set', link, 'up'],
    ['route', 'add', `${p.pod.ip}/32`, 'dev', link, 'src', p.node.ip],
  ];
}

function podSide(plan: LabPlan, p: PodPlan): string[][] {
  const gateway = podGateway(p);
  const lines =
    p.node.podNetwork === 'bridge'
      ? [
          ['link', 'set', 'lo', 'up'],
          ['addr', 'add', `${p.pod.ip}/${prefixLength(p.node.podCidr)}`, 'dev', 'eth0'],
          ['link', 'set', 'eth0', 'up'],
          ['route', 'add', 'default', 'via', gateway, 'dev', 'eth0'],
        ]
      : [
          ['link', 'set', 'lo', 'up'],
          ['addr', 'add', `${p.pod.ip}/32`, 'dev', 'eth0'],
          ['link', 'set', 'eth0', 'up'],
          ['route', 'add', POD_GATEWAY, 'dev', 'eth0', 'scope', 'link'],
          ['route', 'add', 'default', 'via', POD_GATEWAY, 'dev', 'eth0'],
        ];
  const gw = plan.scenario.faults.customGateway;
  if (gw && gw.pod === p.key) {
    lines.push(
      ['addr', 'add', `${gw.podAddress}/${prefixLength(gw.segment)}`, 'dev', gw.interface],
      ['link', 'set', gw.interface, 'up'],
      ...gw.routes.map((r) => ['route', 'replace', r, 'via', gw.gateway, 'dev', gw.interface]),
      // Pod-to-pod traffic still goes through the node, as in the seed case.
      ['route', 'replace', plan.scenario.clusterCidr, 'via', gateway, 'dev', 'eth0'],
    );
  }
  return lines;
}

/** Adds one pod to a running lab (a pod created through the API). */
export async function addPodNetwork(plan: LabPlan, p: PodPlan, linkIndex: number): Promise<void> {
  const node = plan.nodes.find((n) => n.node.name === p.node.name)!;
  await ipBatch(undefined, [['netns', 'add', p.netns]]);
  await ipBatch(node.netns, nodeSideOfPod(p, `x${linkIndex}`));
  await ipBatch(p.netns, podSide(plan, p));
}
