/**
 * The LSP constants the analysis worker's features use, as plain values: taken from vscode-languageserver, they
 * loaded the whole protocol library into every worker (about 8 MB of each one's memory) for a few numbers. Each
 * is checked against the library's own literal type, so tsc refuses a value that differs.
 */
import type * as lsp from 'vscode-languageserver';

export const SymbolKind = {
  Module: 2,
  Namespace: 3,
  Class: 5,
  Field: 8,
  Interface: 11,
  Function: 12,
  Constant: 14,
  Array: 18,
  Struct: 23,
  Event: 24,
  Operator: 25,
} as const satisfies Partial<typeof lsp.SymbolKind>;

export const DiagnosticSeverity = {
  Error: 1,
  Warning: 2,
  Information: 3,
  Hint: 4,
} as const satisfies typeof lsp.DiagnosticSeverity;

export const FoldingRangeKind = { Region: 'region' } as const satisfies Partial<typeof lsp.FoldingRangeKind>;

export const MarkupKind = { Markdown: 'markdown' } as const satisfies Partial<typeof lsp.MarkupKind>;

export const InlayHintKind = { Type: 1 } as const satisfies Partial<typeof lsp.InlayHintKind>;

export type SymbolKind = lsp.SymbolKind;
export type DiagnosticSeverity = lsp.DiagnosticSeverity;
