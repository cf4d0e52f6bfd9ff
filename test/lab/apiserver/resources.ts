// The resource types the lab serves, per server mode. Verbs list only what the lab implements.
import type { ServerMode } from './types';

export interface Subresource {
  name: string;
  kind: string;
  verbs: string[];
  /** Modes that serve it; all when absent. */
  modes?: ServerMode[];
}

export interface ResourceType {
  group: string; // '' = core
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  subresources: Subresource[];
  /** The version objects are kept in. */
  storageVersion: string;
  servedVersions: Record<ServerMode, string[]>;
}

const readVerbs = ['get', 'list', 'watch'];
const coreV1 = { current: ['v1'], 'legacy-1.20': ['v1'] };

export const resourceTypes: readonly ResourceType[] = [
  {
    group: '',
    plural: 'namespaces',
    singular: 'namespace',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    categories: [],
    verbs: readVerbs,
    subresources: [],
    storageVersion: 'v1',
    servedVersions: coreV1,
  },
  {
    group: '',
    plural: 'nodes',
    singular: 'node',
    kind: 'Node',
    namespaced: false,
    shortNames: ['no'],
    categories: [],
    verbs: readVerbs,
    subresources: [],
    storageVersion: 'v1',
    servedVersions: coreV1,
  },
  {
    group: '',
    plural: 'pods',
    singular: 'pod',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    verbs: ['create', 'delete', 'get', 'list', 'watch'],
    subresources: [
      { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] },
      { name: 'log', kind: 'Pod', verbs: ['get'] },
      // Off by default in 1.20 (alpha feature gate), so a 1.20 cluster does not serve it.
      { name: 'ephemeralcontainers', kind: 'Pod', verbs: ['get', 'patch', 'update'], modes: ['current'] },
    ],
    storageVersion: 'v1',
    servedVersions: coreV1,
  },
  {
    group: '',
    plural: 'services',
    singular: 'service',
    kind: 'Service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    verbs: readVerbs,
    subresources: [],
    storageVersion: 'v1',
    servedVersions: coreV1,
  },
  {
    group: '',
    plural: 'endpoints',
    singular: 'endpoints',
    kind: 'Endpoints',
    namespaced: true,
    shortNames: ['ep'],
    categories: [],
    verbs: readVerbs,
    subresources: [],
    storageVersion: 'v1',
    servedVersions: coreV1,
  },
  {
    group: 'discovery.k8s.io',
    plural: 'endpointslices',
    singular: 'endpointslice',
    kind: 'EndpointSlice',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: readVerbs,
    subresources: [],
    storageVersion: 'v1',
    // 1.20 served only v1beta1; v1beta1 was removed in 1.25.
    servedVersions: { current: ['v1'], 'legacy-1.20': ['v1beta1'] },
  },
  {
    // `kubectl auth can-i`: asks whether the caller may do something (never stored).
    group: 'authorization.k8s.io',
    plural: 'selfsubjectaccessreviews',
    singular: 'selfsubjectaccessreview',
    kind: 'SelfSubjectAccessReview',
    namespaced: false,
    shortNames: [],
    categories: [],
    verbs: ['create'],
    subresources: [],
    storageVersion: 'v1',
    servedVersions: coreV1,
  },
];

export function groupVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** By kind ("Pod") or plural ("pods"), case-insensitive. */
export function resourceTypeFor(kindOrPlural: string): ResourceType | undefined {
  const wanted = kindOrPlural.toLowerCase();
  return resourceTypes.find((r) => r.kind.toLowerCase() === wanted || r.plural === wanted);
}

/** The type served at group/version/plural in this mode, if any. */
export function servedResource(
  mode: ServerMode,
  group: string,
  version: string,
  plural: string,
): ResourceType | undefined {
  return resourceTypes.find(
    (r) => r.group === group && r.plural === plural && r.servedVersions[mode].includes(version),
  );
}

export function servedSubresources(mode: ServerMode, type: ResourceType): Subresource[] {
  return type.subresources.filter((s) => !s.modes || s.modes.includes(mode));
}

export interface GroupVersions {
  group: string;
  versions: string[];
}

/** Groups with their served versions (preferred first), core group first. */
export function servedGroups(mode: ServerMode): GroupVersions[] {
  const groups: GroupVersions[] = [];
  for (const type of resourceTypes) {
    let entry = groups.find((g) => g.group === type.group);
    if (!entry) {
      entry = { group: type.group, versions: [] };
      groups.push(entry);
    }
    for (const v of type.servedVersions[mode]) if (!entry.versions.includes(v)) entry.versions.push(v);
  }
  return groups;
}

export function resourcesIn(mode: ServerMode, group: string, version: string): ResourceType[] {
  return resourceTypes.filter((r) => r.group === group && r.servedVersions[mode].includes(version));
}
