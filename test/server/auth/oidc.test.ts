// Single sign-on with OpenID Connect against a real provider (oidc-provider on 127.0.0.1, its
// development login form driven with fetch): users created at their first sign-in with the
// configured role, found again at the next, refused for unverified or foreign email domains,
// and every tampering with the flow (state, PKCE verifier, nonce) refused with a 400.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config';
import { startTestServer, type TestServer } from '../../helpers/server';

const CLIENT_ID = 'eventdeck-console';
const CLIENT_SECRET = 'a-client-secret-for-the-tests-0123456789';

/** The people the provider knows, by account id. */
const ACCOUNTS: Record<string, { email: string; email_verified?: boolean; name: string }> = {
  alice: { email: 'Alice@Example.com', email_verified: true, name: 'Alice Example' },
  bob: { email: 'bob@example.com', name: 'Bob Without Verification Claim' },
  carol: { email: 'carol@example.com', email_verified: false, name: 'Carol Unverified' },
  mallory: { email: 'mallory@elsewhere.org', email_verified: true, name: 'Mallory Elsewhere' },
  dave: { email: 'dave@example.com', email_verified: true, name: 'Dave Example' },
  erin: { email: 'erin@example.com', email_verified: true, name: 'Erin Example' },
  frank: { email: 'frank@example.net', email_verified: true, name: 'Frank Example' },
};

/** Cookies of one browser for one site, as a Cookie header. */
class CookieJar {
  private readonly values = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const equals = pair!.indexOf('=');
      const name = pair!.slice(0, equals).trim();
      const value = pair!.slice(equals + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') this.values.delete(name);
      else this.values.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.values.get(name);
  }

  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

interface SessionAnswer {
  user: { id: string; name: string; email: string };
  organizations: { id: string; role: string }[];
}

interface ProviderHandle {
  issuer: string;
  /** Starts listening (it does not at first): every request is answered 503 until `configure`. */
  listen(): Promise<void>;
  /** Installs the provider once the client's redirect URI is known. */
  configure(redirectUri: string): void;
  close(): Promise<void>;
}

async function startProvider(): Promise<ProviderHandle> {
  let handle: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const http: Server = createServer((request, response) => {
    if (handle) return handle(request, response);
    response.statusCode = 503;
    response.end();
  });
  // A port of its own, closed until `listen`.
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  await new Promise<void>((resolve) => http.close(() => resolve()));
  const issuer = `http://127.0.0.1:${port}`;
  return {
    issuer,
    listen: () => new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve)),
    configure(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
        async findAccount(_ctx, id) {
          const account = ACCOUNTS[id];
          if (!account) return undefined;
          return { accountId: id, claims: async () => ({ sub: id, ...account }) };
        },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        features: { devInteractions: { enabled: true } },
        pkce: { required: () => true },
        cookies: { keys: [randomBytes(16).toString('hex')] },
        // Consent is granted without a second form.
        async loadExistingGrant(ctx) {
          const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
          grant.addOIDCScope('openid email profile');
          await grant.save();
          return grant;
        },
      });
      handle = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

interface Departure {
  /** The provider's authorization URL the server sent the browser to. */
  authorizationUrl: URL;
  /** The server's sealed pending sign-in, from its cookie. */
  flowCookie: string;
}

async function depart(server: TestServer, next?: string): Promise<Departure> {
  const response = await server.request(`/auth/oidc/login${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}`, { auth: false, redirect: 'manual' });
  expect(response.status).toBe(302);
  const jar = new CookieJar();
  jar.take(response);
  const flowCookie = jar.get('eventdeck_oidc');
  expect(flowCookie).toBeTruthy();
  return { authorizationUrl: new URL(response.headers.get('location')!), flowCookie: flowCookie! };
}

/**
 * Signs `accountId` in at the provider (or aborts there) and returns the URL the provider
 * sends the browser back to, without following it.
 */
async function atProvider(authorizationUrl: URL, accountId: string, options: { abort?: boolean } = {}): Promise<URL> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  for (let step = 0; step < 12; step++) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(response);
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get('location')!, url);
      if (location.origin !== authorizationUrl.origin) return location;
      url = location;
      continue;
    }
    expect(response.status, await response.clone().text()).toBe(200);
    expect(url.pathname).toMatch(/^\/interaction\/[^/]+$/);
    await response.text();
    if (options.abort) {
      url = new URL(`${url.pathname}/abort`, url);
      continue;
    }
    const submitted = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login: accountId }),
    });
    jar.take(submitted);
    expect(submitted.status).toBe(303);
    url = new URL(submitted.headers.get('location')!, url);
  }
  throw new Error('the provider never sent the browser back');
}

/** Calls the server's callback with the provider's answer and the flow cookie (when given). */
function returnToServer(server: TestServer, callback: URL, flowCookie: string | undefined, headers: Record<string, string> = {}) {
  return server.request(`${callback.pathname}${callback.search}`, {
    auth: false,
    redirect: 'manual',
    headers: { ...(flowCookie === undefined ? {} : { cookie: `eventdeck_oidc=${flowCookie}` }), ...headers },
  });
}

/** The whole sign-in; returns the server's answer to the callback. */
async function signIn(server: TestServer, accountId: string, next?: string) {
  const departure = await depart(server, next);
  const callback = await atProvider(departure.authorizationUrl, accountId);
  return returnToServer(server, callback, departure.flowCookie);
}

function sessionCookieOf(response: Response): string {
  const jar = new CookieJar();
  jar.take(response);
  const value = jar.get('eventdeck_session');
  expect(value, 'a session cookie').toBeTruthy();
  return `eventdeck_session=${value}`;
}

async function membersByEmail(server: TestServer): Promise<Map<string, { id: string; role: { id: string } }>> {
  const response = await server.request('/v2/users');
  expect(response.status).toBe(200);
  const members = (await response.json()) as { id: string; email: string; role: { id: string } }[];
  return new Map(members.map((member) => [member.email, member]));
}

/** Returns the same answer with `name` replaced in the query (or removed when `value` is undefined). */
function withParam(url: URL, name: string, value: string | undefined): URL {
  const copy = new URL(url);
  if (value === undefined) copy.searchParams.delete(name);
  else copy.searchParams.set(name, value);
  return copy;
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

describe('single sign-on with OpenID Connect', () => {
  let provider: ProviderHandle;
  let server: TestServer;

  beforeAll(async () => {
    provider = await startProvider();
    server = await startTestServer({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_NAME: 'Example SSO',
      OIDC_ALLOWED_DOMAINS: 'example.com, example.net',
      OIDC_DEFAULT_ROLE: 'read-only',
    });
    // The address the server is reached at, as PUBLIC_URL would say once the port is known.
    server.app.services.config.publicUrl = server.url;
  });

  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  // First: discovery has not succeeded yet.
  it('answers 503 while the provider cannot be discovered, and tries again at the next sign-in', async () => {
    const refused = await server.request('/auth/oidc/login', { auth: false, redirect: 'manual' });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toMatch(/could not be discovered/);
    await provider.listen();
    const failing = await server.request('/auth/oidc/login', { auth: false, redirect: 'manual' });
    expect(failing.status).toBe(503);
    expect(((await failing.json()) as { error: string }).error).toMatch(/could not be discovered/);
    provider.configure(`${server.url}/auth/oidc/callback`);
    const up = await server.request('/auth/oidc/login', { auth: false, redirect: 'manual' });
    expect(up.status).toBe(302);
  });

  it('is offered among the sign-in methods, with its label', async () => {
    const response = await server.request('/auth/methods', { auth: false });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ oidc: { name: 'Example SSO', loginUrl: '/auth/oidc/login' } });
  });

  it('sends the browser to the provider with state, nonce and an S256 PKCE challenge, in a short-lived HttpOnly cookie', async () => {
    const response = await server.request('/auth/oidc/login', { auth: false, redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(location.searchParams.get('redirect_uri')).toBe(`${server.url}/auth/oidc/callback`);
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('scope')).toBe('openid email profile');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(location.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('eventdeck_oidc='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Max-Age=600/);
    expect(cookie).toMatch(/; Path=\/auth\/oidc/);
    // Nothing of the flow is readable in the cookie.
    const flow = cookie.slice('eventdeck_oidc='.length).split(';')[0]!;
    expect(Buffer.from(flow, 'base64url').toString('latin1')).not.toContain(location.searchParams.get('state')!);
  });

  it('creates the user at the first sign-in with the default role in the organization, and the session works', async () => {
    const response = await signIn(server, 'alice', '/app/datasets/logs?range=1h');
    expect(response.status, await response.clone().text()).toBe(302);
    expect(response.headers.get('location')).toBe('/app/datasets/logs?range=1h');
    const cookie = sessionCookieOf(response);
    // The flow cookie is single use: cleared on the way back.
    expect(response.headers.getSetCookie().some((line) => /^eventdeck_oidc=;.*Max-Age=0/.test(line))).toBe(true);

    const members = await membersByEmail(server);
    const alice = members.get('alice@example.com');
    expect(alice?.role.id).toBe('read-only');

    const session = await server.request('/auth/session', { auth: false, headers: { cookie } });
    expect(session.status).toBe(200);
    const body = (await session.json()) as SessionAnswer;
    expect(body.user).toEqual({ id: alice!.id, name: 'Alice Example', email: 'alice@example.com' });
    expect(body.organizations).toHaveLength(1);
    expect(body.organizations[0]!.role).toBe('read-only');
  });

  it('finds the same user at the next sign-in', async () => {
    const first = await signIn(server, 'dave');
    expect(first.status).toBe(302);
    const before = await membersByEmail(server);
    const second = await signIn(server, 'dave');
    expect(second.status).toBe(302);
    const after = await membersByEmail(server);
    expect(after.size).toBe(before.size);
    const session = await server.request('/auth/session', { auth: false, headers: { cookie: sessionCookieOf(second) } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as SessionAnswer).user.id).toBe(before.get('dave@example.com')!.id);
  });

  it('accepts an email the provider says nothing about verifying', async () => {
    const response = await signIn(server, 'bob');
    expect(response.status).toBe(302);
    expect((await membersByEmail(server)).has('bob@example.com')).toBe(true);
  });

  it('refuses an email domain that is not allowed, and an unverified email, with 403 and creates nobody', async () => {
    const foreign = await signIn(server, 'mallory');
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: string }).error).toMatch(/elsewhere\.org/);
    const unverified = await signIn(server, 'carol');
    expect(unverified.status).toBe(403);
    expect(((await unverified.json()) as { error: string }).error).toMatch(/not verified/);
    const members = await membersByEmail(server);
    expect(members.has('mallory@elsewhere.org')).toBe(false);
    expect(members.has('carol@example.com')).toBe(false);
  });

  it('answers a browser with a page saying why', async () => {
    const departure = await depart(server);
    const callback = await atProvider(departure.authorizationUrl, 'mallory');
    const response = await returnToServer(server, callback, departure.flowCookie, { accept: 'text/html,application/xhtml+xml' });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain('elsewhere.org may not sign in here');
    expect(page).toContain('href="/app/login"');
  });

  it('refuses a missing, tampered or replayed state, and a missing or altered flow cookie, with 400', async () => {
    const departure = await depart(server);
    const callback = await atProvider(departure.authorizationUrl, 'erin');

    const noState = await returnToServer(server, withParam(callback, 'state', undefined), departure.flowCookie);
    expect(noState.status).toBe(400);
    const otherState = await returnToServer(server, withParam(callback, 'state', `${callback.searchParams.get('state')}x`), departure.flowCookie);
    expect(otherState.status).toBe(400);
    const noCookie = await returnToServer(server, callback, undefined);
    expect(noCookie.status).toBe(400);
    const flipped = departure.flowCookie.slice(0, -2) + (departure.flowCookie.endsWith('AA') ? 'AB' : 'AA');
    const alteredCookie = await returnToServer(server, callback, flipped);
    expect(alteredCookie.status).toBe(400);
    // Another sign-in's cookie does not fit this answer either.
    const otherFlow = await depart(server);
    expect((await returnToServer(server, callback, otherFlow.flowCookie)).status).toBe(400);

    const accepted = await returnToServer(server, callback, departure.flowCookie);
    expect(accepted.status).toBe(302);
    const replayed = await returnToServer(server, callback, departure.flowCookie);
    expect(replayed.status).toBe(400);
    expect(((await replayed.json()) as { error: string }).error).toMatch(/already used/);
  });

  it('refuses a code that was not issued for this PKCE verifier', async () => {
    const departure = await depart(server);
    // The provider is asked for a code bound to someone else's verifier, keeping this flow's state and nonce.
    const foreignChallenge = s256(randomBytes(32).toString('base64url'));
    const callback = await atProvider(withParam(departure.authorizationUrl, 'code_challenge', foreignChallenge), 'frank');
    const response = await returnToServer(server, callback, departure.flowCookie);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/invalid_grant/);
    expect((await membersByEmail(server)).has('frank@example.net')).toBe(false);
  });

  it('refuses an ID token whose nonce is not the one of the sign-in', async () => {
    const departure = await depart(server);
    const callback = await atProvider(withParam(departure.authorizationUrl, 'nonce', randomBytes(16).toString('base64url')), 'frank');
    const response = await returnToServer(server, callback, departure.flowCookie);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/nonce/);
    expect((await membersByEmail(server)).has('frank@example.net')).toBe(false);
  });

  it('sends a denial at the provider back to the login page', async () => {
    const departure = await depart(server);
    const callback = await atProvider(departure.authorizationUrl, 'erin', { abort: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const response = await returnToServer(server, callback, departure.flowCookie);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/app/login?error=access_denied');
  });

  it('lands only on paths under /app/', async () => {
    for (const next of ['https://evil.example/app/', '//evil.example/app/', '/app/../auth/session', '/admin', '/app\\evil']) {
      const departure = await depart(server, next);
      const callback = await atProvider(departure.authorizationUrl, 'alice');
      const response = await returnToServer(server, callback, departure.flowCookie);
      expect(response.status).toBe(302);
      expect(response.headers.get('location'), next).toBe('/app/');
    }
  });
});

describe('single sign-on configuration', () => {
  it('needs OIDC_CLIENT_ID with OIDC_ISSUER, and OIDC_ISSUER for the other variables', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'x' })).toThrow(/OIDC_ISSUER/);
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'x', OIDC_DEFAULT_ROLE: 'owner' })).toThrow(/OIDC_DEFAULT_ROLE/);
    expect(() => loadConfig({ OIDC_ISSUER: 'id.example.com', OIDC_CLIENT_ID: 'x' })).toThrow(/OIDC_ISSUER/);
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(loadConfig({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'x', OIDC_ALLOWED_DOMAINS: 'Example.com, b.org' }).oidc).toEqual({
      issuer: 'https://id.example.com',
      clientId: 'x',
      clientSecret: undefined,
      name: 'Single sign-on',
      allowedDomains: ['example.com', 'b.org'],
      defaultRole: 'user',
      orgId: undefined,
      scopes: 'openid email profile',
    });
  });
});
