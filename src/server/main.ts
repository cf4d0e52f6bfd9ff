/**
 * The Kube Packet Path language server: a plain Node program (`node dist/server.js --stdio`) that any LSP client
 * can use. Thin adapters from LSP requests to `src/core`; a broken dump becomes diagnostics, never a crash.
 */
import {
  createConnection,
  ProposedFeatures,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { diagnosticsOf } from '../core/analyze';
import { normalizeLang, type Lang } from '../core/i18n/catalog';
import { AnalysisCache } from './analysisCache';
import { toLspDiagnostic } from './convert';
import { hover } from './features/hover';
import { codeLenses, inlayHints } from './features/lens';
import { definition, incomingCalls, outgoingCalls, prepareCallHierarchy, references } from './features/navigation';
import { LEGEND, semanticTokens, semanticTokensIn } from './features/semanticTokens';
import { documentSymbols, foldingRanges, workspaceSymbols } from './features/symbols';
import { listTargets, TraceInputError, tracePacketRequest } from './features/trace';
import { ListTargetsRequest, TracePacketRequest, type ServerSettings } from './protocol';

/** Re-parse and publish diagnostics this long after the last keystroke. */
const DIAGNOSTICS_DEBOUNCE_MS = 200;
const SERVED_LANGUAGES = new Set(['iptables', 'ipvs']);

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const cache = new AnalysisCache();
  const timers = new Map<string, NodeJS.Timeout>();
  let locale = 'en';
  let settings: ServerSettings = { language: 'auto' };
  let canPullConfiguration = false;

  const lang = (): Lang => (settings.language === 'auto' ? normalizeLang(locale) : settings.language);

  /** Runs a handler; an exception is logged and answered with `fallback`, so one bad request never kills the server. */
  function guard<P, R>(name: string, fallback: R, handler: (params: P) => R): (params: P) => R {
    return (params: P) => {
      try {
        return handler(params);
      } catch (e) {
        if (e instanceof TraceInputError) throw new ResponseError(-32602, e.message);
        connection.console.error(`${name} failed: ${(e as Error).stack ?? String(e)}`);
        return fallback;
      }
    };
  }

  const analysisOf = (uri: string) => {
    const doc = documents.get(uri);
    return doc ? cache.get(doc) : undefined;
  };

  function publish(uri: string): void {
    const doc = documents.get(uri);
    if (!doc) return;
    try {
      const started = Date.now();
      const a = cache.get(doc);
      const diagnostics = diagnosticsOf(a, lang()).map((d) => toLspDiagnostic(d, uri));
      void connection.sendDiagnostics({ uri, version: doc.version, diagnostics });
      connection.console.log(`analysed ${uri} v${doc.version}: ${diagnostics.length} diagnostic(s) in ${Date.now() - started} ms`);
    } catch (e) {
      connection.console.error(`analysis of ${uri} failed: ${(e as Error).stack ?? String(e)}`);
    }
  }

  function schedule(uri: string, delay: number): void {
    clearTimeout(timers.get(uri));
    timers.set(uri, setTimeout(() => {
      timers.delete(uri);
      publish(uri);
    }, delay));
  }

  async function refreshSettings(): Promise<void> {
    if (!canPullConfiguration) return;
    try {
      const s = (await connection.workspace.getConfiguration('kubePacketPath')) as Partial<ServerSettings> | null;
      if (s?.language === 'en' || s?.language === 'zh-CN' || s?.language === 'auto') settings = { language: s.language };
    } catch {
      // A client without configuration support keeps the defaults.
    }
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    locale = params.locale ?? 'en';
    const init = params.initializationOptions as Partial<ServerSettings> | undefined;
    if (init?.language) settings = { language: init.language };
    canPullConfiguration = !!params.capabilities.workspace?.configuration;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: true,
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
    void refreshSettings();
  });

  connection.onDidChangeConfiguration((change) => {
    const s = (change.settings as { kubePacketPath?: Partial<ServerSettings> } | undefined)?.kubePacketPath;
    if (s?.language) settings = { language: s.language };
    void refreshSettings().then(() => {
      for (const d of documents.all()) schedule(d.uri, 0);
    });
  });

  documents.onDidOpen((e) => {
    if (SERVED_LANGUAGES.has(e.document.languageId)) schedule(e.document.uri, 0);
  });
  documents.onDidChangeContent((e) => schedule(e.document.uri, DIAGNOSTICS_DEBOUNCE_MS));
  documents.onDidClose((e) => {
    clearTimeout(timers.get(e.document.uri));
    timers.delete(e.document.uri);
    cache.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onHover(guard('hover', null, (p) => {
    const a = analysisOf(p.textDocument.uri);
    return a ? hover(a, p.position.line, p.position.character, lang()) : null;
  }));
  connection.onDefinition(guard('definition', null, (p) => {
    const a = analysisOf(p.textDocument.uri);
    return a ? definition(a, p.textDocument.uri, p.position.line, p.position.character) : null;
  }));
  connection.onReferences(guard('references', [], (p) => {
    const a = analysisOf(p.textDocument.uri);
    return a ? references(a, p.textDocument.uri, p.position.line, p.position.character, p.context.includeDeclaration) : [];
  }));
  connection.onDocumentSymbol(guard('documentSymbol', [], (p) => {
    const a = analysisOf(p.textDocument.uri);
    return a ? documentSymbols(a) : [];
  }));
  connection.onWorkspaceSymbol(guard('workspaceSymbol', [], (p) => {
    const docs = documents.all().filter((d) => SERVED_LANGUAGES.has(d.languageId)).map((d) => ({ uri: d.uri, analysis: cache.get(d) }));
    return workspaceSymbols(docs, p.query);
  }));
  connection.onFoldingRanges(guard('foldingRange', [], (p) => {
    const a = analysisOf(p.textDocument.uri);
    return a ? foldingRanges(a) : [];
  }));
  connection.onCodeLens(guard('codeLens', [], (p) => {
    const a = analysisOf(p.textDocument.uri);
    return a ? codeLenses(a, p.textDocument.uri) : [];
  }));
  connection.languages.inlayHint.on(guard('inlayHint', [], (p) => {
    const a = analysisOf(p.textDocument.uri);
    return a ? inlayHints(a, p.range.start.line, p.range.end.line) : [];
  }));
  connection.languages.semanticTokens.on(guard('semanticTokens', { data: [] }, (p) => {
    const a = analysisOf(p.textDocument.uri);
    return a ? semanticTokens(a) : { data: [] };
  }));
  connection.languages.semanticTokens.onRange(guard('semanticTokensRange', { data: [] }, (p) => {
    const a = analysisOf(p.textDocument.uri);
    return a ? semanticTokensIn(a, { from: p.range.start.line, to: p.range.end.line }) : { data: [] };
  }));
  connection.languages.callHierarchy.onPrepare(guard('prepareCallHierarchy', null, (p) => {
    const a = analysisOf(p.textDocument.uri);
    return a ? prepareCallHierarchy(a, p.textDocument.uri, p.position.line, p.position.character) : null;
  }));
  connection.languages.callHierarchy.onIncomingCalls(guard('incomingCalls', [], (p) => {
    const a = analysisOf(p.item.uri);
    return a ? incomingCalls(a, p.item.uri, p.item) : [];
  }));
  connection.languages.callHierarchy.onOutgoingCalls(guard('outgoingCalls', [], (p) => {
    const a = analysisOf(p.item.uri);
    return a ? outgoingCalls(a, p.item.uri, p.item) : [];
  }));
  connection.onRequest(TracePacketRequest, guard('tracePacket', null as never, (p) => {
    const a = analysisOf(p.uri);
    if (!a) throw new TraceInputError(`document ${p.uri} is not open`);
    return tracePacketRequest(a, p, lang());
  }));
  connection.onRequest(ListTargetsRequest, guard('listTargets', [], (p) => {
    const a = analysisOf(p.uri);
    return a ? listTargets(a) : [];
  }));

  documents.listen(connection);
  connection.listen();
}

if (require.main === module) {
  const connection = createConnection(ProposedFeatures.all);
  // Last line of defence: log and keep serving.
  process.on('uncaughtException', (e) => connection.console.error(`uncaught: ${e.stack ?? String(e)}`));
  startServer(connection);
}
