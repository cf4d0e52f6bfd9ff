/**
 * Findings over an iptables dump, each with a stable code (its texts are `lint.<code>` in the i18n catalog).
 * Checks that only make sense on a whole dump (unreferenced chains, undefined targets) stay quiet on partial
 * pastes, where missing pieces are expected.
 */
import type { Diagnostic, RelatedLocation, Severity } from '../common/diagnostics';
import { t, type Lang } from '../i18n/catalog';
import type { IptablesModel } from './model';
import { kubeChainKind } from './chainHashes';
import { jumpLoops, loopText } from './jumpLoops';
import { EXTENSION_TARGETS, knownModuleOptions, knownTargetOptions } from './options';
import {
  firstModuleOption,
  forEachModuleName,
  forEachOptionName,
  ruleComparableText,
  ruleHasModule,
  ruleTargetName,
  STANDARD_TARGETS,
  type Chain,
  type Rule,
  withoutFamilyOption,
} from './dump';

export const IPTABLES_LINT_CODES = [
  'undefined-chain',
  'unreferenced-chain',
  'unreachable-rule',
  'probability-ladder',
  'service-no-endpoints',
  'service-chain-no-endpoints',
  'duplicate-rule',
  'unknown-module',
  'unknown-option',
  'hash-mismatch',
  'nodeports-not-last',
  'legacy-nft-split',
  'jump-loop',
] as const;
export type IptablesLintCode = (typeof IPTABLES_LINT_CODES)[number];

/** Above this many chains a dump is a large cluster's: "unreferenced chain" would only be noise. */
const LARGE_DUMP_CHAINS = 1000;
const TERMINAL = new Set([
  'ACCEPT',
  'DROP',
  'REJECT',
  'RETURN',
  'DNAT',
  'SNAT',
  'MASQUERADE',
  'REDIRECT',
  'QUEUE',
  'NFQUEUE',
]);

export function lintIptables(model: IptablesModel, lang: Lang = 'en'): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { dump } = model;
  ownFamily = dump.family === 6 ? 'ipv6' : 'ipv4';
  const complete =
    dump.format === 'iptables-save' && dump.tables.every((tb) => tb.span !== undefined && tb.commitLine !== undefined);
  const add = (
    code: IptablesLintCode,
    severity: Severity,
    span: Diagnostic['span'],
    params: Record<string, string | number>,
    related?: RelatedLocation[],
    variant = '',
  ) => {
    out.push({
      span,
      severity,
      code,
      message: t(lang, `lint.${code}${variant}`, params),
      ...(related && related.length ? { related } : {}),
    });
  };

  // Indexed loops and forEach: an iterator's result object per rule and chain was a tenth of what lint allocated.
  for (let t = 0; t < dump.tables.length; t++) {
    const table = dump.tables[t];
    const referenced = complete && table.chains.size <= LARGE_DUMP_CHAINS ? targetsIn(table.name) : undefined;
    // A table the text ends inside (a header and no COMMIT: the paste was cut): the chain its last rule is in may go
    // on past the cut.
    let cutChain: Chain | undefined;
    if (table.span && table.commitLine === undefined)
      table.chains.forEach((chain) => {
        const last = chain.rules[chain.rules.length - 1];
        const cutLast = cutChain?.rules[cutChain.rules.length - 1];
        if (last && (!cutLast || last.line > cutLast.line)) cutChain = chain;
      });
    table.chains.forEach((chain) => {
      lintChainRules(chain, chain === cutChain);
      if (referenced && !chain.builtin && chain.declSpan && !referenced.has(chain.name)) {
        add('unreferenced-chain', 'hint', chain.declSpan, { chain: chain.name, table: table.name });
      }
    });
    for (const loop of jumpLoops(table)) {
      const { span } = loop.rule.target!;
      add('jump-loop', 'error', span, { cycle: loopText(loop.chains), count: loop.chains.length, table: table.name });
    }
  }

  const rules = dump.rules;
  for (let i = 0; i < rules.length; i++) {
    lintTarget(rules[i]);
    lintModules(rules[i]);
  }

  lintKubeServices();

  const split = dump.backendWarnings.find((w) => /legacy tables present|iptables-legacy-save/i.test(w.text));
  if (split) {
    const w = split;
    add('legacy-nft-split', 'warning', { line: w.line, column: 0, length: w.text.length + 2 }, { text: w.text });
  }
  // A finding on the last word of a text that ends on a rule (`-j KUBE-SEP-AB`, `-m comme`): the paste's cut may be
  // why, as the parse says of what it finds cut there itself. Not when other lines have the same finding, nor for a
  // jump to a chain the paste lacks unless a chain of the paste starts with its name: a grep's rules that jump to
  // chains it left out end on whole words.
  const open = dump.endsOnRule;
  const atCut = open
    ? out.find(
        (d) => d.severity !== 'hint' && d.span.line === open.span.line && d.span.column + d.span.length === open.end,
      )
    : undefined;
  const cutName = (name = '') =>
    dump.tables.some((tb) => [...tb.chains.keys()].some((c) => c.length > name.length && c.startsWith(name)));
  if (
    open &&
    atCut &&
    !out.some((d) => d.code === atCut.code && d.span.line !== open.span.line) &&
    (atCut.code !== 'undefined-chain' || cutName(rules[rules.length - 1]?.target?.name))
  )
    out.push({
      span: open.span,
      severity: 'info',
      code: 'cut-rule',
      message: t(lang, 'parse.cut-rule'),
      messageKey: 'parse.cut-rule',
    });
  return out.sort((a, b) => a.span.line - b.span.line || a.span.column - b.span.column);

  /**
   * Names the table's rules jump or go to (every rule line counts, as in the model's references). Read from the
   * table's own rules: asking the model would index the jump graph of the whole dump for one small table.
   */
  function targetsIn(table: string): Set<string> {
    const names = new Set<string>();
    const rules = dump.rules;
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      if (r.table !== table) continue;
      const name = ruleTargetName(r);
      if (name !== undefined && !STANDARD_TARGETS.has(name)) names.add(name);
    }
    return names;
  }

  function lintTarget(rule: Rule): void {
    const name = ruleTargetName(rule);
    if (name === undefined || STANDARD_TARGETS.has(name) || EXTENSION_TARGETS.has(name)) return;
    if (model.chain(rule.table, name)) return;
    // A complete dump: iptables-restore rejects the rule, an error. In a partial paste the chain may simply not have
    // been copied: a warning that says so, never an info that states the rejection as a fact.
    if (complete) add('undefined-chain', 'error', rule.target!.span, { chain: name, table: rule.table });
    else
      add('undefined-chain', 'warning', rule.target!.span, { chain: name, table: rule.table }, undefined, '.partial');
  }

  function lintModules(rule: Rule): void {
    // Names first: a rule's options and spans are built only when one of them is to be reported.
    if (!hasUnknownNames(rule)) return;
    for (const m of rule.matches) {
      if (m.module === 'unparsed') continue;
      const known = knownModuleOptions(m.module);
      if (!known) {
        if (m.moduleSpan) add('unknown-module', 'warning', m.moduleSpan, { module: m.module });
        continue;
      }
      for (const o of m.options) {
        if (!known.has(o.name))
          add('unknown-option', 'warning', o.span, { option: o.written, module: m.module || 'iptables' });
      }
    }
    const target = rule.target;
    const targetKnown = target ? knownTargetOptions(target.name) : undefined;
    if (target && targetKnown) {
      for (const o of target.options) {
        if (!targetKnown.has(o.name))
          add('unknown-option', 'warning', o.span, { option: o.written, module: target.name });
      }
    }
  }

  /** `cut`: the text ends inside the chain's rules (its table has no COMMIT): its last rules may be missing. */
  function lintChainRules(chain: Chain, cut = false): void {
    const rules = chain.rules;
    // Rules with the same text have the same target: a rule is compared with the earlier ones of its target only,
    // and a rule's text is read when a second rule of its target comes (in a kube-proxy dump, almost never). A
    // short chain (nearly all of a big dump's) finds those by its targets' names, kept in a scratch array, so it
    // builds nothing; a long one finds them through a map of its targets (to the index of a target's only rule, a
    // group from its second: KUBE-SERVICES has a rule per target), and a target with many rules through a map of
    // their texts.
    const byTarget =
      rules.length > SHORT_CHAIN
        ? new Map<string | undefined, number | { rules: number[]; byText?: Map<string, number> }>()
        : undefined;
    let texts: (string | undefined)[] | undefined;
    let terminalAt: Rule | undefined;
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      if (terminalAt) {
        add('unreachable-rule', 'warning', r.span, { chain: chain.name, line: terminalAt.line + 1 }, [
          { span: terminalAt.span, message: 'unconditional rule' },
        ]);
      }
      const name = ruleTargetName(r);
      let dup: Rule | undefined;
      if (!byTarget) {
        chainTargetNames[i] = name;
        for (let e = 0; e < i && !dup; e++) {
          if (chainTargetNames[e] !== name) continue;
          texts ??= [];
          const normalized = textAt(texts, rules, i);
          const other = textAt(texts, rules, e);
          if (other.length === normalized.length && other === normalized) dup = rules[e];
        }
      } else {
        let group = byTarget.get(name);
        if (group === undefined) byTarget.set(name, i);
        else {
          if (typeof group === 'number') byTarget.set(name, (group = { rules: [group] }));
          texts ??= [];
          const normalized = textAt(texts, rules, i);
          if (!group.byText && group.rules.length >= 16) {
            group.byText = new Map();
            for (const e of group.rules) {
              const text = textAt(texts, rules, e);
              if (!group.byText.has(text)) group.byText.set(text, e);
            }
          }
          if (group.byText) {
            const first = group.byText.get(normalized);
            if (first === undefined) group.byText.set(normalized, i);
            else dup = rules[first];
          } else {
            for (let e = 0; e < group.rules.length && !dup; e++) {
              const other = textAt(texts, rules, group.rules[e]);
              if (other.length === normalized.length && other === normalized) dup = rules[group.rules[e]];
            }
            group.rules.push(i);
          }
        }
      }
      if (dup)
        add('duplicate-rule', 'warning', r.span, { line: dup.line + 1 }, [{ span: dup.span, message: 'first copy' }]);
      // The target is built only for an unconditional rule whose target's name does not say it ends the chain.
      if (!terminalAt && name !== undefined && isUnconditional(r) && (TERMINAL.has(name) || r.target!.kind === 'goto'))
        terminalAt = r;
    }
    // A ladder the paste cut is not the node's: its missing rules would make any probability look wrong.
    if (!cut) lintLadder(chain);
  }

  /** kube-proxy's ladder: rule i of n (0-based) has p = 1/(n-i), so each endpoint gets 1/n. */
  function lintLadder(chain: Chain): void {
    const kind = kubeChainKind(chain.name);
    if (kind !== 'service' && kind !== 'service-local') return;
    // Counted first and then read: a list of the ladder's rules per Service chain was garbage.
    const rules = chain.rules;
    let n = 0;
    for (let j = 0; j < rules.length; j++) if (isLadderRule(rules[j])) n++;
    for (let j = 0, i = 0; j < rules.length; j++) if (isLadderRule(rules[j])) lintLadderRule(rules[j], i++, n);
  }

  /** Rule i of a ladder of n. */
  function lintLadderRule(r: Rule, i: number, n: number): void {
    const p = firstModuleOption(r, 'statistic', 'probability');
    const want = 1 / (n - i);
    if (i === n - 1) {
      if (p)
        add('probability-ladder', 'warning', p.span, {
          k: i + 1,
          n,
          want: '1 (no statistic match)',
          got: p.values[0] ?? '?',
        });
      return;
    }
    const got = p ? Number(p.values[0]) : NaN;
    // 1e-4 tolerates the 5-decimal probabilities of kube-proxy before 1.17.
    if (!p || !(Math.abs(got - want) < 1e-4))
      add('probability-ladder', 'warning', p?.span ?? r.span, {
        k: i + 1,
        n,
        want: want.toFixed(10),
        got: p?.values[0] ?? 'none',
      });
  }

  function lintKubeServices(): void {
    for (const s of model.kube.services) {
      // A Service's lines are gathered when asked for: only for the one diagnostic that points at them.
      if (s.noEndpoints) {
        const anchorLine = s.lines[0];
        const anchor = anchorLine !== undefined ? model.ruleAtLine(anchorLine)?.span : undefined;
        if (anchor) add('service-no-endpoints', 'warning', anchor, { service: s.name || '?' });
      }
      if (complete && s.chain && s.endpoints.length === 0 && !s.noEndpoints) {
        const chain = model.chainsNamed(s.chain)[0];
        const span = chain?.declSpan ?? chain?.rules[0]?.span;
        if (span) add('service-chain-no-endpoints', 'warning', span, { chain: s.chain, service: s.name || '?' });
      }
      if (s.hashVerified === false) {
        for (const c of s.chains) {
          const ch = model.chainsNamed(c.name)[0];
          const span = ch?.declSpan ?? model.references(ch?.table ?? 'nat', c.name)[0]?.target?.span;
          if (span)
            add('hash-mismatch', 'warning', span, { chain: c.name, service: s.name, protocol: s.protocol ?? '?' });
        }
      }
    }
    for (const c of model.chainsNamed('KUBE-SERVICES')) {
      const idx = c.rules.findIndex((r) => ruleTargetName(r) === 'KUBE-NODEPORTS');
      if (idx >= 0 && idx !== c.rules.length - 1) {
        const r = c.rules[idx];
        add('nodeports-not-last', 'warning', r.span, { count: c.rules.length - 1 - idx }, [
          { span: c.rules[c.rules.length - 1].span, message: 'last rule' },
        ]);
      }
    }
  }
}

/** Above this many rules a chain finds its rules of one target through a map (see lintChainRules). */
const SHORT_CHAIN = 32;
/** The target names of the chain lintChainRules reads, by index (a scratch array: only indices below `i` are read). */
const chainTargetNames: (string | undefined)[] = [];

/** Rule i's comparable text, read once per chain. */
function textAt(texts: (string | undefined)[], rules: readonly Rule[], i: number): string {
  return (texts[i] ??= withoutFamilyOption(rules[i], ruleComparableText(rules[i]), ownFamily));
}

/** An endpoint rule of a Service chain's probability ladder (a `recent` rule is session affinity's, not a step). */
function isLadderRule(r: Rule): boolean {
  return kubeChainKind(ruleTargetName(r) ?? '') === 'endpoint' && !ruleHasModule(r, 'recent');
}

// The name visitors below are functions of their own with their findings in module variables, not closures: lint
// visits every rule's names, and two closures and their context per rule were a fifth of what it allocated. Lint
// runs to its end without yielding, so one set of variables serves.
let conditional = false;
/** `-4` in IPv4 rules (`-6` in IPv6 ones) is no condition: iptables takes the rule as if it were not there. */
let ownFamily: 'ipv4' | 'ipv6' = 'ipv4';
let unknownName = false;
let targetKnown: ReadonlySet<string> | undefined;

function noteConditionModule(module: string): void {
  // `-m ""` (a module without a name, and so without options) does not narrow the rule.
  if (module !== 'comment' && module !== '') conditional = true;
}

function noteConditionOption(module: string | null, name: string): void {
  if (module !== null && module !== 'comment' && !(module === '' && name === ownFamily)) conditional = true;
}

/** A rule with no conditions but (at most) a comment matches every packet. */
function isUnconditional(r: Rule): boolean {
  // A listing row without interface columns may match an interface nobody can see.
  if (r.interfacesHidden) return false;
  conditional = false;
  forEachModuleName(r, noteConditionModule);
  if (!conditional) forEachOptionName(r, noteConditionOption);
  return !conditional;
}

function noteUnknownModule(module: string, explicit: boolean): void {
  if (explicit && module !== 'unparsed' && !knownModuleOptions(module)) unknownName = true;
}

function noteUnknownOption(module: string | null, name: string): void {
  if (module === null) {
    if (targetKnown && !targetKnown.has(name)) unknownName = true;
  } else if (module !== 'unparsed') {
    const known = knownModuleOptions(module);
    if (known && !known.has(name)) unknownName = true;
  }
}

/** Whether lint has a module or option of this rule to report (read from names, without building options). */
function hasUnknownNames(r: Rule): boolean {
  unknownName = false;
  forEachModuleName(r, noteUnknownModule);
  const targetName = ruleTargetName(r);
  targetKnown = targetName !== undefined ? knownTargetOptions(targetName) : undefined;
  forEachOptionName(r, noteUnknownOption);
  targetKnown = undefined;
  return unknownName;
}
