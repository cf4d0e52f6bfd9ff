/**
 * Netfilter's order of tables per hook (by hook priority: raw -300, mangle -150, nat DNAT -100, filter 0,
 * security 50, nat SNAT 100), and kube-proxy's standard jumps from builtin chains.
 */

import type { NftBaseChain } from '../../nft/objects';
import { ownEntry } from '../../common/own';

export interface Stage {
  table: string;
  chain: string;
  /** An nft base chain of type nat (iptables' nat table is known by its name). */
  nat?: boolean;
}

const s = (table: string, chain: string): Stage => ({ table, chain });

/** Before the routing decision of a packet arriving on an interface. */
export const PREROUTING_STAGES: readonly Stage[] = [
  s('raw', 'PREROUTING'),
  s('mangle', 'PREROUTING'),
  s('nat', 'PREROUTING'),
];

/** Delivered to a local socket. */
export const INPUT_STAGES: readonly Stage[] = [
  s('mangle', 'INPUT'),
  s('filter', 'INPUT'),
  s('security', 'INPUT'),
  s('nat', 'INPUT'),
];

export const FORWARD_STAGES: readonly Stage[] = [
  s('mangle', 'FORWARD'),
  s('filter', 'FORWARD'),
  s('security', 'FORWARD'),
  s('mangle', 'POSTROUTING'),
  s('nat', 'POSTROUTING'),
];

/** Sent by a local process. */
export const OUTPUT_STAGES: readonly Stage[] = [
  s('raw', 'OUTPUT'),
  s('mangle', 'OUTPUT'),
  s('nat', 'OUTPUT'),
  s('filter', 'OUTPUT'),
  s('security', 'OUTPUT'),
  s('mangle', 'POSTROUTING'),
  s('nat', 'POSTROUTING'),
];

/**
 * A locally generated packet for a local address comes back through loopback: PREROUTING and INPUT again, but
 * the connection's NAT was settled on the way out, so nat is not consulted.
 */
export const LOOPBACK_STAGES: readonly Stage[] = [
  s('raw', 'PREROUTING'),
  s('mangle', 'PREROUTING'),
  s('mangle', 'INPUT'),
  s('filter', 'INPUT'),
  s('security', 'INPUT'),
];

export interface ImpliedJump {
  target: string;
  comment: string;
  ctstateNew: boolean;
}

const j = (target: string, comment: string, ctstateNew = false): ImpliedJump => ({ target, comment, ctstateNew });

/**
 * kube-proxy (iptables mode) and kubelet add these with `iptables -I`/`-A` outside their restore input, so test
 * fixtures and restore files lack them. Listed in the order they end up in the chain.
 */
const IMPLIED: Record<string, Record<string, ImpliedJump[]>> = {
  filter: {
    INPUT: [
      j('KUBE-PROXY-FIREWALL', 'kubernetes load balancer firewall', true),
      j('KUBE-NODEPORTS', 'kubernetes health check service ports'),
      j('KUBE-EXTERNAL-SERVICES', 'kubernetes externally-visible service portals', true),
      j('KUBE-FIREWALL', 'kubelet firewall'),
    ],
    FORWARD: [
      j('KUBE-PROXY-FIREWALL', 'kubernetes load balancer firewall', true),
      j('KUBE-FORWARD', 'kubernetes forwarding rules'),
      j('KUBE-SERVICES', 'kubernetes service portals', true),
      j('KUBE-EXTERNAL-SERVICES', 'kubernetes externally-visible service portals', true),
    ],
    OUTPUT: [
      j('KUBE-PROXY-FIREWALL', 'kubernetes load balancer firewall', true),
      j('KUBE-SERVICES', 'kubernetes service portals', true),
      j('KUBE-FIREWALL', 'kubelet firewall'),
    ],
  },
  nat: {
    PREROUTING: [j('KUBE-SERVICES', 'kubernetes service portals')],
    OUTPUT: [j('KUBE-SERVICES', 'kubernetes service portals')],
    POSTROUTING: [j('KUBE-POSTROUTING', 'kubernetes postrouting rules')],
  },
};

export function impliedJumps(table: string, chain: string): ImpliedJump[] {
  const byChain = ownEntry(IMPLIED, table);
  return (byChain && ownEntry(byChain, chain)) ?? [];
}

/** Hook priorities of iptables' tables; nat is dstnat (-100) before routing and srcnat (100) after it. */
const TABLE_PRIORITY: Readonly<Record<string, number>> = { raw: -300, mangle: -150, filter: 0, security: 50 };

function stagePriority(stage: Stage): number {
  if (stage.table === 'nat') return stage.chain === 'PREROUTING' || stage.chain === 'OUTPUT' ? -100 : 100;
  return ownEntry(TABLE_PRIORITY, stage.table) ?? 0;
}

/**
 * A phase's stages with the dump's nft base chains (`type nat hook prerouting priority dstnat`) placed among
 * iptables' tables by hook and priority, as netfilter runs them. `loopback`: nat is not consulted again.
 */
export function stagesWithBaseChains(
  stages: readonly Stage[],
  base: readonly NftBaseChain[],
  loopback: boolean,
): Stage[] {
  const hooks: string[] = [];
  for (const s of stages) if (!hooks.includes(s.chain.toLowerCase())) hooks.push(s.chain.toLowerCase());
  const out: Stage[] = [];
  for (const hook of hooks) {
    const here = stages
      .filter((s) => s.chain.toLowerCase() === hook)
      .map((stage) => ({ stage, priority: stagePriority(stage) }));
    for (const b of base) {
      if (b.hook !== hook || (loopback && b.type === 'nat')) continue;
      here.push({
        stage: { table: b.table, chain: b.chain, ...(b.type === 'nat' ? { nat: true } : {}) },
        priority: b.priority,
      });
    }
    // A stable sort: at equal priority iptables' table comes first.
    here.sort((a, b) => a.priority - b.priority);
    for (const h of here) out.push(h.stage);
  }
  return out;
}
