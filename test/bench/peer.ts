/**
 * The peer: `iptables-restore --test` reading the same file inside a private network namespace, so the host's
 * tables are never touched. `unshare --net` gives a namespace that disappears with the process; without
 * unshare, a named namespace (`ip netns add kpp-bench-<pid>`) is created and always deleted afterwards.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { median } from './stats';
import { which } from '../helpers/which';

export interface PeerResult {
  ran: boolean;
  skippedBecause?: string;
  command?: string;
  version?: string;
  wallMs?: number[];
  cpuMs?: number[];
  warmupWallMs?: number;
  /** True when the first (cold) run used the whole budget and is the only measurement. */
  coldOnly?: boolean;
  medianWallMs?: number;
  medianCpuMs?: number;
  /** Minor page faults of the median run (the children's count from /proc/self/stat). */
  medianPageFaults?: number;
}

/** Field `n` (1-based, as proc(5) numbers them) of /proc/self/stat, for this process's waited-for children. */
function childrenStat(n: number): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the parenthesised command name (field 2) start at field 3.
    const value = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[n - 3]);
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system, ms) of this process's terminated and waited-for children: cutime + cstime. */
function childrenCpuMs(): number | undefined {
  const user = childrenStat(16);
  const system = childrenStat(17);
  return user === undefined || system === undefined ? undefined : ((user + system) * 1000) / 100; // USER_HZ is 100
}

/** Minor page faults of this process's waited-for children: cminflt. */
function childrenPageFaults(): number | undefined {
  return childrenStat(11);
}

interface Runner {
  describe: string;
  /** What goes before the command to run it in the namespace. */
  prefix: string[];
  cleanup(): void;
}

/** `KPP_BENCH_NETNS=ip` forces the named-namespace path (machines whose unshare is missing or restricted). */
function namespaceRunner(): Runner | string {
  const unshare = process.env.KPP_BENCH_NETNS === 'ip' ? undefined : which('unshare');
  if (unshare) {
    const probe = spawnSync(unshare, ['--net', '--', 'true'], { encoding: 'utf8' });
    if (probe.status === 0)
      return { describe: 'unshare --net', prefix: [unshare, '--net', '--'], cleanup: () => undefined };
  }
  const ip = which('ip');
  if (!ip) return 'neither a working `unshare --net` nor `ip netns` is available';
  const ns = `kpp-bench-${process.pid}`;
  const add = spawnSync(ip, ['netns', 'add', ns], { encoding: 'utf8' });
  if (add.status !== 0) return `could not create network namespace ${ns}: ${add.stderr.trim()}`;
  return {
    describe: `ip netns exec ${ns}`,
    prefix: [ip, 'netns', 'exec', ns],
    cleanup: () => {
      spawnSync(ip, ['netns', 'delete', ns], { encoding: 'utf8' });
    },
  };
}

/** The peer's command line for a dump (`unshare --net -- iptables-restore --test FILE`), or why it cannot run. */
export interface PeerCommand {
  describe: string;
  version?: string;
  argv(dumpPath: string): string[];
  cleanup(): void;
}

export function peerCommand(): PeerCommand | { skippedBecause: string; version?: string } {
  if (process.platform !== 'linux') return { skippedBecause: 'not Linux' };
  if (!process.getuid || process.getuid() !== 0)
    return { skippedBecause: 'not root (network namespaces and iptables-restore need root)' };
  const restore = which('iptables-restore');
  if (!restore) return { skippedBecause: 'iptables-restore is not installed (apt-get install iptables)' };
  const version = spawnSync(restore, ['--version'], { encoding: 'utf8' }).stdout?.trim();
  const runner = namespaceRunner();
  if (typeof runner === 'string') return { skippedBecause: runner, version };
  return {
    describe: `${runner.describe} ${restore} --test`,
    version,
    argv: (dumpPath) => [...runner.prefix, restore, '--test', dumpPath],
    cleanup: () => runner.cleanup(),
  };
}

export function runPeer(dumpPath: string, opts: { maxRuns: number; budgetMs: number }): PeerResult {
  const peer = peerCommand();
  if (!('argv' in peer)) return { ran: false, ...peer };
  const { version } = peer;
  const args = peer.argv(dumpPath);
  const wallMs: number[] = [];
  const cpuMs: number[] = [];
  const pageFaults: number[] = [];
  let warmup: { wall: number; cpu?: number; faults?: number } | undefined;
  try {
    // Timed like the engine: a first (cold) run, then further runs while the budget lasts; a cold run that used
    // the whole budget is the only measurement.
    const started = performance.now();
    while (wallMs.length < opts.maxRuns && (warmup === undefined || performance.now() - started < opts.budgetMs)) {
      const c0 = childrenCpuMs();
      const f0 = childrenPageFaults();
      const t0 = performance.now();
      const r = spawnSync(args[0], args.slice(1), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const wall = performance.now() - t0;
      const c1 = childrenCpuMs();
      const f1 = childrenPageFaults();
      if (r.status !== 0) {
        return {
          ran: false,
          skippedBecause: `iptables-restore --test failed (exit ${r.status}): ${(r.stderr ?? String(r.error)).trim().slice(0, 300)}`,
          version,
        };
      }
      const cpu = c0 !== undefined && c1 !== undefined ? c1 - c0 : undefined;
      const faults = f0 !== undefined && f1 !== undefined ? f1 - f0 : undefined;
      if (warmup === undefined) warmup = { wall, cpu, faults };
      else {
        wallMs.push(wall);
        if (cpu !== undefined) cpuMs.push(cpu);
        if (faults !== undefined) pageFaults.push(faults);
      }
    }
  } finally {
    peer.cleanup();
  }
  const measured = wallMs.length > 0;
  if (!measured && warmup) {
    wallMs.push(warmup.wall);
    if (warmup.cpu !== undefined) cpuMs.push(warmup.cpu);
    if (warmup.faults !== undefined) pageFaults.push(warmup.faults);
  }
  return {
    ran: true,
    command: args.join(' '),
    version,
    wallMs,
    cpuMs,
    coldOnly: !measured,
    warmupWallMs: warmup?.wall,
    medianWallMs: median(wallMs),
    medianCpuMs: cpuMs.length ? median(cpuMs) : undefined,
    medianPageFaults: pageFaults.length ? median(pageFaults) : undefined,
  };
}
