/**
 * Positions and diagnostics shared by every parser in the engine.
 * Lines and columns are 0-based internally (as in LSP); faces that print for people (the CLI) add 1.
 */
export interface Span {
  line: number;
  column: number;
  length: number;
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';

export interface RelatedLocation {
  span: Span;
  message: string;
  /** Catalog key of `message`, when it has one (see Diagnostic.messageKey). */
  messageKey?: string;
}

export interface Diagnostic {
  span: Span;
  severity: Severity;
  /** Stable code, e.g. `KPP101`; the catalog in `core/i18n` holds its texts. */
  code: string;
  message: string;
  related?: RelatedLocation[];
  /** Catalog key and params of `message` (English): faces render them in the person's language. */
  messageKey?: string;
  params?: Record<string, string | number>;
}

export function span(line: number, column: number, length: number): Span {
  return { line, column, length };
}

/** Whole-line span helper for diagnostics about a line as a whole. */
export function lineSpan(line: number, text: string): Span {
  const start = text.length - text.trimStart().length;
  return { line, column: start, length: Math.max(1, text.trimEnd().length - start) };
}
