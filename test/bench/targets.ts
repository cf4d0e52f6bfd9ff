/**
 * The targets of issue #28, measured as a person meets them: whole processes (Node's start-up, reading the file
 * and writing the answer included) next to the peer, `iptables-restore --test` on the same file, in alternating
 * runs (ours, peer, ours, peer, ...) so that both sides see the same load of the machine. A first round warms the
 * page cache and is not counted; each figure is the median of its runs. Peak RSS comes from GNU time (`%M`) for
 * processes and from /proc for the language server and its workers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { which } from '../helpers/which';
import { openOnce, SERVER_START } from './lsp';
import type { PeerCommand } from './peer';
import { against, info, type Figure } from './report';
import { formatMb, formatMs, MB, median } from './stats';
import { buildWorkload, editorPositions, type Workload } from './workload';

export const TARGETS_28 = {
  /** `kpp trace BIG` / peer, whole processes. */
  traceRatio: 0.2,
  /** `kpp parse BIG --json` / peer. */
  parseRatio: 0.4,
  /** Language server: didOpen to first diagnostics / peer. */
  openRatio: 0.5,
  /** `kpp trace` and `kpp parse --json` on 500 Services x 5, whole process. */
  smallMs: 120,
  smallServices: 500,
  /** Language server's peak RSS (with its workers) on the big dump. */
  serverPeakRss: 200 * MB,
};

/** The sizes (Services, 5 endpoints each) at which ours may be slower than the peer by Node's start-up at most. */
export const SIZES = [500, 1000, 2500, 5000, 10_000, 20_000];
export const QUICK_SIZES = [500, 2000];

export interface Sample {
  wallMs: number;
  /** User + system time (10 ms ticks): on a loaded machine it varies less than the wall time. NaN when unknown. */
  cpuMs: number;
  /** Peak resident set in bytes; NaN when it could not be read. */
  peakRss: number;
}

interface Contender {
  name: string;
  run: () => Sample | Promise<Sample>;
}

type Series = Record<string, Sample[]>;

/** Runs the contenders in turn (a, b, c, a, b, c, ...), one uncounted warm-up round first. */
async function alternate(contenders: Contender[], runs: number): Promise<Series> {
  const series: Series = Object.fromEntries(contenders.map((c) => [c.name, []]));
  for (let round = 0; round <= runs; round++) {
    for (const c of contenders) {
      const s = await c.run();
      if (round > 0) series[c.name].push(s);
    }
  }
  return series;
}

const wallOf = (s: Sample[]) => median(s.map((x) => x.wallMs));
const rssOf = (s: Sample[]) => median(s.map((x) => x.peakRss));
const cpuOf = (s: Sample[]) => median(s.map((x) => x.cpuMs));

/** What GNU time writes of a process: peak RSS in KB, user and system seconds. */
const TIME_FORMAT = '%M %U %S';

/** GNU time, when it is there and writes TIME_FORMAT to a file. */
function gnuTime(scratch: string): string | undefined {
  const time = existsSync('/usr/bin/time') ? '/usr/bin/time' : which('time');
  if (!time) return undefined;
  const r = spawnSync(time, ['-f', TIME_FORMAT, '-o', scratch, 'true']);
  const ok = r.status === 0 && existsSync(scratch) && /^\d+ [\d.]+ [\d.]+\s*$/.test(readFileSync(scratch, 'utf8'));
  rmSync(scratch, { force: true });
  return ok ? time : undefined;
}

/**
 * A CA bundle Node reads at every start when this variable names one (this project's VMs set it; ~80% of `node -e 0`
 * there). A user's machine usually has none, so the Node processes are also timed without it; the product never
 * unsets it itself.
 */
export const EXTRA_CA_CERTS = 'NODE_EXTRA_CA_CERTS';

/** The environment without EXTRA_CA_CERTS, or undefined when it is not set (the figures would be the same). */
function envWithoutExtraCaCerts(): NodeJS.ProcessEnv | undefined {
  if (!process.env[EXTRA_CA_CERTS]) return undefined;
  const env = { ...process.env };
  delete env[EXTRA_CA_CERTS];
  return env;
}

/** Runs a command to its end (output discarded, as `> /dev/null`): its wall and CPU time and peak RSS. */
function processRunner(scratchDir: string): (argv: string[], env?: NodeJS.ProcessEnv) => Sample {
  const scratch = join(scratchDir, 'time.out');
  const time = gnuTime(scratch);
  return (argv, env) => {
    const full = time ? [time, '-f', TIME_FORMAT, '-o', scratch, ...argv] : argv;
    const t0 = performance.now();
    const r = spawnSync(full[0], full.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * MB, env });
    const wallMs = performance.now() - t0;
    if (r.status !== 0)
      throw new Error(`${argv.join(' ')} failed (${r.status ?? r.signal}): ${String(r.stderr).trim().slice(0, 300)}`);
    const [kb, user, system] = time
      ? readFileSync(scratch, 'utf8').trim().split('\n').pop()!.split(' ').map(Number)
      : [NaN, NaN, NaN];
    return { wallMs, cpuMs: (user + system) * 1000, peakRss: kb * 1024 };
  };
}

export interface SizeResult {
  services: number;
  lines: number;
  bytes: number;
  /** `node -e 0`, `kpp trace`, `kpp parse --json`, the peer (absent when it could not run). */
  node: Sample[];
  trace: Sample[];
  parse: Sample[];
  peer?: Sample[];
  /** The same Node processes with NODE_EXTRA_CA_CERTS unset (absent when it was not set): what a user waits for. */
  withoutExtraCaCerts?: { node: Sample[]; trace: Sample[]; parse: Sample[] };
}

export interface ServerResult {
  /** Opening the big dump in a fresh server, alternating with the peer on the same file. */
  open: Sample[];
  /** didOpen to the whole set of diagnostics in each of those sessions (the first set: `open`). */
  openToWholeMs: number[];
  peer?: Sample[];
  /** Peak RSS of a server with a one-line document: what growth is counted from. */
  emptyPeakRss: number;
  /** The dump `scale` times as large: its lines and the server's samples on it. */
  larger: { scale: number; lines: number; open: Sample[] };
  bigLines: number;
}

export interface TargetsResult {
  runs: number;
  bigServices: number;
  timeTool: boolean;
  /** The EXTRA_CA_CERTS file this run's Node processes read at start-up, when one was set. */
  extraCaCerts?: string;
  sizes: SizeResult[];
  server?: ServerResult;
}

export interface TargetsInput {
  root: string;
  workDir: string;
  /** The big dump the other phases use, already written to `bigPath`. */
  big: Workload;
  bigServices: number;
  bigPath: string;
  endpoints: number;
  sizes: number[];
  /** The `kpp` processes at each size and on the big dump; false measures the language server alone. */
  processes?: boolean;
  runs: number;
  peer?: PeerCommand;
  lsp: boolean;
  log: (line: string) => void;
}

/** The name suffix of the contenders run without EXTRA_CA_CERTS. */
const NO_CA = ' without extra CA certs';

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export async function runTargets(input: TargetsInput): Promise<TargetsResult> {
  const { root, workDir, runs, peer, log } = input;
  const runProcess = processRunner(workDir);
  const kpp = [process.execPath, join(root, 'bin', 'kpp.js')];
  const result: TargetsResult = {
    runs,
    bigServices: input.bigServices,
    timeTool: gnuTime(join(workDir, 'time.probe')) !== undefined,
    ...(process.env[EXTRA_CA_CERTS] ? { extraCaCerts: process.env[EXTRA_CA_CERTS] } : {}),
    sizes: [],
  };
  const noCa = envWithoutExtraCaCerts();
  if (!result.timeTool) log('GNU time (/usr/bin/time) is missing: peak RSS of processes is not measured');
  const dumps =
    input.processes === false ? [] : [...new Set([...input.sizes, input.bigServices])].sort((a, b) => a - b);
  for (const services of dumps) {
    const own = services === input.bigServices;
    const w = own ? input.big : buildWorkload(services, input.endpoints, 1);
    const path = own ? input.bigPath : join(workDir, `kube-proxy-${services}x${input.endpoints}.iptables`);
    if (!own) writeFileSync(path, w.text);
    const t = w.targets[0];
    const nodeRuns = (suffix: string, env?: NodeJS.ProcessEnv): Contender[] => [
      { name: `node${suffix}`, run: () => runProcess([process.execPath, '-e', '0'], env) },
      {
        name: `trace${suffix}`,
        run: () => runProcess([...kpp, 'trace', path, '--src', w.podIP, '--dst', `${t.clusterIP}:${t.port}`], env),
      },
      { name: `parse${suffix}`, run: () => runProcess([...kpp, 'parse', path, '--json'], env) },
    ];
    const contenders: Contender[] = [
      ...nodeRuns(''),
      ...(peer ? [{ name: 'peer', run: () => runProcess(peer.argv(path)) }] : []),
      ...(noCa ? nodeRuns(NO_CA, noCa) : []),
    ];
    const s = await alternate(contenders, runs);
    const r: SizeResult = {
      services,
      lines: lineCount(w.text),
      bytes: w.bytes,
      node: s.node,
      trace: s.trace,
      parse: s.parse,
      ...(peer ? { peer: s.peer } : {}),
      ...(noCa
        ? { withoutExtraCaCerts: { node: s[`node${NO_CA}`], trace: s[`trace${NO_CA}`], parse: s[`parse${NO_CA}`] } }
        : {}),
    };
    result.sizes.push(r);
    log(sizeLine(r));
    if (!own) rmSync(path, { force: true });
  }
  if (input.lsp) result.server = await serverTargets(input, runProcess);
  return result;
}

async function serverTargets(input: TargetsInput, runProcess: (argv: string[]) => Sample): Promise<ServerResult> {
  const { root, runs, peer, log } = input;
  const serverJs = join(root, 'dist', 'server.js');
  const timeoutMs = 10 * 60_000;
  /** didOpen to the whole set of diagnostics of each big-dump session (its first are the parse problems). */
  const whole: number[] = [];
  const session = (text: string, wholeMs?: number[]) => async (): Promise<Sample> => {
    const positions = editorPositions(text, 4);
    const r = await openOnce(serverJs, text, positions, timeoutMs);
    wholeMs?.push(r.openToWholeDiagnosticsMs);
    return { wallMs: r.openToDiagnosticsMs, cpuMs: r.openCpuMs, peakRss: r.peakRss };
  };
  const bigText = input.big.text;
  const s = await alternate(
    [
      { name: 'open', run: session(bigText, whole) },
      ...(peer ? [{ name: 'peer', run: () => runProcess(peer.argv(input.bigPath)) }] : []),
    ],
    runs,
  );
  const empty = await session('*nat\n:KUBE-SERVICES - [0:0]\nCOMMIT\n')();
  const scale = 4;
  const larger = buildWorkload(input.bigServices * scale, input.endpoints, 1);
  const largerOpen = await alternate([{ name: 'open', run: session(larger.text) }], runs);
  const r: ServerResult = {
    open: s.open,
    // The warm-up round's is not counted, as its sample is not.
    openToWholeMs: whole.slice(1),
    ...(peer ? { peer: s.peer } : {}),
    emptyPeakRss: empty.peakRss,
    larger: { scale, lines: lineCount(larger.text), open: largerOpen.open },
    bigLines: lineCount(bigText),
  };
  log(
    `server (${SERVER_START}): open -> first diagnostics ${formatMs(wallOf(r.open))} (CPU ${formatMs(cpuOf(r.open))})` +
      `${r.peer ? ` (peer ${formatMs(wallOf(r.peer))}, CPU ${formatMs(cpuOf(r.peer))})` : ''}, ` +
      `the whole set (lint's findings too) ${formatMs(median(r.openToWholeMs))}, ` +
      `peak RSS ${formatMb(rssOf(r.open))}; one-line document ${formatMb(r.emptyPeakRss)}; ` +
      `${scale}x dump (${r.larger.lines} lines): open ${formatMs(wallOf(r.larger.open))}, peak RSS ${formatMb(rssOf(r.larger.open))}`,
  );
  return r;
}

function sizeLine(r: SizeResult): string {
  const both = (x: Sample[]) => `${formatMs(wallOf(x))} (CPU ${formatMs(cpuOf(x))}) ${formatMb(rssOf(x))}`;
  return (
    `${r.services} Services (${r.lines} lines, ${(r.bytes / MB).toFixed(1)} MB; load average ${loadavg()[0].toFixed(1)}): ` +
    `node -e 0 ${formatMs(wallOf(r.node))} (CPU ${formatMs(cpuOf(r.node))}); ` +
    `trace ${both(r.trace)}; parse --json ${both(r.parse)}; peer ${r.peer ? both(r.peer) : 'skipped'}` +
    (r.withoutExtraCaCerts
      ? `; ${EXTRA_CA_CERTS} unset: node -e 0 ${formatMs(wallOf(r.withoutExtraCaCerts.node))} (CPU ${formatMs(cpuOf(r.withoutExtraCaCerts.node))}), ` +
        `trace ${both(r.withoutExtraCaCerts.trace)}, parse --json ${both(r.withoutExtraCaCerts.parse)}`
      : '')
  );
}

/** The figures of the closing table, each against its #28 target. */
export function targetFigures(r: TargetsResult | undefined): Figure[] {
  if (!r) return [];
  const T = TARGETS_28;
  const ratio = (ours: number, peer: number) => `${(ours / peer).toFixed(2)} (${formatMs(ours)} / ${formatMs(peer)})`;
  const cpuRatio = (ours: Sample[], peer: Sample[]) =>
    `CPU ${(cpuOf(ours) / cpuOf(peer)).toFixed(2)} (${formatMs(cpuOf(ours))} / ${formatMs(cpuOf(peer))})`;
  const figures: Figure[] = [info('whole processes (#28)', `median of ${r.runs} alternating runs each`)];
  const big = r.sizes.find((s) => s.services === r.bigServices);
  if (big) {
    const peer = big.peer && wallOf(big.peer);
    const trace = wallOf(big.trace);
    const parse = wallOf(big.parse);
    figures.push(
      against(
        `kpp trace ${r.bigServices}x5 / peer`,
        peer && trace / peer,
        T.traceRatio,
        () => `${ratio(trace, peer!)}; ${cpuRatio(big.trace, big.peer!)}`,
        `< ${T.traceRatio}`,
      ),
      against(
        `kpp parse ${r.bigServices}x5 --json / peer`,
        peer && parse / peer,
        T.parseRatio,
        () => `${ratio(parse, peer!)}; ${cpuRatio(big.parse, big.peer!)}`,
        `< ${T.parseRatio}`,
      ),
      against(
        `kpp trace ${r.bigServices}x5 peak RSS`,
        rssOf(big.trace),
        big.peer ? rssOf(big.peer) : NaN,
        (v) => `${formatMb(v)} (peer ${big.peer ? formatMb(rssOf(big.peer)) : '-'})`,
        '< peer',
      ),
    );
  }
  // Each Node figure as measured, then (labelled) with NODE_EXTRA_CA_CERTS unset, as on most users' machines.
  const runsOf = (s: SizeResult) => [
    { label: '', node: s.node, trace: s.trace, parse: s.parse },
    ...(s.withoutExtraCaCerts ? [{ label: `, ${EXTRA_CA_CERTS} unset`, ...s.withoutExtraCaCerts }] : []),
  ];
  const small = r.sizes.find((s) => s.services === T.smallServices);
  for (const run of small ? runsOf(small) : []) {
    for (const [what, samples] of [
      ['trace', run.trace],
      ['parse --json', run.parse],
    ] as const) {
      figures.push(
        against(
          `kpp ${what} ${T.smallServices}x5${run.label}`,
          wallOf(samples),
          T.smallMs,
          (v) =>
            `${formatMs(v)} (peer ${small!.peer ? formatMs(wallOf(small!.peer)) : '-'}; CPU ${formatMs(cpuOf(samples))}; node -e 0 ${formatMs(wallOf(run.node))})`,
          `< ${T.smallMs} ms`,
        ),
      );
    }
  }
  for (const s of r.sizes) {
    if (!s.peer) continue;
    const peer = wallOf(s.peer);
    for (const run of runsOf(s)) {
      const node = wallOf(run.node);
      for (const [what, samples] of [
        ['trace', run.trace],
        ['parse --json', run.parse],
      ] as const) {
        const over = wallOf(samples) - peer;
        figures.push(
          against(
            `${s.services}x5 ${what} - peer${run.label}`,
            over - node,
            0,
            () => `${over >= 0 ? '+' : ''}${formatMs(over)} (${formatMs(wallOf(samples))} / ${formatMs(peer)})`,
            `<= node -e 0 (${formatMs(node)})`,
          ),
        );
      }
    }
  }
  const sv = r.server;
  if (sv) {
    const open = wallOf(sv.open);
    const peer = sv.peer ? wallOf(sv.peer) : NaN;
    const bigRss = rssOf(sv.open);
    const largerRss = rssOf(sv.larger.open);
    const lineRatio = sv.larger.lines / sv.bigLines;
    const growth = (largerRss - sv.emptyPeakRss) / (bigRss - sv.emptyPeakRss);
    figures.push(
      // On a big dump the first publish is the parse problems (lint's findings follow): both are printed.
      against(
        'server open -> first diagnostics (parse problems) / peer',
        open / peer,
        T.openRatio,
        () => `${ratio(open, peer)}${sv.peer ? `; ${cpuRatio(sv.open, sv.peer)}` : ''}`,
        `< ${T.openRatio}`,
      ),
      info(
        'server open -> whole set (lint too) / peer',
        sv.openToWholeMs.length ? ratio(median(sv.openToWholeMs), peer) : '-',
      ),
      against('server peak RSS (big dump)', bigRss, T.serverPeakRss, formatMb, `< ${T.serverPeakRss / MB} MB`),
      // Growth is counted above a server holding a one-line document (two Node processes' own memory).
      against(
        `server peak RSS at ${sv.larger.scale}x (${sv.larger.lines} lines)`,
        growth,
        lineRatio + 1e-9,
        (v) => `${formatMb(largerRss)}: ${v.toFixed(2)}x the big dump's growth over ${formatMb(sv.emptyPeakRss)}`,
        `<= ${lineRatio.toFixed(2)}x (lines)`,
      ),
    );
  }
  return figures;
}
