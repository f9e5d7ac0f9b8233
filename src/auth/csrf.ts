// Cross-site request forgery protection for cookie-authenticated requests. A browser attaches
// the session cookie to requests other sites make it send, so every request that may change
// something (anything but GET, HEAD and OPTIONS) must prove it comes from the console itself:
// a same-origin `Origin` (or, when a browser sends none, `Sec-Fetch-Site: same-origin`), and the
// session's CSRF token in `X-CSRF-Token`, which other sites cannot read. Requests authenticated
// by an Authorization header never reach here: browsers do not add that header on their own.
import { forbidden } from '../errors';
import type { SessionCredentials } from './session-credentials';
import { sameSecret } from './sessions';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function isSameOrigin(credentials: SessionCredentials): boolean {
  const { origin, host, publicOrigin } = credentials;
  if (origin === undefined) return credentials.secFetchSite === 'same-origin';
  if (!URL.canParse(origin)) return false;
  const parsed = new URL(origin);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (publicOrigin && parsed.origin === publicOrigin) return true;
  return host !== undefined && parsed.host === host.toLowerCase();
}

/** Throws `forbidden` when a state-changing cookie request is not the console's own. */
export function checkCsrf(credentials: SessionCredentials, sessionCsrfToken: string): void {
  if (SAFE_METHODS.has(credentials.method)) return;
  if (credentials.secFetchSite && credentials.secFetchSite !== 'same-origin' && credentials.secFetchSite !== 'none') {
    throw forbidden(`cross-site request refused (Sec-Fetch-Site: ${credentials.secFetchSite})`);
  }
  if (!isSameOrigin(credentials)) throw forbidden('cross-site request refused: the Origin is not this server');
  if (!credentials.csrfToken) throw forbidden('missing X-CSRF-Token header: send the csrfToken of GET /auth/session');
  if (!sameSecret(credentials.csrfToken, sessionCsrfToken)) throw forbidden('invalid X-CSRF-Token header');
}

/**
 * For sign-in requests (no session yet): a browser request another site made is refused, so no
 * page can sign a visitor in to an account of its choosing. Clients that send neither header
 * (scripts, tests) pass.
 */
export function checkNotCrossSite(credentials: Omit<SessionCredentials, 'secret' | 'csrfToken'>): void {
  if (credentials.secFetchSite && credentials.secFetchSite !== 'same-origin' && credentials.secFetchSite !== 'none') {
    throw forbidden(`cross-site request refused (Sec-Fetch-Site: ${credentials.secFetchSite})`);
  }
  if (credentials.origin !== undefined && !isSameOrigin({ ...credentials, secret: '', csrfToken: undefined })) {
    throw forbidden('cross-site request refused: the Origin is not this server');
  }
}
