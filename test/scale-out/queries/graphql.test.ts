import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

const TOTAL = 2_500;
const base = Date.parse('2026-06-01T00:00:00Z');

describe('GraphQL queries: apl and the events connection', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.graphql('mutation { createDataset(input: { name: "gql-events" }) { name } }');
    // Pairs of events share a millisecond, so edges fall between equal times.
    const lines = Array.from({ length: TOTAL }, (_, i) =>
      JSON.stringify({ _time: new Date(base + Math.floor(i / 2)).toISOString(), seq: i, status: i % 10 === 0 ? 500 : 200 }),
    );
    const response = await server.request('/v1/datasets/gql-events/ingest', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines.join('\n'),
    });
    expect(((await response.json()) as any).ingested).toBe(TOTAL);
  });
  afterAll(() => server.close());

  const EVENTS = `query($first: Int, $after: String, $last: Int, $before: String, $filter: String) {
    events(dataset: "gql-events", first: $first, after: $after, last: $last, before: $before, filter: $filter) {
      edges { cursor node { time rowId data } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }`;

  it('walks forward (newest first) with first/after, every event once and in order', async () => {
    const seqs: number[] = [];
    let after: string | undefined;
    for (let page = 0; page < 20; page++) {
      const result = await server.graphql(EVENTS, { first: 300, after });
      expect(result.errors).toBeUndefined();
      const { edges, pageInfo } = result.data.events;
      seqs.push(...edges.map((edge: any) => edge.node.data.seq));
      expect(pageInfo.hasPreviousPage).toBe(after !== undefined);
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    expect(seqs).toHaveLength(TOTAL);
    expect(seqs.map((seq) => Math.floor(seq / 2))).toEqual([...Array(TOTAL).keys()].map((i) => Math.floor((TOTAL - 1 - i) / 2)));
    expect(new Set(seqs).size).toBe(TOTAL);
  });

  it('walks backward with last/before from the oldest page, every event once', async () => {
    const pages: number[][] = [];
    let before: string | undefined;
    for (let page = 0; page < 20; page++) {
      const result = await server.graphql(EVENTS, { last: 400, before });
      expect(result.errors).toBeUndefined();
      const { edges, pageInfo } = result.data.events;
      pages.push(edges.map((edge: any) => edge.node.data.seq));
      if (!pageInfo.hasPreviousPage) break;
      before = pageInfo.startCursor;
    }
    const seqs = pages.reverse().flat();
    expect(seqs).toHaveLength(TOTAL);
    expect(new Set(seqs).size).toBe(TOTAL);
    // still newest first within and across pages
    expect(seqs.map((seq) => Math.floor(seq / 2))).toEqual([...Array(TOTAL).keys()].map((i) => Math.floor((TOTAL - 1 - i) / 2)));
  });

  it('uses the same cursors as the REST API', async () => {
    const rest = (await (
      await server.request('/v1/datasets/_apl?format=tabular', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apl: "['gql-events'] | sort by _time desc | limit 10" }),
      })
    ).json()) as any;
    const result = await server.graphql(EVENTS, { first: 10, after: rest.status.minCursor });
    const expected = (await server.graphql(EVENTS, { first: 20 })).data.events.edges.slice(10).map((edge: any) => edge.node.rowId);
    expect(result.data.events.edges.map((edge: any) => edge.node.rowId)).toEqual(expected);
  });

  it('filters with an APL predicate and refuses anything more than a predicate', async () => {
    const filtered = await server.graphql(EVENTS, { first: 1000, filter: 'status == 500' });
    expect(filtered.data.events.edges).toHaveLength(TOTAL / 10);
    expect(filtered.data.events.edges.every((edge: any) => edge.node.data.status === 500)).toBe(true);
    const smuggled = await server.graphql(EVENTS, { first: 10, filter: 'status == 500 | take 1' });
    expect(smuggled.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('refuses bad page arguments and forged cursors', async () => {
    expect((await server.graphql(EVENTS, { first: 5, last: 5 })).errors?.[0]?.message).toMatch(/not both/);
    expect((await server.graphql(EVENTS, { first: 5000 })).errors?.[0]?.message).toMatch(/between 0 and 1000/);
    expect((await server.graphql(EVENTS, { first: 5, after: 'abc-def-ghijklmnopqrstuvwx' })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('runs APL and types the status', async () => {
    const result = await server.graphql(`{ apl(query: "['gql-events'] | summarize count() by status | order by status asc") { datasetNames status { rowsMatched isPartial } result } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.apl.datasetNames).toEqual(['gql-events']);
    expect(result.data.apl.result.tables[0].columns).toEqual([[200, 500], [TOTAL - TOTAL / 10, TOTAL / 10]]);
    expect(result.data.apl.status.isPartial).toBe(false);
    const broken = await server.graphql('{ apl(query: "[\'gql-events\'] | wher x") { datasetNames } }');
    expect(broken.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', line: 1 } });
  });

  it('requires a token', async () => {
    const result = await server.graphql(EVENTS, { first: 1 }, false);
    expect(result.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
