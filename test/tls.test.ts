import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('skipping the HTTPS test: openssl is not installed');
    return false;
  }
}

describe.runIf(hasOpenssl())('HTTPS with TLS_CERT and TLS_KEY', () => {
  let dir: string;
  let server: TestServer;
  let cert: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-tls-'));
    const [certPath, keyPath] = [path.join(dir, 'cert.pem'), path.join(dir, 'key.pem')];
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyPath, '-out', certPath,
    ], { stdio: 'ignore' });
    cert = readFileSync(certPath);
    server = await startTestServer({ TLS_CERT: certPath, TLS_KEY: keyPath });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
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
