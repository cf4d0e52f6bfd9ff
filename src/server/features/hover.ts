/** Hovers: the explainer's Markdown for the token under the cursor, in the session's language. */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import type { Analysis } from '../../core/analyze';
import type { Lang } from '../../core/i18n/catalog';
import { explainAt } from '../../core/iptables/explain';
import { explainIpvsAt } from '../../core/ipvs/explain';
import { toRange } from '../convert';

export function hover(a: Analysis, line: number, character: number, lang: Lang): Hover | null {
  const e = a.ipvs ? explainIpvsAt(a.ipvs, line, character, lang) : a.iptables ? explainAt(a.iptables, line, character, lang) : undefined;
  return e ? { contents: { kind: MarkupKind.Markdown, value: e.markdown }, range: toRange(e.span) } : null;
}
