/**
 * The analyses of the open documents, each held by a worker thread, and the budgets that keep every request
 * bounded.
 *
 * - A document's text is analysed in a worker (parse + model of a 40 MB dump is seconds of synchronous work); the
 *   server's main thread keeps reading the editor's messages meanwhile.
 * - A big document (from 1M characters) gets a worker of its own for each analysis. Requests are answered by the
 *   worker holding the last complete analysis (`serving`), also while a newer version is analysed in another
 *   worker; when the new one is complete it serves, and the old worker ends once its last answer is sent.
 * - Small documents share one worker, which holds the analysis of each (their analyses take milliseconds; a
 *   thread each would cost 10 MB apiece).
 * - The first worker starts with the server's process (main.ts), before the first document comes, and a big
 *   document's next one when an edit comes, during the wait before it is read: an analysis does not wait for a
 *   worker to start.
 * - A big text goes to its worker in parts, one per turn of the event loop. A didOpen's text
 *   read over stdio goes as it is decoded, to the worker its first analysis will run in (`textSink`); the server
 *   keeps it compressed (piecedText.ts).
 * - Workers are threads of the server's process, not processes of their own: a process is Node's whole
 *   runtime again (about 30 MB of a 23 MB dump's peak of 225-230 MB; as threads 194-195 MB). Threads were tried
 *   first, before the allocator's settings (allocatorEnv.ts), and the server grew by half over a few edits of that
 *   dump: with the extension's settings it now stays at 200-204 MB over five edits (processes: 240), without them
 *   at 254-262 MB (processes: 249). An ended worker's V8 heap goes back to the system with it.
 * - Only a document's first analysis is waited for. Its parse problems are published as soon as the worker knows
 *   them when the document is big (lint's findings on a 23 MB dump take as long again): the whole set, published
 *   when lint is done, replaces them. A later analysis publishes its whole set only: the findings shown stay
 *   until they are replaced.
 * - At most one analysis per document runs; edits that arrive meanwhile are read by the next one, once it ends.
 * - Every request has a budget: past it, the request is answered with an error, logged, and stopped as a cancelled
 *   one is; a worker still in it after STOP_GRACE_MS (stuck in work that does not look at the mark) is killed, and
 *   the document is analysed again in a fresh worker. An analysis has its own budget; past it the worker is killed
 *   and the previous analysis keeps serving.
 * - A cancelled request is answered at once (RequestCancelled), and its worker stops it too (cancellation.ts):
 *   the requests behind it do not wait for work nobody wants.
 */
import type { Worker } from 'node:worker_threads';
import { ResponseError, type CancellationToken } from 'vscode-languageserver';
import type { Lang } from '../core/i18n/catalog';
import { CancelFlags, REQUEST_CANCELLED } from './cancellation';
import { collectGarbage } from './gc';
import { PiecedText, type ForwardedText } from './piecedText';
import { RawResult } from './rawResult';
import { TracePacketRequest } from './protocol';
import type { TextSink } from './stdioReader';
import type { FromWorker, ToWorker } from './worker';
import { startWorkerThread, takeFirstWorker } from './workerThread';

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
  perMethod: { [TracePacketRequest.method]: 30_000, 'workspace/symbol': 20_000 },
  analysisMs: 120_000,
};

/** LSP's RequestFailed error code. */
export const REQUEST_FAILED = -32803;

/**
 * A request over its budget is marked cancelled; a worker that has not stopped it this long after is stuck (in
 * work that does not look at the mark, such as the engine's trace) and is ended.
 */
const STOP_GRACE_MS = 3_000;

/** From this many characters a document is analysed in a worker of its own; below, in the shared one. */
const BIG_DOCUMENT_CHARS = 1_000_000;
/** A big text goes to its worker in parts of this many characters. */
export const TEXT_PART_CHARS = 1 << 20;

export interface DocumentState {
  version: number;
  languageId: string;
  /** The text's length, and the text in the parts it is held in (one, unless it was opened in pieces). */
  length: number;
  parts: () => readonly string[];
  /** The worker holding the text's parts as they were forwarded, while no analysis took them. */
  forwarded?: ForwardedText;
}

export interface CacheHooks {
  /** The worker script (this bundle: it runs the worker when not on the main thread). */
  workerFile: string;
  budgets: Budgets;
  lang: () => Lang;
  current: (uri: string) => DocumentState | undefined;
  /**
   * `stage`: `parsed`, the parse problems of a first analysis whose lint goes on; `withdrawn`, those of an analysis
   * that failed after they were published (an empty set, as before them).
   */
  publish: (uri: string, version: number, diagnostics: unknown[], ms: number, stage?: 'parsed' | 'withdrawn') => void;
  /** A newer analysis serves after answers were given from an older one: the editor should ask again. */
  refreshed: (uri: string) => void;
  log: (message: string) => void;
  error: (message: string) => void;
}

/** A worker's answer: the result (a RawResult when the worker wrote it as JSON), and what had to be fitted into the text it read. */
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

/** A request over its budget: just now, stopped by its worker, or not stopped (the worker is stuck in it). */
type OverBudget = 'over' | 'stopped' | 'stuck';

type Analysed = Extract<FromWorker, { kind: 'parsed' | 'analysed' | 'analysisFailed' }>;

/** One worker thread holding the analyses of one big document or of all small ones. */
class Host {
  readonly thread: Worker;
  readonly pending = new Map<number, Pending>();
  /** Per document: what to do when its analysis is done. */
  readonly analysed = new Map<string, (m: Analysed) => void>();
  dead = false;
  onExit?: () => void;
  onIdle?: () => void;
  private nextId = 1;
  private readonly cancelFlags = new CancelFlags();
  /** Requests over their budget, marked cancelled: what to do when the worker answers them (it is free again). */
  private readonly stopping = new Map<number, () => void>();

  constructor(
    file: string,
    /** Holds the small documents' analyses (a spare's role is set when it is given its first document). */
    public shared: boolean,
    error: (message: string) => void,
    /** The thread, if it was started before (workerThread.ts). */
    thread?: Worker,
  ) {
    this.thread = thread ?? startWorkerThread(file);
    this.thread.postMessage({ kind: 'cancelFlags', buffer: this.cancelFlags.buffer } satisfies ToWorker);
    // Whatever it prints is dropped.
    this.thread.stdout.resume();
    let stderr = '';
    this.thread.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
    this.thread.on('message', (m: FromWorker) => {
      if (m.kind === 'parsed') return this.analysed.get(m.uri)?.(m);
      if (m.kind === 'analysed' || m.kind === 'analysisFailed') {
        const done = this.analysed.get(m.uri);
        this.analysed.delete(m.uri);
        return done?.(m);
      }
      this.stopping.get(m.id)?.();
      const p = this.pending.get(m.id);
      if (!p) return; // cancelled or abandoned: the late answer is dropped
      this.settle(m.id);
      if (m.kind === 'result') p.resolve({ result: m.result, fitted: m.fitted });
      else if (m.kind === 'json') p.resolve({ result: new RawResult(m.text), fitted: m.fitted });
      else {
        if (m.log) error(m.log);
        p.reject(new ResponseError(m.code, m.message));
      }
    });
    this.thread.on('error', (e) => error(`analysis worker failed: ${e.stack ?? String(e)}`));
    this.thread.on('exit', (code) => {
      const expected = this.dead;
      this.dead = true;
      for (const stopped of this.stopping.values()) stopped();
      if (!expected) error(`analysis worker exited (code ${code})${stderr ? `: ${stderr}` : ''}`);
      for (const [id, p] of [...this.pending]) {
        this.settle(id);
        p.reject(new ResponseError(REQUEST_FAILED, `${p.method} abandoned: the analysis worker stopped`));
      }
      this.onExit?.();
    });
  }

  /** Messages not written yet: they wait while a big text goes over part by part, and keep their order. */
  private readonly outbox: ToWorker[] = [];
  private writing = false;

  send(m: ToWorker): void {
    if (this.dead) return;
    this.outbox.push(m);
    if (!this.writing) this.write();
  }

  /**
   * An analysis of a text held in `parts`: a big text goes over in parts, the last one with the analyse message
   * (one serialised copy of the whole text, and its concatenation on both sides, cost the server and the worker a
   * transient 50-70 MB each on a 23 MB dump). A part is at most TEXT_PART_CHARS unless it came in a piece as long.
   */
  sendAnalysis(m: Omit<Extract<ToWorker, { kind: 'analyse' }>, 'text'>, parts: readonly string[]): void {
    if (this.dead) return;
    const slices: string[] = [];
    for (const part of parts) {
      if (part.length < 2 * TEXT_PART_CHARS) slices.push(part);
      else for (let at = 0; at < part.length; at += TEXT_PART_CHARS) slices.push(part.slice(at, at + TEXT_PART_CHARS));
    }
    const last = slices.pop() ?? '';
    for (const part of slices) this.outbox.push({ kind: 'textPart', part });
    this.send({ ...m, text: last });
  }

  private write(): void {
    this.writing = true;
    for (let m = this.outbox.shift(); m; m = this.outbox.shift()) {
      if (this.dead) break;
      const part = m.kind === 'textPart' || m.kind === 'packedPart';
      try {
        this.thread.postMessage(m);
      } catch {
        // Not a message structured clone can copy: the worker would wait for it in vain.
        if (!this.dead) this.terminate();
        break;
      }
      if (part) {
        // A part's next in the next turn, once the worker could take this one: the slices are garbage, which a
        // young collection frees (else they add up to the text's size at the server's peak); a compressed
        // part's are small.
        setImmediate(() => {
          if (m.kind === 'textPart') collectGarbage(true);
          this.write();
        });
        return;
      }
    }
    this.outbox.length = 0;
    this.writing = false;
  }

  request(
    uri: string,
    method: string,
    params: unknown,
    lang: Lang,
    budgetMs: number,
    token: CancellationToken | undefined,
    /** Told when the budget is over, then whether the worker stopped the request or is stuck in it. */
    overBudget: (method: string, now: OverBudget) => void,
  ): Promise<Answer> {
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      if (token?.isCancellationRequested) return reject(new ResponseError(REQUEST_CANCELLED, 'cancelled'));
      if (this.dead)
        return reject(new ResponseError(REQUEST_FAILED, `${method} abandoned: the analysis worker stopped`));
      const timer = setTimeout(() => {
        this.settle(id);
        reject(
          new ResponseError(
            REQUEST_FAILED,
            `${method} took longer than its budget of ${budgetMs} ms and was abandoned`,
          ),
        );
        overBudget(method, 'over');
        this.stopOverBudget(id, (stopped) => overBudget(method, stopped ? 'stopped' : 'stuck'));
      }, budgetMs);
      this.pending.set(id, { method, resolve, reject, timer });
      token?.onCancellationRequested(() => {
        if (!this.pending.has(id)) return;
        // Answered now; the worker stops the work at its next look at the mark, or skips it if not begun.
        this.cancelFlags.cancel(id);
        this.settle(id);
        reject(new ResponseError(REQUEST_CANCELLED, 'cancelled'));
      });
      this.send({ kind: 'request', id, uri, method, params, lang });
    });
  }

  /** A request over its budget stops as a cancelled one does, unless the worker is stuck in it. */
  private stopOverBudget(id: number, done: (stopped: boolean) => void): void {
    this.cancelFlags.cancel(id);
    const stuck = setTimeout(() => {
      this.stopping.delete(id);
      if (!this.dead) done(false);
    }, STOP_GRACE_MS);
    this.stopping.set(id, () => {
      clearTimeout(stuck);
      this.stopping.delete(id);
      if (!this.dead) done(true);
    });
  }

  settle(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(id);
    if (this.pending.size === 0) this.onIdle?.();
  }

  terminate(): void {
    this.dead = true;
    void this.thread.terminate();
  }
}

/**
 * A didOpen's text going to a worker as it is decoded: each piece is compressed (packedText.ts) and sent so. The
 * worker keeps the parts until the text's first analysis (its `analyse` message comes with no more
 * text) or until it is told to drop them; then it is a spare worker again.
 */
class Forwarding implements TextSink, ForwardedText {
  private readonly pieced = new PiecedText();

  constructor(
    private host: Host | undefined,
    /** The host is free again: it dropped the parts. */
    private readonly freed: (host: Host) => void,
  ) {
    this.pieced.forwarded = this;
  }

  add(piece: string | Uint8Array): void {
    const packed = this.pieced.pack(
      typeof piece === 'string' ? this.pieced.push(piece) : this.pieced.pushLatin1(piece),
    );
    if (this.host && !this.host.dead) this.host.send({ kind: 'packedPart', ...packed });
  }

  text(): PiecedText {
    return this.pieced;
  }

  /** The worker holding every part, for the text's first analysis; undefined if it stopped or was taken. */
  take(): Host | undefined {
    const host = this.host;
    this.host = undefined;
    this.pieced.forwarded = undefined;
    return host && !host.dead ? host : undefined;
  }

  release(): void {
    const host = this.take();
    if (!host) return;
    host.send({ kind: 'dropParts' });
    this.freed(host);
  }
}

interface Entry {
  uri: string;
  serving?: Host;
  /** The version of the text the serving analysis read. */
  servingVersion: number;
  analysing?: Host;
  /** Another analysis is wanted once the running one ends (edits arrived meanwhile). */
  again: boolean;
  timer?: NodeJS.Timeout;
  /** Requests waiting for the document's first analysis. */
  waiting: ((h: Host | undefined) => void)[];
  /** An answer was given from an analysis older than the text. */
  staleServed: boolean;
  /** Parse problems are published and no analysis serves yet: a failure withdraws them. */
  parsedPublished: boolean;
  /** The version whose worker was restarted after it stopped (restarted once, not in a loop). */
  restartedFor?: number;
  /** The last version whose analysis failed or ran out of budget (not retried until the text changes). */
  failedVersion?: number;
  /** Stops waiting for the running analysis (the document closed). */
  stopAnalysis?: () => void;
  closed: boolean;
}

export class AnalysisCache {
  private readonly entries = new Map<string, Entry>();
  private shared?: Host;
  /** A worker started before any document needed one: the first document's analysis does not wait for its start. */
  private spare?: Host;
  /** The document whose edit `spare` was started for: closed within the wait, it ends its spare too. */
  private spareFor?: string;

  constructor(private readonly hooks: CacheHooks) {}

  /**
   * Where a big didOpen's text goes as it is read, before the message is complete: the spare worker (or a new
   * one), which the document's first analysis then runs in.
   */
  textSink(): TextSink {
    const host = this.spare && !this.spare.dead ? this.spare : this.newHost(false);
    this.spare = undefined;
    this.spareFor = undefined;
    return new Forwarding(host, (freed) => {
      if (!this.spare || this.spare.dead) this.spare = freed;
      else freed.terminate();
    });
  }

  /** Analyse the document's current text after `delay` ms (edits within the delay are read together). */
  schedule(uri: string, delay: number): void {
    let e = this.entries.get(uri);
    if (!e)
      this.entries.set(
        uri,
        (e = {
          uri,
          servingVersion: -1,
          again: false,
          waiting: [],
          staleServed: false,
          parsedPublished: false,
          closed: false,
        }),
      );
    clearTimeout(e.timer);
    e.timer = setTimeout(() => {
      e.timer = undefined;
      this.analyse(e);
    }, delay);
    // A big document's next analysis runs in a new worker: it starts during the wait, not after it (unless an
    // analysis is running: the next one waits for it, and a worker started now would idle beside two others).
    const big = (this.hooks.current(uri)?.length ?? 0) >= BIG_DOCUMENT_CHARS;
    if (delay > 0 && big && !e.analysing && !(this.spare && !this.spare.dead)) {
      this.spare = this.newHost(false);
      this.spareFor = uri;
    }
  }

  /** Closes a document: its analyses are dropped (its own workers end), waiting requests get no analysis. */
  close(uri: string): void {
    const e = this.entries.get(uri);
    if (!e) return;
    this.entries.delete(uri);
    e.closed = true;
    clearTimeout(e.timer);
    e.stopAnalysis?.();
    for (const h of new Set([e.serving, e.analysing])) if (h) this.release(h, uri);
    for (const w of e.waiting.splice(0)) w(undefined);
    if (this.spareFor === uri && this.spare) {
      this.spare.terminate();
      this.spare = undefined;
    }
  }

  uris(): string[] {
    return [...this.entries.keys()];
  }

  /** The version of the analysis that answers now, if any. */
  servedVersion(uri: string): number | undefined {
    const e = this.entries.get(uri);
    return e?.serving ? e.servingVersion : undefined;
  }

  /**
   * The answer to `method` from the document's last complete analysis (its first one is waited for), with the
   * version it was computed on; undefined when the document is not open or has no analysis.
   */
  async request(
    uri: string,
    method: string,
    params: unknown,
    token?: CancellationToken,
  ): Promise<(Answer & { version: number }) | undefined> {
    const e = this.entries.get(uri);
    if (!e) return undefined;
    // No analysis yet: wait for the one coming, if one is.
    if (!e.serving && !e.analysing && !e.timer) return undefined;
    const host = e.serving ?? (await new Promise<Host | undefined>((resolve) => e.waiting.push(resolve)));
    if (!host) return undefined;
    const version = e.servingVersion;
    const current = this.hooks.current(uri);
    if (current && current.version !== version) e.staleServed = true;
    const budget = this.hooks.budgets.perMethod[method] ?? this.hooks.budgets.requestMs;
    const answer = await host.request(uri, method, params, this.hooks.lang(), budget, token, (m, now) =>
      this.overBudget(e, host, version, m, budget, now),
    );
    return { ...answer, version };
  }

  private overBudget(e: Entry, host: Host, version: number, method: string, budget: number, now: OverBudget): void {
    const what = `${method} on ${e.uri} v${version}`;
    if (now === 'over') return this.hooks.error(`${what} exceeded its budget of ${budget} ms: abandoned`);
    if (now === 'stopped') return this.hooks.log(`${what} stopped after its budget; its worker keeps the analysis`);
    this.hooks.error(
      `${what} did not stop within ${STOP_GRACE_MS} ms after its budget: its worker ended; ${host.shared ? 'the small documents are' : 'the document is'} analysed again`,
    );
    host.terminate();
    // At once, not when the exit is reported: a request that comes meanwhile waits for the new analysis. The
    // analysis was not what ran too long: it is made again however often this happens.
    this.lost(host, true);
  }

  /** A worker stopped (killed over budget, out of memory, a crash): the documents it served are analysed again, once per version. */
  private lost(host: Host, always = false): void {
    for (const e of this.entries.values()) {
      if (e.serving !== host || e.closed) continue;
      e.serving = undefined;
      if (!always && e.restartedFor === e.servingVersion) {
        // It stopped twice on this version: no more tries until the text changes; nobody waits in vain.
        if (!e.analysing && !e.timer) for (const w of e.waiting.splice(0)) w(undefined);
        continue;
      }
      e.restartedFor = e.servingVersion;
      this.schedule(e.uri, 0);
    }
    if (this.shared === host) this.shared = undefined;
    if (this.spare === host) this.spare = undefined;
    // Analyses it was running: failed (the previous analysis of each keeps answering, if it lives elsewhere).
    for (const [uri, done] of [...host.analysed]) {
      host.analysed.delete(uri);
      done({ kind: 'analysisFailed', uri, version: -1, message: 'the worker stopped before it was done' });
    }
  }

  /**
   * A worker ready ahead of the first document (a worker's start, 0.1-0.3 s, would otherwise be waited for by the
   * first analysis): the one main.ts started with the server's process, else one started now. Once that worker is
   * taken, the next ones start when needed: a spare kept at all times would be a worker's memory (about 10 MB) more.
   */
  prepare(): void {
    if (!this.spare && !this.shared && this.entries.size === 0) this.spare = this.newHost(false);
  }

  private hostFor(chars: number): Host {
    const big = chars >= BIG_DOCUMENT_CHARS;
    if (!big && this.shared && !this.shared.dead) return this.shared;
    const spare = this.spare && !this.spare.dead ? this.spare : undefined;
    this.spare = undefined;
    this.spareFor = undefined;
    const host = spare ?? this.newHost(!big);
    host.shared = !big;
    if (!big) this.shared = host;
    return host;
  }

  private newHost(shared: boolean): Host {
    const host = new Host(this.hooks.workerFile, shared, this.hooks.error, takeFirstWorker());
    host.onExit = () => this.lost(host);
    return host;
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
    const length = doc.length;
    // The text went to a worker as it was read: the analysis runs there, on the parts it holds.
    const forwarded = doc.forwarded instanceof Forwarding ? doc.forwarded.take() : undefined;
    const parts = forwarded ? [] : doc.parts();
    // What the text came in (the message's JSON, an older version's text) is garbage: collected before the text
    // is serialised part by part, not left under the parts' buffers.
    if (length >= BIG_DOCUMENT_CHARS && !forwarded) collectGarbage();
    const host = forwarded ?? this.hostFor(length);
    e.analysing = host;
    const started = Date.now();
    const budget = setTimeout(() => {
      this.hooks.error(
        `analysis of ${e.uri} v${doc.version} exceeded its budget of ${this.hooks.budgets.analysisMs} ms: abandoned; the previous analysis keeps answering`,
      );
      e.stopAnalysis = undefined;
      host.analysed.delete(e.uri);
      host.terminate();
      finish(true);
    }, this.hooks.budgets.analysisMs);
    const finish = (failed: boolean) => {
      clearTimeout(budget);
      if (e.analysing === host) e.analysing = undefined;
      if (e.closed) return;
      if (failed) e.failedVersion = doc.version;
      if (failed && e.parsedPublished && !e.serving) {
        e.parsedPublished = false;
        this.hooks.publish(e.uri, doc.version, [], Date.now() - started, 'withdrawn');
      }
      // The text moved on while this one was read: read it again (a version that failed is not retried).
      const now = this.hooks.current(e.uri)?.version;
      const wanted = e.again || (now !== undefined && now !== e.servingVersion && now !== e.failedVersion);
      if (wanted && !e.timer) return this.analyse(e);
      if (!e.serving && !e.analysing && !e.timer) for (const w of e.waiting.splice(0)) w(undefined);
    };
    e.stopAnalysis = () => {
      clearTimeout(budget);
      host.analysed.delete(e.uri);
    };
    host.analysed.set(e.uri, (m) => {
      if (m.kind === 'parsed') {
        if (e.closed || e.serving) return;
        e.parsedPublished = true;
        return this.hooks.publish(e.uri, m.version, m.diagnostics, Date.now() - started, 'parsed');
      }
      e.stopAnalysis = undefined;
      if (e.closed) return this.release(host, e.uri);
      if (m.kind === 'analysisFailed') {
        this.hooks.error(`analysis of ${e.uri} v${doc.version} failed: ${m.message}`);
        if (!host.shared) host.terminate();
        return finish(true);
      }
      const old = e.serving;
      e.serving = host;
      e.servingVersion = m.version;
      e.parsedPublished = false;
      if (old && old !== host) this.release(old, e.uri);
      this.hooks.publish(e.uri, m.version, m.diagnostics, Date.now() - started);
      // The texts of the document's older versions and the answers relayed are garbage now (the server's RSS grew
      // 1.5x over ten edits of a 23 MB dump without this).
      if (length >= BIG_DOCUMENT_CHARS) setImmediate(collectGarbage);
      for (const w of e.waiting.splice(0)) w(host);
      if (e.staleServed) {
        e.staleServed = false;
        this.hooks.refreshed(e.uri);
      }
      finish(false);
    });
    host.sendAnalysis(
      {
        kind: 'analyse',
        uri: e.uri,
        version: doc.version,
        languageId: doc.languageId,
        lang: this.hooks.lang(),
        // A big document's first analysis: its parse problems first (nothing is shown before them).
        early: length >= BIG_DOCUMENT_CHARS && e.servingVersion < 0,
      },
      parts,
    );
  }

  /** `uri`'s analysis in `host` is no longer needed: the shared worker drops it; a document's own worker ends once its last answer is sent. */
  private release(host: Host, uri: string): void {
    if (host.shared) return host.send({ kind: 'drop', uri });
    host.onExit = undefined;
    host.onIdle = () => host.terminate();
    if (host.pending.size === 0) host.terminate();
  }

  /** Diagnostics again (the language changed), from the analysis that serves. */
  async republish(uri: string): Promise<void> {
    const r = await this.request(uri, 'diagnostics', undefined);
    if (r) this.hooks.publish(uri, r.version, r.result as unknown[], 0);
  }
}
