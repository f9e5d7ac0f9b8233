// Scans read only the columns a query uses: on a dataset with hundreds of fields, every query
// would otherwise alias every column, and DuckDB's planning time grows with them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeApl, prepareQuery, parseQuery, type EngineDeps } from '../../../src/apl';
import { addDataset, createTestDatabase, type TestDatabase } from '../../helpers/apl/fixtures';

const WIDTH = 300;
let db: TestDatabase;
let deps: EngineDeps;

beforeAll(async () => {
  db = await createTestDatabase();
  const fields = Array.from({ length: WIDTH }, (_, i) => ({ name: `f${i}`, type: 'integer' as const }));
  const events = Array.from({ length: 20 }, (_, row) => ({
    _time: new Date(Date.UTC(2024, 3, 30, 10, row)).toISOString(),
    ...Object.fromEntries(fields.map((field, i) => [field.name, row * 1000 + i])),
  }));
  await addDataset(db, 'wide', fields, events);
  deps = db.deps;
});
afterAll(() => db.close());

// The fixture names the column of field fN "fN_fN".
const columnsInSql = (sql: string) => new Set([...sql.matchAll(/"f\d+_(f\d+)"/g)].map((match) => match[1]));

describe('column pruning', () => {
  it.each([
    ["['wide'] | where f7 > 5000 | count", ['f7']],
    ["['wide'] | summarize sum(f3) by f250", ['f3', 'f250']],
    ["['wide'] | extend x = f1 + f2 | project x", ['f1', 'f2']],
    ["['wide'] | sort by f9 desc | take 3 | project f10", ['f9', 'f10']],
    ["['wide'] | mv-expand x = pack_array(f4, f5) | project x", ['f4', 'f5']],
    ["['wide'] | make-series sum(f6) on _time step 1h by f8", ['f6', 'f8']],
    ["['wide'] | top-nested 2 of f11 by max(f12)", ['f11', 'f12']],
    ["['wide'] | parse-kv tostring(f13) as (k) | project k", ['f13']],
    ["['wide'] | join kind=inner (['wide'] | project f1, f2) on f1 | project f3", ['f1', 'f3']],
    ["union wide, (['wide'] | where f14 > 0) | summarize sum(f5)", ['f5', 'f14']],
  ])('%s reads only %j', async (apl, expected) => {
    const prepared = await prepareQuery(parseQuery(apl), {}, deps);
    expect(columnsInSql(prepared.statement.sql)).toEqual(new Set(expected));
  });

  it('still reads every column when the query returns every field', async () => {
    const prepared = await prepareQuery(parseQuery("['wide'] | take 1"), {}, deps);
    expect(columnsInSql(prepared.statement.sql).size).toBe(WIDTH);
  });

  it('answers the same as without pruning', async () => {
    const sum = await executeApl({ apl: "['wide'] | where f7 > 5000 | summarize total = sum(f3), n = count() by bucket = f250 % 2 | order by bucket asc" }, deps);
    const rows = Array.from({ length: 20 }, (_, row) => row).filter((row) => row * 1000 + 7 > 5000);
    const expectedBuckets = [0, 1].map((bucket) => {
      const inBucket = rows.filter((row) => (row * 1000 + 250) % 2 === bucket);
      return [bucket, inBucket.reduce((total, row) => total + row * 1000 + 3, 0), inBucket.length];
    }).filter(([, , n]) => (n as number) > 0);
    const table = sum.table;
    const got = table.columns[0]!.map((_, i) => table.columns.map((column) => column[i]));
    expect(got).toEqual(expectedBuckets);
    const counted = await executeApl({ apl: "['wide'] | count" }, deps);
    expect(counted.table.columns[0]).toEqual([20]);
  });
});
