/**
 * Expected share of new connections per real server, by what the scheduler means. Weight 0 always means
 * draining (every IPVS scheduler skips it). Only rr/wrr/fo give fixed shares; hash schedulers give a share of
 * clients (each client sticks to one server); connection-based ones depend on live load and give none.
 */
import { schedulerPolicy, type SchedulerPolicy } from './schedulers';
import type { RealServer, VirtualService } from './types';

export interface ShareEntry {
  realServer: RealServer;
  /** Fraction 0..1 of new connections (or of clients for hash schedulers); undefined when load decides. */
  share?: number;
  /** True for hash schedulers (share of clients, not of connections) and when weights were not printed. */
  approximate: boolean;
  draining: boolean;
  /**
   * `--thresholds`: `yes` when active + inactive connections reach Uthreshold (the kernel flags the server
   * overloaded and every scheduler skips it), `maybe` between the lower mark and Uthreshold, where the flag
   * depends on whether it was set before (it clears only below Lthreshold, or 3/4 of Uthreshold without one).
   */
  overloaded?: 'yes' | 'maybe';
}

/** The overload state `--thresholds` output shows for a real server (see ShareEntry.overloaded). */
export function overloadOf(r: RealServer): 'yes' | 'maybe' | undefined {
  const upper = r.thresholds?.upper ?? 0;
  if (upper <= 0 || r.activeConn === undefined || r.inactConn === undefined) return undefined;
  const total = r.activeConn + r.inactConn;
  if (total >= upper) return 'yes';
  const lower = r.thresholds?.lower ?? 0;
  const clearsBelow = lower > 0 ? lower : (upper * 3) / 4;
  return total >= clearsBelow ? 'maybe' : undefined;
}

export interface Distribution {
  policy: SchedulerPolicy | 'unknown';
  entries: ShareEntry[];
  /** Real servers that can take new connections (weight not 0). */
  active: number;
  draining: number;
}

function byWeight(
  active: RealServer[],
  approximate: boolean,
): Map<RealServer, { share: number; approximate: boolean }> {
  const out = new Map<RealServer, { share: number; approximate: boolean }>();
  const known = active.every((r) => r.weight !== undefined);
  const total = active.reduce((sum, r) => sum + (r.weight ?? 0), 0);
  for (const r of active) {
    if (known && total > 0) out.set(r, { share: (r.weight ?? 0) / total, approximate });
    else out.set(r, { share: 1 / active.length, approximate: true });
  }
  return out;
}

export function distribute(service: VirtualService): Distribution {
  const policy = schedulerPolicy(service.scheduler) ?? 'unknown';
  const active = service.realServers.filter((r) => r.weight !== 0 && overloadOf(r) !== 'yes');
  let shares = new Map<RealServer, { share: number; approximate: boolean }>();
  if (active.length > 0) {
    switch (policy) {
      case 'equal':
        for (const r of active) shares.set(r, { share: 1 / active.length, approximate: false });
        break;
      case 'weighted':
        shares = byWeight(active, false);
        break;
      case 'hash-source':
      case 'hash-destination':
        // Hash buckets are handed out in proportion to weight, so over many clients shares follow weights.
        shares = byWeight(active, true);
        break;
      case 'failover': {
        const best = active.reduce((a, b) => ((b.weight ?? 0) > (a.weight ?? 0) ? b : a));
        for (const r of active) shares.set(r, { share: r === best ? 1 : 0, approximate: best.weight === undefined });
        break;
      }
      default:
        break;
    }
  }
  const entries = service.realServers.map((r): ShareEntry => {
    if (r.weight === 0) return { realServer: r, share: 0, approximate: false, draining: true };
    const overloaded = overloadOf(r);
    if (overloaded === 'yes') return { realServer: r, share: 0, approximate: false, draining: false, overloaded };
    const s = shares.get(r);
    // In the hysteresis band the server may be skipped too: its share is a guess.
    const entry: ShareEntry = s
      ? { realServer: r, share: s.share, approximate: s.approximate || overloaded === 'maybe', draining: false }
      : { realServer: r, approximate: false, draining: false };
    if (overloaded) entry.overloaded = overloaded;
    return entry;
  });
  const draining = service.realServers.filter((r) => r.weight === 0).length;
  return { policy, entries, active: active.length, draining };
}
