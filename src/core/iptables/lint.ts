/**
 * Findings over an iptables dump, each with a stable code (its texts are `lint.<code>` in the i18n catalog).
 * Checks that only make sense on a whole dump (unreferenced chains, undefined targets) stay quiet on partial
 * pastes, where missing pieces are expected.
 */
import type { Diagnostic, RelatedLocation, Severity } from '../common/diagnostics';
import { t, type Lang } from '../i18n/catalog';
import type { IptablesModel } from './model';
import { kubeChainKind } from './chainHashes';
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

  for (const table of dump.tables) {
    const referenced = complete && table.chains.size <= LARGE_DUMP_CHAINS ? targetsIn(table.name) : undefined;
    for (const chain of table.chains.values()) {
      lintChainRules(chain);
      if (referenced && !chain.builtin && chain.declSpan && !referenced.has(chain.name)) {
        add('unreferenced-chain', 'hint', chain.declSpan, { chain: chain.name, table: table.name });
      }
    }
  }

  for (const rule of dump.rules) {
    lintTarget(rule);
    lintModules(rule);
  }

  lintKubeServices();

  const split = dump.backendWarnings.find((w) => /legacy tables present|iptables-legacy-save/i.test(w.text));
  if (split) {
    const w = split;
    add('legacy-nft-split', 'warning', { line: w.line, column: 0, length: w.text.length + 2 }, { text: w.text });
  }
  return out.sort((a, b) => a.span.line - b.span.line || a.span.column - b.span.column);

  /**
   * Names the table's rules jump or go to (every rule line counts, as in the model's references). Read from the
   * table's own rules: asking the model would index the jump graph of the whole dump for one small table.
   */
  function targetsIn(table: string): Set<string> {
    const names = new Set<string>();
    for (const r of dump.rules) {
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

  function lintChainRules(chain: Chain): void {
    const rules = chain.rules;
    // Rules with the same text have the same target: a rule is compared with the earlier ones of its target only,
    // and a rule's text is read when a second rule of its target comes (in a kube-proxy dump, almost never).
    // A target with many rules (long chains) finds them through a map of their texts instead.
    const byTarget = new Map<string | undefined, { rules: number[]; byText?: Map<string, number> }>();
    const texts: (string | undefined)[] = [];
    const textOf = (i: number) => (texts[i] ??= ruleComparableText(rules[i]));
    let terminalAt: Rule | undefined;
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      if (terminalAt) {
        add('unreachable-rule', 'warning', r.span, { chain: chain.name, line: terminalAt.line + 1 }, [
          { span: terminalAt.span, message: 'unconditional rule' },
        ]);
      }
      const name = ruleTargetName(r);
      const group = byTarget.get(name);
      let dup: Rule | undefined;
      if (!group) byTarget.set(name, { rules: [i] });
      else {
        const normalized = textOf(i);
        if (!group.byText && group.rules.length >= 16) {
          group.byText = new Map();
          for (const e of group.rules) if (!group.byText.has(textOf(e))) group.byText.set(textOf(e), e);
        }
        if (group.byText) {
          const first = group.byText.get(normalized);
          if (first === undefined) group.byText.set(normalized, i);
          else dup = rules[first];
        } else {
          for (let e = 0; e < group.rules.length && !dup; e++) {
            const other = textOf(group.rules[e]);
            if (other.length === normalized.length && other === normalized) dup = rules[group.rules[e]];
          }
          group.rules.push(i);
        }
      }
      if (dup)
        add('duplicate-rule', 'warning', r.span, { line: dup.line + 1 }, [{ span: dup.span, message: 'first copy' }]);
      if (!terminalAt) {
        if (name !== undefined && (TERMINAL.has(name) || r.target!.kind === 'goto') && isUnconditional(r))
          terminalAt = r;
      }
    }
    lintLadder(chain);
  }

  /** kube-proxy's ladder: rule i of n (0-based) has p = 1/(n-i), so each endpoint gets 1/n. */
  function lintLadder(chain: Chain): void {
    const kind = kubeChainKind(chain.name);
    if (kind !== 'service' && kind !== 'service-local') return;
    const ladder = chain.rules.filter(
      (r) => kubeChainKind(ruleTargetName(r) ?? '') === 'endpoint' && !ruleHasModule(r, 'recent'),
    );
    const n = ladder.length;
    ladder.forEach((r, i) => {
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
      const idx = c.rules.findIndex((r) => r.target?.name === 'KUBE-NODEPORTS');
      if (idx >= 0 && idx !== c.rules.length - 1) {
        const r = c.rules[idx];
        add('nodeports-not-last', 'warning', r.span, { count: c.rules.length - 1 - idx }, [
          { span: c.rules[c.rules.length - 1].span, message: 'last rule' },
        ]);
      }
    }
  }
}

/** A rule with no conditions but (at most) a comment matches every packet. */
function isUnconditional(r: Rule): boolean {
  // A listing row without interface columns may match an interface nobody can see.
  if (r.interfacesHidden) return false;
  let conditional = false;
  forEachModuleName(r, (module) => {
    // `-m ""` (a module without a name, and so without options) does not narrow the rule.
    if (module !== 'comment' && module !== '') conditional = true;
  });
  forEachOptionName(r, (module) => {
    if (module !== null && module !== 'comment') conditional = true;
  });
  return !conditional;
}

/** Whether lint has a module or option of this rule to report (read from names, without building options). */
function hasUnknownNames(r: Rule): boolean {
  let unknown = false;
  forEachModuleName(r, (module, explicit) => {
    if (explicit && module !== 'unparsed' && !knownModuleOptions(module)) unknown = true;
  });
  const targetName = ruleTargetName(r);
  const targetKnown = targetName !== undefined ? knownTargetOptions(targetName) : undefined;
  forEachOptionName(r, (module, name) => {
    if (module === null) {
      if (targetKnown && !targetKnown.has(name)) unknown = true;
    } else if (module !== 'unparsed') {
      const known = knownModuleOptions(module);
      if (known && !known.has(name)) unknown = true;
    }
  });
  return unknown;
}
