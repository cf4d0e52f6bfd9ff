/** Parsers for rule option values (ports, marks, address lists, NAT targets). They return undefined, never throw. */
import { formatIp, parseCidr, parseIp, type IpFamily } from '../../common/ip';
import { servicePort } from '../../common/services';

export interface AddressBlock {
  family: IpFamily;
  base: bigint;
  mask: bigint;
}

function maskOf(prefix: number, width: number): bigint {
  if (prefix === 0) return 0n;
  return ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
}

/** `10.0.0.0/8`, `1.2.3.4`, a comma list of them, or a netmask form. */
export function parseAddressList(text: string): AddressBlock[] | undefined {
  const out: AddressBlock[] = [];
  for (const part of text.split(',')) {
    const c = parseCidr(part.trim());
    if (!c) return undefined;
    out.push({ family: c.family, base: c.base, mask: maskOf(c.prefix, c.family === 4 ? 32 : 128) });
  }
  return out.length > 0 ? out : undefined;
}

export function blockContains(b: AddressBlock, family: IpFamily, value: bigint): boolean {
  return b.family === family && (value & b.mask) === b.base;
}

/** A single host address (a /32 or /128) when the list is exactly that; used by the chain index. */
export function singleHost(blocks: AddressBlock[]): bigint | undefined {
  if (blocks.length !== 1) return undefined;
  const b = blocks[0];
  const full = maskOf(b.family === 4 ? 32 : 128, b.family === 4 ? 32 : 128);
  return b.mask === full ? b.base : undefined;
}

/** Decimal or 0x-hex unsigned 32-bit number. */
export function parseU32(text: string): number | undefined {
  const s = text.trim();
  if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(s)) return undefined;
  const n = s.toLowerCase().startsWith('0x') ? parseInt(s, 16) : Number(s);
  return Number.isFinite(n) && n >= 0 && n <= 0xffffffff ? n : undefined;
}

/** `value[/mask]`; the mask defaults to all ones. */
export function parseValueMask(text: string): { value: number; mask: number } | undefined {
  const [v, m, extra] = text.split('/');
  if (extra !== undefined) return undefined;
  const value = parseU32(v);
  const mask = m === undefined ? 0xffffffff : parseU32(m);
  if (value === undefined || mask === undefined) return undefined;
  return { value, mask };
}

export interface PortRange {
  lo: number;
  hi: number;
}

/** A port number, or a service name as `iptables -L` prints and iptables accepts (`ssh`). */
function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return servicePort(text);
  const n = Number(text);
  return n <= 65535 ? n : undefined;
}

/** `80`, `1000:2000`, `:1024`, `1024:`, `ssh` (the `-` form multiport also accepts is rare but allowed). */
export function parsePortRange(text: string): PortRange | undefined {
  const s = text.trim();
  // A name may itself hold a `-` (`http-alt`, `ms-sql-s`): read it whole before splitting a range.
  const named = servicePort(s);
  if (named !== undefined) return { lo: named, hi: named };
  const sep = s.includes(':') ? ':' : s.includes('-') ? '-' : undefined;
  if (!sep) {
    const p = parsePort(s);
    return p === undefined ? undefined : { lo: p, hi: p };
  }
  const [a, b] = s.split(sep);
  const lo = a === '' ? 0 : parsePort(a);
  const hi = b === '' ? 65535 : parsePort(b);
  if (lo === undefined || hi === undefined) return undefined;
  return lo <= hi ? { lo, hi } : { lo: hi, hi: lo };
}

export function parsePortList(text: string): PortRange[] | undefined {
  const out: PortRange[] = [];
  for (const part of text.split(',')) {
    const r = parsePortRange(part);
    if (!r) return undefined;
    out.push(r);
  }
  return out.length > 0 ? out : undefined;
}

export function portIn(ranges: PortRange[], port: number): boolean {
  for (const r of ranges) if (port >= r.lo && port <= r.hi) return true;
  return false;
}

export interface NatTo {
  /** Undefined when only a port is given (`--to-destination :8080`). */
  ip?: string;
  ipValue?: bigint;
  port?: number;
  /** The value named a range; the tracer takes its first address/port. */
  ranged: boolean;
}

/** `ip`, `ip:port`, `ip1-ip2:port1-port2`, `[v6]:port`, `:port`, a bare v6 address. */
export function parseNatTo(text: string, family: IpFamily): NatTo | undefined {
  let hostPart = text.trim();
  let portPart: string | undefined;
  const bracket = /^\[([^\]]+)\](?::(.+))?$/.exec(hostPart);
  if (bracket) {
    hostPart = bracket[1];
    portPart = bracket[2];
  } else if (family === 4 || hostPart.startsWith(':')) {
    const colon = hostPart.indexOf(':');
    if (colon >= 0) {
      portPart = hostPart.slice(colon + 1);
      hostPart = hostPart.slice(0, colon);
    }
  }
  let ranged = false;
  let ip: string | undefined;
  let ipValue: bigint | undefined;
  if (hostPart !== '') {
    const dash = hostPart.indexOf('-');
    const first = dash >= 0 ? hostPart.slice(0, dash) : hostPart;
    if (dash >= 0) ranged = true;
    const parsed = parseIp(first);
    if (!parsed || parsed.family !== family) return undefined;
    ip = formatIp(parsed);
    ipValue = parsed.value;
  }
  let port: number | undefined;
  if (portPart !== undefined && portPart !== '') {
    const r = parsePortRange(portPart);
    if (!r) return undefined;
    if (r.lo !== r.hi) ranged = true;
    port = r.lo;
  }
  if (ip === undefined && port === undefined) return undefined;
  return { ip, ipValue, port, ranged };
}

/** `a.b.c.d-e.f.g.h` of the iprange match. */
export function parseIpRange(text: string): { family: IpFamily; lo: bigint; hi: bigint } | undefined {
  const [a, b, extra] = text.split('-');
  if (extra !== undefined) return undefined;
  const lo = parseIp(a.trim());
  const hi = b === undefined ? lo : parseIp(b.trim());
  if (!lo || !hi || lo.family !== hi.family) return undefined;
  return { family: lo.family, lo: lo.value, hi: hi.value };
}
