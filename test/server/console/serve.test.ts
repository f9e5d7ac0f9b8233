// The web console served by the server: the redirect from /, the page with its per-response CSP
// nonce for every client-side route, the hashed assets (long cache, precompressed copies, ETags),
// refusal of paths outside the build, the 503 without a build, and compression of API answers
// (never of event streams).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DIST = path.join(ROOT, 'console', 'dist');

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request sent byte for byte as given (fetch would normalize `..` and undo encodings). */
function raw(server: TestServer, pathAndQuery: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<RawResponse> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: pathAndQuery, method: init.method ?? 'GET', headers: init.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const EXPECTED_POLICY = (nonce: string) =>
  `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data: blob:; font-src 'self'; ` +
  "connect-src 'self'; worker-src 'self' blob:; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function nonceInPage(html: string): string {
  const match = /<meta name="csp-nonce" content="([^"]*)"/.exec(html);
  if (!match) throw new Error('the page has no csp-nonce meta element');
  return match[1]!;
}

const auth = (server: TestServer) => ({ authorization: `Bearer ${server.adminToken}` });

let server: TestServer;
let scriptPath: string;
let stylePath: string;

beforeAll(async () => {
  // CI builds the console at install; build it here once if this checkout has no build yet.
  if (!existsSync(path.join(DIST, 'index.html'))) {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-console.mjs'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  }
  const built = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  scriptPath = /<script[^>]+src="(\/app\/assets\/[^"]+\.js)"/.exec(built)![1]!;
  stylePath = /<link[^>]+href="(\/app\/assets\/[^"]+\.css)"/.exec(built)![1]!;
  server = await startTestServer();
}, 120_000);

afterAll(() => server?.close());

const distFile = (appPath: string) => readFileSync(path.join(DIST, appPath.replace(/^\/app\//, '')));

describe('the page', () => {
  it('redirects / to /app/', async () => {
    const response = await raw(server, '/');
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/app/');
  });

  it('serves index.html with a strict policy and the nonce of that response', async () => {
    const response = await raw(server, '/app/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body.toString('utf8');
    const nonce = nonceInPage(html);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22,}={0,2}$/);
    expect(html).not.toContain('__CSP_NONCE__');
    expect(response.headers['content-security-policy']).toBe(EXPECTED_POLICY(nonce));
    expect(response.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['cache-control']).toBe('no-store');
    // The build's page, only the placeholder replaced.
    expect(html).toBe(readFileSync(path.join(DIST, 'index.html'), 'utf8').replaceAll('__CSP_NONCE__', nonce));
  });

  it('never sends the same nonce twice', async () => {
    const nonces = await Promise.all(Array.from({ length: 40 }, async () => nonceInPage((await raw(server, '/app/')).body.toString('utf8'))));
    expect(new Set(nonces).size).toBe(40);
  });

  it('answers client-side routes with the page', async () => {
    for (const route of ['/app', '/app/acme/query?apl=%5B%27logs%27%5D%20%7C%20take%2010', '/app/acme/datasets/web/', '/app/sign-in']) {
      const response = await raw(server, route);
      expect(response.status, route).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      const html = response.body.toString('utf8');
      expect(response.headers['content-security-policy']).toBe(EXPECTED_POLICY(nonceInPage(html)));
      expect(html).toContain(scriptPath);
    }
  });
});

describe('assets', () => {
  it('serves hashed files for a year with their type, ETag and Vary', async () => {
    const script = await raw(server, scriptPath);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['vary']).toMatch(/accept-encoding/i);
    expect(script.headers['content-encoding']).toBeUndefined();
    expect(script.headers.etag).toMatch(/^"[^"]+"$/);
    expect(script.body.equals(distFile(scriptPath))).toBe(true);

    const style = await raw(server, stylePath);
    expect(style.status).toBe(200);
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.body.equals(distFile(stylePath))).toBe(true);
  });

  it('sends the Brotli copy when accepted, gzip when only that is', async () => {
    const original = distFile(scriptPath);
    const br = await raw(server, scriptPath, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(original.length);
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);

    const gz = await raw(server, scriptPath, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(original)).toBe(true);

    const brRefused = await raw(server, scriptPath, { headers: { 'accept-encoding': 'br;q=0, gzip;q=0.5' } });
    expect(brRefused.headers['content-encoding']).toBe('gzip');

    expect(new Set([br.headers.etag, gz.headers.etag, (await raw(server, scriptPath)).headers.etag]).size).toBe(3);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await raw(server, scriptPath, { headers: { 'accept-encoding': 'br' } });
    const again = await raw(server, scriptPath, { headers: { 'accept-encoding': 'br', 'if-none-match': first.headers.etag as string } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    const stale = await raw(server, scriptPath, { headers: { 'accept-encoding': 'br', 'if-none-match': '"something-else"' } });
    expect(stale.status).toBe(200);
  });

  it('answers 404 (not the page) for an unknown asset', async () => {
    const response = await raw(server, '/app/assets/index-doesnotexist.js');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(response.body.toString('utf8')).error).toBeTypeOf('string');
  });

  it('serves nothing outside the build', async () => {
    const secret = readFileSync(path.join(ROOT, 'package.json'), 'utf8');
    const attempts = [
      '/app/assets/../../package.json',
      '/app/assets/../../../package.json',
      '/app/assets/..%2f..%2fpackage.json',
      '/app/assets/%2e%2e/%2e%2e/package.json',
      '/app/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/app/assets/....//....//package.json',
      '/app/../package.json',
      '/app/..%2fpackage.json',
      '/app/%2e%2e%2f%2e%2e%2fpackage.json',
      '/app/assets/%2fetc%2fpasswd',
      '/app/.build-stamp',
      '/app/index.html.br',
    ];
    for (const attempt of attempts) {
      const response = await raw(server, attempt);
      const body = response.body.toString('utf8');
      expect(body, attempt).not.toContain('"workspaces"');
      expect(body, attempt).not.toContain(secret.slice(0, 60));
      expect(body, attempt).not.toContain('root:');
      // Either refused or the console's own page (a client-side route).
      if (response.status === 200) expect(response.headers['content-type'], attempt).toBe('text/html; charset=utf-8');
      else expect(response.status, attempt).toBeGreaterThanOrEqual(400);
      expect(response.status, attempt).toBeLessThan(500);
    }
  });
});

describe('without a build', () => {
  it('answers 503 with how to build, and the API keeps working', async () => {
    const emptyDist = mkdtempSync(path.join(tmpdir(), 'eventdeck-empty-dist-'));
    const bare = await startTestServer({ CONSOLE_DIST_DIR: emptyDist });
    try {
      const page = await raw(bare, '/app/acme/query');
      expect(page.status).toBe(503);
      expect(page.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(page.body.toString('utf8')).toContain('npm run build:console');
      expect((await raw(bare, scriptPath)).status).toBe(404);
      expect((await raw(bare, '/healthz')).status).toBe(200);
      expect((await raw(bare, '/v1/datasets', { headers: auth(bare) })).status).toBe(200);
    } finally {
      await bare.close();
      rmSync(emptyDist, { recursive: true, force: true });
    }
  });

  it('serves no console at all with CONSOLE_ENABLED=false', async () => {
    const off = await startTestServer({ CONSOLE_ENABLED: 'false' });
    try {
      expect((await raw(off, '/app/')).status).toBe(404);
      expect((await raw(off, '/')).status).toBe(404);
      expect((await raw(off, '/healthz')).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});

describe('compression of API answers', () => {
  const DATASET = 'console-compression';
  const events = Array.from({ length: 60 }, (_, i) => ({ _time: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), path: `/orders/${i}`, status: 200 + (i % 3), note: 'x'.repeat(i) }));
  const aplBody = JSON.stringify({ apl: `['${DATASET}'] | sort by _time asc | take 60`, startTime: '2025-12-31T00:00:00Z', endTime: '2026-01-02T00:00:00Z' });

  beforeAll(async () => {
    const created = await raw(server, '/v1/datasets', { method: 'POST', headers: { ...auth(server), 'content-type': 'application/json' }, body: JSON.stringify({ name: DATASET }) });
    expect(created.status).toBe(200);
    // Request bodies are left to the ingest door, which undoes their Content-Encoding itself.
    const ingest = await raw(server, `/v1/datasets/${DATASET}/ingest`, {
      method: 'POST',
      headers: { ...auth(server), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(events)),
    });
    expect(ingest.status).toBe(200);
    expect(JSON.parse(ingest.body.toString('utf8')).ingested).toBe(events.length);
  });

  const query = (acceptEncoding?: string) =>
    raw(server, '/v1/datasets/_apl?format=tabular', {
      method: 'POST',
      headers: { ...auth(server), 'content-type': 'application/json', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
      body: aplBody,
    });

  it('compresses with br or gzip when asked, not otherwise', async () => {
    const plain = await query();
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const answer = JSON.parse(plain.body.toString('utf8'));
    expect(answer.tables[0].columns[answer.tables[0].fields.findIndex((f: { name: string }) => f.name === 'path')]).toEqual(events.map((e) => e.path));
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await query('gzip, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8')).tables).toEqual(answer.tables);

    const gz = await query('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString('utf8')).tables).toEqual(answer.tables);

    expect((await query('identity')).headers['content-encoding']).toBeUndefined();
  });

  it('leaves small answers alone', async () => {
    const health = await raw(server, '/healthz', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(health.status).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString('utf8'))).toEqual({ status: 'ok' });
  });

  it('never compresses an event stream', async () => {
    const batch = await raw(server, '/v1/query/batch', {
      method: 'POST',
      headers: { ...auth(server), 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
      body: JSON.stringify([{ queryId: 'all', aplRequest: JSON.parse(aplBody) }]),
    });
    expect(batch.status).toBe(200);
    expect(batch.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(batch.headers['content-encoding']).toBeUndefined();
    const text = batch.body.toString('utf8');
    expect(text.length).toBeGreaterThan(1024);
    expect(text.startsWith('data: ')).toBe(true);

    const graphql = await raw(server, '/graphql', {
      method: 'POST',
      headers: { ...auth(server), 'content-type': 'application/json', accept: 'text/event-stream', 'accept-encoding': 'br, gzip' },
      body: JSON.stringify({ query: '{ __schema { types { name } } }' }),
    });
    expect(graphql.status).toBe(200);
    expect(graphql.headers['content-type']).toMatch(/^text\/event-stream/);
    // Yoga marks its streams `Content-Encoding: none` (for proxies); nothing compressed them.
    expect([undefined, 'none']).toContain(graphql.headers['content-encoding']);
    expect(graphql.body.toString('utf8')).toContain('event: next');
  });

  it('compresses GraphQL answers', async () => {
    const graphql = await raw(server, '/graphql', {
      method: 'POST',
      headers: { ...auth(server), 'content-type': 'application/json', 'accept-encoding': 'br' },
      body: JSON.stringify({ query: '{ __schema { types { name } } }' }),
    });
    expect(graphql.status).toBe(200);
    expect(graphql.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(graphql.body).toString('utf8')).data.__schema.types.length).toBeGreaterThan(10);
  });
});
