// GraphQL requests that ask too much, anonymous catalog queries included, are refused with a
// clear error code before they run; malformed node ids and documents are the caller's mistake
// (BAD_USER_INPUT), never INTERNAL_SERVER_ERROR; a request past its time budget answers TIMEOUT
// and stops its query. Reasonable queries (two nested connections, introspection) still run.
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ GRAPHQL_TIMEOUT_MS: '500' });
});
afterAll(() => server.close());

async function anonymous(query: string, variables?: Record<string, unknown>) {
  return server.graphql(query, variables, false);
}

/** models → provider → models ... `levels` connections deep, `first` items each. */
function nestedCatalog(levels: number, first: number): string {
  let inner = 'modelId';
  for (let level = 0; level < levels; level++) {
    inner = level === 0 ? `models(first: ${first}) { edges { node { ${inner} } } }` : `models(first: ${first}) { edges { node { modelId provider { ${inner} } } } }`;
  }
  return `{ ${inner} }`;
}

async function expectHealthy() {
  expect((await server.request('/healthz')).status).toBe(200);
}

describe('cost and depth', () => {
  it.each([3, 4])('refuses an anonymous catalog query nesting models %i deep at 100 each', async (levels) => {
    const result = await anonymous(nestedCatalog(levels, 100));
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
    // Three levels pass the depth limit and not the cost limit; four pass neither.
    expect(result.errors?.[0]?.message).toMatch(
      levels === 3 ? /may resolve \d+ fields, more than the 200000 allowed \(GRAPHQL_MAX_COST\)/ : /more than the 15 allowed \(GRAPHQL_MAX_DEPTH\)/,
    );
    await expectHealthy();
  });

  it('counts aliases of one field separately', async () => {
    const aliases = Array.from({ length: 12 }, (_, i) => `m${i}: models(first: 10000) { edges { node { modelId } } }`).join(' ');
    const result = await anonymous(`{ ${aliases} }`);
    expect(result.errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
  });

  it('counts the series of a metrics answer at their most (10,000)', async () => {
    const metrics = (alias: string) => `${alias}: metrics(dataset: "m", mpl: "m:cpu") { series { metric tags } }`;
    // One answer may hold 10,000 series of two fields: about 20,000, within the limit.
    expect((await server.graphql(`{ ${metrics('a')} }`)).errors?.[0]?.extensions?.code).not.toBe('LIMIT_EXCEEDED');
    const many = await server.graphql(`{ ${Array.from({ length: 12 }, (_, i) => metrics(`m${i}`)).join(' ')} }`);
    expect(many.errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
  });

  it('reads page sizes from variables', async () => {
    const query = 'query($n: Int) { models(first: $n) { edges { node { modelId provider { models(first: $n) { edges { node { modelId provider { models(first: $n) { totalCount } } } } } } } } } }';
    expect((await anonymous(query, { n: 100 })).errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
    const small = await anonymous(query, { n: 2 });
    expect(small.errors).toBeUndefined();
    expect(small.data.models.edges).toHaveLength(2);
  });

  it('refuses fields nested deeper than GRAPHQL_MAX_DEPTH, even when cheap', async () => {
    const result = await anonymous(nestedCatalog(5, 1));
    expect(result.errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
    expect(result.errors?.[0]?.message).toMatch(/nests fields \d+ deep, more than the 15 allowed \(GRAPHQL_MAX_DEPTH\)/);
  });

  it('still answers two nested connections of 100 and the introspection query', async () => {
    const two = await anonymous(nestedCatalog(2, 100));
    expect(two.errors).toBeUndefined();
    expect(two.data.models.edges.length).toBeGreaterThan(0);
    const introspection = await anonymous(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(introspection.errors).toBeUndefined();
    expect(introspection.data.__schema.queryType.name).toBe('Query');
  });
});

describe('malformed documents, variables and ids', () => {
  it('refuses documents whose selections or arguments nest 10,000 deep as bad input', async () => {
    for (const query of [
      `{ catalogMetadata ${'{ modelCount '.repeat(10_000)}${'}'.repeat(10_000)} }`,
      `{ models(filter: { providers: ${'['.repeat(10_000)}"x"${']'.repeat(10_000)} }) { totalCount } }`,
    ]) {
      const result = await anonymous(query);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(result.errors?.[0]?.message).toMatch(/the document nests brackets \d+ deep/);
    }
    await expectHealthy();
  });

  it('refuses a document of more than GRAPHQL_MAX_TOKENS tokens', async () => {
    const result = await anonymous(`{ ${Array.from({ length: 3000 }, (_, i) => `a${i}: __typename`).join(' ')} }`);
    expect(result.errors?.[0]?.message).toMatch(/Document contains more th.. 5000 tokens/);
  });

  it('refuses variables nested deeper than JSON_MAX_DEPTH, in a query string too', async () => {
    const deep = `${'['.repeat(300)}${']'.repeat(300)}`;
    const url = `/graphql?query=${encodeURIComponent('query($v: JSON) { apl(query: "x", variables: $v) { datasetNames } }')}&variables=${encodeURIComponent(`{"v":${deep}}`)}`;
    const response = await server.request(url, { headers: { accept: 'application/json' } });
    const body = (await response.json()) as any;
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(body.errors?.[0]?.message).toMatch(/variables nest deeper than 128 levels/);
  });

  it.each([
    ['garbage', 'x'],
    ['base64 of a type without ids', Buffer.from('Secret:1').toString('base64')],
    ['base64 without a colon', Buffer.from('Model').toString('base64')],
  ])('answers a node id that is %s with BAD_USER_INPUT', async (_name, id) => {
    const many = await anonymous('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [id] });
    expect(many.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(many.errors?.[0]?.message).toMatch(/is not a node id of this API/);
    const one = await anonymous('query($id: ID!) { node(id: $id) { id } }', { id });
    expect(one.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('still finds a node by a real id', async () => {
    const first = await anonymous('{ models(first: 1) { edges { node { id modelId } } } }');
    const { id, modelId } = first.data.models.edges[0].node;
    const found = await anonymous('query($id: ID!) { node(id: $id) { ... on Model { modelId } } }', { id });
    expect(found.data.node.modelId).toBe(modelId);
  });
});

describe('time budget', () => {
  it('answers TIMEOUT past GRAPHQL_TIMEOUT_MS and stops the query, then serves the next request', async () => {
    const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await server.request('/v2/datasets', json({ name: 'slow' }))).status).toBe(200);
    expect((await server.request('/v1/datasets/slow/ingest', json(Array.from({ length: 60 }, (_, i) => ({ n: i }))))).status).toBe(200);
    // 60 rows joined with themselves six times over: 47 billion rows, far past 500 ms.
    const join = "['slow'] | extend k = 1 | project k";
    const slow = `${join} | join (${join}) on k | join (${join}) on k | join (${join}) on k | join (${join}) on k | join (${join}) on k | count`;
    const result = await server.graphql('query($q: String!) { apl(query: $q) { status { rowsMatched } } }', { q: slow });
    expect(result.errors?.[0]?.extensions?.code).toBe('TIMEOUT');
    expect(result.errors?.[0]?.message).toMatch(/time budget of 500 ms/);
    const fast = await server.graphql('{ apl(query: "[\'slow\'] | count") { result } }');
    expect(fast.errors).toBeUndefined();
  });
});
