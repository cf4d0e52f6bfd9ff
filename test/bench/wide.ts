/**
 * Traces to one Service with thousands of endpoints (issue #29): a kube-proxy ladder of n statistic rules gives n
 * paths, and the trace must stay linear in n (time, JSON answer, readable tree). Each size gets its own generated
 * dump; the first trace of a dump builds the trace index, the figure is the median of the warm ones.
 */
import { traceJson } from '../../src/cli/commands/trace';
import { generateIptablesRestore } from '../../src/core/iptables/generate';
import { buildModel } from '../../src/core/iptables/model';
import { parseIptables } from '../../src/core/iptables/parser';
import { formatTraceTree, tracePacket } from '../../src/core/iptables/trace';
import { normaliseCluster } from '../../src/core/kube/objects';
import { syntheticCluster } from '../../src/core/kube/synthetic';
import { median } from './stats';

export const WIDE_SIZES = [200, 1000, 5000];
/** A trace of the largest size should take less than this (a target, not a test). */
export const WIDE_TARGET_MS = 1000;

export interface WideTrace {
  endpoints: number;
  /** First trace of the dump (builds the trace index), then the median of the warm ones. */
  firstMs: number;
  medianMs: number;
  paths: number;
  /** Paths that DNAT to an endpoint of the Service; the rest end otherwise (UNKNOWN when a limit cut them). */
  withDnat: number;
  truncated?: string;
  /** `kpp trace --json` and the readable tree, in bytes, and the time to build each. */
  jsonBytes: number;
  jsonMs: number;
  textBytes: number;
  textMs: number;
}

/** Sizes of the answers, with a decimal (they are a few MB). */
export function formatSize(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function runWideTraces(sizes: readonly number[] = WIDE_SIZES, warmRuns = 3): WideTrace[] {
  return sizes.map((n) => {
    const snapshot = normaliseCluster(syntheticCluster({ services: 1, endpointsPerService: n }));
    const dump = parseIptables(
      generateIptablesRestore(snapshot, { clusterCidr: '10.128.0.0/9', largeClusterMode: false }).text,
    );
    const s = buildModel(dump).kube.services[0];
    const packet = {
      src: '10.250.0.5',
      dst: s.clusterIP!,
      dport: s.port!,
      proto: 'tcp' as const,
      hook: 'prerouting' as const,
      localAddresses: ['192.168.0.2'],
    };
    let t = performance.now();
    let r = tracePacket(dump, packet, { lang: 'en' });
    const firstMs = performance.now() - t;
    const warm: number[] = [];
    for (let i = 0; i < warmRuns; i++) {
      t = performance.now();
      r = tracePacket(dump, packet, { lang: 'en' });
      warm.push(performance.now() - t);
    }
    t = performance.now();
    const json = JSON.stringify(traceJson(r));
    const jsonMs = performance.now() - t;
    t = performance.now();
    const text = formatTraceTree(r, 'en');
    const textMs = performance.now() - t;
    return {
      endpoints: n,
      firstMs,
      medianMs: median(warm),
      paths: r.paths.length,
      withDnat: r.paths.filter((p) => p.dnat).length,
      ...(r.truncated ? { truncated: r.truncated.message } : {}),
      jsonBytes: Buffer.byteLength(json),
      jsonMs,
      textBytes: Buffer.byteLength(text),
      textMs,
    };
  });
}
