// Statements the query engine runs again are kept prepared on their read connection: only the
// plan is kept, so an APL query repeated through HTTP still sees every event ingested since,
// new fields included, and stays under its time budget; the number of kept statements is bounded.
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementCache } from '../../../src/engines/duckdb/statement-cache';
import { startTestServer, type TestServer } from '../../helpers/server';

const START = Date.parse('2024-03-01T00:00:00Z');
const window = { startTime: '2024-03-01T00:00:00Z', endTime: '2024-03-02T00:00:00Z' };

describe('repeated APL queries through HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ QUERY_TIMEOUT_MS: '300' });
    const created = await server.request('/v2/datasets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'repeat' }) });
    expect(created.status).toBe(200);
  });
  afterAll(() => server.close());

  const ingest = async (events: object[]) => {
    const response = await server.request('/v1/datasets/repeat/ingest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(events) });
    expect(((await response.json()) as { ingested: number }).ingested).toBe(events.length);
  };
  const apl = async (query: string) => {
    const response = await server.request('/v1/datasets/_apl?format=tabular', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apl: query, ...window }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const rowsOf = (body: any) => {
    const table = body.tables[0];
    const count = table.columns[0]?.length ?? 0;
    return Array.from({ length: count }, (_, row) => Object.fromEntries(table.fields.map((field: any, i: number) => [field.name, table.columns[i][row]])));
  };

  it('answers from the data as it is now, each time the same query comes again', async () => {
    const counts = "['repeat'] | summarize n = count(), total = sum(size) by kind | order by kind asc";
    const sent: { kind: string; size: number }[] = [];
    const expected = () => {
      const byKind = new Map<string, { n: number; total: number }>();
      for (const event of sent) {
        const entry = byKind.get(event.kind) ?? { n: 0, total: 0 };
        entry.n += 1;
        entry.total += event.size;
        byKind.set(event.kind, entry);
      }
      return [...byKind.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([kind, { n, total }]) => ({ kind, n, total }));
    };
    for (let round = 0; round < 5; round++) {
      const batch = Array.from({ length: 3 + round }, (_, i) => ({
        _time: new Date(START + (round * 10 + i) * 60_000).toISOString(),
        kind: ['a', 'b', 'c'][(round + i) % 3]!,
        size: round * 100 + i,
      }));
      await ingest(batch);
      sent.push(...batch);
      const { status, body } = await apl(counts);
      expect(status).toBe(200);
      expect(rowsOf(body)).toEqual(expected());
    }
  });

  it('sees a field that arrived after the statement was first prepared', async () => {
    const latest = "['repeat'] | sort by _time desc | take 2";
    for (let i = 0; i < 3; i++) expect((await apl(latest)).status).toBe(200);
    await ingest([{ _time: new Date(START + 23 * 3_600_000).toISOString(), kind: 'z', size: 1, region: 'eu-west-1' }]);
    const { status, body } = await apl(latest);
    expect(status).toBe(200);
    const [newest] = rowsOf(body);
    expect(newest).toMatchObject({ kind: 'z', size: 1, region: 'eu-west-1' });
  });

  it('keeps the time budget for a statement run again prepared', async () => {
    await ingest(Array.from({ length: 60 }, (_, i) => ({ _time: new Date(START + i * 1000).toISOString(), kind: 'w', size: i })));
    // 60+ rows joined with themselves five times over: billions of rows, far past 300 ms.
    const side = "(['repeat'] | extend k = 1)";
    const heavy = `['repeat'] | extend k = 1${` | join kind=inner ${side} on k`.repeat(5)} | summarize count()`;
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const { status, body } = await apl(heavy);
      expect(status).toBe(408);
      expect(body.message ?? body.error).toMatch(/time budget/);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    expect((await apl("['repeat'] | count")).status).toBe(200);
  });
});

describe('StatementCache', () => {
  it('prepares a text from its second sighting on and keeps at most the given number per connection', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const cache = new StatementCache(2);
      const sql = (n: number) => `SELECT ${n} AS n`;
      expect(await cache.statementFor(connection, sql(1))).toBeUndefined();
      const first = await cache.statementFor(connection, sql(1));
      expect(first).toBeDefined();
      expect(await cache.statementFor(connection, sql(1))).toBe(first);
      expect((await first!.runAndReadAll()).getRowsJS()).toEqual([[1]]);

      // Two more statements prepared: the least recently used one (SELECT 1) leaves.
      for (const n of [2, 3]) {
        await cache.statementFor(connection, sql(n));
        expect(await cache.statementFor(connection, sql(n))).toBeDefined();
      }
      const again = await cache.statementFor(connection, sql(1));
      expect(again).toBeDefined();
      expect(again).not.toBe(first);
      expect((await again!.runAndReadAll()).getRowsJS()).toEqual([[1]]);

      // A statement that failed is prepared afresh.
      cache.forget(connection, sql(1));
      expect(await cache.statementFor(connection, sql(1))).not.toBe(again);

      // 0 keeps nothing.
      const none = new StatementCache(0);
      for (let i = 0; i < 3; i++) expect(await none.statementFor(connection, sql(4))).toBeUndefined();
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
