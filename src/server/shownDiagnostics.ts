/**
 * What of a document's diagnostics the editor is sent. A dump with a rule pasted 100,000 times (a firewall script
 * run in a loop, a controller appending on every sync) has as many `duplicate-rule` warnings: sent whole they were
 * a 41 MB message and a Problems panel nobody can read. The first ones of each code are sent, then one diagnostic
 * says how many more there are; `kpp lint` lists them all.
 */
import type { Diagnostic } from '../core/common/diagnostics';
import { tn, type Lang } from '../core/i18n/catalog';

/** Diagnostics of one code sent before the rest are counted instead. */
export const SHOWN_PER_CODE = 1000;
export const CAPPED_CODE = 'diagnostics-capped';

export function shownInEditor(found: Diagnostic[], lang: Lang): Diagnostic[] {
  if (found.length <= SHOWN_PER_CODE) return found;
  const seen = new Map<string, number>();
  const hidden = new Map<string, { first: Diagnostic; count: number }>();
  const shown: Diagnostic[] = [];
  for (const d of found) {
    const n = (seen.get(d.code) ?? 0) + 1;
    seen.set(d.code, n);
    if (n <= SHOWN_PER_CODE) shown.push(d);
    else {
      const more = hidden.get(d.code);
      if (more) more.count++;
      else hidden.set(d.code, { first: d, count: 1 });
    }
  }
  for (const [code, { first, count }] of hidden) {
    const params = { code, shown: SHOWN_PER_CODE };
    shown.push({
      span: first.span,
      severity: first.severity,
      code: CAPPED_CODE,
      message: tn(lang, 'ui.diagnostics.capped', count, params),
      messageKey: 'ui.diagnostics.capped',
      params: { ...params, count },
    });
  }
  return shown;
}
