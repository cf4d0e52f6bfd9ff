/**
 * The engine phase, run in a fresh Node process (`--expose-gc --trace-gc`) so earlier phases' garbage does not
 * weigh on it: the first parse+model is the cold run whose memory is recorded (VmHWM, heap before each GC),
 * further runs give the median time, and the last run's dump is traced.
 */
import { childProcesses } from '../helpers/processes';
import { readFileSync } from 'node:fs';
import { buildModel, type IptablesModel } from '../../src/core/iptables/model';
import { parseIptables } from '../../src/core/iptables/parser';
import { tracePacket, type TraceResult } from '../../src/core/iptables/trace';
import type { IptablesDump } from '../../src/core/iptables/dump';
import { cpuMsSince, median, percentile } from './stats';
import { runWideTraces, type WideTrace } from './wide';
import { NODE_IP, type TraceTarget } from './workload';

/** Printed between the cold run and the timed runs so the parent reads only the cold run's GC trace for peaks. */
export const COLD_RUN_DONE = '--- kpp-bench: cold run done ---';

export interface RunTimes {
  wallMs: number;
  cpuMs: number;
  parseMs: number;
  modelMs: number;
  /** Minor page faults: on a VM each first touch of fresh memory costs microseconds (see the report). */
  pageFaults: number;
}

export interface TraceFigures {
  firstMs: number;
  wallMs: number[];
  medianMs: number;
  p95Ms: number;
  packets: number;
  /** Traces whose every path ends in a DNAT to one of the Service's endpoints. */
  correct: number;
  pathsPerTrace: number;
}

export interface EngineResult {
  cold: RunTimes;
  /** Runs after the cold one; empty when the cold run alone used the time budget. */
  runs: RunTimes[];
  memory: {
    baselineRss: number;
    baselineHeap: number;
    /** VmHWM after the cold run: the peak resident set of parse+model (text loaded beforehand). */
    peakRss: number;
    heapAfter: number;
    /** Heap still used by dump + model after a full GC. */
    retainedHeap: number;
  };
  rulesParsed: number;
  diagnostics: number;
  services: number;
  trace: TraceFigures;
  affinityTrace?: { service: string; ms: number; paths: number; withDnat: number; verdicts: Record<string, number> };
  /** Traces to one Service with thousands of endpoints, each on its own dump (after the figures above). */
  wideTraces: WideTrace[];
}

export interface EngineInput {
  dumpPath: string;
  targets: TraceTarget[];
  affinityTarget?: TraceTarget;
  podIP: string;
  budgetMs: number;
  maxRuns: number;
}

/** VmRSS / VmHWM of a process from /proc, in bytes (undefined where /proc is missing). */
export function procMemory(pid: number | 'self'): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/**
 * Memory of a process and its descendants (the language server's analysis workers are threads of its process, so
 * one process there; the sum covers a server built with worker processes too): RSS summed now, and the sum of each
 * process's peak (an upper bound of the tree's peak).
 */
export function treeMemory(pid: number): { rss: number; hwm: number; processes: number } | undefined {
  const own = procMemory(pid);
  if (!own) return undefined;
  let rss = own.rss;
  let hwm = own.hwm;
  let processes = 1;
  for (const child of childProcesses(pid)) {
    const m = treeMemory(child);
    if (!m) continue;
    rss += m.rss;
    hwm += m.hwm;
    processes += m.processes;
  }
  return { rss, hwm, processes };
}

function timedParseModel(text: string): { times: RunTimes; dump: IptablesDump; model: IptablesModel } {
  const c = process.cpuUsage();
  const f0 = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  const dump = parseIptables(text);
  const t1 = performance.now();
  const model = buildModel(dump);
  const t2 = performance.now();
  const pageFaults = process.resourceUsage().minorPageFault - f0;
  return {
    times: { wallMs: t2 - t0, cpuMs: cpuMsSince(c), parseMs: t1 - t0, modelMs: t2 - t1, pageFaults },
    dump,
    model,
  };
}

function packetFor(input: EngineInput, t: TraceTarget) {
  return {
    src: input.podIP,
    dst: t.clusterIP,
    dport: t.port,
    proto: 'tcp' as const,
    hook: 'prerouting' as const,
    inIface: 'cali0',
    localAddresses: [NODE_IP],
  };
}

function traces(dump: IptablesDump, input: EngineInput): TraceFigures {
  const correct = (t: TraceTarget, r: TraceResult) =>
    r.paths.length > 0 && r.paths.every((p) => p.dnat && t.endpoints.includes(`${p.dnat.ip}:${p.dnat.port}`));
  const [first, ...rest] = input.targets;
  const f0 = performance.now();
  const firstResult = tracePacket(dump, packetFor(input, first), { lang: 'en' });
  const firstMs = performance.now() - f0;
  let ok = correct(first, firstResult) ? 1 : 0;
  let paths = firstResult.paths.length;
  const wallMs: number[] = [];
  for (const t of rest) {
    const s = performance.now();
    const r = tracePacket(dump, packetFor(input, t), { lang: 'en' });
    wallMs.push(performance.now() - s);
    if (correct(t, r)) ok++;
    paths += r.paths.length;
  }
  return {
    firstMs,
    wallMs,
    medianMs: median(wallMs),
    p95Ms: percentile(wallMs, 95),
    packets: input.targets.length,
    correct: ok,
    pathsPerTrace: paths / input.targets.length,
  };
}

export function runEngine(input: EngineInput): EngineResult {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the engine phase needs node --expose-gc');
  const text = readFileSync(input.dumpPath, 'utf8');
  gc();
  const base = process.memoryUsage();
  const started = performance.now();
  let run: ReturnType<typeof timedParseModel> | undefined = timedParseModel(text);
  const cold = run.times;
  const heapAfter = process.memoryUsage().heapUsed;
  gc();
  const retainedHeap = process.memoryUsage().heapUsed - base.heapUsed;
  const peakRss = procMemory('self')?.hwm ?? NaN;
  console.log(COLD_RUN_DONE);

  const runs: RunTimes[] = [];
  while (runs.length < input.maxRuns && performance.now() - started < input.budgetMs) {
    run = undefined; // let the previous dump go before building the next
    run = timedParseModel(text);
    runs.push(run.times);
  }
  const { dump, model } = run;
  const trace = traces(dump, input);
  let affinityTrace: EngineResult['affinityTrace'];
  if (input.affinityTarget) {
    const s = performance.now();
    const r = tracePacket(dump, packetFor(input, input.affinityTarget), { lang: 'en' });
    const verdicts: Record<string, number> = {};
    for (const p of r.paths) verdicts[p.verdict] = (verdicts[p.verdict] ?? 0) + 1;
    affinityTrace = {
      service: input.affinityTarget.service,
      ms: performance.now() - s,
      paths: r.paths.length,
      withDnat: r.paths.filter((p) => p.dnat).length,
      verdicts,
    };
  }
  return {
    cold,
    runs,
    memory: { baselineRss: base.rss, baselineHeap: base.heapUsed, peakRss, heapAfter, retainedHeap },
    rulesParsed: dump.rules.length,
    diagnostics: dump.diagnostics.length,
    services: model.kube.services.length,
    trace,
    ...(affinityTrace ? { affinityTrace } : {}),
    wideTraces: runWideTraces(),
  };
}
