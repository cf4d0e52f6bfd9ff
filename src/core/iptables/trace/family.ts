/**
 * Whether a packet of one IP family can pass a dump's rules at all. The kernel keeps IPv4 and IPv6 rules apart:
 * iptables' tables see IPv4 packets only, ip6tables' IPv6 packets only, so an IPv6 packet "traced" through an
 * `iptables-save` dump walks rules it never meets. The dump's family is known when its header names the tool or a
 * rule holds an address; nft rulesets are left alone (an `inet` table sees both families).
 */
import type { IpFamily } from '../../common/ip';
import { forEachOptionName, type IptablesDump, type Rule } from '../dump';
import { msg } from './message';
import type { TraceMessage } from './types';

/** The tool whose rules packets of a family pass. */
function toolOf(family: IpFamily): string {
  return family === 6 ? 'ip6tables' : 'iptables';
}

/**
 * Whether the dump is an nft ruleset read for the other family whose tables of `family` were skipped (the parser
 * says so, `nft-table-skipped`): reading it again for `family` traces such a packet through its own tables.
 */
export function nftSkipsFamily(dump: IptablesDump, family: IpFamily): boolean {
  if (dump.format !== 'nft' || dump.family === family) return false;
  const name = family === 6 ? 'ip6' : 'ip';
  return dump.diagnostics.some((d) => d.code === 'nft-table-skipped' && d.params?.family === name);
}

/** The family of a NAT target (`10.0.0.1:80`, `[fd00::1]:80`, `fd00::1`); undefined when it has no address. */
function natFamily(value: string): IpFamily | undefined {
  if (value.startsWith('[') || value.indexOf(':') !== value.lastIndexOf(':')) return 6;
  return /^\d/.test(value) ? 4 : undefined;
}

/** The family of a source or destination (`10.0.0.0/8`, `fd00::/8`), as the parser reads a dump's family. */
function addressFamily(value: string): IpFamily | undefined {
  return value === '' ? undefined : value.includes(':') ? 6 : 4;
}

/**
 * A packet whose family is not the dump's: `refuse` when the dump says it holds the other tool's rules (its header,
 * the first rule with an address, or a DNAT or SNAT target), so the packet never meets them; a warning only when
 * nothing says (a dump without header or addresses may be either tool's) or the dump is nft's. A rules file for both
 * tools (rules marked `-4` or `-6`) is read by each: its marked rules say nothing of the file's family, and the
 * packet is traced without a word when nothing unmarked says otherwise (the marked rules of the other family never
 * match it).
 */
export function familyProblem(
  dump: IptablesDump,
  packetFamily: IpFamily,
): { message: TraceMessage; refuse: boolean } | undefined {
  if (dump.family === packetFamily) return undefined;
  const params = {
    packet: packetFamily,
    dump: dump.family,
    dumpTool: toolOf(dump.family),
    packetTool: toolOf(packetFamily),
  };
  if (dump.format === 'nft') return { message: msg('warn.family-mismatch', params), refuse: false };
  const header = dump.headers.find((h) => /^ip6?tables/.test(h.tool));
  if (header && header.tool.startsWith('ip6tables') === (dump.family === 6))
    return { message: msg('warn.other-family.header', { ...params, tool: header.tool }), refuse: true };
  let forBothTools = false;
  for (const r of dump.rules) {
    const { family: seen, marked } = ruleFamily(r);
    if (marked) {
      forBothTools = true;
      continue;
    }
    if (seen === undefined) continue;
    if (seen !== packetFamily) return { message: msg('warn.other-family.address', params), refuse: true };
    if (forBothTools) return undefined;
    // A NAT target of the packet's family where the parser read none: the warning of old, traced.
    return { message: msg('warn.family-mismatch', params), refuse: false };
  }
  return forBothTools ? undefined : { message: msg('warn.family-unknown', params), refuse: false };
}

/** The family a rule's first address or NAT target says, and whether the rule is marked `-4` or `-6`. */
function ruleFamily(rule: Rule): { family: IpFamily | undefined; marked: boolean } {
  let family: IpFamily | undefined;
  let marked = false;
  forEachOptionName(rule, (module, name, option) => {
    if (module === '' && (name === 'ipv4' || name === 'ipv6')) marked = true;
    else if (family !== undefined) return;
    else if (module === '' && (name === 'source' || name === 'destination'))
      family = addressFamily(option().values[0] ?? '');
    else if (module === null && (name === 'to-destination' || name === 'to-source'))
      family = natFamily(option().values[0] ?? '');
  });
  return { family, marked };
}
