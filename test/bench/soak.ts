/**
 * Issue #29's soak figures: the LSP fuzzer of the test suite run longer (operations, failures by kind, latency
 * per request, the server's RSS over time), and edits of a big generated dump (the server's RSS after opening and
 * after each edit, and how long hovers, lenses and traces wait while each edit is analysed).
 */
import { CodeLensRequest, DidChangeTextDocumentNotification, HoverRequest } from 'vscode-languageserver-protocol/node';
import { fuzzSources } from '../helpers/mutate';
import { startSession } from '../lsp/client';
import { emptyStats, recordInvalid, runLspFuzz, type FuzzStats } from '../lsp/fuzz';
import { allocatorEnv } from '../../src/server/allocatorEnv';
import { TracePacketRequest } from '../../src/server/protocol';
import { threadCount } from '../helpers/processes';
import { treeMemory } from './engine';
import { formatMb, formatMs, percentile } from './stats';

export interface LatencyRow {
  method: string;
  requests: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface FuzzSoakResult {
  operations: number;
  documents: number;
  edits: number;
  failures: Record<string, number>;
  errors: Record<string, number>;
  examples: string[];
  latency: LatencyRow[];
  /** [seconds since start, RSS bytes] of the server. */
  rss: [number, number][];
  serverAlive: boolean;
}

function rows(latencies: Record<string, number[]>): LatencyRow[] {
  return Object.entries(latencies)
    .map(([method, v]) => ({
      method,
      requests: v.length,
      p50Ms: percentile(v, 50),
      p95Ms: percentile(v, 95),
      maxMs: Math.max(...v),
    }))
    .sort((a, b) => a.method.localeCompare(b.method));
}

export function printLatency(table: LatencyRow[]): void {
  for (const r of table)
    console.log(
      `  ${r.method.padEnd(36)} ${String(r.requests).padStart(6)}  p50 ${formatMs(r.p50Ms).padStart(9)}  p95 ${formatMs(r.p95Ms).padStart(9)}  max ${formatMs(r.maxMs).padStart(9)}`,
    );
}

export async function runFuzzSoak(options: {
  seed: number;
  documents: number;
  editsPerDocument: number;
}): Promise<FuzzSoakResult> {
  const stats: FuzzStats = emptyStats();
  const s = await startSession({
    onInvalid: (m, p) => recordInvalid(stats, m, p),
    requestTimeoutMs: 120_000,
    env: allocatorEnv(),
  });
  const started = performance.now();
  const rss: [number, number][] = [];
  const sample = () => {
    const m = treeMemory(s.process.pid!);
    if (m) rss.push([(performance.now() - started) / 1000, m.rss]);
  };
  sample();
  let rounds = 0;
  try {
    await runLspFuzz(s, fuzzSources(), { ...options, onRound: () => void (++rounds % 25 === 0 && sample()) }, stats);
    sample();
  } finally {
    await s.close();
  }
  return {
    operations: stats.operations,
    documents: stats.documents,
    edits: stats.edits,
    failures: stats.failures,
    errors: stats.errors,
    examples: stats.examples,
    latency: rows(stats.latencies),
    rss,
    serverAlive: s.process.exitCode === null || s.process.exitCode === 0,
  };
}

export interface EditSoakResult {
  bytes: number;
  openMs: number;
  /** RSS after opening (analysis done, the first hover, lenses and trace answered, settled), then after each edit's analysis. */
  rssAfterOpen: number;
  rssAfterEdits: number[];
  /** Each edit: how long its analysis took to publish, and the requests answered meanwhile. */
  edits: { analysedMs: number; answeredMeanwhile: number }[];
  latency: LatencyRow[];
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Opens `text` and edits it `edits` times (a rule's comment changed in the middle of the dump); while each edit is
 * analysed, hovers, code lenses and traces are sent one after another, as an editor does while a person works.
 */
export async function runEditSoak(
  text: string,
  options: { edits: number; hoverLine: number; traceDst: string; podIP: string },
): Promise<EditSoakResult> {
  const s = await startSession({ requestTimeoutMs: 10 * 60_000, env: allocatorEnv() });
  const uri = 'file:///bench/soak.iptables';
  const latencies: Record<string, number[]> = {};
  const timed = async (method: string, run: () => Promise<unknown>) => {
    const t = performance.now();
    await run().catch(() => undefined);
    (latencies[method] ??= []).push(performance.now() - t);
  };
  try {
    const t0 = performance.now();
    await s.open(uri, 'iptables', text);
    const openMs = performance.now() - t0;
    const td = { textDocument: { uri } };
    // What an editor asks when it shows a document, before the first edit: memory "after opening" includes it.
    const round = async () => {
      await timed('textDocument/hover', () =>
        s.connection.sendRequest(HoverRequest.type, { ...td, position: { line: options.hoverLine, character: 4 } }),
      );
      await timed('textDocument/codeLens', () => s.connection.sendRequest(CodeLensRequest.type, td));
      await timed('kubePacketPath/tracePacket', () =>
        s.connection.sendRequest(TracePacketRequest, { uri, src: options.podIP, dst: options.traceDst }),
      );
    };
    for (let i = 0; i < 3; i++) await round();
    for (const k of Object.keys(latencies)) delete latencies[k];
    await settle(1000);
    const rssAfterOpen = treeMemory(s.process.pid!)?.rss ?? NaN;
    const rssAfterEdits: number[] = [];
    const edits: EditSoakResult['edits'] = [];
    const lines = text.split('\n');
    for (let k = 0; k < options.edits; k++) {
      const line = Math.floor(((k + 1) * lines.length) / (options.edits + 2));
      const version = k + 2;
      const analysed = s.waitDiagnostics(uri, (p) => p.version === version);
      let done = false;
      const te = performance.now();
      analysed.then(
        () => (done = true),
        () => (done = true),
      );
      await s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [
          { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: `# edit ${k}\n` },
        ],
      });
      let meanwhile = 0;
      while (!done) {
        await round();
        meanwhile += 3;
      }
      await analysed;
      edits.push({ analysedMs: performance.now() - te, answeredMeanwhile: meanwhile });
      await settle(1000);
      rssAfterEdits.push(treeMemory(s.process.pid!)?.rss ?? NaN);
      const log = s.logs.filter((l) => l.startsWith('analysed ')).pop();
      if (log) console.log(`  server: ${log}`);
      // The analysis workers are threads of the server's process: one not released shows in the count.
      console.log(
        `  edit ${k + 1}: analysed in ${formatMs(edits[k].analysedMs)}, ${meanwhile} requests answered meanwhile; server RSS ${formatMb(rssAfterEdits[k])}, ${threadCount(s.process.pid!)} threads`,
      );
    }
    return { bytes: text.length, openMs, rssAfterOpen, rssAfterEdits, edits, latency: rows(latencies) };
  } finally {
    await s.close();
  }
}
