/**
 * Errors of the cluster half in words a person can act on: what failed, why, and what to do next. The message
 * never carries a token, a certificate or a request dump; `hint` is the next step. Both are catalog texts
 * (`cluster.error.*`, `cluster.hint.*`, English and Chinese): `message` and `hint` are the English ones (logs, tests,
 * `--json`), `messageIn(lang)` / `hintIn(lang)` / `oneLine(lang)` what a person reads.
 */
import { t, type Lang } from '../core/i18n/catalog';

/**
 * A catalog text and what fills its placeholders. A parameter may itself be a catalog text or a ClusterError (a
 * cause inside a sentence): it is written in the same language. Other text (the API's or the OS's own message,
 * names, addresses) goes in as it came.
 */
export interface CatalogText {
  key: string;
  params?: Record<string, TextParam>;
}
export type TextParam = string | number | CatalogText | ClusterError;

function isCatalogText(v: unknown): v is CatalogText {
  return typeof v === 'object' && v !== null && !(v instanceof Error) && typeof (v as CatalogText).key === 'string';
}

/** A catalog text in `lang`; a plain string is returned as it is. */
export function textIn(lang: Lang, text: string | CatalogText): string {
  if (typeof text === 'string') return text;
  if (!text.params) return t(lang, text.key);
  const params: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(text.params))
    params[k] = v instanceof ClusterError ? v.messageIn(lang) : isCatalogText(v) ? textIn(lang, v) : v;
  return t(lang, text.key, params);
}

/** Shorthand for a text of this module's catalog: `cluster.error.<name>` and, for hints, `cluster.hint.<name>`. */
export function errorText(name: string, params?: Record<string, TextParam>): CatalogText {
  return params ? { key: `cluster.error.${name}`, params } : { key: `cluster.error.${name}` };
}
export function hintText(name: string, params?: Record<string, TextParam>): CatalogText {
  return params ? { key: `cluster.hint.${name}`, params } : { key: `cluster.hint.${name}` };
}

export type ClusterErrorCode =
  /** The kubeconfig could not be read, or names no usable context. */
  | 'kubeconfig'
  /** TCP/DNS failure: nothing answered at the server address. */
  | 'unreachable'
  /** The server's certificate (or ours) was refused. */
  | 'tls'
  /** 401: the credentials were refused or have expired. */
  | 'unauthorized'
  /** 403 on a read or write. */
  | 'forbidden'
  /** 403 on pods/exec. */
  | 'exec-forbidden'
  | 'not-found'
  /** The call did not finish in its time. */
  | 'timeout'
  /** The caller cancelled (AbortSignal). */
  | 'cancelled'
  /** A name, IP or port from the cluster or the command line is not valid (never sent to a shell or the API). */
  | 'invalid-name'
  /** The person did not confirm a change to the cluster (debug pod / ephemeral container). */
  | 'not-confirmed'
  /** Any other answer of the API (4xx/5xx with its own message). */
  | 'api';

export class ClusterError extends Error {
  readonly code: ClusterErrorCode;
  /** What to do next. */
  readonly hint: string;
  /** The HTTP status when the API answered. */
  readonly status?: number;
  /** `reason` of the API's v1.Status (`Forbidden`, `NotFound`, ...). */
  readonly reason?: string;
  /** The API's own message (v1.Status `message`), when it sent one. */
  readonly detail?: string;

  /** The message and hint as catalog texts; a plain string (a message from elsewhere) reads the same in any language. */
  private readonly texts: { message: string | CatalogText; hint: string | CatalogText };

  constructor(
    code: ClusterErrorCode,
    message: string | CatalogText,
    hint: string | CatalogText = '',
    extra: { status?: number; reason?: string; detail?: string } = {},
  ) {
    super(textIn('en', message));
    this.name = 'ClusterError';
    this.code = code;
    this.hint = textIn('en', hint);
    this.texts = { message, hint };
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.reason !== undefined) this.reason = extra.reason;
    if (extra.detail !== undefined) this.detail = extra.detail;
  }

  messageIn(lang: Lang): string {
    return textIn(lang, this.texts.message);
  }

  hintIn(lang: Lang): string {
    return textIn(lang, this.texts.hint);
  }

  /** One line: the message and, when there is one, the hint. */
  oneLine(lang: Lang = 'en'): string {
    const message = this.messageIn(lang);
    const hint = this.hintIn(lang);
    return hint ? t(lang, 'cluster.error.with-hint', { message, hint }) : message;
  }
}

export function isClusterError(e: unknown): e is ClusterError {
  return e instanceof ClusterError;
}

/** What the request was about, for the sentence: `list services in kube-system`, `exec into default/client`. */
export interface RequestWhat {
  verb: string;
  resource: string;
  namespace?: string;
  name?: string;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EADDRNOTAVAIL',
]);

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_NOT_YET_VALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/** A transport failure (no HTTP answer) in words. `server` is the API URL (no credentials in it). */
export function transportError(e: unknown, server: string): ClusterError {
  if (isClusterError(e)) return e;
  const err = e as NodeJS.ErrnoException & { reason?: string };
  const code = err?.code ?? '';
  const text = err?.message ?? String(e);
  if (err?.name === 'AbortError' || code === 'ABORT_ERR') return cancelledError();
  if (TLS_CODES.has(code) || /certificate|SSL|TLS/i.test(text)) {
    return new ClusterError('tls', errorText('tls', { server, text }), hintText('tls'));
  }
  if (NETWORK_CODES.has(code) || /connect|socket hang up/i.test(text)) {
    const detail = (text.startsWith('connect ') ? text : `${code ? `${code} ` : ''}${text}`).replace(/\s+/g, ' ');
    return new ClusterError('unreachable', errorText('unreachable', { detail }), hintText('unreachable', { server }));
  }
  return new ClusterError(
    'unreachable',
    errorText('unreachable', { detail: text }),
    hintText('unreachable.address', { server }),
  );
}

/** The API's own message from a v1.Status body, when it sent one. */
export function statusMessage(body: string): { message?: string; reason?: string } {
  try {
    const s = JSON.parse(body) as { kind?: string; message?: unknown; reason?: unknown };
    if (s && typeof s === 'object') {
      return {
        ...(typeof s.message === 'string' ? { message: s.message } : {}),
        ...(typeof s.reason === 'string' ? { reason: s.reason } : {}),
      };
    }
  } catch {
    // not JSON
  }
  return {};
}

/** ` in NS` (or its translation) after a request's target; nothing without a namespace. */
function inNamespace(what: RequestWhat): TextParam {
  return what.namespace ? errorText('scope.namespace', { namespace: what.namespace }) : '';
}

/** `NS/NAME`, or NAME alone. */
function nsName(what: RequestWhat): string {
  return `${what.namespace ? `${what.namespace}/` : ''}${what.name ?? ''}`;
}

/** An HTTP answer that is not 2xx, in words. */
export function httpError(status: number, body: string, what: RequestWhat, user?: string): ClusterError {
  const { message, reason } = statusMessage(body);
  const text = message ?? (body.trim().split('\n')[0]?.slice(0, 200) || `HTTP ${status}`);
  const extra = { status, ...(reason ? { reason } : {}), ...(message ? { detail: message } : {}) };
  const scope: TextParam = what.namespace ? inNamespace(what) : what.name ? '' : errorText('scope.cluster');
  const target = what.name ? `${what.resource} ${what.name}` : what.resource;
  const request = { verb: what.verb, target, scope };
  switch (status) {
    case 401:
      return new ClusterError(
        'unauthorized',
        user ? errorText('unauthorized.user', { user }) : errorText('unauthorized'),
        hintText('unauthorized'),
        extra,
      );
    case 403:
      if (what.resource === 'pods/exec') {
        return new ClusterError(
          'exec-forbidden',
          errorText('exec-forbidden', { scope, text }),
          hintText('exec-forbidden'),
          extra,
        );
      }
      return new ClusterError('forbidden', errorText('forbidden', request), hintText('api-said', { text }), extra);
    case 404:
      if (what.resource === 'pods/exec') {
        return new ClusterError(
          'not-found',
          errorText('exec-pod-not-found', { pod: nsName(what) }),
          hintText('exec-pod-not-found'),
          extra,
        );
      }
      return what.name
        ? new ClusterError(
            'not-found',
            errorText('object-not-found', { kind: what.resource.replace(/s$/, ''), object: nsName(what) }),
            hintText('object-not-found'),
            extra,
          )
        : new ClusterError(
            'not-found',
            errorText('resource-not-served', { resource: what.resource }),
            hintText('resource-not-served'),
            extra,
          );
    case 408:
    case 504:
      return new ClusterError(
        'timeout',
        errorText('api-timeout', { status, ...request }),
        hintText('api-timeout'),
        extra,
      );
    default:
      if (what.resource === 'pods/exec') {
        return new ClusterError(
          'api',
          errorText('exec-failed', { status, pod: nsName(what), text }),
          status === 400 ? hintText('exec-failed.400') : '',
          extra,
        );
      }
      return new ClusterError(
        'api',
        errorText('request-failed', { status, ...request, text }),
        status >= 500 ? hintText('server-error') : '',
        extra,
      );
  }
}

export function timeoutError(what: RequestWhat, ms: number): ClusterError {
  const target = what.name ? `${what.resource} ${what.name}` : what.resource;
  return new ClusterError(
    'timeout',
    errorText('timed-out', {
      seconds: (ms / 1000).toFixed(ms % 1000 ? 1 : 0),
      verb: what.verb,
      target,
      scope: inNamespace(what),
    }),
    hintText('timed-out'),
  );
}

export function answerTooLargeError(what: RequestWhat): ClusterError {
  const target = what.name ? `${what.resource} ${what.name}` : what.resource;
  return new ClusterError(
    'api',
    errorText('answer-too-large', { verb: what.verb, target, scope: inNamespace(what) }),
    hintText('answer-too-large'),
  );
}

/** A list whose pages did not end: a `continue` token came back, or far more pages or items than a cluster has. */
export function endlessListError(what: RequestWhat, pages: number, items: number, repeated: boolean): ClusterError {
  const params = { verb: what.verb, resource: what.resource, scope: inNamespace(what), pages, items };
  return new ClusterError(
    'api',
    errorText(repeated ? 'list-token-repeated' : 'list-endless', params),
    hintText('list-endless'),
  );
}

/** A watch the API server ended with an ERROR event other than 410 Gone (which only asks for a new list). */
export function watchErrorEvent(what: RequestWhat, status: { code?: number; message?: string }): ClusterError {
  const params = { resource: what.resource, scope: inNamespace(what) };
  const name = status.code
    ? status.message
      ? 'watch-ended.code-message'
      : 'watch-ended.code'
    : status.message
      ? 'watch-ended.message'
      : 'watch-ended';
  return new ClusterError(
    'api',
    errorText(name, {
      ...params,
      ...(status.code ? { code: status.code } : {}),
      ...(status.message ? { text: status.message } : {}),
    }),
    hintText('watch-ended'),
    status.code !== undefined ? { status: status.code } : {},
  );
}

export function cancelledError(): ClusterError {
  return new ClusterError('cancelled', errorText('cancelled'), '');
}
