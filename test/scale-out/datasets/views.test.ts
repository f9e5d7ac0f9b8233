// Views through HTTP and GraphQL: /v2/views, views as query sources (alone, in union and join),
// what they refuse (ingest, trim, views over views), and access through them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aplRows, sendJson } from '../../helpers/api';
import { startTestServer, type TestServer } from '../../helpers/server';

const LOGS = [
  { _time: '2025-05-01T08:00:00Z', app: 'shop', level: 'error', ms: 120 },
  { _time: '2025-05-01T08:01:00Z', app: 'shop', level: 'info', ms: 20 },
  { _time: '2025-05-01T08:02:00Z', app: 'auth', level: 'error', ms: 300 },
  { _time: '2025-05-01T08:03:00Z', app: 'auth', level: 'warn', ms: 80 },
  { _time: '2025-05-01T08:04:00Z', app: 'shop', level: 'error', ms: 45 },
];
const OWNERS = [
  { _time: '2025-05-01T07:00:00Z', app: 'shop', team: 'retail' },
  { _time: '2025-05-01T07:00:00Z', app: 'auth', team: 'identity' },
];
const RANGE = { startTime: '2025-05-01T00:00:00Z', endTime: '2025-05-02T00:00:00Z' };
const ERRORS_APL = "['logs'] | where level == 'error' | project _time, app, ms";

describe('views', () => {
  let server: TestServer;
  let viewId: string;
  const send = (method: string, path: string, body?: unknown, auth?: string) => sendJson(server, method, path, body, auth);
  const query = (apl: string, auth?: string) => aplRows(server, apl, RANGE, auth);
  const token = async (body: Record<string, unknown>) => (await send('POST', '/v2/tokens', { name: 'scoped', ...body })).body.token as string;
  const errors = () => LOGS.filter((e) => e.level === 'error');

  beforeAll(async () => {
    server = await startTestServer();
    for (const name of ['logs', 'owners']) expect((await send('POST', '/v2/datasets', { name })).status).toBe(200);
    expect((await send('POST', '/v1/datasets/logs/ingest', LOGS)).body.ingested).toBe(LOGS.length);
    expect((await send('POST', '/v1/datasets/owners/ingest', OWNERS)).body.ingested).toBe(OWNERS.length);
    const created = await send('POST', '/v2/views', { name: 'errors', aplQuery: ERRORS_APL, description: 'errors only' });
    expect(created.status).toBe(200);
    viewId = created.body.id;
  });
  afterAll(() => server.close());

  it('creates, gets and lists views in the shapes of the v2 API', async () => {
    const expected = { id: viewId, name: 'errors', description: 'errors only', aplQuery: ERRORS_APL, datasets: ['logs'], who: expect.any(String) };
    const fetched = await send('GET', `/v2/views/${viewId}`);
    expect(fetched.body).toMatchObject(expected);
    expect(Date.parse(fetched.body.createdAt)).not.toBeNaN();
    expect((await send('GET', '/v2/views')).body).toEqual([fetched.body]);
  });

  it('refuses bad views with clear errors', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ name: 'bad', aplQuery: "['logs'] | where" }, 400, /syntax error/],
      [{ name: 'bad', aplQuery: "['logs'] | project nosuch" }, 400, /unknown field "nosuch"/],
      [{ name: 'bad', aplQuery: "['nope'] | count" }, 404, /dataset "nope" not found/],
      [{ name: 'bad', aplQuery: "['errors'] | count" }, 400, /a view cannot read another view \("errors"\)/],
      [{ name: 'errors', aplQuery: "['logs']" }, 409, /view "errors" already exists/],
      [{ name: 'logs', aplQuery: "['owners']" }, 409, /a dataset named "logs" exists/],
      [{ name: 'has space', aplQuery: "['logs']" }, 400, /view names are/],
      [{ name: 'bad' }, 400, /aplQuery/],
    ];
    for (const [body, status, message] of cases) {
      const response = await send('POST', '/v2/views', body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.message).toMatch(message);
    }
    expect((await send('GET', '/v2/views/none')).status).toBe(404);
  });

  it('are sources like datasets: alone, in union and in join', async () => {
    expect((await query("['errors'] | sort by _time asc | project app, ms")).rows).toEqual(errors().map((e) => ({ app: e.app, ms: e.ms })));
    const perApp = await query("['errors'] | summarize n = count(), worst = max(ms) by app | sort by app asc");
    expect(perApp.rows).toEqual(
      [...new Set(errors().map((e) => e.app))].sort().map((app) => {
        const mine = errors().filter((e) => e.app === app);
        return { app, n: mine.length, worst: Math.max(...mine.map((e) => e.ms)) };
      }),
    );
    expect((await query("union ['errors'], ['owners'] | count")).rows).toEqual([{ count: errors().length + OWNERS.length }]);
    const joined = await query("['errors'] | join kind=inner (['owners'] | project app, team) on app | sort by _time asc | project app, team");
    expect(joined.rows).toEqual(errors().map((e) => ({ app: e.app, team: OWNERS.find((o) => o.app === e.app)!.team })));
  });

  it('cannot be ingested into or trimmed', async () => {
    expect((await send('POST', '/v1/datasets/errors/ingest', [{ a: 1 }])).status).toBe(404);
    expect((await send('POST', '/v2/datasets/errors/trim', { maxDuration: '1h' })).status).toBe(404);
  });

  it('let a token allowed to query the view read through it, without rights on the dataset', async () => {
    const viewOnly = await token({ viewCapabilities: { errors: { query: ['read'] } } });
    expect((await query("['errors'] | count", viewOnly)).rows).toEqual([{ count: errors().length }]);
    // The token holds nothing on the dataset itself: it is hidden, as a missing one.
    const direct = await query("['logs'] | count", viewOnly);
    expect(direct.status).toBe(404);
    const datasetOnly = await token({ datasetCapabilities: { logs: { query: ['read'] } } });
    const refused = await query("['errors'] | count", datasetOnly);
    expect(refused.status).toBe(403);
    expect(refused.error).toMatch(/view "errors"/);
    // A dataset capability is about datasets: one spelled with the view's name grants nothing on the view.
    const misnamed = await token({ datasetCapabilities: { errors: { query: ['read'] } } });
    expect((await query("['errors'] | count", misnamed)).status).toBe(403);
    const viewsReader = await token({ orgCapabilities: { views: ['read'] } });
    expect((await query("['errors'] | count", viewsReader)).rows).toEqual([{ count: errors().length }]);
    expect((await send('GET', '/v2/views', undefined, viewOnly)).body.map((view: any) => view.name)).toEqual(['errors']);
    expect((await send('GET', '/v2/views', undefined, datasetOnly)).status).toBe(403);
    expect((await send('GET', `/v2/views/${viewId}`, undefined, datasetOnly)).status).toBe(403);
  });

  it('need the views capability to be managed, and their author needs the data', async () => {
    const reader = await token({ orgCapabilities: { views: ['read'] } });
    expect((await send('POST', '/v2/views', { name: 'mine', aplQuery: "['logs']" }, reader)).status).toBe(403);
    expect((await send('PUT', `/v2/views/${viewId}`, { name: 'errors', aplQuery: "['logs']" }, reader)).status).toBe(403);
    expect((await send('DELETE', `/v2/views/${viewId}`, undefined, reader)).status).toBe(403);
    const author = await token({ orgCapabilities: { views: ['create'] }, datasetCapabilities: { owners: { query: ['read'] } } });
    expect((await send('POST', '/v2/views', { name: 'theirs', aplQuery: "['logs'] | count" }, author)).status).toBe(404);
    expect((await send('POST', '/v2/views', { name: 'teams', aplQuery: "['owners'] | project team" }, author)).status).toBe(200);
  });

  it('answer with the new query once updated, and are unknown once deleted', async () => {
    const updated = await send('PUT', `/v2/views/${viewId}`, { name: 'errors', aplQuery: "['logs'] | where level in ('error', 'warn') | project app" });
    expect(updated.status).toBe(200);
    expect(updated.body.aplQuery).toMatch(/warn/);
    expect((await query("['errors'] | count")).rows).toEqual([{ count: LOGS.filter((e) => e.level !== 'info').length }]);
    expect((await send('DELETE', `/v2/views/${viewId}`)).status).toBe(204);
    const gone = await query("['errors'] | count");
    expect(gone.status).toBe(404);
    expect(gone.error).toMatch(/"errors" not found/);
  });

  it('has GraphQL types, a connection and mutations', async () => {
    const created = await server.graphql(
      'mutation { createView(input: { name: "slow", aplQuery: "[\'logs\'] | where ms > 100", description: "slow ones" }) { id viewId name datasets } }',
    );
    expect(created.errors).toBeUndefined();
    const view = created.data.createView;
    expect(view).toMatchObject({ name: 'slow', datasets: ['logs'] });
    const node = await server.graphql(`{ node(id: "${view.id}") { ... on View { description } } }`);
    expect(node.data.node).toEqual({ description: 'slow ones' });
    const listed = await server.graphql('{ views(first: 10) { edges { node { name } } } }');
    expect(listed.data.views.edges.map((edge: any) => edge.node.name)).toEqual(['slow', 'teams']);
    const result = await server.graphql(`{ apl(query: "['slow'] | count", startTime: "${RANGE.startTime}", endTime: "${RANGE.endTime}") { result } }`);
    expect(result.data.apl.result.tables[0].columns[0]).toEqual([LOGS.filter((e) => e.ms > 100).length]);
    const updated = await server.graphql(`mutation { updateView(id: "${view.viewId}", input: { name: "slow", aplQuery: "['logs'] | where ms > 200" }) { aplQuery } }`);
    expect(updated.data.updateView.aplQuery).toMatch(/200/);
    expect((await server.graphql(`mutation { deleteView(id: "${view.viewId}") }`)).data.deleteView).toBe(view.viewId);
    const onView = await server.graphql('mutation { createView(input: { name: "x", aplQuery: "[\'teams\']" }) { id } }');
    expect(onView.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
