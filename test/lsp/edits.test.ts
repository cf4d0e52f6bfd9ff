/**
 * Edits as an editor sends them (typing: one change per didChange; replace-all and multi-cursor: many changes in
 * one, each range read in the text the ones before it left) leave the server holding the editor's text: after
 * random batches, diagnostics, symbols, folds and hovers are those of the same text opened afresh.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  DidChangeTextDocumentNotification,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Rng } from '../helpers/mutate';
import { kubeProxyDump } from '../unit/trace/helpers';
import { startSession, type LspSession } from './client';

const TEXT = kubeProxyDump(
  Array.from({ length: 12 }, (_, i) => ({
    ns: 'shop',
    name: `s${i}`,
    clusterIP: `10.96.0.${10 + i}`,
    port: 80,
    endpoints: [`10.244.1.${i + 1}:8080`, `10.244.2.${i + 1}:8080`],
  })),
);
let s: LspSession;

before(async () => {
  // The session's own copy of the text follows TextDocument.update, which a change past the last line misleads:
  // the answers are compared with a fresh open's here, not validated against that copy.
  s = await startSession({ onInvalid: () => undefined });
});
after(async () => {
  await s.close();
});

/** `change` applied to `text`, reading its range in `text` as a document opened afresh reads it. */
function applied(text: string, change: TextDocumentContentChangeEvent): string {
  return TextDocument.update(TextDocument.create('file:///x', 'iptables', 1, text), [change], 2).getText();
}

/** A change at a random place of `text`: a typed character or line, a deletion, or a name replaced. */
function randomChange(rng: Rng, text: string): TextDocumentContentChangeEvent {
  const doc = TextDocument.create('file:///x', 'iptables', 1, text);
  const lines = doc.lineCount;
  if (rng.int(40) === 0) {
    // Appended after the last line, by a range past it (some clients write the end so).
    return { range: { start: { line: lines, character: 0 }, end: { line: lines + 1, character: 0 } }, text: '\n#' };
  }
  const start = { line: rng.int(lines), character: rng.int(60) };
  const kind = rng.int(4);
  if (kind === 0) return { range: { start, end: start }, text: rng.pick(['x', ' ', '\n', '-', 'KUBE-MARK-MASQ']) };
  if (kind === 1)
    return { range: { start, end: { line: start.line, character: start.character + 1 + rng.int(8) } }, text: '' };
  if (kind === 2) return { range: { start, end: { line: start.line + 1 + rng.int(2), character: 0 } }, text: '' };
  const at = text.indexOf('KUBE-MARK-MASQ', doc.offsetAt(start));
  if (at < 0) return { range: { start, end: start }, text: '\r\n' };
  return { range: { start: doc.positionAt(at), end: doc.positionAt(at + 14) }, text: 'KUBE-MARK-MASQ2' };
}

async function answers(uri: string, text: string, diagnostics: PublishDiagnosticsParams) {
  const doc = TextDocument.create(uri, 'iptables', 1, text);
  const textDocument = { uri };
  const hovers = [];
  for (let line = 0; line < doc.lineCount; line += 7)
    hovers.push(await s.connection.sendRequest(HoverRequest.type, { textDocument, position: { line, character: 4 } }));
  return {
    diagnostics: diagnostics.diagnostics,
    symbols: await s.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }),
    folds: await s.connection.sendRequest(FoldingRangeRequest.type, { textDocument }),
    hovers,
  };
}

test('random batches of edits leave the text, diagnostics, symbols, folds and hovers of a fresh open', async () => {
  for (const seed of [1, 2, 3]) {
    const rng = new Rng(seed);
    const uri = `file:///work/edited-${seed}.iptables`;
    await s.open(uri, 'iptables', TEXT);
    let text = TEXT;
    let version = 1;
    for (let batch = 0; batch < 30; batch++) {
      // Typing sends one change; a replace-all or a multi-cursor edit many.
      const n = rng.int(3) === 0 ? 20 + rng.int(60) : 1;
      const contentChanges: TextDocumentContentChangeEvent[] = [];
      for (let i = 0; i < n; i++) {
        const change = randomChange(rng, text);
        contentChanges.push(change);
        text = applied(text, change);
      }
      await s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: ++version },
        contentChanges,
      });
    }
    const last = version;
    const edited = await s.waitDiagnostics(uri, (p) => p.version === last);
    const freshUri = `file:///work/fresh-${seed}.iptables`;
    const fresh = await s.open(freshUri, 'iptables', text);
    assert.deepEqual(await answers(uri, text, edited), await answers(freshUri, text, fresh), `seed ${seed}`);
  }
});
