// Map fields through HTTP and GraphQL: their management API, ingest keeping objects under them
// whole (outside the field limit), and APL reading keys inside them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aplRows, sendJson } from '../../helpers/api';
import { startTestServer, type TestServer } from '../../helpers/server';

describe('map fields', () => {
  let server: TestServer;
  const send = (method: string, path: string, body?: unknown, auth?: string) => sendJson(server, method, path, body, auth);
  const rows = async (apl: string) => {
    const answer = await aplRows(server, apl);
    expect(answer.status, answer.error).toBe(200);
    return answer.rows;
  };
  const ingest = async (dataset: string, events: object[]) => {
    const { status, body } = await send('POST', `/v1/datasets/${dataset}/ingest`, events);
    expect(status).toBe(200);
    return body;
  };

  beforeAll(async () => {
    server = await startTestServer({ MAX_FIELDS_PER_DATASET: '5' });
    for (const name of ['crud', 'traces', 'geo', 'gql']) expect((await send('POST', '/v2/datasets', { name })).status).toBe(200);
  });
  afterAll(() => server.close());

  describe('management', () => {
    it('declares, lists, replaces and removes map fields, and the dataset lists them', async () => {
      expect(await send('GET', '/v2/datasets/crud/mapfields')).toEqual({ status: 200, body: [] });
      expect(await send('POST', '/v2/datasets/crud/mapfields', { name: 'foo' })).toEqual({ status: 200, body: { name: 'foo' } });
      expect((await send('GET', '/v2/datasets/crud')).body.mapFields).toEqual(['foo']);

      expect(await send('PUT', '/v2/datasets/crud/mapfields', [])).toEqual({ status: 200, body: [] });
      expect((await send('GET', '/v2/datasets/crud')).body.mapFields).toEqual([]);
      expect(await send('PUT', '/v2/datasets/crud/mapfields', ['buz', 'bar', 'baz'])).toEqual({ status: 200, body: ['bar', 'baz', 'buz'] });
      expect(await send('PUT', '/v2/datasets/crud/mapfields', ['bar', 'new.one', 'baz'])).toEqual({ status: 200, body: ['bar', 'baz', 'new.one'] });

      expect((await send('DELETE', '/v2/datasets/crud/mapfields/bar')).status).toBe(204);
      expect((await send('GET', '/v2/datasets/crud/mapfields')).body).toEqual(['baz', 'new.one']);
      expect((await send('GET', '/v2/datasets')).body.find((d: any) => d.name === 'crud').mapFields).toEqual(['baz', 'new.one']);
    });

    it('refuses duplicates, invalid names and unknown ones with clear errors', async () => {
      await send('POST', '/v2/datasets/crud/mapfields', { name: 'dupe' });
      const again = await send('POST', '/v2/datasets/crud/mapfields', { name: 'dupe' });
      expect(again.status).toBe(409);
      expect(again.body.message).toMatch(/already exists/);
      for (const name of ['__invalid__', '', 'a..b', '.a', 'x'.repeat(201)]) {
        const refused = await send('POST', '/v2/datasets/crud/mapfields', { name });
        expect(refused.status, name).toBe(400);
        expect(refused.body.message).toMatch(/invalid map field name/);
      }
      expect((await send('POST', '/v2/datasets/crud/mapfields', { nom: 'x' })).status).toBe(400);
      expect((await send('PUT', '/v2/datasets/crud/mapfields', ['twice', 'twice'])).body).toMatchObject({ code: 400, message: expect.stringMatching(/listed twice/) });
      expect((await send('PUT', '/v2/datasets/crud/mapfields', { name: 'x' })).status).toBe(400);
      expect((await send('PUT', '/v2/datasets/crud/mapfields', ['__invalid__'])).status).toBe(400);
      expect((await send('DELETE', '/v2/datasets/crud/mapfields/never')).status).toBe(404);
      expect((await send('GET', '/v2/datasets/nope/mapfields')).status).toBe(404);
      // A refused replacement changes nothing.
      expect((await send('GET', '/v2/datasets/crud/mapfields')).body).toEqual(['baz', 'dupe', 'new.one']);
    });

    it('needs the datasets capability: read to list, create, update and delete to change', async () => {
      const created = await send('POST', '/v2/tokens', { name: 'map reader', orgCapabilities: { datasets: ['read'] } });
      const reader = created.body.token as string;
      expect((await send('GET', '/v2/datasets/crud/mapfields', undefined, reader)).status).toBe(200);
      expect((await send('POST', '/v2/datasets/crud/mapfields', { name: 'nope' }, reader)).status).toBe(403);
      expect((await send('PUT', '/v2/datasets/crud/mapfields', [], reader)).status).toBe(403);
      expect((await send('DELETE', '/v2/datasets/crud/mapfields/baz', undefined, reader)).status).toBe(403);
      const ingester = (await send('POST', '/v2/tokens', { name: 'ingest only', datasetCapabilities: { crud: { ingest: ['create'] } } })).body.token;
      expect((await send('GET', '/v2/datasets/crud/mapfields', undefined, ingester)).status).toBe(403);
    });

    it('lets code that ingests make sure a map field exists, once', async () => {
      const dataset = await server.app.services.store.prisma.dataset.findFirstOrThrow({ where: { name: 'crud' } });
      await server.app.services.mapFields.ensure(dataset, 'attributes.custom');
      await server.app.services.mapFields.ensure(dataset, 'attributes.custom');
      expect((await send('GET', '/v2/datasets/crud/mapfields')).body).toEqual(['attributes.custom', 'baz', 'dupe', 'new.one']);
    });
  });

  describe('ingest and queries', () => {
    const spans = [
      { name: 'GET /a', attributes: { custom: { 'http.protocol': 'HTTP/1.1', 'http.status': 200, region: { zone: 'b' } } } },
      { name: 'GET /b', attributes: { custom: { 'http.protocol': 'HTTP/2', 'http.status': 404 } } },
      { name: 'GET /c', attributes: { custom: { 'http.protocol': 'HTTP/1.1', retries: 3 } } },
    ];

    beforeAll(async () => {
      expect((await send('POST', '/v2/datasets/traces/mapfields', { name: 'attributes.custom' })).status).toBe(200);
      // 40 distinct keys under the map field, with a limit of 5 fields for the dataset.
      const wide = { name: 'wide', attributes: { custom: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])) } };
      const status = await ingest('traces', [...spans, wide]);
      expect(status).toMatchObject({ ingested: 4, failed: 0 });
    });

    it('keeps the object whole: one field of type map, marked in the fields list', async () => {
      const fields = (await send('GET', '/v2/datasets/traces/fields')).body;
      expect(fields).toEqual([
        { name: 'attributes.custom', type: 'map', unit: '', description: '', hidden: false, mapField: true },
        { name: 'name', type: 'string', unit: '', description: '', hidden: false },
      ]);
      expect((await send('GET', '/v2/datasets/traces/fields/attributes.custom')).body).toMatchObject({ type: 'map', mapField: true });
    });

    it('reads keys holding dots by index, and nested keys by dots', async () => {
      const wanted = spans.filter((span) => span.attributes.custom['http.protocol'] === 'HTTP/1.1').map((span) => ({ name: span.name }));
      expect(await rows("['traces'] | where ['attributes.custom']['http.protocol'] == 'HTTP/1.1' | sort by name asc | project name")).toEqual(wanted);
      expect(await rows("['traces'] | where attributes.custom.region.zone == 'b' | project name")).toEqual([{ name: 'GET /a' }]);
      expect(await rows("['traces'] | where ['attributes.custom'].retries > 2 | project name")).toEqual([{ name: 'GET /c' }]);
      expect(await rows("['traces'] | where isnotnull(['attributes.custom.k39']) | project name, k = toint(['attributes.custom']['k39'])")).toEqual([
        { name: 'wide', k: 39 },
      ]);
    });

    it('finds a dotted key through dot notation too', async () => {
      expect(await rows("['traces'] | where attributes.custom.http.status == 404 | project name")).toEqual([{ name: 'GET /b' }]);
    });

    it('groups by a key and returns the whole object as a value', async () => {
      const counts = new Map<string, number>();
      for (const span of spans) counts.set(span.attributes.custom['http.protocol'], (counts.get(span.attributes.custom['http.protocol']) ?? 0) + 1);
      const grouped = await rows("['traces'] | where isnotnull(['attributes.custom']['http.protocol']) | summarize n = count() by protocol = tostring(['attributes.custom']['http.protocol']) | sort by protocol asc");
      expect(grouped).toEqual([...counts].sort(([a], [b]) => a.localeCompare(b)).map(([protocol, n]) => ({ protocol, n })));
      expect(await rows("['traces'] | where name == 'GET /b' | project ['attributes.custom']")).toEqual([{ 'attributes.custom': spans[1]!.attributes.custom }]);
      const schema = await rows("['traces'] | getschema | where ColumnName == 'attributes.custom' | project DataType");
      expect(schema).toEqual([{ DataType: 'map' }]);
    });
  });

  describe('a map field declared over fields that already exist', () => {
    beforeAll(async () => {
      await ingest('geo', [{ geo: { city: 'Paris', country: 'FR' } }]);
      expect((await send('POST', '/v2/datasets/geo/mapfields', { name: 'geo' })).status).toBe(200);
      await ingest('geo', [{ geo: { city: 'Oslo', country: 'NO' } }]);
    });

    it('keeps the old flattened fields and adds the map beside them', async () => {
      const names = (await send('GET', '/v2/datasets/geo/fields')).body.map((field: any) => `${field.name}:${field.type}`);
      expect(names).toEqual(['geo:map', 'geo.city:string', 'geo.country:string']);
    });

    it('reads the flattened field by its whole name and the map by its path', async () => {
      expect(await rows("['geo'] | project flat = ['geo.city'], mapped = tostring(['geo']['city']) | sort by flat asc nulls last")).toEqual([
        { flat: 'Paris', mapped: '' },
        { flat: null, mapped: 'Oslo' },
      ]);
      expect(await rows("['geo'] | where geo.city == 'Oslo' | count")).toEqual([{ count: 1 }]);
    });

    it('flattens objects again once the map field is removed', async () => {
      expect((await send('DELETE', '/v2/datasets/geo/mapfields/geo')).status).toBe(204);
      await ingest('geo', [{ geo: { city: 'Rome', country: 'IT' } }]);
      expect(await rows("['geo'] | where ['geo.city'] == 'Rome' | count")).toEqual([{ count: 1 }]);
      const fields = (await send('GET', '/v2/datasets/geo/fields')).body;
      expect(fields.find((field: any) => field.name === 'geo')).toEqual({ name: 'geo', type: 'map', unit: '', description: '', hidden: false });
    });
  });

  describe('GraphQL', () => {
    it('declares, lists, replaces and removes map fields', async () => {
      const created = await server.graphql('mutation { createMapField(dataset: "gql", name: "attrs") { id name dataset { name } } }');
      expect(created.errors).toBeUndefined();
      expect(created.data.createMapField).toMatchObject({ name: 'attrs', dataset: { name: 'gql' } });
      const node = await server.graphql(`{ node(id: "${created.data.createMapField.id}") { ... on MapField { name } } }`);
      expect(node.data.node).toEqual({ name: 'attrs' });

      const replaced = await server.graphql('mutation { updateMapFields(dataset: "gql", names: ["b", "a"]) { name } }');
      expect(replaced.data.updateMapFields).toEqual([{ name: 'a' }, { name: 'b' }]);
      const listed = await server.graphql('{ dataset(name: "gql") { mapFields(first: 1) { edges { node { name } } pageInfo { hasNextPage } } fields { name mapField } } }');
      expect(listed.data.dataset.mapFields).toEqual({ edges: [{ node: { name: 'a' } }], pageInfo: { hasNextPage: true } });
      expect(listed.data.dataset.fields).toEqual([
        { name: 'a', mapField: true },
        { name: 'b', mapField: true },
      ]);

      const deleted = await server.graphql('mutation { deleteMapField(dataset: "gql", name: "a") }');
      expect(deleted.data.deleteMapField).toBe('a');
      const missing = await server.graphql('mutation { deleteMapField(dataset: "gql", name: "a") }');
      expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const duplicate = await server.graphql('mutation { createMapField(dataset: "gql", name: "b") { name } }');
      expect(duplicate.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    });
  });
});
