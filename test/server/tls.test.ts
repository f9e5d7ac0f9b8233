import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { hasOpenssl, makeTestCertificate, type TestCertificate } from '../helpers/tls';

describe.runIf(hasOpenssl('the HTTPS test'))('HTTPS with TLS_CERT and TLS_KEY', () => {
  let certificate: TestCertificate | undefined;
  let server: TestServer;
  let cert: Buffer;

  beforeAll(async () => {
    certificate = makeTestCertificate();
    cert = certificate.cert;
    server = await startTestServer(certificate.env);
  });
  afterAll(async () => {
    await server?.close();
    certificate?.remove();
  });

  it('serves the API over HTTPS with the given certificate', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}/v2/user`, { ca: cert, headers: { authorization: `Bearer ${server.adminToken}` } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    expect(JSON.parse(body).email).toBe('admin@localhost');
  });
});
