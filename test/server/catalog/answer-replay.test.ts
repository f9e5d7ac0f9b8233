// Catalog answers replayed in front of the router (src/rest/shared/answer-replay.ts): a repeated request
// gets the very status line, headers and body the router sent the first time, without entering
// the router; compressed answers, failures and other routes always go through it.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

interface RawAnswer {
  status: number;
  headers: string[];
  body: Buffer;
}

describe('catalog answer replay', () => {
  let server: TestServer;
  let firstModelId: string;
  beforeAll(async () => {
    server = await startTestServer();
    const models = (await (await server.request('/api/v1/models', { auth: false })).json()) as { model_id: string }[];
    firstModelId = models[0]!.model_id;
  });
  afterAll(() => server.close());

  /** One request on its own connection; the answer's raw header lines without Date. */
  function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const lines: string[] = [];
          for (let i = 0; i < response.rawHeaders.length; i += 2) {
            if (response.rawHeaders[i] !== 'Date') lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
          }
          resolve({ status: response.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) });
        });
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  /** Calls `work` and counts the answers the router offered for keeping meanwhile. */
  async function routed<T>(work: () => Promise<T>): Promise<{ result: T; routed: number }> {
    const keep = vi.spyOn(server.app.server.answerReplay!, 'keep');
    try {
      const result = await work();
      return { result, routed: keep.mock.calls.length };
    } finally {
      keep.mockRestore();
    }
  }

  it.each([
    ['a model', () => `/api/v1/models/${firstModelId}`, {}],
    ['a filtered list in CSV', () => '/api/v1/models?providers=openai&format=csv&headers=true', {}],
    ['the providers', () => '/api/v1/providers?project=model_id', { origin: 'https://example.com' }],
    ['the metadata', () => '/api/v1/metadata', {}],
  ])('answers a repeated GET of %s with the same bytes, without the router', async (_name, path, headers) => {
    const first = await routed(() => raw('GET', path(), headers));
    expect(first.routed).toBe(1);
    const again = await routed(() => raw('GET', path(), headers));
    expect(again.routed).toBe(0);
    expect(again.result).toEqual(first.result);
    expect(again.result.status).toBe(200);
  });

  it('answers a repeated catalog GraphQL query with the same bytes, without the router', async () => {
    const body = JSON.stringify({ query: `{ model(id: "${firstModelId}") { modelId inputCostPerMillion } }` });
    const headers = { 'content-type': 'application/json' };
    const first = await routed(() => raw('POST', '/graphql', headers, body));
    expect(first.routed).toBe(1);
    const again = await routed(() => raw('POST', '/graphql', headers, body));
    expect(again.routed).toBe(0);
    expect(again.result).toEqual(first.result);
    expect(JSON.parse(again.result.body.toString()).data.model.modelId).toBe(firstModelId);
  });

  it('sends compressed answers through the router every time', async () => {
    const headers = { 'accept-encoding': 'gzip' };
    for (let i = 0; i < 2; i++) {
      const { result, routed: count } = await routed(() => raw('GET', '/api/v1/models', headers));
      expect(count).toBe(1);
      expect(result.headers).toContain('content-encoding: gzip');
    }
  });

  it('keeps an answer sent uncompressed on request apart from those the router compresses', async () => {
    const uncompressed = await raw('GET', '/api/v1/models?format=jsonl', { 'accept-encoding': 'gzip', 'x-no-compression': '' });
    expect(uncompressed.headers.some((line) => line.startsWith('content-encoding'))).toBe(false);
    const { result, routed: count } = await routed(() => raw('GET', '/api/v1/models?format=jsonl', { 'accept-encoding': 'gzip' }));
    expect(count).toBe(1);
    expect(result.headers).toContain('content-encoding: gzip');
  });

  it('never keeps failures', async () => {
    for (let i = 0; i < 2; i++) {
      const { result, routed: count } = await routed(() => raw('GET', '/api/v1/models/no-such-model'));
      expect(count).toBe(0);
      expect(result.status).toBe(404);
    }
  });

  it('reads a GraphQL body ahead of the router and still hands it over whole', async () => {
    const query = '{ viewer { email } }';
    const answer = await raw('POST', '/graphql', { 'content-type': 'application/json', authorization: `Bearer ${server.adminToken}` }, JSON.stringify({ query }));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString()).data.viewer.email).toBeTruthy();
  });

  it('answers what a sync changed, not what was kept before it', async () => {
    const path = '/api/v1/metadata';
    const before = await raw('GET', path);
    await raw('GET', path);
    await server.app.services.catalog.sync({ kind: 'fallback' });
    const after = await raw('GET', path);
    expect(after.status).toBe(200);
    expect(after.body.equals(before.body)).toBe(false);
  });
});
