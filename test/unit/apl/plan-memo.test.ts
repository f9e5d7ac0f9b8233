// A query that comes again with the same inputs reuses its compiled plan; anything that could
// change the plan (the window, the limit, the cursor, the schema's fields, its virtual fields,
// the clock for queries that read it) compiles afresh, and the answer follows the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duckdbDialect } from '../../../src/apl/dialect/duckdb';
import type { SqlDialect } from '../../../src/apl/dialect/dialect';
import type { EngineDeps } from '../../../src/apl';
import { executeApl } from '../../../src/apl';
import type { DatasetSchema } from '../../../src/fields/schema';
import { addDataset, createTestDatabase, tableRows, type TestDatabase } from '../../helpers/apl/fixtures';

describe('remembered query plans', () => {
  let db: TestDatabase;
  let full: DatasetSchema;
  let compiles = 0;
  let clock = 0n;
  let deps: EngineDeps;
  const rows = async (apl: string, request: { startTime?: string; endTime?: string; limit?: number } = {}) =>
    tableRows(await executeApl({ apl, startTime: '2024-04-01T00:00:00Z', endTime: '2024-04-02T00:00:00Z', ...request }, deps));
  const compilesOf = async (task: () => Promise<unknown>) => {
    const before = compiles;
    await task();
    return compiles - before;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    // Eight events an hour apart, from midnight.
    const events = Array.from({ length: 8 }, (_, i) => ({ _time: `2024-04-01T0${i}:00:00Z`, n: i, label: `e${i}` }));
    full = await addDataset(db, 'memo', [{ name: 'n', type: 'integer' }, { name: 'label', type: 'string' }], events);
    const dialect = db.deps.dialect ?? duckdbDialect;
    const counting: SqlDialect = {
      name: dialect.name,
      compile(...args) {
        compiles++;
        return dialect.compile(...args);
      },
    };
    clock = BigInt(Date.parse('2024-05-01T00:00:00Z')) * 1_000_000n;
    deps = { ...db.deps, dialect: counting, now: () => clock };
  });
  afterAll(() => db?.close());

  it('compiles a repeated query once and answers it the same', async () => {
    const apl = "['memo'] | where n >= 2 | summarize total = sum(n)";
    expect(await compilesOf(() => rows(apl))).toBe(1);
    expect(await compilesOf(() => rows(apl))).toBe(0);
    expect(await rows(apl)).toEqual([{ total: 2 + 3 + 4 + 5 + 6 + 7 }]);
  });

  it('compiles again for another window, limit or cursor, and answers for it', async () => {
    const apl = "['memo'] | summarize c = count()";
    await rows(apl);
    expect(await compilesOf(() => rows(apl, { endTime: '2024-04-01T03:00:00Z' }))).toBe(1);
    expect(await rows(apl, { endTime: '2024-04-01T03:00:00Z' })).toEqual([{ c: 4 }]);
    expect(await rows(apl)).toEqual([{ c: 8 }]);

    const page = "['memo'] | sort by _time desc | project n";
    expect((await rows(page, { limit: 3 })).map((row) => row.n)).toEqual([7, 6, 5]);
    expect(await compilesOf(() => rows(page, { limit: 2 }))).toBe(1);
    const first = await executeApl({ apl: page, startTime: '2024-04-01T00:00:00Z', endTime: '2024-04-02T00:00:00Z', limit: 2 }, deps);
    const next = await executeApl({ apl: page, startTime: '2024-04-01T00:00:00Z', endTime: '2024-04-02T00:00:00Z', limit: 2, cursor: first.status.minCursor! }, deps);
    expect(tableRows(next).map((row) => row.n)).toEqual([5, 4]);
  });

  it('follows a changed field list and changed virtual fields', async () => {
    const apl = "['memo'] | sort by n asc | take 1";
    db.datasets.set('memo', { ...full, fields: full.fields.filter((field) => field.name !== 'label') });
    expect(Object.keys((await rows(apl))[0]!)).not.toContain('label');
    // The registry replaces the field list when a field appears.
    db.datasets.set('memo', { ...full, fields: [...full.fields] });
    expect((await rows(apl))[0]).toMatchObject({ n: 0, label: 'e0' });

    const virtual = "['memo'] | where n == 1 | project v";
    db.datasets.set('memo', { ...full, virtualFields: [{ name: 'v', expression: 'n * 10' }] });
    expect(await rows(virtual)).toEqual([{ v: 10 }]);
    db.datasets.set('memo', { ...full, virtualFields: [{ name: 'v', expression: 'n * 100' }] });
    expect(await rows(virtual)).toEqual([{ v: 100 }]);
    db.datasets.set('memo', full);
  });

  it('never reuses a plan that read the clock', async () => {
    const apl = "['memo'] | take 1 | project t = now()";
    const before = await rows(apl);
    clock += 3_600_000_000_000n;
    expect(await compilesOf(async () => expect(await rows(apl)).not.toEqual(before))).toBe(1);
    expect((await rows(apl))[0]!.t).toBe('2024-05-01T01:00:00Z');
  });
});
