// Single sign-on over HTTP, registered only when OIDC_ISSUER is set (the console learns of it
// from `GET /auth/methods`): the departure to the provider (`GET /auth/oidc/login`) with the
// pending sign-in in a short-lived sealed cookie, and the return (`GET /auth/oidc/callback`),
// which starts a session and lands on the console. Refusals are answered in the error shape, or
// as a small page when a browser asks for HTML; a denial at the provider goes back to the login page.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { newSealKey } from '../../auth/oidc-flow';
import type { Config } from '../../config';
import { settingOrCreate } from '../../db/settings';
import { DomainError, describeError } from '../../errors';
import type { ServicesOf } from '../shared/plugin-options';
import { cookieValue, startSession } from './session-cookie';

const FLOW_COOKIE = 'eventdeck_oidc';
const FLOW_COOKIE_PATH = '/auth/oidc';
const CALLBACK_PATH = '/auth/oidc/callback';
const LOGIN_PAGE = '/app/login';
const tags = ['Console sign-in'];

interface LoginQuery {
  next?: string;
}

export const oidcRoutes: FastifyPluginAsync<ServicesOf<'auth' | 'config' | 'logger' | 'store'>> = async (app, { services }) => {
  const settings = services.config.oidc;
  if (!settings) return;
  // One key for every instance over the store, so any of them can finish a sign-in.
  const sealKey = await settingOrCreate(services.store, 'oidc_pending_sign_in_key', newSealKey);
  // The OpenID Connect client library is loaded only where single sign-on is configured.
  const { OidcSignIn } = await import('../../auth/oidc');
  const signIn = new OidcSignIn(settings, services.store.prisma, sealKey, services.logger);
  const redirectUri = () => `${services.config.publicUrl}${CALLBACK_PATH}`;

  app.get<{ Querystring: LoginQuery }>('/auth/oidc/login', { schema: { tags, summary: 'Sign in with the single sign-on provider (redirects to it)' } }, async (request, reply) => {
    const next = typeof request.query.next === 'string' ? request.query.next : undefined;
    const started = await signIn.start(redirectUri(), next);
    reply.header('set-cookie', flowCookie(services.config, started.sealed, started.ttlSeconds));
    reply.header('cache-control', 'no-store');
    return reply.redirect(started.authorizationUrl, 302);
  });

  app.get('/auth/oidc/callback', { schema: { tags, summary: 'Where the single sign-on provider sends the browser back (starts a session)' } }, async (request, reply) => {
    const query = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1 || request.url.length));
    // The pending sign-in is good for one return, whatever happens next.
    reply.header('set-cookie', flowCookie(services.config, '', 0));
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    const providerError = query.get('error');
    if (providerError !== null) {
      const code = /^[A-Za-z0-9_.-]{1,64}$/.test(providerError) ? providerError : 'sign_in_failed';
      return reply.redirect(`${LOGIN_PAGE}?error=${encodeURIComponent(code)}`, 302);
    }
    try {
      const finished = await signIn.finish(redirectUri(), query, cookieValue(request.headers.cookie, FLOW_COOKIE));
      await startSession(reply, services, finished.userId, request);
      return reply.redirect(finished.next, 302);
    } catch (error) {
      if (error instanceof DomainError && wantsHtml(request)) return sendRefusalPage(reply, error);
      throw error;
    }
  });
};

function flowCookie(config: Pick<Config, 'tls' | 'publicUrl'>, value: string, maxAgeSeconds: number): string {
  const attributes = [`${FLOW_COOKIE}=${value}`, `Path=${FLOW_COOKIE_PATH}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (config.tls || config.publicUrl.startsWith('https:')) attributes.push('Secure');
  return attributes.join('; ');
}

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

function sendRefusalPage(reply: FastifyReply, error: DomainError) {
  const { status, message } = describeError(error);
  const page =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in failed</title>' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
    `<body><main><h1>Sign-in failed</h1><p>${escapeHtml(message)}</p><p><a href="${LOGIN_PAGE}">Back to sign-in</a></p></main></body></html>`;
  return reply.status(status).type('text/html; charset=utf-8').header('content-security-policy', "default-src 'none'").send(page);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
