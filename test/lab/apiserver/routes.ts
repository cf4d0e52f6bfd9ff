// URL paths of the Kubernetes API, parsed into what was asked for.

export interface ResourcePath {
  group: string;
  version: string;
  plural: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** The deprecated `/watch/` path prefix. */
  watchPrefix: boolean;
}

export type Route =
  | { kind: 'version' }
  | { kind: 'health' }
  | { kind: 'lab-faults' }
  | { kind: 'openapi-v3'; pathname: string }
  | { kind: 'discovery-root'; which: 'api' | 'apis' }
  | { kind: 'discovery-group'; group: string }
  | { kind: 'discovery-resources'; group: string; version: string }
  | { kind: 'resource'; path: ResourcePath }
  | { kind: 'unknown' };

const healthPaths = new Set(['/healthz', '/livez', '/readyz']);

function resourcePath(group: string, version: string, rest: string[]): Route {
  let watchPrefix = false;
  if (rest[0] === 'watch') {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  if (rest.length === 0) return { kind: 'unknown' };
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    if (rest.length > 5) return { kind: 'unknown' };
    const [, namespace, plural, name, subresource] = rest;
    return { kind: 'resource', path: { group, version, plural, namespace, name, subresource, watchPrefix } };
  }
  if (rest.length > 3) return { kind: 'unknown' };
  const [plural, name, subresource] = rest;
  return { kind: 'resource', path: { group, version, plural, name, subresource, watchPrefix } };
}

export function parseRoute(pathname: string): Route {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (trimmed === '/version') return { kind: 'version' };
  if (healthPaths.has(trimmed) || /^\/(healthz|livez|readyz)\/[\w-]+$/.test(trimmed)) return { kind: 'health' };
  if (trimmed === '/lab/faults') return { kind: 'lab-faults' };
  if (trimmed === '/openapi/v3' || trimmed.startsWith('/openapi/v3/')) return { kind: 'openapi-v3', pathname: trimmed };
  let segments: string[];
  try {
    segments = trimmed.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return { kind: 'unknown' };
  }
  if (segments.some((s) => s === '')) return { kind: 'unknown' };
  if (segments[0] === 'api') {
    if (segments.length === 1) return { kind: 'discovery-root', which: 'api' };
    if (segments.length === 2) return { kind: 'discovery-resources', group: '', version: segments[1] };
    return resourcePath('', segments[1], segments.slice(2));
  }
  if (segments[0] === 'apis') {
    if (segments.length === 1) return { kind: 'discovery-root', which: 'apis' };
    if (segments.length === 2) return { kind: 'discovery-group', group: segments[1] };
    if (segments.length === 3) return { kind: 'discovery-resources', group: segments[1], version: segments[2] };
    return resourcePath(segments[1], segments[2], segments.slice(3));
  }
  return { kind: 'unknown' };
}
