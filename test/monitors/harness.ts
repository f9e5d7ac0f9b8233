// Small helpers over a running server for the monitor tests: JSON requests, ingest, and
// creating notifiers and monitors that must succeed.
import { expect } from 'vitest';

export interface JsonClient {
  url: string;
  request(pathAndQuery: string, init?: RequestInit & { auth?: string | false }): Promise<Response>;
}

export interface JsonAnswer {
  status: number;
  body: any;
}

export function apiOf(server: JsonClient) {
  async function api(path: string, method = 'GET', body?: unknown, token?: string): Promise<JsonAnswer> {
    const response = await server.request(path, {
      method,
      ...(token !== undefined ? { auth: token } : {}),
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }
  async function ok(path: string, method = 'GET', body?: unknown) {
    const answer = await api(path, method, body);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body;
  }
  return {
    api,
    ok,
    async dataset(name: string, fields: Record<string, unknown> = { status: 200 }) {
      await ok('/v2/datasets', 'POST', { name });
      // An event a day old gives the dataset its fields (queries may name them) and lies outside every window.
      await ok(`/v1/datasets/${name}/ingest`, 'POST', [{ _time: new Date(Date.now() - 86_400_000).toISOString(), ...fields }]);
    },
    async ingest(dataset: string, events: object[]) {
      const result = await ok(`/v1/datasets/${dataset}/ingest`, 'POST', events);
      expect(result.ingested).toBe(events.length);
    },
    notifier: (body: object) => ok('/v2/notifiers', 'POST', body) as Promise<{ id: string; properties: any }>,
    monitor: (body: object) => ok('/v2/monitors', 'POST', { intervalMinutes: 1, rangeMinutes: 1, ...body }) as Promise<{ id: string }>,
    async history(monitorId: string): Promise<{ name: string; checkId: string; state: string; timestamp: string }[]> {
      const start = new Date(Date.now() - 3_600_000).toISOString();
      const end = new Date(Date.now() + 3_600_000).toISOString();
      return ok(`/v2/monitors/${monitorId}/history?startTime=${start}&endTime=${end}`);
    },
    deliveries: (notifierId: string) => ok(`/v2/notifiers/${notifierId}/deliveries`) as Promise<any[]>,
  };
}
