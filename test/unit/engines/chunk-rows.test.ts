// The chunk reader gives the same rows as the client's own `getRows()`: text inline and out of
// line, ASCII and not, nulls, strings whose memory is not in row order, long ones that take
// several copies, and the columns it leaves to the client.
import type { DuckDBValue } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { chunkRows } from '../../../src/engines/duckdb/chunk-rows';
import { inMemoryDuckDB } from '../../helpers/duckdb-memory';

const connection = inMemoryDuckDB();

/** Rows of a query both ways, chunk by chunk. */
async function bothWays(sql: string): Promise<{ expected: DuckDBValue[][]; actual: DuckDBValue[][] }> {
  const expected: DuckDBValue[][] = [];
  const actual: DuckDBValue[][] = [];
  const result = await connection().run(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const mine = chunkRows(chunk);
    expected.push(...chunk.getRows());
    actual.push(...mine);
  }
  return { expected, actual };
}

/** Values as text for comparison (DuckDB's value objects compare by their text). */
const asText = (rows: DuckDBValue[][]) => rows.map((row) => row.map((value) => (value === null || typeof value === 'string' ? value : String(value))));

describe('chunkRows', () => {
  it('reads inline, out-of-line, empty, null and non-ASCII text as the client does', async () => {
    const { expected, actual } = await bothWays(`
      select
        repeat('x', i % 30) as grows,
        case when i % 7 = 0 then null else 'span-' || i || '-' || repeat('ab', i % 9) end as sometimes_null,
        case i % 4 when 0 then 'naïve café ' || i when 1 then '東京 ' || repeat('é', i % 20) when 2 then '🙂' || i else 'plain' end as accents,
        repeat('q', 12) as twelve,
        repeat('q', 13) as thirteen,
        '' as empty
      from range(5000) t(i)`);
    expect(actual.length).toBe(5000);
    expect(actual).toEqual(expected);
    expect(actual[3]![1]).toBe('span-3-ababab');
    expect(actual[7]![1]).toBeNull();
    expect(actual[1]![2]).toBe('東京 é');
  });

  it('reads text whose memory is not in row order, and text in copies of at most a megabyte', async () => {
    await connection().run(`create or replace table shuffled as select md5(i::varchar) || '-' || i as id, repeat(chr((65 + i % 26)::integer), 40000 + i) as wide from range(300) t(i)`);
    const { expected, actual } = await bothWays('select id, wide from shuffled order by hash(id)');
    expect(actual.length).toBe(300);
    expect(actual).toEqual(expected);
    const { expected: single, actual: mine } = await bothWays(`select repeat('z', 3000000) as huge, 'after the huge one' as tail`);
    expect(mine).toEqual(single);
    expect((mine[0]![0] as string).length).toBe(3_000_000);
  });

  it('leaves other columns to the client, JSON and nested text included', async () => {
    const { expected, actual } = await bothWays(`
      select
        i::bigint as n,
        i / 3.0 as ratio,
        timestamp '2026-01-02 03:04:05' + to_seconds(i) as at,
        ['first-element-long', 'b', null][1 + i % 3] as picked,
        ['tag-' || i, 'another-long-tag'] as tags,
        {'service': 'checkout-service', 'n': i} as scope,
        ('{"http.route":"/api/items/' || i || '"}')::json as attributes
      from range(2100) t(i)`);
    expect(actual.length).toBe(2100);
    expect(asText(actual)).toEqual(asText(expected));
    expect(actual[5]![6]).toBe('{"http.route":"/api/items/5"}');
  });
});
