// A minimal OpenAPI v3 index: just enough for kubectl's field-validation probe, so `kubectl create -f` works
// without `--validate=false`. kubectl looks for a PATCH operation tagged with the object's
// x-kubernetes-group-version-kind that accepts the `fieldValidation` query parameter; finding it, kubectl leaves
// validation to the server and needs no schemas. (OpenAPI v3 did not exist in 1.20: legacy mode answers 404.)
import { createHash } from 'node:crypto';
import { resourcesIn, servedGroups } from './resources';
import type { ServerMode } from './types';

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

function gvDocument(mode: ServerMode, group: string, version: string): object {
  const paths: Record<string, object> = {};
  for (const type of resourcesIn(mode, group, version)) {
    const base = `/${gvPath(group, version)}${type.namespaced ? '/namespaces/{namespace}' : ''}/${type.plural}/{name}`;
    paths[base] = {
      patch: {
        'x-kubernetes-group-version-kind': { group, version, kind: type.kind },
        parameters: [{ name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } }],
      },
    };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes (kpp lab)', version: 'v1.31.0' }, paths };
}

function hashOf(doc: object): string {
  return createHash('sha256').update(JSON.stringify(doc)).digest('hex').slice(0, 32).toUpperCase();
}

/** The document for `/openapi/v3` or `/openapi/v3/<gv path>`, or undefined (404). */
export function openApiV3(mode: ServerMode, pathname: string): object | undefined {
  if (mode === 'legacy-1.20') return undefined;
  const docs = new Map<string, object>();
  for (const g of servedGroups(mode))
    for (const v of g.versions) docs.set(gvPath(g.group, v), gvDocument(mode, g.group, v));
  if (pathname === '/openapi/v3') {
    const paths: Record<string, object> = {};
    for (const [p, doc] of docs) paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${hashOf(doc)}` };
    return { paths };
  }
  const wanted = pathname.replace(/^\/openapi\/v3\//, '');
  return docs.get(wanted);
}
