/**
 * kubeconfig as kubectl reads it (client-go's clientcmd rules), which @kubernetes/client-node's loadFromDefault
 * does not follow:
 * - an explicit path (`--kubeconfig`, the `kubePacketPath.kubeconfig` setting) is the only file read, and must exist;
 * - else every file of `KUBECONFIG` (split on `:`; `;` on Windows) in order, missing ones skipped, duplicates read
 *   once; for clusters, users and contexts the FIRST file that names an entry wins, and so does the first
 *   `current-context` (client-node: the last file's context wins, a missing file throws, a duplicate name throws);
 * - else `~/.kube/config`;
 * - else, inside a pod, its service account (in-cluster config).
 * Relative paths inside a file (certificate files, exec commands given as paths) are taken relative to that file.
 * The chosen context and namespace live only in memory: the user's kubeconfig is never written.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clientNode, type KubeCluster, type KubeConfig, type KubeContext, type KubeUser } from './clientNode';
import { ClusterError, errorText, hintText } from './errors';

const SERVICEACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';
const SERVICEACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

export interface KubeconfigOptions {
  /** An explicit file: the only one read. */
  kubeconfig?: string;
  /** Use this context instead of the file's current-context. */
  context?: string;
  /** Use this namespace instead of the context's. */
  namespace?: string;
  /** Defaults to `process.env` (read for `KUBECONFIG`). */
  env?: NodeJS.ProcessEnv;
  /** Defaults to `os.homedir()`. */
  home?: string;
}

export interface LoadedKubeconfig {
  /** client-node's KubeConfig with the merged entries and the chosen context set (in memory only). */
  kc: KubeConfig;
  /** The files read, in order (missing ones left out). */
  files: string[];
  /** Files of `KUBECONFIG` that do not exist (skipped, as kubectl does). */
  skipped: string[];
  context: string;
  namespace: string;
  /** The API server URL of the context (never holds credentials). */
  server: string;
  /** The user name of the context (for messages; never its credentials). */
  user: string;
  cluster: string;
  /** Every context name, in merge order. */
  contexts: string[];
}

function unreadableKubeconfig(file: string, e: unknown): ClusterError {
  return new ClusterError(
    'kubeconfig',
    errorText('kubeconfig-unreadable', { file, text: firstLine((e as Error).message) }),
    hintText('kubeconfig-unreadable'),
  );
}

/** The files kubectl would read, in order, and the ones it would skip. */
export function kubeconfigFiles(opts: Pick<KubeconfigOptions, 'kubeconfig' | 'env' | 'home'> = {}): {
  files: string[];
  skipped: string[];
  explicit: boolean;
} {
  if (opts.kubeconfig) {
    const file = path.resolve(expandHome(opts.kubeconfig, opts.home));
    if (!fs.existsSync(file)) {
      throw new ClusterError('kubeconfig', errorText('kubeconfig-missing', { file }), hintText('kubeconfig-missing'));
    }
    return { files: [file], skipped: [], explicit: true };
  }
  const env = opts.env ?? process.env;
  const list = env.KUBECONFIG;
  if (list !== undefined && list !== '') {
    const seen = new Set<string>();
    const files: string[] = [];
    const skipped: string[] = [];
    for (const raw of list.split(path.delimiter)) {
      if (!raw) continue;
      const file = path.resolve(expandHome(raw, opts.home));
      if (seen.has(file)) continue;
      seen.add(file);
      if (fs.existsSync(file)) files.push(file);
      else skipped.push(file);
    }
    return { files, skipped, explicit: false };
  }
  const home = opts.home ?? os.homedir();
  const file = path.join(home, '.kube', 'config');
  return fs.existsSync(file)
    ? { files: [file], skipped: [], explicit: false }
    : { files: [], skipped: [file], explicit: false };
}

function expandHome(p: string, home?: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(home ?? os.homedir(), p.slice(1)) : p;
}

/** Reads and merges the kubeconfig files and selects the context; throws ClusterError('kubeconfig') with a hint. */
export async function loadKubeconfig(opts: KubeconfigOptions = {}): Promise<LoadedKubeconfig> {
  const k8s = await clientNode();
  const { files, skipped, explicit } = kubeconfigFiles(opts);
  const env = opts.env ?? process.env;
  if (files.length === 0 && !explicit && env.KUBERNETES_SERVICE_HOST && fs.existsSync(SERVICEACCOUNT_TOKEN)) {
    // Inside a pod with no kubeconfig: its service account, as kubectl does.
    const kc = new k8s.KubeConfig();
    kc.loadFromCluster();
    const cluster = kc.getCurrentCluster();
    let namespace = opts.namespace ?? 'default';
    try {
      namespace = opts.namespace ?? (fs.readFileSync(SERVICEACCOUNT_NAMESPACE, 'utf8').trim() || 'default');
    } catch {
      // no namespace file
    }
    return {
      kc,
      files: [],
      skipped,
      context: kc.getCurrentContext(),
      namespace,
      server: cluster?.server ?? '',
      user: kc.getCurrentUser()?.name ?? '',
      cluster: cluster?.name ?? '',
      contexts: [kc.getCurrentContext()],
    };
  }
  if (files.length === 0) {
    throw new ClusterError(
      'kubeconfig',
      skipped.length ? errorText('no-kubeconfig', { files: skipped.join(', ') }) : errorText('no-kubeconfig.empty-env'),
      hintText('no-kubeconfig'),
    );
  }
  const clusters = new Map<string, KubeCluster>();
  const users = new Map<string, KubeUser>();
  const contexts = new Map<string, KubeContext>();
  let currentContext = '';
  for (const file of files) {
    const one = new k8s.KubeConfig();
    try {
      one.loadFromString(fs.readFileSync(file, 'utf8'), { onInvalidEntry: 'filter' });
      one.makePathsAbsolute(path.dirname(file));
    } catch (e) {
      throw unreadableKubeconfig(file, e);
    }
    // First file wins, entry by entry, as in clientcmd.
    for (const c of one.clusters ?? []) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of one.users ?? []) if (!users.has(u.name)) users.set(u.name, u);
    for (const c of one.contexts ?? []) if (!contexts.has(c.name)) contexts.set(c.name, c);
    if (!currentContext && one.currentContext) currentContext = one.currentContext;
  }
  const names = [...contexts.keys()];
  const context = opts.context ?? currentContext;
  if (!context) {
    throw new ClusterError(
      'kubeconfig',
      names.length
        ? errorText('no-current-context.listed', { contexts: names.join(', ') })
        : errorText('no-current-context'),
      names.length ? hintText('no-current-context.listed') : hintText('no-current-context'),
    );
  }
  const ctx = contexts.get(context);
  if (!ctx) {
    throw new ClusterError(
      'kubeconfig',
      names.length
        ? errorText('unknown-context.listed', { context, contexts: names.join(', ') })
        : errorText('unknown-context', { context }),
      opts.context ? hintText('unknown-context.option') : hintText('unknown-context.current'),
    );
  }
  const cluster = clusters.get(ctx.cluster);
  if (!cluster) {
    throw new ClusterError(
      'kubeconfig',
      errorText('context-cluster-missing', { context, cluster: ctx.cluster }),
      hintText('context-cluster-missing'),
    );
  }
  if (!users.has(ctx.user) && ctx.user) {
    throw new ClusterError(
      'kubeconfig',
      errorText('context-user-missing', { context, user: ctx.user }),
      hintText('context-user-missing'),
    );
  }
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext: context,
  });
  return {
    kc,
    files,
    skipped,
    context,
    namespace: opts.namespace ?? (ctx.namespace || 'default'),
    server: cluster.server,
    user: ctx.user,
    cluster: ctx.cluster,
    contexts: names,
  };
}

function firstLine(s: string): string {
  return s.split('\n')[0].slice(0, 300);
}

export interface ContextEntry {
  name: string;
  cluster: string;
  user: string;
  namespace?: string;
}

/**
 * The contexts of the merged kubeconfig and the current one, without choosing or checking any (for a "Switch
 * Context..." picker that must work even when the current context is broken).
 */
export async function readContexts(
  opts: Pick<KubeconfigOptions, 'kubeconfig' | 'env' | 'home'> = {},
): Promise<{ contexts: ContextEntry[]; current?: string; files: string[] }> {
  const k8s = await clientNode();
  const { files } = kubeconfigFiles(opts);
  const seen = new Map<string, ContextEntry>();
  let current: string | undefined;
  for (const file of files) {
    const one = new k8s.KubeConfig();
    try {
      one.loadFromString(fs.readFileSync(file, 'utf8'), { onInvalidEntry: 'filter' });
    } catch (e) {
      throw unreadableKubeconfig(file, e);
    }
    for (const c of one.contexts ?? []) {
      if (!seen.has(c.name)) {
        seen.set(c.name, {
          name: c.name,
          cluster: c.cluster,
          user: c.user,
          ...(c.namespace ? { namespace: c.namespace } : {}),
        });
      }
    }
    if (!current && one.currentContext) current = one.currentContext;
  }
  return { contexts: [...seen.values()], ...(current ? { current } : {}), files };
}
