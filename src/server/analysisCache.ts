/**
 * Parses each open document once per version and keeps the result: every request (hover, symbols, tokens...)
 * answers from the cached model and its indexes instead of re-reading the text.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeText, type Analysis } from '../core/analyze';
import type { DumpKind } from '../core/detect';

interface Entry {
  version: number;
  languageId: string;
  analysis: Analysis;
}

export function kindForLanguage(languageId: string): DumpKind | undefined {
  if (languageId === 'iptables') return 'iptables';
  if (languageId === 'ipvs') return 'ipvs';
  return undefined;
}

export class AnalysisCache {
  private readonly entries = new Map<string, Entry>();

  get(doc: TextDocument): Analysis {
    const hit = this.entries.get(doc.uri);
    if (hit && hit.version === doc.version && hit.languageId === doc.languageId) return hit.analysis;
    const analysis = analyzeText(doc.getText(), kindForLanguage(doc.languageId));
    this.entries.set(doc.uri, { version: doc.version, languageId: doc.languageId, analysis });
    return analysis;
  }

  /** The last analysis even if the document changed since (for workspace-wide queries that need not be fresh). */
  peek(uri: string): Analysis | undefined {
    return this.entries.get(uri)?.analysis;
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }

  uris(): string[] {
    return [...this.entries.keys()];
  }
}
