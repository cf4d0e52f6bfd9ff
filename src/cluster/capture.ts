/**
 * Reading a node: its kube-proxy pod (hostNetwork, so exec runs in the node's network namespace) when there is a
 * usable one, else (after confirmation) a privileged hostNetwork debug pod pinned to the node. The commands are
 * `nodeCaptureChecks` / `nodeRulesCheck` of core/diagnose: `iptables-save -c`, `ipvsadm -Ln --stats` or
 * `nft list ruleset`, `ip -o addr`, `ip route`.
 */
import { nodeCaptureChecks, nodeRulesCheck, type IpFamily, type ProxyMode } from '../core/diagnose/node';
import type { CheckResult, CheckSpec } from '../core/diagnose/types';
import { createNodeDebugPod, type DebugHandle, type DebugOptions } from './debug';
import { dumpEngine } from './dumpEngine';
import { t, type Lang } from '../core/i18n/catalog';
import { ClusterError, errorText, hintText, isClusterError, textIn, type CatalogText } from './errors';
import { DEFAULT_MAX_OUTPUT_BYTES, type ExecResult } from './exec';
import type { CallOptions } from './http';
import type { ClusterSession, KubeObject } from './session';
import { checkNodeName, checkPodName } from './validate';

export interface NodeAccessOptions extends DebugOptions {
  /** Called with one line per step, in `lang` (default English). */
  onProgress?: (message: string) => void;
  lang?: Lang;
}

/** A way to run argv in a node's network namespace. */
export interface NodeAccess {
  node: string;
  /** `exec kube-system/kube-proxy-abcde` or `debug pod default/kpp-node-debug-...`. */
  via: string;
  namespace: string;
  pod: string;
  container?: string;
  run(spec: CheckSpec, opts?: CallOptions): Promise<CheckResult>;
  /** Deletes a debug pod when one was made; nothing for a kube-proxy pod. */
  dispose(): Promise<void>;
}

/** Output kept of a node's rules dump: as much as kpp reads from a file (a ~45,000-Service iptables-save passes 64 MiB). */
export const NODE_OUTPUT_BYTES = 128 * 1024 * 1024;

/**
 * Output kept of a command in the client pod (connects, DNS, routes, links): ample for what they print (a host-network
 * pod's `ip -d link` with thousands of veths is a few MiB), and eleven checks that flood hold ~180 MB, not ~1.4 GB.
 */
export const POD_CHECK_OUTPUT_BYTES = 8 * 1024 * 1024;

const CUT_OUTPUT = 'a cut output is not read';

/** The error of a check whose output passed `cap` bytes: a cut output reads as whole (a route or rule missing). */
export function cutOutputError(cap: number): string {
  return `printed more than ${cap / 1024 / 1024} MiB; ${CUT_OUTPUT}`;
}

/** Whether a node command failed because it printed more than its limit (see nodeCheckResult). */
export function wasCut(r: CheckResult): boolean {
  return r.exitCode === null && !!r.error?.endsWith(CUT_OUTPUT);
}

/**
 * One node command's exec result as a CheckResult (`ok` = exit 0). Output cut at the limit is not kept: a dump cut
 * in the middle would read as whole, its missing rules as absent (`kpp capture` wrote it and exited 0).
 */
export function nodeCheckResult(spec: CheckSpec, r: ExecResult): CheckResult {
  const cap = spec.kind === 'node-rules' ? NODE_OUTPUT_BYTES : DEFAULT_MAX_OUTPUT_BYTES;
  const common = { id: spec.id, kind: spec.kind, argv: spec.argv, durationMs: r.durationMs };
  if (r.truncated)
    return {
      ...common,
      exitCode: null,
      ok: false,
      stdout: '',
      stderr: r.stderr,
      error: cutOutputError(cap),
    };
  return {
    ...common,
    exitCode: r.exitCode,
    ok: r.exitCode === 0,
    stdout: r.stdout,
    stderr: r.stderr,
    ...(r.error ? { error: r.error } : {}),
  };
}

/** Runs one node command as a CheckResult; refusals that end the whole capture are thrown. */
async function runSpec(
  session: ClusterSession,
  ns: string,
  pod: string,
  container: string | undefined,
  spec: CheckSpec,
  opts: CallOptions = {},
): Promise<CheckResult> {
  try {
    const r = await session.exec(ns, pod, spec.argv, {
      ...(container ? { container } : {}),
      timeoutMs: spec.timeoutMs,
      // Only a rules dump may be that big; another command printing so much is flooding (exec's default cap).
      ...(spec.kind === 'node-rules' ? { maxOutputBytes: NODE_OUTPUT_BYTES } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return nodeCheckResult(spec, r);
  } catch (e) {
    if (isClusterError(e) && (e.code === 'cancelled' || e.code === 'exec-forbidden' || e.code === 'unreachable'))
      throw e;
    return {
      id: spec.id,
      kind: spec.kind,
      argv: spec.argv,
      exitCode: null,
      durationMs: 0,
      ok: false,
      stdout: '',
      stderr: '',
      error: (e as Error).message,
    };
  }
}

function isUsableKubeProxy(p: KubeObject, node: string): boolean {
  return (
    p.spec?.nodeName === node &&
    p.spec?.hostNetwork === true &&
    p.status?.phase === 'Running' &&
    !p.metadata?.deletionTimestamp
  );
}

function firstContainer(p: KubeObject): string | undefined {
  const cs = Array.isArray(p.spec?.containers) ? (p.spec?.containers as { name?: unknown }[]) : [];
  const named = cs.find((c) => c.name === 'kube-proxy') ?? cs[0];
  return typeof named?.name === 'string' ? named.name : undefined;
}

/**
 * Finds how to read `node`: its running hostNetwork kube-proxy pod (label `k8s-app=kube-proxy` in kube-system)
 * whose image has the dump tools, else a debug pod after `confirm`. Rejects with a ClusterError that says why
 * neither works (`not-confirmed`, `exec-forbidden`, ...).
 */
export async function openNodeAccess(
  session: ClusterSession,
  node: string,
  opts: NodeAccessOptions = {},
): Promise<NodeAccess> {
  checkNodeName(node);
  const call = { signal: opts.signal, timeoutMs: opts.timeoutMs };
  let why: CatalogText | undefined;
  let candidates: KubeObject[] = [];
  try {
    candidates = (await session.findPods('kube-system', 'k8s-app=kube-proxy', `spec.nodeName=${node}`, call)).filter(
      (p) => isUsableKubeProxy(p, node),
    );
    if (!candidates.length) why = errorText('no-kube-proxy-pod', { node });
  } catch (e) {
    if (isClusterError(e) && e.code === 'cancelled') throw e;
    why = errorText('kube-proxy-list-failed', { text: isClusterError(e) ? e : (e as Error).message });
  }
  for (const p of candidates) {
    const name = p.metadata?.name;
    if (!name) continue;
    checkPodName(name);
    const container = firstContainer(p);
    // One cheap command shows whether exec works and the image has the tools.
    const probe = await runSpec(
      session,
      'kube-system',
      name,
      container,
      {
        id: 'node-probe',
        kind: 'node-addresses',
        argv: ['ip', '-o', 'addr'],
        timeoutMs: opts.timeoutMs ?? 15_000,
      },
      call,
    );
    if (probe.exitCode === 0) {
      opts.onProgress?.(
        t(opts.lang ?? 'en', 'cluster.progress.node-via-kube-proxy', { node, pod: `kube-system/${name}` }),
      );
      return {
        node,
        via: `exec kube-system/${name}`,
        namespace: 'kube-system',
        pod: name,
        ...(container ? { container } : {}),
        run: (spec, o) => runSpec(session, 'kube-system', name, container, spec, o),
        dispose: async () => undefined,
      };
    }
    why = errorText('kube-proxy-no-ip', { pod: `kube-system/${name}`, text: probe.error ?? `exit ${probe.exitCode}` });
  }
  opts.onProgress?.(
    t(opts.lang ?? 'en', 'cluster.progress.node-needs-debug-pod', { why: textIn(opts.lang ?? 'en', why ?? '') }),
  );
  let handle: DebugHandle;
  try {
    handle = await createNodeDebugPod(session, node, opts);
  } catch (e) {
    if (isClusterError(e) && e.code === 'not-confirmed') {
      throw new ClusterError(
        'not-confirmed',
        errorText('node-debug-not-confirmed', { why: why ?? '' }),
        hintText('node-debug-not-confirmed'),
      );
    }
    throw e;
  }
  opts.onProgress?.(t(opts.lang ?? 'en', 'cluster.progress.node-via', { node, via: handle.via }));
  return {
    node,
    via: handle.via,
    namespace: handle.namespace,
    pod: handle.pod,
    container: handle.container,
    run: (spec, o) => runSpec(session, handle.namespace, handle.pod, handle.container, spec, o),
    dispose: () => handle.dispose(),
  };
}

export interface NodeCapture {
  node: string;
  via: string;
  mode?: ProxyMode;
  /** The rules dump of `mode` (or whatever dump there was). */
  dump?: string;
  results: CheckResult[];
}

/** Runs the mode-less node capture (every dump tool, addresses, routes) in parallel and picks the mode. */
export async function captureNode(
  access: NodeAccess,
  opts: CallOptions = {},
  family: IpFamily = 4,
): Promise<NodeCapture> {
  const specs = nodeCaptureChecks(undefined, opts.timeoutMs ?? 30_000, family);
  const results = await Promise.all(specs.map((s) => access.run(s, opts)));
  const { mode, dump } = dumpEngine().nodeModeOf(results);
  return {
    node: access.node,
    via: access.via,
    ...(mode ? { mode } : {}),
    ...(dump !== undefined ? { dump } : {}),
    results,
  };
}

/** The rules dump again (after the probes), for the counters. */
export async function captureRules(
  access: NodeAccess,
  mode: ProxyMode | undefined,
  opts: CallOptions = {},
  family: IpFamily = 4,
): Promise<{ dump?: string; result: CheckResult }> {
  const spec = nodeRulesCheck(mode ?? 'iptables', opts.timeoutMs ?? 30_000, family);
  const result = await access.run(spec, opts);
  return { ...(result.exitCode === 0 ? { dump: result.stdout } : {}), result };
}
