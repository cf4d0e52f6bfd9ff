/**
 * `ip addr` / `ip link` listings: interface headers (`3: eth0@if12: <BROADCAST,UP> mtu 1450 ...`), their detail
 * lines (`link/ether`, `inet`, `inet6`, `valid_lft`, `altname`), the one-line forms of `ip -o addr|link` and the
 * brief form of `ip -br addr|link`.
 */
import { formatIp, parseCidr, parseIp } from '../common/ip';
import type { Reporter } from './report';
import type { InterfaceAddress, NetworkInterface } from './types';
import { innerSpan, toInt, wordSpan, wordsSpan, type Word } from './words';

const HEADER_INDEX = /^\d+:$/;
const HEADER_NAME = /^[^:<>\s]+:$/;
const MAC = /^[0-9a-f]{2}(?::[0-9a-f]{2})+$/i;

/** Operational states `ip -br` prints in its second column. */
const BRIEF_STATES = new Set(['UP', 'DOWN', 'UNKNOWN', 'LOWERLAYERDOWN', 'DORMANT', 'NOTPRESENT', 'TESTING']);

/** Keys of the header line that take a value and get their own field. */
const HEADER_NUMBER_KEYS = new Set(['mtu', 'qlen']);
const HEADER_TEXT_KEYS = new Set(['qdisc', 'master', 'state', 'group', 'mode']);

/** Words an address line prints alone (everything else alone on an IPv4 line is its label). */
const ADDRESS_FLAGS = new Set([
  'secondary',
  'temporary',
  'primary',
  'dynamic',
  'mngtmpaddr',
  'noprefixroute',
  'autojoin',
  'tentative',
  'deprecated',
  'dadfailed',
  'optimistic',
  'home',
  'nodad',
  'stable-privacy',
  'permanent',
  'any',
]);
const ADDRESS_VALUE_KEYS = new Set(['peer', 'brd', 'scope', 'metric', 'proto', 'label']);

export function isInterfaceHeader(words: Word[]): boolean {
  return (
    words.length >= 3 &&
    HEADER_INDEX.test(words[0].text) &&
    HEADER_NAME.test(words[1].text) &&
    /^<.*>$/.test(words[2].text)
  );
}

/** `2: eth0    inet 10.0.2.15/24 ...` (ip -o addr) */
export function isOnelineAddressHead(words: Word[]): boolean {
  return (
    words.length >= 4 &&
    HEADER_INDEX.test(words[0].text) &&
    !words[1].text.endsWith(':') &&
    /^(?:inet6?|link\/\S+)$/.test(words[2].text)
  );
}

/** `eth0@if12   UP   10.244.1.5/24 fe80::1/64` or `eth0   UP   0a:58:... <BROADCAST,UP>` (ip -br) */
export function isBriefLine(words: Word[]): boolean {
  if (words.length < 2 || !BRIEF_STATES.has(words[1].text) || words[0].text.includes(':')) return false;
  const rest = words.slice(2).map((w) => w.text);
  if (rest.every((w) => parseCidr(w) !== undefined)) return true;
  const [mac, flags, ...more] = rest;
  return more.length === 0 && MAC.test(mac) && (flags === undefined || /^<.*>$/.test(flags));
}

function newInterface(nameWord: Word, nameText: string, first: Word, last: Word): NetworkInterface {
  const at = nameText.indexOf('@');
  const name = at > 0 ? nameText.slice(0, at) : nameText;
  const iface: NetworkInterface = {
    line: first.line,
    span: wordsSpan(first, last),
    name,
    flags: [],
    altnames: [],
    addresses: [],
    attributes: {},
    details: [],
    spans: { name: innerSpan(nameWord, 0, name.length) },
  };
  if (at > 0) {
    iface.peer = nameText.slice(at + 1);
    iface.spans.peer = innerSpan(nameWord, at + 1, iface.peer.length);
    const peerIndex = /^if(\d+)$/.exec(iface.peer);
    if (peerIndex) iface.peerIndex = Number(peerIndex[1]);
  }
  return iface;
}

/** Reads an interface header; the caller checked `isInterfaceHeader`. */
export function parseInterfaceHeader(words: Word[]): NetworkInterface {
  const nameWord = words[1];
  const iface = newInterface(nameWord, nameWord.text.slice(0, -1), words[0], words[words.length - 1]);
  iface.index = Number(words[0].text.slice(0, -1));
  iface.spans.index = innerSpan(words[0], 0, words[0].text.length - 1);
  const flagsWord = words[2];
  iface.flags = flagsWord.text
    .slice(1, -1)
    .split(',')
    .filter((f) => f !== '');
  iface.spans.flags = wordSpan(flagsWord);
  for (let i = 3; i < words.length; i++) {
    const key = words[i].text;
    const value = words[i + 1];
    if (!value) {
      iface.attributes[key] = '';
      break;
    }
    i++;
    if (HEADER_NUMBER_KEYS.has(key) && toInt(value.text) !== undefined) {
      if (key === 'mtu') {
        iface.mtu = Number(value.text);
        iface.spans.mtu = wordSpan(value);
      } else iface.qlen = Number(value.text);
    } else if (HEADER_TEXT_KEYS.has(key)) {
      if (key === 'qdisc') iface.qdisc = value.text;
      else if (key === 'master') {
        iface.master = value.text;
        iface.spans.master = wordSpan(value);
      } else if (key === 'state') {
        iface.state = value.text;
        iface.spans.state = wordSpan(value);
      } else if (key === 'group') iface.group = value.text;
      else iface.mode = value.text;
    } else iface.attributes[key] = value.text;
  }
  return iface;
}

/** The interface named by an `ip -o addr` line; its detail words start at index 2. */
export function parseOnelineAddressHead(words: Word[]): NetworkInterface {
  const iface = newInterface(words[1], words[1].text, words[0], words[1]);
  iface.index = Number(words[0].text.slice(0, -1));
  iface.spans.index = innerSpan(words[0], 0, words[0].text.length - 1);
  return iface;
}

/** An `ip -br addr|link` line as an interface with its addresses. The caller checked `isBriefLine`. */
export function parseBriefLine(words: Word[]): NetworkInterface {
  const iface = newInterface(words[0], words[0].text, words[0], words[words.length - 1]);
  iface.state = words[1].text;
  iface.spans.state = wordSpan(words[1]);
  for (const w of words.slice(2)) {
    if (w.text.startsWith('<')) {
      iface.flags = w.text
        .slice(1, -1)
        .split(',')
        .filter((f) => f !== '');
      iface.spans.flags = wordSpan(w);
    } else if (parseCidr(w.text)) {
      const addr = newAddress(iface.name, w, w, w);
      if (addr) iface.addresses.push(addr);
    } else {
      iface.mac = w.text;
      iface.spans.mac = wordSpan(w);
    }
  }
  return iface;
}

/**
 * Reads one detail line of an interface block into `iface`. Returns false when the line is not a detail line
 * this parser knows (the caller keeps it verbatim).
 */
export function parseInterfaceDetail(words: Word[], iface: NetworkInterface, reporter: Reporter): boolean {
  const head = words[0]?.text ?? '';
  if (head.startsWith('link/')) {
    readLinkLine(words, iface);
    return true;
  }
  if (head === 'inet' || head === 'inet6') {
    readAddressLine(words, iface, reporter);
    return true;
  }
  if (head === 'valid_lft' || head === 'preferred_lft') {
    const addr = iface.addresses[iface.addresses.length - 1];
    if (!addr) {
      reporter.report('routes-addr-outside-interface', 'warning', wordsSpan(words[0], words[words.length - 1]), {
        word: head,
      });
      return true;
    }
    for (let i = 0; i + 1 < words.length; i += 2) {
      if (words[i].text === 'valid_lft') addr.validLft = words[i + 1].text;
      else if (words[i].text === 'preferred_lft') addr.preferredLft = words[i + 1].text;
    }
    return true;
  }
  if (head === 'altname' && words[1]) {
    iface.altnames.push(words[1].text);
    return true;
  }
  return false;
}

/** True for detail lines a block can only continue with (so they attach even without indentation). */
export function isDetailHead(word: string): boolean {
  return word.startsWith('link/') || word === 'inet' || word === 'inet6' || word === 'valid_lft' || word === 'altname';
}

function readLinkLine(words: Word[], iface: NetworkInterface): void {
  iface.linkType = words[0].text.slice('link/'.length);
  let i = 1;
  if (words[i] && !/^(?:brd|peer|link-netnsid|link-netns|permaddr)$/.test(words[i].text)) {
    iface.mac = words[i].text;
    iface.spans.mac = wordSpan(words[i]);
    i++;
  }
  for (; i + 1 < words.length; i += 2) {
    const key = words[i].text;
    const value = words[i + 1].text;
    if (key === 'brd') iface.linkBroadcast = value;
    else if (key === 'link-netnsid') iface.linkNetnsId = value;
    else iface.attributes[key] = value;
  }
}

function readAddressLine(words: Word[], iface: NetworkInterface, reporter: Reporter): void {
  const addrWord = words[1];
  if (!addrWord) {
    reporter.report('routes-addr-bad-address', 'warning', wordSpan(words[0]), { value: '' });
    return;
  }
  const family: 4 | 6 = words[0].text === 'inet6' ? 6 : 4;
  const values: Record<string, Word> = {};
  const loose: Word[] = [];
  for (let i = 2; i < words.length; i++) {
    const w = words[i];
    if (ADDRESS_VALUE_KEYS.has(w.text) && words[i + 1]) {
      values[w.text] = words[i + 1];
      i++;
    } else loose.push(w);
  }
  const peer = values.peer?.text;
  const addr = newAddress(iface.name, addrWord, words[0], words[words.length - 1], peer);
  if (!addr || addr.family !== family) {
    reporter.report('routes-addr-bad-address', 'warning', wordSpan(addrWord), { value: addrWord.text });
    return;
  }
  if (values.peer) addr.spans.peer = wordSpan(values.peer);
  if (values.brd) {
    addr.broadcast = values.brd.text;
    addr.spans.broadcast = wordSpan(values.brd);
  }
  if (values.scope) {
    addr.scope = values.scope.text;
    addr.spans.scope = wordSpan(values.scope);
  }
  for (const key of ['metric', 'proto']) if (values[key]) addr.attributes[key] = values[key].text;
  let labelWord = values.label;
  const last = loose[loose.length - 1];
  if (!labelWord && family === 4 && last && !ADDRESS_FLAGS.has(last.text)) {
    labelWord = last;
    loose.pop();
  }
  if (labelWord) {
    addr.label = labelWord.text;
    addr.spans.label = wordSpan(labelWord);
  }
  addr.flags = loose.map((w) => w.text);
  iface.addresses.push(addr);
}

/** `10.0.0.5/24` (or `10.0.0.1` with a `peer 10.0.0.2/32`) as an address of `ifaceName`. */
function newAddress(
  ifaceName: string,
  addrWord: Word,
  first: Word,
  last: Word,
  peer?: string,
): InterfaceAddress | undefined {
  const slash = addrWord.text.indexOf('/');
  const addressText = slash >= 0 ? addrWord.text.slice(0, slash) : addrWord.text;
  const ip = parseIp(addressText);
  if (!ip) return undefined;
  const peerCidr = peer !== undefined ? parseCidr(peer) : undefined;
  const prefixText = slash >= 0 ? addrWord.text.slice(slash + 1) : undefined;
  const prefixLength =
    prefixText !== undefined ? toInt(prefixText) : (peerCidr?.prefix ?? (ip.family === 4 ? 32 : 128));
  if (prefixLength === undefined || prefixLength > (ip.family === 4 ? 32 : 128)) return undefined;
  const network = parseCidr(`${addressText}/${prefixLength}`);
  if (!network) return undefined;
  const addr: InterfaceAddress = {
    line: first.line,
    span: wordsSpan(first, last),
    interface: ifaceName,
    family: ip.family,
    address: addressText,
    prefixLength,
    network: `${formatIp({ family: network.family, value: network.base })}/${prefixLength}`,
    flags: [],
    attributes: {},
    spans: { address: innerSpan(addrWord, 0, addressText.length) },
  };
  if (peer !== undefined) addr.peer = peer;
  return addr;
}
