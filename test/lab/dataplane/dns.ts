/**
 * The lab's cluster DNS: the records a kube-dns would hold for a scenario, and a minimal DNS message responder
 * (RFC 1035 wire format; A records only, NODATA for other types of known names). Pure: no sockets here.
 */
import type { LabPlan } from './plan';

export interface DnsZone {
  /** The cluster domain, e.g. `cluster.local`. */
  domain: string;
  /** Lowercase names without the trailing dot -> IPv4 addresses. */
  a: Record<string, string[]>;
}

export function clusterDnsZone(plan: LabPlan): DnsZone {
  const domain = plan.scenario.clusterDomain.toLowerCase();
  const a: Record<string, string[]> = {};
  for (const s of plan.services)
    a[`${s.service.name}.${s.service.namespace}.svc.${domain}`] =
      // A headless Service's name answers with its ready endpoints, as kube-dns does.
      s.service.clusterIP === 'None' ? s.endpoints.filter((e) => e.ready).map((e) => e.pod.ip) : [s.service.clusterIP];
  for (const p of plan.pods) a[`${p.pod.ip.replace(/\./g, '-')}.${p.pod.namespace}.pod.${domain}`] = [p.pod.ip];
  return { domain, a };
}

const TYPE_A = 1;
const TYPE_ANY = 255;
const RCODE = { noError: 0, formErr: 1, servFail: 2, nxDomain: 3, notImp: 4 } as const;
const TTL_SECONDS = 5;

interface Question {
  name: string;
  type: number;
  klass: number;
  /** The question section's bytes, echoed in the answer. */
  raw: Buffer;
}

function readQuestion(msg: Buffer): Question | undefined {
  let offset = 12;
  const labels: string[] = [];
  for (;;) {
    if (offset >= msg.length) return undefined;
    const len = msg[offset];
    if (len === 0) {
      offset++;
      break;
    }
    if (len > 63 || offset + 1 + len > msg.length) return undefined; // compression pointers never appear in a question
    labels.push(msg.toString('latin1', offset + 1, offset + 1 + len));
    offset += 1 + len;
  }
  if (offset + 4 > msg.length) return undefined;
  return {
    name: labels.join('.').toLowerCase(),
    type: msg.readUInt16BE(offset),
    klass: msg.readUInt16BE(offset + 2),
    raw: msg.subarray(12, offset + 4),
  };
}

function header(id: number, queryFlags: number, rcode: number, qd: number, an: number): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt16BE(id, 0);
  const opcode = queryFlags & 0x7800;
  const rd = queryFlags & 0x0100;
  h.writeUInt16BE(0x8000 | opcode | 0x0400 /* AA */ | rd | 0x0080 /* RA */ | rcode, 2);
  h.writeUInt16BE(qd, 4);
  h.writeUInt16BE(an, 6);
  return h;
}

function aRecord(ip: string): Buffer {
  const rr = Buffer.alloc(16);
  rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
  rr.writeUInt16BE(TYPE_A, 2);
  rr.writeUInt16BE(1, 4); // IN
  rr.writeUInt32BE(TTL_SECONDS, 6);
  rr.writeUInt16BE(4, 10);
  ip.split('.').forEach((octet, i) => rr.writeUInt8(Number(octet), 12 + i));
  return rr;
}

/** The answer to one DNS query message, or undefined when it is not worth answering (too short, a response). */
export function answerDnsQuery(query: Buffer, zone: DnsZone): Buffer | undefined {
  if (query.length < 12) return undefined;
  const id = query.readUInt16BE(0);
  const flags = query.readUInt16BE(2);
  if (flags & 0x8000) return undefined;
  if ((flags & 0x7800) !== 0) return header(id, flags, RCODE.notImp, 0, 0);
  const q = query.readUInt16BE(4) === 1 ? readQuestion(query) : undefined;
  if (!q) return header(id, flags, RCODE.formErr, 0, 0);

  const addresses = zone.a[q.name];
  let rcode: number = RCODE.noError;
  const answers: Buffer[] = [];
  if (addresses) {
    if (q.type === TYPE_A || q.type === TYPE_ANY) answers.push(...addresses.map(aRecord));
  } else if (q.name === zone.domain || q.name.endsWith(`.${zone.domain}`)) {
    // Names above a record (e.g. `svc.cluster.local`) exist without data; anything else does not exist.
    const isAncestor = Object.keys(zone.a).some((n) => n.endsWith(`.${q.name}`));
    if (!isAncestor) rcode = RCODE.nxDomain;
  } else {
    // No upstream resolver inside the lab, as a cluster DNS that cannot forward answers.
    rcode = RCODE.servFail;
  }
  return Buffer.concat([header(id, flags, rcode, 1, answers.length), q.raw, ...answers]);
}

/** Splits a TCP stream into DNS messages (2-byte length prefix); returns the messages and the unread rest. */
export function splitTcpMessages(buffer: Buffer): { messages: Buffer[]; rest: Buffer } {
  const messages: Buffer[] = [];
  let offset = 0;
  while (buffer.length - offset >= 2) {
    const len = buffer.readUInt16BE(offset);
    if (buffer.length - offset - 2 < len) break;
    messages.push(buffer.subarray(offset + 2, offset + 2 + len));
    offset += 2 + len;
  }
  return { messages, rest: buffer.subarray(offset) };
}

export function frameTcpMessage(msg: Buffer): Buffer {
  const len = Buffer.alloc(2);
  len.writeUInt16BE(msg.length, 0);
  return Buffer.concat([len, msg]);
}
