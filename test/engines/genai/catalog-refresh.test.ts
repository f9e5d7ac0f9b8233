// The catalog refreshes itself from a URL source: conditional requests with the validators of
// the last answer, a changed document imported as a new sync (new prices for later events), a
// failing source leaving the catalog as it was, and /api/v1/metadata saying when it last
// refreshed. The source is a local HTTP server whose document the test changes.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_CATALOG, startTestServer, type TestServer } from '../../helpers/server';

describe('catalog refresh from a URL', () => {
  let source: Server;
  let server: TestServer;
  let url: string;
  let document: Record<string, any> = JSON.parse(readFileSync(SMALL_CATALOG, 'utf8'));
  let etag = '"v1"';
  let failing = false;
  const requests: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    source = createServer((request, response) => {
      requests.push(request.headers);
      if (failing) return response.writeHead(503).end('down for maintenance');
      if (request.headers['if-none-match'] === etag) return response.writeHead(304, { etag }).end();
      response.writeHead(200, { 'content-type': 'application/json', etag, 'last-modified': new Date().toUTCString() }).end(JSON.stringify(document));
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/model_prices.json`;
    server = await startTestServer({ MODEL_CATALOG_SOURCE: url, MODEL_CATALOG_REFRESH: '1s' });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => source.close(resolve));
  });

  const metadata = async () => (await (await server.request('/api/v1/metadata', { auth: false })).json()) as any;
  const price = async () => {
    const response = await server.request('/v1/datasets/_apl?format=tabular', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apl: "print p = genai_get_pricing('claude-3-opus-20240229')" }),
    });
    const body = (await response.json()) as any;
    const value = body.tables[0].columns[0][0];
    return (typeof value === 'string' ? JSON.parse(value) : value).input_price_per_million as number;
  };
  async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('imports at start and says so in the metadata', async () => {
    const meta = await metadata();
    expect(meta.source).toBe(url);
    expect(meta.refresh).toMatchObject({ source: url, interval_seconds: 1, status: 'updated', error: null });
    expect(Date.parse(meta.refresh.last_refreshed_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await price()).toBeCloseTo(document['claude-3-opus-20240229'].input_cost_per_token * 1e6, 9);
  });

  it('asks again with the validators it was given, and an unchanged source is a 304', async () => {
    await until(() => requests.some((headers) => headers['if-none-match'] === etag), 'a conditional request');
    const conditional = requests.find((headers) => headers['if-none-match'] === etag)!;
    expect(conditional['if-modified-since']).toEqual(expect.any(String));
    const meta = await until(async () => {
      const m = await metadata();
      return m.refresh.status === 'not_modified' ? m : undefined;
    }, 'a not_modified check');
    expect(Date.parse(meta.refresh.last_checked_at)).toBeGreaterThanOrEqual(Date.parse(meta.refresh.last_refreshed_at));
  });

  it('imports a changed document, which prices from then on', async () => {
    const before = (await metadata()).generated_at;
    document = structuredClone(document);
    document['claude-3-opus-20240229'].input_cost_per_token = 7.5e-6;
    etag = '"v2"';
    await until(async () => ((await price()) === 7.5 ? true : undefined), 'the new price');
    const meta = await metadata();
    expect(meta.refresh.status === 'updated' || meta.refresh.status === 'not_modified').toBe(true);
    expect(Date.parse(meta.generated_at)).toBeGreaterThanOrEqual(Date.parse(before));
  });

  it('keeps the catalog when the source fails, and reports the failure', async () => {
    failing = true;
    const meta = await until(async () => {
      const m = await metadata();
      return m.refresh.status === 'failed' ? m : undefined;
    }, 'a failed check');
    expect(meta.refresh.error).toMatch(/HTTP 503/);
    expect(await price()).toBe(7.5);
    expect((await server.request('/api/v1/models/claude-3-opus-20240229', { auth: false })).status).toBe(200);
    failing = false;
  });
});
