// What a request made with the console's session cookie carries: the cookie's secret, and the
// evidence cross-site request forgery protection weighs (method, Origin, Sec-Fetch-Site, Host
// and the X-CSRF-Token header). Read from any header source, like the token credentials.
import type { Config } from '../config';

const PLAIN_NAME = 'eventdeck_session';
const HOST_BOUND_NAME = `__Host-${PLAIN_NAME}`;

/** `__Host-eventdeck_session` under TLS (Secure, bound to this host), `eventdeck_session` otherwise. */
export function sessionCookieName(config: Pick<Config, 'tls'>): string {
  return config.tls ? HOST_BOUND_NAME : PLAIN_NAME;
}

export interface SessionCredentials {
  secret: string;
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  host: string | undefined;
  csrfToken: string | undefined;
  /** The origin people reach the server at (PUBLIC_URL), also accepted as same-origin. */
  publicOrigin: string | undefined;
}

/** The value of cookie `name` in a `Cookie` header, or undefined. */
export function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const equals = part.indexOf('=');
    if (equals === -1 || part.slice(0, equals).trim() !== name) continue;
    const value = part.slice(equals + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  }
  return undefined;
}

let lastPublicUrl: string | undefined;
let lastPublicOrigin: string | undefined;

/** The origin of PUBLIC_URL, worked out once rather than on every cookie request. */
export function publicOriginOf(publicUrl: string): string | undefined {
  if (publicUrl !== lastPublicUrl) {
    lastPublicUrl = publicUrl;
    lastPublicOrigin = URL.canParse(publicUrl) ? new URL(publicUrl).origin : undefined;
  }
  return lastPublicOrigin;
}

/** The session credentials of a request, or undefined when it has no session cookie. */
export function sessionCredentialsFrom(
  config: Pick<Config, 'tls' | 'publicUrl'>,
  getHeader: (name: string) => string | undefined,
  method: string,
): SessionCredentials | undefined {
  const secret = cookieValue(getHeader('cookie'), sessionCookieName(config));
  if (!secret) return undefined;
  return {
    secret,
    method: method.toUpperCase(),
    origin: getHeader('origin'),
    secFetchSite: getHeader('sec-fetch-site'),
    host: getHeader('host'),
    csrfToken: getHeader('x-csrf-token'),
    publicOrigin: publicOriginOf(config.publicUrl),
  };
}
