// Under TLS the session cookie is Secure and named with the `__Host-` prefix, which browsers
// only accept from a secure origin with Path=/ and no Domain; the server reads it back by that name.
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { hasOpenssl, makeTestCertificate, type TestCertificate } from '../../helpers/tls';
import { setPassword } from '../../helpers/sign-in';

describe.runIf(hasOpenssl('the HTTPS session test'))('the session cookie under TLS', () => {
  let certificate: TestCertificate | undefined;
  let server: TestServer;
  let cert: Buffer;

  beforeAll(async () => {
    certificate = makeTestCertificate();
    cert = certificate.cert;
    server = await startTestServer(certificate.env);
    await setPassword(server, 'admin@localhost', 'admin-password-1');
  });
  afterAll(async () => {
    await server?.close();
    certificate?.remove();
  });

  function send(method: string, pathname: string, headers: Record<string, string>, body?: string) {
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
      const req = request(`${server.url}${pathname}`, { method, ca: cert, headers }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('is Secure, __Host- prefixed, and read back under that name only', async () => {
    const signedIn = await send('POST', '/auth/login', { 'content-type': 'application/json' }, JSON.stringify({ email: 'admin@localhost', password: 'admin-password-1' }));
    expect(signedIn.status).toBe(200);
    const setCookie = (signedIn.headers['set-cookie'] as string[])[0]!;
    const attributes = setCookie.split(';').map((part) => part.trim());
    expect(attributes[0]).toMatch(/^__Host-eventdeck_session=eds-/);
    expect(attributes.map((a) => a.toLowerCase())).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/']));
    expect(attributes.some((a) => a.toLowerCase().startsWith('domain='))).toBe(false);
    const value = attributes[0]!.split('=').slice(1).join('=');
    expect((await send('GET', '/auth/session', { cookie: `__Host-eventdeck_session=${value}` })).status).toBe(200);
    expect((await send('GET', '/auth/session', { cookie: `eventdeck_session=${value}` })).status).toBe(401);
  });
});
