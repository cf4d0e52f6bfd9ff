/**
 * `ipset list` blocks (`Name:`, `Type:`, `Revision:`, `Header:`, `Size in memory:`, `References:`,
 * `Number of entries:`, `Members:` then one member per line) and `ipset save` lines (`create` / `add`).
 */
import type { Span } from '../common/diagnostics';
import { parseCidr } from '../common/ip';
import { kubeProxySetInfo } from './kubeIpsets';
import type { Reporter } from './report';
import type { IpSet, IpSetHeader, IpSetMember } from './types';
import { splitWords, toInt, wordSpan, wordsSpan, type Segment, type Word } from './words';

const FIELD = /^([A-Z][A-Za-z ]*?):(?:\s+(.*))?$/;
const KNOWN_FIELDS = new Set([
  'Name',
  'Type',
  'Revision',
  'Header',
  'Size in memory',
  'References',
  'Number of entries',
  'Members',
]);

/** Header words printed without a value. */
const HEADER_FLAGS = new Set(['comment', 'counters', 'skbinfo', 'forceadd', 'nomatch']);
/** Member options printed without a value. */
const MEMBER_FLAGS = new Set(['nomatch']);

const MAC = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/i;
/** `tcp:443`, `udp:53`, `icmp:echo-request`, `icmp:8/0`, or a bare `30080` (bitmap:port). Names need a protocol. */
const PORT = /^(?:([a-z][a-z0-9]*):(\d{1,5}(?:-\d{1,5})?|[a-z][\w-]*|\d+\/\d+)|(\d{1,5}(?:-\d{1,5})?))$/i;

type Dimension = 'ip' | 'net' | 'port' | 'mac' | 'iface' | 'mark' | 'set';

export class IpsetReader {
  private current?: IpSet;
  private inMembers = false;
  private membersSeen = false;
  private entriesSpan?: Span;
  /** The last set read under each name, for `add` lines: searching the sets read so far made a save quadratic. */
  private readonly lastByName = new Map<string, IpSet>();

  constructor(
    private readonly reporter: Reporter,
    private readonly out: IpSet[],
  ) {}

  /** True while inside a set block, so its lines win over other readings. */
  get active(): boolean {
    return this.current !== undefined;
  }

  /** Tries to read the line as part of an ipset listing. Returns true when consumed. */
  accept(seg: Segment, words: Word[]): boolean {
    const field = FIELD.exec(seg.text);
    if (field && field[1] === 'Name') {
      this.startSet(seg, words, field[2] ?? '');
      return true;
    }
    if (words[0]?.text === 'create' && words.length >= 3) {
      this.startSaved(words);
      return true;
    }
    if (words[0]?.text === 'add' && words.length >= 3) return this.addSaved(words);
    if (!this.current) return false;
    if (!this.inMembers && field) {
      this.applyField(seg, words, field[1], field[2] ?? '');
      return true;
    }
    if (this.inMembers) {
      const member = parseIpsetMember(words, this.current.type);
      if (member) {
        this.current.members.push(member);
        return true;
      }
      // A lone word with a comma or a leading digit is still a member, just a cut or wrong one.
      if (words.length === 1 && /,|^\d/.test(words[0].text)) {
        this.reporter.report('routes-ipset-bad-member', 'warning', wordSpan(words[0]), { value: words[0].text });
        return true;
      }
    }
    this.close();
    return false;
  }

  /** A blank line ends a member list. */
  blank(): void {
    if (this.inMembers) this.close();
  }

  /** Ends the current set (at the end of the text, or when other output starts). */
  close(): void {
    const set = this.current;
    if (
      set &&
      this.membersSeen &&
      set.numberOfEntries !== undefined &&
      set.numberOfEntries !== set.members.length &&
      this.entriesSpan
    ) {
      this.reporter.report('routes-ipset-count-mismatch', 'info', this.entriesSpan, {
        name: set.name,
        declared: set.numberOfEntries,
        listed: set.members.length,
      });
    }
    this.current = undefined;
    this.inMembers = false;
    this.membersSeen = false;
    this.entriesSpan = undefined;
  }

  private startSet(seg: Segment, words: Word[], name: string): void {
    this.close();
    const nameWord = words[1] ?? words[0];
    const set: IpSet = {
      line: seg.line,
      span: wordsSpan(words[0], words[words.length - 1]),
      name,
      header: { extra: {} },
      members: [],
      spans: { name: wordSpan(nameWord) },
    };
    const kube = kubeProxySetInfo(name);
    if (kube) set.kubeProxy = kube;
    this.out.push(set);
    this.lastByName.set(name, set);
    this.current = set;
  }

  private applyField(seg: Segment, words: Word[], key: string, value: string): void {
    const set = this.current as IpSet;
    const valueWords = words.slice(key.split(' ').length);
    if (!KNOWN_FIELDS.has(key)) {
      this.reporter.report('routes-ipset-unknown-field', 'info', wordsSpan(words[0], words[words.length - 1]), {
        field: key,
      });
      set.header.extra[key] = value;
      return;
    }
    const n = toInt(value);
    switch (key) {
      case 'Type':
        set.type = value;
        if (valueWords[0]) set.spans.type = wordSpan(valueWords[0]);
        break;
      case 'Revision':
        if (n !== undefined) set.revision = n;
        break;
      case 'Header':
        set.header = readHeader(valueWords);
        break;
      case 'Size in memory':
        if (n !== undefined) set.sizeInMemory = n;
        break;
      case 'References':
        if (n !== undefined) set.references = n;
        break;
      case 'Number of entries':
        if (n !== undefined) {
          set.numberOfEntries = n;
          this.entriesSpan = valueWords[0] ? wordSpan(valueWords[0]) : wordSpan(words[0]);
        }
        break;
      case 'Members':
        this.inMembers = true;
        this.membersSeen = true;
        break;
    }
  }

  /** `create KUBE-CLUSTER-IP hash:ip,port family inet hashsize 1024 maxelem 65536` */
  private startSaved(words: Word[]): void {
    this.close();
    const set: IpSet = {
      line: words[0].line,
      span: wordsSpan(words[0], words[words.length - 1]),
      name: words[1].text,
      type: words[2].text,
      header: readHeader(words.slice(3)),
      members: [],
      spans: { name: wordSpan(words[1]), type: wordSpan(words[2]) },
    };
    const kube = kubeProxySetInfo(set.name);
    if (kube) set.kubeProxy = kube;
    this.out.push(set);
    this.lastByName.set(set.name, set);
  }

  /** `add KUBE-CLUSTER-IP 10.96.0.1,tcp:443` */
  private addSaved(words: Word[]): boolean {
    const name = words[1].text;
    const set = this.lastByName.get(name);
    const member = parseIpsetMember(words.slice(2), set?.type);
    if (!member) {
      this.reporter.report('routes-ipset-bad-member', 'warning', wordsSpan(words[2], words[words.length - 1]), {
        value: words[2].text,
      });
      return true;
    }
    if (!set) {
      this.reporter.report('routes-ipset-member-outside-set', 'warning', wordSpan(words[1]), {
        value: `${name} ${member.text}`,
      });
      return true;
    }
    set.members.push(member);
    return true;
  }
}

function readHeader(words: Word[]): IpSetHeader {
  const header: IpSetHeader = { extra: {} };
  for (let i = 0; i < words.length; i++) {
    const key = words[i].text;
    if (HEADER_FLAGS.has(key) || i + 1 >= words.length) {
      header.extra[key] = '';
      continue;
    }
    const value = words[++i].text;
    const n = toInt(value);
    if (key === 'family') header.family = value;
    else if (key === 'hashsize' && n !== undefined) header.hashsize = n;
    else if (key === 'maxelem' && n !== undefined) header.maxelem = n;
    else if (key === 'timeout' && n !== undefined) header.timeout = n;
    else header.extra[key] = value;
  }
  return header;
}

/** The parts a member of `type` has: `hash:ip,port,ip` -> ip, port, ip. Undefined for unknown types. */
function dimensionsOf(type: string | undefined): Dimension[] | undefined {
  const m = /^(?:hash|bitmap|list):(.+)$/.exec(type ?? '');
  if (!m) return undefined;
  const dims = m[1].split(',');
  return dims.every((d) => ['ip', 'net', 'port', 'mac', 'iface', 'mark', 'set'].includes(d))
    ? (dims as Dimension[])
    : undefined;
}

function fits(element: string, dim: Dimension): boolean {
  switch (dim) {
    case 'ip':
    case 'net':
      return parseCidr(element) !== undefined || /^[\d.:a-f]+-[\d.:a-f]+$/i.test(element);
    case 'port':
      return PORT.test(element);
    case 'mac':
      return MAC.test(element);
    case 'mark':
      return /^(?:0x[0-9a-f]+|\d+)$/i.test(element);
    case 'iface':
    case 'set':
      return element !== '';
  }
}

/** Guesses the part of an element when the set type is unknown. */
function guessDimension(element: string): Dimension | undefined {
  if (parseCidr(element)) return 'ip';
  if (MAC.test(element)) return 'mac';
  if (PORT.test(element)) return 'port';
  return undefined;
}

/** Reads one member line; undefined when the words are not a member of a set of this type. */
export function parseIpsetMember(words: Word[], type: string | undefined): IpSetMember | undefined {
  const first = words[0];
  if (!first) return undefined;
  const elements = first.text.split(',');
  const known = dimensionsOf(type);
  let dims: Dimension[];
  if (known) {
    if (known.length !== elements.length || !elements.every((e, i) => fits(e, known[i]))) return undefined;
    dims = known;
  } else {
    const guessed = elements.map(guessDimension);
    if (guessed.some((d) => d === undefined)) return undefined;
    dims = guessed as Dimension[];
  }
  const member: IpSetMember = {
    line: first.line,
    span: wordsSpan(first, words[words.length - 1]),
    text: first.text,
    elements,
    options: readMemberOptions(words.slice(1)),
  };
  let addressSeen = false;
  elements.forEach((e, i) => {
    const dim = dims[i];
    if (dim === 'port' && member.port === undefined) {
      const m = PORT.exec(e);
      const written = m?.[2] ?? m?.[3];
      const port = toInt(written);
      if (m?.[1]) member.protocol = m[1];
      if (port !== undefined) member.port = port;
      else if (written) member.options.portName = written;
    } else if ((dim === 'ip' || dim === 'net') && !addressSeen) {
      member.address = e;
      addressSeen = true;
    } else if (member.second === undefined && dim !== 'port') member.second = e;
  });
  return member;
}

/** `timeout 300 packets 0 bytes 0 comment "a b" nomatch` */
function readMemberOptions(words: Word[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    const key = words[i].text;
    if (MEMBER_FLAGS.has(key) || i + 1 >= words.length) {
      out[key] = '';
      continue;
    }
    if (key === 'comment' && words[i + 1].text.startsWith('"')) {
      let j = i + 1;
      while (j < words.length - 1 && !(words[j].text.endsWith('"') && (j > i + 1 || words[j].text.length > 1))) j++;
      out.comment = words
        .slice(i + 1, j + 1)
        .map((w) => w.text)
        .join(' ')
        .replace(/^"|"$/g, '');
      i = j;
      continue;
    }
    out[key] = words[++i].text;
  }
  return out;
}

/** Member-looking words with no set around them (for the caller's diagnostic). */
export function looksLikeIpsetMember(seg: Segment): boolean {
  const words = splitWords(seg);
  return words.length === 1 && parseIpsetMember(words, undefined) !== undefined && words[0].text.includes(',');
}
