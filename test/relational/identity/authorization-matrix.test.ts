// The authorization matrix: every kind of token (personal tokens of each base role, of a custom
// role and of a group member; API tokens with everything, reading rights, nothing, and one
// bounded by a creator who was demoted) against every REST route and every GraphQL field.
// What each may do is written here from Axiom's capability tables, independently of the server's
// own tables; each request is expected to succeed when allowed and to be refused (403, or the
// dataset's 404 where the server hides datasets the caller holds nothing on) otherwise, and a
// refused write must leave the store as it was. Two more tests check that the matrix covers
// every route of /openapi.json and every field of the GraphQL schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { otlpGaugeBody } from '../../helpers/otlp-metrics';
import { addMember, adminOrg, apiToken, call, json } from '../../helpers/teams';

// ---------------------------------------------------------------------------------------------
// What each principal holds, from Axiom's RBAC page (reference/settings.mdx) and v2 schemas.

type Actions = string[];
interface Caps {
  dataset: Record<string, Record<string, Actions>>;
  org: Record<string, Actions>;
  view?: Record<string, Record<string, Actions>>;
}
const CRUD = ['create', 'read', 'update', 'delete'];
const ALL_DATASET: Record<string, Actions> = {
  ingest: ['create'],
  query: ['read'],
  trim: ['update'],
  vacuum: ['update'],
  data: ['delete'],
  share: ['create', 'read', 'delete'],
  starredQueries: CRUD,
  virtualFields: CRUD,
};
const ALL_ORG: Record<string, Actions> = {
  annotations: CRUD,
  apiTokens: CRUD,
  auditLog: ['read'],
  billing: ['read', 'update'],
  dashboards: CRUD,
  datasets: CRUD,
  endpoints: CRUD,
  flows: CRUD,
  integrations: CRUD,
  monitors: CRUD,
  notifiers: CRUD,
  rbac: CRUD,
  sharedAccessKeys: ['read', 'update'],
  users: CRUD,
  views: CRUD,
};
const ALL_VIEW: Record<string, Actions> = { query: ['read'], share: ['create', 'read', 'delete'] };
const readOnlyOrg = { annotations: ['read'], dashboards: ['read'], datasets: ['read'], monitors: ['read'], notifiers: ['read'], users: ['read'], views: ['read'] };
const { billing: _billing, ...allButBilling } = ALL_ORG;
const ROLE_CAPS: Record<string, Caps> = {
  owner: { dataset: { '*': ALL_DATASET }, org: ALL_ORG, view: { '*': ALL_VIEW } },
  admin: { dataset: { '*': ALL_DATASET }, org: allButBilling, view: { '*': ALL_VIEW } },
  user: {
    dataset: { '*': { ingest: ['create'], query: ['read'], share: ['read'], starredQueries: CRUD, virtualFields: CRUD } },
    org: {
      ...readOnlyOrg,
      annotations: CRUD,
      apiTokens: CRUD,
      dashboards: CRUD,
      datasets: ['create', 'read', 'update'],
      endpoints: ['read'],
      integrations: ['read'],
      monitors: CRUD,
      views: CRUD,
    },
    view: { '*': { query: ['read'], share: ['read'] } },
  },
  'read-only': { dataset: { '*': { query: ['read'], starredQueries: ['read'], virtualFields: ['read'] } }, org: readOnlyOrg, view: { '*': { query: ['read'] } } },
  none: { dataset: {}, org: {} },
};
const CUSTOM_CAPS: Caps = {
  dataset: { matrix: { query: ['read'], ingest: ['create'], starredQueries: CRUD } },
  org: { dashboards: ['read', 'update'], annotations: ['read'], datasets: ['read'] },
  // Reads one view only, through a view capability rather than the organization's `views`.
  view: { 'matrix-view': { query: ['read'] } },
};
const READER_TOKEN_CAPS: Caps = {
  dataset: { '*': { query: ['read'], starredQueries: ['read'], virtualFields: ['read'], share: ['read'] } },
  org: Object.fromEntries(Object.entries(ALL_ORG).map(([name, actions]) => [name, actions.filter((a) => a === 'read')]).filter(([, a]) => (a ?? []).length > 0)),
};
// Asked for by a member who is then demoted to read-only: what both allow.
const BOUNDED_ASKED: Caps = {
  dataset: { '*': { ingest: ['create'], query: ['read'] } },
  org: { datasets: CRUD, users: CRUD, annotations: CRUD, dashboards: ['read'] },
};
const BOUNDED_CAPS: Caps = {
  dataset: { '*': { query: ['read'] } },
  org: { datasets: ['read'], users: ['read'], annotations: ['read'], dashboards: ['read'] },
};

interface Who {
  name: string;
  kind: 'personal' | 'api';
  role?: string;
  caps: Caps;
  token: string;
}

// ---------------------------------------------------------------------------------------------
// Conditions, evaluated on the principal's expected capabilities.

type Need = (who: Who) => boolean;
const anyToken: Need = () => true;
const personal: Need = (who) => who.kind === 'personal';
const roleIn = (...roles: string[]): Need => (who) => who.kind === 'personal' && roles.includes(who.role!);
const org = (capability: string, action: string): Need => (who) => who.caps.org[capability]?.includes(action) ?? false;
const ds = (dataset: string, capability: string, action: string): Need => (who) =>
  (who.caps.dataset[dataset]?.[capability]?.includes(action) ?? false) || (who.caps.dataset['*']?.[capability]?.includes(action) ?? false);
const dsAnywhere = (capability: string, action: string): Need => (who) => Object.values(who.caps.dataset).some((c) => c[capability]?.includes(action));
/** Sees that a dataset exists: `datasets:read`, or any capability on it. */
const see = (dataset: string): Need => (who) =>
  org('datasets', 'read')(who) || Object.values({ ...who.caps.dataset['*'], ...who.caps.dataset[dataset] }).some((a) => a.length > 0);
const all = (...needs: Need[]): Need => (who) => needs.every((need) => need(who));
/** May query a view: the organization's `views:read`, or the view capability `query:read` on it. */
const queryView = (view: string): Need => (who) =>
  org('views', 'read')(who) || (who.caps.view?.[view]?.query?.includes('read') ?? false) || (who.caps.view?.['*']?.query?.includes('read') ?? false);
/** May list views: the organization's `views:read`, or `query:read` on some view. */
const listViews: Need = (who) => org('views', 'read')(who) || Object.values(who.caps.view ?? {}).some((c) => c.query?.includes('read') ?? false);
/** The view the matrix reads through (over the `matrix` dataset). */
const VIEW = 'matrix-view';
/** A monitor's definition, as /v2/monitors takes it. */
const MONITOR = { name: 'matrix count', type: 'Threshold', aplQuery: "['matrix'] | summarize count()", operator: 'Above', threshold: 1000, intervalMinutes: 60 };
const notifierBody = (name = 'matrix hook') => ({ name, properties: { webhook: { url: 'https://hooks.example.test/matrix' } } });
/** Monitors are seen by those who may read monitors and query what they read (here `matrix`); others get 404. */
const seeMonitor = (action: string): Need => all(org('monitors', action), ds('matrix', 'query', 'read'));
/** Three hourly runs of MONITOR, a day back. */
const BACKTEST_RANGE = { startTime: new Date(Date.now() - 27 * 3_600_000).toISOString(), endTime: new Date(Date.now() - 24 * 3_600_000).toISOString() };
const HISTORY_RANGE = `startTime=${encodeURIComponent('2020-01-01T00:00:00Z')}&endTime=${encodeURIComponent('2030-01-01T00:00:00Z')}`;

/** The metrics dataset the matrix reads and writes (kind otel:metrics:v1). */
const METRICS = 'matrix-metrics';

// ---------------------------------------------------------------------------------------------

let server: TestServer;
let orgId: string;
let matrixViewId: string;
const principals: Who[] = [];
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

const asAdmin = (path: string, init: RequestInit = {}) =>
  call(server, path, { ...init, headers: { 'x-axiom-org-id': orgId, ...(init.headers as Record<string, string>) } });

function dashboardDocument(name = 'Matrix') {
  return {
    name,
    owner: 'X-AXIOM-EVERYONE',
    charts: [{ id: 'n1', type: 'Note', text: 'hello' }],
    layout: [{ i: 'n1', x: 0, y: 0, w: 12, h: 2 }],
    refreshTime: 60,
    schemaVersion: 2,
    timeWindowStart: 'qr-now-1h',
    timeWindowEnd: 'qr-now',
  };
}

/** Fresh objects for one request, made as the admin. */
const make = {
  async dataset() {
    const name = unique('m');
    expect((await asAdmin('/v2/datasets', json('POST', { name }))).status).toBe(200);
    expect((await asAdmin(`/v1/datasets/${name}/ingest`, json('POST', [{ a: 1, _time: '2020-01-01T00:00:00Z' }, { a: 2 }]))).status).toBe(200);
    return name;
  },
  async token() {
    return (await asAdmin('/v2/tokens', json('POST', { name: unique('t') }))).body.id as string;
  },
  async member() {
    return (await asAdmin('/v2/users', json('POST', { name: 'Target', email: `${unique('target')}@example.com`, role: 'none' }))).body.id as string;
  },
  async role() {
    return (await asAdmin('/v2/rbac/roles', json('POST', { name: unique('role') }))).body.id as string;
  },
  async group() {
    return (await asAdmin('/v2/rbac/groups', json('POST', { name: unique('group') }))).body.id as string;
  },
  async annotation() {
    return (await asAdmin('/v2/annotations', json('POST', { type: 'deploy', datasets: ['matrix'] }))).body.id as string;
  },
  async starred() {
    return (await asAdmin('/v2/apl-starred-queries', json('POST', { name: unique('q'), dataset: 'matrix', query: { apl: "['matrix']" } }))).body.id as string;
  },
  async dashboard() {
    const uid = unique('board');
    expect((await asAdmin('/v2/dashboards', json('POST', { uid, dashboard: dashboardDocument() }))).status).toBe(201);
    return uid;
  },
  /** A view over `matrix`; its id. */
  async view() {
    const created = await asAdmin('/v2/views', json('POST', { name: unique('view'), aplQuery: "['matrix'] | count" }));
    expect(created.status).toBe(200);
    return created.body.id as string;
  },
  /** A virtual field of `matrix`; its id. */
  async virtualField() {
    const created = await asAdmin('/v2/vfields', json('POST', { dataset: 'matrix', name: unique('vf'), expression: 'a * 2' }));
    expect(created.status).toBe(200);
    return created.body.id as string;
  },
  /** A threshold monitor over `matrix` (it never fires: the dataset holds a few events); its id. */
  async monitor() {
    const created = await asAdmin('/v2/monitors', json('POST', MONITOR));
    expect(created.status).toBe(200);
    return created.body.id as string;
  },
  /** A webhook notifier; its id. */
  async notifier() {
    const created = await asAdmin('/v2/notifiers', json('POST', notifierBody()));
    expect(created.status).toBe(200);
    return created.body.id as string;
  },
  async provisioned() {
    const response = await call(server, '/v2/orgs/provision', { ...json('POST', {}), auth: false });
    expect(response.status).toBe(200);
    const url = new URL(response.body.claimUrl);
    return { id: response.body.id as string, path: `${url.pathname}${url.search}`, secret: url.searchParams.get('token')! };
  },
};

/** Snapshots of what a write could change, read as the admin. */
const state = {
  dataset: async (name: string) => ({
    dataset: (await asAdmin(`/v2/datasets/${name}`)).body,
    fields: (await asAdmin(`/v2/datasets/${name}/fields`)).body,
    mapFields: (await asAdmin(`/v2/datasets/${name}/mapfields`)).body,
    events: (await asAdmin('/v1/datasets/_apl?format=tabular', json('POST', { apl: `['${name}'] | summarize count(), sum(a)`, startTime: '2000-01-01T00:00:00Z', endTime: 'now' }))).body.tables[0].columns,
  }),
  list: (path: string) => async () => (await asAdmin(path)).body,
  one: (path: string) => async () => (await asAdmin(path)).body,
  org: async () => (await asAdmin(`/v2/orgs/${orgId}`)).body.name,
  orgCount: async () => server.app.services.store.prisma.organization.count(),
  views: async () => (await asAdmin('/v2/views')).body,
  monitors: async () => (await asAdmin('/v2/monitors')).body,
  notifiers: async () => (await asAdmin('/v2/notifiers')).body,
  virtualFields: async () => (await asAdmin('/v2/vfields?dataset=matrix')).body,
  claimed: async (id: string) => (await server.app.services.store.prisma.organization.findUniqueOrThrow({ where: { id } })).expiresAt === null,
};

// ---------------------------------------------------------------------------------------------
// REST routes: the path as /openapi.json spells it, what the request needs, how to make it.

interface RestCase {
  method: string;
  path: string;
  allowed: Need;
  /** The target is a dataset: a caller holding nothing on it may get its 404 instead of 403. */
  datasetScoped?: boolean;
  prepare?: () => Promise<any>;
  url: (vars: any) => string;
  body?: (vars: any) => unknown;
  /** A body sent as it is, with its media type, instead of JSON. */
  raw?: (vars: any) => { contentType: string; text: string | Uint8Array<ArrayBuffer> };
  headers?: (vars: any) => Record<string, string>;
  /** Statuses of a refusal, when the route's door answers in its own way (default 403). */
  refused?: number[];
  /** Reads the outcome when the status alone does not tell (a stream of per-query answers). */
  outcome?: (status: number, text: string) => 'allowed' | 'refused' | 'other';
  /** For writes: what must be unchanged after a refusal. */
  snapshot?: (vars: any) => Promise<unknown>;
}

function datasetRoutes(prefix: string, id: 'dataset' | 'id'): RestCase[] {
  const p = `${prefix}/datasets`;
  const param = `{${id}}`;
  const cases: RestCase[] = [
    { method: 'GET', path: p, allowed: anyToken, url: () => p },
    { method: 'POST', path: p, allowed: org('datasets', 'create'), prepare: async () => unique('new'), url: () => p, body: (name) => ({ name }), snapshot: state.list('/v2/datasets') },
    { method: 'GET', path: `${p}/${param}`, allowed: see('matrix'), datasetScoped: true, url: () => `${p}/matrix` },
    {
      method: 'PUT',
      path: `${p}/${param}`,
      allowed: all(org('datasets', 'update'), see('x')),
      datasetScoped: true,
      prepare: make.dataset,
      url: (name) => `${p}/${name}`,
      body: () => ({ description: 'changed' }),
      snapshot: state.dataset,
    },
    {
      method: 'DELETE',
      path: `${p}/${param}`,
      allowed: all(org('datasets', 'delete'), see('x')),
      datasetScoped: true,
      prepare: make.dataset,
      url: (name) => `${p}/${name}`,
      snapshot: state.dataset,
    },
    {
      method: 'POST',
      path: `${p}/${param}/trim`,
      allowed: ds('x', 'trim', 'update'),
      datasetScoped: true,
      prepare: make.dataset,
      url: (name) => `${p}/${name}/trim`,
      body: () => ({ maxDuration: '1h' }),
      snapshot: state.dataset,
    },
  ];
  return cases;
}

function ingestAndQueryRoutes(prefix: string): RestCase[] {
  const ingestInto = (path: (name: string) => string, openapi: string): RestCase => ({
    method: 'POST',
    path: openapi,
    allowed: ds('x', 'ingest', 'create'),
    datasetScoped: true,
    prepare: make.dataset,
    url: path,
    body: () => [{ a: 100 }],
    snapshot: state.dataset,
  });
  return [
    ingestAndQuery(ingestInto((name) => `${prefix}/datasets/${name}/ingest`, `${prefix}/datasets/{dataset}/ingest`)),
    ingestInto((name) => `${prefix}/ingest/${name}`, `${prefix}/ingest/{dataset}`),
    ingestInto((name) => `${prefix}/ingest?dataset=${name}`, `${prefix}/ingest`),
    { method: 'POST', path: `${prefix}/datasets/_apl`, allowed: ds('matrix', 'query', 'read'), datasetScoped: true, url: () => `${prefix}/datasets/_apl?format=tabular`, body: () => ({ apl: "['matrix'] | count" }) },
    {
      method: 'POST',
      path: `${prefix}/datasets/{dataset}/query`,
      allowed: ds('matrix', 'query', 'read'),
      datasetScoped: true,
      url: () => `${prefix}/datasets/matrix/query`,
      body: () => ({ startTime: '2000-01-01T00:00:00Z', endTime: 'now', resolution: 'auto' }),
    },
    { method: 'GET', path: `${prefix}/user`, allowed: personal, url: () => `${prefix}/user` },
  ];
}
const ingestAndQuery = (c: RestCase) => c;

const REST: RestCase[] = [
  ...datasetRoutes('/v1', 'dataset'),
  ...datasetRoutes('/api/v1', 'dataset'),
  ...datasetRoutes('/v2', 'id'),
  ...ingestAndQueryRoutes('/v1'),
  ...ingestAndQueryRoutes('/api/v1'),
  ...edgeQueryRoutes('/v1'),
  ...edgeQueryRoutes('/api/v1'),
  ...metricsRoutes('/v1'),
  ...metricsRoutes('/api/v1'),
  metricsIngestRoute(),
  ...shipperRoutes(),
  {
    method: 'POST',
    path: '/v2/datasets/{id}/vacuum',
    allowed: ds('x', 'vacuum', 'update'),
    datasetScoped: true,
    prepare: make.dataset,
    url: (name) => `/v2/datasets/${name}/vacuum`,
    snapshot: state.dataset,
  },
  { method: 'GET', path: '/v2/datasets/{id}/fields', allowed: see('matrix'), datasetScoped: true, url: () => '/v2/datasets/matrix/fields' },
  { method: 'GET', path: '/v2/datasets/{id}/fields/{*}', allowed: see('matrix'), datasetScoped: true, url: () => '/v2/datasets/matrix/fields/a' },
  {
    method: 'PUT',
    path: '/v2/datasets/{id}/fields/{*}',
    allowed: all(org('datasets', 'update'), see('x')),
    datasetScoped: true,
    prepare: make.dataset,
    url: (name) => `/v2/datasets/${name}/fields/a`,
    body: () => ({ unit: 'ms', description: 'changed' }),
    snapshot: state.dataset,
  },
  { method: 'GET', path: '/v2/datasets/{id}/mapfields', allowed: all(see('matrix'), org('datasets', 'read')), datasetScoped: true, url: () => '/v2/datasets/matrix/mapfields' },
  {
    method: 'POST',
    path: '/v2/datasets/{id}/mapfields',
    allowed: all(see('x'), org('datasets', 'create')),
    datasetScoped: true,
    prepare: make.dataset,
    url: (name) => `/v2/datasets/${name}/mapfields`,
    body: () => ({ name: 'attributes' }),
    snapshot: state.dataset,
  },
  {
    method: 'PUT',
    path: '/v2/datasets/{id}/mapfields',
    allowed: all(see('x'), org('datasets', 'update')),
    datasetScoped: true,
    prepare: make.dataset,
    url: (name) => `/v2/datasets/${name}/mapfields`,
    body: () => ['labels'],
    snapshot: state.dataset,
  },
  {
    method: 'DELETE',
    path: '/v2/datasets/{id}/mapfields/{*}',
    allowed: all(see('x'), org('datasets', 'delete')),
    datasetScoped: true,
    prepare: async () => {
      const name = await make.dataset();
      await asAdmin(`/v2/datasets/${name}/mapfields`, json('POST', { name: 'labels' }));
      return name;
    },
    url: (name) => `/v2/datasets/${name}/mapfields/labels`,
    snapshot: state.dataset,
  },

  // Virtual fields: the dataset capability `virtualFields`.
  { method: 'GET', path: '/v2/vfields', allowed: ds('matrix', 'virtualFields', 'read'), datasetScoped: true, url: () => '/v2/vfields?dataset=matrix' },
  {
    method: 'POST',
    path: '/v2/vfields',
    allowed: ds('matrix', 'virtualFields', 'create'),
    datasetScoped: true,
    url: () => '/v2/vfields',
    body: () => ({ dataset: 'matrix', name: unique('vf'), expression: 'a + 1' }),
    snapshot: state.virtualFields,
  },
  { method: 'GET', path: '/v2/vfields/{id}', allowed: ds('matrix', 'virtualFields', 'read'), datasetScoped: true, prepare: make.virtualField, url: (id) => `/v2/vfields/${id}` },
  {
    method: 'PUT',
    path: '/v2/vfields/{id}',
    allowed: ds('matrix', 'virtualFields', 'update'),
    datasetScoped: true,
    prepare: async () => ({ id: await make.virtualField(), name: unique('vf') }),
    url: (vf) => `/v2/vfields/${vf.id}`,
    body: (vf) => ({ dataset: 'matrix', name: vf.name, expression: 'a * 3' }),
    snapshot: state.virtualFields,
  },
  {
    method: 'DELETE',
    path: '/v2/vfields/{id}',
    allowed: ds('matrix', 'virtualFields', 'delete'),
    datasetScoped: true,
    prepare: make.virtualField,
    url: (id) => `/v2/vfields/${id}`,
    snapshot: state.virtualFields,
  },

  // Views: the organization capability `views`, or the view capability `query` to read one; a
  // view's author must be able to query what it reads.
  { method: 'GET', path: '/v2/views', allowed: listViews, url: () => '/v2/views' },
  {
    method: 'POST',
    path: '/v2/views',
    allowed: all(org('views', 'create'), ds('matrix', 'query', 'read')),
    datasetScoped: true,
    url: () => '/v2/views',
    body: () => ({ name: unique('view'), aplQuery: "['matrix'] | count" }),
    snapshot: state.views,
  },
  { method: 'GET', path: '/v2/views/{id}', allowed: queryView(VIEW), url: () => `/v2/views/${matrixViewId}` },
  {
    method: 'PUT',
    path: '/v2/views/{id}',
    allowed: all(org('views', 'update'), queryView('x'), ds('matrix', 'query', 'read')),
    datasetScoped: true,
    prepare: make.view,
    url: (id) => `/v2/views/${id}`,
    body: () => ({ name: unique('view'), aplQuery: "['matrix'] | take 1" }),
    snapshot: state.views,
  },
  { method: 'DELETE', path: '/v2/views/{id}', allowed: all(org('views', 'delete'), queryView('x')), prepare: make.view, url: (id) => `/v2/views/${id}`, snapshot: state.views },
  // Reading through a view needs no right on the dataset underneath.
  { method: 'POST', path: '/v1/datasets/_apl', allowed: queryView(VIEW), url: () => '/v1/datasets/_apl?format=tabular', body: () => ({ apl: `['${VIEW}'] | count` }) },

  // Monitors: the organization capability `monitors`, and querying what the monitor reads.
  { method: 'GET', path: '/v2/monitors', allowed: org('monitors', 'read'), url: () => '/v2/monitors' },
  { method: 'POST', path: '/v2/monitors', allowed: seeMonitor('create'), url: () => '/v2/monitors', body: () => MONITOR, snapshot: state.monitors },
  { method: 'GET', path: '/v2/monitors/{id}', allowed: seeMonitor('read'), datasetScoped: true, prepare: make.monitor, url: (id) => `/v2/monitors/${id}` },
  {
    method: 'PUT',
    path: '/v2/monitors/{id}',
    allowed: seeMonitor('update'),
    datasetScoped: true,
    prepare: make.monitor,
    url: (id) => `/v2/monitors/${id}`,
    body: () => ({ ...MONITOR, name: 'renamed' }),
    snapshot: state.monitors,
  },
  { method: 'DELETE', path: '/v2/monitors/{id}', allowed: seeMonitor('delete'), datasetScoped: true, prepare: make.monitor, url: (id) => `/v2/monitors/${id}`, snapshot: state.monitors },
  { method: 'GET', path: '/v2/monitors/{id}/history', allowed: seeMonitor('read'), datasetScoped: true, prepare: make.monitor, url: (id) => `/v2/monitors/${id}/history?${HISTORY_RANGE}` },
  // A backtest reads like a monitor: `monitors:read` and querying what the definition reads.
  { method: 'POST', path: '/v2/monitors/backtest', allowed: seeMonitor('read'), url: () => '/v2/monitors/backtest', body: () => ({ ...MONITOR, ...BACKTEST_RANGE }) },
  // Notifiers: the organization capability `notifiers`.
  { method: 'GET', path: '/v2/notifiers', allowed: org('notifiers', 'read'), url: () => '/v2/notifiers' },
  { method: 'POST', path: '/v2/notifiers', allowed: org('notifiers', 'create'), url: () => '/v2/notifiers', body: () => notifierBody(), snapshot: state.notifiers },
  { method: 'GET', path: '/v2/notifiers/{id}', allowed: org('notifiers', 'read'), prepare: make.notifier, url: (id) => `/v2/notifiers/${id}` },
  {
    method: 'PUT',
    path: '/v2/notifiers/{id}',
    allowed: org('notifiers', 'update'),
    prepare: make.notifier,
    url: (id) => `/v2/notifiers/${id}`,
    body: () => notifierBody('renamed'),
    snapshot: state.notifiers,
  },
  { method: 'DELETE', path: '/v2/notifiers/{id}', allowed: org('notifiers', 'delete'), prepare: make.notifier, url: (id) => `/v2/notifiers/${id}`, snapshot: state.notifiers },
  { method: 'GET', path: '/v2/notifiers/{id}/deliveries', allowed: org('notifiers', 'read'), prepare: make.notifier, url: (id) => `/v2/notifiers/${id}/deliveries` },
  { method: 'POST', path: '/v2/notifiers/{id}/test', allowed: org('notifiers', 'update'), prepare: make.notifier, url: (id) => `/v2/notifiers/${id}/test` },

  { method: 'GET', path: '/v2/tokens', allowed: org('apiTokens', 'read'), url: () => '/v2/tokens' },
  { method: 'POST', path: '/v2/tokens', allowed: org('apiTokens', 'create'), url: () => '/v2/tokens', body: () => ({ name: unique('t') }), snapshot: state.list('/v2/tokens') },
  { method: 'GET', path: '/v2/tokens/{id}', allowed: org('apiTokens', 'read'), prepare: make.token, url: (id) => `/v2/tokens/${id}` },
  {
    method: 'POST',
    path: '/v2/tokens/{id}/regenerate',
    allowed: org('apiTokens', 'update'),
    prepare: make.token,
    url: (id) => `/v2/tokens/${id}/regenerate`,
    body: () => ({ existingTokenExpiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
    snapshot: state.list('/v2/tokens'),
  },
  { method: 'DELETE', path: '/v2/tokens/{id}', allowed: org('apiTokens', 'delete'), prepare: make.token, url: (id) => `/v2/tokens/${id}`, snapshot: state.list('/v2/tokens') },

  { method: 'GET', path: '/v2/user', allowed: personal, url: () => '/v2/user' },
  { method: 'PUT', path: '/v2/user', allowed: personal, url: () => '/v2/user', body: () => ({ name: 'Renamed' }) },
  // A user's own personal tokens: personal tokens only, acting on the caller's own tokens.
  { method: 'GET', path: '/v2/user/tokens', allowed: personal, url: () => '/v2/user/tokens' },
  { method: 'POST', path: '/v2/user/tokens', allowed: personal, url: () => '/v2/user/tokens', body: () => ({ name: unique('personal') }) },
  {
    method: 'DELETE',
    path: '/v2/user/tokens/{id}',
    allowed: personal,
    // No token of the caller has this id: a personal token gets past authorization to 404.
    url: () => '/v2/user/tokens/no-such-token',
    outcome: (status) => (status === 404 ? 'allowed' : status === 403 ? 'refused' : 'other'),
  },
  {
    method: 'POST',
    path: '/v2/users/invitations',
    allowed: org('users', 'create'),
    url: () => '/v2/users/invitations',
    body: () => ({ email: `${unique('invited')}@example.com`, role: 'none' }),
  },
  { method: 'GET', path: '/v2/users', allowed: org('users', 'read'), url: () => '/v2/users' },
  {
    method: 'POST',
    path: '/v2/users',
    allowed: org('users', 'create'),
    url: () => '/v2/users',
    body: () => ({ name: 'New', email: `${unique('new')}@example.com`, role: 'none' }),
    snapshot: state.list('/v2/users'),
  },
  { method: 'GET', path: '/v2/users/{id}', allowed: org('users', 'read'), prepare: make.member, url: (id) => `/v2/users/${id}` },
  {
    method: 'PUT',
    path: '/v2/users/{id}/role',
    allowed: org('users', 'update'),
    prepare: make.member,
    url: (id) => `/v2/users/${id}/role`,
    body: () => ({ role: 'read-only' }),
    snapshot: (id) => state.one(`/v2/users/${id}`)(),
  },
  { method: 'DELETE', path: '/v2/users/{id}', allowed: org('users', 'delete'), prepare: make.member, url: (id) => `/v2/users/${id}`, snapshot: state.list('/v2/users') },

  { method: 'GET', path: '/v2/orgs', allowed: anyToken, url: () => '/v2/orgs' },
  { method: 'POST', path: '/v2/orgs', allowed: personal, url: () => '/v2/orgs', body: () => ({ name: unique('Org') }), snapshot: state.orgCount },
  { method: 'GET', path: '/v2/orgs/{id}', allowed: anyToken, url: () => `/v2/orgs/${orgId}` },
  { method: 'PUT', path: '/v2/orgs/{id}', allowed: roleIn('owner', 'admin'), url: () => `/v2/orgs/${orgId}`, body: () => ({ name: unique('Matrix') }), snapshot: state.org },
  {
    method: 'POST',
    path: '/v2/orgs/{id}/claim',
    allowed: personal,
    prepare: make.provisioned,
    url: (org) => org.path,
    snapshot: (org) => state.claimed(org.id),
  },

  ...(['roles', 'groups'] as const).flatMap((kind): RestCase[] => {
    const base = `/v2/rbac/${kind}`;
    const prepare = kind === 'roles' ? make.role : make.group;
    return [
      { method: 'GET', path: base, allowed: org('rbac', 'read'), url: () => base },
      { method: 'POST', path: base, allowed: org('rbac', 'create'), url: () => base, body: () => ({ name: unique(kind) }), snapshot: state.list(base) },
      { method: 'GET', path: `${base}/{id}`, allowed: org('rbac', 'read'), prepare, url: (id) => `${base}/${id}` },
      { method: 'PUT', path: `${base}/{id}`, allowed: org('rbac', 'update'), prepare, url: (id) => `${base}/${id}`, body: () => ({ description: 'changed' }), snapshot: state.list(base) },
      { method: 'DELETE', path: `${base}/{id}`, allowed: org('rbac', 'delete'), prepare, url: (id) => `${base}/${id}`, snapshot: state.list(base) },
    ];
  }),

  { method: 'GET', path: '/v2/annotations', allowed: org('annotations', 'read'), url: () => '/v2/annotations' },
  {
    method: 'POST',
    path: '/v2/annotations',
    allowed: org('annotations', 'create'),
    url: () => '/v2/annotations',
    body: () => ({ type: 'deploy', datasets: ['matrix'] }),
    snapshot: state.list('/v2/annotations'),
  },
  { method: 'GET', path: '/v2/annotations/{id}', allowed: org('annotations', 'read'), prepare: make.annotation, url: (id) => `/v2/annotations/${id}` },
  {
    method: 'PUT',
    path: '/v2/annotations/{id}',
    allowed: org('annotations', 'update'),
    prepare: make.annotation,
    url: (id) => `/v2/annotations/${id}`,
    body: () => ({ title: 'changed' }),
    snapshot: state.list('/v2/annotations'),
  },
  { method: 'DELETE', path: '/v2/annotations/{id}', allowed: org('annotations', 'delete'), prepare: make.annotation, url: (id) => `/v2/annotations/${id}`, snapshot: state.list('/v2/annotations') },

  { method: 'GET', path: '/v2/apl-starred-queries', allowed: dsAnywhere('starredQueries', 'read'), url: () => '/v2/apl-starred-queries?who=all' },
  {
    method: 'POST',
    path: '/v2/apl-starred-queries',
    allowed: ds('matrix', 'starredQueries', 'create'),
    url: () => '/v2/apl-starred-queries',
    body: () => ({ name: unique('q'), dataset: 'matrix', query: { apl: "['matrix']" } }),
    snapshot: state.list('/v2/apl-starred-queries?who=all&limit=1000'),
  },
  { method: 'GET', path: '/v2/apl-starred-queries/{id}', allowed: ds('matrix', 'starredQueries', 'read'), prepare: make.starred, url: (id) => `/v2/apl-starred-queries/${id}` },
  {
    method: 'PUT',
    path: '/v2/apl-starred-queries/{id}',
    allowed: ds('matrix', 'starredQueries', 'update'),
    prepare: make.starred,
    url: (id) => `/v2/apl-starred-queries/${id}`,
    body: () => ({ name: 'changed' }),
    snapshot: state.list('/v2/apl-starred-queries?who=all&limit=1000'),
  },
  {
    method: 'DELETE',
    path: '/v2/apl-starred-queries/{id}',
    allowed: ds('matrix', 'starredQueries', 'delete'),
    prepare: make.starred,
    url: (id) => `/v2/apl-starred-queries/${id}`,
    snapshot: state.list('/v2/apl-starred-queries?who=all&limit=1000'),
  },

  { method: 'GET', path: '/v2/dashboards', allowed: org('dashboards', 'read'), url: () => '/v2/dashboards' },
  {
    method: 'POST',
    path: '/v2/dashboards',
    allowed: org('dashboards', 'create'),
    url: () => '/v2/dashboards',
    body: () => ({ dashboard: dashboardDocument() }),
    snapshot: state.list('/v2/dashboards?limit=1000'),
  },
  { method: 'GET', path: '/v2/dashboards/uid/{uid}', allowed: org('dashboards', 'read'), prepare: make.dashboard, url: (uid) => `/v2/dashboards/uid/${uid}` },
  {
    method: 'PUT',
    path: '/v2/dashboards/uid/{uid}',
    allowed: org('dashboards', 'update'),
    prepare: make.dashboard,
    url: (uid) => `/v2/dashboards/uid/${uid}`,
    body: () => ({ version: 1, dashboard: dashboardDocument('Changed') }),
    snapshot: state.list('/v2/dashboards?limit=1000'),
  },
  {
    method: 'DELETE',
    path: '/v2/dashboards/uid/{uid}',
    allowed: org('dashboards', 'delete'),
    prepare: make.dashboard,
    url: (uid) => `/v2/dashboards/uid/${uid}`,
    snapshot: state.list('/v2/dashboards?limit=1000'),
  },
  {
    method: 'PATCH',
    path: '/v2/dashboards/uid/{uid}/charts/{chartId}',
    allowed: org('dashboards', 'update'),
    prepare: make.dashboard,
    url: (uid) => `/v2/dashboards/uid/${uid}/charts/n1`,
    body: () => ({ version: 1, chart: { text: 'changed' } }),
    snapshot: state.list('/v2/dashboards?limit=1000'),
  },
];

/** Shippers' doors: each sends events of its own format into a fresh dataset. */
function shipperRoutes(): RestCase[] {
  const into = (method: string, path: string, url: (name: string) => string, raw: (name: string) => { contentType: string; text: string }, extra: Partial<RestCase> = {}): RestCase => ({
    method,
    path,
    allowed: ds('x', 'ingest', 'create'),
    datasetScoped: true,
    prepare: make.dataset,
    url,
    raw,
    snapshot: state.dataset,
    ...extra,
  });
  const json = (value: unknown) => () => ({ contentType: 'application/json', text: JSON.stringify(value) });
  const otlpLogs = { resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: '1700000000000000000', body: { stringValue: 'hello' } }] }] }] };
  const otlpTraces = {
    resourceSpans: [
      { scopeSpans: [{ spans: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'op', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000001000000000' }] }] },
    ],
  };
  const datasetHeader = (name: string) => ({ 'x-axiom-dataset': name });
  const bulk = () => ({ contentType: 'application/x-ndjson', text: '{"index":{}}\n{"a":5}\n' });
  const hecRefused = [403, 400]; // HEC names an index it may not write to as an incorrect index
  const elastic = '/v1/ingest/{dataset}/elastic';
  const rows: RestCase[] = [
    into('POST', '/v1/traces', () => '/v1/traces', json(otlpTraces), { headers: datasetHeader }),
    into('POST', '/v1/logs', () => '/v1/logs', json(otlpLogs), { headers: datasetHeader }),
    into('POST', '/loki/api/v1/push', () => '/loki/api/v1/push', json({ streams: [{ stream: { app: 'x' }, values: [['1700000000000000000', 'line']] }] }), { headers: datasetHeader }),
    ...['/services/collector/event', '/services/collector/event/1.0', '/services/collector'].map((path) =>
      into('POST', path, (name) => `${path}?index=${name}`, json({ event: 'hello' }), { refused: hecRefused }),
    ),
    ...['/services/collector/raw', '/services/collector/raw/1.0'].map((path) =>
      into('POST', path, (name) => `${path}?index=${name}`, () => ({ contentType: 'text/plain', text: 'one line\n' }), { refused: hecRefused }),
    ),
    ...(['POST', 'PUT'] as const).flatMap((method) => [
      into(method, `${elastic}/_bulk`, (name) => `/v1/ingest/${name}/elastic/_bulk`, bulk),
      into(method, `${elastic}/{index}/_bulk`, (name) => `/v1/ingest/${name}/elastic/logs-x/_bulk`, bulk),
    ]),
  ];
  // Elasticsearch's handshakes and template calls change nothing: any valid token may make them.
  for (const [method, path, url] of [
    ['GET', elastic, '/v1/ingest/matrix/elastic'],
    ['GET', `${elastic}/_license`, '/v1/ingest/matrix/elastic/_license'],
    ['GET', `${elastic}/_xpack`, '/v1/ingest/matrix/elastic/_xpack'],
    ['GET', `${elastic}/_cluster/health`, '/v1/ingest/matrix/elastic/_cluster/health'],
    ['POST', `${elastic}/_refresh`, '/v1/ingest/matrix/elastic/_refresh'],
    ['POST', `${elastic}/{index}/_refresh`, '/v1/ingest/matrix/elastic/logs-x/_refresh'],
    ...['_index_template', '_template', '_ilm/policy', '_ingest/pipeline', '_component_template'].map(
      (kind) => ['PUT', `${elastic}/${kind}/{name}`, `/v1/ingest/matrix/elastic/${kind}/matrix`] as const,
    ),
  ] as const) {
    rows.push({ method, path, allowed: anyToken, url: () => url, ...(method === 'PUT' ? { body: () => ({}) } : {}) });
  }
  return rows;
}

/** The edge query routes: the same APL as /v1/datasets/_apl, and a batch answered as a stream of per-query outcomes. */
function edgeQueryRoutes(prefix: string): RestCase[] {
  return [
    { method: 'POST', path: `${prefix}/query/_apl`, allowed: ds('matrix', 'query', 'read'), datasetScoped: true, url: () => `${prefix}/query/_apl?format=tabular`, body: () => ({ apl: "['matrix'] | count" }) },
    {
      method: 'POST',
      path: `${prefix}/query/batch`,
      allowed: ds('matrix', 'query', 'read'),
      url: () => `${prefix}/query/batch`,
      body: () => [{ queryId: 'q1', aplRequest: { apl: "['matrix'] | count" } }],
      outcome: (status, text) => {
        if (status !== 200) return 'other';
        const events = text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)));
        if (events.length !== 1) return 'other';
        if (events[0].data) return 'allowed';
        return [403, 404].includes(events[0].error?.code) ? 'refused' : 'other';
      },
    },
  ];
}

function metricsRange() {
  return { startTime: new Date(Date.now() - 86_400_000).toISOString(), endTime: new Date(Date.now() + 60_000).toISOString() };
}
function infoRange() {
  return `start=${encodeURIComponent(metricsRange().startTime)}&end=${encodeURIComponent(metricsRange().endTime)}`;
}
async function metricsState() {
  return (await asAdmin('/v1/query/_mpl', json('POST', { mpl: `\`${METRICS}\`:hits | align to 1h using sum`, ...metricsRange() }))).body;
}

/** Metrics: MPL queries and discovery need `query:read` on the metrics dataset, OTLP export `ingest:create`. */
function metricsRoutes(prefix: string): RestCase[] {
  const mpl = () => ({ mpl: `\`${METRICS}\`:hits | align to 1h using sum`, ...metricsRange() });
  const info = `${prefix}/query/metrics/info/datasets/{dataset}`;
  const read = (method: string, path: string, url: () => string, body?: () => unknown): RestCase => ({
    method,
    path,
    allowed: ds(METRICS, 'query', 'read'),
    datasetScoped: true,
    url,
    ...(body ? { body } : {}),
  });
  const base = `${prefix}/query/metrics/info/datasets/${METRICS}`;
  return [
    read('POST', `${prefix}/query/_mpl`, () => `${prefix}/query/_mpl`, mpl),
    read('POST', `${prefix}/query/_metrics`, () => `${prefix}/query/_metrics`, () => ({ apl: mpl().mpl, ...metricsRange() })),
    read('GET', `${info}/metrics`, () => `${base}/metrics?${infoRange()}`),
    read('POST', `${info}/metrics`, () => `${base}/metrics?${infoRange()}`, () => ({ value: 'x' })),
    read('GET', `${info}/tags`, () => `${base}/tags?${infoRange()}`),
    read('GET', `${info}/tags/{tag}/values`, () => `${base}/tags/service.name/values?${infoRange()}`),
    read('GET', `${info}/metrics/{metric}/tags`, () => `${base}/metrics/hits/tags?${infoRange()}`),
    read('GET', `${info}/metrics/{metric}/tags/{tag}/values`, () => `${base}/metrics/hits/tags/service.name/values?${infoRange()}`),
  ];
}

function metricsIngestRoute(): RestCase {
  return {
  method: 'POST',
  path: '/v1/metrics',
  allowed: ds(METRICS, 'ingest', 'create'),
  datasetScoped: true,
  url: () => '/v1/metrics',
  raw: () => ({ contentType: 'application/x-protobuf', text: otlpGaugeBody('hits', 1, 'matrix') }),
  headers: () => ({ 'x-axiom-metrics-dataset': METRICS }),
  snapshot: metricsState,
  };
}

/** Routes anyone may call without a token. */
const PUBLIC_REST = new Set([
  'OPTIONS /v1/query/_mpl',
  'GET /services/collector/health',
  'GET /services/collector/health/1.0',
  'POST /v2/orgs/provision',
  'GET /api/v1/models',
  'GET /api/v1/models/{id}',
  'GET /api/v1/providers',
  'GET /api/v1/providers/{id}',
  'GET /api/v1/metadata',
]);

// ---------------------------------------------------------------------------------------------
// GraphQL fields.

interface GraphQLCase {
  field: string;
  allowed: Need;
  datasetScoped?: boolean;
  prepare?: () => Promise<any>;
  document: (vars: any) => string;
  variables?: (vars: any) => Record<string, unknown>;
  snapshot?: (vars: any) => Promise<unknown>;
}

const GRAPHQL: GraphQLCase[] = [
  { field: 'viewer', allowed: personal, document: () => '{ viewer { name } }' },
  { field: 'organizations', allowed: anyToken, document: () => '{ organizations { edges { node { name } } } }' },
  { field: 'organization', allowed: anyToken, document: () => `{ organization(id: "${orgId}") { name } }` },
  { field: 'users', allowed: org('users', 'read'), document: () => '{ users { edges { node { email } } } }' },
  { field: 'roles', allowed: org('rbac', 'read'), document: () => '{ roles { edges { node { name } } } }' },
  { field: 'groups', allowed: org('rbac', 'read'), document: () => '{ groups { edges { node { name } } } }' },
  { field: 'apiTokens', allowed: org('apiTokens', 'read'), document: () => '{ apiTokens { edges { node { name } } } }' },
  { field: 'annotations', allowed: org('annotations', 'read'), document: () => '{ annotations { edges { node { type } } } }' },
  { field: 'starredQueries', allowed: dsAnywhere('starredQueries', 'read'), document: () => '{ starredQueries(who: "all") { edges { node { name } } } }' },
  { field: 'dashboards', allowed: org('dashboards', 'read'), document: () => '{ dashboards { edges { node { uid } } } }' },
  { field: 'dashboard', allowed: org('dashboards', 'read'), prepare: make.dashboard, document: (uid) => `{ dashboard(uid: "${uid}") { uid } }` },
  { field: 'datasets', allowed: anyToken, document: () => '{ datasets { edges { node { name } } } }' },
  { field: 'dataset', allowed: see('matrix'), datasetScoped: true, document: () => '{ dataset(name: "matrix") { name } }' },
  { field: 'apl', allowed: ds('matrix', 'query', 'read'), datasetScoped: true, document: () => `{ apl(query: "['matrix'] | count") { status { rowsMatched } } }` },
  { field: 'events', allowed: ds('matrix', 'query', 'read'), datasetScoped: true, document: () => '{ events(dataset: "matrix", startTime: "2000-01-01T00:00:00Z") { edges { cursor } } }' },

  {
    field: 'metrics',
    allowed: ds(METRICS, 'query', 'read'),
    datasetScoped: true,
    document: () => `{ metrics(dataset: "${METRICS}", mpl: "\`${METRICS}\`:hits | align to 1h using sum", startTime: "now-1d", endTime: "now") { series { metric } } }`,
  },
  { field: 'llmUsage', allowed: ds('matrix', 'query', 'read'), datasetScoped: true, document: () => '{ llmUsage(dataset: "matrix", startTime: "2000-01-01T00:00:00Z") { calls cost } }' },
  { field: 'views', allowed: listViews, document: () => '{ views { edges { node { name } } } }' },
  { field: 'virtualFields', allowed: ds('matrix', 'virtualFields', 'read'), datasetScoped: true, document: () => '{ virtualFields(dataset: "matrix") { edges { node { name } } } }' },

  { field: 'createOrganization', allowed: personal, document: () => `mutation { createOrganization(name: "${unique('Org')}") { name } }`, snapshot: state.orgCount },
  { field: 'updateOrganization', allowed: roleIn('owner', 'admin'), document: () => `mutation { updateOrganization(id: "${orgId}", name: "${unique('Matrix')}") { name } }`, snapshot: state.org },
  {
    field: 'claimOrganization',
    allowed: personal,
    prepare: make.provisioned,
    document: (org) => `mutation { claimOrganization(id: "${org.id}", token: "${org.secret}") { name } }`,
    snapshot: (org) => state.claimed(org.id),
  },
  { field: 'updateViewer', allowed: personal, document: () => 'mutation { updateViewer(name: "Renamed") { name } }' },
  {
    field: 'createUser',
    allowed: org('users', 'create'),
    document: () => `mutation { createUser(input: { name: "N", email: "${unique('gql')}@example.com", role: "none" }) { email } }`,
    snapshot: state.list('/v2/users'),
  },
  { field: 'updateUserRole', allowed: org('users', 'update'), prepare: make.member, document: (id) => `mutation { updateUserRole(id: "${id}", role: "read-only") { email } }`, snapshot: state.list('/v2/users') },
  { field: 'removeUser', allowed: org('users', 'delete'), prepare: make.member, document: (id) => `mutation { removeUser(id: "${id}") }`, snapshot: state.list('/v2/users') },
  { field: 'createRole', allowed: org('rbac', 'create'), document: () => `mutation { createRole(input: { name: "${unique('role')}" }) { name } }`, snapshot: state.list('/v2/rbac/roles') },
  { field: 'updateRole', allowed: org('rbac', 'update'), prepare: make.role, document: (id) => `mutation { updateRole(id: "${id}", input: { description: "x" }) { name } }`, snapshot: state.list('/v2/rbac/roles') },
  { field: 'deleteRole', allowed: org('rbac', 'delete'), prepare: make.role, document: (id) => `mutation { deleteRole(id: "${id}") }`, snapshot: state.list('/v2/rbac/roles') },
  { field: 'createGroup', allowed: org('rbac', 'create'), document: () => `mutation { createGroup(input: { name: "${unique('group')}" }) { name } }`, snapshot: state.list('/v2/rbac/groups') },
  { field: 'updateGroup', allowed: org('rbac', 'update'), prepare: make.group, document: (id) => `mutation { updateGroup(id: "${id}", input: { description: "x" }) { name } }`, snapshot: state.list('/v2/rbac/groups') },
  { field: 'deleteGroup', allowed: org('rbac', 'delete'), prepare: make.group, document: (id) => `mutation { deleteGroup(id: "${id}") }`, snapshot: state.list('/v2/rbac/groups') },
  { field: 'createApiToken', allowed: org('apiTokens', 'create'), document: () => `mutation { createApiToken(input: { name: "${unique('t')}" }) { secret } }`, snapshot: state.list('/v2/tokens') },
  { field: 'regenerateApiToken', allowed: org('apiTokens', 'update'), prepare: make.token, document: (id) => `mutation { regenerateApiToken(id: "${id}") { secret } }`, snapshot: state.list('/v2/tokens') },
  { field: 'deleteApiToken', allowed: org('apiTokens', 'delete'), prepare: make.token, document: (id) => `mutation { deleteApiToken(id: "${id}") }`, snapshot: state.list('/v2/tokens') },
  {
    field: 'createAnnotation',
    allowed: org('annotations', 'create'),
    document: () => 'mutation { createAnnotation(input: { type: "deploy", datasets: ["matrix"] }) { type } }',
    snapshot: state.list('/v2/annotations'),
  },
  { field: 'updateAnnotation', allowed: org('annotations', 'update'), prepare: make.annotation, document: (id) => `mutation { updateAnnotation(id: "${id}", input: { title: "x" }) { type } }`, snapshot: state.list('/v2/annotations') },
  { field: 'deleteAnnotation', allowed: org('annotations', 'delete'), prepare: make.annotation, document: (id) => `mutation { deleteAnnotation(id: "${id}") }`, snapshot: state.list('/v2/annotations') },
  {
    field: 'createStarredQuery',
    allowed: ds('matrix', 'starredQueries', 'create'),
    document: () => `mutation { createStarredQuery(input: { name: "${unique('q')}", dataset: "matrix", query: { apl: "x" } }) { name } }`,
    snapshot: state.list('/v2/apl-starred-queries?who=all&limit=1000'),
  },
  {
    field: 'updateStarredQuery',
    allowed: ds('matrix', 'starredQueries', 'update'),
    prepare: make.starred,
    document: (id) => `mutation { updateStarredQuery(id: "${id}", input: { name: "x" }) { name } }`,
    snapshot: state.list('/v2/apl-starred-queries?who=all&limit=1000'),
  },
  {
    field: 'deleteStarredQuery',
    allowed: ds('matrix', 'starredQueries', 'delete'),
    prepare: make.starred,
    document: (id) => `mutation { deleteStarredQuery(id: "${id}") }`,
    snapshot: state.list('/v2/apl-starred-queries?who=all&limit=1000'),
  },
  {
    field: 'createDashboard',
    allowed: org('dashboards', 'create'),
    document: () => 'mutation($doc: JSON!) { createDashboard(document: $doc) { status } }',
    variables: () => ({ doc: dashboardDocument() }),
    snapshot: state.list('/v2/dashboards?limit=1000'),
  },
  {
    field: 'updateDashboard',
    allowed: org('dashboards', 'update'),
    prepare: make.dashboard,
    document: (uid) => `mutation($doc: JSON!) { updateDashboard(uid: "${uid}", version: 1, document: $doc) { status } }`,
    variables: () => ({ doc: dashboardDocument('Changed') }),
    snapshot: state.list('/v2/dashboards?limit=1000'),
  },
  {
    field: 'patchDashboardChart',
    allowed: org('dashboards', 'update'),
    prepare: make.dashboard,
    document: (uid) => `mutation { patchDashboardChart(uid: "${uid}", chartId: "n1", version: 1, patch: { text: "x" }) { status } }`,
    snapshot: state.list('/v2/dashboards?limit=1000'),
  },
  { field: 'deleteDashboard', allowed: org('dashboards', 'delete'), prepare: make.dashboard, document: (uid) => `mutation { deleteDashboard(uid: "${uid}") }`, snapshot: state.list('/v2/dashboards?limit=1000') },
  {
    field: 'createDataset',
    allowed: org('datasets', 'create'),
    document: () => `mutation { createDataset(input: { name: "${unique('new')}" }) { name } }`,
    snapshot: state.list('/v2/datasets'),
  },
  {
    field: 'updateDataset',
    allowed: all(org('datasets', 'update'), see('x')),
    datasetScoped: true,
    prepare: make.dataset,
    document: (name) => `mutation { updateDataset(name: "${name}", input: { description: "x" }) { name } }`,
    snapshot: state.dataset,
  },
  {
    field: 'deleteDataset',
    allowed: all(org('datasets', 'delete'), see('x')),
    datasetScoped: true,
    prepare: make.dataset,
    document: (name) => `mutation { deleteDataset(name: "${name}") }`,
    snapshot: state.dataset,
  },
  { field: 'trimDataset', allowed: ds('x', 'trim', 'update'), datasetScoped: true, prepare: make.dataset, document: (name) => `mutation { trimDataset(name: "${name}", maxDuration: "1h") }`, snapshot: state.dataset },
  {
    field: 'updateDatasetField',
    allowed: all(org('datasets', 'update'), see('x')),
    datasetScoped: true,
    prepare: make.dataset,
    document: (name) => `mutation { updateDatasetField(dataset: "${name}", field: "a", input: { unit: "ms" }) { unit } }`,
    snapshot: state.dataset,
  },
  {
    field: 'createMapField',
    allowed: all(see('x'), org('datasets', 'create')),
    datasetScoped: true,
    prepare: make.dataset,
    document: (name) => `mutation { createMapField(dataset: "${name}", name: "attributes") { name } }`,
    snapshot: state.dataset,
  },
  {
    field: 'updateMapFields',
    allowed: all(see('x'), org('datasets', 'update')),
    datasetScoped: true,
    prepare: make.dataset,
    document: (name) => `mutation { updateMapFields(dataset: "${name}", names: ["labels"]) { name } }`,
    snapshot: state.dataset,
  },
  {
    field: 'deleteMapField',
    allowed: all(see('x'), org('datasets', 'delete')),
    datasetScoped: true,
    prepare: async () => {
      const name = await make.dataset();
      await asAdmin(`/v2/datasets/${name}/mapfields`, json('POST', { name: 'labels' }));
      return name;
    },
    document: (name) => `mutation { deleteMapField(dataset: "${name}", name: "labels") }`,
    snapshot: state.dataset,
  },
  {
    field: 'createView',
    allowed: all(org('views', 'create'), ds('matrix', 'query', 'read')),
    datasetScoped: true,
    document: () => `mutation { createView(input: { name: "${unique('view')}", aplQuery: "['matrix'] | count" }) { name } }`,
    snapshot: state.views,
  },
  {
    field: 'updateView',
    allowed: all(org('views', 'update'), queryView('x'), ds('matrix', 'query', 'read')),
    datasetScoped: true,
    prepare: make.view,
    document: (id) => `mutation { updateView(id: "${id}", input: { name: "${unique('view')}", aplQuery: "['matrix'] | take 1" }) { name } }`,
    snapshot: state.views,
  },
  { field: 'deleteView', allowed: all(org('views', 'delete'), queryView('x')), prepare: make.view, document: (id) => `mutation { deleteView(id: "${id}") }`, snapshot: state.views },

  { field: 'monitors', allowed: org('monitors', 'read'), document: () => '{ monitors { edges { node { name } } } }' },
  { field: 'monitor', allowed: seeMonitor('read'), prepare: make.monitor, document: (id) => `{ monitor(id: "${id}") { name } }` },
  {
    field: 'createMonitor',
    allowed: seeMonitor('create'),
    document: () => 'mutation($input: MonitorInput!) { createMonitor(input: $input) { id } }',
    variables: () => ({ input: MONITOR }),
    snapshot: state.monitors,
  },
  {
    field: 'updateMonitor',
    allowed: seeMonitor('update'),
    prepare: make.monitor,
    document: (id) => `mutation($input: MonitorInput!) { updateMonitor(id: "${id}", input: $input) { id } }`,
    variables: () => ({ input: { ...MONITOR, name: 'renamed' } }),
    snapshot: state.monitors,
  },
  { field: 'deleteMonitor', allowed: seeMonitor('delete'), prepare: make.monitor, document: (id) => `mutation { deleteMonitor(id: "${id}") }`, snapshot: state.monitors },
  {
    field: 'monitorBacktest',
    allowed: seeMonitor('read'),
    document: () => 'query($input: MonitorInput!, $startTime: DateTime!, $endTime: DateTime!) { monitorBacktest(input: $input, startTime: $startTime, endTime: $endTime) { runs { positive } } }',
    variables: () => ({ input: MONITOR, ...BACKTEST_RANGE }),
  },
  { field: 'notifiers', allowed: org('notifiers', 'read'), document: () => '{ notifiers { edges { node { name } } } }' },
  { field: 'notifier', allowed: org('notifiers', 'read'), prepare: make.notifier, document: (id) => `{ notifier(id: "${id}") { name } }` },
  {
    field: 'createNotifier',
    allowed: org('notifiers', 'create'),
    document: () => 'mutation($input: NotifierInput!) { createNotifier(input: $input) { id } }',
    variables: () => ({ input: notifierBody() }),
    snapshot: state.notifiers,
  },
  {
    field: 'updateNotifier',
    allowed: org('notifiers', 'update'),
    prepare: make.notifier,
    document: (id) => `mutation($input: NotifierInput!) { updateNotifier(id: "${id}", input: $input) { id } }`,
    variables: () => ({ input: notifierBody('renamed') }),
    snapshot: state.notifiers,
  },
  { field: 'deleteNotifier', allowed: org('notifiers', 'delete'), prepare: make.notifier, document: (id) => `mutation { deleteNotifier(id: "${id}") }`, snapshot: state.notifiers },
  { field: 'sendTestNotification', allowed: org('notifiers', 'update'), prepare: make.notifier, document: (id) => `mutation { sendTestNotification(id: "${id}") }` },
  {
    field: 'createVirtualField',
    allowed: ds('matrix', 'virtualFields', 'create'),
    datasetScoped: true,
    document: () => `mutation { createVirtualField(input: { dataset: "matrix", name: "${unique('vf')}", expression: "a + 1" }) { name } }`,
    snapshot: state.virtualFields,
  },
  {
    field: 'updateVirtualField',
    allowed: ds('matrix', 'virtualFields', 'update'),
    datasetScoped: true,
    prepare: make.virtualField,
    document: (id) => `mutation { updateVirtualField(id: "${id}", input: { dataset: "matrix", name: "${unique('vf')}", expression: "a * 3" }) { name } }`,
    snapshot: state.virtualFields,
  },
  {
    field: 'deleteVirtualField',
    allowed: ds('matrix', 'virtualFields', 'delete'),
    datasetScoped: true,
    prepare: make.virtualField,
    document: (id) => `mutation { deleteVirtualField(id: "${id}") }`,
    snapshot: state.virtualFields,
  },
  {
    field: 'ingest',
    allowed: ds('x', 'ingest', 'create'),
    datasetScoped: true,
    prepare: make.dataset,
    document: (name) => `mutation { ingest(dataset: "${name}", events: [{ a: 100 }]) { ingested } }`,
    snapshot: state.dataset,
  },
];

/** Fields anyone may read without a token (the catalog, the APL vocabulary), and the generic node lookups (which answer null for what the caller cannot see). */
const PUBLIC_GRAPHQL = new Set(['catalogMetadata', 'model', 'models', 'provider', 'providers', 'node', 'nodes', 'aplVocabulary']);

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  server = await startTestServer({ PROVISIONED_ORGS_PER_DAY: '10000' });
  orgId = await adminOrg(server);
  expect((await asAdmin('/v2/datasets', json('POST', { name: 'matrix' }))).status).toBe(200);
  expect((await asAdmin('/v1/datasets/matrix/ingest', json('POST', [{ a: 1 }]))).status).toBe(200);
  expect((await asAdmin('/v2/datasets', json('POST', { name: METRICS, kind: 'otel:metrics:v1' }))).status).toBe(200);
  const point = await asAdmin('/v1/metrics', { method: 'POST', headers: { 'content-type': 'application/x-protobuf', 'x-axiom-metrics-dataset': METRICS }, body: otlpGaugeBody('hits', 1, 'matrix') });
  expect(point.status).toBe(200);
  const view = await asAdmin('/v2/views', json('POST', { name: VIEW, aplQuery: "['matrix'] | project a" }));
  expect(view.status).toBe(200);
  matrixViewId = view.body.id;

  principals.push({ name: 'owner', kind: 'personal', role: 'owner', caps: ROLE_CAPS.owner!, token: server.adminToken });
  for (const role of ['admin', 'user', 'read-only', 'none']) {
    principals.push({ name: role, kind: 'personal', role, caps: ROLE_CAPS[role]!, token: (await addMember(server, role)).token });
  }
  const custom = await asAdmin('/v2/rbac/roles', json('POST', { name: 'matrix custom', datasetCapabilities: CUSTOM_CAPS.dataset, orgCapabilities: CUSTOM_CAPS.org, viewCapabilities: CUSTOM_CAPS.view }));
  principals.push({ name: 'custom role', kind: 'personal', role: custom.body.id, caps: CUSTOM_CAPS, token: (await addMember(server, custom.body.id)).token });
  const grouped = await addMember(server, 'none');
  expect((await asAdmin('/v2/rbac/groups', json('POST', { name: 'matrix readers', roles: ['read-only'], members: [grouped.id] }))).status).toBe(200);
  principals.push({ name: 'none + read-only group', kind: 'personal', role: 'none', caps: ROLE_CAPS['read-only']!, token: grouped.token });

  principals.push({
    name: 'api: everything',
    kind: 'api',
    caps: ROLE_CAPS.owner!,
    token: await apiToken(server, {
      datasetCapabilities: { '*': ALL_DATASET },
      orgCapabilities: ALL_ORG,
      viewCapabilities: { '*': { query: ['read'], share: ['create', 'read', 'delete'] } },
    }),
  });
  principals.push({
    name: 'api: reading',
    kind: 'api',
    caps: READER_TOKEN_CAPS,
    token: await apiToken(server, { datasetCapabilities: READER_TOKEN_CAPS.dataset, orgCapabilities: READER_TOKEN_CAPS.org }),
  });
  principals.push({ name: 'api: nothing', kind: 'api', caps: { dataset: {}, org: {} }, token: await apiToken(server, {}) });
  const creator = await addMember(server, 'admin');
  const bounded = await apiToken(server, { datasetCapabilities: BOUNDED_ASKED.dataset, orgCapabilities: BOUNDED_ASKED.org }, creator.token);
  expect((await asAdmin(`/v2/users/${creator.id}/role`, json('PUT', { role: 'read-only' }))).status).toBe(200);
  principals.push({ name: 'api: made by a demoted member', kind: 'api', caps: BOUNDED_CAPS, token: bounded });
}, 120_000);
afterAll(() => server.close());

function describeOutcome(status: number, body: unknown) {
  return `${status} ${JSON.stringify(body)?.slice(0, 300)}`;
}

/**
 * Runs a case's check for every principal: all at once when the principals cannot see each
 * other's requests (reads, and writes on objects made for each), else one after the other, so
 * that a refused write's before and after snapshots see no other principal's allowed write.
 * Failures are reported in the principals' order.
 */
async function forEachPrincipal(together: boolean, check: (who: Who, index: number) => Promise<void>) {
  if (!together) {
    for (const [index, who] of principals.entries()) await check(who, index);
    return;
  }
  const outcomes = await Promise.allSettled(principals.map((who, index) => check(who, index)));
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/** A case's fresh objects for every principal, made together (each principal gets its own). */
const prepareAll = (prepare: (() => Promise<any>) | undefined) => Promise.all(principals.map(() => prepare?.()));

describe('authorization matrix: REST', () => {
  for (const route of REST) {
    it(`${route.method} ${route.path}`, async () => {
      const prepared = await prepareAll(route.prepare);
      const together = !route.snapshot && (route.method === 'GET' || route.prepare !== undefined);
      await forEachPrincipal(together, async (who, index) => {
        const vars = prepared[index];
        const before = route.snapshot ? await route.snapshot(vars) : undefined;
        const body = route.body?.(vars);
        const raw = route.raw?.(vars);
        const contentType = raw ? raw.contentType : body !== undefined ? 'application/json' : undefined;
        const response = await call(server, route.url(vars), {
          method: route.method,
          headers: { 'x-axiom-org-id': orgId, ...(contentType ? { 'content-type': contentType } : {}), ...route.headers?.(vars) },
          ...(raw ? { body: raw.text } : body !== undefined ? { body: JSON.stringify(body) } : {}),
          auth: who.token,
        });
        const label = `${route.method} ${route.url(vars)} as ${who.name}: ${describeOutcome(response.status, response.body)}`;
        const refused = route.refused ?? (route.datasetScoped ? [403, 404] : [403]);
        if (route.allowed(who)) {
          if (route.outcome) expect(route.outcome(response.status, response.text), label).toBe('allowed');
          else expect(response.status >= 200 && response.status < 300, label).toBe(true);
        } else {
          if (route.outcome) expect(route.outcome(response.status, response.text), label).toBe('refused');
          else expect(refused, label).toContain(response.status);
          if (route.snapshot) expect(await route.snapshot(vars), `${label}: a refused write changed something`).toEqual(before);
        }
      });
    }, 120_000);
  }
});

describe('authorization matrix: GraphQL', () => {
  for (const field of GRAPHQL) {
    it(field.field, async () => {
      const prepared = await prepareAll(field.prepare);
      const mutation = /^\s*mutation\b/.test(field.document(prepared[0]));
      const together = !field.snapshot && (!mutation || field.prepare !== undefined);
      await forEachPrincipal(together, async (who, index) => {
        const vars = prepared[index];
        const before = field.snapshot ? await field.snapshot(vars) : undefined;
        const response = await call(server, '/graphql', {
          ...json('POST', { query: field.document(vars), variables: field.variables?.(vars) }, { 'x-axiom-org-id': orgId }),
          auth: who.token,
        });
        const result = response.body as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] };
        const label = `${field.field} as ${who.name}: ${describeOutcome(response.status, result)}`;
        if (field.allowed(who)) {
          expect(result.errors, label).toBeUndefined();
          expect(result.data?.[field.field], label).not.toBeUndefined();
        } else {
          // A lookup by name answers null for a dataset the caller may not see, as for a missing one.
          const hidden = field.datasetScoped && !result.errors && result.data?.[field.field] === null;
          const code = hidden ? 'NOT_FOUND' : result.errors?.[0]?.extensions?.code;
          expect(field.datasetScoped ? ['FORBIDDEN', 'NOT_FOUND'] : ['FORBIDDEN'], label).toContain(code);
          if (field.snapshot) expect(await field.snapshot(vars), `${label}: a refused write changed something`).toEqual(before);
        }
      });
    }, 120_000);
  }
});

describe('authorization matrix coverage', () => {
  it('has a row for every route in /openapi.json', async () => {
    const document = (await call(server, '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const covered = new Set(REST.map((route) => `${route.method} ${route.path}`));
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (!covered.has(key) && !PUBLIC_REST.has(key)) missing.push(key);
      }
    }
    expect(missing).toEqual([]);
    // And no row for a route that does not exist.
    const listed = new Set(Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((m) => `${m.toUpperCase()} ${path}`)));
    expect([...covered].filter((key) => !listed.has(key))).toEqual([]);
  });

  it('has a row for every query and mutation field of the GraphQL schema', async () => {
    const result = await server.graphql('{ __schema { queryType { fields { name } } mutationType { fields { name } } } }');
    const fields = [...result.data.__schema.queryType.fields, ...result.data.__schema.mutationType.fields].map((f: { name: string }) => f.name);
    const covered = new Set(GRAPHQL.map((field) => field.field));
    expect(fields.filter((name: string) => !covered.has(name) && !PUBLIC_GRAPHQL.has(name))).toEqual([]);
  });

  it('serves the public routes without a token', async () => {
    expect((await call(server, '/api/v1/metadata', { auth: false })).status).toBe(200);
    expect((await call(server, '/v2/orgs/provision', { ...json('POST', {}), auth: false })).status).toBe(200);
    const result = await server.graphql('{ catalogMetadata { modelCount } }', undefined, false);
    expect(result.errors).toBeUndefined();
    const vocabulary = await server.graphql('{ aplVocabulary { operators { name } } }', undefined, false);
    expect(vocabulary.errors).toBeUndefined();
    expect(vocabulary.data.aplVocabulary.operators.map((operator: { name: string }) => operator.name)).toContain('summarize');
  });
});
