// The console's sign-in door: which sign-in methods exist, password sign-in and sign-out, the
// current session, password changes and one-time links (invitations, resets). Public routes,
// outside the token-checking scope; errors in the Axiom API's shape. The session cookie is
// set and cleared by session-cookie.ts; requests that change something with a session pass
// the same CSRF check as the API (src/auth/csrf.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkCsrf, checkNotCrossSite } from '../../auth/csrf';
import { isLinkGone } from '../../auth/login-links';
import { publicOriginOf } from '../../auth/session-credentials';
import type { ActiveSession } from '../../auth/sessions';
import { DomainError, unauthenticated } from '../../errors';
import type { Services } from '../../services';
import { sendError } from '../shared/error-handler';
import { headerReader } from '../shared/headers';
import type { ServicesOf } from '../shared/plugin-options';
import { clearSessionCookie, sessionCredentialsOf, setSessionCookie, startSession } from './session-cookie';

const tags = ['Console sign-in'];

/** The live session of the request, CSRF-checked unless the method is safe; 401 without one. */
export async function requireSession(request: FastifyRequest, services: Pick<Services, 'auth' | 'config'>): Promise<ActiveSession> {
  const credentials = sessionCredentialsOf(request, services.config);
  const session = credentials && (await services.auth.sessions.resolve(credentials.secret));
  if (!credentials || !session) throw unauthenticated('not signed in');
  checkCsrf(credentials, session.csrfToken);
  return session;
}

/** Sign-in requests carry no session yet, but another site must not be able to make them. */
function refuseCrossSite(request: FastifyRequest, services: Pick<Services, 'config'>) {
  const header = headerReader(request);
  checkNotCrossSite({ method: request.method, origin: header('origin'), secFetchSite: header('sec-fetch-site'), host: header('host'), publicOrigin: publicOriginOf(services.config.publicUrl) });
}

/** Answers a used or expired link with 410 Gone; rethrows anything else. */
function linkFailure(request: FastifyRequest, reply: FastifyReply, error: unknown, unknownAs: 400 | 404) {
  if (isLinkGone(error)) return sendError(request, reply, 410, (error as Error).message);
  if (error instanceof DomainError && error.kind === 'not_found') return sendError(request, reply, unknownAs, error.message);
  throw error;
}

export async function authSessionRoutes(app: FastifyInstance, { services }: ServicesOf<'auth' | 'config'>) {
  const { signIn, sessions, loginLinks } = services.auth;
  const origin = (request: FastifyRequest) => ({ ip: request.ip, userAgent: headerReader(request)('user-agent') });

  // The console's own door, not part of the API that /openapi.json documents for clients.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addHook('onRequest', async (request) => {
    request.errorStyle = 'axiom';
  });

  app.get('/auth/methods', { schema: { tags, summary: 'The ways people can sign in to the console' } }, async () => ({
    password: true,
    oidc: services.config.oidc ? { name: services.config.oidc.name, loginUrl: '/auth/oidc/login' } : null,
  }));

  app.post('/auth/login', { schema: { tags, summary: 'Sign in with email and password (sets the session cookie)' } }, async (request, reply) => {
    refuseCrossSite(request, services);
    let session;
    try {
      session = await signIn.login(request.body, origin(request));
    } catch (error) {
      const wait = error instanceof DomainError && error.kind === 'rate_limited' ? error.details?.retryAfterSeconds : undefined;
      if (typeof wait === 'number') reply.header('retry-after', String(wait));
      throw error;
    }
    setSessionCookie(reply, services.config, session);
    return signIn.describe(session);
  });

  app.get('/auth/session', { schema: { tags, summary: 'The signed-in user, their organizations and the CSRF token' } }, async (request, reply) => {
    const session = await requireSession(request, services);
    reply.header('cache-control', 'no-store');
    return signIn.describe(session);
  });

  app.post('/auth/logout', { schema: { tags, summary: 'Sign out (ends the session, clears the cookie)' } }, async (request, reply) => {
    const credentials = sessionCredentialsOf(request, services.config);
    const session = credentials && (await sessions.resolve(credentials.secret));
    if (credentials && session) {
      checkCsrf(credentials, session.csrfToken);
      await sessions.end(session.id);
    }
    clearSessionCookie(reply, services.config);
    return reply.status(204).send();
  });

  app.post('/auth/password', { schema: { tags, summary: 'Change the password (ends every other session)' } }, async (request, reply) => {
    const current = await requireSession(request, services);
    const fresh = await signIn.changePassword(current.userId, request.body, origin(request));
    setSessionCookie(reply, services.config, fresh);
    return signIn.describe(fresh);
  });

  app.get<{ Params: { token: string } }>('/auth/links/:token', { schema: { tags, summary: 'What an invitation or reset link is for' } }, async (request, reply) => {
    try {
      reply.header('cache-control', 'no-store');
      return await loginLinks.describe(request.params.token);
    } catch (error) {
      return linkFailure(request, reply, error, 404);
    }
  });

  app.post('/auth/links/accept', { schema: { tags, summary: 'Use an invitation or reset link: set the password and sign in' } }, async (request, reply) => {
    refuseCrossSite(request, services);
    let userId: string;
    try {
      userId = await loginLinks.accept(request.body);
    } catch (error) {
      return linkFailure(request, reply, error, 400);
    }
    const session = await startSession(reply, services, userId, request);
    return signIn.describe(session);
  });
}

