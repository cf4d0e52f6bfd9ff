/** Network-state parsers (`ip route`, `ip route get`, `ip rule`, `ip addr`, `route -n`, `conntrack`, `ipset list`) and lookups. */
import type { Diagnostic } from '../common/diagnostics';
import { parseNetworkText, type ParseNetworkOptions } from './parse';
import type { ConntrackEntry, ConntrackSummary, IpSet, NetworkInterface, Route, RouteGet } from './types';

export * from './types';
export { detectNetworkFormat, type NetworkFormatDetection } from './detect';
export { parseNetworkText, parseNetworkDetails, type ParseNetworkOptions, type LineKind } from './parse';
export {
  lookupRoute,
  lookupWithPolicy,
  type PolicyLookup,
  type PolicyPacket,
  addressProblem,
  linkProblem,
  type AddressProblem,
  addressesOf,
  interfaceForAddress,
  type RouteLookup,
  type RouteLookupOptions,
  type InterfaceMatch,
  type InterfaceForAddressOptions,
} from './lookup';
export { kubeProxySetInfo, KUBE_PROXY_IPSETS } from './kubeIpsets';
export { ROUTES_CODES, messageKey, type RoutesCode } from './report';

type Options = Omit<ParseNetworkOptions, 'format'>;

/** `ip route` output (also read when the text holds other kinds; only routes are returned). */
export function parseIpRoute(text: string, options: Options = {}): { routes: Route[]; diagnostics: Diagnostic[] } {
  const s = parseNetworkText(text, { ...options, format: 'ip-route' });
  return { routes: s.routes, diagnostics: s.diagnostics };
}

export function parseIpRouteGet(
  text: string,
  options: Options = {},
): { routeGets: RouteGet[]; diagnostics: Diagnostic[] } {
  const s = parseNetworkText(text, { ...options, format: 'ip-route-get' });
  return { routeGets: s.routeGets, diagnostics: s.diagnostics };
}

export function parseIpAddr(
  text: string,
  options: Options = {},
): { interfaces: NetworkInterface[]; diagnostics: Diagnostic[] } {
  const s = parseNetworkText(text, { ...options, format: 'ip-addr' });
  return { interfaces: s.interfaces, diagnostics: s.diagnostics };
}

export function parseRouteN(text: string, options: Options = {}): { routes: Route[]; diagnostics: Diagnostic[] } {
  const s = parseNetworkText(text, { ...options, format: 'route-n' });
  return { routes: s.routes, diagnostics: s.diagnostics };
}

export function parseConntrack(
  text: string,
  options: Options = {},
): { conntrack: ConntrackEntry[]; conntrackSummaries: ConntrackSummary[]; diagnostics: Diagnostic[] } {
  const s = parseNetworkText(text, { ...options, format: 'conntrack' });
  return { conntrack: s.conntrack, conntrackSummaries: s.conntrackSummaries, diagnostics: s.diagnostics };
}

export function parseIpset(text: string, options: Options = {}): { ipsets: IpSet[]; diagnostics: Diagnostic[] } {
  const s = parseNetworkText(text, { ...options, format: 'ipset' });
  return { ipsets: s.ipsets, diagnostics: s.diagnostics };
}
