// Shared by the conformance tables: compare the engine's rows with rows computed independently,
// in order or as multisets, with floats rounded so sums taken in another order still agree.
import { expect, it } from 'vitest';
import { DomainError } from '../../../src/errors';
import type { TestDatabase } from './fixtures';
import { onClickHouse } from './unsupported-on-clickhouse';

export type Row = Record<string, unknown>;

export interface ConformanceCase {
  apl: string;
  expected: () => Row[];
  /** Compare in order (otherwise as multisets). */
  ordered?: boolean;
  /** Lists inside values are collections whose order is not defined (make_list, make_set). */
  unorderedLists?: boolean;
  request?: { startTime?: string; endTime?: string; limit?: number };
}

export function normalize(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isInteger(value)) return Number(value.toPrecision(12));
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  return value;
}

const canonical = (row: Row) => JSON.stringify(Object.fromEntries(Object.entries(normalize(row) as Row).sort(([a], [b]) => a.localeCompare(b))));

function sortLists(row: Row): Row {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Array.isArray(v) ? [...v].sort() : v]));
}

export async function check(db: TestDatabase, c: ConformanceCase): Promise<void> {
  const prepare = (row: Row) => {
    const normalized = normalize(row) as Row;
    return c.unorderedLists ? sortLists(normalized) : normalized;
  };
  const actual = (await db.rows(c.apl, c.request ?? {})).map(prepare);
  const expected = c.expected().map(prepare);
  if (c.ordered) expect(actual).toEqual(expected);
  else expect(actual.map(canonical).sort()).toEqual(expected.map(canonical).sort());
}

/** One test per case, run against the database `db()` returns when the test runs. */
export function table(db: () => TestDatabase, cases: ConformanceCase[]): void {
  for (const c of cases) it(c.apl, () => onClickHouse(() => check(db(), c), c.apl));
}

/** The client error a query fails with. */
export async function failure(db: TestDatabase, apl: string): Promise<DomainError> {
  try {
    await db.query(apl);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`expected ${apl} to fail`);
}
