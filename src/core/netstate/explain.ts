/**
 * Explanations of network-state lines (`kpp explain` on an `ip route`, `ip route get`, `ip addr`, `conntrack -L`
 * or `ipset list` line), in the person's language. Each sentence says what the kernel does with the line's record.
 */
import type { Span } from '../common/diagnostics';
import { joinHostPort } from '../common/ip';
import { t, type Lang } from '../i18n/catalog';
import { addressProblem, linkProblem } from './lookup';
import type {
  ConntrackEntry,
  InterfaceAddress,
  IpSet,
  NetworkInterface,
  NetworkState,
  PolicyRule,
  Route,
  RouteGet,
} from './types';

export interface NetworkExplanation {
  markdown: string;
  span: Span;
}

/** `serviceOf` names the Service an address belongs to, when the same paste's rules say (a session). */
export function explainNetworkAt(
  state: NetworkState,
  line: number,
  lang: Lang,
  serviceOf?: (ip: string) => string | undefined,
): NetworkExplanation | undefined {
  const route = state.routes.find((r) => r.line === line);
  if (route) return { markdown: routeText(route, lang), span: route.span };
  const get = state.routeGets.find((g) => g.line === line);
  if (get) return { markdown: routeGetText(get, lang, serviceOf), span: get.span };
  const rule = state.policyRules.find((r) => r.line === line);
  if (rule) {
    // Where main is tried: its rule in this paste (same family), else the kernel's default 32766.
    const main = state.policyRules.find(
      (r) =>
        r.action === 'lookup' &&
        r.table === 'main' &&
        !r.not &&
        r.from === 'all' &&
        r.family === rule.family &&
        r.fwmark === undefined,
    );
    return { markdown: policyRuleText(rule, lang, main?.priority ?? 32766), span: rule.span };
  }
  const flow = state.conntrack.find((c) => c.line === line);
  if (flow) return { markdown: flowText(flow, lang), span: flow.span };
  for (const i of state.interfaces) {
    if (i.line === line) return { markdown: interfaceText(i, lang), span: i.span };
    const a = i.addresses.find((x) => x.line === line);
    if (a) return { markdown: addressText(i, a, lang), span: a.span };
  }
  for (const set of state.ipsets) {
    if (set.line === line) return { markdown: setText(set, lang), span: set.span };
    const m = set.members.find((x) => x.line === line);
    if (m) return { markdown: t(lang, 'routes.explain.set-member', { member: m.text, set: set.name }), span: m.span };
  }
  return undefined;
}

/**
 * A route's destination as the output wrote it (`default`, `10.0.0.0/8`), except for `route -n`, whose
 * Destination column leaves the prefix to the Genmask column: there the CIDR says it in one word.
 */
export function routeDestinationText(r: { source?: string; destinationText?: string; destination?: string }): string {
  return (r.source === 'route-n' ? r.destination : r.destinationText) ?? r.destination ?? '?';
}

function destinationOf(r: { source?: string; destinationText?: string; destination?: string }, lang: Lang): string {
  const d = routeDestinationText(r);
  return d === 'default' || d === '0.0.0.0/0' || d === '::/0'
    ? t(lang, 'routes.explain.default-destination')
    : `\`${d}\``;
}

function routeText(r: Route, lang: Lang): string {
  const destination = destinationOf(r, lang);
  let main: string;
  if (r.type === 'blackhole' || r.type === 'unreachable' || r.type === 'prohibit' || r.type === 'throw')
    main = t(lang, `routes.explain.route.${r.type}`, { destination });
  else if (r.type === 'local') main = t(lang, 'routes.explain.route.local', { destination });
  else if (r.nexthops.length) {
    const hops = r.nexthops.map((h) => `${h.gateway ?? '?'}${h.dev ? ` (${h.dev})` : ''}`).join(', ');
    main = t(lang, 'routes.explain.route.multipath', { destination, count: r.nexthops.length, hops });
  } else if (r.gateway)
    main = t(lang, 'routes.explain.route.via', { destination, gateway: r.gateway, dev: r.dev ?? '?' });
  // With net.ipv4.nexthop_compat_mode=0 the kernel dumps only the nexthop object's id, not where it points.
  else if (!r.dev && r.attributes.nhid !== undefined)
    main = t(lang, 'routes.explain.route.nhid', { destination, id: r.attributes.nhid });
  else main = t(lang, 'routes.explain.route.link', { destination, dev: r.dev ?? '?' });
  const extra = [
    r.src ? t(lang, 'routes.explain.source', { src: r.src }) : '',
    r.table === 'local'
      ? t(lang, 'routes.explain.table.local')
      : r.table !== 'main'
        ? t(lang, 'routes.explain.table', { table: r.table })
        : '',
    r.flags.includes('linkdown') ? t(lang, 'routes.explain.linkdown', { dev: r.dev ?? '?' }) : '',
  ].filter(Boolean);
  return sentences(lang, [main, ...extra]);
}

function routeGetText(g: RouteGet, lang: Lang, serviceOf?: (ip: string) => string | undefined): string {
  const destination = `\`${g.destination ?? '?'}\``;
  if (g.error) return t(lang, 'routes.explain.get.error', { destination, error: g.error });
  if (g.type === 'local') return t(lang, 'routes.explain.get.local', { destination });
  // A rejecting route is the kernel's answer too: the packet is dropped or refused, not sent.
  if (g.type === 'blackhole' || g.type === 'unreachable' || g.type === 'prohibit')
    return t(lang, `routes.explain.get.${g.type}`, { destination });
  const main = g.gateway
    ? t(lang, 'routes.explain.get.via', { destination, gateway: g.gateway, dev: g.dev ?? '?' })
    : t(lang, 'routes.explain.get.link', { destination, dev: g.dev ?? '?' });
  const src = g.src ? t(lang, 'routes.explain.source', { src: g.src }) : '';
  // The seed incident's lesson: a ClusterIP is rewritten only by netfilter on a host the packet passes.
  const known = g.destination ? serviceOf?.(g.destination) : undefined;
  const hint = known ? 'routes.explain.get.service-known' : 'routes.explain.get.service-hint';
  const service = g.gateway
    ? t(lang, hint, { destination, gateway: g.gateway, dev: g.dev ?? '?', service: known ?? '' })
    : '';
  return sentences(lang, [main, src, service]);
}

/** Selector fields in the order `ip rule` prints them, each with its phrase. */
const RULE_SELECTORS = ['from', 'to', 'tos', 'fwmark', 'iif', 'oif', 'uidrange', 'ipproto', 'sport', 'dport'] as const;

function ruleSelector(r: PolicyRule, lang: Lang): string {
  const parts: string[] = [];
  for (const key of RULE_SELECTORS) {
    const value = key === 'fwmark' ? r.fwmark && (r.fwmask ? `${r.fwmark}/${r.fwmask}` : r.fwmark) : r[key];
    if (!value || (key === 'from' && value === 'all')) continue;
    if (key === 'iif' && value === 'lo') parts.push(t(lang, 'routes.explain.rule.iif-lo'));
    else parts.push(t(lang, `routes.explain.rule.${key}`, { value: `\`${value}\`` }));
  }
  if (parts.length === 0) return t(lang, r.not ? 'routes.explain.rule.none' : 'routes.explain.rule.all');
  return t(lang, r.not ? 'routes.explain.rule.not' : 'routes.explain.rule.packets', {
    parts: parts.join(t(lang, 'routes.explain.rule.separator')),
  });
}

/** `mainPriority`: where this paste's rule for table main is (32766 unless the paste shows another). */
function policyRuleText(r: PolicyRule, lang: Lang, mainPriority: number): string {
  const selector = ruleSelector(r, lang);
  const params = { priority: r.priority, selector, table: r.table ?? '?', goto: r.goto ?? '?', main: mainPriority };
  // `lookup [l3mdev-table]`: the table of the VRF device the packet is on, not a table of that name.
  const vrf = r.action === 'lookup' && r.table?.startsWith('[');
  let main: string;
  if (vrf) main = t(lang, 'routes.explain.rule.lookup-vrf', params);
  else if (r.action === 'lookup')
    main = t(
      lang,
      r.table === 'main'
        ? 'routes.explain.rule.lookup-main'
        : r.table === 'local'
          ? 'routes.explain.rule.lookup-local'
          : 'routes.explain.rule.lookup',
      params,
    );
  else if (r.action === 'goto' && r.flags.includes('unresolved'))
    main = t(lang, 'routes.explain.rule.goto-unresolved', params);
  else main = t(lang, `routes.explain.rule.${r.action}`, params);
  // The seed incident's kind of cause: a rule ahead of main takes pod traffic to routes `ip route` never shows.
  const otherTable =
    r.action === 'lookup' &&
    !vrf &&
    r.table !== undefined &&
    r.table !== 'main' &&
    r.table !== 'local' &&
    r.table !== 'default';
  return sentences(lang, [
    main,
    otherTable && r.priority < mainPriority ? t(lang, 'routes.explain.rule.before-main', params) : '',
    r.suppressPrefixLength !== undefined
      ? t(lang, 'routes.explain.rule.suppress', { bits: r.suppressPrefixLength })
      : '',
    r.fwmark ? t(lang, 'routes.explain.rule.mark') : '',
    r.flags.includes('detached') ? t(lang, 'routes.explain.rule.detached') : '',
  ]);
}

function flowText(c: ConntrackEntry, lang: Lang): string {
  const o = c.original;
  const from = joinHostPort(o.src ?? '?', o.sport);
  const to = joinHostPort(o.dst ?? '?', o.dport);
  const parts = [
    t(lang, 'routes.explain.flow', { protocol: c.protocol.toUpperCase(), from, to, state: c.state ?? '-' }),
  ];
  if (c.dnat)
    parts.push(t(lang, 'routes.explain.flow.dnat', { to: joinHostPort(c.dnat.toAddress ?? '?', c.dnat.toPort) }));
  if (c.snat)
    parts.push(t(lang, 'routes.explain.flow.snat', { to: joinHostPort(c.snat.toAddress ?? '?', c.snat.toPort) }));
  if (!c.dnat && !c.snat && c.reply) parts.push(t(lang, 'routes.explain.flow.no-nat', { to }));
  if (c.flags.includes('UNREPLIED')) parts.push(t(lang, 'routes.explain.flow.unreplied'));
  return sentences(lang, parts);
}

function interfaceText(i: NetworkInterface, lang: Lang): string {
  const addresses =
    i.addresses.map((a) => `\`${a.address}/${a.prefixLength}\``).join(', ') || t(lang, 'routes.explain.no-addresses');
  const main = t(lang, 'routes.explain.interface', {
    name: i.name,
    state: i.state ?? '?',
    mtu: i.mtu ?? '?',
    addresses,
  });
  const veth = i.peerIndex !== undefined ? t(lang, 'routes.explain.interface.veth', { index: i.peerIndex }) : '';
  const problem = linkProblem(i);
  const down = problem ? t(lang, `routes.explain.interface.${problem}`, { name: i.name }) : '';
  return sentences(lang, [main, down, veth]);
}

function addressText(i: NetworkInterface, a: InterfaceAddress, lang: Lang): string {
  const params = { address: a.address, prefix: a.prefixLength, interface: i.name, network: a.network };
  const problem = addressProblem(i, a);
  if (!problem) return t(lang, 'routes.explain.address', params);
  return sentences(lang, [
    t(lang, 'routes.explain.address.configured', params),
    t(lang, `routes.explain.address.${problem}`, params),
  ]);
}

function setText(set: IpSet, lang: Lang): string {
  const main = t(lang, 'routes.explain.set', { name: set.name, type: set.type ?? '?', count: set.members.length });
  const purpose = set.kubeProxy ? t(lang, set.kubeProxy.purposeKey) : '';
  const cut =
    set.numberOfEntries !== undefined && set.numberOfEntries > set.members.length
      ? t(lang, 'routes.explain.set.cut', { said: set.numberOfEntries, pasted: set.members.length })
      : '';
  return sentences(lang, [main, purpose, cut]);
}

/** Sentences joined as each language writes them: a space after an English full stop, none after a Chinese one. */
function sentences(lang: Lang, parts: string[]): string {
  return parts.filter(Boolean).join(lang === 'zh-CN' ? '' : ' ');
}
