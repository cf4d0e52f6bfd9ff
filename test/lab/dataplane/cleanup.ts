/**
 * Teardown that cannot be skipped: removing a lab's namespaces, the processes still inside them, and their
 * `/etc/netns/<name>` folders; finding stale labs (namespaces whose owner process is gone); and the exit/signal
 * hooks that tear down every live lab of this process on exit, Ctrl-C or SIGTERM. Synchronous on purpose, so it
 * also runs from an `exit` handler.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LAB_PREFIX, ownerPid } from './plan';
import { deleteNetnsSync, listNetns } from './sys';

/** `ip netns exec` bind-mounts files from here (our pods' resolv.conf). */
export const NETNS_ETC = '/etc/netns';
/** Where `ip netns` mounts named namespaces. */
const NETNS_RUN = '/run/netns';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid owning a lab namespace (`kpp-p<pid>r...`); undefined for any other name. */
export function namespaceOwner(netns: string): number | undefined {
  // Only the lab's own `kpp-p<pid>r...` names: other tools' kpp- namespaces are theirs to remove.
  if (!netns.startsWith(LAB_PREFIX)) return undefined;
  return ownerPid(netns);
}

/** `kpp-` namespaces whose owner process no longer runs. Ones that show no owner are never taken for stale. */
export function staleLabNamespaces(): string[] {
  return listNetns().filter((ns) => {
    const pid = namespaceOwner(ns);
    return pid !== undefined && !isAlive(pid);
  });
}

/** `kpp-` namespaces whose name shows no owner: left alone, reported so a person can decide. */
export function unownedLabNamespaces(): string[] {
  return listNetns().filter((ns) => ns.startsWith(LAB_PREFIX) && namespaceOwner(ns) === undefined);
}

/** PIDs of processes inside the given lab namespaces, found by comparing namespace inodes (no extra process). */
function pidsIn(namespaces: string[]): number[] {
  const inodes = new Set<string>();
  for (const ns of namespaces) {
    if (!ns.startsWith(LAB_PREFIX)) continue;
    try {
      inodes.add(`net:[${fs.statSync(path.join(NETNS_RUN, ns)).ino}]`);
    } catch {
      // not mounted
    }
  }
  if (inodes.size === 0) return [];
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    try {
      if (inodes.has(fs.readlinkSync(`/proc/${pid}/ns/net`))) pids.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

function removeEtcFolder(netns: string): void {
  if (!netns.startsWith(LAB_PREFIX) || netns.includes('/')) return;
  fs.rmSync(path.join(NETNS_ETC, netns), { recursive: true, force: true });
}

/** Stops what still runs inside the namespaces (left by a lab whose owner died), deletes them and their folders. */
export function removeLabNamespaces(names: string[]): void {
  const ours = names.filter((n) => n.startsWith(LAB_PREFIX));
  for (const pid of pidsIn(ours)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  deleteNetnsSync(ours);
  for (const ns of ours) removeEtcFolder(ns);
}

/** `/etc/netns/kpp-*` folders whose namespace is gone. */
export function removeOrphanEtcFolders(): string[] {
  if (!fs.existsSync(NETNS_ETC)) return [];
  const existing = new Set(listNetns());
  const stale = new Set(staleLabNamespaces());
  const orphans = fs
    .readdirSync(NETNS_ETC)
    .filter((n) => n.startsWith(LAB_PREFIX) && (!existing.has(n) || stale.has(n)));
  for (const n of orphans) removeEtcFolder(n);
  return orphans;
}

/** The prefix of a lab's own work folder under the OS temp folder (`mkdtemp` adds a random suffix). */
export function workDirPrefix(runId: string): string {
  return path.join(os.tmpdir(), `kpp-lab-${runId}-`);
}

/** Work folders of labs whose owner is gone (certificates, configs, PATH folders). */
function removeStaleWorkDirs(): void {
  const tmp = os.tmpdir();
  for (const entry of fs.readdirSync(tmp)) {
    const m = /^kpp-lab-p(\d+)r[0-9a-f]+-/.exec(entry);
    if (m && !isAlive(Number(m[1]))) fs.rmSync(path.join(tmp, entry), { recursive: true, force: true });
  }
}

/** Removes every stale lab (earlier runs whose owner is gone); returns the namespaces removed. */
export function removeStaleLabs(): string[] {
  const stale = staleLabNamespaces();
  removeLabNamespaces(stale);
  removeOrphanEtcFolders();
  removeStaleWorkDirs();
  try {
    fs.rmdirSync(NETNS_ETC); // only when empty: other tools may keep folders there
  } catch {
    // not empty, or absent
  }
  return stale;
}

// ---------------------------------------------------------------------------------------------------------------

export interface EmergencyTeardown {
  /** PIDs to kill (servers, exec'd commands). */
  pids(): number[];
  namespaces: string[];
  workDir?: string;
}

const live = new Set<EmergencyTeardown>();
let hooked = false;

function teardownAllSync(): void {
  for (const lab of live) {
    for (const pid of lab.pids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    removeLabNamespaces(lab.namespaces);
    if (lab.workDir) fs.rmSync(lab.workDir, { recursive: true, force: true });
  }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  teardownAllSync();
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

/** Makes sure a lab is torn down when the process exits or is interrupted; returns the unregister function. */
export function registerTeardown(t: EmergencyTeardown): () => void {
  live.add(t);
  if (!hooked) {
    hooked = true;
    process.on('exit', teardownAllSync);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
  }
  return () => {
    live.delete(t);
  };
}
