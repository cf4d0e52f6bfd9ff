/**
 * The paths of a packet to an IPVS virtual service: one per real server that can take new connections
 * (weight above 0, not overloaded), weighted by the scheduler's share. Only LVS-NAT (Masq) rewrites the
 * destination; direct routing (Route) hands the packet to the real server by MAC and a tunnel encapsulates it,
 * both with the VIP still the destination, and Local delivers it on this host. Both faces print these.
 */
import type { VirtualResolution } from './resolve';
import type { ForwardMethod } from './types';

export interface IpvsTracePath {
  probability: number;
  /** The destination rewrite, for Masq (and an unprinted method, which kube-proxy always sets to Masq). */
  dnat: { ip: string; port: number } | null;
  /** Where the packet is sent, whatever the method. */
  realServer: { ip: string; port: number };
  forward?: ForwardMethod;
  /** 0-based lines of the virtual service and the real server. */
  serviceLine: number;
  realServerLine: number;
}

export function ipvsTracePaths(r: VirtualResolution): IpvsTracePath[] {
  const usable = r.realServers.filter((e) => !e.draining && e.overloaded !== 'yes');
  return usable.map((e) => {
    const rs = e.realServer;
    const to = { ip: rs.address, port: rs.port };
    const rewrites = rs.forward === undefined || rs.forward === 'Masq';
    return {
      probability: e.share ?? 1 / usable.length,
      dnat: rewrites ? to : null,
      realServer: to,
      ...(rs.forward ? { forward: rs.forward } : {}),
      serviceLine: r.service.line,
      realServerLine: rs.line,
    };
  });
}
