/**
 * Language-server figures from the real server (`node dist/server.js --stdio`) driven over stdio by the LSP
 * protocol library, as an editor would: didOpen to first diagnostics (on a big dump the parse problems, which
 * the whole set with lint's findings replaces) and to the whole set, semantic tokens (whole document and viewport
 * ranges), hover and definition latency at positions spread over the document, and the server's memory from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  createProtocolConnection,
  DefinitionRequest,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  SemanticTokensRangeRequest,
  SemanticTokensRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { allocatorEnv } from '../../src/server/allocatorEnv';
import { treeMemory } from './engine';
import { median, percentile } from './stats';
import type { EditorPosition } from './workload';

export interface LatencyFigures {
  requests: number;
  /** Answers that were not null (a hover text, a location). */
  answered: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  byKind: Record<string, { requests: number; answered: number; p95Ms: number }>;
}

export interface LspResult {
  openToDiagnosticsMs: number;
  /** didOpen to the whole set of diagnostics (the last published before the first answer), and its size. */
  openToWholeDiagnosticsMs: number;
  diagnostics: number;
  /** Whole-document tokens; `declined` when the server answers null (documents above its full-request limit). */
  semanticTokens: { wallMs: number[]; medianMs: number; tokens: number; declined: boolean };
  /** Viewport-sized range requests spread over the document, as an editor sends them while scrolling. */
  semanticRange: { lines: number; requests: number; p50Ms: number; p95Ms: number; tokensPerRequest: number };
  hover: LatencyFigures;
  definition: LatencyFigures;
  memory: { rss: number; hwm: number } | undefined;
  serverLog: string[];
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

async function latencies(
  positions: EditorPosition[],
  send: (p: EditorPosition) => Promise<unknown>,
): Promise<LatencyFigures> {
  const all: number[] = [];
  const byKind = new Map<string, { times: number[]; answered: number }>();
  let answered = 0;
  for (const p of positions) {
    const t = performance.now();
    const result = await send(p);
    const ms = performance.now() - t;
    all.push(ms);
    const k = byKind.get(p.kind) ?? { times: [], answered: 0 };
    k.times.push(ms);
    if (result !== null && result !== undefined) {
      answered++;
      k.answered++;
    }
    byKind.set(p.kind, k);
  }
  return {
    requests: all.length,
    answered,
    p50Ms: median(all),
    p95Ms: percentile(all, 95),
    maxMs: Math.max(...all),
    byKind: Object.fromEntries(
      [...byKind].map(([kind, k]) => [
        kind,
        { requests: k.times.length, answered: k.answered, p95Ms: percentile(k.times, 95) },
      ]),
    ),
  };
}

/** A language server started over stdio and initialized, as an editor starts it. */
interface ServerSession {
  child: ChildProcess;
  connection: ProtocolConnection;
  /** The promise, bounded by the session's timeout and by the server's exit. */
  guard<T>(p: Promise<T>, what: string): Promise<T>;
  serverLog: string[];
  /** Opens a document and waits for its first diagnostics: the time between, and how many. */
  open(uri: string, text: string): Promise<{ ms: number; cpuMs: number; diagnostics: number }>;
  /**
   * The last diagnostics published since the open: ms after it, and how many. Read once a request is answered,
   * they are the whole set (the server publishes it before it answers from the analysis).
   */
  lastPublished(): { ms: number; diagnostics: number };
  /** Shutdown and exit; a server that does not go is killed. */
  close(): Promise<void>;
}

/**
 * CPU time (user + system, all its threads; 10 ms ticks) of a running process, from /proc: the server's work
 * between two moments, which on a shared machine varies less than the wall time. NaN where /proc does not tell.
 */
function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** How the bench starts the server: as the extension does, with its allocator settings (ctx.ts, allocatorEnv.ts). */
export const SERVER_START = `node dist/server.js --stdio with the extension's allocator settings (GLIBC_TUNABLES=${allocatorEnv({}).GLIBC_TUNABLES})`;

async function startServer(serverJs: string, opts: { timeoutMs: number; nodeArgs?: string[] }): Promise<ServerSession> {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), serverJs, '--stdio'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: allocatorEnv(),
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`the server exited (${code ?? signal}); stderr: ${stderr.slice(-2000)}`)),
    ),
  );
  exited.catch(() => undefined);
  const guard = <T>(p: Promise<T>, what: string) => withTimeout(Promise.race([p, exited]), opts.timeoutMs, what);

  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const serverLog: string[] = [];
  connection.onNotification('window/logMessage', (p: { message: string }) => {
    serverLog.push(p.message);
  });
  connection.onRequest('workspace/configuration', () => [{ language: 'en' }]);
  let firstDiagnostics: ((p: PublishDiagnosticsParams) => void) | undefined;
  let opened = 0;
  let cpuAtOpen = NaN;
  let cpuAtFirst = NaN;
  let last = { ms: NaN, diagnostics: NaN };
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    last = { ms: performance.now() - opened, diagnostics: p.diagnostics.length };
    if (firstDiagnostics) cpuAtFirst = processCpuMs(child.pid);
    firstDiagnostics?.(p);
    firstDiagnostics = undefined;
  });
  connection.listen();
  const close = async () => {
    const gone = new Promise<void>((resolve) =>
      child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    try {
      await withTimeout(connection.sendRequest(ShutdownRequest.type), 5000, 'shutdown');
      await connection.sendNotification(ExitNotification.type);
      // A server run with --cpu-prof writes its profile while exiting: give it time before any kill.
      await withTimeout(gone, 30_000, 'server exit');
    } catch {
      // Already gone or stuck: the kill below ends it.
    }
    connection.dispose();
    if (child.exitCode === null) child.kill();
  };
  const open = async (uri: string, text: string) => {
    const diagnostics = new Promise<PublishDiagnosticsParams>((resolve) => (firstDiagnostics = resolve));
    cpuAtOpen = processCpuMs(child.pid);
    opened = performance.now();
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'iptables', version: 1, text },
    });
    const published = await guard(diagnostics, 'first publishDiagnostics');
    const ms = performance.now() - opened;
    return { ms, cpuMs: cpuAtFirst - cpuAtOpen, diagnostics: published.diagnostics.length };
  };
  try {
    await guard(
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: null,
        capabilities: { workspace: { configuration: true } },
        locale: 'en',
      }),
      'initialize',
    );
    await connection.sendNotification(InitializedNotification.type, {});
  } catch (e) {
    await close();
    throw e;
  }
  return { child, connection, guard, serverLog, open, lastPublished: () => last, close };
}

/**
 * One editor session as a person has it: a fresh server opens the dump (the time to its first diagnostics), the
 * editor asks for the document's colours (semantic tokens) and a few hovers and definitions, and the server's peak
 * memory (its worker threads included) is read.
 */
export async function openOnce(
  serverJs: string,
  text: string,
  positions: EditorPosition[],
  timeoutMs: number,
): Promise<{ openToDiagnosticsMs: number; openCpuMs: number; openToWholeDiagnosticsMs: number; peakRss: number }> {
  const server = await startServer(serverJs, { timeoutMs });
  try {
    const uri = 'file:///bench/kube-proxy.iptables';
    const { ms, cpuMs } = await server.open(uri, text);
    await server.guard(
      server.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } }),
      'semantic tokens',
    );
    const whole = server.lastPublished();
    for (const p of positions) {
      const at = { textDocument: { uri }, position: { line: p.line, character: p.character } };
      await server.guard(server.connection.sendRequest(HoverRequest.type, at), 'hover');
      await server.guard(server.connection.sendRequest(DefinitionRequest.type, at), 'definition');
    }
    return {
      openToDiagnosticsMs: ms,
      openCpuMs: cpuMs,
      openToWholeDiagnosticsMs: whole.ms,
      peakRss: (server.child.pid && treeMemory(server.child.pid)?.hwm) || NaN,
    };
  } finally {
    await server.close();
  }
}

export async function runLsp(
  serverJs: string,
  text: string,
  hoverPositions: EditorPosition[],
  definitionPositions: EditorPosition[],
  opts: { timeoutMs: number; semanticRuns: number; nodeArgs?: string[] },
): Promise<LspResult> {
  const server = await startServer(serverJs, opts);
  const { child, connection, guard, serverLog } = server;
  try {
    const uri = 'file:///bench/kube-proxy-10k.iptables';
    const opened = await server.open(uri, text);

    const tokenTimes: number[] = [];
    let whole: { ms: number; diagnostics: number } | undefined;
    let tokens = 0;
    let declined = false;
    for (let i = 0; i < opts.semanticRuns; i++) {
      const t = performance.now();
      const r = await guard(
        connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } }),
        'semantic tokens',
      );
      tokenTimes.push(performance.now() - t);
      whole ??= server.lastPublished();
      tokens = (r?.data.length ?? 0) / 5;
      declined = r === null;
      if (tokenTimes[0] > 5000) break; // one slow answer is figure enough
    }
    const viewport = 80;
    const rangeTimes: number[] = [];
    let rangeTokens = 0;
    const lineCount = text.split('\n').length;
    for (let i = 0; i < 50; i++) {
      const start = Math.floor(((i + 0.5) / 50) * Math.max(1, lineCount - viewport));
      const t = performance.now();
      const r = await guard(
        connection.sendRequest(SemanticTokensRangeRequest.type, {
          textDocument: { uri },
          range: { start: { line: start, character: 0 }, end: { line: start + viewport, character: 0 } },
        }),
        'semantic tokens (range)',
      );
      rangeTimes.push(performance.now() - t);
      rangeTokens += (r?.data.length ?? 0) / 5;
    }

    const at = (p: EditorPosition) => ({ textDocument: { uri }, position: { line: p.line, character: p.character } });
    const hover = await latencies(hoverPositions, (p) =>
      guard(connection.sendRequest(HoverRequest.type, at(p)), 'hover'),
    );
    const definition = await latencies(definitionPositions, (p) =>
      guard(connection.sendRequest(DefinitionRequest.type, at(p)), 'definition'),
    );
    // The server with its analysis workers (threads of its process).
    const memory = child.pid ? treeMemory(child.pid) : undefined;
    return {
      openToDiagnosticsMs: opened.ms,
      openToWholeDiagnosticsMs: whole?.ms ?? NaN,
      diagnostics: whole?.diagnostics ?? opened.diagnostics,
      semanticTokens: { wallMs: tokenTimes, medianMs: median(tokenTimes), tokens, declined },
      semanticRange: {
        lines: viewport,
        requests: rangeTimes.length,
        p50Ms: median(rangeTimes),
        p95Ms: percentile(rangeTimes, 95),
        tokensPerRequest: rangeTokens / rangeTimes.length,
      },
      hover,
      definition,
      memory,
      serverLog: serverLog.slice(0, 20),
    };
  } finally {
    await server.close();
  }
}
