/** IPv4/IPv6 addresses and prefixes as numbers, for matching and validation. No I/O. */
export type IpFamily = 4 | 6;

export interface IpAddress {
  family: IpFamily;
  value: bigint;
}

export interface Cidr {
  family: IpFamily;
  base: bigint;
  prefix: number;
}

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export function parseIPv4(text: string): bigint | undefined {
  const m = V4.exec(text);
  if (!m) return undefined;
  // In a number first (32 bits fit exactly), one BigInt at the end: a BigInt per step was most of a list's cost.
  let v = 0;
  for (let i = 1; i <= 4; i++) {
    const n = Number(m[i]);
    if (n > 255 || (m[i].length > 1 && m[i][0] === '0')) return undefined;
    v = v * 256 + n;
  }
  return BigInt(v);
}

export function parseIPv6(text: string): bigint | undefined {
  let t = text;
  if (t.startsWith('[') && t.endsWith(']')) t = t.slice(1, -1);
  const zone = t.indexOf('%');
  if (zone >= 0) t = t.slice(0, zone);
  if (!/^[0-9a-fA-F:.]+$/.test(t) || !t.includes(':')) return undefined;
  const halves = t.split('::');
  if (halves.length > 2) return undefined;
  const toGroups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    const parts = s.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIPv4(p);
        if (v4 === undefined) return undefined;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return undefined;
        out.push(parseInt(p, 16));
      }
    }
    return out;
  };
  const head = toGroups(halves[0]);
  const tail = halves.length === 2 ? toGroups(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  let v = 0n;
  for (const g of groups) v = (v << 16n) | BigInt(g);
  return v;
}

export function parseIp(text: string): IpAddress | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = parseIPv6(text);
  if (v6 !== undefined) return { family: 6, value: v6 };
  return undefined;
}

export function isIp(text: string): boolean {
  return parseIp(text) !== undefined;
}

function bits(family: IpFamily): number {
  return family === 4 ? 32 : 128;
}

/** Parses `10.0.0.0/8`, `10.0.0.1` (a /32), `fd00::/64`, or an iptables netmask form `10.0.0.0/255.0.0.0`. */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  const addr = parseIp(slash >= 0 ? text.slice(0, slash) : text);
  if (!addr) return undefined;
  const width = bits(addr.family);
  let prefix = width;
  if (slash >= 0) {
    const p = text.slice(slash + 1);
    if (/^\d{1,3}$/.test(p)) prefix = Number(p);
    else {
      const mask = addr.family === 4 ? parseIPv4(p) : parseIPv6(p);
      if (mask === undefined) return undefined;
      prefix = maskToPrefix(mask, width);
      if (prefix < 0) return undefined;
    }
    if (prefix > width) return undefined;
  }
  return { family: addr.family, base: addr.value & prefixMask(prefix, width), prefix };
}

function prefixMask(prefix: number, width: number): bigint {
  if (prefix === 0) return 0n;
  return ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
}

function maskToPrefix(mask: bigint, width: number): number {
  for (let p = 0; p <= width; p++) if (prefixMask(p, width) === mask) return p;
  return -1;
}

export function cidrContains(cidr: Cidr, ip: IpAddress): boolean {
  if (cidr.family !== ip.family) return false;
  return (ip.value & prefixMask(cidr.prefix, bits(cidr.family))) === cidr.base;
}

/** True when `ipText` lies inside `cidrText`; false when either does not parse. */
export function inCidr(ipText: string, cidrText: string): boolean {
  const c = parseCidr(cidrText);
  const a = parseIp(ipText);
  return !!c && !!a && cidrContains(c, a);
}

export function formatIp(addr: IpAddress): string {
  if (addr.family === 4) {
    const v = addr.value;
    return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');
  }
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((addr.value >> BigInt(i * 16)) & 0xffffn).toString(16));
  // Compress the longest run of zero groups, as RFC 5952 asks.
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen && j - i > 1) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/**
 * `ip:port`, with brackets around an IPv6 address (`[fd00::1]:53`, as Go's net.JoinHostPort and ipvsadm write it);
 * the bare host when there is no port. `fd00::1:53` would read as another address.
 */
export function joinHostPort(host: string, port: number | string | undefined): string {
  if (port === undefined) return host;
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Splits `ip:port`, `[v6]:port` or a bare ip; the port is undefined when absent. */
export function splitHostPort(text: string): { host: string; port?: number } | undefined {
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracket) return { host: bracket[1], port: bracket[2] === undefined ? undefined : Number(bracket[2]) };
  const colons = text.split(':').length - 1;
  if (colons === 1) {
    const [host, port] = text.split(':');
    if (!/^\d+$/.test(port)) return undefined;
    return { host, port: Number(port) };
  }
  return { host: text };
}

export function isValidPort(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= 65535;
}
