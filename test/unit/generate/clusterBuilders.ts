/** Small builders for Kubernetes JSON in generator tests (written for these tests, shaped like kubectl output). */

export type Json = Record<string, unknown>;

export function service(namespace: string, name: string, spec: Json, status?: Json): Json {
  const svc: Json = { apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec };
  if (status) svc.status = status;
  return svc;
}

export interface SliceEndpoint {
  ip: string;
  nodeName?: string;
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export function slice(
  namespace: string,
  serviceName: string,
  endpoints: SliceEndpoint[],
  ports: Json[],
  addressType = 'IPv4',
): Json {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      namespace,
      name: `${serviceName}-${endpoints.length}x${ports.length}`,
      labels: { 'kubernetes.io/service-name': serviceName },
    },
    addressType,
    endpoints: endpoints.map((e) => {
      const ep: Json = { addresses: [e.ip] };
      if (e.ready !== undefined || e.serving !== undefined || e.terminating !== undefined) {
        ep.conditions = {
          ready: e.ready ?? true,
          serving: e.serving ?? e.ready ?? true,
          terminating: e.terminating ?? false,
        };
      }
      if (e.nodeName) ep.nodeName = e.nodeName;
      return ep;
    }),
    ports,
  };
}

export function list(...items: Json[]): Json {
  return { apiVersion: 'v1', kind: 'List', items };
}

export function tcp(name: string, port: number, extra: Json = {}): Json {
  return { name, port, protocol: 'TCP', ...extra };
}

/** `n` ready endpoints 10.1.<block>.1.. on port 8080. */
export function endpoints(n: number, block = 0, nodeName?: string): SliceEndpoint[] {
  return Array.from({ length: n }, (_, i) => ({ ip: `10.1.${block}.${i + 1}`, nodeName }));
}

/** Rule lines (`-A ...`) of one chain, in order; KUBE-SERVICES and KUBE-NODEPORTS exist in both tables, so give one. */
export function chainRules(text: string, chain: string, table?: 'filter' | 'nat'): string[] {
  const lines = table ? tableLines(text, table) : text.split('\n');
  return lines.filter((l) => l.startsWith(`-A ${chain} `) || l === `-A ${chain}`);
}

/** Lines of one table (`*name` .. `COMMIT`), without the header and COMMIT. */
export function tableLines(text: string, table: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(`*${table}`);
  if (start < 0) return [];
  const end = lines.indexOf('COMMIT', start);
  return lines.slice(start + 1, end);
}

export function declaredChains(text: string, table: string): string[] {
  return tableLines(text, table)
    .filter((l) => l.startsWith(':'))
    .map((l) => l.slice(1).split(' ')[0]);
}
