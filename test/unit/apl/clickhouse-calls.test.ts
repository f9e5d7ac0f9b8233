// Every internal call tabular operators put in the plan has a ClickHouse rule, as it has a
// DuckDB one (test/unit/apl/reference-doc.test.ts checks that side).
import { describe, expect, it } from 'vitest';
import { OPERATOR_CALLS } from '../../../src/apl/dialect/clickhouse/operator-calls';
import { INTERNAL_CALLS } from '../../../src/apl/semantic/operators/internal-calls';

describe('the ClickHouse dialect', () => {
  it('writes every internal call operators emit', () => {
    expect(Object.keys(OPERATOR_CALLS).sort()).toEqual(Object.keys(INTERNAL_CALLS).sort());
  });
});
