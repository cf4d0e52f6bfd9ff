/**
 * Whether a check went as it should, from what it printed: a route check's `ip route get` output is read with the
 * netstate engine, which is why this is apart from plan.ts (the extension plans checks without carrying the engine).
 */
import { parseIpRouteGet } from '../netstate';
import { connectOutcome, curlConnectLines, resolvedAddresses, toolOf, type RawResult } from './plan';
import type { CheckResult, CheckSpec } from './types';

/**
 * The result with `ok` set: connected (connect checks), resolved (dns), a route found (route checks), the command
 * succeeded (the rest). `kind` and `target` are copied from the spec.
 */
export function classifyCheck(spec: CheckSpec, raw: RawResult): CheckResult {
  let ok: boolean;
  switch (spec.kind) {
    case 'tools':
      ok = raw.exitCode === 0 && raw.stdout.trim() !== '';
      break;
    case 'connect-clusterip':
    case 'connect-endpoint':
      ok = connectOutcome({ ...raw, argv: raw.argv.length ? raw.argv : spec.argv }) === 'connected';
      break;
    case 'dns':
    case 'dns-short':
      // busybox nslookup may exit 1 after printing the A answer (the AAAA query found nothing): addresses decide.
      ok = resolvedAddresses({ ...raw, argv: raw.argv.length ? raw.argv : spec.argv }).length > 0;
      break;
    case 'route-clusterip':
    case 'route-endpoint': {
      const got = raw.exitCode === 0 ? parseIpRouteGet(raw.stdout).routeGets[0] : undefined;
      ok = !!got && !got.error && (got.type === 'unicast' || got.type === 'local');
      break;
    }
    default:
      ok = raw.exitCode === 0;
  }
  const result: CheckResult = {
    id: raw.id,
    argv: raw.argv,
    exitCode: raw.exitCode,
    durationMs: raw.durationMs,
    ok,
    stdout: raw.stdout,
    // What curl printed, not what the API said when it refused the exec (exit code null).
    stderr:
      raw.exitCode !== null && toolOf(raw.argv.length ? raw.argv : spec.argv) === 'curl'
        ? curlConnectLines(raw.stderr)
        : raw.stderr,
    kind: raw.kind ?? spec.kind,
  };
  if (raw.error !== undefined) result.error = raw.error;
  const target = raw.target ?? spec.target;
  if (target !== undefined) result.target = target;
  return result;
}
