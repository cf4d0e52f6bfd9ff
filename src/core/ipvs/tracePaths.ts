/**
 * The paths of a packet to an IPVS virtual service: one per real server that can take new connections
 * (weight above 0, not overloaded), weighted by the scheduler's share. Only LVS-NAT (Masq) rewrites the
 * destination; direct routing (Route) hands the packet to the real server by MAC and a tunnel encapsulates it,
 * both with the VIP still the destination, and Local delivers it on this host. Every face prints these, steps
 * included (IPVS has no chains: the virtual service's line, then the real server's).
 */
import { realServerLabel, serviceLabel } from './identity';
import type { VirtualResolution } from './resolve';
import type { ForwardMethod } from './types';

export interface IpvsTraceStep {
  table: 'ipvs';
  /** The virtual service (`TCP 10.96.0.1:443`), in place of a chain. */
  chain: string;
  /** 0-based. */
  line: number;
  rule: string;
  /** `match` the virtual service, then `nat` (Masq rewrites the destination) or `forward` (it does not). */
  action: 'match' | 'nat' | 'forward';
}

/** A real server's address and port; a port name ipvsadm printed without `-n` that has no known number: `portName`. */
export interface IpvsDestination {
  ip: string;
  port?: number;
  portName?: string;
}

export interface IpvsTracePath {
  probability: number;
  /** The destination rewrite, for Masq (and an unprinted method, which kube-proxy always sets to Masq). */
  dnat: IpvsDestination | null;
  /** Where the packet is sent, whatever the method. */
  realServer: IpvsDestination;
  forward?: ForwardMethod;
  /** 0-based lines of the virtual service and the real server. */
  serviceLine: number;
  realServerLine: number;
  steps: [IpvsTraceStep, IpvsTraceStep];
}

export function ipvsTracePaths(r: VirtualResolution): IpvsTracePath[] {
  const usable = r.realServers.filter((e) => !e.draining && e.overloaded !== 'yes');
  const label = serviceLabel(r.service);
  return usable.map((e) => {
    const rs = e.realServer;
    const to: IpvsDestination =
      rs.port === undefined ? { ip: rs.address, portName: rs.portName } : { ip: rs.address, port: rs.port };
    const rewrites = rs.forward === undefined || rs.forward === 'Masq';
    return {
      probability: e.share ?? 1 / usable.length,
      dnat: rewrites ? to : null,
      realServer: to,
      ...(rs.forward ? { forward: rs.forward } : {}),
      serviceLine: r.service.line,
      realServerLine: rs.line,
      steps: [
        { table: 'ipvs', chain: label, line: r.service.line, rule: label, action: 'match' },
        {
          table: 'ipvs',
          chain: label,
          line: rs.line,
          rule: `-> ${realServerLabel(rs)} ${rs.forward ?? ''}`.trim(),
          action: rewrites ? 'nat' : 'forward',
        },
      ],
    };
  });
}
