/**
 * The checks to run inside the source pod, as argv arrays, and how to read what they printed.
 *
 * Rules: every argv element that comes from the cluster (addresses, ports, names) is validated first (IPs with the
 * project's IP parser and written back in canonical form, names with `kube/validate.ts`) and is always a separate
 * argv element: the only shell scripts here (`sh -c` of the tool probe, `bash -c` of the `/dev/tcp` connect) are
 * fixed text that read their data from positional arguments. A value that does not validate is left out of the
 * plan (its check is not run) rather than quoted.
 */
import { formatIp, joinHostPort, parseIp } from '../common/ip';
import type { EndpointInfo, ServiceInfo, ServicePortSpec } from '../kube/types';
import { isNamespaceName, isPortNumber, isServiceName, isSubdomainName } from '../kube/validate';
import type { CheckKind, CheckResult, CheckSpec, PlanRequest, ToolSet } from './types';

/** The tools the probe looks for, in the order `ToolSet` names them. */
export const TOOL_NAMES = ['curl', 'wget', 'nc', 'bash', 'ip', 'nslookup', 'getent', 'cat', 'timeout'] as const;

/** Direct connects to endpoints are capped: a Service with 200 endpoints gets 8 probes (ready ones first). */
export const MAX_ENDPOINT_CHECKS = 8;

/** The default DNS domain of a cluster. */
export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';

/** Fixed text: no cluster data is ever put into this script. Exits 0 whenever `sh` runs, whatever it finds. */
const TOOL_PROBE_SCRIPT = `for t in ${TOOL_NAMES.join(' ')}; do command -v "$t"; done; exit 0`;

/** The `/dev/tcp` connect: address and port arrive as `$1` and `$2`, never inside the script text. */
export const BASH_CONNECT_SCRIPT = 'exec 3<>"/dev/tcp/$1/$2"';

/** curl's `-w`: the connect time is printed even when the transfer fails, so "connected" does not rest on exit codes. */
const CURL_WRITE_OUT = 'connect=%{time_connect} code=%{http_code}\\n';

export function toolProbeCheck(timeoutMs = 10_000): CheckSpec {
  return { id: 'tools', kind: 'tools', argv: ['sh', '-c', TOOL_PROBE_SCRIPT], timeoutMs };
}

export function emptyToolSet(): ToolSet {
  return {
    curl: false,
    wget: false,
    nc: false,
    bash: false,
    ip: false,
    nslookup: false,
    getent: false,
    cat: false,
    timeout: false,
  };
}

/**
 * The tools the probe found. A probe that failed (no `sh`, exec refused, timed out) says nothing is known: every
 * tool is false, and the plan then holds no checks (the verdict says `tool-missing`).
 */
export function readTools(r: CheckResult): ToolSet {
  const tools = emptyToolSet();
  if (r.exitCode !== 0 || r.error) return tools;
  for (const raw of r.stdout.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    // `command -v` prints a path (`/usr/bin/curl`), or the bare name for a builtin or a busybox applet.
    const base = line.slice(line.lastIndexOf('/') + 1);
    if ((TOOL_NAMES as readonly string[]).includes(base)) tools[base as keyof ToolSet] = true;
  }
  return tools;
}

/** Whether the container can open a TCP connection with one of the tools the plan knows. */
export function hasConnectTool(tools: ToolSet): boolean {
  return tools.curl || tools.wget || tools.nc || tools.bash;
}

/** The canonical text of an address from the cluster, or undefined when it is not one. */
export function safeIp(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.length > 64) return undefined;
  const ip = parseIp(text);
  if (!ip || text.includes('%') || text.startsWith('[')) return undefined;
  return formatIp(ip);
}

/** The pod's resolv.conf, read before the plan: its search list names the cluster's DNS domain. */
export function resolvConfCheck(timeoutMs = 10_000): CheckSpec {
  return { id: 'resolv-conf', kind: 'resolv-conf', argv: ['cat', '/etc/resolv.conf'], timeoutMs };
}

/**
 * The cluster's DNS domain as the pod's resolv.conf gives it: kubelet writes `search <ns>.svc.<domain> svc.<domain>
 * <domain>` for a pod with dnsPolicy ClusterFirst, whatever the domain is (`cluster.local` is only the default).
 * Undefined when the search list has no such entry (dnsPolicy Default, a dnsConfig of its own).
 */
export function clusterDomainFromResolvConf(text: string, podNamespace: string): string | undefined {
  const search: string[] = [];
  for (const line of text.split('\n')) {
    const words = line
      .replace(/[#;].*$/, '')
      .trim()
      .split(/\s+/);
    if (words[0] === 'search' || words[0] === 'domain')
      for (const w of words.slice(1)) search.push(w.toLowerCase().replace(/\.$/, '')); // not push(...): no bound
  }
  const valid = (d: string | undefined) => (d && isSubdomainName(d) ? d : undefined);
  const own = `${podNamespace.toLowerCase()}.svc.`;
  const fromOwn = search.find((w) => w.startsWith(own));
  if (fromOwn) return valid(fromOwn.slice(own.length));
  const fromSvc = search.find((w) => w.startsWith('svc.') && search.includes(w.slice(4)));
  return fromSvc ? valid(fromSvc.slice(4)) : undefined;
}

/** `svc.ns.svc.<domain>` when every part validates, else undefined (the DNS check is then not planned). */
export function serviceDnsName(namespace: string, name: string, clusterDomain?: string): string | undefined {
  const domain = clusterDomain ?? DEFAULT_CLUSTER_DOMAIN;
  if (!isServiceName(name) || !isNamespaceName(namespace) || !isSubdomainName(domain)) return undefined;
  return `${name}.${namespace}.svc.${domain}`;
}

/** Seconds given to the in-container tool; the check's own timeout leaves room for it to report first. */
function toolSeconds(timeoutMs: number): number {
  return Math.max(1, Math.ceil((Number.isFinite(timeoutMs) ? timeoutMs : 5000) / 1000));
}

function specTimeout(seconds: number): number {
  return (seconds + 3) * 1000;
}

/** argv that opens a TCP connection to ip:port with the best tool there is, or undefined when none fits. */
export function connectArgv(tools: ToolSet, ip: string, port: number, seconds: number): string[] | undefined {
  const s = String(seconds);
  // Only bash needs a `timeout` wrapper (its /dev/tcp has no timeout of its own); curl, wget and nc bound the connect
  // themselves, and old busybox `timeout` wants `-t SECS` (it would run a program named "4").
  const guard = (argv: string[]) => (tools.timeout ? ['timeout', String(seconds + 1), ...argv] : argv);
  if (tools.curl) {
    const url = `http://${joinHostPort(ip, port)}/`;
    // `-v`: curl 7.8x says "Couldn't connect to server" for a refusal and an ICMP unreachable alike; only its
    // verbose `* connect to ... failed: Connection refused` line tells a closed port from a REJECT or no route.
    return [
      'curl',
      '-sS',
      '-v',
      '-g',
      '--noproxy',
      '*',
      '-o',
      '/dev/null',
      '--connect-timeout',
      s,
      '--max-time',
      String(seconds + 1),
      '-w',
      CURL_WRITE_OUT,
      url,
    ];
  }
  if (tools.wget) return ['wget', '-T', s, '-t', '1', '-O', '/dev/null', `http://${joinHostPort(ip, port)}/`];
  if (tools.nc) return ['nc', '-v', '-z', '-w', s, ip, String(port)];
  if (tools.bash) return guard(['bash', '-c', BASH_CONNECT_SCRIPT, '_', ip, String(port)]);
  return undefined;
}

/** argv of a DNS query for `name` (through resolv.conf, or against `server` when given), or undefined. */
export function dnsArgv(tools: ToolSet, name: string, server?: string): string[] | undefined {
  // nslookup gives up by itself (a few seconds); the check's own timeout is the bound beyond that.
  if (tools.nslookup) return server ? ['nslookup', name, server] : ['nslookup', name];
  // getent cannot ask a given server: it only answers for the pod's resolver.
  if (tools.getent && !server) return ['getent', 'hosts', name];
  return undefined;
}

/**
 * The endpoints in the order they are probed directly (the first `MAX_ENDPOINT_CHECKS` are): ready ones first, and
 * within each, spread over their nodes (one endpoint of every node before a second of any, nodes in the API's
 * order). A fault between nodes (a broken tunnel, a node firewall) hits every endpoint of a node, so a Service with
 * more endpoints than probes is probed on as many of its nodes as the cap allows, not on the first ones listed.
 * Addresses that do not validate and repeated ip:port pairs are left out.
 */
export function probeOrder(endpoints: readonly EndpointInfo[]): (EndpointInfo & { ip: string })[] {
  const seen = new Set<string>();
  const valid: (EndpointInfo & { ip: string })[] = [];
  for (const e of endpoints) {
    const ip = safeIp(e.ip);
    if (!ip || !isPortNumber(e.port)) continue;
    const key = joinHostPort(ip, e.port);
    if (seen.has(key)) continue;
    seen.add(key);
    valid.push({ ...e, ip });
  }
  const spread = (list: (EndpointInfo & { ip: string })[]) => {
    const byNode = new Map<string, (EndpointInfo & { ip: string })[]>();
    for (const e of list) {
      const node = e.nodeName ?? '';
      const group = byNode.get(node);
      if (group) group.push(e);
      else byNode.set(node, [e]);
    }
    const groups = [...byNode.values()];
    const out: (EndpointInfo & { ip: string })[] = [];
    for (let i = 0; out.length < list.length; i++) for (const g of groups) if (i < g.length) out.push(g[i]);
    return out;
  };
  return [...spread(valid.filter((e) => e.ready)), ...spread(valid.filter((e) => !e.ready))];
}

/** Ports the pod can probe: TCP with a connect, UDP 53 with a DNS query. Other UDP ports and SCTP get no probe. */
export function probedLikeTcp(protocol: string, port: number): boolean {
  return protocol === 'TCP' || (protocol === 'UDP' && port === 53);
}

/**
 * Whether the node's rules are read for this plan: when the pod probes the ClusterIP (their counters before and after
 * say whether the probe reached them), and when the Service port cannot be probed at all (UDP other than 53, SCTP):
 * then the trace of the pod's packet through the node's rules is the only sign that the node translates the
 * ClusterIP (stale rules, a route that bypasses a node that has them).
 */
export function wantsNodeRules(plan: readonly CheckSpec[], service: ServiceInfo, port: ServicePortSpec): boolean {
  if (plan.some((c) => c.kind === 'connect-clusterip')) return true;
  return !!safeIp(service.clusterIP) && isPortNumber(port.port) && !probedLikeTcp(port.protocol, port.port);
}

/**
 * The checks for one Service port from one pod, given the tools found: connects to the ClusterIP and to up to
 * `MAX_ENDPOINT_CHECKS` endpoints directly (ready first, spread over their nodes: `probeOrder`), the Service's DNS name, the routes the pod's kernel picks
 * for the ClusterIP and one endpoint, and the pod's addresses, links, neighbours, routes and resolv.conf.
 * TCP ports are connected to; a UDP port 53 gets a DNS query against that address (a server that answers at all,
 * even NXDOMAIN, is reachable); other UDP and SCTP ports are not checkable this way and get no connect check.
 */
export function planChecks(req: PlanRequest): CheckSpec[] {
  const { tools } = req;
  const seconds = toolSeconds(req.timeoutMs);
  const timeoutMs = specTimeout(seconds);
  const checks: CheckSpec[] = [];
  const add = (id: string, kind: CheckKind, argv: string[] | undefined, target?: string) => {
    if (argv) checks.push({ id, kind, argv, ...(target !== undefined ? { target } : {}), timeoutMs });
  };

  const clusterIP = safeIp(req.service.clusterIP);
  const port = isPortNumber(req.port.port) ? req.port.port : undefined;
  const dnsName = serviceDnsName(req.service.namespace, req.service.name, req.clusterDomain);
  const proto = req.port.protocol;
  const probe = (ip: string, p: number): string[] | undefined => {
    if (!probedLikeTcp(proto, p)) return undefined;
    if (proto === 'TCP') return connectArgv(tools, ip, p, seconds);
    return dnsName ? dnsArgv(tools, dnsName, ip) : undefined;
  };

  if (clusterIP && port !== undefined)
    add('connect-clusterip', 'connect-clusterip', probe(clusterIP, port), joinHostPort(clusterIP, port));
  const ordered = probeOrder(req.endpoints);
  for (const e of ordered.slice(0, MAX_ENDPOINT_CHECKS)) {
    const target = joinHostPort(e.ip, e.port);
    add(`connect-endpoint:${target}`, 'connect-endpoint', probe(e.ip, e.port), target);
  }
  if (dnsName) add('dns', 'dns', dnsArgv(tools, dnsName), dnsName);
  // A client in another namespace that uses the bare name gets its own namespace's answer (search list order).
  if (dnsName && req.source.namespace !== req.service.namespace)
    add('dns-short', 'dns-short', dnsArgv(tools, req.service.name), req.service.name);

  const firstEndpoint = ordered[0];
  if (tools.ip) {
    if (clusterIP) add('route-clusterip', 'route-clusterip', ['ip', 'route', 'get', clusterIP], clusterIP);
    if (firstEndpoint)
      add('route-endpoint', 'route-endpoint', ['ip', 'route', 'get', firstEndpoint.ip], firstEndpoint.ip);
    add('addresses', 'addresses', ['ip', '-o', 'addr']);
    add('links', 'links', ['ip', '-d', 'link']);
    add('neighbours', 'neighbours', ['ip', 'neigh']);
    add('routes', 'routes', ['ip', 'route']);
  } else if (tools.cat) {
    // No `ip`: the kernel's tables as files; the verdict does the route lookup itself.
    add('routes', 'routes', ['cat', '/proc/net/route']);
    add('addresses', 'addresses', ['cat', '/proc/net/fib_trie']);
  }
  if (tools.cat) add('resolv-conf', 'resolv-conf', ['cat', '/etc/resolv.conf']);
  return checks;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading results

/** What a connect check found out. `error`: the tool could not answer (missing, wrong options). */
export type ConnectOutcome = 'connected' | 'refused' | 'unreachable' | 'timeout' | 'no-connect' | 'error' | 'not-run';

/** curl exit codes that come after the TCP handshake succeeded (empty reply, TLS, receive errors, HTTP errors). */
const CURL_AFTER_CONNECT = new Set([8, 16, 18, 22, 35, 47, 51, 52, 53, 54, 55, 56, 58, 59, 60, 61, 80, 92, 95]);

export type RawResult = Omit<CheckResult, 'ok'> & { ok?: boolean };

function messageOutcome(text: string): ConnectOutcome | undefined {
  const s = text.toLowerCase();
  if (/connection refused|port unreachable/.test(s)) return 'refused';
  if (/no route to host|network is unreachable|host is unreachable|network unreachable/.test(s)) return 'unreachable';
  if (/timed out|timeout was reached|connection timeout|operation now in progress/.test(s)) return 'timeout';
  return undefined;
}

/** The tool the argv runs, past a `timeout N` wrapper. */
export function toolOf(argv: readonly string[]): string | undefined {
  return argv[0] === 'timeout' ? argv[2] : argv[0];
}

function notStarted(r: RawResult): ConnectOutcome | undefined {
  if (r.exitCode === null) {
    if (r.error === 'timeout') return 'timeout';
    return r.error === 'not-found' ? 'error' : 'not-run';
  }
  if (r.exitCode === 126 || r.exitCode === 127) return 'error';
  return undefined;
}

/** curl -v's lines that say how the connect ended; its request and response headers prove nothing here. */
const CURL_CONNECT_LINE =
  /^(?:curl: |\* (?:connect to|connected to|failed to connect|immediate connect fail|connection timed out))/i;

/**
 * Only the lines of curl's `-v` stderr that say how the connect ended: the rest is the request and the backend's
 * response headers (session cookies, internal versions), which the report and `--json` must not carry.
 */
export function curlConnectLines(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => CURL_CONNECT_LINE.test(l.trim()))
    .join('\n');
}

/** How a connect check ended, from its tool's exit code and messages. */
export function connectOutcome(r: RawResult): ConnectOutcome {
  const early = notStarted(r);
  if (early) return early;
  const tool = toolOf(r.argv);
  const code = r.exitCode as number;
  const text = `${r.stderr}\n${r.stdout}`;
  if (code === 124 && r.argv[0] === 'timeout') return 'timeout';
  switch (tool) {
    case 'curl': {
      const m = /connect=(\d+(?:\.\d+)?)/.exec(r.stdout);
      if (code === 0) return 'connected';
      if (m && Number(m[1]) > 0) return 'connected';
      if (CURL_AFTER_CONNECT.has(code)) return 'connected';
      if (code === 7) return messageOutcome(r.stderr) ?? 'no-connect';
      if (code === 28)
        return /operation timed out after \d+ milliseconds with \d+ (?:out of \d+ )?bytes received/i.test(r.stderr) &&
          !m
          ? 'connected'
          : 'timeout';
      if (code === 2 || code === 3 || code === 6) return 'error';
      return messageOutcome(r.stderr) ?? 'no-connect';
    }
    case 'wget': {
      if (code === 0) return 'connected';
      // GNU wget: "Connecting to 10.0.0.1:80... connected." then an HTTP error (exit 8); busybox: "server returned error".
      if (
        /\.\.\. connected\.|server returned error|bad header line|error getting response|HTTP\/\d|read error|no data received/i.test(
          text,
        )
      )
        return 'connected';
      if (code === 8) return 'connected';
      if (/invalid option|unrecognized option|usage:/i.test(text)) return 'error';
      return messageOutcome(text) ?? 'no-connect';
    }
    case 'nc': {
      if (code === 0) return 'connected';
      if (/invalid option|unrecognized option|usage:|illegal option/i.test(text)) return 'error';
      return messageOutcome(text) ?? 'no-connect';
    }
    case 'bash': {
      if (code === 0) return 'connected';
      return messageOutcome(text) ?? 'no-connect';
    }
    case 'nslookup': {
      // A DNS server that answers at all (an address, NXDOMAIN, SERVFAIL) was reached.
      const answered =
        /can't find|nxdomain|servfail|refused:|no answer/i.test(text) &&
        !/timed out|no servers could be reached/i.test(text);
      if (code === 0 || answered) return 'connected';
      if (/no servers could be reached|timed out/i.test(text)) return 'timeout';
      return messageOutcome(text) ?? 'no-connect';
    }
    default:
      return code === 0 ? 'connected' : 'no-connect';
  }
}

/** Addresses a DNS check resolved the name to (nslookup: the `Address` lines after `Name:`; getent: first column). */
export function resolvedAddresses(r: Pick<CheckResult, 'argv' | 'stdout' | 'exitCode'>): string[] {
  const out: string[] = [];
  const tool = toolOf(r.argv);
  const lines = r.stdout.split('\n');
  if (tool === 'getent') {
    if (r.exitCode !== 0) return out;
    for (const l of lines) {
      const ip = safeIp(l.trim().split(/\s+/)[0]);
      if (ip && !out.includes(ip)) out.push(ip);
    }
    return out;
  }
  let afterName = false;
  for (const l of lines) {
    if (/^\s*Name:/i.test(l)) {
      afterName = true;
      continue;
    }
    if (!afterName) continue;
    // `Address: 10.96.0.80`, `Address 1: 10.96.0.80 web.default...` (old busybox), `Addresses:  fd00::1`.
    const m = /^\s*Address(?:es)?(?:\s+\d+)?:\s*(\S+)/i.exec(l);
    const ip = m ? safeIp(m[1].replace(/#\d+$/, '')) : undefined;
    if (ip && !out.includes(ip)) out.push(ip);
  }
  return out;
}
