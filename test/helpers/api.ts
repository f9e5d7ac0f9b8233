// JSON requests against a test server, and APL answers as rows: what the API tests of datasets,
// fields, views and the like share.
import type { TestServer } from './server';

export interface JsonResponse {
  status: number;
  body: any;
}

/** Sends a JSON body (when given) with the admin token or `auth`; parses the answer if any. */
export async function sendJson(server: TestServer, method: string, path: string, body?: unknown, auth?: string): Promise<JsonResponse> {
  const response = await server.request(path, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    ...(auth ? { auth } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export interface AplAnswer {
  status: number;
  /** The error message of a refused query. */
  error?: string;
  fields: { name: string; type: string }[];
  rows: Record<string, unknown>[];
}

/** Runs APL through `POST /v1/datasets/_apl?format=tabular`; the first table as rows. */
export async function aplRows(server: TestServer, apl: string, request: Record<string, unknown> = {}, auth?: string): Promise<AplAnswer> {
  const { status, body } = await sendJson(server, 'POST', '/v1/datasets/_apl?format=tabular', { apl, ...request }, auth);
  if (status !== 200) return { status, error: body?.message, fields: [], rows: [] };
  const table = body.tables[0];
  const rows = (table.columns[0] ?? []).map((_: unknown, row: number) =>
    Object.fromEntries(table.fields.map((field: { name: string }, i: number) => [field.name, table.columns[i][row]])),
  );
  return { status, fields: table.fields, rows };
}
