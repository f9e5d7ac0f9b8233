// Typed domain errors. Domain code throws these; the adapters (REST, GraphQL) translate them
// with `describeError`, the single mapping from error kind to HTTP status and GraphQL code.

export type ErrorKind =
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'precondition_failed'
  | 'rate_limited'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'limit_exceeded'
  | 'timeout'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Extra machine-readable detail, e.g. the position of an APL syntax error. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidInput = (message: string, details?: Record<string, unknown>) =>
  new DomainError('invalid_input', message, details);
export const unauthenticated = (message = 'missing or invalid API token') => new DomainError('unauthenticated', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const notFound = (message: string, details?: Record<string, unknown>) => new DomainError('not_found', message, details);
export const conflict = (message: string, details?: Record<string, unknown>) => new DomainError('conflict', message, details);
/** A write based on a stale version (dashboards): 412. */
export const preconditionFailed = (message: string, details?: Record<string, unknown>) =>
  new DomainError('precondition_failed', message, details);
export const rateLimited = (message: string) => new DomainError('rate_limited', message);
export const payloadTooLarge = (message: string) => new DomainError('payload_too_large', message);
export const unsupportedMediaType = (message: string) => new DomainError('unsupported_media_type', message);
export const limitExceeded = (message: string) => new DomainError('limit_exceeded', message);
export const timedOut = (message: string) => new DomainError('timeout', message);
export const unavailable = (message: string) => new DomainError('unavailable', message);

const httpStatusByKind: Record<ErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  rate_limited: 429,
  payload_too_large: 413,
  unsupported_media_type: 415,
  limit_exceeded: 400,
  timeout: 408,
  unavailable: 503,
};

const graphqlCodeByKind: Record<ErrorKind, string> = {
  invalid_input: 'BAD_USER_INPUT',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  precondition_failed: 'PRECONDITION_FAILED',
  rate_limited: 'RATE_LIMITED',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
  limit_exceeded: 'LIMIT_EXCEEDED',
  timeout: 'TIMEOUT',
  unavailable: 'UNAVAILABLE',
};

export interface ErrorDescription {
  status: number;
  graphqlCode: string;
  message: string;
  details?: Record<string, unknown>;
  /** False for unexpected errors, whose message must not leak to clients. */
  expected: boolean;
}

export function describeError(error: unknown): ErrorDescription {
  if (error instanceof DomainError) {
    return {
      status: httpStatusByKind[error.kind],
      graphqlCode: graphqlCodeByKind[error.kind],
      message: error.message,
      details: error.details,
      expected: true,
    };
  }
  return { status: 500, graphqlCode: 'INTERNAL_SERVER_ERROR', message: 'internal server error', expected: false };
}
