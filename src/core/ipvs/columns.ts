/** Column names of the numeric ipvsadm listings, in print order (facts from ipvsadm's print_title). */
import type { IpvsLayout, IpvsTokenKind } from './types';

export const STATS_COLUMNS = ['Conns', 'InPkts', 'OutPkts', 'InBytes', 'OutBytes'] as const;
export const RATE_COLUMNS = ['CPS', 'InPPS', 'OutPPS', 'InBPS', 'OutBPS'] as const;
export const THRESHOLD_COLUMNS = ['Uthreshold', 'Lthreshold', 'ActiveConn', 'InActConn'] as const;
export const PERSISTENT_CONN_COLUMNS = ['Weight', 'PersistConn', 'ActiveConn', 'InActConn'] as const;
export const LIST_COLUMNS = ['Forward', 'Weight', 'ActiveConn', 'InActConn'] as const;
export const TIMEOUT_COLUMNS = ['tcp', 'tcpfin', 'udp'] as const;

/** Real-server columns after the address for each layout that lists services. */
export function realServerColumns(layout: IpvsLayout): readonly string[] {
  switch (layout) {
    case 'stats':
      return STATS_COLUMNS;
    case 'rate':
      return RATE_COLUMNS;
    case 'thresholds':
      return THRESHOLD_COLUMNS;
    case 'persistent-conn':
      return PERSISTENT_CONN_COLUMNS;
    default:
      return LIST_COLUMNS;
  }
}

/** Which token kind a real-server column value is. */
export function columnTokenKind(column: string): IpvsTokenKind {
  switch (column) {
    case 'Forward':
      return 'forward';
    case 'Weight':
      return 'weight';
    case 'ActiveConn':
      return 'activeConn';
    case 'InActConn':
      return 'inactConn';
    case 'PersistConn':
      return 'persistConn';
    case 'Uthreshold':
    case 'Lthreshold':
      return 'threshold';
    default:
      return 'counter';
  }
}

/** The layout a `Prot LocalAddress:Port ...` column header announces, from its column names. */
export function layoutOfColumnHeader(words: string[]): IpvsLayout {
  const has = (w: string): boolean => words.includes(w);
  if (has('Conns') || has('InPkts')) return 'stats';
  if (has('CPS') || has('InPPS')) return 'rate';
  if (has('Uthreshold') || has('Lthreshold')) return 'thresholds';
  if (has('PersistConn')) return 'persistent-conn';
  return 'list';
}
