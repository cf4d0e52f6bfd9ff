// How stored objects are shown to a client: in the version it asked for, as an object, Table or metadata only.
import { convertTo } from './conversion';
import type { ObjectFormat } from './media';
import { groupVersionOf, type ResourceType } from './resources';
import { partialObjectMetadata, toTable, type IncludeObject } from './tables';
import type { KubeObject } from './types';

export interface Presentation {
  type: ResourceType;
  version: string;
  format: ObjectFormat;
  include: IncludeObject;
}

export function inVersion(p: Presentation, o: KubeObject): KubeObject {
  return { ...convertTo(o, p.version), apiVersion: groupVersionOf(p.type.group, p.version), kind: p.type.kind };
}

export function contentTypeOf(format: ObjectFormat): string {
  switch (format.as) {
    case 'object':
      return 'application/json';
    case 'Table': {
      const v = format.apiVersion.split('/')[1];
      return `application/json;as=Table;v=${v};g=meta.k8s.io`;
    }
    case 'PartialObjectMetadata': {
      const v = format.apiVersion.split('/')[1];
      return `application/json;as=PartialObjectMetadata;v=${v};g=meta.k8s.io`;
    }
  }
}

/** One object (a GET by name, or a watch event's object). */
export function presentOne(p: Presentation, o: KubeObject, resourceVersion: string): object {
  const versioned = inVersion(p, o);
  switch (p.format.as) {
    case 'object':
      return versioned;
    case 'Table':
      return toTable(p.type.kind, [versioned], {
        apiVersion: p.format.apiVersion,
        include: p.include,
        listMeta: { resourceVersion },
      });
    case 'PartialObjectMetadata':
      return partialObjectMetadata(versioned, p.format.apiVersion);
  }
}

/** A list. Items of a typed list carry no kind/apiVersion on the wire, as with a real server. */
export function presentList(p: Presentation, objects: KubeObject[], listMeta: Record<string, unknown>): object {
  const versioned = objects.map((o) => inVersion(p, o));
  switch (p.format.as) {
    case 'object':
      return {
        kind: `${p.type.kind}List`,
        apiVersion: groupVersionOf(p.type.group, p.version),
        metadata: listMeta,
        items: versioned.map(({ kind: _k, apiVersion: _a, ...rest }) => rest),
      };
    case 'Table':
      return toTable(p.type.kind, versioned, { apiVersion: p.format.apiVersion, include: p.include, listMeta });
    case 'PartialObjectMetadata':
      return {
        kind: 'PartialObjectMetadataList',
        apiVersion: p.format.apiVersion,
        metadata: listMeta,
        items: versioned.map((o) =>
          partialObjectMetadata(o, p.format.as === 'PartialObjectMetadata' ? p.format.apiVersion : undefined),
        ),
      };
  }
}
