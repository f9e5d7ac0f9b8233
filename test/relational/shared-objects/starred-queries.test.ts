// Saved (starred) queries through /v2/apl-starred-queries and the official SDK: CRUD, `who`
// (mine by default, team, all, a user id), dataset, text, limit and offset, and the dataset
// capability they need.
import { AxiomWithoutBatching } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { addMember, apiToken, call, json, type Member } from '../../helpers/teams';

let server: TestServer;
let colleague: Member;
let me: string;
beforeAll(async () => {
  server = await startTestServer();
  colleague = await addMember(server, 'user');
  me = (await call(server, '/v2/user')).body.id;
});
afterAll(() => server.close());

const save = (body: Record<string, unknown>, auth?: string) =>
  call(server, '/v2/apl-starred-queries', { ...json('POST', body), ...(auth ? { auth } : {}) });

describe('starred queries', () => {
  it('saves, gets, updates and deletes a query', async () => {
    const created = await save({
      kind: 'apl',
      name: 'Slow requests',
      dataset: 'web',
      who: 'someone-else',
      metadata: { color: 'red' },
      query: { apl: "['web'] | where duration > 1s", startTime: 'now-1h', endTime: 'now', queryOptions: { timeSeriesView: 'charts' }, extra: 1 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      kind: 'apl',
      name: 'Slow requests',
      dataset: 'web',
      who: me, // set by the server
      metadata: { color: 'red' },
      query: { apl: "['web'] | where duration > 1s", startTime: 'now-1h', endTime: 'now', queryOptions: { timeSeriesView: 'charts' }, extra: 1 },
    });
    const id = created.body.id as string;
    expect((await call(server, `/v2/apl-starred-queries/${id}`)).body).toEqual(created.body);
    const updated = await call(server, `/v2/apl-starred-queries/${id}`, json('PUT', { name: 'Very slow requests', query: { apl: "['web'] | where duration > 5s" } }));
    expect(updated.body).toMatchObject({ name: 'Very slow requests', who: me, dataset: 'web', metadata: { color: 'red' }, query: { apl: "['web'] | where duration > 5s" } });
    expect((await call(server, `/v2/apl-starred-queries/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(server, `/v2/apl-starred-queries/${id}`)).status).toBe(404);
  });

  it('refuses bad bodies: no APL, another kind, unknown query options, a bad dataset name', async () => {
    for (const body of [
      { name: 'x', query: {} },
      { name: 'x', kind: 'mpl', query: { apl: 'a' } },
      { name: 'x', query: { apl: 'a', queryOptions: { warpSpeed: true } } },
      { name: 'x', dataset: 'no spaces', query: { apl: 'a' } },
      { query: { apl: 'a' } },
    ]) {
      expect((await save(body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  describe('lists', () => {
    beforeAll(async () => {
      for (const [name, dataset] of [['mine web 1', 'web'], ['mine api', 'api'], ['mine web 2', 'web']] as const) {
        await save({ name, dataset, query: { apl: `['${dataset}'] | take 10` } });
      }
      await save({ name: 'theirs web', dataset: 'web', query: { apl: "['web'] | count" } }, colleague.token);
    });
    const names = async (query: string, auth?: string) => {
      const response = await call(server, `/v2/apl-starred-queries${query}`, auth ? { auth } : {});
      expect(response.status, query).toBe(200);
      return response.body.map((q: { name: string }) => q.name);
    };

    it('shows the caller\'s own by default, others with who=team, everyone\'s with who=all or a user id', async () => {
      expect(await names('')).toEqual(['mine web 1', 'mine api', 'mine web 2']);
      expect(await names('?who=team')).toEqual(['theirs web']);
      expect(await names('?who=all')).toEqual(['mine web 1', 'mine api', 'mine web 2', 'theirs web']);
      expect(await names(`?who=${colleague.id}`)).toEqual(['theirs web']);
      expect(await names('', colleague.token)).toEqual(['theirs web']);
      expect(await names('?who=team', colleague.token)).toEqual(['mine web 1', 'mine api', 'mine web 2']);
    });

    it('filters by dataset and text, and pages with limit and offset', async () => {
      expect(await names('?dataset=web')).toEqual(['mine web 1', 'mine web 2']);
      expect(await names('?who=all&dataset=web')).toEqual(['mine web 1', 'mine web 2', 'theirs web']);
      expect(await names('?who=all&qs=COUNT')).toEqual(['theirs web']);
      expect(await names('?who=all&limit=2')).toEqual(['mine web 1', 'mine api']);
      expect(await names('?who=all&limit=2&offset=2')).toEqual(['mine web 2', 'theirs web']);
      expect(await names('?who=all&offset=10')).toEqual([]);
      for (const bad of ['?limit=0', '?limit=1001', '?offset=-1', '?limit=many']) {
        expect((await call(server, `/v2/apl-starred-queries${bad}`)).status, bad).toBe(400);
      }
    });

    it('serves the SDK\'s saved query calls', async () => {
      const client = new AxiomWithoutBatching({ url: server.url, token: server.adminToken, onError: () => {} });
      const all = await client.savedQueries.list({ who: 'all', limit: 3 });
      expect(all.map((q) => q.name)).toEqual(['mine web 1', 'mine api', 'mine web 2']);
      expect(await client.savedQueries.get(all[1]!.id)).toEqual(all[1]);
    });

    it('shows a token only the queries of datasets it may read them on', async () => {
      const webOnly = await apiToken(server, { datasetCapabilities: { web: { starredQueries: ['read'] } } });
      expect(await names('?who=all', webOnly)).toEqual(['mine web 1', 'mine web 2', 'theirs web']);
      const apiQuery = (await call(server, '/v2/apl-starred-queries?dataset=api')).body[0].id;
      expect((await call(server, `/v2/apl-starred-queries/${apiQuery}`, { auth: webOnly })).status).toBe(403);
      expect((await save({ name: 'x', dataset: 'web', query: { apl: 'x' } }, webOnly)).status).toBe(403);
      // Someone else's list needs users:read.
      expect((await call(server, `/v2/apl-starred-queries?who=${colleague.id}`, { auth: webOnly })).status).toBe(403);
    });
  });
});
