/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and lists the functions with the most self and inclusive
 * time, mapped back to TypeScript sources through the bundle's source map, so `npm run bench -- --profile`
 * names hot spots as `function file.ts:line`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  label: string;
  ms: number;
  share: number;
}

export function summariseProfile(
  profilePath: string,
  bundles: Record<string, string>,
  top = 15,
): { self: HotSpot[]; inclusive: HotSpot[]; totalMs: number } {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile;
  const maps = new Map<string, SourceMap>();
  for (const [suffix, mapPath] of Object.entries(bundles)) {
    if (existsSync(mapPath))
      maps.set(suffix, new SourceMap(JSON.parse(readFileSync(mapPath, 'utf8')) as SourceMapPayload));
  }
  const labels = new Map<number, string>();
  const label = (n: ProfileNode): string => {
    let l = labels.get(n.id);
    if (l) return l;
    const cf = n.callFrame;
    const name = cf.functionName || '(anonymous)';
    l = `${name} ${cf.url.split('/').slice(-2).join('/')}`;
    for (const [suffix, map] of maps) {
      if (!cf.url.endsWith(suffix)) continue;
      const e = map.findEntry(cf.lineNumber, cf.columnNumber) as { originalSource?: string; originalLine?: number };
      if (e.originalSource)
        l = `${name} ${e.originalSource.replace(/^.*?\/(src|test|node_modules)\//, '$1/')}:${(e.originalLine ?? 0) + 1}`;
    }
    labels.set(n.id, l);
    return l;
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const perNode = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const d = profile.timeDeltas[i] ?? 0;
    perNode.set(id, (perNode.get(id) ?? 0) + d);
    total += d;
  });
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, t] of perNode) {
    const k = label(byId.get(id)!);
    self.set(k, (self.get(k) ?? 0) + t);
    const seen = new Set<string>();
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const kk = label(byId.get(x)!);
      if (seen.has(kk)) continue;
      seen.add(kk);
      inclusive.set(kk, (inclusive.get(kk) ?? 0) + t);
    }
  }
  // Inclusive time is shown for the project's and its libraries' functions only: the bootstrap frames above
  // them (module loading, the bench's own driver) would otherwise fill the list.
  const rank = (m: Map<string, number>, keep: (label: string) => boolean) =>
    [...m]
      .filter(([k]) => keep(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, t]) => ({ label: k, ms: t / 1000, share: total ? t / total : 0 }));
  const notIdle = (k: string) => !/^\((?:root|program|idle)\)/.test(k);
  const ours = (k: string) => / (?:src|node_modules)\//.test(k) || k.startsWith('(garbage collector)');
  return { self: rank(self, notIdle), inclusive: rank(inclusive, ours), totalMs: total / 1000 };
}

export function formatHotSpots(title: string, s: ReturnType<typeof summariseProfile>): string {
  const row = (h: HotSpot) =>
    `  ${h.ms.toFixed(0).padStart(7)} ms ${(100 * h.share).toFixed(1).padStart(5)}%  ${h.label}`;
  return [
    `${title} (${s.totalMs.toFixed(0)} ms sampled)`,
    ' self:',
    ...s.self.map(row),
    ' inclusive:',
    ...s.inclusive.map(row),
  ].join('\n');
}
