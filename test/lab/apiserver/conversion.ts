// Version conversion for EndpointSlices: stored as discovery.k8s.io/v1, served as v1beta1 by a 1.20 server.
// v1beta1 endpoints carry `topology` (hostname and zone labels); v1 has `nodeName`, `zone`, `deprecatedTopology`.
import { splitApiVersion } from './resources';
import type { KubeObject } from './types';

const hostnameKey = 'kubernetes.io/hostname';
const zoneKey = 'topology.kubernetes.io/zone';

type Endpoint = Record<string, unknown>;

function mapEndpoints(o: KubeObject, convert: (e: Endpoint) => Endpoint): KubeObject {
  const endpoints = Array.isArray(o.endpoints) ? (o.endpoints as Endpoint[]).map(convert) : o.endpoints;
  return endpoints === undefined ? { ...o } : { ...o, endpoints };
}

function endpointToV1(e: Endpoint): Endpoint {
  const { topology, ...rest } = e;
  const out: Endpoint = { ...rest };
  const remaining = { ...((topology as Record<string, string> | undefined) ?? {}) };
  if (remaining[hostnameKey] !== undefined) {
    out.nodeName ??= remaining[hostnameKey];
    delete remaining[hostnameKey];
  }
  if (remaining[zoneKey] !== undefined) {
    out.zone ??= remaining[zoneKey];
    delete remaining[zoneKey];
  }
  if (Object.keys(remaining).length) out.deprecatedTopology = remaining;
  return out;
}

function endpointToV1beta1(e: Endpoint): Endpoint {
  const { zone, deprecatedTopology, hints: _dropped, ...rest } = e;
  const topology: Record<string, string> = { ...((deprecatedTopology as Record<string, string> | undefined) ?? {}) };
  if (typeof rest.nodeName === 'string') topology[hostnameKey] = rest.nodeName;
  if (typeof zone === 'string') topology[zoneKey] = zone;
  return Object.keys(topology).length ? { ...rest, topology } : rest;
}

/** Converts an object of a supported kind to `version` of its group (a no-op for other kinds/versions). */
export function convertTo(o: KubeObject, version: string): KubeObject {
  const { group, version: from } = splitApiVersion(o.apiVersion);
  if (o.kind !== 'EndpointSlice' || from === version)
    return { ...o, apiVersion: group ? `${group}/${version}` : version };
  const apiVersion = `${group}/${version}`;
  if (version === 'v1' && from === 'v1beta1') return { ...mapEndpoints(o, endpointToV1), apiVersion };
  if (version === 'v1beta1' && from === 'v1') return { ...mapEndpoints(o, endpointToV1beta1), apiVersion };
  throw new Error(`cannot convert ${o.kind} from ${o.apiVersion} to ${version}`);
}
