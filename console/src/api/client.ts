// The one way the console talks to the server: same-origin fetch with the session cookie, the
// CSRF token on every request that is not a read, and the organization the URL names. Errors
// come back as ApiError with the server's message, whatever door answered (REST or GraphQL).

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ApiState {
  csrfToken: string | undefined;
  orgId: string | undefined;
}

const state: ApiState = { csrfToken: undefined, orgId: undefined };
const unauthenticatedListeners = new Set<() => void>();

/** Called once the session is known (sign-in, reload) and whenever the URL's organization changes. */
export function configureApi(update: Partial<ApiState>): void {
  Object.assign(state, update);
}

export function activeOrgId(): string | undefined {
  return state.orgId;
}

/** Runs when a request finds the session gone (expired, signed out elsewhere, revoked). */
export function onUnauthenticated(listener: () => void): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

/** The headers every request of the console carries. */
export function apiHeaders(method = 'GET', extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  if (state.orgId) headers['x-axiom-org-id'] = state.orgId;
  if (method !== 'GET' && method !== 'HEAD' && state.csrfToken) headers['x-csrf-token'] = state.csrfToken;
  return headers;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** Query string parameters. */
  params?: Record<string, string | number | boolean | undefined>;
  /** Extra headers. */
  headers?: Record<string, string>;
}

function urlOf(path: string, params: RequestOptions['params']): string {
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

async function errorOf(response: Response): Promise<ApiError> {
  let message = `${response.status} ${response.statusText}`;
  let code: string | undefined;
  try {
    const body = (await response.json()) as { message?: string; error?: string; code?: unknown };
    message = body.message ?? body.error ?? message;
    if (typeof body.code === 'string') code = body.code;
  } catch {
    // Not JSON: keep the status line.
  }
  return new ApiError(message, response.status, code);
}

/** A JSON request to the server's REST API; resolves with the parsed answer (undefined for 204). */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const headers = apiHeaders(method, options.headers);
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === 'string' || options.body instanceof Blob || options.body instanceof FormData) body = options.body as BodyInit;
    else {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
  }
  const response = await fetch(urlOf(path, options.params), {
    method,
    headers,
    body,
    credentials: 'same-origin',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (response.status === 401 && !path.startsWith('/auth/login')) for (const listener of unauthenticatedListeners) listener();
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

interface GraphQLAnswer<T> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string; http?: { status?: number } } }[];
}

/** A GraphQL operation against /graphql; the first error, if any, is thrown as an ApiError. */
export async function graphql<T>(query: string, variables: Record<string, unknown> = {}, signal?: AbortSignal): Promise<T> {
  const answer = await api<GraphQLAnswer<T>>('/graphql', { body: { query, variables }, ...(signal ? { signal } : {}) });
  const first = answer.errors?.[0];
  if (first) {
    const code = first.extensions?.code;
    if (code === 'UNAUTHENTICATED') for (const listener of unauthenticatedListeners) listener();
    throw new ApiError(first.message, first.extensions?.http?.status ?? 400, code);
  }
  return answer.data as T;
}
