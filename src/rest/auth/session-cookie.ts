// The console's session cookie on the HTTP side: setting or clearing it on a reply, and
// `startSession`, through which every sign-in door (password, one-time links, single sign-on)
// turns a user into a signed-in browser. HttpOnly, SameSite=Lax, Path=/; under TLS also Secure,
// with the `__Host-` prefix that binds it to this exact host (see src/auth/session-credentials.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieValue, sessionCookieName, sessionCredentialsFrom, type SessionCredentials } from '../../auth/session-credentials';
import type { StartedSession } from '../../auth/sessions';
import type { Config } from '../../config';
import type { Services } from '../../services';
import { headerReader } from '../shared/headers';

/** Reading one cookie of a `Cookie` header, for doors with cookies of their own. */
export { cookieValue, sessionCookieName };

function cookie(config: Pick<Config, 'tls'>, value: string, expires: Date): string {
  const attributes = [`${sessionCookieName(config)}=${value}`, 'Path=/', `Expires=${expires.toUTCString()}`, 'HttpOnly', 'SameSite=Lax'];
  if (config.tls) attributes.push('Secure');
  return attributes.join('; ');
}

export function setSessionCookie(reply: FastifyReply, config: Pick<Config, 'tls'>, session: StartedSession): void {
  reply.header('set-cookie', cookie(config, session.secret, session.absoluteExpiresAt));
  reply.header('cache-control', 'no-store');
}

export function clearSessionCookie(reply: FastifyReply, config: Pick<Config, 'tls'>): void {
  reply.header('set-cookie', cookie(config, '', new Date(0)));
  reply.header('cache-control', 'no-store');
}

/** The session cookie of a request with its CSRF evidence, or undefined. */
export function sessionCredentialsOf(request: FastifyRequest, config: Pick<Config, 'tls' | 'publicUrl'>): SessionCredentials | undefined {
  return sessionCredentialsFrom(config, headerReader(request), request.method);
}

/** Signs `userId` in: a new session, its cookie set on `reply`. */
export async function startSession(reply: FastifyReply, services: Pick<Services, 'auth' | 'config'>, userId: string, request: FastifyRequest): Promise<StartedSession> {
  const userAgent = request.headers['user-agent'];
  const session = await services.auth.sessions.start(userId, { ip: request.ip, userAgent: Array.isArray(userAgent) ? userAgent[0] : userAgent });
  setSessionCookie(reply, services.config, session);
  return session;
}
