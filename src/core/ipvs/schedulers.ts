/**
 * What each IPVS scheduler does with new connections (facts from the Linux ip_vs_*.c schedulers). Every
 * scheduler skips real servers with weight 0, which is how draining works.
 */
import { ownEntry } from '../common/own';
export type SchedulerPolicy =
  | 'equal' // rr: turns, weights only matter as 0 / non-0
  | 'weighted' // wrr: turns in proportion to weight
  | 'connections' // lc, wlc, sed, nq: the least loaded server by connection counts
  | 'locality' // lblc, lblcr: per destination IP, least-connection when overloaded
  | 'hash-source' // sh, mh: hash of the client address (and port with -port flags)
  | 'hash-destination' // dh: hash of the destination address
  | 'failover' // fo: the highest-weight available server takes everything
  | 'overflow' // ovf: the highest-weight server until its active connections exceed its weight
  | 'random'; // twos: weighted random choice of two, the less loaded wins

interface SchedulerFacts {
  policy: SchedulerPolicy;
  /** Flags this scheduler understands (`ipvsadm -b`). */
  flags: readonly string[];
}

const SCHEDULERS: Record<string, SchedulerFacts> = {
  rr: { policy: 'equal', flags: [] },
  wrr: { policy: 'weighted', flags: [] },
  lc: { policy: 'connections', flags: [] },
  wlc: { policy: 'connections', flags: [] },
  sed: { policy: 'connections', flags: [] },
  nq: { policy: 'connections', flags: [] },
  lblc: { policy: 'locality', flags: [] },
  lblcr: { policy: 'locality', flags: [] },
  dh: { policy: 'hash-destination', flags: [] },
  sh: { policy: 'hash-source', flags: ['sh-fallback', 'sh-port'] },
  mh: { policy: 'hash-source', flags: ['mh-fallback', 'mh-port'] },
  fo: { policy: 'failover', flags: [] },
  ovf: { policy: 'overflow', flags: [] },
  twos: { policy: 'random', flags: [] },
};

export const KNOWN_SCHEDULERS: readonly string[] = Object.keys(SCHEDULERS);

/** Flags that may follow any scheduler in a listing: generic scheduler bits and one-packet scheduling. */
const GENERIC_FLAGS = ['flag-1', 'flag-2', 'flag-3', 'ops'];

export function isKnownScheduler(name: string): boolean {
  return ownEntry(SCHEDULERS, name) !== undefined;
}

export function schedulerPolicy(name: string | undefined): SchedulerPolicy | undefined {
  return name === undefined ? undefined : ownEntry(SCHEDULERS, name)?.policy;
}

export function isKnownFlag(flag: string): boolean {
  return GENERIC_FLAGS.includes(flag) || Object.values(SCHEDULERS).some((s) => s.flags.includes(flag));
}

/** True when `flag` is scheduler-specific and belongs to a scheduler other than `scheduler`. */
export function flagBelongsElsewhere(flag: string, scheduler: string | undefined): boolean {
  if (GENERIC_FLAGS.includes(flag) || scheduler === undefined) return false;
  const owner = Object.entries(SCHEDULERS).find(([, f]) => f.flags.includes(flag));
  return owner !== undefined && owner[0] !== scheduler;
}

/** ipvsadm's default scheduler when `-A` has no `-s`. */
export const DEFAULT_SCHEDULER = 'wlc';
/** ipvsadm's default persistence timeout for a bare `-p` (IPVS_SVC_PERSISTENT_TIMEOUT, 6 minutes). */
export const DEFAULT_PERSISTENT_TIMEOUT = 360;
/** kube-proxy's default ClientIP session affinity timeout (3 hours), printed as `persistent 10800`. */
export const KUBE_PROXY_AFFINITY_TIMEOUT = 10800;
/** Default NodePort range of kube-apiserver's --service-node-port-range. */
export const NODE_PORT_RANGE = { min: 30000, max: 32767 } as const;
