// Discovery documents: the legacy per-group documents and aggregated discovery (apidiscovery.k8s.io).
import { groupVersionOf, resourcesIn, servedGroups, servedSubresources, type ResourceType } from './resources';
import type { ServerMode } from './types';

export function apiVersionsDoc(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupDoc(group: string, versions: string[]): object {
  const entries = versions.map((version) => ({ groupVersion: groupVersionOf(group, version), version }));
  return { name: group, versions: entries, preferredVersion: entries[0] };
}

export function apiGroupListDoc(mode: ServerMode): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: servedGroups(mode)
      .filter((g) => g.group !== '')
      .map((g) => groupDoc(g.group, g.versions)),
  };
}

/** `/apis/<group>`, or undefined when the group is not served. */
export function apiGroupDoc(mode: ServerMode, group: string): object | undefined {
  const found = servedGroups(mode).find((g) => g.group === group && group !== '');
  return found && { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(found.group, found.versions) };
}

function legacyResourceEntries(mode: ServerMode, type: ResourceType): object[] {
  const main = {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
    ...(type.categories.length ? { categories: type.categories } : {}),
  };
  const subs = servedSubresources(mode, type).map((s) => ({
    name: `${type.plural}/${s.name}`,
    singularName: '',
    namespaced: type.namespaced,
    kind: s.kind,
    verbs: s.verbs,
  }));
  return [main, ...subs];
}

/** `/api/v1` or `/apis/<group>/<version>`, or undefined when not served. */
export function apiResourceListDoc(mode: ServerMode, group: string, version: string): object | undefined {
  const types = resourcesIn(mode, group, version);
  if (types.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupVersionOf(group, version),
    resources: types.flatMap((t) => legacyResourceEntries(mode, t)),
  };
}

function aggregatedResource(mode: ServerMode, type: ResourceType, version: string): object {
  const responseKind = { group: type.group, version, kind: type.kind };
  const subresources = servedSubresources(mode, type).map((s) => ({
    subresource: s.name,
    responseKind: { group: type.group, version, kind: s.kind },
    verbs: s.verbs,
  }));
  return {
    resource: type.plural,
    responseKind,
    scope: type.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: type.singular,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
    ...(type.categories.length ? { categories: type.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}

/**
 * APIGroupDiscoveryList for `/api` (core only) or `/apis` (named groups).
 * `discoveryVersion` is the apidiscovery.k8s.io version the client asked for (v2 or v2beta1).
 */
export function aggregatedDiscoveryDoc(mode: ServerMode, which: 'api' | 'apis', discoveryVersion: string): object {
  const groups = servedGroups(mode).filter((g) => (which === 'api' ? g.group === '' : g.group !== ''));
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${discoveryVersion}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: g.group ? { name: g.group } : {},
      versions: g.versions.map((version) => ({
        version,
        resources: resourcesIn(mode, g.group, version).map((t) => aggregatedResource(mode, t, version)),
        freshness: 'Current',
      })),
    })),
  };
}
