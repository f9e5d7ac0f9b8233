// A server with a metrics dataset holding the MPL fixture, written through the metrics service
// (the store's own ingest), and a helper that runs MPL over HTTP.
import { expect } from 'vitest';
import type { Principal } from '../../src/auth/principal';
import { startTestServer, type TestServer } from '../helpers/server';
import { END, type FixtureSeries, START, toSeriesPoints } from './fixture';

export interface MetricsServer extends TestServer {
  /** Runs MPL through POST /v1/query/_mpl (over the fixture's range unless told) and expects a 200. */
  mpl(query: string, body?: Record<string, unknown>, path?: string): Promise<any>;
  /** Runs MPL and expects a 400; returns the error body. */
  mplError(query: string, body?: Record<string, unknown>): Promise<{ error: string; message: string; line?: number; column?: number }>;
  /** Writes series into a metrics dataset through the metrics service. */
  write(dataset: string, series: FixtureSeries[]): Promise<void>;
  principal(): Promise<Principal>;
}

export async function createDataset(server: TestServer, name: string, kind = 'otel:metrics:v1') {
  const response = await server.request('/v2/datasets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, kind }) });
  expect(response.status).toBe(200);
}

export async function startMetricsServer(): Promise<MetricsServer> {
  const server = await startTestServer();
  const principal = () => server.app.services.auth.authenticate({ authorization: `Bearer ${server.adminToken}`, orgId: undefined });
  const run = (query: string, body: Record<string, unknown> = {}, path = '/v1/query/_mpl') =>
    server.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mpl: query, startTime: START, endTime: END, ...body }),
    });
  return {
    ...server,
    principal,
    async mpl(query, body, path) {
      const response = await run(query, body, path);
      const text = await response.text();
      expect(response.status, text).toBe(200);
      return JSON.parse(text);
    },
    async mplError(query, body) {
      const response = await run(query, body);
      const text = await response.text();
      expect(response.status, text).toBe(400);
      return JSON.parse(text);
    },
    async write(dataset, series) {
      const metrics = server.app.services.metrics;
      await metrics.write(await metrics.resolve(await principal(), dataset, 'ingest'), toSeriesPoints(series));
    },
  };
}
