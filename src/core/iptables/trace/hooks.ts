/**
 * Netfilter's order of tables per hook (by hook priority: raw -300, mangle -150, nat DNAT -100, filter 0,
 * security 50, nat SNAT 100), and kube-proxy's standard jumps from builtin chains.
 */

export interface Stage {
  table: string;
  chain: string;
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
  return IMPLIED[table]?.[chain] ?? [];
}
