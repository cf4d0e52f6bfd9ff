/**
 * Each node's kube-proxy rules, written by the engine's own generator from the objects the lab's API serves
 * (minus the Services a staleRules fault leaves out), and loaded into the node's namespace with iptables-restore
 * (or, with `kubeProxyMode: "nftables"`, kube-proxy's nftables ruleset loaded with `nft -f`).
 */
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { nodeNftRules } from './nftRules';
import { asList, nodeObjects, serviceObjects } from './objects';
import type { LabPlan, NodePlan } from './plan';
import { nsExec } from './sys';

export interface NodeRules {
  text: string;
  warnings: string[];
  /** kube-proxy's mode: iptables-restore input, or an nft ruleset for `nft -f`. */
  mode: 'iptables' | 'nftables';
}

export function nodeRules(plan: LabPlan, node: NodePlan, created: string): NodeRules {
  const list = asList([
    ...nodeObjects(plan, created).filter((o) => o.metadata.name === node.node.name),
    ...serviceObjects(plan, created, (s) => !node.missingServices.has(s.key)),
  ]);
  const snapshot = normaliseCluster(list);
  if (plan.scenario.kubeProxyMode === 'nftables')
    return { text: nodeNftRules(snapshot, plan.scenario.clusterCidr), warnings: snapshot.warnings, mode: 'nftables' };
  const result = generateIptablesRestore(snapshot, {
    clusterCidr: plan.scenario.clusterCidr,
    nodeName: node.node.name,
    nodeIPs: [node.node.ip],
  });
  return { text: result.text, warnings: [...snapshot.warnings, ...result.warnings], mode: 'iptables' };
}

/**
 * The scenario's filter faults as `iptables` argv per namespace: inserted first in a node's FORWARD or a pod's
 * INPUT chain, as a NetworkPolicy implementation or a node firewall puts its own chain ahead of the rest.
 */
export function filterCommands(plan: LabPlan): { netns: string; argv: string[] }[] {
  const out: { netns: string; argv: string[] }[] = [];
  for (const f of plan.scenario.faults.filters) {
    const node = plan.nodes.find((n) => n.node.name === f.in);
    const pod = plan.pods.find((p) => p.key === f.in);
    const netns = node?.netns ?? pod?.netns;
    if (!netns) continue; // a pod scaled away by another fault
    const to = f.to ? plan.pods.find((p) => p.key === f.to)?.pod.ip : undefined;
    if (f.to && !to) continue;
    out.push({
      netns,
      argv: [
        'iptables',
        '-w',
        '-I',
        node ? 'FORWARD' : 'INPUT',
        '1',
        ...(to ? ['-d', `${to}/32`] : []),
        ...(f.port !== undefined ? ['-p', 'tcp', '--dport', String(f.port)] : []),
        '-j',
        f.target,
        ...(f.target === 'REJECT' ? ['--reject-with', f.rejectWith ?? 'icmp-port-unreachable'] : []),
      ],
    });
  }
  return out;
}

export async function loadNodeRules(node: NodePlan, rules: NodeRules): Promise<void> {
  await nsExec(node.netns, rules.mode === 'nftables' ? ['nft', '-f', '-'] : ['iptables-restore'], {
    input: rules.text,
  });
}
