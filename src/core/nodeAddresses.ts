/**
 * The node's own addresses when the paste shows them: an `ip addr` section of a session paste (or an `ip addr`
 * file read with the dump) tells the tracer which destinations are local, so `addrtype LOCAL` and the routing
 * decision need no assumption.
 */
import type { NetworkState } from './netstate/types';

export function nodeAddressesFromPaste(network: NetworkState | undefined): string[] | undefined {
  const out = new Set<string>();
  for (const i of network?.interfaces ?? []) for (const a of i.addresses) if (a.address) out.add(a.address);
  return out.size ? [...out] : undefined;
}
