// Two organizations on one server: the same dataset name holds two sets of events (and two sets
// of metric points), every object of one is invisible from the other (lists leave it out, its id
// is not found), and tokens of one do nothing in the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { otlpGaugeBody } from '../../helpers/otlp-metrics';
import { addMember, adminOrg, apiToken, call, json, type Member } from '../../helpers/teams';

let server: TestServer;
let orgA: string;
let orgB: string;
let ownerB: Member;
const ids: Record<string, string> = {};

const asB = (init: RequestInit = {}) => ({ ...init, auth: ownerB.token });

beforeAll(async () => {
  server = await startTestServer();
  orgA = await adminOrg(server);
  // Someone who starts in A (with no capabilities there) creates B and owns it.
  ownerB = await addMember(server, 'none');
  orgB = (await call(server, '/v2/orgs', asB(json('POST', { name: 'Org B' })))).body.id;
  await call(server, `/v2/users/${ownerB.id}`, { method: 'DELETE' });

  for (const [auth, events] of [
    [undefined, [{ from: 'a', n: 1 }, { from: 'a', n: 2 }, { from: 'a', n: 3 }]],
    [ownerB.token, [{ from: 'b', n: 10 }]],
  ] as const) {
    const as = auth ? { auth } : {};
    expect((await call(server, '/v2/datasets', { ...json('POST', { name: 'events' }), ...as })).status).toBe(200);
    expect((await call(server, '/v1/datasets/events/ingest', { ...json('POST', events), ...as })).body.ingested).toBe(events.length);
  }
  // One object of every kind in B.
  ids.annotation = (await call(server, '/v2/annotations', asB(json('POST', { type: 'deploy', title: 'b', datasets: ['events'] })))).body.id;
  ids.starred = (await call(server, '/v2/apl-starred-queries', asB(json('POST', { name: 'b', dataset: 'events', query: { apl: "['events']" } })))).body.id;
  ids.role = (await call(server, '/v2/rbac/roles', asB(json('POST', { name: 'b role' })))).body.id;
  ids.group = (await call(server, '/v2/rbac/groups', asB(json('POST', { name: 'b group' })))).body.id;
  ids.token = (await call(server, '/v2/tokens', asB(json('POST', { name: 'b token', datasetCapabilities: { events: { query: ['read'] } } })))).body.id;
  ids.user = ownerB.id;
  expect((await call(server, '/v2/dashboards', asB(json('POST', { uid: 'b-board', dashboard: boardDocument() })))).status).toBe(201);
  ids.view = (await call(server, '/v2/views', asB(json('POST', { name: 'b-view', aplQuery: "['events'] | where n > 5" })))).body.id;
  ids.virtualField = (await call(server, '/v2/vfields', asB(json('POST', { dataset: 'events', name: 'b_doubled', expression: 'n * 2' })))).body.id;
  ids.notifier = (await call(server, '/v2/notifiers', asB(json('POST', { name: 'b hook', properties: { webhook: { url: 'https://hooks.example.test/b' } } })))).body.id;
  ids.monitor = (await call(server, '/v2/monitors', asB(json('POST', { ...monitorDocument('b'), notifierIds: [ids.notifier] })))).body.id;
  expect((await call(server, '/v2/datasets', asB(json('POST', { name: 'b-metrics', kind: 'otel:metrics:v1' })))).status).toBe(200);
  // And in A.
  await call(server, '/v2/annotations', json('POST', { type: 'deploy', title: 'a', datasets: ['events'] }));
  await call(server, '/v2/apl-starred-queries', json('POST', { name: 'a', dataset: 'events', query: { apl: "['events']" } }));
  await call(server, '/v2/rbac/roles', json('POST', { name: 'a role' }));
  await call(server, '/v2/rbac/groups', json('POST', { name: 'a group' }));
  await call(server, '/v2/tokens', json('POST', { name: 'a token' }));
  await call(server, '/v2/dashboards', json('POST', { uid: 'a-board', dashboard: boardDocument() }));
  await call(server, '/v2/views', json('POST', { name: 'a-view', aplQuery: "['events']" }));
  await call(server, '/v2/vfields', json('POST', { dataset: 'events', name: 'a_doubled', expression: 'n * 2' }));
  await call(server, '/v2/notifiers', json('POST', { name: 'a hook', properties: { webhook: { url: 'https://hooks.example.test/a' } } }));
  await call(server, '/v2/monitors', json('POST', monitorDocument('a')));
  // A metrics dataset of the same name in both, each with its own point.
  for (const [auth, value] of [[undefined, 1], [ownerB.token, 7]] as const) {
    const as = auth ? { auth } : {};
    expect((await call(server, '/v2/datasets', { ...json('POST', { name: 'metrics', kind: 'otel:metrics:v1' }), ...as })).status).toBe(200);
    const body = otlpGaugeBody('load', value);
    const sent = await call(server, '/v1/metrics', { method: 'POST', headers: { 'content-type': 'application/x-protobuf', 'x-axiom-metrics-dataset': 'metrics' }, body, ...as });
    expect(sent.status).toBe(200);
  }
  for (const id of Object.values(ids)) expect(id).toBeTruthy();
});
afterAll(() => server.close());

function monitorDocument(name: string) {
  return { name, type: 'Threshold', aplQuery: "['events'] | summarize count()", operator: 'Above', threshold: 1000, intervalMinutes: 60 };
}

function boardDocument() {
  return { name: 'B', owner: 'X-AXIOM-EVERYONE', charts: [], layout: [], refreshTime: 60, schemaVersion: 2, timeWindowStart: 'qr-now-1h', timeWindowEnd: 'qr-now' };
}

const count = async (auth?: string) => {
  const answer = await call(server, '/v1/datasets/_apl?format=tabular', {
    ...json('POST', { apl: "['events'] | summarize n = count(), total = sum(n), who = make_set(from)" }),
    ...(auth ? { auth } : {}),
  });
  expect(answer.status).toBe(200);
  const [n, total, who] = answer.body.tables[0].columns;
  return { n: n[0], total: total[0], who: who[0], annotations: (answer.body.annotations ?? []).map((a: { title: string }) => a.title) };
};

describe('two organizations', () => {
  it('keep two sets of events under the same dataset name, each with its own annotations', async () => {
    expect(await count()).toEqual({ n: 3, total: 6, who: ['a'], annotations: ['a'] });
    expect(await count(ownerB.token)).toEqual({ n: 1, total: 10, who: ['b'], annotations: ['b'] });
    const { prisma } = server.app.services.store;
    const tables = await prisma.dataset.findMany({ where: { name: 'events' }, select: { orgId: true, tableName: true } });
    expect(new Set(tables.map((t) => t.tableName)).size).toBe(2);
    expect(new Set(tables.map((t) => t.orgId))).toEqual(new Set([orgA, orgB]));
  });

  it('leave the other organization\'s objects out of every list', async () => {
    for (const [path, key] of [
      ['/v2/annotations', 'id'],
      ['/v2/apl-starred-queries?who=all', 'id'],
      ['/v2/rbac/roles', 'id'],
      ['/v2/rbac/groups', 'id'],
      ['/v2/tokens', 'id'],
      ['/v2/users', 'id'],
      ['/v2/dashboards', 'uid'],
      ['/v2/orgs', 'id'],
      ['/v2/views', 'id'],
      ['/v2/vfields?dataset=events', 'id'],
      ['/v2/monitors', 'id'],
      ['/v2/notifiers', 'id'],
      ['/v2/datasets', 'name'],
    ] as const) {
      const listed: string[] = (await call(server, path)).body.map((item: Record<string, string>) => item[key]);
      expect(listed.length, path).toBeGreaterThan(0);
      const foreign = new Set([...Object.values(ids), 'b-board', orgB, 'b-metrics']);
      expect(listed.filter((id) => foreign.has(id)), path).toEqual([]);
      // The same list in B does hold B's object.
      const inB: string[] = (await call(server, path, asB())).body.map((item: Record<string, string>) => item[key]);
      expect(inB.some((id) => foreign.has(id)), `${path} in B`).toBe(true);
    }
  });

  it('answer 404 for the other organization\'s ids, and change nothing there', async () => {
    const cases: [string, string, unknown?][] = [
      ['GET', `/v2/annotations/${ids.annotation}`],
      ['PUT', `/v2/annotations/${ids.annotation}`, { title: 'taken over' }],
      ['DELETE', `/v2/annotations/${ids.annotation}`],
      ['GET', `/v2/apl-starred-queries/${ids.starred}`],
      ['PUT', `/v2/apl-starred-queries/${ids.starred}`, { name: 'taken over' }],
      ['DELETE', `/v2/apl-starred-queries/${ids.starred}`],
      ['GET', `/v2/rbac/roles/${ids.role}`],
      ['PUT', `/v2/rbac/roles/${ids.role}`, { name: 'taken over' }],
      ['DELETE', `/v2/rbac/roles/${ids.role}`],
      ['GET', `/v2/rbac/groups/${ids.group}`],
      ['PUT', `/v2/rbac/groups/${ids.group}`, { name: 'taken over' }],
      ['DELETE', `/v2/rbac/groups/${ids.group}`],
      ['GET', `/v2/tokens/${ids.token}`],
      ['POST', `/v2/tokens/${ids.token}/regenerate`, { existingTokenExpiresAt: new Date(Date.now() + 60_000).toISOString() }],
      ['DELETE', `/v2/tokens/${ids.token}`],
      ['GET', `/v2/users/${ids.user}`],
      ['PUT', `/v2/users/${ids.user}/role`, { role: 'none' }],
      ['DELETE', `/v2/users/${ids.user}`],
      ['GET', '/v2/dashboards/uid/b-board'],
      ['DELETE', '/v2/dashboards/uid/b-board'],
      ['PATCH', '/v2/dashboards/uid/b-board/charts/x', { chart: {}, overwrite: true }],
      ['GET', `/v2/orgs/${orgB}`],
      ['PUT', `/v2/orgs/${orgB}`, { name: 'taken over' }],
      ['GET', `/v2/views/${ids.view}`],
      ['PUT', `/v2/views/${ids.view}`, { name: 'b-view', aplQuery: "['events']" }],
      ['DELETE', `/v2/views/${ids.view}`],
      ['GET', `/v2/vfields/${ids.virtualField}`],
      ['PUT', `/v2/vfields/${ids.virtualField}`, { dataset: 'events', name: 'b_doubled', expression: 'n * 100' }],
      ['DELETE', `/v2/vfields/${ids.virtualField}`],
      ['GET', `/v2/monitors/${ids.monitor}`],
      ['PUT', `/v2/monitors/${ids.monitor}`, monitorDocument('taken over')],
      ['DELETE', `/v2/monitors/${ids.monitor}`],
      ['GET', `/v2/monitors/${ids.monitor}/history?startTime=2020-01-01T00:00:00Z&endTime=2030-01-01T00:00:00Z`],
      ['GET', `/v2/notifiers/${ids.notifier}`],
      ['PUT', `/v2/notifiers/${ids.notifier}`, { name: 'taken over', properties: { webhook: { url: 'https://hooks.example.test/x' } } }],
      ['DELETE', `/v2/notifiers/${ids.notifier}`],
      ['GET', `/v2/notifiers/${ids.notifier}/deliveries`],
      ['GET', '/v2/datasets/b-metrics'],
      ['GET', `/v1/query/metrics/info/datasets/b-metrics/metrics?start=now-1d&end=now`],
    ];
    for (const [method, path, body] of cases) {
      const response = await call(server, path, body === undefined ? { method } : json(method, body));
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    // Everything is still there for B.
    expect((await call(server, `/v2/annotations/${ids.annotation}`, asB())).body.title).toBe('b');
    expect((await call(server, `/v2/apl-starred-queries/${ids.starred}`, asB())).body.name).toBe('b');
    expect((await call(server, `/v2/rbac/roles/${ids.role}`, asB())).body.name).toBe('b role');
    expect((await call(server, `/v2/rbac/groups/${ids.group}`, asB())).body.name).toBe('b group');
    expect((await call(server, `/v2/tokens/${ids.token}`, asB())).status).toBe(200);
    expect((await call(server, `/v2/users/${ids.user}`, asB())).body.role.id).toBe('owner');
    expect((await call(server, '/v2/dashboards/uid/b-board', asB())).body.version).toBe(1);
    expect((await call(server, `/v2/orgs/${orgB}`, asB())).body.name).toBe('Org B');
    expect((await call(server, `/v2/views/${ids.view}`, asB())).body.aplQuery).toBe("['events'] | where n > 5");
    expect((await call(server, `/v2/vfields/${ids.virtualField}`, asB())).body.expression).toBe('n * 2');
    const monitor = (await call(server, `/v2/monitors/${ids.monitor}`, asB())).body;
    expect([monitor.name, monitor.notifierIds]).toEqual(['b', [ids.notifier]]);
    expect((await call(server, `/v2/notifiers/${ids.notifier}`, asB())).body.name).toBe('b hook');
  });

  it('keep metrics apart under the same dataset name, and refuse the other organization\'s notifiers', async () => {
    const mpl = (query: string, auth?: string) =>
      call(server, '/v1/query/_mpl', { ...json('POST', { mpl: query, startTime: 'now-1d', endTime: 'now+1h' }), ...(auth ? { auth } : {}) });
    const values = (answer: { body: { series: { data: (number | null)[] }[] } }) => answer.body.series.flatMap((series) => series.data.filter((v) => v !== null));
    const inA = await mpl('metrics:load | align to 1d using max');
    expect(inA.status).toBe(200);
    expect(values(inA)).toEqual([1]);
    expect(values(await mpl('metrics:load | align to 1d using max', ownerB.token))).toEqual([7]);
    expect((await mpl('`b-metrics`:load | align to 1d using max')).status).toBe(404);
    // A monitor of A cannot notify through B's notifier.
    const borrowed = await call(server, '/v2/monitors', json('POST', { ...monitorDocument('borrow'), notifierIds: [ids.notifier] }));
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.message).toMatch(/no notifier .* in this organization/);
  });

  it('resolve view and virtual field names within the organization only', async () => {
    const apl = (query: string, auth?: string) => call(server, '/v1/datasets/_apl?format=tabular', { ...json('POST', { apl: query }), ...(auth ? { auth } : {}) });
    // B's view and virtual field are unknown names in A, over A's own dataset of the same name.
    expect((await apl("['b-view'] | count")).status).toBe(404);
    expect((await apl("['events'] | project b_doubled")).status).toBe(400);
    const doubled = await apl("['events'] | summarize total = sum(a_doubled)");
    expect(doubled.body.tables[0].columns[0]).toEqual([12]);
    // In B they read B's events only.
    const throughView = await apl("['b-view'] | summarize total = sum(b_doubled)", ownerB.token);
    expect(throughView.status).toBe(200);
    expect(throughView.body.tables[0].columns[0]).toEqual([20]);
    expect((await apl("['a-view'] | count", ownerB.token)).status).toBe(404);
  });

  it('refuse tokens in the other organization', async () => {
    const tokenA = await apiToken(server, { datasetCapabilities: { '*': { query: ['read'] } } });
    expect((await call(server, '/v2/datasets', { auth: tokenA, headers: { 'x-axiom-org-id': orgB } })).status).toBe(403);
    expect((await call(server, '/v2/datasets', { headers: { 'x-axiom-org-id': orgB } })).status).toBe(403);
    // A custom role of B cannot be given in A.
    const foreignRole = await call(server, '/v2/users', json('POST', { name: 'x', email: 'x@example.com', role: ids.role }));
    expect(foreignRole.status).toBe(400);
    const foreignGroup = await call(server, '/v2/rbac/groups', json('POST', { name: 'x', roles: [ids.role] }));
    expect(foreignGroup.status).toBe(400);
    // A dashboard of A cannot be owned by a group of B.
    const foreignOwner = await call(server, '/v2/dashboards', json('POST', { dashboard: { ...boardDocument(), owner: ids.group } }));
    expect(foreignOwner.status).toBe(400);
  });
});
