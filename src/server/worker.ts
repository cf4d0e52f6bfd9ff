/**
 * One analysis in a worker thread of the server's process: the worker reads one version of one document (the synchronous parse + model
 * of a 40 MB dump takes seconds) and then answers the feature requests on it, while the server keeps reading the
 * editor's messages. Messages are plain data both ways; an exception in a feature becomes an error answer.
 */
import { parentPort } from 'node:worker_threads';
import { analyzeText, diagnosticsOf, type Analysis } from '../core/analyze';
import { megabytes, setMemoryCheck, v8Heap, watchHeap } from '../core/common/memoryCheck';
import { t, type Lang } from '../core/i18n/catalog';
import type { IpFamily } from '../core/common/ip';
import type { DumpKind } from '../core/detect';
import { nftSkipsFamily } from '../core/iptables/trace/family';
import { kindOfLanguage } from '../core/languages';
import { diagnosticsOfBoth, inSkippedTable, readingAt, skippedFamilyReading } from '../core/nftFamilies';
import { toLspDiagnostic } from './convert';
import { shownInEditor } from './shownDiagnostics';
import { hover } from './features/hover';
import { networkSymbols } from './features/networkSymbols';
import { codeLenses, inlayHints } from './features/lens';
import { definition, incomingCalls, outgoingCalls, prepareCallHierarchy, references } from './features/navigation';
import { semanticTokens, semanticTokensIn } from './features/semanticTokens';
import { foldingRanges, outline, workspaceSymbols } from './features/symbols';
import { listTargets, TraceInputError, tracePacketRequest } from './features/trace';
import { fitResponse } from './fit';
import type { DocumentSymbol } from 'vscode-languageserver';
import { SymbolKind } from './lspConstants';
import { OpenList, writeJson, type JsonText } from './jsonAnswer';
import { collectGarbage } from './gc';
import { LineIndex } from './lineIndex';
import { paramsToEngine, resultToDocument } from './pasteMapping';
import { unpack } from './packedText';
import { WORKER_YOUNG_GENERATION_MB } from './workerThread';
import { METHODS } from './protocolNames';
import {
  isCancelled,
  REQUEST_CANCELLED,
  RequestCancelledError,
  runningRequest,
  throwIfCancelled,
  useCancelFlags,
} from './cancellation';

export type ToWorker =
  /** The marks of cancelled requests (cancellation.ts), sent before anything else. */
  | { kind: 'cancelFlags'; buffer: SharedArrayBuffer }
  /** A big text comes in parts: the parts sent before its `analyse` message, whose `text` is the last part. */
  | { kind: 'textPart'; part: string }
  /** A part compressed (packedText.ts). */
  | { kind: 'packedPart'; bytes: Uint8Array; wide: boolean }
  /** The parts sent are not for an analysis after all (a forwarded didOpen's text that is not analysed here). */
  | { kind: 'dropParts' }
  /** `early`: the parse problems are posted (`parsed`) as soon as they are known, before lint's findings. */
  | { kind: 'analyse'; uri: string; version: number; languageId: string; text: string; lang: Lang; early?: boolean }
  | { kind: 'request'; id: number; uri: string; method: string; params: unknown; lang: Lang }
  | { kind: 'drop'; uri: string };

export type FromWorker =
  /** The parse problems of an analysis whose lint goes on (asked for with `early`); `analysed` follows. */
  | { kind: 'parsed'; uri: string; version: number; diagnostics: unknown[]; ms: number }
  | { kind: 'analysed'; uri: string; version: number; diagnostics: unknown[]; ms: number }
  | { kind: 'analysisFailed'; uri: string; version: number; message: string }
  /** `fitted`: what the feature answered that the editor rejects, fitted here (a feature's bug, for the log). */
  | { kind: 'result'; id: number; result: unknown; fitted?: string[] }
  /** A result written as JSON text (jsonAnswer.ts), its blocks' buffers transferred. */
  | { kind: 'json'; id: number; text: JsonText; fitted?: string[] }
  | { kind: 'error'; id: number; code: number; message: string; log?: string };

export function kindForLanguage(languageId: string): DumpKind | undefined {
  return kindOfLanguage(languageId);
}

/** The document the worker holds: its analysis and its lines. */
export interface Held {
  readonly uri: string;
  readonly analysis: Analysis;
  /** The lines the engines read (the document's own unless a kube-proxy log carried them escaped). */
  readonly lines: LineIndex;
  /** The document's lines, when they differ from the engines'. */
  readonly documentLines?: LineIndex;
  /**
   * The analysis a packet of `family` is traced through: another reading of the text when it is an nft ruleset read
   * for the other family's tables (made when first asked, then kept).
   */
  analysisFor?(family: IpFamily): Analysis;
  /**
   * A dual-stack nft ruleset's tables of the family this analysis skipped, read on their own (`skippedFamilyReading`,
   * made when first asked, then kept): what answers their lines. Undefined for any other text.
   */
  skippedTables?(): Analysis | undefined;
  /** Reading the text stopped: it needs more than the worker's heap (the analysis is then an empty text's). */
  readonly tooLarge?: { readonly used: number; readonly limit: number };
}

/**
 * The document's lines are counted when first asked for (the diagnostics do not wait for them), or taken from the
 * engine's line index when it read this very text.
 */
function heldDocument(
  uri: string,
  analysis: Analysis,
  text: string,
  kind: DumpKind | undefined,
  tooLarge?: Held['tooLarge'],
): Held {
  let lines: LineIndex | undefined;
  let documentLines: LineIndex | undefined;
  let otherFamily: Analysis | undefined;
  let skippedTables: { reading: Analysis | undefined } | undefined;
  const analysisFor = (family: IpFamily): Analysis => {
    const dump = analysis.iptables?.dump;
    if (!dump || !nftSkipsFamily(dump, family)) return analysis;
    return (otherFamily ??= analyzeText(text, kind, { packetFamily: family }));
  };
  const linesOf = (engineText: string) =>
    analysis.lines?.text === engineText
      ? LineIndex.ofStarts(engineText, analysis.lines.start)
      : LineIndex.of(engineText);
  return {
    uri,
    analysis,
    ...(tooLarge && { tooLarge }),
    analysisFor,
    skippedTables: () => (skippedTables ??= { reading: skippedFamilyReading(analysis, text, kind) }).reading,
    get lines() {
      return (lines ??= linesOf(analysis.positions?.engineText ?? text));
    },
    get documentLines() {
      return analysis.positions ? (documentLines ??= LineIndex.of(text)) : undefined;
    },
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type Handler = (d: Held, p: any, lang: Lang) => unknown;

/** The requests a worker answers, by LSP method; `diagnostics` republishes in another language. */
export const HANDLERS: Record<string, Handler> = {
  'textDocument/hover': (d, p, lang) => hover(at(d, p.position), p.position.line, p.position.character, lang),
  'textDocument/definition': (d, p) => definition(at(d, p.position), d.uri, p.position.line, p.position.character),
  'textDocument/references': (d, p) =>
    references(at(d, p.position), d.uri, p.position.line, p.position.character, p.context.includeDeclaration),
  'textDocument/documentSymbol': (d, _p, lang) => [
    ...fromBothReadings(d, (a) => outline(a, d.lines, lang), symbolLine),
    ...networkSymbols(d.analysis, d.lines, lang),
  ],
  'workspace/symbol': (d, p) =>
    fromBothReadings(
      d,
      (a) => workspaceSymbols([{ uri: d.uri, analysis: a, lines: d.lines }], p.query),
      (sym) => ('range' in sym.location ? sym.location.range.start.line : undefined),
    ),
  'textDocument/foldingRange': (d) => fromBothReadings(d, foldingRanges, (f) => f.startLine),
  'textDocument/codeLens': (d, _p, lang) =>
    fromBothReadings(
      d,
      (a) => codeLenses(a, d.uri, lang),
      (l) => l.range.start.line,
    ),
  'textDocument/inlayHint': (d, p) =>
    fromBothReadings(
      d,
      (a) => inlayHints(a, p.range.start.line, p.range.end.line),
      (h) => h.position.line,
    ),
  'textDocument/semanticTokens/full': (d) => semanticTokens(d.analysis, skippedReading(d)),
  'textDocument/semanticTokens/range': (d, p) =>
    semanticTokensIn(d.analysis, { from: p.range.start.line, to: p.range.end.line }, skippedReading(d)),
  'textDocument/prepareCallHierarchy': (d, p) =>
    prepareCallHierarchy(at(d, p.position), d.uri, p.position.line, p.position.character, d.lines),
  'callHierarchy/incomingCalls': (d, p) => incomingCalls(at(d, p.item.selectionRange.start), d.uri, p.item, d.lines),
  'callHierarchy/outgoingCalls': (d, p) => outgoingCalls(at(d, p.item.selectionRange.start), d.uri, p.item, d.lines),
  [METHODS.tracePacket]: (d, p, lang) =>
    tracePacketRequest(d.analysis, p, lang, (family) => d.analysisFor?.(family) ?? d.analysis),
  // A dual-stack nft ruleset is read for one family; the picker offers the other family's Services as well.
  [METHODS.listTargets]: (d) => fromBothReadings(d, listTargets, (t) => t.line),
  diagnostics: (d, _p, lang) =>
    d.tooLarge
      ? [tooLargeDiagnostic(d.uri, d.tooLarge, lang)]
      : shownInEditor(diagnosticsOfBoth(d.analysis, skippedReading(d), lang), lang).map((x) =>
          toLspDiagnostic(x, d.uri),
        ),
};

/**
 * The one error of a document too large to read, on its first line, in the asked language: made from what the held
 * document keeps, so that a change of language says it again.
 */
function tooLargeDiagnostic(uri: string, { used, limit }: { used: number; limit: number }, lang: Lang) {
  const message = t(lang, 'parse.document-too-large', { used: megabytes(used), limit: megabytes(limit) });
  const span = { line: 0, column: 0, length: 0 };
  return toLspDiagnostic({ span, severity: 'error', code: 'document-too-large', message }, uri);
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The analysis that reads the line of a position: for a line of a dual-stack ruleset's skipped tables, theirs. */
function at(d: Held, position: { line: number }): Analysis {
  const skipped = inSkippedTable(d.analysis, position.line) ? skippedReading(d) : undefined;
  return skipped ?? d.analysis;
}

/** The reading of the tables of the family a dual-stack nft ruleset's analysis skipped (see Held.skippedTables). */
function skippedReading(d: Held): Analysis | undefined {
  return d.skippedTables?.();
}

/**
 * The answer of the document's analysis, then, for a dual-stack nft ruleset, that of the reading of the family it
 * skipped on that reading's own tables' lines (an `inet` table is in both readings: answered once).
 */
function fromBothReadings<T>(d: Held, answer: (a: Analysis) => T[], lineOf: (item: T) => number | undefined): T[] {
  const found = answer(d.analysis);
  const skipped = skippedReading(d);
  if (!skipped) return found;
  return found.concat(
    answer(skipped).filter((item) => {
      const line = lineOf(item);
      return line === undefined || readingAt(line, d.analysis, skipped) === skipped;
    }),
  );
}

/**
 * The first line of a table's outline symbol; undefined for the Services group, which is each reading's own (it
 * sits on the reading's last line, which may be an `inet` table's).
 */
function symbolLine(symbol: DocumentSymbol | OpenList): number | undefined {
  const head = (symbol instanceof OpenList ? symbol.head : symbol) as unknown as DocumentSymbol;
  return head.kind === SymbolKind.Namespace ? head.range.start.line : undefined;
}

/**
 * Answers written as JSON text here (jsonAnswer.ts) and sent to the editor as they are: the server's thread neither
 * copies nor serialises them. The outline's positions are mapped and fitted item by item (the default of
 * pasteMapping.ts and fit.ts), as it is written; the other answers are fitted whole first. Not yet the call
 * hierarchy: test/lsp/cancel.test.ts times a cancelled request by a smaller one's incoming calls, and an answer
 * that came sooner once came before the cancel under the machine's load.
 */
const WRITTEN_ITEM_BY_ITEM = new Set(['textDocument/documentSymbol']);
const WRITTEN_WHOLE = new Set([
  'textDocument/references',
  'textDocument/foldingRange',
  'textDocument/codeLens',
  'textDocument/inlayHint',
  'textDocument/semanticTokens/full',
  'textDocument/semanticTokens/range',
]);

/** An answer as a value, or as JSON text; `changes`: what fitting it changed (fit.ts). */
export type Answer = { changes: string[] } & ({ value: unknown } | { text: JsonText });

/** The answer to a request, its positions in the document's lines and fitted into them (see fit.ts). */
export function answerOf(doc: Held, method: string, params: unknown, lang: Lang): Answer {
  const map = doc.analysis.positions;
  const lines = doc.documentLines ?? doc.lines;
  const result = HANDLERS[method](doc, paramsToEngine(params, map), lang);
  if (!WRITTEN_ITEM_BY_ITEM.has(method)) {
    const fitted = fitResponse(method, resultToDocument(method, result, map) ?? null, lines);
    return WRITTEN_WHOLE.has(method) ? { text: writeJson(fitted.value, (x) => x), changes: fitted.changes } : fitted;
  }
  const changes: string[] = [];
  const text = writeJson(result, (item) => {
    const fitted = fitResponse(method, resultToDocument(method, item, map), lines);
    changes.push(...fitted.changes.slice(0, 5 - changes.length));
    return fitted.value;
  });
  return { text, changes };
}

/** The engine stopped at a checkpoint: the worker's heap holds too much of this text. */
class DocumentTooLarge extends Error {
  constructor(
    readonly used: number,
    readonly limit: number,
  ) {
    super(`the document needs more than this worker's heap (${megabytes(used)} of ${megabytes(limit)} MB)`);
  }
}

export function runWorker(): void {
  /** The analysis of each document this worker holds (one big document, or the small ones). */
  const held = new Map<string, Held>();
  /** The parts of the text whose `analyse` message comes next (the server sends nothing between them). */
  let parts: string[] = [];
  /**
   * The parts and the last one as one flat string (one byte per character when every part is), not a rope. In a
   * function of its own: an interpreted frame keeps what it loaded until it returns, and the handler's, which
   * runs the whole analysis, kept the parts (23 MB on d10k) under it.
   */
  const joinParts = (last: string): string => {
    parts.push(last);
    const text = parts.join('');
    parts = [];
    return text;
  };
  const port = parentPort!;
  const post = (m: FromWorker) => port.postMessage(m);
  /**
   * A text too large for the worker's heap: one error on its first line says so, and the document answers as an
   * empty one (nothing of it was read; an older version's analysis would answer for a text it no longer is).
   */
  const sayTooLarge = (m: Extract<ToWorker, { kind: 'analyse' }>, e: DocumentTooLarge, started: number): void => {
    held.delete(m.uri);
    collectGarbage();
    const tooLarge = { used: e.used, limit: e.limit };
    const kind = kindForLanguage(m.languageId);
    const doc = heldDocument(m.uri, analyzeText('', kind), '', kind, tooLarge);
    held.set(m.uri, doc);
    const diagnostics = HANDLERS.diagnostics(doc, undefined, m.lang) as unknown[];
    post({ kind: 'analysed', uri: m.uri, version: m.version, diagnostics, ms: Date.now() - started });
  };
  port.on('message', (m: ToWorker) => {
    if (m.kind === 'cancelFlags') {
      useCancelFlags(m.buffer);
      return;
    }
    if (m.kind === 'textPart') {
      parts.push(m.part);
      return;
    }
    if (m.kind === 'packedPart') {
      parts.push(unpack(m));
      return;
    }
    if (m.kind === 'dropParts') {
      parts = [];
      collectGarbage();
      return;
    }
    if (m.kind === 'drop') {
      held.delete(m.uri);
      return;
    }
    if (m.kind === 'analyse') {
      const started = Date.now();
      const joined = parts.length > 0;
      const text = joined ? joinParts(m.text) : m.text;
      // The parts are garbage: gone before the analysis, not under it at the worker's peak.
      if (joined) collectGarbage();
      // A text too large for this worker's heap stops at the engine's next checkpoint, before V8 would end the
      // worker with a crash and leave the document without a word.
      watchHeap((used, limit) => new DocumentTooLarge(used, limit), v8Heap(WORKER_YOUNG_GENERATION_MB * 1024 * 1024));
      try {
        // The previous analysis keeps its place until this one is complete: a failure leaves it answering.
        const kind = kindForLanguage(m.languageId);
        const analysis = analyzeText(text, kind);
        if (m.early) {
          const parsed = shownInEditor(diagnosticsOf(analysis, m.lang, false), m.lang).map((x) =>
            toLspDiagnostic(x, m.uri),
          );
          const diagnostics = resultToDocument('diagnostics', parsed, analysis.positions) as unknown[];
          post({ kind: 'parsed', uri: m.uri, version: m.version, diagnostics, ms: Date.now() - started });
        }
        const doc = heldDocument(m.uri, analysis, text, kind);
        held.set(m.uri, doc);
        const found = HANDLERS.diagnostics(doc, undefined, m.lang);
        const diagnostics = resultToDocument('diagnostics', found, analysis.positions) as unknown[];
        post({ kind: 'analysed', uri: m.uri, version: m.version, diagnostics, ms: Date.now() - started });
        // What the analysis left behind is collected once the diagnostics are on their way, before the lines and
        // the first requests allocate more: their memory then comes from it, not on top of the peak (a 23 MB
        // dump's worker ended 4 MB higher without this).
        if (joined) collectGarbage();
        // The lines (tens of ms on a big dump) before the first request.
        void doc.lines;
      } catch (e) {
        if (e instanceof DocumentTooLarge) sayTooLarge(m, e, started);
        else post({ kind: 'analysisFailed', uri: m.uri, version: m.version, message: (e as Error).stack ?? String(e) });
      } finally {
        setMemoryCheck(undefined);
      }
      return;
    }
    const doc = held.get(m.uri);
    const handler = HANDLERS[m.method];
    if (!doc || !handler) {
      post({
        kind: 'error',
        id: m.id,
        code: -32603,
        message: doc ? `no handler for ${m.method}` : `no analysis of ${m.uri} held`,
      });
      return;
    }
    try {
      const answer = runningRequest(m.id, () => {
        throwIfCancelled();
        // Fitted into the text this analysis read: the answer is right for that version; the server fits it
        // again into a newer text if the document changed since.
        return answerOf(doc, m.method, m.params, m.lang);
      });
      // Copying a big answer to the server takes as long as making it (0.5-0.8 s for 52,000 callers): not for
      // a request cancelled meanwhile.
      if (isCancelled(m.id)) throw new RequestCancelledError();
      const fitted = answer.changes.length ? { fitted: answer.changes } : {};
      if ('text' in answer) {
        // The blocks' memory moves to the server's thread, not copied.
        const buffers = new Set(answer.text.blocks.map((b) => b.buffer as ArrayBuffer));
        port.postMessage({ kind: 'json', id: m.id, text: answer.text, ...fitted } satisfies FromWorker, [...buffers]);
      } else post({ kind: 'result', id: m.id, result: answer.value ?? null, ...fitted });
    } catch (e) {
      // The server answered it already: this only tells it the worker is free.
      if (e instanceof RequestCancelledError)
        post({ kind: 'error', id: m.id, code: REQUEST_CANCELLED, message: 'cancelled' });
      else if (e instanceof TraceInputError) post({ kind: 'error', id: m.id, code: -32602, message: e.message });
      else
        post({
          kind: 'error',
          id: m.id,
          code: -32603,
          message: `${m.method} failed: ${(e as Error).message}`,
          log: (e as Error).stack ?? String(e),
        });
    }
  });
}
