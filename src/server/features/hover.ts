/** Hovers: the explainer's Markdown for the token under the cursor, in the session's language. */
import type { Hover } from 'vscode-languageserver';
import { MarkupKind } from '../lspConstants';
import { explainLine, type Analysis } from '../../core/analyze';
import type { Lang } from '../../core/i18n/catalog';
import { toRange } from '../convert';

/** Null when there is nothing to say: VS Code shows an empty hover box for empty contents. */
export function hover(a: Analysis, line: number, character: number, lang: Lang): Hover | null {
  const e = explainLine(a, line, character, lang);
  return e && e.markdown.trim()
    ? { contents: { kind: MarkupKind.Markdown, value: e.markdown }, range: toRange(e.span) }
    : null;
}
