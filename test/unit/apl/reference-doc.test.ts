import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/apl';
import { renderAplReference } from '../../../src/apl/reference';
import { AGGREGATE_FUNCTIONS } from '../../../src/apl/semantic/aggregates';
import { SCALAR_FUNCTIONS } from '../../../src/apl/semantic/functions';
import { OPERATOR_CATALOG } from '../../../src/apl/syntax/operators';
import { DomainError } from '../../../src/errors';

describe('docs/reference/apl.md', () => {
  it('matches the reference rendered from the engine (run `npm run docs:apl` after adding operators or functions)', () => {
    const checkedIn = readFileSync(new URL('../../../docs/reference/apl.md', import.meta.url), 'utf8');
    expect(checkedIn).toBe(renderAplReference());
  });

  it('lists every scalar function and aggregation of the engine tables', () => {
    const text = renderAplReference();
    for (const name of [...Object.keys(SCALAR_FUNCTIONS), ...Object.keys(AGGREGATE_FUNCTIONS)]) expect(text).toContain(`\`${name}\``);
  });

  it('lists only tabular operators the parser accepts after a pipe', () => {
    for (const entry of OPERATOR_CATALOG.filter((e) => e.category === 'tabular')) {
      for (const name of [entry.name, ...(entry.aliases ?? [])]) {
        try {
          parseQuery(`['t'] | ${name}`);
        } catch (error) {
          // Incomplete, but not an unknown operator.
          expect(error).toBeInstanceOf(DomainError);
          expect((error as Error).message, name).not.toMatch(/expected a tabular operator/);
        }
      }
    }
  });
});

describe('internal calls of tabular operators', () => {
  it('each has a DuckDB rule, and the DuckDB dialect has no rule beyond them', async () => {
    const { INTERNAL_CALLS } = await import('../../../src/apl/semantic/operators/internal-calls');
    const { OPERATOR_CALLS } = await import('../../../src/apl/dialect/duckdb/operator-calls');
    expect(Object.keys(OPERATOR_CALLS).sort()).toEqual(Object.keys(INTERNAL_CALLS).sort());
  });
});
