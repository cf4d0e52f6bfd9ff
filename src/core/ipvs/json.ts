/** The CLI's JSON contract for an IPVS dump; keys that have no value are left out rather than set to null. */
import type { IpvsDump, IpvsRates, IpvsStats } from './types';

export interface IpvsJsonRealServer {
  address: string;
  /** Absent when ipvsadm printed a port name with no known number (`portName`). */
  port?: number;
  portName?: string;
  forward?: string;
  weight?: number;
  activeConn?: number;
  inactConn?: number;
  /** `--persistent-conn`: connections held by persistence templates. */
  persistConn?: number;
  /** `--thresholds`: Uthreshold / Lthreshold (0 = none). */
  thresholds?: { upper: number; lower: number };
  /** Tunnel options of the save format. */
  tunnel?: { type?: string; port?: number; flags: string[] };
  /** `--stats` counters and `--rate` figures, when the output had them. */
  stats?: IpvsStats;
  rates?: IpvsRates;
}

export interface IpvsJsonService {
  protocol: string;
  address?: string;
  port?: number;
  fwmark?: number;
  /** 4 or 6 where the output said (an fwmark service's `IPv6`). */
  family?: 4 | 6;
  scheduler?: string;
  flags: string[];
  persistent?: number;
  /** Persistence granularity (`mask 255.255.255.0`) and engine (`pe sip`). */
  netmask?: string;
  pe?: string;
  stats?: IpvsStats;
  rates?: IpvsRates;
  realServers: IpvsJsonRealServer[];
}

export interface IpvsJson {
  services: IpvsJsonService[];
}

function defined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

export function ipvsToJson(dump: IpvsDump): IpvsJson {
  return {
    services: dump.services.map((s) =>
      defined<IpvsJsonService>({
        protocol: s.protocol,
        address: s.address,
        port: s.port,
        fwmark: s.fwmark,
        family: s.protocol === 'FWM' ? s.family : undefined,
        scheduler: s.scheduler,
        flags: [...s.flags],
        persistent: s.persistent,
        netmask: s.netmask,
        pe: s.pe,
        stats: s.stats,
        rates: s.rates,
        realServers: s.realServers.map((r) =>
          defined<IpvsJsonRealServer>({
            address: r.address,
            port: r.port,
            portName: r.portName,
            forward: r.forward,
            weight: r.weight,
            activeConn: r.activeConn,
            inactConn: r.inactConn,
            persistConn: r.persistConn,
            thresholds: r.thresholds,
            tunnel: r.tunnel,
            stats: r.stats,
            rates: r.rates,
          }),
        ),
      }),
    ),
  };
}
