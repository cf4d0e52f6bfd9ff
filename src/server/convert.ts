/** Conversions between engine spans and LSP ranges/diagnostics. */
import type { Diagnostic as LspDiagnostic, Range } from 'vscode-languageserver';
import { DiagnosticSeverity } from './lspConstants';
import type { Diagnostic, Severity, Span } from '../core/common/diagnostics';

export function toRange(s: Span): Range {
  return { start: { line: s.line, character: s.column }, end: { line: s.line, character: s.column + s.length } };
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(d: Diagnostic, uri: string): LspDiagnostic {
  return {
    range: toRange(d.span),
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'kube-packet-path',
    message: d.message,
    ...(d.related?.length
      ? {
          relatedInformation: d.related.map((r) => ({ location: { uri, range: toRange(r.span) }, message: r.message })),
        }
      : {}),
  };
}
