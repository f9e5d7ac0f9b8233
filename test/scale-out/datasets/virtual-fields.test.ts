// Virtual fields through HTTP and GraphQL: /v2/vfields, their use by name in queries over the
// dataset (APL and legacy requests), the fields list, and their capabilities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aplRows, sendJson } from '../../helpers/api';
import { startTestServer, type TestServer } from '../../helpers/server';

const EVENTS = [
  { _time: '2025-04-01T10:00:00Z', host: 'a', bytes: 1024, status: 200 },
  { _time: '2025-04-01T10:01:00Z', host: 'b', bytes: 3072, status: 500 },
  { _time: '2025-04-01T10:02:00Z', host: 'a', bytes: 512, status: 404 },
  { _time: '2025-04-01T10:03:00Z', host: 'c', bytes: 10240, status: 503 },
];
const RANGE = { startTime: '2025-04-01T00:00:00Z', endTime: '2025-04-02T00:00:00Z' };

describe('virtual fields', () => {
  let server: TestServer;
  const send = (method: string, path: string, body?: unknown, auth?: string) => sendJson(server, method, path, body, auth);
  const query = (apl: string, auth?: string) => aplRows(server, apl, RANGE, auth);
  const create = (body: Record<string, unknown>, auth?: string) => send('POST', '/v2/vfields', body, auth);

  beforeAll(async () => {
    server = await startTestServer();
    for (const name of ['web', 'empty']) expect((await send('POST', '/v2/datasets', { name })).status).toBe(200);
    expect((await send('POST', '/v1/datasets/web/ingest', EVENTS)).body.ingested).toBe(EVENTS.length);
  });
  afterAll(() => server.close());

  it('creates, gets, lists, updates and deletes them in the shapes of the v2 API', async () => {
    // As Axiom's Go client does: a field over fields the dataset does not have yet.
    const created = await create({ dataset: 'empty', name: 'TestField', expression: 'a + b', type: 'number' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(String), dataset: 'empty', name: 'TestField', expression: 'a + b', description: '', type: 'number', unit: '' });
    const id = created.body.id;
    expect((await send('GET', `/v2/vfields/${id}`)).body).toEqual(created.body);
    const updated = await send('PUT', `/v2/vfields/${id}`, { dataset: 'empty', name: 'UpdatedTestField', expression: 'a * b', type: 'number', unit: 'B' });
    expect(updated).toEqual({ status: 200, body: { ...created.body, name: 'UpdatedTestField', expression: 'a * b', unit: 'B' } });
    expect((await send('GET', '/v2/vfields?dataset=empty')).body).toEqual([updated.body]);
    expect((await send('DELETE', `/v2/vfields/${id}`)).status).toBe(204);
    expect((await send('GET', `/v2/vfields/${id}`)).status).toBe(404);
    expect((await send('GET', '/v2/vfields?dataset=empty')).body).toEqual([]);
  });

  it('refuses bad definitions with clear errors', async () => {
    const syntax = await create({ dataset: 'web', name: 'x', expression: 'bytes +' });
    expect(syntax.status).toBe(400);
    expect(syntax.body.message).toMatch(/invalid expression: syntax error at line 1, column 8/);
    expect((await create({ dataset: 'web', name: '_time', expression: '1' })).status).toBe(400);
    expect((await create({ dataset: 'web', name: 'x' })).status).toBe(400);
    expect((await create({ dataset: 'nope', name: 'x', expression: '1' })).status).toBe(404);
    expect((await send('GET', '/v2/vfields')).status).toBe(400);
    expect((await create({ dataset: 'web', name: 'once', expression: '1' })).status).toBe(200);
    expect((await create({ dataset: 'web', name: 'once', expression: '2' })).status).toBe(409);
  });

  describe('in queries', () => {
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      for (const [name, expression] of [
        ['kb', 'bytes / 1024.0'],
        ['failed', 'status >= 500'],
        ['summary', "strcat(host, ':', iff(failed, 'down', 'up'))"],
      ] as const) {
        const response = await create({ dataset: 'web', name, expression, description: `the ${name}` });
        expect(response.status).toBe(200);
        ids[name] = response.body.id;
      }
    });

    it('are fields in every operator, and may use those defined before them', async () => {
      const kb = (e: (typeof EVENTS)[number]) => e.bytes / 1024;
      const failed = EVENTS.filter((e) => e.status >= 500);
      expect((await query("['web'] | where failed | sort by kb desc | project host, kb, summary")).rows).toEqual(
        [...failed].sort((a, b) => b.bytes - a.bytes).map((e) => ({ host: e.host, kb: kb(e), summary: `${e.host}:down` })),
      );
      const byHost = await query("['web'] | summarize total = sum(kb) by host | sort by host asc");
      expect(byHost.rows).toEqual(
        [...new Set(EVENTS.map((e) => e.host))].sort().map((host) => ({ host, total: EVENTS.filter((e) => e.host === host).reduce((sum, e) => sum + kb(e), 0) })),
      );
      const all = await query("['web'] | where host == 'a' | sort by _time asc");
      expect(all.fields.map((field) => `${field.name}:${field.type}`)).toEqual([
        '_time:datetime',
        '_sysTime:datetime',
        'host:string',
        'bytes:integer',
        'status:integer',
        'once:integer',
        'kb:float',
        'failed:boolean',
        'summary:string',
      ]);
      const schema = await query("['web'] | getschema | where ColumnName in ('kb', 'failed', 'summary') | project ColumnName, DataType");
      expect(schema.rows).toEqual([
        { ColumnName: 'kb', DataType: 'float' },
        { ColumnName: 'failed', DataType: 'boolean' },
        { ColumnName: 'summary', DataType: 'string' },
      ]);
    });

    it('are listed among the fields, flagged virtual, with the type of their expression', async () => {
      const fields = (await send('GET', '/v2/datasets/web/fields')).body as any[];
      expect(fields.filter((field) => field.virtual)).toEqual([
        { name: 'failed', type: 'boolean', unit: '', description: 'the failed', hidden: false, virtual: true },
        { name: 'kb', type: 'float', unit: '', description: 'the kb', hidden: false, virtual: true },
        { name: 'once', type: 'integer', unit: '', description: '', hidden: false, virtual: true },
        { name: 'summary', type: 'string', unit: '', description: 'the summary', hidden: false, virtual: true },
      ]);
      expect(fields.find((field) => field.name === 'bytes')).toEqual({ name: 'bytes', type: 'integer', unit: '', description: '', hidden: false });
    });

    it('answer with the new expression once updated, and are unknown once deleted', async () => {
      await send('PUT', `/v2/vfields/${ids.kb}`, { dataset: 'web', name: 'kb', expression: 'bytes / 1000.0' });
      expect((await query("['web'] | where host == 'c' | project kb")).rows).toEqual([{ kb: 10.24 }]);
      expect((await send('DELETE', `/v2/vfields/${ids.failed}`)).status).toBe(204);
      const unknown = await query("['web'] | where failed");
      expect(unknown.status).toBe(400);
      expect(unknown.error).toMatch(/unknown field "failed"/);
      // `summary` used `failed`: it cannot be evaluated now, which only queries naming it see.
      const broken = await query("['web'] | project summary");
      expect(broken.status).toBe(400);
      expect(broken.error).toMatch(/virtual field "summary" cannot be evaluated: .*unknown field "failed"/);
      expect((await query("['web'] | count")).rows).toEqual([{ count: EVENTS.length }]);
      expect((await send('GET', '/v2/datasets/web/fields/summary')).body).toMatchObject({ type: 'unknown', virtual: true });
    });

    it('serve legacy query requests, beside the virtual fields of the request itself', async () => {
      const body = await send('POST', '/v1/datasets/web/query', {
        ...RANGE,
        resolution: 'auto',
        virtualFields: [{ alias: 'big', expr: 'kb > 3' }],
        filter: { op: '==', field: 'big', value: true },
        project: [{ field: 'host' }, { field: 'kb' }],
      });
      expect(body.status).toBe(200);
      // kb is bytes / 1000 since the update above.
      const big = EVENTS.filter((e) => e.bytes / 1000 > 3).sort((a, b) => b._time.localeCompare(a._time));
      expect(body.body.matches.map((match: any) => match.data)).toEqual(big.map((e) => ({ host: e.host, kb: e.bytes / 1000 })));
      const refused = await send('POST', '/v1/datasets/web/query', { ...RANGE, resolution: 'auto', virtualFields: [{ alias: 'bad', expr: 'nosuch * 2' }] });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/virtual field "bad" cannot be evaluated/);
    });
  });

  it('needs the virtualFields capability on the dataset; queries need only query', async () => {
    const reader = (await send('POST', '/v2/tokens', { name: 'vf reader', datasetCapabilities: { web: { virtualFields: ['read'], query: ['read'] } } })).body.token;
    const listed = await send('GET', '/v2/vfields?dataset=web', undefined, reader);
    expect(listed.status).toBe(200);
    expect((await create({ dataset: 'web', name: 'nope', expression: '1' }, reader)).status).toBe(403);
    expect((await send('PUT', `/v2/vfields/${listed.body[0].id}`, { dataset: 'web', name: 'x', expression: '1' }, reader)).status).toBe(403);
    expect((await send('DELETE', `/v2/vfields/${listed.body[0].id}`, undefined, reader)).status).toBe(403);
    const querier = (await send('POST', '/v2/tokens', { name: 'querier', datasetCapabilities: { web: { query: ['read'] } } })).body.token;
    expect((await send('GET', '/v2/vfields?dataset=web', undefined, querier)).status).toBe(403);
    expect((await query("['web'] | where host == 'c' | project kb", querier)).rows).toEqual([{ kb: 10.24 }]);
  });

  it('has GraphQL types, connections and mutations', async () => {
    const created = await server.graphql(
      'mutation { createVirtualField(input: { dataset: "web", name: "double", expression: "bytes * 2", unit: "B" }) { id virtualFieldId name unit dataset { name } } }',
    );
    expect(created.errors).toBeUndefined();
    const field = created.data.createVirtualField;
    expect(field).toMatchObject({ name: 'double', unit: 'B', dataset: { name: 'web' } });
    const node = await server.graphql(`{ node(id: "${field.id}") { ... on VirtualField { expression } } }`);
    expect(node.data.node).toEqual({ expression: 'bytes * 2' });
    const listed = await server.graphql('{ virtualFields(dataset: "web", last: 1) { edges { node { name } } } dataset(name: "web") { fields { name virtual } } }');
    expect(listed.data.virtualFields.edges).toEqual([{ node: { name: 'double' } }]);
    expect(listed.data.dataset.fields.find((f: any) => f.name === 'double')).toEqual({ name: 'double', virtual: true });
    const updated = await server.graphql(
      `mutation { updateVirtualField(id: "${field.virtualFieldId}", input: { dataset: "web", name: "double", expression: "bytes * 3" }) { expression } }`,
    );
    expect(updated.data.updateVirtualField).toEqual({ expression: 'bytes * 3' });
    expect((await query("['web'] | where host == 'b' | project double")).rows).toEqual([{ double: 3072 * 3 }]);
    const deleted = await server.graphql(`mutation { deleteVirtualField(id: "${field.virtualFieldId}") }`);
    expect(deleted.data.deleteVirtualField).toBe(field.virtualFieldId);
    const bad = await server.graphql('mutation { createVirtualField(input: { dataset: "web", name: "z", expression: "(" }) { id } }');
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
