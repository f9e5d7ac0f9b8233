// What the shippers' tests share: datasets and tokens made through the API, and reading events
// back through APL (field names with their types, rows as objects) as a user would.
import { expect } from 'vitest';
import type { TestServer } from '../server';

export async function createDataset(server: TestServer, name: string): Promise<string> {
  const response = await server.request('/v2/datasets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return name;
}

export async function createToken(server: TestServer, datasetCapabilities: Record<string, Record<string, string[]>>): Promise<string> {
  const response = await server.request('/v2/tokens', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `token-${Math.random()}`, datasetCapabilities, orgCapabilities: {} }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

export interface AplRows {
  /** Field name -> type, as the tabular answer declares them. */
  types: Record<string, string>;
  rows: Record<string, unknown>[];
}

/** Runs APL through POST /v1/datasets/_apl (tabular) over all time and returns typed rows. */
export async function apl(server: TestServer, query: string): Promise<AplRows> {
  const response = await server.request('/v1/datasets/_apl?format=tabular', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apl: query, startTime: '1970-01-01T00:00:00Z', endTime: '2200-01-01T00:00:00Z' }),
  });
  const body = (await response.json()) as any;
  expect(response.status, JSON.stringify(body)).toBe(200);
  const table = body.tables[0];
  const types: Record<string, string> = {};
  for (const field of table.fields) types[field.name] = field.type;
  const count = table.columns[0]?.length ?? 0;
  const rows: Record<string, unknown>[] = [];
  for (let row = 0; row < count; row++) {
    const record: Record<string, unknown> = {};
    table.fields.forEach((field: { name: string }, i: number) => {
      const value = table.columns[i][row];
      if (value !== null && value !== undefined) record[field.name] = value;
    });
    rows.push(record);
  }
  return { types, rows };
}

/** Event count of a dataset, through APL. */
export async function countOf(server: TestServer, dataset: string): Promise<number> {
  const { rows } = await apl(server, `['${dataset}'] | summarize n = count()`);
  return Number(rows[0]?.n ?? 0);
}

export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
