/**
 * Errors of the cluster half in words a person can act on: what failed, why, and what to do next. The message
 * never carries a token, a certificate or a request dump; `hint` is the next step.
 */

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

  constructor(
    code: ClusterErrorCode,
    message: string,
    hint = '',
    extra: { status?: number; reason?: string; detail?: string } = {},
  ) {
    super(message);
    this.name = 'ClusterError';
    this.code = code;
    this.hint = hint;
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.reason !== undefined) this.reason = extra.reason;
    if (extra.detail !== undefined) this.detail = extra.detail;
  }

  /** One line: the message and, when there is one, the hint. */
  oneLine(): string {
    return this.hint ? `${this.message} (${this.hint})` : this.message;
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
  if (err?.name === 'AbortError' || code === 'ABORT_ERR') {
    return new ClusterError('cancelled', 'cancelled', '');
  }
  if (TLS_CODES.has(code) || /certificate|SSL|TLS/i.test(text)) {
    return new ClusterError(
      'tls',
      `TLS error talking to ${server}: ${text}`,
      'check certificate-authority / insecure-skip-tls-verify of the cluster in the kubeconfig, and that the server address is the API server',
    );
  }
  if (NETWORK_CODES.has(code) || /connect|socket hang up/i.test(text)) {
    return new ClusterError(
      'unreachable',
      `cluster unreachable: ${text.startsWith('connect ') ? text : `${code ? `${code} ` : ''}${text}`}`.replace(
        /\s+/g,
        ' ',
      ),
      `is the API server at ${server} running and reachable from here (VPN, proxy, port)?`,
    );
  }
  return new ClusterError('unreachable', `cluster unreachable: ${text}`, `check the server address ${server}`);
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

/** An HTTP answer that is not 2xx, in words. */
export function httpError(status: number, body: string, what: RequestWhat, user?: string): ClusterError {
  const { message, reason } = statusMessage(body);
  const text = message ?? (body.trim().split('\n')[0]?.slice(0, 200) || `HTTP ${status}`);
  const extra = { status, ...(reason ? { reason } : {}), ...(message ? { detail: message } : {}) };
  const scope = what.namespace ? ` in ${what.namespace}` : what.name ? '' : ' (cluster-wide)';
  const target = what.name ? `${what.resource} ${what.name}` : what.resource;
  switch (status) {
    case 401:
      return new ClusterError(
        'unauthorized',
        `401: the cluster refused the credentials${user ? ` of user "${user}"` : ''} (expired or invalid)`,
        'log in again or refresh the token / exec plugin of this context (kubectl get ns shows the same)',
        extra,
      );
    case 403:
      if (what.resource === 'pods/exec') {
        return new ClusterError(
          'exec-forbidden',
          `403: you may not exec into pods${scope}: ${text}`,
          'ask for the "create" permission on pods/exec, or use a context that has it',
          extra,
        );
      }
      return new ClusterError(
        'forbidden',
        `403: you may not ${what.verb} ${target}${scope}`,
        `the API said: ${text}`,
        extra,
      );
    case 404:
      if (what.resource === 'pods/exec') {
        return new ClusterError(
          'not-found',
          `404: pod ${what.namespace ? `${what.namespace}/` : ''}${what.name} not found`,
          'the pod may have been deleted; check the name and the namespace (-n)',
          extra,
        );
      }
      return new ClusterError(
        'not-found',
        `404: ${what.name ? `${what.resource.replace(/s$/, '')} ${what.namespace ? `${what.namespace}/` : ''}${what.name} not found` : `${what.resource} not served by this cluster`}`,
        what.name ? 'check the name and the namespace (-n)' : 'the cluster may be older than this API',
        extra,
      );
    case 408:
    case 504:
      return new ClusterError(
        'timeout',
        `${status}: the API timed out on ${what.verb} ${target}${scope}`,
        'try again; raise the timeout',
        extra,
      );
    default:
      if (what.resource === 'pods/exec') {
        return new ClusterError(
          'api',
          `${status}: could not exec into pod ${what.namespace ? `${what.namespace}/` : ''}${what.name}: ${text}`,
          status === 400 ? 'check the container name (--container) and that the pod is running' : '',
          extra,
        );
      }
      return new ClusterError(
        'api',
        `${status}: could not ${what.verb} ${target}${scope}: ${text}`,
        status >= 500 ? 'the API server had a problem; try again' : '',
        extra,
      );
  }
}

export function timeoutError(what: RequestWhat, ms: number): ClusterError {
  const target = what.name ? `${what.resource} ${what.name}` : what.resource;
  return new ClusterError(
    'timeout',
    `timed out after ${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s: ${what.verb} ${target}${what.namespace ? ` in ${what.namespace}` : ''}`,
    'the API server is slow or unreachable; try again or raise the timeout',
  );
}

export function answerTooLargeError(what: RequestWhat): ClusterError {
  const target = what.name ? `${what.resource} ${what.name}` : what.resource;
  return new ClusterError(
    'api',
    `the API's answer to ${what.verb} ${target}${what.namespace ? ` in ${what.namespace}` : ''} is larger than 256 MB`,
    'lists come in pages of 500 items, far less than that: is the server a Kubernetes API server, or is a proxy in between sending something else?',
  );
}

/** A list whose pages did not end: a `continue` token came back, or far more pages or items than a cluster has. */
export function endlessListError(what: RequestWhat, pages: number, items: number, repeated: boolean): ClusterError {
  const target = `${what.verb} ${what.resource}${what.namespace ? ` in ${what.namespace}` : ''}`;
  return new ClusterError(
    'api',
    repeated
      ? `the API gave back a page token it had given before: ${target} stopped after ${pages} pages (${items} items)`
      : `the API kept paging: ${target} stopped after ${pages} pages (${items} items)`,
    'is a proxy between you and the API server dropping the `continue` parameter? Try the API server directly, or `kubectl get --raw` the same list to compare',
  );
}

/** A watch the API server ended with an ERROR event other than 410 Gone (which only asks for a new list). */
export function watchErrorEvent(what: RequestWhat, status: { code?: number; message?: string }): ClusterError {
  const target = `${what.resource}${what.namespace ? ` in ${what.namespace}` : ''}`;
  return new ClusterError(
    'api',
    `the API server ended the watch of ${target} with an error${status.code ? ` ${status.code}` : ''}${status.message ? `: ${status.message}` : ''}`,
    'the list is read again after a pause; if this repeats, the API server (or a proxy in front of it) is unwell',
    status.code !== undefined ? { status: status.code } : {},
  );
}

export function cancelledError(): ClusterError {
  return new ClusterError('cancelled', 'cancelled', '');
}
