// v1.Status answers and the errors that carry them.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface V1Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export function failureStatus(code: number, reason: string, message: string, details?: StatusDetails): V1Status {
  const status: V1Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) status.details = details;
  return status;
}

/** An error that the HTTP layer answers with its v1.Status. */
export class ApiError extends Error {
  readonly status: V1Status;
  constructor(status: V1Status) {
    super(status.message);
    this.status = status;
  }
  get code(): number {
    return this.status.code;
  }
}

const reasonForCode: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'AlreadyExists',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

/**
 * Thrown by an ExecHandler when the exec cannot start (pod gone, container not running...).
 * The server answers it as a plain HTTP v1.Status, before any WebSocket upgrade, as a kubelet would.
 */
export class ExecError extends Error {
  readonly code: number;
  readonly reason: string;
  constructor(message: string, code = 400, reason?: string) {
    super(message);
    this.name = 'ExecError';
    this.code = code;
    this.reason = reason ?? reasonForCode[code] ?? 'InternalError';
  }
}

/** `resource` is the plural (and `.group` for non-core groups), as the real server words it. */
function qualified(plural: string, group: string): string {
  return group ? `${plural}.${group}` : plural;
}

export const errors = {
  badRequest: (message: string) => new ApiError(failureStatus(400, 'BadRequest', message)),
  unauthorized: () => new ApiError(failureStatus(401, 'Unauthorized', 'Unauthorized')),
  forbidden: (message: string, name: string, kind: string, group = '') =>
    new ApiError(failureStatus(403, 'Forbidden', message, group ? { name, group, kind } : { name, kind })),
  notFound: (plural: string, group: string, name: string) =>
    new ApiError(
      failureStatus(
        404,
        'NotFound',
        `${qualified(plural, group)} "${name}" not found`,
        group ? { name, group, kind: plural } : { name, kind: plural },
      ),
    ),
  noSuchResource: () =>
    new ApiError(failureStatus(404, 'NotFound', 'the server could not find the requested resource', {})),
  methodNotAllowed: (message = 'the server does not allow this method on the requested resource') =>
    new ApiError(failureStatus(405, 'MethodNotAllowed', message, {})),
  notAcceptable: (message: string) => new ApiError(failureStatus(406, 'NotAcceptable', message)),
  alreadyExists: (plural: string, group: string, name: string) =>
    new ApiError(
      failureStatus(
        409,
        'AlreadyExists',
        `${qualified(plural, group)} "${name}" already exists`,
        group ? { name, group, kind: plural } : { name, kind: plural },
      ),
    ),
  gone: (message: string) => new ApiError(failureStatus(410, 'Expired', message)),
  unsupportedMediaType: (contentType: string) =>
    new ApiError(
      failureStatus(
        415,
        'UnsupportedMediaType',
        `the body of the request was in an unknown format (${contentType}) - the lab API server accepts only application/json (and JSON patch types); send JSON instead of protobuf/YAML`,
      ),
    ),
  /** `kind` is the object kind ("Pod"), as the real server words validation errors. */
  invalid: (kind: string, name: string, causes: Required<Pick<StatusCause, 'reason' | 'message' | 'field'>>[]) =>
    new ApiError(
      failureStatus(
        422,
        'Invalid',
        `${kind} "${name}" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`,
        { name, kind, causes },
      ),
    ),
  internal: (message: string) =>
    new ApiError(failureStatus(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] })),
  fromExecError: (e: ExecError) => new ApiError(failureStatus(e.code, e.reason, e.message)),
};
