/**
 * Drives the real language server (`node dist/server.js --stdio`) over stdio with the LSP protocol library,
 * as any editor would. Tests open documents, send requests and collect published diagnostics.
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
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { repoRoot } from '../helpers/corpus';

export interface LspSession {
  connection: ProtocolConnection;
  process: ChildProcess;
  stderr: () => string;
  logs: string[];
  /** What the client answers to `workspace/configuration` (section kubePacketPath). */
  settings: { language: string };
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

export async function startSession(options: { locale?: string; initializationOptions?: unknown } = {}): Promise<LspSession> {
  const child = spawn(process.execPath, [serverPath(), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const logs: string[] = [];
  const published: PublishDiagnosticsParams[] = [];
  const waiters: { uri: string; predicate: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
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
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: { workspace: { configuration: true } },
    locale: options.locale ?? 'en',
    initializationOptions: options.initializationOptions,
  });
  await connection.sendNotification(InitializedNotification.type, {});

  const waitDiagnostics = (uri: string, predicate: (p: PublishDiagnosticsParams) => boolean = () => true) =>
    new Promise<PublishDiagnosticsParams>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within 10 s; server stderr: ${stderr}`)), 10_000);
      waiters.push({ uri, predicate, resolve: (p) => (clearTimeout(timer), resolve(p)) });
    });

  return {
    connection,
    process: child,
    stderr: () => stderr,
    logs,
    settings,
    waitDiagnostics,
    async open(uri, languageId, text) {
      const wait = waitDiagnostics(uri);
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
      return wait;
    },
    async change(uri, version, text) {
      const wait = waitDiagnostics(uri, (p) => p.version === version);
      await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
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
