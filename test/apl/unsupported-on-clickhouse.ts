// The one list of what the ClickHouse dialect cannot answer as DuckDB does, with why. On the
// chdb test project, a conformance case that needs one of these passes only by failing with a
// 400 (invalid_input) that says so, through `onClickHouse`; a refusal of anything not listed
// fails the case, and test/clickhouse/unsupported.test.ts checks every function entry through
// HTTP, so the lists shrink as the dialect learns.
import { expect } from 'vitest';
import { DomainError } from '../../src/errors';
import { rejectionOf } from './errors';
import { ON_CHDB } from './fixtures';

/** APL functions the ClickHouse dialect refuses, naming them in the 400. */
export const UNSUPPORTED_ON_CLICKHOUSE: Readonly<Record<string, string>> = {
  dynamic_to_json: "keys sorted at every depth need recursion; ClickHouse's JSON type would split dotted keys and drop nulls",
  geo_info_from_ip_address: 'a lookup in the MMDB file, which the DuckDB store runs as a function inside the engine',
  parse_sql: 'a SQL grammar, which the DuckDB store runs as a function inside the engine',
  format_sql: 'a SQL grammar, which the DuckDB store runs as a function inside the engine',
  genai_estimate_tokens: 'a tokenizer the DuckDB store runs as a vectorized function inside the engine',
};

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
