// GET on resources: get by name, list (selectors, limit/continue) and watch.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './http';
import { objectFormat } from './media';
import { contentTypeOf, presentList, presentOne, type Presentation } from './present';
import type { ResourcePath } from './routes';
import type { ResourceType } from './resources';
import {
  checkFieldsSupported,
  matchesSelection,
  parseFieldSelector,
  parseLabelSelector,
  SelectorError,
  type Selection,
} from './selectors';
import { errors } from './status';
import type { ObjectStore } from './store';
import { parseIncludeObject } from './tables';
import type { KubeObject } from './types';
import { serveWatch, type WatchHost } from './watch';

function isTrue(v: string | null): boolean {
  return v === 'true' || v === '1';
}

function parseSelection(type: ResourceType, query: URLSearchParams, name: string | undefined): Selection {
  try {
    const fields = parseFieldSelector(query.get('fieldSelector') ?? '');
    checkFieldsSupported(type.kind, fields);
    if (name !== undefined) fields.push({ field: 'metadata.name', op: '=', value: name });
    return { labels: parseLabelSelector(query.get('labelSelector') ?? ''), fields };
  } catch (e) {
    if (e instanceof SelectorError) throw errors.badRequest(e.message);
    throw e;
  }
}

function presentationFor(
  req: IncomingMessage,
  type: ResourceType,
  version: string,
  query: URLSearchParams,
): Presentation {
  const format = objectFormat(req.headers.accept);
  if (!format) {
    throw errors.notAcceptable(
      `only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io`,
    );
  }
  const include = parseIncludeObject(query.get('includeObject'));
  if (!include)
    throw errors.badRequest(
      `includeObject: unsupported value "${query.get('includeObject')}" (None, Metadata, Object)`,
    );
  return { type, version, format, include };
}

interface ContinueToken {
  after: string; // namespace/name of the last item sent
  rv: number;
}

function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'kpp-lab/1', ...t })).toString('base64url');
}

function decodeContinue(token: string): ContinueToken {
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      v?: string;
      after?: unknown;
      rv?: unknown;
    };
    if (t.v === 'kpp-lab/1' && typeof t.after === 'string' && typeof t.rv === 'number')
      return { after: t.after, rv: t.rv };
  } catch {
    // fall through to the error below
  }
  throw errors.badRequest(`continue key is not valid: "${token}"`);
}

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function paginate(
  objects: KubeObject[],
  query: URLSearchParams,
  currentRv: number,
  selectorsUsed: boolean,
): { items: KubeObject[]; meta: Record<string, unknown> } {
  const token = query.get('continue');
  let rv = currentRv;
  let items = objects;
  if (token) {
    const t = decodeContinue(token);
    rv = t.rv;
    items = items.filter((o) => keyOf(o) > t.after);
  }
  const limitText = query.get('limit');
  const limit = limitText ? Number(limitText) : 0;
  if (limitText && (!Number.isInteger(limit) || limit < 0))
    throw errors.badRequest(`limit: invalid value "${limitText}"`);
  const meta: Record<string, unknown> = { resourceVersion: String(rv) };
  if (limit > 0 && items.length > limit) {
    const page = items.slice(0, limit);
    meta.continue = encodeContinue({ after: keyOf(page[page.length - 1]), rv });
    if (!selectorsUsed) meta.remainingItemCount = items.length - limit;
    items = page;
  }
  return { items, meta };
}

export function serveRead(
  host: WatchHost & { store: ObjectStore },
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  path: ResourcePath,
  query: URLSearchParams,
): void {
  const { store } = host;
  const presentation = presentationFor(req, type, path.version, query);
  const watching = path.watchPrefix || isTrue(query.get('watch'));
  const selection = parseSelection(type, query, watching ? path.name : undefined);

  if (watching) {
    const rvText = query.get('resourceVersion') ?? undefined;
    if (rvText && rvText !== '0' && !/^\d+$/.test(rvText))
      throw errors.badRequest(`resourceVersion: invalid value "${rvText}"`);
    const timeoutText = query.get('timeoutSeconds');
    serveWatch(
      host,
      {
        presentation,
        namespace: path.namespace,
        selection,
        resourceVersion: rvText,
        timeoutSeconds: timeoutText ? Number(timeoutText) : undefined,
        sendInitialEvents: isTrue(query.get('sendInitialEvents')),
        allowBookmarks: isTrue(query.get('allowWatchBookmarks')),
      },
      req,
      res,
    );
    return;
  }

  if (path.name !== undefined) {
    const o = store.get(type, path.namespace, path.name);
    if (!o) throw errors.notFound(type.plural, type.group, path.name);
    sendJson(res, 200, presentOne(presentation, o, String(store.resourceVersion)), contentTypeOf(presentation.format));
    return;
  }

  // Filter and page the stored objects in place; copy only what is sent.
  const matching = store.listShared(type, path.namespace).filter((o) => matchesSelection(selection, o));
  const selectorsUsed = selection.labels.length > 0 || selection.fields.length > 0;
  const { items, meta } = paginate(matching, query, store.resourceVersion, selectorsUsed);
  sendJson(
    res,
    200,
    presentList(
      presentation,
      items.map((o) => structuredClone(o)),
      meta,
    ),
    contentTypeOf(presentation.format),
  );
}
