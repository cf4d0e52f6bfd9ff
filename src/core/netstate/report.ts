/** Collects the network parsers' diagnostics, with texts from the i18n catalog (`routes.diag.*`). */
import type { Diagnostic, Severity, Span } from '../common/diagnostics';
import { t, type Lang } from '../i18n/catalog';

/** Stable diagnostic codes of the network-output parsers. */
export const ROUTES_CODES = [
  'routes-unrecognized-line',
  'routes-command-error',
  'routes-route-unknown-word',
  'routes-route-missing-value',
  'routes-route-bad-address',
  'routes-route-no-destination',
  'routes-nexthop-without-route',
  'routes-cache-without-route-get',
  'routes-addr-outside-interface',
  'routes-addr-unknown-detail',
  'routes-addr-bad-address',
  'routes-route-n-bad-row',
  'routes-route-n-bad-genmask',
  'routes-conntrack-missing-protocol',
  'routes-conntrack-unknown-word',
  'routes-ipset-member-outside-set',
  'routes-ipset-bad-member',
  'routes-ipset-unknown-field',
  'routes-ipset-count-mismatch',
  'routes-rule-unknown-word',
  'routes-rule-table-not-pasted',
] as const;

export type RoutesCode = (typeof ROUTES_CODES)[number];

/** The catalog key of a code's message: `routes-route-bad-address` -> `routes.diag.route-bad-address`. */
export function messageKey(code: RoutesCode): string {
  return `routes.diag.${code.slice('routes-'.length)}`;
}

export class Reporter {
  readonly diagnostics: Diagnostic[] = [];

  constructor(private readonly lang: Lang) {}

  report(code: RoutesCode, severity: Severity, span: Span, params?: Record<string, string | number>): void {
    this.diagnostics.push({
      span,
      severity,
      code,
      message: t(this.lang, messageKey(code), params),
      messageKey: messageKey(code),
      ...(params ? { params } : {}),
    });
  }
}
