// Signing people in to the console in HTTP tests: setting a password, logging in, and the
// headers of a request made by the console with its session cookie (Origin and X-CSRF-Token).
import type { TestServer } from './server';

export interface SignedIn {
  status: number;
  body: any;
  /** The cookie's name=value pair, to send back in a Cookie header. */
  cookie: string;
  /** The raw Set-Cookie header. */
  setCookie: string;
  csrfToken: string;
}

export async function setPassword(server: TestServer, email: string, password: string): Promise<void> {
  await server.app.services.auth.signIn.setPasswordByEmail(email, password);
}

/** POST /auth/login; `cookie` is empty when the answer set none. */
export async function login(server: TestServer, email: string, password: string, headers: Record<string, string> = {}): Promise<SignedIn> {
  const response = await server.request('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email, password }),
    auth: false,
  });
  return signedInFrom(response);
}

export async function signedInFrom(response: Response): Promise<SignedIn> {
  const setCookie = response.headers.get('set-cookie') ?? '';
  const text = await response.text();
  const body = text ? JSON.parse(text) : undefined;
  return { status: response.status, body, cookie: setCookie.split(';')[0] ?? '', setCookie, csrfToken: body?.csrfToken ?? '' };
}

/** Headers of a console request: the cookie, the server's own Origin and the CSRF token. */
export function consoleHeaders(server: TestServer, session: Pick<SignedIn, 'cookie' | 'csrfToken'>, orgId?: string): Record<string, string> {
  return {
    cookie: session.cookie,
    origin: server.url,
    'x-csrf-token': session.csrfToken,
    ...(orgId ? { 'x-axiom-org-id': orgId } : {}),
  };
}

/** A request with the session cookie only (no Authorization header). */
export async function withCookie(
  server: TestServer,
  path: string,
  headers: Record<string, string>,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await server.request(path, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    auth: false,
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: response.status, body, headers: response.headers };
}
