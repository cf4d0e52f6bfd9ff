/**
 * Positions as the person's text has them, for the faces that print or take positions (the CLI; the language
 * server maps whole answers in server/pasteMapping.ts). They differ from the engines' only when a kube-proxy log
 * line carried the dump with its line breaks escaped, or a page's source its characters as HTML references
 * (`Analysis.positions`); otherwise everything is returned as it is.
 */
import type { Analysis } from './analyze';
import type { Diagnostic, Span } from './common/diagnostics';
import type { PastePositions, TextPosition } from './common/pastePositions';
import type { TraceResult, TraceStep } from './iptables/trace/types';

function spanInDocument(map: PastePositions, s: Span): Span {
  const start = map.toOriginal(s.line, s.column);
  const end = map.toOriginal(s.line, s.column + s.length);
  return {
    line: start.line,
    column: start.column,
    length: end.line === start.line ? end.column - start.column : s.length,
  };
}

/** The diagnostic at the text's line and column. */
export function documentDiagnostic(a: Analysis, d: Diagnostic): Diagnostic {
  const map = a.positions;
  if (!map) return d;
  return {
    ...d,
    span: spanInDocument(map, d.span),
    ...(d.related ? { related: d.related.map((r) => ({ ...r, span: spanInDocument(map, r.span) })) } : {}),
  };
}

/** The trace's step lines as the text's (in place: a result is made for the one caller that asked). */
export function documentTrace(a: Analysis, r: TraceResult): TraceResult {
  const map = a.positions;
  if (!map) return r;
  const moved = new Set<TraceStep>();
  const move = (s: TraceStep) => {
    if (moved.has(s)) return;
    moved.add(s);
    if (s.line >= 0) s.line = map.lineToOriginal(s.line);
    if (s.skipped) s.skipped = { ...s.skipped, lastLine: map.lineToOriginal(s.skipped.lastLine) };
  };
  for (const s of r.sharedSteps) move(s.step);
  for (const p of r.paths) for (const s of p.ownSteps) move(s);
  return r;
}

/** The engines' line and column of a position in the text. */
export function enginePosition(a: Analysis, line: number, column: number): TextPosition {
  return a.positions ? a.positions.toEngine(line, column) : { line, column };
}
