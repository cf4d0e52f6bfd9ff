/**
 * Confidence (0..1) that a text is ipvsadm output, for the engine's format detector. It parses a sample and
 * weighs recognised IPVS lines against unrecognised ones; headers, connection tables and rule lines that name a
 * service make the verdict firm.
 */
import { parseIpvs } from './parse';
import type { IpvsLineKind } from './types';

const SAMPLE_LINES = 400;
const IPVS_KINDS = new Set<IpvsLineKind>([
  'service',
  'realServer',
  'orphanRealServer',
  'connection',
  'header',
  'columnHeader',
  'timeout',
  'daemon',
  'saveService',
  'saveRealServer',
  'saveOther',
  'error',
]);
const STRONG_KINDS = new Set<IpvsLineKind>([
  'header',
  'columnHeader',
  'connection',
  'timeout',
  'saveService',
  'saveRealServer',
  'error',
]);

export function looksLikeIpvs(text: string): number {
  const sample = text.split('\n', SAMPLE_LINES).join('\n');
  const dump = parseIpvs(sample);
  let ipvs = 0;
  let unknown = 0;
  let strong = false;
  for (const line of dump.lines) {
    if (IPVS_KINDS.has(line.kind)) ipvs++;
    else if (line.kind === 'unknown') unknown++;
    if (STRONG_KINDS.has(line.kind)) strong = true;
  }
  // A service followed by a real server with a forwarding method is as telling as a header.
  if (dump.services.some((s) => s.realServers.some((r) => r.forward !== undefined))) strong = true;
  if (ipvs === 0) return 0;
  const ratio = ipvs / (ipvs + unknown);
  return Math.round(Math.min(1, ratio * (strong ? 1 : 0.8)) * 100) / 100;
}
