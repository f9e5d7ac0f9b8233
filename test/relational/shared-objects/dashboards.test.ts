// Dashboards through /v2/dashboards and the official SDK: uids, 201/409/overwrite, versions and
// 412 with currentVersion, JSON merge patches of one chart, paging, who sees what (API tokens:
// shared dashboards only), validation of the document that keeps what it does not know.
import { AxiomWithoutBatching } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { addMember, apiToken, call, json } from '../../helpers/teams';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const EVERYONE = 'X-AXIOM-EVERYONE';

function document(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Checkout',
    owner: EVERYONE,
    description: 'checkout health',
    charts: [
      { id: 'requests', type: 'TimeSeries', name: 'Requests', query: { apl: "['web'] | summarize count() by bin_auto(_time)" } },
      { id: 'note', type: 'Note', text: 'Paged at night' },
    ],
    layout: [
      { i: 'requests', x: 0, y: 0, w: 6, h: 4 },
      { i: 'note', x: 6, y: 0, w: 6, h: 4 },
    ],
    refreshTime: 60,
    schemaVersion: 2,
    timeWindowStart: 'qr-now-1h',
    timeWindowEnd: 'qr-now',
    ...overrides,
  };
}

const post = (body: unknown, auth?: string) => call(server, '/v2/dashboards', { ...json('POST', body), ...(auth ? { auth } : {}) });
const put = (uid: string, body: unknown, auth?: string) => call(server, `/v2/dashboards/uid/${uid}`, { ...json('PUT', body), ...(auth ? { auth } : {}) });
const patch = (uid: string, chartId: string, body: unknown) => call(server, `/v2/dashboards/uid/${uid}/charts/${chartId}`, json('PATCH', body));
const get = (uid: string, auth?: string) => call(server, `/v2/dashboards/uid/${uid}`, auth ? { auth } : {});

describe('dashboards', () => {
  it('creates with 201 under the given uid (or a generated one) and reads it back', async () => {
    const created = await post({ uid: 'checkout', dashboard: document() });
    expect(created.status).toBe(201);
    const me = (await call(server, '/v2/user')).body.id;
    expect(created.body).toEqual({
      status: 'created',
      dashboard: {
        id: expect.any(String),
        uid: 'checkout',
        version: 1,
        dashboard: document(),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        createdBy: me,
        updatedBy: me,
      },
    });
    expect((await get('checkout')).body).toEqual(created.body.dashboard);
    const generated = await post({ dashboard: document({ name: 'No uid' }) });
    expect(generated.status).toBe(201);
    expect(generated.body.dashboard.uid).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
    const fromDocument = await post({ dashboard: document({ name: 'uid inside', uid: 'inside' }) });
    expect(fromDocument.body.dashboard.uid).toBe('inside');
  });

  it('answers 409 for an existing uid, and replaces it with overwrite', async () => {
    await post({ uid: 'taken', dashboard: document() });
    const again = await post({ uid: 'taken', dashboard: document({ name: 'Second' }) });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_exists', uid: 'taken', message: expect.stringMatching(/already exists/) });
    expect((await get('taken')).body.dashboard.name).toBe('Checkout');
    const replaced = await post({ uid: 'taken', overwrite: true, dashboard: document({ name: 'Second' }) });
    expect(replaced).toMatchObject({ status: 200, body: { status: 'updated', overwritten: true, dashboard: { uid: 'taken', version: 2 } } });
    expect((await get('taken')).body.dashboard.name).toBe('Second');
  });

  it('updates with the current version, which advances with updatedAt; a stale or missing version is a 412', async () => {
    const created = (await post({ uid: 'versioned', dashboard: document() })).body.dashboard;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await put('versioned', { version: 1, dashboard: document({ name: 'Renamed' }) });
    expect(updated).toMatchObject({ status: 200, body: { status: 'updated', dashboard: { version: 2, dashboard: { name: 'Renamed' } } } });
    expect(updated.body.overwritten).toBeUndefined();
    expect(Date.parse(updated.body.dashboard.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect(updated.body.dashboard.createdAt).toBe(created.createdAt);

    const stale = await put('versioned', { version: 1, dashboard: document({ name: 'Lost update' }) });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 'version_conflict', currentVersion: 2, uid: 'versioned' });
    const missing = await put('versioned', { dashboard: document({ name: 'Lost update' }) });
    expect(missing).toMatchObject({ status: 412, body: { currentVersion: 2 } });
    expect((await get('versioned')).body).toMatchObject({ version: 2, dashboard: { name: 'Renamed' } });

    const overwritten = await put('versioned', { overwrite: true, dashboard: document({ name: 'Forced' }) });
    expect(overwritten.body).toMatchObject({ status: 'updated', overwritten: true, dashboard: { version: 3, dashboard: { name: 'Forced' } } });
  });

  it('lets exactly one of two writers holding the same version win', async () => {
    await post({ uid: 'raced', dashboard: document() });
    const results = await Promise.all(['A', 'B', 'C'].map((name) => put('raced', { version: 1, dashboard: document({ name }) })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412]);
    const winner = results.find((r) => r.status === 200)!.body.dashboard.dashboard.name;
    expect((await get('raced')).body).toMatchObject({ version: 2, dashboard: { name: winner } });
  });

  it('creates on PUT to a new uid (201), and refuses a body uid that differs from the path', async () => {
    expect((await put('fresh', { dashboard: document() })).status).toBe(201);
    expect((await put('fresh', { uid: 'other', version: 1, dashboard: document() })).status).toBe(400);
    expect((await put('fresh', { version: 1, dashboard: document({ uid: 'other' }) })).status).toBe(400);
    expect((await put('bad uid!', { dashboard: document() })).status).toBe(400);
  });

  describe('chart patches', () => {
    beforeAll(async () => {
      await post({
        uid: 'patched',
        dashboard: document({
          charts: [
            { id: 'requests', type: 'TimeSeries', name: 'Requests', query: { apl: "['web'] | count", queryOptions: { timeSeriesVariant: 'line' } }, colors: ['red', 'blue'] },
            { id: 'note', type: 'Note', text: 'Paged at night' },
          ],
        }),
      });
    });

    it('merges into one chart (RFC 7396): null removes, objects merge, arrays replace; the version advances', async () => {
      const patched = await patch('patched', 'requests', {
        version: 1,
        chart: { name: null, query: { apl: "['web'] | summarize count()" }, colors: ['green'], newSetting: { on: true } },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ status: 'updated', dashboard: { version: 2 } });
      const charts = (await get('patched')).body.dashboard.charts;
      expect(charts[0]).toEqual({
        id: 'requests',
        type: 'TimeSeries',
        query: { apl: "['web'] | summarize count()", queryOptions: { timeSeriesVariant: 'line' } },
        colors: ['green'],
        newSetting: { on: true },
      });
      expect(charts[1]).toEqual({ id: 'note', type: 'Note', text: 'Paged at night' });
    });

    it('answers 400 for another id, 404 for an unknown dashboard or chart, 412 for a stale version', async () => {
      expect((await patch('patched', 'requests', { version: 2, chart: { id: 'note' } })).status).toBe(400);
      expect((await patch('patched', 'requests', { version: 2, chart: { id: null } })).status).toBe(400);
      const unknownDashboard = await patch('nowhere', 'requests', { version: 1, chart: { name: 'x' } });
      expect(unknownDashboard).toMatchObject({ status: 404, body: { code: 'not_found' } });
      expect((await patch('patched', 'nothing', { version: 2, chart: { name: 'x' } })).status).toBe(404);
      const stale = await patch('patched', 'requests', { version: 1, chart: { name: 'x' } });
      expect(stale).toMatchObject({ status: 412, body: { code: 'version_conflict', currentVersion: 2 } });
      // A patch leaving an invalid chart is refused whole.
      const invalid = await patch('patched', 'requests', { version: 2, chart: { query: null } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.message).toMatch(/charts\.0\.query/);
      expect((await get('patched')).body.version).toBe(2);
      // With overwrite no version is needed.
      expect((await patch('patched', 'note', { overwrite: true, chart: { text: 'Updated' } })).body.dashboard.version).toBe(3);
    });
  });

  it('validates the document, naming what is wrong, and keeps what it does not know', async () => {
    for (const [overrides, field] of [
      [{ refreshTime: 30 }, 'refreshTime'],
      [{ schemaVersion: 1 }, 'schemaVersion'],
      [{ name: '' }, 'name'],
      [{ name: undefined }, 'name'],
      [{ owner: 'nobody-here' }, 'owner'],
      [{ layout: [{ i: 'requests', x: 12, y: 0, w: 6, h: 4 }] }, 'layout.0.x'],
      [{ charts: [{ id: 'a', type: 'TimeSeries' }] }, 'charts.0.query'],
      [{ charts: [{ id: 'a', type: 'Note', text: 'x' }, { id: 'a', type: 'Note', text: 'y' }] }, 'duplicate chart id'],
      [{ charts: [{ id: 'a', type: 'Pie', query: { apl: 'x', mpl: 'y' } }] }, 'exactly one'],
      [{ charts: [{ id: 'g', type: 'Gauge', options: { min: 0, max: 100 } }] }, 'charts.0.query'],
      [{ charts: [{ id: 's', type: 'Section', name: 'Latency', collapsedByDefault: 'yes' }] }, 'charts.0.collapsedByDefault'],
    ] as const) {
      const response = await post({ dashboard: document(overrides as Record<string, unknown>) });
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      expect(response.body.message).toContain(field);
      expect(response.body.code).toBe('invalid_request');
    }
    expect((await post({})).status).toBe(400);
    const future = document({
      futureSetting: { mode: 'auto' },
      charts: [
        { id: 'holo', type: 'Hologram', depth: 3 },
        { id: 'ts', type: 'TimeSeries', query: { apl: 'x', futureOption: 1 }, sparkle: true },
      ],
      layout: [{ i: 'holo', x: 0, y: null, w: 12, h: 2, futureHint: 'wide' }],
    });
    const kept = await post({ uid: 'future', dashboard: future });
    expect(kept.status).toBe(201);
    expect((await get('future')).body.dashboard).toEqual(future);
  });

  it('pages with limit and offset, oldest first', async () => {
    const uids = (await call(server, '/v2/dashboards?limit=1000')).body.map((d: { uid: string }) => d.uid);
    expect(uids.length).toBeGreaterThan(5);
    expect((await call(server, '/v2/dashboards?limit=2')).body.map((d: { uid: string }) => d.uid)).toEqual(uids.slice(0, 2));
    expect((await call(server, '/v2/dashboards?limit=3&offset=2')).body.map((d: { uid: string }) => d.uid)).toEqual(uids.slice(2, 5));
    expect((await call(server, `/v2/dashboards?offset=${uids.length}`)).body).toEqual([]);
    for (const bad of ['limit=0', 'limit=1001', 'offset=-1']) expect((await call(server, `/v2/dashboards?${bad}`)).status, bad).toBe(400);
  });

  it('shows private dashboards to their owner only, group dashboards to the group, and API tokens shared ones only', async () => {
    const me = (await call(server, '/v2/user')).body.id;
    const member = await addMember(server, 'user');
    const outsider = await addMember(server, 'user');
    const group = (await call(server, '/v2/rbac/groups', json('POST', { name: 'dash group', members: [member.id] }))).body.id;
    await post({ uid: 'private', dashboard: document({ owner: me }) });
    await post({ uid: 'grouped', dashboard: document({ owner: group }) });
    await post({ uid: 'shared', dashboard: document({ owner: EVERYONE }) });
    const token = await apiToken(server, { orgCapabilities: { dashboards: ['read'] } });
    const seen = async (auth?: string) =>
      (await call(server, '/v2/dashboards?limit=1000', auth ? { auth } : {})).body
        .map((d: { uid: string }) => d.uid)
        .filter((uid: string) => ['private', 'grouped', 'shared'].includes(uid));
    expect(await seen()).toEqual(['private', 'shared']);
    expect(await seen(member.token)).toEqual(['grouped', 'shared']);
    expect(await seen(outsider.token)).toEqual(['shared']);
    expect(await seen(token)).toEqual(['grouped', 'shared']);
    expect((await get('private', token)).status).toBe(404);
    expect((await get('private', outsider.token)).status).toBe(404);
    expect((await call(server, '/v2/dashboards/uid/private', { method: 'DELETE', auth: outsider.token })).status).toBe(404);
    expect((await get('private')).status).toBe(200);
  });

  it('deletes, then answers 404 in the DashboardError shape', async () => {
    await post({ uid: 'doomed', dashboard: document() });
    expect((await call(server, '/v2/dashboards/uid/doomed', { method: 'DELETE' })).status).toBe(204);
    const gone = await get('doomed');
    expect(gone).toMatchObject({ status: 404, body: { code: 'not_found', message: expect.stringMatching(/doomed/) } });
    expect((await call(server, '/v2/dashboards/uid/doomed', { method: 'DELETE' })).status).toBe(404);
  });

  it('serves the SDK\'s dashboard calls', async () => {
    const token = await apiToken(server, { orgCapabilities: { dashboards: ['read'] } });
    const client = new AxiomWithoutBatching({ url: server.url, token, onError: () => {} });
    const everyShared = (await call(server, '/v2/dashboards?limit=1000', { auth: token })).body.map((d: { uid: string }) => d.uid);
    const listed = await client.dashboards.list({ limit: 2, offset: 1 });
    expect(listed.map((d) => d.uid)).toEqual(everyShared.slice(1, 3));
    expect(await client.dashboards.get('checkout')).toMatchObject({ uid: 'checkout', version: 1, dashboard: { name: 'Checkout' } });
    await expect(client.dashboards.get('private')).rejects.toThrow(/404/);
  });
});
