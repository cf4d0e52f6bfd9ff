/**
 * The packet a person asks to trace, as the faces receive it (the options of `kpp trace`, the trace request the
 * extension sends), checked in one place: source and destination addresses of one family, a destination port in
 * range, the protocol, the hook and the node's addresses. Each face names the fields its own way in the messages
 * (`--src` on the command line, `src` in the request). It imports only `common/ip`, so the extension's input boxes
 * can use it without carrying the engine.
 */
import { isIp, isValidPort, parseIp, splitHostPort } from './common/ip';
import type { Packet, TraceHook } from './iptables/trace/types';

/** What a person may ask for (the tracer reads ICMP too, but no face offers it: it has no port to ask for). */
export const TRACE_PROTOCOLS = ['tcp', 'udp', 'sctp'] as const;
export type TraceProtocol = (typeof TRACE_PROTOCOLS)[number];
export const TRACE_HOOKS: readonly TraceHook[] = ['prerouting', 'output'];

export interface TracePacketInput {
  src?: string;
  /** `ip:port` or `[v6]:port`. */
  dst?: string;
  /** Any case; default `tcp`. */
  proto?: string;
  /** Any case; default `prerouting`. */
  hook?: string;
  inIface?: string;
  localAddresses?: readonly string[];
}

export type TraceInputField = 'src' | 'dst' | 'proto' | 'hook' | 'localAddresses';

/** How a face names the fields in its messages. */
export type TraceInputNames = Readonly<Record<TraceInputField, string>>;

export type TracePacketCheck =
  { ok: true; packet: Packet & { proto: TraceProtocol } } | { ok: false; field: TraceInputField; message: string };

/** `ip:port` or `[v6]:port` with the port in range; undefined for anything else. */
export function parseTraceDestination(text: string): { host: string; port: number } | undefined {
  const hp = splitHostPort(text);
  if (!hp || !isIp(hp.host) || hp.port === undefined || !isValidPort(hp.port)) return undefined;
  return { host: hp.host, port: hp.port };
}

/** The first problem of the input, in the order a person reads the fields, or the packet to trace. */
export function checkTracePacket(input: TracePacketInput, names: TraceInputNames): TracePacketCheck {
  const problem = (field: TraceInputField, message: string): TracePacketCheck => ({ ok: false, field, message });
  const { src, dst } = input;
  if (!src) return problem('src', `${names.src} IP is required`);
  if (!dst) return problem('dst', `${names.dst} IP:PORT is required`);
  // A request's JSON may hold anything: a value that is no string is as wrong as a wrong string.
  if (typeof src !== 'string' || !isIp(src)) return problem('src', `${names.src}: "${src}" is not an IP address`);
  const to = typeof dst === 'string' ? parseTraceDestination(dst) : undefined;
  if (!to) return problem('dst', `${names.dst}: "${dst}" is not IP:PORT (use [v6]:PORT for IPv6)`);
  if (parseIp(src)!.family !== parseIp(to.host)!.family)
    return problem('dst', `${names.src} and ${names.dst} must be both IPv4 or both IPv6`);
  const proto = String(input.proto ?? 'tcp').toLowerCase();
  if (!(TRACE_PROTOCOLS as readonly string[]).includes(proto))
    return problem('proto', `${names.proto} must be one of ${TRACE_PROTOCOLS.join(', ')}`);
  const hook = String(input.hook ?? 'prerouting').toLowerCase();
  if (!(TRACE_HOOKS as readonly string[]).includes(hook))
    return problem('hook', `${names.hook} must be one of ${TRACE_HOOKS.join(', ')}`);
  for (const a of input.localAddresses ?? [])
    if (typeof a !== 'string' || !isIp(a))
      return problem('localAddresses', `${names.localAddresses}: "${a}" is not an IP address`);
  return {
    ok: true,
    packet: {
      src,
      dst: to.host,
      dport: to.port,
      proto: proto as TraceProtocol,
      hook: hook as TraceHook,
      ...(input.inIface ? { inIface: input.inIface } : {}),
      ...(input.localAddresses ? { localAddresses: [...input.localAddresses] } : {}),
    },
  };
}
