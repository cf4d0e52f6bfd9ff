/** What an ipvsadm dump's tokens are (types.ts re-exports them; the token store keeps them). */
import type { Span } from '../common/diagnostics';

export type IpvsTokenKind =
  | 'prompt' // `[root@vm01 ~]#`
  | 'command' // `ipvsadm -Ln`
  | 'comment' // `# ...`, grep `--` separators
  | 'ellipsis' // `...`
  | 'header' // `IP Virtual Server version 1.2.1 (size=4096)`
  | 'columnHeader' // `Prot LocalAddress:Port ...`, `pro expire state ...`
  | 'protocol' // TCP / UDP / SCTP / FWM
  | 'address'
  | 'port'
  | 'fwmark'
  | 'family' // `IPv6` after a fwmark, `-6`
  | 'scheduler'
  | 'flag' // scheduler flags, ops
  | 'keyword' // persistent / mask / pe
  | 'persistentTimeout'
  | 'netmask'
  | 'pe'
  | 'arrow' // `->`
  | 'forward'
  | 'weight'
  | 'activeConn'
  | 'inactConn'
  | 'persistConn'
  | 'counter' // --stats / --rate value; `column` names it
  | 'threshold' // --thresholds value; `column` names it
  | 'expire'
  | 'state'
  | 'timeout' // --timeout value; `column` names it
  | 'option' // save-format option (`-A`, `-t`, `-r`, `-m`, `-w`, ...)
  | 'daemon'
  | 'error'; // ipvsadm's own error text

/** Where an address/port token sits. */
export type EndpointRole = 'service' | 'real' | 'source' | 'virtual' | 'destination';

export interface IpvsToken {
  kind: IpvsTokenKind;
  /** Text as written. */
  text: string;
  span: Span;
  /** Column name for counters, thresholds and timeouts (`Conns`, `InPkts`, `CPS`, `Uthreshold`, `tcpfin`, ...). */
  column?: string;
  role?: EndpointRole;
  /** Index into `IpvsDump.services`. */
  service?: number;
  /** Index into that service's `realServers`. */
  realServer?: number;
  /** Index into `IpvsDump.orphanRealServers`. */
  orphan?: number;
  /** Index into `IpvsDump.connections`. */
  connection?: number;
}
