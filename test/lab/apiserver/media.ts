// Accept / Content-Type negotiation. The lab speaks JSON only, in the shapes kubectl asks for.
import type { ServerMode } from './types';

interface MediaRange {
  type: string; // "application/json"
  params: Record<string, string>;
  q: number;
}

function parseMediaRange(text: string): MediaRange {
  const [type, ...rest] = text.split(';').map((s) => s.trim());
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq > 0)
      params[p.slice(0, eq).trim().toLowerCase()] = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
  }
  const q = params.q === undefined ? 1 : Number(params.q);
  return { type: (type ?? '').toLowerCase(), params, q: Number.isFinite(q) ? q : 0 };
}

/** Media ranges, most preferred first (stable for equal q). */
function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || !header.trim()) return [{ type: '*/*', params: {}, q: 1 }];
  return header
    .split(',')
    .map((part) => parseMediaRange(part))
    .filter((r) => r.type && r.q > 0)
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.q - a.r.q || a.i - b.i)
    .map((x) => x.r);
}

function isPlainJson(r: MediaRange): boolean {
  return (r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*') && r.params.as === undefined;
}

export type DiscoveryFormat =
  { aggregated: false } | { aggregated: true; version: 'v2' | 'v2beta1'; contentType: string };

/** Aggregated discovery exists since 1.26; a 1.20 server answers the legacy document. */
export function discoveryFormat(accept: string | undefined, mode: ServerMode): DiscoveryFormat {
  for (const r of parseAccept(accept)) {
    const v = r.params.v;
    const asAggregated =
      r.type === 'application/json' &&
      r.params.g === 'apidiscovery.k8s.io' &&
      r.params.as === 'APIGroupDiscoveryList' &&
      (v === 'v2' || v === 'v2beta1');
    if (asAggregated && mode === 'current') {
      return {
        aggregated: true,
        version: v,
        contentType: `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`,
      };
    }
    if (isPlainJson(r)) return { aggregated: false };
  }
  return { aggregated: false };
}

export type ObjectFormat =
  { as: 'object' } | { as: 'Table'; apiVersion: string } | { as: 'PartialObjectMetadata'; apiVersion: string };

/** What shape to answer a read in, or undefined when the client accepts nothing the lab can produce. */
export function objectFormat(accept: string | undefined): ObjectFormat | undefined {
  for (const r of parseAccept(accept)) {
    if (isPlainJson(r)) return { as: 'object' };
    if (r.type !== 'application/json' || r.params.g !== 'meta.k8s.io') continue;
    const v = r.params.v;
    if (v !== 'v1' && v !== 'v1beta1') continue;
    if (r.params.as === 'Table') return { as: 'Table', apiVersion: `meta.k8s.io/${v}` };
    if (r.params.as === 'PartialObjectMetadata' || r.params.as === 'PartialObjectMetadataList') {
      return { as: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${v}` };
    }
  }
  return undefined;
}

export type BodyFormat = 'json' | 'merge-patch' | 'strategic-merge-patch' | 'json-patch';

/** The body format of a write, or undefined when the lab cannot read it (protobuf, YAML, apply patches). */
export function bodyFormat(contentType: string | undefined): BodyFormat | undefined {
  const type = parseMediaRange(contentType ?? 'application/json').type;
  switch (type) {
    case 'application/json':
      return 'json';
    case 'application/merge-patch+json':
      return 'merge-patch';
    case 'application/strategic-merge-patch+json':
      return 'strategic-merge-patch';
    case 'application/json-patch+json':
      return 'json-patch';
    default:
      return undefined;
  }
}
