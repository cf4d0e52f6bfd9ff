/**
 * ipset contents the tracer may be given (an `ipset list` pasted with the dump): `-m set --match-set NAME dst,dst`
 * is then decided by the members instead of forking on an assumption. Only what a member says for sure counts:
 * a packet in a listed member is in the set; one in none of them is out only when the listing was complete.
 */
import { cidrContains, parseCidr, type IpFamily } from '../../common/ip';
import type { PacketState } from './state';
import type { KnownSet } from './types';

type ElementTest = (s: PacketState, field: 'src' | 'dst', family: IpFamily) => boolean | undefined;

/** One member, compiled: a test per element, `undefined` from a test meaning "cannot tell". */
type MemberTest = ElementTest[];

export interface CompiledSet {
  members: MemberTest[];
  complete: boolean;
}

export function compileSets(sets: readonly KnownSet[] | undefined): Map<string, CompiledSet> | undefined {
  if (!sets?.length) return undefined;
  const out = new Map<string, CompiledSet>();
  for (const set of sets) {
    const kinds = elementKinds(set.type);
    const members = set.members.map((m) => m.elements.map((e, i) => elementTest(e, kinds?.[i])));
    out.set(set.name, {
      members,
      complete: set.numberOfEntries === undefined || set.numberOfEntries <= set.members.length,
    });
  }
  return out;
}

/**
 * Whether the packet's fields (`flags` of --match-set: `dst,dst` = destination address, destination port) are in
 * the set: true or false when the members tell, undefined when they cannot (a cut listing, a shape not read).
 */
export function inSet(
  set: CompiledSet,
  flags: readonly ('src' | 'dst')[],
  s: PacketState,
  family: IpFamily,
): boolean | undefined {
  let unsure = !set.complete;
  for (const member of set.members) {
    let all: boolean | undefined = true;
    for (let i = 0; i < member.length && all !== false; i++) {
      // ipset reads a missing direction flag as the last one given.
      const r = member[i](s, flags[Math.min(i, flags.length - 1)] ?? 'src', family);
      if (r === undefined) all = undefined;
      else if (!r) all = false;
    }
    if (all === true) return true;
    if (all === undefined) unsure = true;
  }
  return unsure ? undefined : false;
}

type ElementKind = 'ip' | 'net' | 'port' | 'iface' | 'mac';

/** `hash:ip,port,net` -> ['ip', 'port', 'net']; undefined for a type not given (each element says what it is). */
function elementKinds(type: string | undefined): ElementKind[] | undefined {
  const m = /^(?:hash|bitmap|list):(.+)$/.exec(type ?? '');
  if (!m) return undefined;
  return m[1]
    .split(',')
    .map((k) => (k === 'ip' || k === 'net' || k === 'port' || k === 'iface' || k === 'mac' ? k : 'ip'));
}

function elementTest(text: string, kind: ElementKind | undefined): ElementTest {
  const port = /^(?:(tcp|udp|sctp|udplite|icmp|icmpv6):)?(\d{1,5})$/.exec(text);
  if (kind === 'port' || (kind === undefined && port)) {
    if (!port) return () => undefined;
    const proto = port[1] ?? 'tcp';
    const value = Number(port[2]);
    return (s, field) => {
      if (s.proto !== proto) return false;
      const p = field === 'src' ? s.sport : s.dport;
      return p === undefined ? undefined : p === value;
    };
  }
  if (kind === 'iface' || kind === 'mac') return () => undefined;
  const cidr = parseCidr(text);
  if (!cidr) return () => undefined;
  return (s, field, family) =>
    family === cidr.family && cidrContains(cidr, { family, value: field === 'src' ? s.src : s.dst });
}
