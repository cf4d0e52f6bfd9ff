/**
 * `ip rule` / `ip -6 rule` lines: the routing policy database. Each rule (`100:\tfrom all fwmark 0x200/0xf00
 * lookup 2004`) says which routing table the kernel looks a packet up in, tried by priority before `main`.
 * A rule ahead of `main` that matches pod traffic sends it somewhere `ip route` (table main) does not show.
 */
import { parseCidr } from '../common/ip';
import { tableName } from './ipRoute';
import type { Reporter } from './report';
import type { PolicyRule, PolicyRuleAction } from './types';
import { toInt, wordSpan, wordsSpan, type Word } from './words';

/** Selector keys followed by one value; each is a field of the rule. */
const SELECTORS = new Set([
  'from',
  'to',
  'tos',
  'dsfield',
  'dscp',
  'flowlabel',
  'fwmark',
  'iif',
  'oif',
  'uidrange',
  'ipproto',
  'sport',
  'dport',
  'tun_id',
  'priority',
  'pref',
]);

/** Keys after the action that take a value (kept as attributes unless the rule has a field for them). */
const VALUE_ATTRIBUTES = new Set([
  'suppress_prefixlength',
  'suppress_ifgroup',
  'realms',
  'proto',
  'protocol',
  'map-to',
  'nat',
  'flowid',
  'classid',
]);

/** Words that stand alone: flags of the selector or of the action. */
const FLAGS = new Set(['detached', 'unresolved', 'l3mdev', '[detached]', '[unresolved]']);

const TERMINAL_ACTIONS = new Set<PolicyRuleAction>(['blackhole', 'unreachable', 'prohibit']);

/** `100:` (a priority and a colon) followed by `from` or `not`: how every line of `ip rule` starts. */
export function looksLikePolicyRule(words: readonly Word[]): boolean {
  return (
    words.length >= 2 && /^\d{1,10}:$/.test(words[0].text) && (words[1].text === 'from' || words[1].text === 'not')
  );
}

/** Parses one `ip rule` line; the caller checked `looksLikePolicyRule`. */
export function parsePolicyRuleLine(words: readonly Word[], family: 4 | 6 | undefined, reporter: Reporter): PolicyRule {
  const first = words[0];
  const rule: PolicyRule = {
    line: first.line,
    span: wordsSpan(first, words[words.length - 1]),
    priority: Number(first.text.slice(0, -1)),
    not: false,
    from: 'all',
    action: 'lookup',
    flags: [],
    attributes: {},
    unknown: [],
    spans: { priority: { ...wordSpan(first), length: first.text.length - 1 } },
  };
  let sawAction = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    const key = w.text;
    const next = words[i + 1];
    if (key === 'not') {
      rule.not = true;
      continue;
    }
    if (FLAGS.has(key)) {
      rule.flags.push(key.replace(/^\[|\]$/g, ''));
      continue;
    }
    if (key === 'lookup' || key === 'table') {
      if (!next) {
        reporter.report('routes-route-missing-value', 'warning', wordSpan(w), { key });
        continue;
      }
      rule.action = 'lookup';
      // `lookup [l3mdev-table]` names no table: the VRF device's own table is used.
      rule.table = tableName(next.text);
      rule.spans.table = wordSpan(next);
      sawAction = true;
      i++;
      continue;
    }
    if (key === 'goto') {
      const target = toInt(next?.text);
      if (target === undefined) {
        reporter.report('routes-route-missing-value', 'warning', wordSpan(w), { key });
        continue;
      }
      rule.action = 'goto';
      rule.goto = target;
      rule.spans.action = wordsSpan(w, next!);
      sawAction = true;
      i++;
      continue;
    }
    if (TERMINAL_ACTIONS.has(key as PolicyRuleAction) || key === 'nop') {
      rule.action = key as PolicyRuleAction;
      rule.spans.action = wordSpan(w);
      sawAction = true;
      continue;
    }
    if (SELECTORS.has(key) || VALUE_ATTRIBUTES.has(key)) {
      if (!next) {
        reporter.report('routes-route-missing-value', 'warning', wordSpan(w), { key });
        continue;
      }
      setField(rule, key, next, family, reporter);
      i++;
      continue;
    }
    rule.unknown.push(key);
    reporter.report('routes-rule-unknown-word', 'info', wordSpan(w), { word: key });
  }
  if (!sawAction) rule.action = 'lookup';
  const fam = familyOf(rule.from) ?? familyOf(rule.to) ?? family;
  if (fam) rule.family = fam;
  return rule;
}

function setField(rule: PolicyRule, key: string, value: Word, family: 4 | 6 | undefined, reporter: Reporter): void {
  const v = value.text;
  switch (key) {
    case 'from':
    case 'to': {
      // iproute2 prints a prefix whose address is all zeros as `0/8`.
      const text = /^0\/\d{1,3}$/.test(v) ? `${family === 6 ? '::' : '0.0.0.0'}${v.slice(1)}` : v;
      if (text !== 'all' && !parseCidr(text))
        reporter.report('routes-route-bad-address', 'warning', wordSpan(value), { value: v });
      rule[key] = text;
      rule.spans[key] = wordSpan(value);
      return;
    }
    case 'fwmark': {
      const slash = v.indexOf('/');
      rule.fwmark = slash >= 0 ? v.slice(0, slash) : v;
      if (slash >= 0) rule.fwmask = v.slice(slash + 1);
      rule.spans.fwmark = wordSpan(value);
      return;
    }
    case 'iif':
    case 'oif':
    case 'tos':
    case 'uidrange':
    case 'ipproto':
    case 'sport':
    case 'dport':
      rule[key] = v;
      return;
    case 'dsfield':
      rule.tos = v;
      return;
    case 'suppress_prefixlength': {
      const n = toInt(v);
      if (n !== undefined) rule.suppressPrefixLength = n;
      else rule.attributes[key] = v;
      return;
    }
    default:
      // `priority`/`pref` repeated after the colon, `realms`, `proto`, `tun_id`, `dscp`, `flowlabel`, ...: kept as
      // written.
      rule.attributes[key] = v;
  }
}

function familyOf(address: string | undefined): 4 | 6 | undefined {
  if (!address || address === 'all') return undefined;
  return parseCidr(address)?.family;
}
