/**
 * What a node's dumps say, read with the project's engines (`analyzeText`: iptables-save -c, `nft list ruleset`,
 * `ipvsadm -Ln --stats`), never with ad-hoc regexes: kube-proxy's mode, and the packet counters of one Service
 * port's rules.
 */
import { analyzeText, type Analysis } from '../analyze';
import { joinHostPort, parseCidr, parseIp } from '../common/ip';
import type { IptablesModel } from '../iptables/model';
import { displayRuleText, optionValue, ruleTargetName, type Rule } from '../iptables/dump';
import type { IpvsDump } from '../ipvs/types';
import type { ServiceInfo, ServicePortSpec } from '../kube/types';
import { NODE_RULE_CHECK_IDS, serviceClusterIPs, type ProxyMode } from './node';
import { safeIp } from './plan';
import type { CheckResult, RuleCounter } from './types';

/**
 * kube-proxy's mode from the mode-less capture: IPVS when ipvsadm lists virtual services (or the iptables rules
 * are IPVS-mode's), nftables when `nft` shows kube-proxy's own table, iptables when KUBE-SERVICES has Service rules.
 * Also returns the text to keep as the dump (`before`). Undefined mode: no kube-proxy rules were found.
 */
export function nodeModeOf(results: readonly CheckResult[]): { mode?: ProxyMode; dump?: string } {
  const out = (id: string) => {
    const r = results.find((x) => x.id === id);
    return r && r.exitCode === 0 && r.stdout.trim() ? r.stdout : undefined;
  };
  const ipt = out(NODE_RULE_CHECK_IDS.iptables);
  const ipvs = out(NODE_RULE_CHECK_IDS.ipvs);
  const nft = out(NODE_RULE_CHECK_IDS.nftables);
  const iptMode = ipt ? analyzeText(ipt).iptables?.kube.mode : undefined;
  if (ipvs && (analyzeText(ipvs).ipvs?.services.length ?? 0) > 0 && iptMode !== 'iptables')
    return { mode: 'ipvs', dump: ipvs };
  if (iptMode === 'iptables') return { mode: 'iptables', dump: ipt };
  if (nft && /^table\s+(ip|ip6|inet)\s+kube-proxy\s*\{/m.test(nft)) return { mode: 'nftables', dump: nft };
  if (iptMode === 'ipvs' && ipvs) return { mode: 'ipvs', dump: ipvs };
  return ipt ? { dump: ipt } : nft ? { dump: nft } : {};
}

/** Whether an iptables address option (`172.16.0.1/32`, `172.16.0.1`) is exactly this one address. */
function isExactly(value: string | undefined, ip: string): boolean {
  if (!value) return false;
  const c = parseCidr(value);
  const a = parseIp(ip);
  return !!c && !!a && c.family === a.family && c.base === a.value && c.prefix === (a.family === 4 ? 32 : 128);
}

function portMatches(rule: Rule, port: number): boolean {
  const v = optionValue(rule, 'dport') ?? optionValue(rule, 'destination-port');
  return v !== undefined && Number(v) === port;
}

function protoMatches(rule: Rule, proto: string): boolean {
  const v = optionValue(rule, 'protocol');
  return v === undefined || v.toLowerCase() === proto;
}

function counter(rule: Rule, role: RuleCounter['role']): RuleCounter | undefined {
  if (!rule.counters) return undefined;
  return {
    line: rule.line + 1,
    table: rule.table,
    chain: rule.chain,
    rule: displayRuleText(rule),
    packets: rule.counters.packets,
    bytes: rule.counters.bytes,
    ...(role ? { role } : {}),
  };
}

/** The Service's entry rules in an iptables(-nft) model: KUBE-SERVICES rules for ClusterIP:port (nat and filter). */
export function serviceEntryRules(model: IptablesModel, service: ServiceInfo, port: ServicePortSpec): Rule[] {
  const ips = serviceClusterIPs(service);
  const proto = port.protocol.toLowerCase();
  const out: Rule[] = [];
  for (const chain of model.chainsNamed('KUBE-SERVICES')) {
    for (const r of chain.rules) {
      const dst = optionValue(r, 'destination');
      if (ips.some((ip) => isExactly(dst, ip)) && portMatches(r, port.port) && protoMatches(r, proto)) out.push(r);
    }
  }
  return out;
}

function iptablesCounters(model: IptablesModel, service: ServiceInfo, port: ServicePortSpec): RuleCounter[] {
  const out: RuleCounter[] = [];
  const seenChains = new Set<string>();
  const entries = serviceEntryRules(model, service, port);
  // The nat KUBE-SERVICES rule first: it is the one the verdict quotes.
  entries.sort((a, b) => Number(b.table === 'nat') - Number(a.table === 'nat') || a.line - b.line);
  const follow = (table: string, name: string, role: RuleCounter['role']) => {
    if (seenChains.has(`${table}/${name}`)) return;
    seenChains.add(`${table}/${name}`);
    const chain = model.chain(table, name);
    if (!chain) return;
    for (const r of chain.rules) {
      const c = counter(r, role);
      if (c) out.push(c);
      const target = ruleTargetName(r);
      if (target && /^KUBE-SEP-/.test(target)) follow(table, target, 'endpoint');
    }
  };
  for (const r of entries) {
    const target = ruleTargetName(r) ?? '';
    const c = counter(
      r,
      r.table === 'nat' ? (/^KUBE-(SVC|SVL|EXT|FW)-/.test(target) ? 'service' : 'service-other') : 'no-endpoints',
    );
    if (c) out.push(c);
    if (r.table === 'nat' && /^KUBE-(SVC|SVL)-/.test(target)) follow('nat', target, 'service-chain');
  }
  // kube-proxy's nftables mode: Services live in maps; the service's own chains hold the rules (counters when any).
  if (entries.length === 0 && model.kube.mode === 'nftables') {
    const ips = serviceClusterIPs(service);
    for (const s of model.kube.services) {
      if (!s.clusterIP || !ips.includes(safeIp(s.clusterIP) ?? '') || s.port !== port.port) continue;
      if (s.protocol && s.protocol.toLowerCase() !== port.protocol.toLowerCase()) continue;
      for (const line of s.lines) {
        const r = model.ruleAtLine(line);
        const c = r && counter(r, 'service-chain');
        if (c) out.push(c);
      }
    }
  }
  return out;
}

function ipvsCounters(dump: IpvsDump, service: ServiceInfo, port: ServicePortSpec): RuleCounter[] {
  const ips = serviceClusterIPs(service);
  const out: RuleCounter[] = [];
  for (const vs of dump.services) {
    if (!vs.address || vs.port !== port.port || vs.protocol.toUpperCase() !== port.protocol) continue;
    if (!ips.includes(safeIp(vs.address) ?? '')) continue;
    if (vs.stats) {
      out.push({
        line: vs.line + 1,
        chain: 'IPVS',
        rule: `${vs.protocol} ${joinHostPort(vs.address, vs.port)}`,
        packets: vs.stats.inPkts,
        bytes: vs.stats.inBytes,
        role: 'ipvs-service',
      });
    }
    for (const rs of vs.realServers) {
      if (rs.stats)
        out.push({
          line: rs.line + 1,
          chain: 'IPVS',
          rule: `-> ${joinHostPort(rs.address, rs.port)}`,
          packets: rs.stats.inPkts,
          bytes: rs.stats.inBytes,
          role: 'ipvs-real-server',
        });
    }
  }
  return out;
}

/**
 * The packet counters of the rules that carry the Service port's ClusterIP traffic, in dump order per chain:
 * the nat KUBE-SERVICES rule for ClusterIP:port first (role `service`), then its KUBE-SVC chain (`service-chain`)
 * and KUBE-SEP chains (`endpoint`), and the filter table's "has no endpoints" REJECT (`no-endpoints`); for an IPVS
 * dump the virtual service's InPkts (`ipvs-service`) and its real servers'. Rules printed without counters are left
 * out. Lines are 1-based.
 */
export function ruleCounters(dump: string, service: ServiceInfo, port: ServicePortSpec): RuleCounter[] {
  if (!dump.trim()) return [];
  // `nft list ruleset` of a dual-stack node: the tables of the Service's family.
  const packetFamily = parseIp(service.clusterIP)?.family;
  return ruleCountersOf(analyzeText(dump, undefined, { packetFamily }), service, port);
}

/** `ruleCounters` of a dump the caller has already read with `analyzeText`. */
export function ruleCountersOf(a: Analysis, service: ServiceInfo, port: ServicePortSpec): RuleCounter[] {
  if (a.ipvs) return ipvsCounters(a.ipvs, service, port);
  if (a.iptables) return iptablesCounters(a.iptables, service, port);
  return [];
}
