import { Axiom } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

describe('dataset management (v1, /api/v1 and v2)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const send = (method: string, path: string, body?: unknown, auth?: string) =>
    server.request(path, {
      method,
      auth,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });

  it('creates a dataset with v2 and describes it in both versions', async () => {
    const created = await send('POST', '/v2/datasets', { name: 'web-logs', description: 'front door' });
    expect(created.status).toBe(200);
    const v2 = (await created.json()) as any;
    expect(v2).toMatchObject({
      id: 'web-logs',
      name: 'web-logs',
      description: 'front door',
      kind: 'axiom:events:v1',
      retentionDays: 0,
      useRetentionPeriod: false,
      canWrite: true,
    });
    expect(Date.parse(v2.created)).toBeGreaterThan(Date.now() - 60_000);
    expect(typeof v2.who).toBe('string');

    for (const prefix of ['/v1', '/api/v1']) {
      const v1 = (await (await send('GET', `${prefix}/datasets/web-logs`)).json()) as any;
      expect(v1).toEqual({ id: 'web-logs', name: 'web-logs', description: 'front door', who: v2.who, created: v2.created, kind: 'axiom:events:v1' });
    }
    const list = (await (await send('GET', '/v2/datasets')).json()) as any[];
    expect(list.map((d) => d.name)).toContain('web-logs');
  });

  it('creates with v1 too, and keeps names case-sensitive', async () => {
    expect((await send('POST', '/v1/datasets', { name: 'Metrics' })).status).toBe(200);
    expect((await send('POST', '/api/v1/datasets', { name: 'metrics' })).status).toBe(200);
    const names = ((await (await send('GET', '/v1/datasets')).json()) as any[]).map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['Metrics', 'metrics']));
    expect((await send('GET', '/v2/datasets/METRICS')).status).toBe(404);
  });

  it('answers 409 when the name exists', async () => {
    await send('POST', '/v2/datasets', { name: 'dupe' });
    const again = await send('POST', '/v2/datasets', { name: 'dupe' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as any).error).toBe('dataset "dupe" already exists');
  });

  it.each([
    ['', 'empty'],
    ['a'.repeat(129), 'too long'],
    ['under_score', 'underscore'],
    ['has space', 'space'],
    ['ünïcode', 'non-ASCII'],
    ['dots.too', 'dot'],
  ])('rejects the name %j (%s) with a 400 naming the rule', async (name) => {
    const response = await send('POST', '/v2/datasets', { name });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toMatch(/1 to 128 characters of ASCII letters, digits and "-"/);
  });

  it('accepts a 128-character name', async () => {
    expect((await send('POST', '/v2/datasets', { name: 'x'.repeat(128) })).status).toBe(200);
  });

  it('rejects bad bodies with 400', async () => {
    expect((await send('POST', '/v2/datasets', { description: 'no name' })).status).toBe(400);
    expect((await send('POST', '/v2/datasets', { name: 'k', kind: 'nonsense' })).status).toBe(400);
    expect((await send('POST', '/v2/datasets', { name: 'k', retentionDays: -1 })).status).toBe(400);
  });

  it('updates description and retention', async () => {
    await send('POST', '/v2/datasets', { name: 'to-update' });
    const updated = (await (await send('PUT', '/v2/datasets/to-update', { description: 'new', retentionDays: 7, useRetentionPeriod: true })).json()) as any;
    expect(updated).toMatchObject({ description: 'new', retentionDays: 7, useRetentionPeriod: true });
    const v1 = (await (await send('PUT', '/v1/datasets/to-update', { description: 'newer' })).json()) as any;
    expect(v1.description).toBe('newer');
    expect((await send('PUT', '/v2/datasets/missing', { description: 'x' })).status).toBe(404);
  });

  it('deletes with 204, after which the dataset is gone', async () => {
    await send('POST', '/v2/datasets', { name: 'doomed' });
    expect((await send('DELETE', '/v2/datasets/doomed')).status).toBe(204);
    expect((await send('GET', '/v2/datasets/doomed')).status).toBe(404);
    expect((await send('DELETE', '/v1/datasets/doomed')).status).toBe(404);
    // the name is free again
    expect((await send('POST', '/v2/datasets', { name: 'doomed' })).status).toBe(200);
  });

  it('validates trim durations', async () => {
    await send('POST', '/v2/datasets', { name: 'trimmed' });
    const bad = await send('POST', '/v1/datasets/trimmed/trim', { maxDuration: 'forever' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toMatch(/"forever" is not a duration/);
    const ok = await send('POST', '/v1/datasets/trimmed/trim', { maxDuration: '1h30m' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ numDeleted: 0 });
    expect((await send('POST', '/v2/datasets/trimmed/trim', { maxDuration: '7d' })).status).toBe(204);
  });

  describe('with API tokens', () => {
    let ingestOnly: string;
    beforeAll(async () => {
      await send('POST', '/v2/datasets', { name: 'shipped' });
      const created = (await (
        await send('POST', '/v2/tokens', { name: 'shipper', datasetCapabilities: { shipped: { ingest: ['create'] } } })
      ).json()) as any;
      ingestOnly = created.token;
    });

    it('sees only the datasets it holds capabilities on', async () => {
      const list = (await (await send('GET', '/v2/datasets', undefined, ingestOnly)).json()) as any[];
      expect(list.map((d) => d.name)).toEqual(['shipped']);
      // A dataset it holds nothing on answers as one that does not exist.
      const hidden = await send('GET', '/v2/datasets/web-logs', undefined, ingestOnly);
      const missing = await send('GET', '/v2/datasets/no-such-dataset', undefined, ingestOnly);
      expect(hidden.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(((await hidden.json()) as any).error).toBe('dataset "web-logs" not found');
      expect(((await missing.json()) as any).error).toBe('dataset "no-such-dataset" not found');
    });

    it('cannot create, update, delete or trim', async () => {
      expect((await send('POST', '/v2/datasets', { name: 'sneaky' }, ingestOnly)).status).toBe(403);
      expect((await send('PUT', '/v2/datasets/shipped', { description: 'x' }, ingestOnly)).status).toBe(403);
      expect((await send('DELETE', '/v2/datasets/shipped', undefined, ingestOnly)).status).toBe(403);
      const trim = await send('POST', '/v2/datasets/shipped/trim', { maxDuration: '1h' }, ingestOnly);
      expect(trim.status).toBe(403);
      expect(((await trim.json()) as any).error).toMatch(/trim:update/);
    });
  });

  it('works through the official SDK', async () => {
    const axiom = new Axiom({ url: server.url, token: server.adminToken });
    const created = await axiom.datasets.create({ name: 'sdk-made', description: 'via SDK' });
    expect(created).toMatchObject({ name: 'sdk-made', description: 'via SDK' });
    expect((await axiom.datasets.get('sdk-made')).description).toBe('via SDK');
    expect((await axiom.datasets.list()).map((d) => d.name)).toContain('sdk-made');
    expect((await axiom.datasets.update('sdk-made', { description: 'changed' })).description).toBe('changed');
    await axiom.datasets.trim('sdk-made', '1h');
    await axiom.datasets.delete('sdk-made');
    await expect(axiom.datasets.get('sdk-made')).rejects.toThrow(/404: dataset "sdk-made" not found/);
  });
});

describe('dataset management over GraphQL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('creates, lists, reads, updates and deletes, visible to REST', async () => {
    for (const name of ['alpha', 'beta', 'gamma']) {
      const created = await server.graphql('mutation($input: CreateDatasetInput!) { createDataset(input: $input) { id name kind canWrite } }', {
        input: { name, description: `${name} events` },
      });
      expect(created.errors).toBeUndefined();
      expect(created.data.createDataset).toMatchObject({ name, kind: 'axiom:events:v1', canWrite: true });
    }
    expect((await server.request('/v2/datasets/beta')).status).toBe(200);

    const page = await server.graphql('{ datasets(first: 2) { edges { node { name } } pageInfo { hasNextPage endCursor } } }');
    expect(page.data.datasets.edges.map((e: any) => e.node.name)).toEqual(['alpha', 'beta']);
    const rest = await server.graphql('query($after: String) { datasets(first: 2, after: $after) { edges { node { name } } } }', {
      after: page.data.datasets.pageInfo.endCursor,
    });
    expect(rest.data.datasets.edges.map((e: any) => e.node.name)).toEqual(['gamma']);

    const one = await server.graphql('{ dataset(name: "beta") { id name description fields { name } } missing: dataset(name: "nope") { name } }');
    expect(one.data.dataset).toMatchObject({ name: 'beta', description: 'beta events', fields: [] });
    expect(one.data.missing).toBeNull();
    const node = await server.graphql('query($id: ID!) { node(id: $id) { ... on Dataset { name } } }', { id: one.data.dataset.id });
    expect(node.data.node).toEqual({ name: 'beta' });

    const updated = await server.graphql('mutation { updateDataset(name: "beta", input: { description: "changed", retentionDays: 3 }) { description retentionDays } }');
    expect(updated.data.updateDataset).toEqual({ description: 'changed', retentionDays: 3 });

    const deleted = await server.graphql('mutation { deleteDataset(name: "gamma") }');
    expect(deleted.data.deleteDataset).toBe('gamma');
    expect((await server.request('/v2/datasets/gamma')).status).toBe(404);

    const invalid = await server.graphql('mutation { createDataset(input: { name: "no_underscores" }) { name } }');
    expect(invalid.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    const dupe = await server.graphql('mutation { createDataset(input: { name: "alpha" }) { name } }');
    expect(dupe.errors?.[0]).toMatchObject({ extensions: { code: 'CONFLICT' } });
  });
});
