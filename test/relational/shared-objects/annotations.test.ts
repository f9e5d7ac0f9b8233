// Annotations through /v2/annotations and the official SDK: CRUD, the type pattern, the time
// default, list filters (datasets in both forms, start and end, spans), and the annotations APL
// answers carry over REST and GraphQL.
import { AxiomWithoutBatching } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { addMember, apiToken, call, json } from '../../helpers/teams';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const create = (body: Record<string, unknown>, auth?: string) => call(server, '/v2/annotations', { ...json('POST', body), ...(auth ? { auth } : {}) });

describe('annotations', () => {
  it('creates (201), gets, updates and deletes an annotation', async () => {
    const created = await create({
      type: 'production-deploy',
      datasets: ['web', 'api', 'web'],
      title: 'Release 42',
      description: 'new checkout',
      url: 'https://example.com/releases/42',
      time: '2026-03-01T10:00:00.000Z',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^ann_/),
      type: 'production-deploy',
      datasets: ['api', 'web'],
      title: 'Release 42',
      description: 'new checkout',
      url: 'https://example.com/releases/42',
      time: '2026-03-01T10:00:00.000Z',
    });
    const id = created.body.id as string;
    expect((await call(server, `/v2/annotations/${id}`)).body).toEqual(created.body);

    const updated = await call(server, `/v2/annotations/${id}`, json('PUT', { endTime: '2026-03-01T10:30:00.000Z', title: null }));
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...created.body, title: undefined, endTime: '2026-03-01T10:30:00.000Z' });
    expect(Object.keys(updated.body)).not.toContain('title');

    expect((await call(server, `/v2/annotations/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(server, `/v2/annotations/${id}`)).status).toBe(404);
    expect((await call(server, `/v2/annotations/${id}`, json('PUT', { title: 'x' }))).status).toBe(404);
    expect((await call(server, `/v2/annotations/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('defaults the time to now', async () => {
    const before = Date.now();
    const created = await create({ type: 'deploy', datasets: ['web'] });
    const after = Date.now();
    const time = Date.parse(created.body.time);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(after);
    await call(server, `/v2/annotations/${created.body.id}`, { method: 'DELETE' });
  });

  it('refuses a type outside ^[a-z0-9-]+$, missing datasets, bad times and spans that end before they start', async () => {
    for (const [body, field] of [
      [{ type: 'Deploy', datasets: ['web'] }, 'type'],
      [{ type: 'deploy now', datasets: ['web'] }, 'type'],
      [{ type: 'x'.repeat(257), datasets: ['web'] }, 'type'],
      [{ type: 'deploy' }, 'datasets'],
      [{ type: 'deploy', datasets: [] }, 'datasets'],
      [{ type: 'deploy', datasets: ['not a dataset'] }, 'datasets'],
      [{ type: 'deploy', datasets: ['web'], time: 'yesterday' }, 'time'],
      [{ type: 'deploy', datasets: ['web'], time: '2026-01-02T00:00:00Z', endTime: '2026-01-01T00:00:00Z' }, 'endTime'],
      [{ type: 'deploy', datasets: ['web'], title: 't'.repeat(257) }, 'title'],
    ] as const) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toContain(field);
    }
    expect((await call(server, '/v2/annotations')).body).toEqual([]);
  });

  describe('list filters', () => {
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      const items: [string, string[], string, string?][] = [
        ['web-early', ['web'], '2026-04-01T08:00:00.000Z'],
        ['api-mid', ['api'], '2026-04-01T10:00:00.000Z'],
        ['both-mid', ['web', 'api'], '2026-04-01T10:30:00.000Z'],
        ['web-span', ['web'], '2026-04-01T06:00:00.000Z', '2026-04-01T09:30:00.000Z'],
        ['db-late', ['db'], '2026-04-01T12:00:00.000Z'],
      ];
      for (const [title, datasets, time, endTime] of items) {
        ids[title] = (await create({ type: 'marker', title, datasets, time, ...(endTime ? { endTime } : {}) })).body.id;
      }
    });
    const titles = async (query: string) => (await call(server, `/v2/annotations${query}`)).body.map((a: { title: string }) => a.title);

    it('lists all, oldest first', async () => {
      expect(await titles('')).toEqual(['web-span', 'web-early', 'api-mid', 'both-mid', 'db-late']);
    });

    it('filters by datasets, repeated or comma-separated', async () => {
      expect(await titles('?datasets=api')).toEqual(['api-mid', 'both-mid']);
      expect(await titles('?datasets=api&datasets=db')).toEqual(['api-mid', 'both-mid', 'db-late']);
      expect(await titles('?datasets=api,db')).toEqual(['api-mid', 'both-mid', 'db-late']);
      expect(await titles('?datasets=nothing-here')).toEqual([]);
    });

    it('returns exactly the annotations meeting [start, end], bounds included, spans by their whole extent', async () => {
      expect(await titles('?start=2026-04-01T09:00:00.000Z&end=2026-04-01T10:30:00.000Z')).toEqual(['web-span', 'api-mid', 'both-mid']);
      expect(await titles('?start=2026-04-01T09:30:00.001Z&end=2026-04-01T10:29:59.999Z')).toEqual(['api-mid']);
      expect(await titles('?start=2026-04-01T10:30:00.000Z')).toEqual(['both-mid', 'db-late']);
      expect(await titles('?end=2026-04-01T06:00:00.000Z')).toEqual(['web-span']);
      expect(await titles('?datasets=web&start=2026-04-01T07:00:00Z&end=2026-04-01T11:00:00Z')).toEqual(['web-span', 'web-early', 'both-mid']);
    });

    it('refuses unreadable bounds and reversed ranges', async () => {
      expect((await call(server, '/v2/annotations?start=soon')).status).toBe(400);
      expect((await call(server, '/v2/annotations?start=2026-04-02T00:00:00Z&end=2026-04-01T00:00:00Z')).status).toBe(400);
    });

    it('serves the SDK\'s annotation calls', async () => {
      const client = new AxiomWithoutBatching({ url: server.url, token: await apiToken(server, { orgCapabilities: { annotations: ['create', 'read', 'update', 'delete'] } }), onError: () => {} });
      const listed = await client.annotations.list({ datasets: ['api', 'db'], start: '2026-04-01T00:00:00.000Z', end: '2026-04-01T11:00:00.000Z' });
      expect(listed.map((a) => a.title)).toEqual(['api-mid', 'both-mid']);
      const made = await client.annotations.create({ type: 'sdk-made', datasets: ['db'], time: '2026-04-01T13:00:00.000Z', title: 'from the SDK' });
      expect(made).toMatchObject({ type: 'sdk-made', datasets: ['db'], title: 'from the SDK' });
      expect(await client.annotations.get(made.id)).toEqual(made);
      expect((await client.annotations.update(made.id, { description: 'changed' })).description).toBe('changed');
      expect((await client.annotations.delete(made.id)).status).toBe(204);
      await expect(client.annotations.get(made.id)).rejects.toThrow(/404/);
    });
  });

  describe('on query answers', () => {
    beforeAll(async () => {
      await call(server, '/v2/datasets', json('POST', { name: 'shop' }));
      await call(server, '/v2/datasets', json('POST', { name: 'other' }));
      const events = [{ _time: '2026-06-01T10:00:00Z', n: 1 }, { _time: '2026-06-01T11:00:00Z', n: 2 }];
      expect((await call(server, '/v1/datasets/shop/ingest', json('POST', events))).body.ingested).toBe(2);
      await create({ type: 'deploy', title: 'in window', datasets: ['shop'], time: '2026-06-01T10:30:00.000Z' });
      await create({ type: 'deploy', title: 'span into window', datasets: ['shop', 'other'], time: '2026-06-01T08:00:00.000Z', endTime: '2026-06-01T09:00:00.000Z' });
      await create({ type: 'deploy', title: 'after window', datasets: ['shop'], time: '2026-06-01T13:00:00.000Z' });
      await create({ type: 'deploy', title: 'other dataset', datasets: ['other'], time: '2026-06-01T10:30:00.000Z' });
    });
    const apl = (auth?: string) =>
      call(server, '/v1/datasets/_apl?format=tabular', {
        ...json('POST', { apl: "['shop'] | summarize count()", startTime: '2026-06-01T09:00:00Z', endTime: '2026-06-01T12:00:00Z' }),
        ...(auth ? { auth } : {}),
      });

    it('carry the annotations of their datasets that meet their window', async () => {
      const answer = await apl();
      expect(answer.status).toBe(200);
      expect(answer.body.tables[0].columns).toEqual([[2]]);
      expect(answer.body.annotations.map((a: { title: string }) => a.title)).toEqual(['span into window', 'in window']);
      expect(answer.body.annotations[1]).toMatchObject({ type: 'deploy', datasets: ['shop'], time: '2026-06-01T10:30:00.000Z' });
    });

    it('carry none for callers who may not read annotations', async () => {
      const queryOnly = await apiToken(server, { datasetCapabilities: { shop: { query: ['read'] } } });
      const answer = await apl(queryOnly);
      expect(answer.status).toBe(200);
      expect(answer.body.annotations).toBeUndefined();
    });

    it('are on GraphQL\'s apl too', async () => {
      const result = await server.graphql(
        `{ apl(query: "['shop'] | summarize count()", startTime: "2026-06-01T09:00:00Z", endTime: "2026-06-01T12:00:00Z") { annotations { title datasets time } } }`,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data.apl.annotations).toEqual([
        { title: 'span into window', datasets: ['other', 'shop'], time: '2026-06-01T08:00:00.000Z' },
        { title: 'in window', datasets: ['shop'], time: '2026-06-01T10:30:00.000Z' },
      ]);
    });
  });

  it('needs the annotations capability for each action', async () => {
    const reader = await addMember(server, 'read-only');
    expect((await call(server, '/v2/annotations', { auth: reader.token })).status).toBe(200);
    expect((await create({ type: 'deploy', datasets: ['web'] }, reader.token)).status).toBe(403);
    const none = await addMember(server, 'none');
    expect((await call(server, '/v2/annotations', { auth: none.token })).status).toBe(403);
  });
});
