/**
 * Parse problems as diagnostics whose text comes from the catalog (`parse.<code>`): the English message is filled
 * here, and the key and params go along so the editor and `kpp lint --lang` show the person's language.
 */
import type { Diagnostic, RelatedLocation, Severity, Span } from '../common/diagnostics';
import { t } from '../i18n/catalog';

export type Params = Record<string, string | number>;

/** `variant` picks a second text of the same code (`parse.<code>.<variant>`). */
export function problem(
  code: string,
  severity: Severity,
  span: Span,
  params?: Params,
  variant?: string,
  related?: RelatedLocation[],
): Diagnostic {
  const messageKey = variant ? `parse.${code}.${variant}` : `parse.${code}`;
  return {
    span,
    severity,
    code,
    message: t('en', messageKey, params),
    messageKey,
    ...(params ? { params } : {}),
    ...(related ? { related } : {}),
  };
}

/** A related location whose text is a catalog key too. */
export function relatedAt(span: Span, key: string): RelatedLocation {
  return { span, message: t('en', `parse.related.${key}`), messageKey: `parse.related.${key}` };
}
