/**
 * Turns the model's facts into sentences: per token (option, module, target, chain, mark, probability) and
 * per rule ("TCP to 172.16.0.1:443 (Service default/kubernetes, port https) goes to KUBE-SVC-..."). All texts
 * come from the i18n catalog; this module only chooses keys and fills parameters.
 */
import type { Span } from '../common/diagnostics';
import { t, tn, type Lang } from '../i18n/catalog';
import { chainLadder, parseServiceComment, type KubeService } from './kubeView';
import type { IptablesModel } from './model';
import { kubeChainKind, nftKubeChain } from './chainHashes';
import { ownEntry } from '../common/own';
import { EXTENSION_TARGETS, MODULE_OPTIONS } from './options';
import { markEffect } from './markEffect';
import {
  displayRuleText,
  ruleTargetName,
  STANDARD_TARGETS,
  type Chain,
  type OptionArg,
  type Rule,
  type Token,
} from './dump';
import { joinHostPort } from '../common/ip';
import { formatShare } from '../common/shares';
import { truncate } from '../common/text';

export interface Explanation {
  markdown: string;
  span: Span;
}

const KNOWN_TABLES = new Set(['nat', 'filter', 'mangle', 'raw', 'security']);
const BUILTIN_NAMES = new Set(['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING']);
const CNI_PREFIXES: [RegExp, string][] = [
  [/^cali-/, 'calico'],
  [/^CILIUM_/, 'cilium'],
  [/^FLANNEL/, 'flannel'],
  [/^WEAVE/, 'weave'],
  [/^DOCKER/, 'docker'],
  [/^ISTIO_/, 'istio'],
  [/^AWS-/, 'aws'],
  [/^KUBE-ROUTER-/, 'kube-router'],
];
const COMMAND_KEYS: Record<string, string> = {
  '-A': 'append',
  '--append': 'append',
  '-I': 'insert',
  '--insert': 'insert',
  '-D': 'delete',
  '--delete': 'delete',
  '-R': 'replace',
  '--replace': 'replace',
  '-C': 'check',
  '--check': 'check',
  '-N': 'new-chain',
  '--new-chain': 'new-chain',
  '-P': 'policy',
  '--policy': 'policy',
  '-F': 'flush',
  '--flush': 'flush',
  '-X': 'delete-chain',
  '--delete-chain': 'delete-chain',
  '-E': 'rename-chain',
  '--rename-chain': 'rename-chain',
  '-Z': 'zero',
  '--zero': 'zero',
  COMMIT: 'COMMIT',
};

const has = (lang: Lang, key: string) => t(lang, key) !== key;

/** The hover for the token at a position: the token's meaning, then the whole rule's sentence. */
export function explainAt(model: IptablesModel, line: number, column: number, lang: Lang): Explanation | undefined {
  const token = model.tokenAt(line, column);
  const rule = model.ruleAtLine(line);
  if (!token) {
    if (!rule) return undefined;
    return { markdown: ruleSection(model, rule, lang), span: rule.span };
  }
  const parts = [explainToken(model, token, rule, lang)].filter((p): p is string => !!p);
  if (rule) parts.push(ruleSection(model, rule, lang));
  return { markdown: parts.join('\n\n'), span: token.span };
}

function ruleSection(model: IptablesModel, rule: Rule, lang: Lang): string {
  const at = { chain: rule.chain, table: rule.table };
  // `-D` and `-C` lines are commands on a chain, not rules of it.
  if (rule.command === 'check') return t(lang, 'iptables.edit.check', at);
  const edited = model.dump.editedRule.get(rule);
  const before = edited
    ? {
        ...at,
        line: edited.line + 1,
        text: truncate(displayRuleText(edited), 100),
        position: rule.position ?? edited.index + 1,
      }
    : undefined;
  if (rule.command === 'delete') {
    if (!before) return t(lang, 'iptables.edit.nothing', at);
    return t(lang, rule.position === undefined ? 'iptables.edit.delete-spec' : 'iptables.edit.delete', before);
  }
  const parts = [explainRule(model, rule, lang)];
  if (rule.command === 'replace')
    parts.push(before ? t(lang, 'iptables.edit.replace', before) : t(lang, 'iptables.edit.nothing', at));
  const removedBy = model.dump.removedAt.get(rule);
  if (removedBy !== undefined) parts.push(t(lang, 'iptables.hover.removed', { ...at, line: removedBy + 1 }));
  else {
    const count = model.chain(rule.table, rule.chain)?.rules.length ?? 1;
    parts.push(t(lang, 'iptables.hover.in-chain', { ...at, index: rule.index + 1, count }));
  }
  return parts.join('\n\n');
}

export function explainToken(
  model: IptablesModel,
  token: Token,
  rule: Rule | undefined,
  lang: Lang,
): string | undefined {
  switch (token.kind) {
    case 'table': {
      const name = token.text.replace(/^\*/, '');
      return KNOWN_TABLES.has(name)
        ? t(lang, `iptables.table.${name}`)
        : t(lang, 'iptables.table.other', { table: name });
    }
    case 'chainDecl':
    case 'chainRef': {
      const table = rule?.table ?? tableOfLine(model, token.span.line) ?? 'filter';
      return explainChain(model, table, token.text, lang);
    }
    case 'policy':
      if (token.text !== '-') return t(lang, 'iptables.chain.policy', { policy: token.text });
      return t(lang, 'iptables.chain.user', { chain: findChainDeclaredOn(model, token.span.line)?.name ?? '' });
    case 'command': {
      const k = ownEntry(COMMAND_KEYS, token.text);
      return k ? t(lang, `iptables.command.${k}`) : undefined;
    }
    case 'counter':
      return explainCounters(model, token.span.line, rule, lang);
    case 'comment':
      return explainCommentLine(model, token, lang);
    case 'module': {
      const name = token.text;
      if (has(lang, `iptables.module.${name}`)) return t(lang, `iptables.module.${name}`);
      return ownEntry(MODULE_OPTIONS, name)
        ? t(lang, 'iptables.module.other', { module: name })
        : t(lang, 'iptables.module.unknown', { module: name });
    }
    case 'target':
      return rule ? explainTarget(model, rule, lang) : undefined;
    case 'negation':
    case 'option':
    case 'value':
    case 'commentText': {
      if (!rule) return undefined;
      if (token.kind === 'option' && /^(?:-m|--match)$/.test(token.text)) return t(lang, 'iptables.option.match');
      if (token.kind === 'option' && /^(?:-j|--jump)$/.test(token.text)) return t(lang, 'iptables.option.jump');
      if (token.kind === 'option' && /^(?:-g|--goto)$/.test(token.text)) return t(lang, 'iptables.option.goto');
      if (token.kind === 'option' && token.text === '-c') return t(lang, 'iptables.option.set-counters');
      const found = findOptionAtToken(rule, token);
      if (!found) return undefined;
      return explainOption(model, rule, found.option, found.module, found.inTarget, lang);
    }
  }
}

function tableOfLine(model: IptablesModel, line: number): string | undefined {
  for (const tb of model.dump.tables) {
    for (const c of tb.chains.values()) if (c.declSpan?.line === line) return tb.name;
  }
  return undefined;
}

function findOptionAtToken(
  rule: Rule,
  token: Token,
): { option: OptionArg; module: string; inTarget: boolean } | undefined {
  const hit = (o: OptionArg) =>
    sameSpan(o.span, token.span) ||
    o.valueSpans.some((s) => sameSpan(s, token.span)) ||
    (o.negationSpan && sameSpan(o.negationSpan, token.span));
  for (const m of rule.matches)
    for (const o of m.options) if (hit(o)) return { option: o, module: m.module, inTarget: false };
  for (const o of rule.target?.options ?? [])
    if (hit(o)) return { option: o, module: rule.target!.name, inTarget: true };
  return undefined;
}

function sameSpan(a: Span, b: Span): boolean {
  return a.line === b.line && a.column === b.column;
}

export function explainOption(
  model: IptablesModel,
  rule: Rule,
  o: OptionArg,
  module: string,
  inTarget: boolean,
  lang: Lang,
): string {
  const value = o.values.join(' ');
  const neg = negates(o) ? t(lang, 'iptables.negated') : '';
  if (inTarget) {
    const key = `iptables.target-option.${o.name}`;
    let text = has(lang, key)
      ? t(lang, key, { value })
      : t(lang, 'iptables.target-option.generic', { option: o.written, value });
    const effect = ruleTargetName(rule) === 'MARK' ? markEffect(o.name, o.values[0] ?? '') : undefined;
    if (effect)
      text += ` ${t(lang, 'iptables.mark.effect', { effect: t(lang, `iptables.action.MARK.${effect.kind}`, { value: effect.value, mask: effect.mask ?? '' }) })}`;
    if (/mark$/.test(o.name)) text += `\n\n${explainMark(model, value, lang)}`;
    return text;
  }
  if (module === 'statistic' && o.name === 'probability') {
    return [t(lang, 'iptables.option.statistic.probability', { value }), explainProbability(model, rule, lang)]
      .filter(Boolean)
      .join('\n\n');
  }
  const key = module === '' ? `iptables.option.${o.name}` : `iptables.option.${module}.${o.name}`;
  let text = has(lang, key)
    ? t(lang, key, { value })
    : t(lang, 'iptables.option.generic', { option: o.written, value });
  if (module === 'mark' || module === 'connmark') text += `\n\n${explainMark(model, value, lang)}`;
  return neg + text;
}

/** Chain hover: its kind (builtin, kube-proxy, per-Service, CNI, user), Service facts, hash check, size. */
export function explainChain(model: IptablesModel, table: string, name: string, lang: Lang): string {
  const chain = model.chain(table, name) ?? model.chainsNamed(name)[0];
  const parts: string[] = [];
  // kube-proxy's nftables mode names its per-Service chains `service-HASH-ns/name/proto/port`, ...
  const nftKind = name.startsWith('KUBE-') ? undefined : nftKubeChain(name)?.kind;
  const kind = nftKind ?? kubeChainKind(name);
  const kube = model.kube;
  if (BUILTIN_NAMES.has(name)) parts.push(t(lang, `iptables.chain.builtin.${name}`));
  else if (kind && kind !== 'kube-fixed') {
    const entry = kind === 'endpoint' ? kube.endpointByChain.get(name) : undefined;
    const service = entry?.service ?? kube.serviceByChain.get(name);
    const serviceName = service?.name || t(lang, 'iptables.chain.unknown-service');
    const endpoint = entry ? joinHostPort(entry.endpoint.ip, entry.endpoint.port) : '';
    const count = service?.endpoints.length ?? 0;
    parts.push(
      t(lang, `iptables.chain.kind.${kind}`, {
        chain: name,
        service: serviceName,
        protocol: (service?.protocol ?? '?').toUpperCase(),
        count,
        endpoints: tn(lang, 'iptables.count.endpoint-chains', count),
        endpoint,
      }),
    );
    parts.push(
      hashSentence(
        service,
        kind === 'endpoint' ? (entry?.endpoint.hashVerified ?? null) : (service?.hashVerified ?? null),
        lang,
      ),
    );
    if (service && kind !== 'endpoint')
      parts.push(
        serviceFacts(
          service,
          !nftKind && (kind === 'service-local' || kind === 'external-local') ? localLadder(model, chain) : undefined,
        ),
      );
  } else if (kind === 'kube-fixed') {
    const key = `iptables.chain.kube.${name}`;
    parts.push(
      has(lang, key)
        ? t(lang, key, { mark: kube.masqueradeMark ?? '0x4000' })
        : t(lang, 'iptables.chain.kube.other', { chain: name }),
    );
  } else {
    const cni = CNI_PREFIXES.find(([re]) => re.test(name));
    parts.push(
      cni ? t(lang, `iptables.chain.cni.${cni[1]}`, { chain: name }) : t(lang, 'iptables.chain.user', { chain: name }),
    );
  }
  const renamed = chain ? undefined : model.dump.renames.find((r) => r.from === name && r.table === table);
  if (renamed) parts.push(t(lang, 'iptables.chain.renamed', { chain: name, to: renamed.to, line: renamed.line + 1 }));
  else if (!chain) parts.push(t(lang, 'iptables.chain.undefined', { chain: name, table }));
  else {
    const refs = model.references(chain.table, name).length + model.mapReferences(chain.table, name).length;
    parts.push(
      t(lang, 'iptables.chain.summary', {
        rules: tn(lang, 'iptables.count.rules', chain.rules.length),
        refs: tn(lang, 'iptables.count.places', refs),
      }),
    );
    if (chain.builtin && chain.policy) parts.push(t(lang, 'iptables.chain.policy', { policy: chain.policy }));
  }
  return parts.join('\n\n');
}

function hashSentence(service: KubeService | undefined, verified: boolean | null, lang: Lang): string {
  if (!service || verified === null || !service.name) return t(lang, 'iptables.chain.hash.unknown');
  const params = { spn: service.name, protocol: service.protocol ?? '?' };
  return t(lang, verified ? 'iptables.chain.hash.verified' : 'iptables.chain.hash.mismatch', params);
}

/** The endpoints a Local-policy chain (KUBE-SVL/XLB) spreads over, with its own shares: the node's endpoints only. */
function localLadder(
  model: IptablesModel,
  chain: Chain | undefined,
): { ip: string; port?: number; chain: string; share?: number }[] | undefined {
  if (!chain) return undefined;
  const ladder = chainLadder(chain);
  return ladder.steps.map(({ rule, share }) => {
    const sep = rule.target!.name;
    const e = model.kube.endpointByChain.get(sep)?.endpoint;
    return {
      ip: e?.ip ?? '?',
      ...(e?.port !== undefined ? { port: e.port } : {}),
      chain: sep,
      ...(ladder.whole ? { share } : {}),
    };
  });
}

/** A compact fact table, language-neutral (addresses and numbers); `endpoints` replaces the Service's list. */
function serviceFacts(
  s: KubeService,
  endpoints: readonly { ip: string; port?: number; chain: string; share?: number }[] = s.endpoints,
): string {
  const rows: string[] = [];
  if (s.clusterIP) rows.push(`ClusterIP \`${joinHostPort(s.clusterIP, s.port ?? '?')}\``);
  if (s.nodePort !== undefined) rows.push(`NodePort \`${s.nodePort}\``);
  if (s.externalIPs.length) rows.push(`externalIPs \`${s.externalIPs.join(', ')}\``);
  if (s.loadBalancerIPs.length) rows.push(`LoadBalancer \`${s.loadBalancerIPs.join(', ')}\``);
  if (s.sessionAffinitySeconds !== undefined) rows.push(`sessionAffinity ClientIP \`${s.sessionAffinitySeconds}s\``);
  for (const e of endpoints)
    rows.push(`→ \`${joinHostPort(e.ip, e.port ?? '?')}\` ${formatShare(e.share)} (${e.chain})`);
  return rows.map((r) => `- ${r}`).join('\n');
}

function explainTarget(model: IptablesModel, rule: Rule, lang: Lang): string {
  const target = rule.target!;
  const name = target.name;
  if (!STANDARD_TARGETS.has(name) && !EXTENSION_TARGETS.has(name)) {
    const head = t(lang, target.kind === 'goto' ? 'iptables.target.goto-chain' : 'iptables.target.chain', {
      chain: name,
    });
    return `${head}\n\n${explainChain(model, rule.table, name, lang)}`;
  }
  const value = target.options
    .map((o) => o.values.join(' '))
    .filter(Boolean)
    .join(' ');
  const key = `iptables.target.${name}`;
  const selectors = target.options.find((o) => o.name === 'selector')?.values.join(' . ') ?? '';
  const modulus = target.options.find((o) => o.name === 'mod')?.values[0] ?? 'N';
  let text = has(lang, key)
    ? t(lang, key, { value, selectors, modulus })
    : t(lang, 'iptables.target.other', { target: name });
  if (name === 'MARK' && value) text += `\n\n${explainMark(model, value, lang)}`;
  return text;
}

function explainCounters(model: IptablesModel, line: number, rule: Rule | undefined, lang: Lang): string | undefined {
  const counters = rule?.counters ?? findChainDeclaredOn(model, line)?.counters;
  if (!counters) return undefined;
  return tn(lang, 'iptables.counters', Number(counters.packets), {
    packets: counters.packets.toLocaleString('en-US'),
    bytes: counters.bytes.toLocaleString('en-US'),
  });
}

function findChainDeclaredOn(model: IptablesModel, line: number): Chain | undefined {
  for (const tb of model.dump.tables) for (const c of tb.chains.values()) if (c.declSpan?.line === line) return c;
  return undefined;
}

function explainCommentLine(model: IptablesModel, token: Token, lang: Lang): string {
  const header = model.dump.headers.find((h) => h.line === token.span.line);
  if (!header) return t(lang, 'iptables.comment-line');
  const lines = [
    t(lang, 'iptables.header', {
      tool: header.tool,
      version: header.version ? `v${header.version}` : '',
      backend: header.backend ? ` (${header.backend})` : '',
    }),
  ];
  const hints = model.kube.versionHints;
  if (hints.length) {
    lines.push(`**${t(lang, 'iptables.hover.version-hints')}**`);
    for (const h of hints) lines.push(`- ${t(lang, `iptables.version.${h.code}`)}`);
  }
  return lines.join('\n\n');
}

/** What a mark value means for kube-proxy, and which lines set and read it. */
export function explainMark(model: IptablesModel, value: string, lang: Lang): string {
  const bits = parseInt(value.split('/')[0], 16);
  const parts: string[] = [];
  if (Number.isFinite(bits)) {
    if (bits & 0x4000) parts.push(t(lang, 'iptables.mark.masq'));
    if (bits & 0x8000) parts.push(t(lang, 'iptables.mark.drop'));
    if (bits === 0x4d415351) parts.push(t(lang, 'iptables.mark.masq-ascii'));
  }
  const setters: number[] = [];
  const flippers: number[] = [];
  const readers: number[] = [];
  const base = value.split('/')[0].toLowerCase();
  for (const r of model.dump.rules) {
    const targetName = ruleTargetName(r);
    if (targetName === 'MARK' || targetName === 'CONNMARK') {
      const o = r.target!.options.find((x) => x.values[0]?.split('/')[0].toLowerCase() === base);
      // kube-proxy's `--set-xmark 0x4000/0x0` clears the bit it set earlier: no setter of it.
      if (o) (markEffect(o.name, o.values[0])?.kind === 'flip' ? flippers : setters).push(r.line + 1);
    }
    if (
      r.matches.some(
        (m) =>
          (m.module === 'mark' || m.module === 'connmark') &&
          m.options.some((o) => o.values[0]?.split('/')[0].toLowerCase() === base),
      )
    )
      readers.push(r.line + 1);
  }
  const set = markLines(lang, 'set', setters);
  const read = markLines(lang, 'read', readers);
  if (flippers.length)
    parts.push(t(lang, 'iptables.mark.users-flipped', { set, flipped: markLines(lang, 'flipped', flippers), read }));
  else if (setters.length || readers.length) parts.push(t(lang, 'iptables.mark.users', { set, read }));
  return parts.join(' ');
}

/** "Set on lines 4, 9" / "read on line 12": counted by the lines listed; no rule at all says so. */
function markLines(lang: Lang, role: 'set' | 'flipped' | 'read', lines: number[]): string {
  if (lines.length === 0) return t(lang, `iptables.mark.${role}.none`);
  const listed = lines.length > 8 ? `${lines.slice(0, 8).join(', ')}, …` : lines.join(', ');
  return tn(lang, `iptables.mark.${role}`, lines.length, { lines: listed });
}

/** "rule k of n: 1/(n-k+1) of what is left, 1/n overall" for rules of a statistic ladder. */
export function explainProbability(model: IptablesModel, rule: Rule, lang: Lang): string | undefined {
  const chain = model.chain(rule.table, rule.chain);
  if (!chain) return undefined;
  const ladder = chain.rules.filter((r) => r.matches.some((m) => m.module === 'statistic') || isLadderTail(r, chain));
  const k = ladder.indexOf(rule);
  if (k < 0) return undefined;
  const n = ladder.length;
  let remaining = 1;
  let share = 0;
  for (let i = 0; i <= k; i++) {
    const p = probabilityOf(ladder[i]) ?? 1;
    share = remaining * p;
    remaining -= share;
  }
  const p = probabilityOf(rule);
  if (p === undefined) return t(lang, 'iptables.probability.last', { n, share: formatShare(share) });
  const params = {
    k: k + 1,
    n,
    p: String(p),
    left: n - k,
    fraction: (1 / (n - k)).toFixed(4),
    share: formatShare(share),
  };
  return t(lang, Math.abs(share - 1 / n) < 1e-4 ? 'iptables.probability' : 'iptables.probability.off', params);
}

function isLadderTail(r: Rule, chain: Chain): boolean {
  // The last rule of a ladder jumps like the others but has no statistic match.
  const prev = chain.rules[r.index - 1];
  return (
    !!prev &&
    prev.matches.some((m) => m.module === 'statistic') &&
    r.target?.name !== undefined &&
    kubeChainKind(r.target.name) === kubeChainKind(prev.target?.name ?? '')
  );
}

function probabilityOf(r: Rule): number | undefined {
  const v = r.matches.find((m) => m.module === 'statistic')?.options.find((o) => o.name === 'probability')?.values[0];
  return v === undefined ? undefined : Number(v);
}

/** One sentence for a rule, with kube-proxy's patterns recognised first and a generic sentence otherwise. */
export function explainRule(model: IptablesModel, rule: Rule, lang: Lang): string {
  return kubeSentence(model, rule, lang) ?? genericSentence(rule, lang);
}

function displayService(s: KubeService | undefined): string {
  if (!s || !s.name) return '?';
  return s.namespace && s.service ? `${s.namespace}/${s.service}` : s.name;
}

/** `ns/name` of a service port name `ns/name:port`; '?' without one. */
function servicePartOf(spn: string | undefined): string {
  return spn ? spn.replace(/:[^/]*$/, '') : '?';
}

function opt(rule: Rule, name: string): OptionArg | undefined {
  for (const m of rule.matches) for (const o of m.options) if (o.name === name) return o;
  return undefined;
}

function kubeSentence(model: IptablesModel, rule: Rule, lang: Lang): string | undefined {
  const target = rule.target?.name ?? '';
  const tkind = kubeChainKind(target);
  const kube = model.kube;
  const protocol = (opt(rule, 'protocol')?.values[0] ?? '').toUpperCase() || 'IP';
  const dst = opt(rule, 'destination')?.values[0]?.replace(/\/(?:32|128)$/, '');
  const dport = opt(rule, 'dport')?.values[0];
  const address = dst ? joinHostPort(dst, dport) : dport ? `:${dport}` : '?';
  if ((rule.chain === 'KUBE-SERVICES' || rule.chain === 'KUBE-NODEPORTS') && target === 'KUBE-NODEPORTS')
    return t(lang, 'iptables.rule.nodeports-jump');
  const svcByTarget = kube.serviceByChain.get(target);
  if ((rule.chain === 'KUBE-SERVICES' || rule.chain === 'KUBE-NODEPORTS') && svcByTarget) {
    const port = svcByTarget.portName ? t(lang, 'iptables.rule.service-port', { port: svcByTarget.portName }) : '';
    if (rule.chain === 'KUBE-NODEPORTS')
      return t(lang, 'iptables.rule.nodeport-entry', {
        protocol,
        port: dport ?? '?',
        service: displayService(svcByTarget),
        chain: target,
      });
    return t(lang, 'iptables.rule.service-entry', {
      protocol,
      address,
      service: displayService(svcByTarget),
      port,
      chain: target,
    });
  }
  if (rule.comment && /has no endpoints/.test(rule.comment) && (target === 'REJECT' || target === 'DROP')) {
    const spn = rule.comment.replace(/\s+has no endpoints$/, '');
    return t(lang, 'iptables.rule.no-endpoints', { protocol, address, service: spn });
  }
  const own = kube.serviceByChain.get(rule.chain);
  const src = opt(rule, 'source');
  if (target === 'KUBE-MARK-MASQ' && src?.negated && (own || rule.chain === 'KUBE-SERVICES')) {
    const s = own ?? [...kube.serviceByChain.values()].find((x) => x.clusterIP === dst);
    // Without the Service's chains in the paste, the rule's own comment still names it (`ns/svc:port cluster IP`).
    const named = s?.name ? displayService(s) : servicePartOf(parseServiceComment(rule.comment)?.spn);
    return t(lang, 'iptables.rule.service-masq', { protocol, address, service: named, cidr: src.values[0] });
  }
  if (own && tkind === 'endpoint') {
    const recent = rule.matches.find((m) => m.module === 'recent');
    if (recent)
      return t(lang, 'iptables.rule.affinity-check', {
        seconds: recent.options.find((o) => o.name === 'seconds')?.values[0] ?? '?',
      });
    const ep = kube.endpointByChain.get(target)?.endpoint;
    const entry = own.endpoints.find((e) => e.chain === target) ?? ep;
    // The share is this chain's own: a KUBE-SVL/XLB ladder spreads over the local endpoints only.
    const chain = model.chain(rule.table, rule.chain);
    const ladder = chain ? chainLadder(chain) : undefined;
    const step = ladder?.steps.find((s) => s.rule === rule);
    const params = {
      service: displayService(own),
      endpoint: entry ? joinHostPort(entry.ip, entry.port ?? '?') : '?',
      chain: target,
    };
    // In the Service's own chain the view also knows of endpoint chains no ladder rule in the paste picks.
    const known = ladder?.whole && step && (own.chain !== rule.chain || entry?.share !== undefined);
    if (!known) return t(lang, 'iptables.rule.endpoint-pick.unknown-share', params);
    return t(lang, 'iptables.rule.endpoint-pick', { ...params, share: formatShare(step.share) });
  }
  const sep = kube.endpointByChain.get(rule.chain);
  if (sep) {
    if (target === 'KUBE-MARK-MASQ' && src && !src.negated)
      return t(lang, 'iptables.rule.hairpin', { source: src.values[0] });
    if (target === 'DNAT') {
      const to = rule.target?.options.find((o) => o.name === 'to-destination')?.values[0] ?? '?';
      return t(lang, 'iptables.rule.dnat', { to, service: displayService(sep.service) });
    }
  }
  return undefined;
}

/** Whether the option's `!` negates it: iptables ignores it before `-4`/`-6` (`! -4` is `-4`). */
function negates(o: OptionArg): boolean {
  return o.negated && o.name !== 'ipv4' && o.name !== 'ipv6';
}

const COND_KEYS = new Set([
  'source',
  'destination',
  'protocol',
  'in-interface',
  'out-interface',
  'ipv4',
  'ipv6',
  'dport',
  'sport',
  'dports',
  'sports',
  'ctstate',
  'state',
  'dst-type',
  'src-type',
  'mark',
  'probability',
  'match-set',
]);

function genericSentence(rule: Rule, lang: Lang): string {
  const conds: string[] = [];
  for (const m of rule.matches) {
    if (m.module === 'comment') continue;
    for (const o of m.options) {
      if (o.name === 'comment' || o.name === 'mode') continue;
      const value = o.values.join(' ');
      const base = COND_KEYS.has(o.name)
        ? t(lang, `iptables.cond.${o.name}`, { value })
        : t(lang, 'iptables.cond.generic', { option: o.written, value });
      conds.push(negates(o) ? t(lang, 'iptables.cond.not', { cond: base }) : base);
    }
  }
  const conditions = conds.length
    ? conds.join(t(lang, 'iptables.cond.separator'))
    : t(lang, 'iptables.rule.all-packets');
  return t(lang, 'iptables.rule.generic', { conditions: capitalize(conditions), action: actionPhrase(rule, lang) });
}

function actionPhrase(rule: Rule, lang: Lang): string {
  const target = rule.target;
  if (!target) return t(lang, 'iptables.action.none');
  const value = target.options
    .map((o) => o.values.join(' '))
    .filter(Boolean)
    .join(' ');
  if (target.name === 'MARK') {
    for (const o of target.options) {
      const effect = markEffect(o.name, o.values[0] ?? '');
      if (effect)
        return t(lang, `iptables.action.MARK.${effect.kind}`, { value: effect.value, mask: effect.mask ?? '' });
    }
  }
  // nft's verdict maps (the nft reader's VMAP / NUMGEN): what is looked up, and where.
  if (target.name === 'VMAP' || target.name === 'NUMGEN') {
    const first = (name: string) => target.options.find((o) => o.name === name)?.values;
    const map = first('map')?.[0];
    return t(lang, `iptables.action.${target.name}`, {
      selectors: (first('selector') ?? []).join(' . '),
      map: map ? `@${map}` : '{ ... }',
      modulus: first('mod')?.[0] ?? '?',
      mode: first('mode')?.[0] ?? 'random',
    });
  }
  if (STANDARD_TARGETS.has(target.name) || ['REJECT', 'DNAT', 'SNAT', 'MASQUERADE', 'MARK'].includes(target.name)) {
    const key = `iptables.action.${target.name}`;
    if (has(lang, key)) return t(lang, key, { value });
  }
  if (EXTENSION_TARGETS.has(target.name))
    return t(lang, 'iptables.action.other', { target: target.name, value }).trim();
  return t(lang, target.kind === 'goto' ? 'iptables.action.goto' : 'iptables.action.jump', { target: target.name });
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
