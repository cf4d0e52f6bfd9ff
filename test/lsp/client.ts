/**
 * Drives the real language server (`node dist/server.js --stdio`) over stdio with the LSP protocol library,
 * as any editor would. Tests open documents, send requests and collect published diagnostics.
 *
 * Every answer is checked against what VS Code accepts (test/lsp/validate.ts) for the document as the client
 * holds it when the request is sent: an invalid answer rejects the request (or goes to `onInvalid`), so every LSP
 * test checks the invariants of every response. A request unanswered within `requestTimeoutMs` (far above any
 * normal answer) rejects too: the server must never hang.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createProtocolConnection,
  InitializeRequest,
  InitializedNotification,
  ShutdownRequest,
  ExitNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type DidChangeTextDocumentParams,
  type DidOpenTextDocumentParams,
  type InitializeResult,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { repoRoot } from '../helpers/corpus';
import { lspLines, validateResponse, type Problem } from './validate';

export interface LspSession {
  connection: ProtocolConnection;
  process: ChildProcess;
  stderr: () => string;
  logs: string[];
  /** What the client answers to `workspace/configuration` (section kubePacketPath). */
  settings: { language: string };
  /** `client/registerCapability` and `client/unregisterCapability` requests received, as `register <method>` lines. */
  registrations: string[];
  capabilities: InitializeResult['capabilities'];
  /** The document as the client holds it (after the didOpen/didChange notifications sent so far). */
  text(uri: string): string | undefined;
  open(uri: string, languageId: string, text: string): Promise<PublishDiagnosticsParams>;
  change(uri: string, version: number, text: string): Promise<PublishDiagnosticsParams>;
  waitDiagnostics(uri: string, predicate?: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams>;
  close(): Promise<void>;
}

export function serverPath(): string {
  const p = join(repoRoot(), 'dist', 'server.js');
  if (!existsSync(p)) throw new Error(`${p} is missing: run npm run build first`);
  return p;
}

export interface SessionOptions {
  locale?: string;
  initializationOptions?: unknown;
  /** A request (or awaited diagnostics) unanswered for this long rejects (default 60 s): a hang, not a slow answer. */
  requestTimeoutMs?: number;
  /** Receives the problems of an invalid answer instead of rejecting the request with them. */
  onInvalid?: (method: string, problems: Problem[]) => void;
  /** Lets the server register its document symbol provider itself, as VS Code does. */
  documentSymbolDynamicRegistration?: boolean;
  /** The server's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

export class InvalidResponseError extends Error {
  constructor(
    readonly method: string,
    readonly problems: Problem[],
  ) {
    super(`invalid ${method} response:\n  ${problems.map((p) => p.message).join('\n  ')}`);
  }
}

export async function startSession(options: SessionOptions = {}): Promise<LspSession> {
  const child = spawn(process.execPath, [serverPath(), '--stdio'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const raw = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const documents = new Map<string, TextDocument>();
  const linesCache = new Map<string, { version: number; lines: string[] }>();
  const linesOf = (uri: string) => {
    const doc = documents.get(uri);
    if (!doc) return undefined;
    const hit = linesCache.get(uri);
    if (hit?.version === doc.version) return hit.lines;
    const lines = lspLines(doc.getText());
    linesCache.set(uri, { version: doc.version, lines });
    return lines;
  };
  let tokenTypes = Number.MAX_SAFE_INTEGER;
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  /** Follows the documents the test opens, changes and closes, so answers are checked against the right text. */
  const track = (method: string, params: unknown) => {
    if (method === DidOpenTextDocumentNotification.method) {
      const d = (params as DidOpenTextDocumentParams).textDocument;
      documents.set(d.uri, TextDocument.create(d.uri, d.languageId, d.version, d.text));
    } else if (method === DidChangeTextDocumentNotification.method) {
      const p = params as DidChangeTextDocumentParams;
      const doc = documents.get(p.textDocument.uri);
      if (doc)
        documents.set(doc.uri, TextDocument.update(doc, p.contentChanges, p.textDocument.version ?? doc.version + 1));
    } else if (method === DidCloseTextDocumentNotification.method) {
      documents.delete((params as { textDocument: { uri: string } }).textDocument.uri);
    }
  };
  const methodOf = (type: unknown) => (typeof type === 'string' ? type : (type as { method: string }).method);
  const connection = new Proxy(raw, {
    get(target, prop, receiver) {
      if (prop === 'sendNotification') {
        return (type: unknown, ...args: unknown[]) => {
          track(methodOf(type), args[0]);
          return (target.sendNotification as (...a: unknown[]) => Promise<void>)(type, ...args);
        };
      }
      if (prop === 'sendRequest') {
        return async (type: unknown, ...args: unknown[]) => {
          const method = methodOf(type);
          const params = args[0];
          // Checked against the text the server was sent before this request, as an editor would apply the answer.
          const snapshot = new Map<string, readonly string[] | undefined>();
          const lines = (uri: string) => {
            if (!snapshot.has(uri)) snapshot.set(uri, linesOf(uri));
            return snapshot.get(uri);
          };
          const p = params as { textDocument?: { uri?: string }; item?: { uri?: string }; uri?: string } | undefined;
          const own = p?.textDocument?.uri ?? p?.item?.uri ?? p?.uri;
          if (own) lines(own);
          let timer: NodeJS.Timeout | undefined;
          const hang = new Promise<never>((_, reject) => {
            timer = setTimeout(
              () =>
                reject(
                  new Error(
                    `${method}: no answer within ${timeoutMs / 1000} s (server hung?); server stderr: ${stderr.slice(-2000)}`,
                  ),
                ),
              timeoutMs,
            );
          });
          try {
            const result = await Promise.race([
              (target.sendRequest as (...a: unknown[]) => Promise<unknown>)(type, ...args),
              hang,
            ]);
            if (method !== InitializeRequest.method && method !== ShutdownRequest.method) {
              const problems = validateResponse(method, params, result, { lines, tokenTypes });
              if (problems.length) {
                if (options.onInvalid) options.onInvalid(method, problems);
                else throw new InvalidResponseError(method, problems);
              }
            }
            return result;
          } finally {
            clearTimeout(timer);
          }
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  const logs: string[] = [];
  const published: PublishDiagnosticsParams[] = [];
  const waiters: {
    uri: string;
    predicate: (p: PublishDiagnosticsParams) => boolean;
    resolve: (p: PublishDiagnosticsParams) => void;
  }[] = [];
  connection.onNotification('window/logMessage', (...params: unknown[]) => {
    logs.push(String((params[0] as { message?: string })?.message));
  });
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    for (const w of [...waiters]) {
      if (w.uri === p.uri && w.predicate(p)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  });
  const settings = { language: 'auto' };
  connection.onRequest('workspace/configuration', () => [settings]);
  const registrations: string[] = [];
  const ids = new Map<string, string>();
  connection.onRequest('client/registerCapability', (p: { registrations: { id: string; method: string }[] }) => {
    for (const r of p.registrations) {
      ids.set(r.id, r.method);
      registrations.push(`register ${r.method}`);
    }
  });
  connection.onRequest('client/unregisterCapability', (p: { unregisterations: { id: string; method: string }[] }) => {
    for (const r of p.unregisterations) registrations.push(`unregister ${ids.get(r.id) ?? r.method}`);
  });
  const refreshes: string[] = [];
  for (const m of ['workspace/semanticTokens/refresh', 'workspace/codeLens/refresh', 'workspace/inlayHint/refresh'])
    connection.onRequest(m, () => void refreshes.push(m));
  connection.listen();
  const init = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {
      ...(options.documentSymbolDynamicRegistration
        ? { textDocument: { documentSymbol: { dynamicRegistration: true, hierarchicalDocumentSymbolSupport: true } } }
        : {}),
      workspace: {
        configuration: true,
        semanticTokens: { refreshSupport: true },
        codeLens: { refreshSupport: true },
        inlayHint: { refreshSupport: true },
      },
    },
    locale: options.locale ?? 'en',
    initializationOptions: options.initializationOptions,
  });
  tokenTypes = init.capabilities.semanticTokensProvider?.legend.tokenTypes.length ?? tokenTypes;
  await connection.sendNotification(InitializedNotification.type, {});

  const waitDiagnostics = (uri: string, predicate: (p: PublishDiagnosticsParams) => boolean = () => true) =>
    new Promise<PublishDiagnosticsParams>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no diagnostics for ${uri} within ${timeoutMs / 1000} s; server stderr: ${stderr}`)),
        timeoutMs,
      );
      waiters.push({ uri, predicate, resolve: (p) => (clearTimeout(timer), resolve(p)) });
    });

  return {
    connection,
    process: child,
    stderr: () => stderr,
    logs,
    settings,
    registrations,
    capabilities: init.capabilities,
    text: (uri) => documents.get(uri)?.getText(),
    waitDiagnostics,
    async open(uri, languageId, text) {
      const wait = waitDiagnostics(uri);
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId, version: 1, text },
      });
      return wait;
    },
    async change(uri, version, text) {
      const wait = waitDiagnostics(uri, (p) => p.version === version);
      await connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
      return wait;
    },
    async close() {
      try {
        await connection.sendRequest(ShutdownRequest.type);
        await connection.sendNotification(ExitNotification.type);
      } catch {
        // The server may already be gone.
      }
      connection.dispose();
      if (child.exitCode === null) child.kill();
    },
  };
}
