/**
 * The Kube Packet Path language server: a plain Node program (`node dist/server.js --stdio`, see main.ts) that any
 * LSP client can use. Thin adapters from LSP requests to `src/core`; a broken dump becomes diagnostics, never a crash.
 */
import {
  createConnection,
  DocumentSymbolRequest,
  ProposedFeatures,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type Connection,
  type Disposable,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { format } from 'node:util';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { certaintyOf, detectDump } from '../core/detect';
import { normalizeLang, type Lang } from '../core/i18n/catalog';
import { countedEn } from '../core/i18n/english';
import { DUMP_LANGUAGE_IDS } from '../core/languages';
import { AnalysisCache, DEFAULT_BUDGETS, type Budgets } from './analysisCache';
import { REQUEST_CANCELLED } from './cancellation';
import { fitResponse } from './fit';
import { LEGEND } from './features/semanticTokens';
import { DocumentLines } from './documentLines';
import { DetectLanguageRequest, ListTargetsRequest, TracePacketRequest, type ServerSettings } from './protocol';
import { forwardedText, PIECED_DOCUMENTS, textLength, textParts } from './piecedText';
import { RawResult, StdoutMessageWriter } from './rawResult';
import { StdioMessageReader } from './stdioReader';

/** Re-parse and publish diagnostics this long after the last keystroke. */
const DIAGNOSTICS_DEBOUNCE_MS = 200;
const SERVED_LANGUAGES = new Set<string>(DUMP_LANGUAGE_IDS);
const WORKSPACE_SYMBOL_LIMIT = 500;
const mb = (bytes: number) => Math.round(bytes / 1048576);

/** `initializationOptions` the server reads besides the settings: budgets (tests and the bench set them). */
interface InitOptions extends Partial<ServerSettings> {
  budgets?: Partial<Budgets>;
}

/** `reader`: the stdio reader, which sends a big didOpen's text to a worker as it reads it. */
export function startServer(connection: Connection, reader?: StdioMessageReader): void {
  const documents = new TextDocuments<TextDocument>(PIECED_DOCUMENTS);
  let locale = 'en';
  let settings: ServerSettings = { language: 'auto' };
  let canPullConfiguration = false;
  let budgets: Budgets = DEFAULT_BUDGETS;
  const refreshable = { semanticTokens: false, codeLens: false, inlayHint: false };
  /**
   * The outline has no refresh request: where the client lets the server register its symbol provider itself, a
   * language change registers it anew, and the editor asks for the symbols again at once.
   */
  let symbolsRegisteredByServer = false;
  let symbolsRegistration: Promise<Disposable | undefined> = Promise.resolve(undefined);
  let symbolsLang: Lang | undefined;
  const registerSymbols = () => {
    if (symbolsLang === lang()) return;
    symbolsLang = lang();
    symbolsRegistration = symbolsRegistration.then(async (previous) => {
      previous?.dispose();
      return connection.client.register(DocumentSymbolRequest.type, { documentSelector: null }).catch((e: unknown) => {
        // The client refused a registration it offered: no outline until the next language change registers again.
        connection.console.error(
          `outline: registering document symbols failed: ${e instanceof Error ? e.message : String(e)}`,
        );
        return undefined;
      });
    });
  };

  const lang = (): Lang => (settings.language === 'auto' ? normalizeLang(locale) : settings.language);

  const cache = new AnalysisCache({
    workerFile: __filename,
    get budgets() {
      return budgets;
    },
    lang,
    current: (uri) => {
      const doc = documents.get(uri);
      return doc && SERVED_LANGUAGES.has(doc.languageId)
        ? {
            version: doc.version,
            languageId: doc.languageId,
            length: textLength(doc),
            parts: () => textParts(doc),
            forwarded: forwardedText(doc),
          }
        : undefined;
    },
    publish: (uri, version, diagnostics, ms, stage) => {
      void connection.sendDiagnostics({ uri, version, diagnostics: diagnostics as never });
      const m = process.memoryUsage();
      const what =
        stage === 'parsed'
          ? `read ${uri} v${version}: ${countedEn(diagnostics.length, 'parse diagnostic')} (lint goes on)`
          : stage === 'withdrawn'
            ? `withdrew the parse diagnostics of ${uri} v${version}: its analysis failed`
            : `analysed ${uri} v${version}: ${countedEn(diagnostics.length, 'diagnostic')}`;
      connection.console.log(
        `${what} in ${ms} ms (process RSS ${mb(m.rss)} MB, main thread heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB)`,
      );
    },
    refreshed: () => {
      // Answers given from the older analysis (colours, lenses, hints) are asked for again.
      if (refreshable.semanticTokens) void connection.languages.semanticTokens.refresh().catch(() => undefined);
      if (refreshable.codeLens) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
      if (refreshable.inlayHint) void connection.languages.inlayHint.refresh().catch(() => undefined);
    },
    log: (m) => connection.console.log(m),
    error: (m) => connection.console.error(m),
  });

  /**
   * Asks the worker holding `uri`'s last analysis for `method`, fitted into the current text if it changed since. A
   * feature's exception is logged and answered with `fallback`; a bad trace input, a cancellation and a budget
   * overrun are error answers.
   */
  async function ask<R>(
    method: string,
    uri: string,
    params: unknown,
    fallback: R,
    token?: CancellationToken,
  ): Promise<R> {
    const doc = documents.get(uri);
    if (!doc || !SERVED_LANGUAGES.has(doc.languageId)) return fallback;
    let answer: Awaited<ReturnType<AnalysisCache['request']>>;
    try {
      answer = await cache.request(uri, method, params, token);
    } catch (e) {
      if (e instanceof ResponseError && (e.code === REQUEST_CANCELLED || e.code === -32602 || e.code === -32803))
        throw e;
      connection.console.error(`${method} failed: ${(e as Error).stack ?? String(e)}`);
      return fallback;
    }
    const now = documents.get(uri);
    if (!answer || !now) return fallback;
    // An answer that needed fitting into the very text it was computed on is a feature's bug: say so.
    if (answer.fitted)
      connection.console.warn(
        `${method} on ${uri} v${answer.version} answered what the editor rejects; fitted: ${answer.fitted.join('; ')}`,
      );
    if (answer.version === now.version) return answer.result as R;
    // Answered from an older version of the text: fitted into the text the editor holds now.
    const value = answer.result instanceof RawResult ? answer.result.value() : answer.result;
    return fitResponse(method, value, new DocumentLines(now)).value as R;
  }

  function schedule(uri: string, delay: number): void {
    const doc = documents.get(uri);
    if (doc && SERVED_LANGUAGES.has(doc.languageId)) cache.schedule(uri, delay);
  }

  async function refreshSettings(): Promise<void> {
    if (!canPullConfiguration) return;
    try {
      const s = (await connection.workspace.getConfiguration('kubePacketPath')) as Partial<ServerSettings> | null;
      if (s?.language === 'en' || s?.language === 'zh-CN' || s?.language === 'auto')
        settings = { language: s.language };
    } catch {
      // A client without configuration support keeps the defaults.
    }
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    locale = params.locale ?? 'en';
    const init = params.initializationOptions as InitOptions | undefined;
    if (init?.language) settings = { language: init.language };
    if (init?.budgets)
      budgets = {
        ...DEFAULT_BUDGETS,
        ...init.budgets,
        perMethod: { ...DEFAULT_BUDGETS.perMethod, ...init.budgets.perMethod },
      };
    canPullConfiguration = !!params.capabilities.workspace?.configuration;
    const ws = params.capabilities.workspace;
    refreshable.semanticTokens = !!ws?.semanticTokens?.refreshSupport;
    refreshable.codeLens = !!ws?.codeLens?.refreshSupport;
    refreshable.inlayHint = !!ws?.inlayHint?.refreshSupport;
    symbolsRegisteredByServer = !!params.capabilities.textDocument?.documentSymbol?.dynamicRegistration;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: !symbolsRegisteredByServer,
        workspaceSymbolProvider: true,
        foldingRangeProvider: true,
        codeLensProvider: { resolveProvider: false },
        inlayHintProvider: true,
        callHierarchyProvider: true,
        semanticTokensProvider: { legend: LEGEND, full: true, range: true },
      },
      serverInfo: { name: 'kube-packet-path', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    cache.prepare();
    void refreshSettings().then(() => symbolsRegisteredByServer && registerSymbols());
  });

  connection.onDidChangeConfiguration((change) => {
    const s = (change.settings as { kubePacketPath?: Partial<ServerSettings> } | undefined)?.kubePacketPath;
    if (s?.language) settings = { language: s.language };
    void refreshSettings().then(() => {
      if (symbolsRegisteredByServer) registerSymbols();
      for (const uri of cache.uris())
        void cache.republish(uri).catch((e) => connection.console.error(`diagnostics of ${uri} failed: ${String(e)}`));
      // Lenses are texts too: asked for again in the new language.
      if (refreshable.codeLens) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    });
  });

  // A big didOpen's text goes to a worker as it is read (the document is analysed there, unless not served).
  if (reader) reader.textSink = () => cache.textSink();
  documents.onDidOpen((e) => {
    if (!SERVED_LANGUAGES.has(e.document.languageId)) forwardedText(e.document)?.release();
    schedule(e.document.uri, 0);
  });
  // Also fired on open: the first analysis is not delayed (nothing answers until it is done).
  documents.onDidChangeContent((e) =>
    schedule(e.document.uri, cache.servedVersion(e.document.uri) === undefined ? 0 : DIAGNOSTICS_DEBOUNCE_MS),
  );
  documents.onDidClose((e) => {
    forwardedText(e.document)?.release();
    cache.close(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onHover((p, token) => ask('textDocument/hover', p.textDocument.uri, p, null, token));
  connection.onDefinition((p, token) => ask('textDocument/definition', p.textDocument.uri, p, null, token));
  connection.onReferences((p, token) => ask('textDocument/references', p.textDocument.uri, p, [], token));
  connection.onDocumentSymbol((p, token) => ask('textDocument/documentSymbol', p.textDocument.uri, p, [], token));
  connection.onWorkspaceSymbol(async (p, token) => {
    const all = await Promise.all(cache.uris().map((uri) => ask('workspace/symbol', uri, p, [] as unknown[], token)));
    return all.flat().slice(0, WORKSPACE_SYMBOL_LIMIT) as never;
  });
  connection.onFoldingRanges((p, token) => ask('textDocument/foldingRange', p.textDocument.uri, p, [], token));
  connection.onCodeLens((p, token) => ask('textDocument/codeLens', p.textDocument.uri, p, [], token));
  connection.languages.inlayHint.on((p, token) => ask('textDocument/inlayHint', p.textDocument.uri, p, [], token));
  connection.languages.semanticTokens.on((p, token) =>
    ask('textDocument/semanticTokens/full', p.textDocument.uri, p, { data: [] }, token),
  );
  connection.languages.semanticTokens.onRange((p, token) =>
    ask('textDocument/semanticTokens/range', p.textDocument.uri, p, { data: [] }, token),
  );
  connection.languages.callHierarchy.onPrepare((p, token) =>
    ask('textDocument/prepareCallHierarchy', p.textDocument.uri, p, null, token),
  );
  connection.languages.callHierarchy.onIncomingCalls((p, token) =>
    ask('callHierarchy/incomingCalls', p.item.uri, p, [], token),
  );
  connection.languages.callHierarchy.onOutgoingCalls((p, token) =>
    ask('callHierarchy/outgoingCalls', p.item.uri, p, [], token),
  );
  connection.onRequest(TracePacketRequest, async (p, token) => {
    if (!documents.get(p.uri)) throw new ResponseError(-32602, `document ${p.uri} is not open`);
    const r = await ask(TracePacketRequest.method, p.uri, p, null, token);
    if (!r) throw new ResponseError(-32803, `no analysis of ${p.uri} to trace in`);
    return r as never;
  });
  connection.onRequest(ListTargetsRequest, (p, token) => ask(ListTargetsRequest.method, p.uri, p, [], token));
  // Cheap (the detector reads the first lines only): answered here, not by a worker, for any text.
  connection.onRequest(DetectLanguageRequest, (p) => {
    if (typeof p?.text !== 'string') throw new ResponseError(-32602, 'detectLanguage needs { text: string }');
    const d = detectDump(p.text);
    return {
      kind: d.kind,
      confidence: d.confidence,
      ...(d.languageId ? { languageId: d.languageId } : {}),
      certainty: certaintyOf(d),
    };
  });

  documents.listen(connection);
  connection.listen();
}

/** Serves the client over the transport its command line names (--stdio, --node-ipc, ...). */
export function serve(): void {
  const reader = process.argv.includes('--stdio') ? new StdioMessageReader(process.stdin) : undefined;
  const connection = reader ? stdioConnection(reader) : createConnection(ProposedFeatures.all);
  // Last line of defence: log and keep serving.
  process.on('uncaughtException', (e) => connection.console.error(`uncaught: ${e.stack ?? String(e)}`));
  startServer(connection, reader);
}

/**
 * A connection over stdin and stdout that reads big messages with fewer copies (stdioReader.ts), writes answers
 * made as JSON text by the workers as they are (rawResult.ts), and does what
 * vscode-languageserver does for a --stdio it sets up itself: stdout carries the protocol only (console output
 * goes to the client's log), and the server ends with its input.
 */
function stdioConnection(reader: StdioMessageReader): Connection {
  const connection = createConnection(ProposedFeatures.all, reader, new StdoutMessageWriter(process.stdout));
  const to =
    (send: (message: string) => void) =>
    (...args: unknown[]) =>
      send(format(...args));
  console.log = console.info = console.debug = to((m) => connection.console.log(m));
  console.warn = to((m) => connection.console.warn(m));
  console.error = to((m) => connection.console.error(m));
  let shutdown = false;
  connection.onShutdown(() => {
    shutdown = true;
  });
  const end = () => {
    connection.dispose();
    process.exit(shutdown ? 0 : 1);
  };
  process.stdin.on('end', end);
  process.stdin.on('close', end);
  return connection;
}
