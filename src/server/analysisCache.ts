/**
 * The analyses of the open documents, each held by a worker process, and the budgets that keep every request
 * bounded.
 *
 * - A document's text is analysed in a worker (parse + model of a 40 MB dump is seconds of synchronous work); the
 *   server's own process keeps reading the editor's messages meanwhile.
 * - Requests are answered by the worker holding the last complete analysis (`serving`), also while a newer version
 *   is being analysed in another worker; only a document's first analysis is waited for. When the new analysis is
 *   complete it serves, and the old worker is released once its last answer is sent: small documents keep it as a
 *   spare with its analysis dropped, big ones end it.
 * - Workers are child processes, not threads: an ended worker gives all its memory back to the system. Threads
 *   of one process were tried first; the allocator kept what ended threads had used, and the server grew by
 *   half after a few edits of a 23 MB dump.
 * - At most one analysis per document runs; edits that arrive meanwhile are read by the next one, once it ends.
 * - Every request has a budget: past it, the request is answered with an error, logged, and the worker (which may
 *   be stuck in synchronous work) is killed; the document is analysed again in a fresh worker. An analysis has its
 *   own budget; past it the worker is killed and the previous analysis keeps serving.
 * - A cancelled request is answered at once (RequestCancelled) and its late result dropped.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ResponseError, type CancellationToken } from 'vscode-languageserver';
import type { Lang } from '../core/i18n/catalog';
import type { FromWorker, ToWorker } from './worker';

export interface Budgets {
  /** Default budget of a request, from the moment it is handed to the worker holding the analysis. */
  requestMs: number;
  /** Budgets of particular methods (e.g. `kubePacketPath/tracePacket`). */
  perMethod: Record<string, number>;
  /** Budget of one analysis (parse + model + diagnostics). */
  analysisMs: number;
}

export const DEFAULT_BUDGETS: Budgets = {
  requestMs: 10_000,
  perMethod: { 'kubePacketPath/tracePacket': 30_000, 'workspace/symbol': 20_000 },
  analysisMs: 120_000,
};

/** LSP's error codes used here. */
export const REQUEST_CANCELLED = -32800;
export const REQUEST_FAILED = -32803;

/** Below this many characters a released worker is kept as a spare (starting one costs more than its heap). */
const SPARE_MAX_CHARS = 1_000_000;

let fullGc: (() => void) | undefined;
/**
 * A full collection of the server's own heap, once a big document's old version is no longer needed: the texts of
 * its versions and the answers relayed are garbage, but V8 lets old-generation garbage grow to hundreds of MB
 * before it collects on its own (the server's RSS grew 1.5x over ten edits of a 23 MB dump without this).
 */
function collectGarbage(): void {
  try {
    if (!fullGc) {
      setFlagsFromString('--expose-gc');
      fullGc = runInNewContext('gc') as () => void;
    }
    fullGc();
  } catch {
    // Not available: V8 collects when it decides to.
  }
}

export interface DocumentState {
  version: number;
  languageId: string;
  text: () => string;
}

export interface CacheHooks {
  /** The worker script (this bundle: it runs the worker when not on the main thread). */
  workerFile: string;
  budgets: Budgets;
  lang: () => Lang;
  current: (uri: string) => DocumentState | undefined;
  publish: (uri: string, version: number, diagnostics: unknown[], ms: number) => void;
  /** A newer analysis serves after answers were given from an older one: the editor should ask again. */
  refreshed: (uri: string) => void;
  log: (message: string) => void;
  error: (message: string) => void;
}

/** A worker's answer: the result, and what had to be fitted into the text it read. */
export interface Answer {
  result: unknown;
  fitted?: string[];
}

interface Pending {
  method: string;
  resolve: (v: Answer) => void;
  reject: (e: unknown) => void;
  timer: NodeJS.Timeout;
}

/** The argument that makes the server's bundle run as a worker (see main.ts). */
export const WORKER_ARG = '--kpp-analysis-worker';

/** One worker process holding (at most) one analysis. */
class Host {
  readonly child: ChildProcess;
  readonly pending = new Map<number, Pending>();
  version = -1;
  chars = 0;
  retiring = false;
  dead = false;
  onAnalysed?: (m: Extract<FromWorker, { kind: 'analysed' | 'analysisFailed' }>) => void;
  onExit?: () => void;
  private nextId = 1;

  constructor(file: string, error: (message: string) => void) {
    // `advanced`: structured clone, so a 40 MB text goes over as one string, not as JSON.
    this.child = fork(file, [WORKER_ARG], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
    let stderr = '';
    this.child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
    this.child.on('message', (m: FromWorker) => {
      if (m.kind === 'analysed' || m.kind === 'analysisFailed') return this.onAnalysed?.(m);
      const p = this.pending.get(m.id);
      if (!p) return; // cancelled or abandoned: the late answer is dropped
      this.settle(m.id);
      if (m.kind === 'result') p.resolve({ result: m.result, fitted: m.fitted });
      else {
        if (m.log) error(m.log);
        p.reject(new ResponseError(m.code, m.message));
      }
    });
    this.child.on('error', (e) => error(`analysis worker failed: ${e.stack ?? String(e)}`));
    this.child.on('exit', (code, signal) => {
      const expected = this.dead;
      this.dead = true;
      if (!expected) error(`analysis worker exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr}` : ''}`);
      for (const [id, p] of [...this.pending]) {
        this.settle(id);
        p.reject(new ResponseError(REQUEST_FAILED, `${p.method} abandoned: the analysis worker stopped`));
      }
      this.onExit?.();
    });
  }

  send(m: ToWorker): void {
    if (this.dead || !this.child.connected) return;
    this.child.send(m, (e) => {
      if (e && !this.dead) this.terminate();
    });
  }

  request(method: string, params: unknown, lang: Lang, budgetMs: number, token: CancellationToken | undefined, overBudget: (method: string) => void): Promise<Answer> {
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      if (token?.isCancellationRequested) return reject(new ResponseError(REQUEST_CANCELLED, 'cancelled'));
      const timer = setTimeout(() => {
        this.settle(id);
        reject(new ResponseError(REQUEST_FAILED, `${method} took longer than its budget of ${budgetMs} ms and was abandoned`));
        overBudget(method);
      }, budgetMs);
      this.pending.set(id, { method, resolve, reject, timer });
      token?.onCancellationRequested(() => {
        if (!this.pending.has(id)) return;
        this.settle(id);
        reject(new ResponseError(REQUEST_CANCELLED, 'cancelled'));
      });
      this.send({ kind: 'request', id, method, params, lang });
    });
  }

  settle(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(id);
    if (this.retiring && this.pending.size === 0) this.onIdle?.();
  }

  onIdle?: () => void;

  terminate(): void {
    this.dead = true;
    this.child.kill('SIGKILL');
  }
}

interface Entry {
  uri: string;
  serving?: Host;
  analysing?: Host;
  spare?: Host;
  /** Another analysis is wanted once the running one ends (edits arrived meanwhile). */
  again: boolean;
  timer?: NodeJS.Timeout;
  /** Requests waiting for the document's first analysis. */
  waiting: ((h: Host | undefined) => void)[];
  /** An answer was given from an analysis older than the text. */
  staleServed: boolean;
  /** The version whose worker was restarted after it stopped (restarted once, not in a loop). */
  restartedFor?: number;
  /** The last version whose analysis failed or ran out of budget (not retried until the text changes). */
  failedVersion?: number;
  closed: boolean;
}

export class AnalysisCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly hooks: CacheHooks) {}

  /** Analyse the document's current text after `delay` ms (edits within the delay are read together). */
  schedule(uri: string, delay: number): void {
    let e = this.entries.get(uri);
    if (!e) this.entries.set(uri, (e = { uri, again: false, waiting: [], staleServed: false, closed: false }));
    clearTimeout(e.timer);
    e.timer = setTimeout(() => {
      e.timer = undefined;
      this.analyse(e);
    }, delay);
  }

  /** Closes a document: its workers end, waiting requests get no analysis. */
  close(uri: string): void {
    const e = this.entries.get(uri);
    if (!e) return;
    this.entries.delete(uri);
    e.closed = true;
    clearTimeout(e.timer);
    for (const h of [e.serving, e.analysing, e.spare]) h?.terminate();
    for (const w of e.waiting.splice(0)) w(undefined);
  }

  uris(): string[] {
    return [...this.entries.keys()];
  }

  /** The version of the analysis that answers now, if any. */
  servedVersion(uri: string): number | undefined {
    return this.entries.get(uri)?.serving?.version;
  }

  /**
   * The answer to `method` from the document's last complete analysis (its first one is waited for), with the
   * version it was computed on; undefined when the document is not open or has no analysis.
   */
  async request(uri: string, method: string, params: unknown, token?: CancellationToken): Promise<(Answer & { version: number }) | undefined> {
    const e = this.entries.get(uri);
    if (!e) return undefined;
    const host = e.serving ?? (await new Promise<Host | undefined>((resolve) => e.waiting.push(resolve)));
    if (!host) return undefined;
    const current = this.hooks.current(uri);
    if (current && current.version !== host.version) e.staleServed = true;
    const budget = this.hooks.budgets.perMethod[method] ?? this.hooks.budgets.requestMs;
    const answer = await host.request(method, params, this.hooks.lang(), budget, token, (m) => this.overBudget(e, host, m, budget));
    return { ...answer, version: host.version };
  }

  private overBudget(e: Entry, host: Host, method: string, budget: number): void {
    this.hooks.error(`${method} on ${e.uri} v${host.version} exceeded its budget of ${budget} ms: abandoned, and its worker ended; the document is analysed again`);
    host.terminate();
    if (e.serving === host) {
      e.serving = undefined;
      if (!e.closed) this.schedule(e.uri, 0);
    }
  }

  private analyse(e: Entry): void {
    if (e.closed) return;
    if (e.analysing) {
      e.again = true;
      return;
    }
    const doc = this.hooks.current(e.uri);
    if (!doc) return;
    e.again = false;
    const text = doc.text();
    const host = e.spare ?? this.newHost();
    e.spare = undefined;
    e.analysing = host;
    const started = Date.now();
    const budget = setTimeout(() => {
      this.hooks.error(`analysis of ${e.uri} v${doc.version} exceeded its budget of ${this.hooks.budgets.analysisMs} ms: abandoned; the previous analysis keeps answering`);
      host.onAnalysed = undefined;
      host.terminate();
      finish(true);
    }, this.hooks.budgets.analysisMs);
    const finish = (failed: boolean) => {
      clearTimeout(budget);
      if (e.analysing === host) e.analysing = undefined;
      if (e.closed) return;
      if (failed) e.failedVersion = doc.version;
      // The text moved on while this one was read: read it again (a version that failed is not retried).
      const now = this.hooks.current(e.uri)?.version;
      const wanted = e.again || (now !== undefined && now !== e.serving?.version && now !== e.failedVersion);
      if (wanted && !e.timer) return this.analyse(e);
      if (!e.serving && !e.analysing && !e.timer) for (const w of e.waiting.splice(0)) w(undefined);
    };
    host.onAnalysed = (m) => {
      host.onAnalysed = undefined;
      if (e.closed) return host.terminate();
      if (m.kind === 'analysisFailed') {
        this.hooks.error(`analysis of ${e.uri} v${m.version} failed: ${m.message}`);
        host.terminate();
        return finish(true);
      }
      host.version = m.version;
      host.chars = text.length;
      const old = e.serving;
      e.serving = host;
      host.onExit = () => this.lost(e, host);
      if (old) this.release(e, old);
      this.hooks.publish(e.uri, m.version, m.diagnostics, Date.now() - started);
      if (text.length >= SPARE_MAX_CHARS) setImmediate(collectGarbage);
      for (const w of e.waiting.splice(0)) w(host);
      if (e.staleServed) {
        e.staleServed = false;
        this.hooks.refreshed(e.uri);
      }
      finish(false);
    };
    host.onExit = () => {
      if (!host.onAnalysed) return;
      host.onAnalysed = undefined;
      this.hooks.error(`the worker analysing ${e.uri} v${doc.version} stopped (out of memory?); the previous analysis keeps answering`);
      finish(true);
    };
    host.send({ kind: 'analyse', uri: e.uri, version: doc.version, languageId: doc.languageId, text, lang: this.hooks.lang() });
  }

  /** The serving worker stopped unexpectedly (out of memory, a crash): analyse again, once per version. */
  private lost(e: Entry, host: Host): void {
    if (e.serving !== host || e.closed) return;
    e.serving = undefined;
    if (e.restartedFor === host.version) return;
    e.restartedFor = host.version;
    this.hooks.error(`the worker holding ${e.uri} v${host.version} stopped; analysing again`);
    this.schedule(e.uri, 0);
  }

  /** An analysis that no longer serves: its worker ends (or becomes the spare) once its last answer is sent. */
  private release(e: Entry, old: Host): void {
    old.onExit = undefined;
    old.retiring = true;
    old.onIdle = () => {
      old.onIdle = undefined;
      if (!e.closed && !e.spare && !old.dead && old.chars < SPARE_MAX_CHARS) {
        old.retiring = false;
        old.version = -1;
        old.send({ kind: 'drop' });
        e.spare = old;
      } else old.terminate();
    };
    if (old.pending.size === 0) old.onIdle();
  }

  private newHost(): Host {
    return new Host(this.hooks.workerFile, this.hooks.error);
  }

  /** Diagnostics again (the language changed), from the analysis that serves. */
  async republish(uri: string): Promise<void> {
    const r = await this.request(uri, 'diagnostics', undefined);
    if (r) this.hooks.publish(uri, r.version, r.result as unknown[], 0);
  }
}
