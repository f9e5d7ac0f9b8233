// Fields, trim and vacuum through the HTTP API, over events that were really ingested.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

describe('fields, trim and vacuum', () => {
  let server: TestServer;
  const send = (method: string, path: string, body?: unknown) =>
    server.request(path, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const json = async (method: string, path: string, body?: unknown) => (await (await send(method, path, body)).json()) as any;

  beforeAll(async () => {
    server = await startTestServer();
    await send('POST', '/v2/datasets', { name: 'shop' });
    const day = 86_400_000;
    const response = await send('POST', '/v1/datasets/shop/ingest', [
      { _time: new Date(Date.now() - 30 * day).toISOString(), legacy: 'old only', price: 1 },
      { _time: new Date(Date.now() - 60_000).toISOString(), price: 9.5, qty: 3, paid: true, req: { method: 'GET' }, tags: ['a', 'b'], 'a/b': 'slash' },
    ]);
    expect(((await response.json()) as any).ingested).toBe(2);
  });
  afterAll(() => server.close());

  it('lists the fields with their types, nested ones flattened', async () => {
    const fields = await json('GET', '/v2/datasets/shop/fields');
    const types = Object.fromEntries(fields.map((field: any) => [field.name, field.type]));
    expect(types).toEqual({ legacy: 'string', price: 'float', qty: 'integer', paid: 'boolean', 'req.method': 'string', tags: 'array', 'a/b': 'string' });
    expect(fields[0]).toEqual({ name: expect.any(String), type: expect.any(String), unit: '', description: '', hidden: false });
  });

  it('gets and updates one field, names with dots and slashes included', async () => {
    expect(await json('GET', '/v2/datasets/shop/fields/req.method')).toMatchObject({ name: 'req.method', type: 'string' });
    expect(await json('GET', '/v2/datasets/shop/fields/a/b')).toMatchObject({ name: 'a/b' });
    expect(await json('GET', `/v2/datasets/shop/fields/${encodeURIComponent('a/b')}`)).toMatchObject({ name: 'a/b' });
    const updated = await json('PUT', '/v2/datasets/shop/fields/price', { unit: 'EUR', description: 'unit price', hidden: false });
    expect(updated).toEqual({ name: 'price', type: 'float', unit: 'EUR', description: 'unit price', hidden: false });
    expect((await json('GET', '/v2/datasets/shop/fields')).find((field: any) => field.name === 'price').unit).toBe('EUR');
  });

  it('refuses to change what follows from the data, and unknown fields', async () => {
    const retype = await send('PUT', '/v2/datasets/shop/fields/price', { type: 'string' });
    expect(retype.status).toBe(400);
    expect(((await retype.json()) as any).error).toMatch(/cannot be set/);
    expect((await send('PUT', '/v2/datasets/shop/fields/price', { name: 'cost' })).status).toBe(400);
    expect((await send('PUT', '/v2/datasets/shop/fields/price', { hidden: 'yes' })).status).toBe(400);
    expect((await send('GET', '/v2/datasets/shop/fields/nope')).status).toBe(404);
    expect((await send('GET', '/v2/datasets/nope/fields')).status).toBe(404);
  });

  it('trims old events, then vacuum forgets the fields only they held', async () => {
    const count = async () =>
      (await json('POST', '/v1/datasets/_apl?format=tabular', { apl: "['shop'] | count" })).tables[0].columns[0][0];
    expect(await count()).toBe(2);
    expect((await send('POST', '/v2/datasets/shop/trim', { maxDuration: '7d' })).status).toBe(204);
    expect(await count()).toBe(1);
    const vacuumed = await json('POST', '/v2/datasets/shop/vacuum');
    expect(vacuumed.fieldsRemoved).toEqual(['legacy']);
    const names = (await json('GET', '/v2/datasets/shop/fields')).map((field: any) => field.name);
    expect(names).not.toContain('legacy');
    expect(names).toContain('price');
    // The field metadata users set survives a vacuum of other fields.
    expect((await json('GET', '/v2/datasets/shop/fields/price')).unit).toBe('EUR');
  });
});
