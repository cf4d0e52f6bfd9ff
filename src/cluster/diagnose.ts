/**
 * `diagnoseService`: the whole diagnosis against a live cluster. Reads the Service, its endpoints, the source pod
 * and its node; finds the pod's tools (an ephemeral debug container when it has none and the caller confirmed);
 * captures the node's rules; runs the planned checks in parallel, each with its own timeout; captures the rules
 * again; and hands everything to the pure verdict (core/diagnose). Whatever it created is removed in `finally`.
 */
import { setMaxListeners } from 'node:events';
import {
  clusterDomainFromResolvConf,
  hasConnectTool,
  MAX_ENDPOINT_CHECKS,
  planChecks,
  probeOrder,
  readTools,
  resolvConfCheck,
  toolProbeCheck,
  wantsNodeRules,
  type RawResult,
} from '../core/diagnose/plan';
import { serviceFamily, type ProxyMode } from '../core/diagnose/node';
import type {
  CheckResult,
  CheckSpec,
  DiagnoseInput,
  DiagnoseReport,
  EndpointPodPorts,
  NodeEvidence,
} from '../core/diagnose/types';
import { t, type Lang } from '../core/i18n/catalog';
import { parseIp } from '../core/common/ip';
import { normaliseCluster } from '../core/kube/objects';
import { isSubdomainName, kubeIpText } from '../core/kube/validate';
import type { EndpointInfo, NodeInfo, PodInfo, ServiceInfo, ServicePortSpec } from '../core/kube/types';
import { serviceKey } from '../core/kube/types';
import {
  captureNode,
  captureRules,
  cutOutputError,
  openNodeAccess,
  POD_CHECK_OUTPUT_BYTES,
  type NodeAccess,
} from './capture';
import { dumpEngine } from './dumpEngine';
import { addDebugContainer, DEFAULT_DEBUG_IMAGE, type ConfirmCreation, type DebugHandle } from './debug';
import { cancelledError, ClusterError, errorText, hintText, isClusterError } from './errors';
import type { ExecResult } from './exec';
import type { ClusterSession, KubeObject } from './session';
import { checkContainerName, checkNamespace, checkPodName, checkServiceName } from './validate';

export interface DiagnoseOptions {
  namespace: string;
  service: string;
  /** Port number or name; default: the Service's only (or first) port. */
  port?: string | number;
  /** Source pod name; default: a running non-hostNetwork pod of `fromNamespace`. */
  from?: string;
  /** The source pod's namespace (default: the Service's; the seed case checks default/kubernetes from an app's pod). */
  fromNamespace?: string;
  container?: string;
  /** Per check (default 5 s for the in-pod tool; the exec gets a little more). */
  timeoutMs?: number;
  lang?: Lang;
  /** Asked before a debug container or debug pod is created; absent: nothing is created. */
  confirm?: ConfirmCreation;
  debugImage?: string;
  /** Read the node's rules before and after the probes (default true). */
  nodeEvidence?: boolean;
  /** The cluster's DNS domain; default: what the pod's resolv.conf search list says, else `cluster.local`. */
  clusterDomain?: string;
  signal?: AbortSignal;
  /** One line per step (for a progress bar or stderr). */
  onProgress?: (message: string) => void;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 5000;

function container(pod: KubeObject): string[] {
  const cs = Array.isArray(pod.spec?.containers) ? (pod.spec?.containers as { name?: unknown }[]) : [];
  return cs.map((c) => c.name).filter((n): n is string => typeof n === 'string');
}

/**
 * The pods behind the first endpoints the plan probes (ready first), with the container ports they declare. A pod
 * that cannot be read is left out: this is evidence for a refused endpoint, never a reason to fail.
 */
async function readEndpointPods(
  session: ClusterSession,
  namespace: string,
  endpoints: readonly EndpointInfo[],
  call: { signal?: AbortSignal | undefined },
): Promise<EndpointPodPorts[]> {
  // The pods of the endpoints the plan probes directly.
  const names: string[] = [];
  for (const e of probeOrder(endpoints).slice(0, MAX_ENDPOINT_CHECKS))
    if (e.pod && !names.includes(e.pod)) names.push(e.pod);
  const read = await Promise.all(
    names.map(async (name): Promise<EndpointPodPorts | undefined> => {
      try {
        const pod = await session.getPod(namespace, name, call);
        const containers = Array.isArray(pod.spec?.containers) ? (pod.spec.containers as unknown[]) : [];
        const ports: EndpointPodPorts['ports'] = [];
        for (const c of containers) {
          const list = (c as { ports?: unknown }).ports;
          for (const p of Array.isArray(list) ? (list as Record<string, unknown>[]) : []) {
            if (typeof p.containerPort !== 'number') continue;
            const protocol = typeof p.protocol === 'string' ? p.protocol : 'TCP';
            ports.push({ ...(typeof p.name === 'string' ? { name: p.name } : {}), port: p.containerPort, protocol });
          }
        }
        const ip = kubeIpText(pod.status?.podIP);
        return { namespace, name, ...(ip ? { ip } : {}), ports };
      } catch (e) {
        if (isClusterError(e) && e.code === 'cancelled') throw e;
        return undefined;
      }
    }),
  );
  return read.filter((p): p is EndpointPodPorts => !!p);
}

/** Whether the pod's Ready condition is True. */
function podReady(p: KubeObject): boolean {
  const conditions = Array.isArray(p.status?.conditions)
    ? (p.status.conditions as { type?: string; status?: string }[])
    : [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * For a Service without endpoints: its selector and the pods of its namespace that match it (running, ready), which
 * tell "matches nothing" from "matches pods that are no endpoints". Undefined when the pods cannot be listed.
 */
async function selectedPods(
  session: ClusterSession,
  svc: KubeObject,
  namespace: string,
  call: { signal?: AbortSignal | undefined },
): Promise<DiagnoseInput['selected']> {
  const raw = svc.spec?.selector;
  const pairs =
    raw && typeof raw === 'object'
      ? Object.entries(raw as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string')
      : [];
  if (pairs.length === 0) return { matching: 0, running: 0, ready: 0 };
  const selector = pairs.map(([k, v]) => `${k}=${v}`).join(',');
  try {
    const pods = await session.findPods(namespace, selector, undefined, call);
    const running = pods.filter((p) => p.status?.phase === 'Running');
    const ready = running.filter(podReady);
    return { selector, matching: pods.length, running: running.length, ready: ready.length };
  } catch (e) {
    if (isClusterError(e) && e.code === 'cancelled') throw e;
    return undefined;
  }
}

/** `53/tcp`, `dns/UDP`: a port number or name and the protocol to check, when a number serves more than one. */
const PORT_WITH_PROTOCOL = /^([^/]+)\/(tcp|udp|sctp)$/i;

/** How a person names this port of the Service on the command line: its name, else number/protocol. */
export function portChoice(p: ServicePortSpec): string {
  return p.name || `${p.port}/${p.protocol.toLowerCase()}`;
}

/**
 * The Service port asked for: by number or name, optionally with `/tcp`, `/udp` or `/sctp` (kube-dns serves 53 over
 * both); else the only port, else the first (said in progress). A number alone that two ports share (53/UDP and
 * 53/TCP) picks the first, as listed; the report names the other and how to check it. A number or name that is no
 * port of the Service but is the targetPort of exactly one of them (the container's port, which is what a user who
 * knows the pods types) picks that port; of several, the error names them.
 */
export function pickPort(service: ServiceInfo, wanted: string | number | undefined): ServicePortSpec {
  const ports = service.ports;
  const show = (p: ServicePortSpec) =>
    `${p.name ? `${p.name}:` : ''}${p.port}/${p.protocol}${p.targetPort !== undefined && String(p.targetPort) !== String(p.port) ? ` (targetPort ${p.targetPort})` : ''}`;
  const list = ports.map(show).join(', ');
  const serviceName = `${service.namespace}/${service.name}`;
  if (!ports.length) {
    throw new ClusterError(
      'api',
      errorText('service-no-ports', { service: serviceName }),
      hintText('service-no-ports'),
    );
  }
  if (wanted === undefined || wanted === '') return ports[0];
  const split = typeof wanted === 'string' ? PORT_WITH_PROTOCOL.exec(wanted) : null;
  const key = split ? split[1] : String(wanted);
  const protocol = split?.[2].toUpperCase();
  const candidates = protocol ? ports.filter((p) => p.protocol === protocol) : ports;
  const n = /^\d+$/.test(key) ? Number(key) : undefined;
  const found = candidates.find((p) => (n !== undefined ? p.port === n : p.name === key));
  if (found) return found;
  const byTarget = candidates.filter((p) => p.targetPort !== undefined && String(p.targetPort) === key);
  if (byTarget.length === 1) return byTarget[0];
  if (byTarget.length > 1) {
    throw new ClusterError(
      'not-found',
      errorText('port-is-target-of-several', {
        service: serviceName,
        port: String(wanted),
        ports: byTarget.map(show).join(', '),
      }),
      hintText('port-is-target-of-several', { choices: byTarget.map(portChoice).join(', ') }),
    );
  }
  throw new ClusterError(
    'not-found',
    errorText('no-such-port', { service: serviceName, port: String(wanted), ports: list }),
    hintText('no-such-port'),
  );
}

function podInfoOf(pod: KubeObject): PodInfo {
  const info = normaliseCluster([{ ...pod, kind: 'Pod' }]).pods?.[0];
  if (!info) {
    throw new ClusterError(
      'invalid-name',
      errorText('pod-unreadable', { pod: `${pod.metadata?.namespace}/${pod.metadata?.name}` }),
      '',
    );
  }
  return info;
}

/**
 * A running pod of the namespace that is not hostNetwork and not a backend of the Service, ready ones first (a pod
 * whose containers crash is Running but cannot be exec'd into), then by name.
 * `backends` holds canonical addresses (the snapshot's); a pod's is read as Kubernetes reads it to compare.
 */
export function pickSource(pods: KubeObject[], backends: Set<string>): KubeObject | undefined {
  const usable = pods
    .filter((p) => p.status?.phase === 'Running' && p.spec?.hostNetwork !== true && !p.metadata?.deletionTimestamp)
    .filter((p) => kubeIpText(p.status?.podIP) !== undefined && isSubdomainName(p.metadata?.name))
    .sort(
      (a, b) =>
        Number(podReady(b)) - Number(podReady(a)) || String(a.metadata?.name).localeCompare(String(b.metadata?.name)),
    );
  return usable.find((p) => !backends.has(kubeIpText(p.status?.podIP)!)) ?? usable[0];
}

/** The source pod went away while the checks ran: its results are no longer the pod's. */
function sourceGone(namespace: string, pod: string): ClusterError {
  return new ClusterError(
    'not-found',
    errorText('source-gone', { pod: `${namespace}/${pod}` }),
    hintText('source-gone'),
    {
      status: 404,
    },
  );
}

/**
 * The endpoints behind the ClusterIP checked. A dual-stack Service's IPv4 and IPv6 EndpointSlices list every pod once
 * per family, and kube-proxy sends a ClusterIP's packets to the endpoints of its family only: the other family's
 * are left out, or each pod would count twice. Endpoints of one family only (a headless Service, a single-stack one)
 * are all kept, whatever the ClusterIP says.
 */
export function endpointsOfFamily(endpoints: EndpointInfo[], service: ServiceInfo): EndpointInfo[] {
  const family = parseIp(service.clusterIP)?.family;
  if (!family) return endpoints;
  const same = endpoints.filter((e) => parseIp(e.ip)?.family === family);
  return same.length > 0 && same.length < endpoints.length ? same : endpoints;
}

/** Exec errors that end the diagnosis (the pod is gone, the API went away, the caller cancelled). */
function isFatal(e: unknown): boolean {
  return isClusterError(e) && ['cancelled', 'not-found', 'unreachable', 'unauthorized', 'tls'].includes(e.code);
}

/**
 * What a check in the client pod read from its exec. A cut output is not read: a routing table missing its end
 * would answer the route lookup wrongly; the check fails saying why.
 */
export function podCheckOutput(spec: CheckSpec, r: ExecResult): RawResult {
  const error = r.truncated ? cutOutputError(POD_CHECK_OUTPUT_BYTES) : r.error;
  return {
    id: spec.id,
    kind: spec.kind,
    argv: spec.argv,
    exitCode: r.truncated ? null : r.exitCode,
    durationMs: r.durationMs,
    stdout: r.truncated ? '' : r.stdout,
    stderr: r.stderr,
    ...(error ? { error } : {}),
    ...(spec.target ? { target: spec.target } : {}),
  };
}

export async function diagnoseService(session: ClusterSession, opts: DiagnoseOptions): Promise<DiagnoseReport> {
  const started = Date.now();
  const lang = opts.lang ?? 'en';
  const ns = checkNamespace(opts.namespace);
  const svcName = checkServiceName(opts.service);
  const podNs = checkNamespace(opts.fromNamespace ?? ns);
  if (opts.from !== undefined) checkPodName(opts.from);
  if (opts.container !== undefined) checkContainerName(opts.container);
  const signal = opts.signal;
  // Every parallel exec listens on the one signal.
  if (signal) setMaxListeners(200, signal);
  const progress = (m: string) => opts.onProgress?.(m);
  const say = (key: string, params: Record<string, string | number> = {}) =>
    progress(t(lang, `cluster.progress.${key}`, params));
  /** An error as a line in the report's language (the API's or the system's own text as it came). */
  const errorLine = (e: unknown) => (isClusterError(e) ? e.oneLine(lang) : (e as Error).message);
  const checkTimeout = opts.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const call = { signal };
  const throwIfCancelled = () => {
    if (signal?.aborted) throw cancelledError();
  };

  // 1. The Service and its endpoints.
  say('reading-service', { service: `${ns}/${svcName}` });
  let svcObj: KubeObject;
  try {
    svcObj = await session.getService(ns, svcName, call);
  } catch (e) {
    if (isClusterError(e) && e.code === 'not-found') {
      throw new ClusterError(
        'not-found',
        errorText('service-not-found', { service: `${ns}/${svcName}` }),
        hintText('service-not-found', { namespace: ns }),
        { status: 404 },
      );
    }
    throw e;
  }
  let endpointObjs: KubeObject[] = [];
  let endpointsKnown = true;
  try {
    endpointObjs = await session.getServiceEndpoints(ns, svcName, call);
  } catch (e) {
    if (isFatal(e)) throw e;
    endpointsKnown = false;
    say('endpoints-unreadable', { service: `${ns}/${svcName}`, text: errorLine(e) });
  }
  const snap = normaliseCluster([svcObj, ...endpointObjs]);
  const service = snap.services[0];
  if (!service) {
    throw new ClusterError(
      'invalid-name',
      snap.warnings[0]
        ? errorText('service-unreadable', { service: `${ns}/${svcName}`, text: snap.warnings[0] })
        : errorText('service-invalid', { service: `${ns}/${svcName}` }),
      '',
    );
  }
  if (service.type === 'ExternalName' && service.ports.length === 0) {
    throw new ClusterError(
      'api',
      errorText('external-name', { service: `${ns}/${svcName}`, name: service.externalName ?? '?' }),
      service.externalName
        ? hintText('external-name', { name: service.externalName })
        : hintText('external-name.unnamed'),
    );
  }
  const port = pickPort(service, opts.port);
  const asked = opts.port === undefined ? undefined : String(opts.port).replace(PORT_WITH_PROTOCOL, '$1');
  const checking = `${port.name ? `${port.name} ` : ''}${port.port}/${port.protocol}`;
  if (asked !== undefined && asked !== String(port.port) && asked !== port.name)
    say('port-is-target', { asked: String(opts.port), port: checking });
  // The same number over another protocol (kube-dns: 53/UDP and 53/TCP): the report says it too.
  const others = service.ports.filter((p) => p.port === port.port && p.protocol !== port.protocol);
  if (others.length)
    say('port-other-protocol', {
      port: checking,
      others: others.map((p) => `${p.port}/${p.protocol}`).join(', '),
      choice: portChoice(others[0]),
    });
  if (opts.port === undefined && service.ports.length > 1)
    say('port-first', { count: service.ports.length, port: checking });
  const byPort = snap.endpoints[serviceKey(ns, svcName)] ?? {};
  const endpoints = endpointsOfFamily(byPort[port.name] ?? [], service);
  const endpointPortNames = Object.keys(byPort).filter((n) => byPort[n].length > 0);
  const selected = endpointsKnown && endpoints.length === 0 ? await selectedPods(session, svcObj, ns, call) : undefined;
  throwIfCancelled();

  // 2. The source pod.
  let podObj: KubeObject;
  if (opts.from) {
    try {
      podObj = await session.getPod(podNs, opts.from, call);
    } catch (e) {
      if (isClusterError(e) && e.code === 'not-found') {
        throw new ClusterError(
          'not-found',
          errorText('source-not-found', { pod: `${podNs}/${opts.from}` }),
          hintText('source-not-found', { namespace: podNs }),
          { status: 404 },
        );
      }
      throw e;
    }
  } else {
    const backends = new Set(endpoints.map((e) => e.ip));
    const pods = (await session.listRaw('pods', podNs, call)).items;
    const picked = pickSource(pods, backends);
    if (!picked?.metadata?.name) {
      throw new ClusterError(
        'not-found',
        errorText('no-source-pod', { namespace: podNs }),
        // The Service's namespace may hold no client at all (default/kubernetes): a pod of another one will do.
        opts.fromNamespace === undefined
          ? hintText('no-source-pod')
          : hintText('no-source-pod.in-namespace', { namespace: podNs }),
      );
    }
    podObj = picked;
    say('source-picked', { pod: `${podNs}/${picked.metadata.name}` });
  }
  const source = podInfoOf(podObj);
  if (podObj.status?.phase !== 'Running') {
    const phase = podObj.status?.phase;
    throw new ClusterError(
      'api',
      typeof phase === 'string' && phase
        ? errorText('source-not-running', { pod: `${podNs}/${source.name}`, phase })
        : errorText('source-not-running.no-phase', { pod: `${podNs}/${source.name}` }),
      hintText('source-not-running'),
    );
  }
  const containers = container(podObj);
  // kubectl's own default: the pod's default-container annotation when it names one of its containers, else the first.
  const annotations = podObj.metadata?.annotations as Record<string, unknown> | undefined;
  const annotated = annotations?.['kubectl.kubernetes.io/default-container'];
  let cont =
    opts.container ?? (typeof annotated === 'string' && containers.includes(annotated) ? annotated : containers[0]);
  if (opts.container && !containers.includes(opts.container)) {
    throw new ClusterError(
      'not-found',
      errorText('no-such-container', {
        pod: `${podNs}/${source.name}`,
        container: opts.container,
        containers: containers.join(', '),
      }),
      hintText('no-such-container'),
    );
  }
  if (cont) checkContainerName(cont);
  let podContainer = cont;
  if (!opts.container && containers.length > 1)
    say('container-picked', { count: containers.length, container: cont ?? '' });

  let node: NodeInfo | undefined;
  if (source.nodeName) {
    try {
      node = normaliseCluster([await session.getNode(source.nodeName, call)]).nodes?.[0];
    } catch (e) {
      if (isClusterError(e) && e.code === 'cancelled') throw e;
      say('node-unreadable', { node: source.nodeName, text: errorLine(e) });
    }
  }
  throwIfCancelled();

  // Set from the pod's resolv.conf once its tools are known (unless the caller gave one).
  let clusterDomain = opts.clusterDomain;
  const report = (
    checks: CheckResult[],
    input: Partial<DiagnoseInput>,
    extra: Partial<DiagnoseReport> = {},
  ): DiagnoseReport => {
    const full: DiagnoseInput = {
      service,
      port,
      endpoints,
      endpointsKnown,
      source,
      ...(node ? { node } : {}),
      checks,
      ...(clusterDomain ? { clusterDomain } : {}),
      ...(selected ? { selected } : {}),
      ...(endpointPortNames.length ? { endpointPortNames } : {}),
      ...input,
    };
    const verdict = dumpEngine().decideVerdict(full, lang);
    return {
      service: { namespace: ns, name: svcName, clusterIP: service.clusterIP, port: port.port, protocol: port.protocol },
      source: {
        namespace: podNs,
        pod: source.name,
        ...(podContainer ? { container: podContainer } : {}),
        ...(source.ip ? { ip: source.ip } : {}),
        ...(source.nodeName ? { node: source.nodeName } : {}),
      },
      checks,
      ...extra,
      verdict,
      durationMs: Date.now() - started,
    };
  };

  const created: { dispose(): Promise<void> }[] = [];
  try {
    // 3. Tools of the container.
    const exec = async (spec: CheckSpec, where: string | undefined): Promise<CheckResult> => {
      try {
        const r = await session.exec(podNs, source.name, spec.argv, {
          ...(where ? { container: where } : {}),
          timeoutMs: spec.timeoutMs, // already holds slack over the in-pod tool's own limit
          maxOutputBytes: POD_CHECK_OUTPUT_BYTES,
          ...(signal ? { signal } : {}),
        });
        return dumpEngine().classifyCheck(spec, podCheckOutput(spec, r));
      } catch (e) {
        if (isClusterError(e) && e.code === 'not-found') {
          throw sourceGone(podNs, source.name);
        }
        throw e;
      }
    };
    /** A plan check: a failure of its own (an API error for this one exec) is its result, not the end. */
    const check = async (spec: CheckSpec, where: string | undefined): Promise<CheckResult> => {
      try {
        return await exec(spec, where);
      } catch (e) {
        if (!isClusterError(e) || isFatal(e) || e.code === 'exec-forbidden') throw e;
        return dumpEngine().classifyCheck(spec, {
          id: spec.id,
          kind: spec.kind,
          argv: spec.argv,
          exitCode: null,
          durationMs: 0,
          stdout: '',
          stderr: '',
          error: e.message,
          ...(spec.target ? { target: spec.target } : {}),
        });
      }
    };

    say('tools', { pod: `${podNs}/${source.name}${cont ? ` (${cont})` : ''}` });
    let toolCheck: CheckResult;
    try {
      toolCheck = await exec(toolProbeCheck(), cont);
    } catch (e) {
      if (isClusterError(e) && (e.code === 'exec-forbidden' || (e.code === 'forbidden' && e.status === 403))) {
        return report([], { execError: { status: 403, message: e.detail ?? e.message } });
      }
      throw e;
    }
    let tools = readTools(toolCheck);
    const checks: CheckResult[] = [toolCheck];
    // The default container may have no tool (a distroless app beside a sidecar that has a shell): the pod's other
    // containers share its network, so the first of them that can connect runs the checks. Not when --container said.
    if (!hasConnectTool(tools) && !opts.container) {
      for (const other of containers.filter((c) => c !== cont)) {
        let probe: CheckResult;
        try {
          checkContainerName(other);
          probe = await exec({ ...toolProbeCheck(), id: `tools:${other}` }, other);
        } catch (e) {
          if (isFatal(e) || (isClusterError(e) && e.code === 'exec-forbidden')) throw e;
          continue;
        }
        const found = readTools(probe);
        if (!hasConnectTool(found)) continue;
        say('other-container', { container: cont ?? '', other });
        checks.push(probe);
        tools = found;
        cont = other;
        podContainer = other;
        break;
      }
    }
    let debugContainer: DebugHandle | undefined;
    let debugUnconfirmed = false;
    if (!hasConnectTool(tools) && opts.confirm) {
      say('no-tools', { pod: `${podNs}/${source.name}` });
      try {
        debugContainer = await addDebugContainer(session, podNs, source.name, {
          confirm: opts.confirm,
          image: opts.debugImage ?? DEFAULT_DEBUG_IMAGE,
          ...(signal ? { signal } : {}),
        });
        created.push(debugContainer);
        cont = debugContainer.container;
        say('in-debug-container', { via: debugContainer.via });
        const again = await exec({ ...toolProbeCheck(), id: 'tools-debug' }, cont);
        checks.push(again);
        tools = readTools(again);
      } catch (e) {
        if (isFatal(e) || (isClusterError(e) && e.code === 'exec-forbidden')) throw e;
        say('no-debug-container', { text: errorLine(e) });
        if (isClusterError(e) && e.code === 'not-confirmed') debugUnconfirmed = true;
      }
    }
    throwIfCancelled();

    // The DNS name to look up is the cluster's, which need not be cluster.local: the pod's search list says it.
    let resolvConf: CheckResult | undefined;
    if (tools.cat) {
      resolvConf = await check(resolvConfCheck(), cont);
      checks.push(resolvConf);
      if (!clusterDomain && resolvConf.exitCode === 0) {
        clusterDomain = clusterDomainFromResolvConf(resolvConf.stdout, source.namespace);
        if (clusterDomain) say('cluster-domain', { domain: clusterDomain });
      }
    }
    throwIfCancelled();

    // 4. The plan.
    const plan = planChecks({
      service,
      port,
      endpoints,
      source,
      tools,
      timeoutMs: checkTimeout,
      ...(clusterDomain ? { clusterDomain } : {}),
    }).filter((c) => !(resolvConf && c.kind === 'resolv-conf'));

    // 5. Node evidence before.
    let access: NodeAccess | undefined;
    let nodeEvidence: NodeEvidence | undefined;
    let mode: ProxyMode | undefined;
    const probesClusterIP = plan.some((c) => c.kind === 'connect-clusterip');
    const wantNode = opts.nodeEvidence !== false && !!source.nodeName && wantsNodeRules(plan, service, port);
    if (wantNode && source.nodeName) {
      nodeEvidence = { name: source.nodeName };
      try {
        say('node-before', { node: source.nodeName });
        access = await openNodeAccess(session, source.nodeName, {
          ...(opts.confirm ? { confirm: opts.confirm } : {}),
          image: opts.debugImage ?? DEFAULT_DEBUG_IMAGE,
          ...(signal ? { signal } : {}),
          onProgress: progress,
          lang,
        });
        created.push(access);
        nodeEvidence.via = access.via;
        // An IPv6 ClusterIP's iptables rules are in ip6tables-save, not iptables-save.
        const cap = await captureNode(access, call, serviceFamily(service));
        mode = cap.mode;
        if (mode) nodeEvidence.mode = mode;
        if (cap.dump !== undefined) nodeEvidence.before = cap.dump;
        const out = (id: string) => cap.results.find((r) => r.id === id && r.exitCode === 0)?.stdout;
        const addresses = out('node-addresses');
        const routes = out('node-routes');
        if (addresses !== undefined) nodeEvidence.addresses = addresses;
        if (routes !== undefined) nodeEvidence.routes = routes;
        if (cap.dump === undefined) nodeEvidence.error = t(lang, 'cluster.error.no-rules-dump');
      } catch (e) {
        if (isFatal(e) && !(isClusterError(e) && e.code === 'not-found')) throw e;
        nodeEvidence.error = errorLine(e);
        if (isClusterError(e) && e.code === 'not-confirmed') nodeEvidence.unconfirmed = true;
        say('no-node-evidence', { text: nodeEvidence.error });
        access = undefined;
      }
    }
    throwIfCancelled();

    // 6. The probes, in parallel.
    say('running', { count: plan.length, pod: `${podNs}/${source.name}` });
    // The endpoints' pods (their declared container ports) are read meanwhile: a refused endpoint is judged by them.
    const [results, endpointPods] = await Promise.all([
      Promise.all(plan.map((spec) => check(spec, cont))),
      readEndpointPods(session, ns, endpoints, call),
    ]);
    checks.push(...results);

    // The results are the pod's only while it is the same pod: deleted (or replaced) mid-check, they are not.
    try {
      const now = await session.getPod(podNs, source.name, call);
      if (now.metadata?.uid && podObj.metadata?.uid && now.metadata.uid !== podObj.metadata.uid) {
        throw new ClusterError(
          'not-found',
          errorText('source-replaced', { pod: `${podNs}/${source.name}` }),
          hintText('run-again'),
        );
      }
      if (now.metadata?.deletionTimestamp) {
        throw new ClusterError(
          'not-found',
          errorText('source-deleted', { pod: `${podNs}/${source.name}` }),
          hintText('source-gone'),
        );
      }
    } catch (e) {
      if (isClusterError(e) && e.code === 'not-found' && e.status === 404) {
        throw sourceGone(podNs, source.name);
      }
      throw e;
    }

    // 7. Node evidence after (counters moved by the probe; a port nothing probed is read once).
    if (access && nodeEvidence && nodeEvidence.before !== undefined && probesClusterIP) {
      say('node-after', { node: source.nodeName ?? '' });
      try {
        const after = await captureRules(access, mode, call, serviceFamily(service));
        if (after.dump !== undefined) nodeEvidence.after = after.dump;
        else
          nodeEvidence.error = t(lang, 'cluster.error.second-dump-failed', {
            text: after.result.error ?? (after.result.stderr.trim() || `exit ${after.result.exitCode}`),
          });
      } catch (e) {
        if (isFatal(e)) throw e;
        nodeEvidence.error = errorLine(e);
      }
    }

    const nodeReport: DiagnoseReport['node'] = nodeEvidence
      ? {
          name: nodeEvidence.name,
          ...(nodeEvidence.via ? { via: nodeEvidence.via } : {}),
          counters: {
            before: nodeEvidence.before ? dumpEngine().ruleCounters(nodeEvidence.before, service, port) : [],
            after: nodeEvidence.after ? dumpEngine().ruleCounters(nodeEvidence.after, service, port) : [],
          },
          ...(nodeEvidence.error ? { error: nodeEvidence.error } : {}),
        }
      : undefined;
    const out = report(
      checks,
      {
        ...(nodeEvidence ? { nodeEvidence } : {}),
        ...(endpointPods.length ? { endpointPods } : {}),
        ...(debugUnconfirmed ? { debugUnconfirmed } : {}),
      },
      nodeReport ? { node: nodeReport } : {},
    );
    if (debugContainer) out.source.debugContainer = debugContainer.container;
    return out;
  } finally {
    for (const c of created.reverse()) {
      try {
        await c.dispose();
      } catch (e) {
        progress(errorLine(e));
      }
    }
  }
}
