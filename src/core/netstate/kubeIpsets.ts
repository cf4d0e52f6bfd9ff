/**
 * The ipsets kube-proxy creates in IPVS mode, and what each one is for (texts in `messages/netstate.ts`).
 * IPv6 sets carry `KUBE-6-` instead of `KUBE-`, cut to ipset's 31-character name limit.
 */
import type { KubeProxySetInfo } from './types';
import { ownEntry } from '../common/own';

/** IPv4 set name -> i18n key of its purpose. */
export const KUBE_PROXY_IPSETS: Readonly<Record<string, string>> = {
  'KUBE-LOOP-BACK': 'routes.ipset.purpose.loop-back',
  'KUBE-CLUSTER-IP': 'routes.ipset.purpose.cluster-ip',
  'KUBE-EXTERNAL-IP': 'routes.ipset.purpose.external-ip',
  'KUBE-EXTERNAL-IP-LOCAL': 'routes.ipset.purpose.external-ip-local',
  'KUBE-LOAD-BALANCER': 'routes.ipset.purpose.load-balancer',
  'KUBE-LOAD-BALANCER-FW': 'routes.ipset.purpose.load-balancer-fw',
  'KUBE-LOAD-BALANCER-LOCAL': 'routes.ipset.purpose.load-balancer-local',
  'KUBE-LOAD-BALANCER-SOURCE-IP': 'routes.ipset.purpose.load-balancer-source-ip',
  'KUBE-LOAD-BALANCER-SOURCE-CIDR': 'routes.ipset.purpose.load-balancer-source-cidr',
  'KUBE-NODE-PORT-TCP': 'routes.ipset.purpose.node-port-tcp',
  'KUBE-NODE-PORT-LOCAL-TCP': 'routes.ipset.purpose.node-port-local-tcp',
  'KUBE-NODE-PORT-UDP': 'routes.ipset.purpose.node-port-udp',
  'KUBE-NODE-PORT-LOCAL-UDP': 'routes.ipset.purpose.node-port-local-udp',
  'KUBE-NODE-PORT-SCTP-HASH': 'routes.ipset.purpose.node-port-sctp',
  'KUBE-NODE-PORT-LOCAL-SCTP-HASH': 'routes.ipset.purpose.node-port-local-sctp',
  'KUBE-HEALTH-CHECK-NODE-PORT': 'routes.ipset.purpose.health-check-node-port',
  'KUBE-IPVS-IPS': 'routes.ipset.purpose.ipvs-ips',
};

const IPSET_NAME_LIMIT = 31;

export function kubeProxySetInfo(name: string): KubeProxySetInfo | undefined {
  const v4 = ownEntry(KUBE_PROXY_IPSETS, name);
  if (v4) return { canonicalName: name, ipv6: false, purposeKey: v4 };
  if (!name.startsWith('KUBE-6-')) return undefined;
  for (const [canonical, purposeKey] of Object.entries(KUBE_PROXY_IPSETS)) {
    const v6Name = canonical.replace('KUBE-', 'KUBE-6-').slice(0, IPSET_NAME_LIMIT);
    if (v6Name === name) return { canonicalName: canonical, ipv6: true, purposeKey };
  }
  return undefined;
}
