// Server-side printing: meta.k8s.io Table columns and cells, as kubectl shows them for each kind.
import { humanAge } from './age';
import type { KubeObject } from './types';

interface Column {
  name: string;
  type: 'string' | 'integer' | 'date';
  format?: string;
  description: string;
  priority: number; // 0 = always shown, 1 = -o wide
  cell: (o: KubeObject) => string | number;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const strOr = (v: unknown, fallback: string): string => (typeof v === 'string' && v !== '' ? v : fallback);

const nameColumn: Column = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name of the object.',
  priority: 0,
  cell: (o) => o.metadata.name,
};
const ageColumn: Column = {
  name: 'Age',
  type: 'string',
  description: 'Time since the object was created.',
  priority: 0,
  cell: (o) => humanAge(o.metadata.creationTimestamp),
};

/** "a,b,c + N more..." after `max` entries, as kubectl abbreviates long lists. */
function abbreviated(items: string[], max: number, empty: string): string {
  if (items.length === 0) return empty;
  if (items.length <= max) return items.join(',');
  return `${items.slice(0, max).join(',')} + ${items.length - max} more...`;
}

function hostPort(ip: string, port: unknown): string {
  const host = ip.includes(':') ? `[${ip}]` : ip;
  return port === undefined ? ip : `${host}:${String(port)}`;
}

function podStatusReason(o: KubeObject): string {
  const status = obj(o.status);
  let reason = strOr(status.reason, strOr(status.phase, 'Unknown'));
  let running = false;
  for (const cs of arr(status.containerStatuses).slice().reverse()) {
    const state = obj(cs.state);
    const waiting = obj(state.waiting);
    const terminated = obj(state.terminated);
    if (typeof waiting.reason === 'string' && waiting.reason) reason = waiting.reason;
    else if (state.terminated) {
      reason = strOr(
        terminated.reason,
        terminated.signal ? `Signal:${String(terminated.signal)}` : `ExitCode:${String(terminated.exitCode ?? 0)}`,
      );
    } else if (state.running && cs.ready === true) running = true;
  }
  if (reason === 'Completed' && running) reason = 'Running';
  if (o.metadata.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

const podColumns: Column[] = [
  nameColumn,
  {
    name: 'Ready',
    type: 'string',
    description: 'Ready containers of all containers.',
    priority: 0,
    cell: (o) => {
      const total = arr(obj(o.spec).containers).length;
      const ready = arr(obj(o.status).containerStatuses).filter((c) => c.ready === true).length;
      return `${ready}/${total}`;
    },
  },
  {
    name: 'Status',
    type: 'string',
    description: 'Why the pod is in its current state.',
    priority: 0,
    cell: podStatusReason,
  },
  {
    name: 'Restarts',
    type: 'string',
    description: 'Container restarts.',
    priority: 0,
    cell: (o) =>
      String(
        arr(obj(o.status).containerStatuses).reduce(
          (n, c) => n + (typeof c.restartCount === 'number' ? c.restartCount : 0),
          0,
        ),
      ),
  },
  ageColumn,
  {
    name: 'IP',
    type: 'string',
    description: 'IP address of the pod.',
    priority: 1,
    cell: (o) => strOr(obj(o.status).podIP, '<none>'),
  },
  {
    name: 'Node',
    type: 'string',
    description: 'Node the pod runs on.',
    priority: 1,
    cell: (o) => strOr(obj(o.spec).nodeName, '<none>'),
  },
  {
    name: 'Nominated Node',
    type: 'string',
    description: 'Node nominated by preemption.',
    priority: 1,
    cell: (o) => strOr(obj(o.status).nominatedNodeName, '<none>'),
  },
  {
    name: 'Readiness Gates',
    type: 'string',
    description: 'Pod readiness gates.',
    priority: 1,
    cell: (o) => {
      const gates = arr(obj(o.spec).readinessGates);
      if (gates.length === 0) return '<none>';
      const conditions = arr(obj(o.status).conditions);
      const met = gates.filter((g) => conditions.some((c) => c.type === g.conditionType && c.status === 'True')).length;
      return `${met}/${gates.length}`;
    },
  },
];

function serviceExternalIp(o: KubeObject): string {
  const spec = obj(o.spec);
  const type = strOr(spec.type, 'ClusterIP');
  const external = arr(spec.externalIPs).map(String);
  switch (type) {
    case 'ExternalName':
      return strOr(spec.externalName, '<none>');
    case 'LoadBalancer': {
      const ingress = arr(obj(obj(o.status).loadBalancer).ingress).map((i) => strOr(i.ip, strOr(i.hostname, '')));
      const all = [...ingress.filter(Boolean), ...external];
      return all.length ? all.join(',') : '<pending>';
    }
    default:
      return external.length ? external.join(',') : '<none>';
  }
}

const serviceColumns: Column[] = [
  nameColumn,
  {
    name: 'Type',
    type: 'string',
    description: 'How the service is exposed.',
    priority: 0,
    cell: (o) => strOr(obj(o.spec).type, 'ClusterIP'),
  },
  {
    name: 'Cluster-IP',
    type: 'string',
    description: 'Virtual IP of the service.',
    priority: 0,
    cell: (o) => strOr(obj(o.spec).clusterIP, '<none>'),
  },
  {
    name: 'External-IP',
    type: 'string',
    description: 'External addresses of the service.',
    priority: 0,
    cell: serviceExternalIp,
  },
  {
    name: 'Port(s)',
    type: 'string',
    description: 'Ports the service exposes.',
    priority: 0,
    cell: (o) => {
      const ports = arr(obj(o.spec).ports).map((p) => {
        const protocol = strOr(p.protocol, 'TCP');
        return typeof p.nodePort === 'number' && p.nodePort > 0
          ? `${String(p.port)}:${p.nodePort}/${protocol}`
          : `${String(p.port)}/${protocol}`;
      });
      return ports.length ? ports.join(',') : '<none>';
    },
  },
  ageColumn,
  {
    name: 'Selector',
    type: 'string',
    description: 'Pods the service routes to.',
    priority: 1,
    cell: (o) => {
      const sel = Object.entries(obj(obj(o.spec).selector)).sort(([a], [b]) => (a < b ? -1 : 1));
      return sel.length ? sel.map(([k, v]) => `${k}=${String(v)}`).join(',') : '<none>';
    },
  },
];

const endpointsColumns: Column[] = [
  nameColumn,
  {
    name: 'Endpoints',
    type: 'string',
    description: 'Ready addresses and ports.',
    priority: 0,
    cell: (o) => {
      const items: string[] = [];
      for (const subset of arr(o.subsets)) {
        const addresses = arr(subset.addresses).map((a) => String(a.ip));
        const ports = arr(subset.ports);
        if (ports.length === 0) items.push(...addresses);
        else for (const p of ports) for (const ip of addresses) items.push(hostPort(ip, p.port));
      }
      return abbreviated(items, 3, '<none>');
    },
  },
  ageColumn,
];

function nodeStatus(o: KubeObject): string {
  const ready = arr(obj(o.status).conditions).find((c) => c.type === 'Ready');
  const base = ready?.status === 'True' ? 'Ready' : ready?.status === 'False' ? 'NotReady' : 'Unknown';
  return obj(o.spec).unschedulable === true ? `${base},SchedulingDisabled` : base;
}

function nodeAddress(o: KubeObject, type: string): string {
  return strOr(arr(obj(o.status).addresses).find((a) => a.type === type)?.address, '<none>');
}

const nodeInfo = (o: KubeObject, key: string): string => strOr(obj(obj(o.status).nodeInfo)[key], '<unknown>');

const nodeColumns: Column[] = [
  nameColumn,
  { name: 'Status', type: 'string', description: 'Readiness of the node.', priority: 0, cell: nodeStatus },
  {
    name: 'Roles',
    type: 'string',
    description: 'Roles from node-role labels.',
    priority: 0,
    cell: (o) => {
      const labels = obj(o.metadata.labels);
      const roles = Object.keys(labels)
        .filter((k) => k.startsWith('node-role.kubernetes.io/'))
        .map((k) => k.slice('node-role.kubernetes.io/'.length))
        .filter(Boolean);
      if (typeof labels['kubernetes.io/role'] === 'string') roles.push(labels['kubernetes.io/role']);
      return roles.length ? roles.sort().join(',') : '<none>';
    },
  },
  ageColumn,
  {
    name: 'Version',
    type: 'string',
    description: 'Kubelet version.',
    priority: 0,
    cell: (o) => strOr(obj(obj(o.status).nodeInfo).kubeletVersion, ''),
  },
  {
    name: 'Internal-IP',
    type: 'string',
    description: 'Internal address.',
    priority: 1,
    cell: (o) => nodeAddress(o, 'InternalIP'),
  },
  {
    name: 'External-IP',
    type: 'string',
    description: 'External address.',
    priority: 1,
    cell: (o) => nodeAddress(o, 'ExternalIP'),
  },
  {
    name: 'OS-Image',
    type: 'string',
    description: 'Operating system image.',
    priority: 1,
    cell: (o) => nodeInfo(o, 'osImage'),
  },
  {
    name: 'Kernel-Version',
    type: 'string',
    description: 'Kernel version.',
    priority: 1,
    cell: (o) => nodeInfo(o, 'kernelVersion'),
  },
  {
    name: 'Container-Runtime',
    type: 'string',
    description: 'Container runtime and version.',
    priority: 1,
    cell: (o) => nodeInfo(o, 'containerRuntimeVersion'),
  },
];

const namespaceColumns: Column[] = [
  nameColumn,
  {
    name: 'Status',
    type: 'string',
    description: 'Lifecycle phase of the namespace.',
    priority: 0,
    cell: (o) => strOr(obj(o.status).phase, 'Active'),
  },
  ageColumn,
];

const endpointSliceColumns: Column[] = [
  nameColumn,
  {
    name: 'AddressType',
    type: 'string',
    description: 'Address family of the endpoints.',
    priority: 0,
    cell: (o) => strOr(o.addressType, ''),
  },
  {
    name: 'Ports',
    type: 'string',
    description: 'Ports of the endpoints.',
    priority: 0,
    cell: (o) =>
      abbreviated(
        arr(o.ports).map((p) => (typeof p.port === 'number' ? String(p.port) : '<unset>')),
        3,
        '<unset>',
      ),
  },
  {
    name: 'Endpoints',
    type: 'string',
    description: 'Addresses of the endpoints.',
    priority: 0,
    cell: (o) =>
      abbreviated(
        arr(o.endpoints).flatMap((e) => (Array.isArray(e.addresses) ? e.addresses.map(String) : [])),
        3,
        '<unset>',
      ),
  },
  ageColumn,
];

const columnsByKind: Record<string, Column[]> = {
  Pod: podColumns,
  Service: serviceColumns,
  Endpoints: endpointsColumns,
  Node: nodeColumns,
  Namespace: namespaceColumns,
  EndpointSlice: endpointSliceColumns,
};

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function parseIncludeObject(value: string | null): IncludeObject | undefined {
  if (value === null || value === '') return 'Metadata';
  return value === 'None' || value === 'Metadata' || value === 'Object' ? value : undefined;
}

export function partialObjectMetadata(o: KubeObject, apiVersion = 'meta.k8s.io/v1'): object {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata };
}

export interface TableOptions {
  apiVersion: string; // meta.k8s.io/v1 or v1beta1
  include: IncludeObject;
  listMeta: Record<string, unknown>;
}

export function toTable(kind: string, objects: KubeObject[], opts: TableOptions): object {
  const columns = columnsByKind[kind] ?? [nameColumn, ageColumn];
  return {
    kind: 'Table',
    apiVersion: opts.apiVersion,
    metadata: opts.listMeta,
    columnDefinitions: columns.map(({ name, type, format, description, priority }) => ({
      name,
      type,
      format: format ?? '',
      description,
      priority,
    })),
    rows: objects.map((o) => {
      const row: Record<string, unknown> = { cells: columns.map((c) => c.cell(o)) };
      if (opts.include === 'Object') row.object = o;
      else if (opts.include === 'Metadata') row.object = partialObjectMetadata(o);
      return row;
    }),
  };
}
