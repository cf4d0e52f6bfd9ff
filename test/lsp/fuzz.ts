/**
 * The language-server fuzzer, shared by the LSP test suite (fixed seed, a few hundred operations) and
 * `npm run bench` (thousands): mutated real dumps are opened, edited at random (incremental didChange, often
 * without waiting for the new analysis), and after each edit every request kind the server supports is sent at
 * random places. The session's validator (test/lsp/client.ts) checks every answer; this module counts operations,
 * failures by kind and latencies per request.
 */
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  CodeLensRequest,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  InlayHintRequest,
  ReferencesRequest,
  ResponseError,
  SemanticTokensRangeRequest,
  SemanticTokensRequest,
  WorkspaceSymbolRequest,
  type CallHierarchyItem,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ListTargetsRequest, TracePacketRequest } from '../../src/server/protocol';
import { Rng, applyEdit, mutate, randomEdit, type FuzzSource } from '../helpers/mutate';
import { InvalidResponseError, type LspSession } from './client';
import { lspLines, type Problem } from './validate';

export interface FuzzStats {
  operations: number;
  edits: number;
  documents: number;
  /** Failures by kind and request: validator problem kinds, `hang`, `internal-error`, `server-exit`, ... */
  failures: Record<string, number>;
  /** Error responses by code (a trace of a bad address is -32602; an abandoned request -32803): not failures. */
  errors: Record<string, number>;
  /** The first failures of each kind in full, to reproduce them. */
  examples: string[];
  latencies: Record<string, number[]>;
}

export interface FuzzOptions {
  seed: number;
  /** Documents opened, one after another (each closed before the next). */
  documents: number;
  /** Random edits per document; after each, one request of every kind. */
  editsPerDocument: number;
  /** Called after every edit round (the bench samples memory here). */
  onRound?: (stats: FuzzStats) => void | Promise<void>;
}

export function emptyStats(): FuzzStats {
  return { operations: 0, edits: 0, documents: 0, failures: {}, errors: {}, examples: [], latencies: {} };
}

/** Records an invalid answer reported by the session's validator (pass as the session's `onInvalid`). */
export function recordInvalid(stats: FuzzStats, method: string, problems: Problem[]): void {
  for (const p of problems) count(stats, `${p.kind} (${method})`, p.message);
}

function count(stats: FuzzStats, key: string, example: string): void {
  const n = (stats.failures[key] = (stats.failures[key] ?? 0) + 1);
  if (n <= 2 && stats.examples.length < 60) stats.examples.push(example);
}

function randomPosition(lines: string[], rng: Rng) {
  const line = rng.int(lines.length);
  const text = lines[line];
  // Mostly on a word (where people hover), sometimes anywhere on the line, its end included.
  let character = rng.int(text.length + 1);
  if (rng.next() < 0.7) {
    const words = [...text.matchAll(/\S+/g)];
    if (words.length) {
      const w = rng.pick(words);
      character = w.index! + rng.int(w[0].length);
    }
  }
  // Never inside a surrogate pair: an editor does not put the cursor there.
  const code = text.charCodeAt(character - 1);
  if (character > 0 && code >= 0xd800 && code <= 0xdbff) character--;
  return { line, character };
}

/** Runs the fuzzer on one session; returns what it counted (failures are counted, not thrown). */
export async function runLspFuzz(
  s: LspSession,
  sources: FuzzSource[],
  options: FuzzOptions,
  stats: FuzzStats = emptyStats(),
): Promise<FuzzStats> {
  const rng = new Rng(options.seed);
  const c = s.connection;
  const fail = (kind: string, message: string) => count(stats, kind, message);
  const send = async <R>(method: string, run: () => Promise<R>): Promise<R | undefined> => {
    stats.operations++;
    const started = performance.now();
    try {
      const r = await run();
      (stats.latencies[method] ??= []).push(performance.now() - started);
      return r;
    } catch (e) {
      (stats.latencies[method] ??= []).push(performance.now() - started);
      if (e instanceof InvalidResponseError) recordInvalid(stats, method, e.problems);
      else if (e instanceof ResponseError) {
        stats.errors[`${method} ${e.code}`] = (stats.errors[`${method} ${e.code}`] ?? 0) + 1;
        if (e.code === -32603) fail('internal-error', `${method}: ${e.message}`);
      } else if (/no answer within/.test(String(e))) fail('hang', String(e).slice(0, 300));
      else fail('other', `${method}: ${String(e).slice(0, 300)}`);
      return undefined;
    }
  };

  for (let d = 0; d < options.documents; d++) {
    if (s.process.exitCode !== null) {
      fail('server-exit', `the server exited with ${s.process.exitCode}: ${s.stderr().slice(-1000)}`);
      break;
    }
    const source = rng.pick(sources);
    const uri = `file:///fuzz/${d}-${source.name.replace(/[^\w.-]+/g, '_')}`;
    // Sometimes the other language: a person picks the wrong one, or a paste is detected wrongly.
    const languageId = rng.next() < 0.15 ? (source.languageId === 'iptables' ? 'ipvs' : 'iptables') : source.languageId;
    let doc = TextDocument.create(uri, languageId, 1, mutate(source.text, rng, rng.int(4)));
    stats.documents++;
    await c.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text: doc.getText() },
    });
    if (rng.next() < 0.5) await s.waitDiagnostics(uri).catch((e) => fail('hang', String(e).slice(0, 300)));
    for (let k = 0; k < options.editsPerDocument; k++) {
      const edit = randomEdit(doc.getText(), rng);
      const range = { start: doc.positionAt(edit.start), end: doc.positionAt(edit.end) };
      const version = doc.version + 1;
      // A position cannot fall between the CR and LF of a line break: the edit is the one its range says.
      const expected = applyEdit(doc.getText(), {
        start: doc.offsetAt(range.start),
        end: doc.offsetAt(range.end),
        text: edit.text,
      });
      doc = TextDocument.update(doc, [{ range, text: edit.text }], version);
      if (doc.getText() !== expected) fail('other', 'the fuzzer applied an edit wrongly');
      stats.edits++;
      const wait = rng.next() < 0.3 ? s.waitDiagnostics(uri, (p) => p.version === version) : undefined;
      await c.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [{ range, text: edit.text }],
      });
      if (wait) await wait.catch((e) => fail('hang', String(e).slice(0, 300)));
      const lines = lspLines(doc.getText());
      const td = { uri };
      const at = () => randomPosition(lines, rng);
      const from = rng.int(lines.length);
      const to = Math.min(lines.length - 1, from + rng.int(120));
      // Every kind, concurrently as an editor sends them after an edit.
      const items = send('textDocument/prepareCallHierarchy', () =>
        c.sendRequest(CallHierarchyPrepareRequest.type, { textDocument: td, position: at() }),
      );
      const targets = send('kubePacketPath/listTargets', () => c.sendRequest(ListTargetsRequest, { uri }));
      await Promise.all([
        send('textDocument/hover', () => c.sendRequest(HoverRequest.type, { textDocument: td, position: at() })),
        send('textDocument/definition', () =>
          c.sendRequest(DefinitionRequest.type, { textDocument: td, position: at() }),
        ),
        send('textDocument/references', () =>
          c.sendRequest(ReferencesRequest.type, {
            textDocument: td,
            position: at(),
            context: { includeDeclaration: rng.next() < 0.5 },
          }),
        ),
        send('textDocument/documentSymbol', () => c.sendRequest(DocumentSymbolRequest.type, { textDocument: td })),
        send('workspace/symbol', () =>
          c.sendRequest(WorkspaceSymbolRequest.type, {
            query: rng.pick(['', 'KUBE', 'svc', 'default/', 'constructor', '__proto__']),
          }),
        ),
        send('textDocument/foldingRange', () => c.sendRequest(FoldingRangeRequest.type, { textDocument: td })),
        send('textDocument/codeLens', () => c.sendRequest(CodeLensRequest.type, { textDocument: td })),
        send('textDocument/inlayHint', () =>
          c.sendRequest(InlayHintRequest.type, {
            textDocument: td,
            range: { start: { line: from, character: 0 }, end: { line: to, character: 0 } },
          }),
        ),
        send('textDocument/semanticTokens/full', () => c.sendRequest(SemanticTokensRequest.type, { textDocument: td })),
        send('textDocument/semanticTokens/range', () =>
          c.sendRequest(SemanticTokensRangeRequest.type, {
            textDocument: td,
            range: { start: { line: from, character: 0 }, end: { line: to, character: lines[to].length } },
          }),
        ),
        items,
        targets,
      ]);
      const item: CallHierarchyItem | undefined = (await items)?.[0];
      const target = rng.pick((await targets) ?? []) as { destination?: string } | undefined;
      await Promise.all([
        item &&
          send('callHierarchy/incomingCalls', () => c.sendRequest(CallHierarchyIncomingCallsRequest.type, { item })),
        item &&
          send('callHierarchy/outgoingCalls', () => c.sendRequest(CallHierarchyOutgoingCallsRequest.type, { item })),
        send('kubePacketPath/tracePacket', () =>
          c.sendRequest(TracePacketRequest, {
            uri,
            src: rng.pick(['10.244.1.5', '192.168.0.1', 'fd00::5', 'constructor', '999.1.1.1']),
            dst:
              target?.destination ??
              rng.pick(['172.16.0.1:443', '10.96.0.10:53', '[fd00::1]:80', '1.2.3.4:99999', 'x:y']),
            proto: rng.pick(['tcp', 'udp', 'sctp'] as const),
          }),
        ),
      ]);
      await options.onRound?.(stats);
      if (s.process.exitCode !== null) break;
    }
    await c.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }
  if (s.process.exitCode !== null)
    fail('server-exit', `the server exited with ${s.process.exitCode}: ${s.stderr().slice(-1000)}`);
  // What the server logged about itself: a feature that threw, an answer of the current text it had to fit.
  for (const line of s.logs.splice(0)) {
    if (/answered what the editor rejects/.test(line)) fail('fitted-current-answer', line.slice(0, 400));
    else if (/ failed: |uncaught: /.test(line)) fail('server-error-logged', line.slice(0, 400));
  }
  return stats;
}
