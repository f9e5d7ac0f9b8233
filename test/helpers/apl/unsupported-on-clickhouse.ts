// The one list of what the ClickHouse dialect cannot answer as DuckDB does, with why. On the
// chdb test project, a conformance case that needs one of these passes only by failing with a
// 400 (invalid_input) that says so, through `onClickHouse`; a refusal of anything not listed
// fails the case. Every function runs on ClickHouse now (test/clickhouse/engine-parity.test.ts
// compares the two stores), so the list of refused functions is empty.
import { expect } from 'vitest';
import { DomainError } from '../../../src/errors';
import { rejectionOf } from './errors';
import { ON_CHDB } from './fixtures';

/** APL functions the ClickHouse dialect refuses, naming them in the 400. */
export const UNSUPPORTED_ON_CLICKHOUSE: Readonly<Record<string, string>> = {};

/** Expressions ClickHouse answers with a 400 where DuckDB answers null in the rows concerned. */
export const REFUSED_ON_CLICKHOUSE: Readonly<Record<string, string>> = {
  "extract(iff(id == 2, '(', 'l+'), 0, text)": 'a pattern computed per row that does not compile fails the statement in ClickHouse',
  "text matches regex iff(id == 2, '(', 'o')": 'a pattern computed per row that does not compile fails the statement in ClickHouse',
};

/**
 * Runs a case. On chdb, a refusal of a listed function stands in for the answer: the error must
 * be a 400 naming it; an expression listed in REFUSED_ON_CLICKHOUSE must fail with a 400. Anywhere
 * else, or for any other error, the case fails.
 */
export async function onClickHouse(run: () => Promise<void>, expression?: string): Promise<void> {
  if (ON_CHDB && expression !== undefined && Object.keys(REFUSED_ON_CLICKHOUSE).some((listed) => expression.includes(listed))) {
    await rejectionOf(run());
    return;
  }
  try {
    await run();
  } catch (error) {
    const name = error instanceof DomainError ? (error.details?.function as string | undefined) : undefined;
    if (!ON_CHDB || name === undefined || !(name in UNSUPPORTED_ON_CLICKHOUSE)) throw error;
    expect((error as DomainError).kind).toBe('invalid_input');
    expect((error as DomainError).message).toContain(`${name}()`);
  }
}
