// The import layering of src/ (scripts/lint-deps.ts): no import goes against it beyond the known
// ones the script lists, and each rule catches the arrow it is about.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkDependencies, KNOWN, RULES } from '../../scripts/lint-deps';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

const broken = (from: string, to: string) => RULES.filter((rule) => rule.breaks({ from, to })).map((rule) => rule.name);

describe('import layering', () => {
  it('has no import against the layering beyond the known ones', () => {
    const { violations, stale } = checkDependencies(SRC);
    expect(violations.map((v) => `${v.from} -> ${v.to}: ${v.rule}`)).toEqual([]);
    expect(stale).toEqual([]);
  });

  it('catches each kind of wrong-way import', () => {
    expect(broken('apl/semantic/plan.ts', 'engines/duckdb/layout.ts')).toHaveLength(1);
    expect(broken('apl/syntax/parser.ts', 'datasets/datasets.ts')).toHaveLength(2);
    expect(broken('apl/execution/execute.ts', 'metrics/model.ts')).toHaveLength(1);
    expect(broken('engines/duckdb/query-runner.ts', 'apl/semantic/plan.ts')).toHaveLength(2);
    expect(broken('engines/clickhouse/executor.ts', 'datasets/datasets.ts')).toHaveLength(1);
    expect(broken('datasets/datasets.ts', 'rest/api/datasets.ts')).toHaveLength(1);
    expect(broken('monitors/service.ts', 'services.ts')).toHaveLength(1);
    expect(broken('lib/semaphore.ts', 'datasets/datasets.ts')).toHaveLength(1);
    expect(broken('db/store.ts', 'auth/service.ts')).toHaveLength(1);
    expect(broken('queries/query-service.ts', 'app.ts')).toHaveLength(1);
  });

  it('lets the layering flow downwards', () => {
    expect(broken('rest/api/datasets.ts', 'services.ts')).toEqual([]);
    expect(broken('datasets/datasets.ts', 'engines/duckdb/layout.ts')).toEqual([]);
    expect(broken('apl/semantic/plan.ts', 'fields/schema.ts')).toEqual([]);
    expect(broken('engines/duckdb/layout.ts', 'fields/types.ts')).toEqual([]);
    expect(broken('engines/duckdb/database.ts', 'errors.ts')).toEqual([]);
  });

  it('gives a reason for every known exception', () => {
    for (const reason of Object.values(KNOWN)) expect(reason.length).toBeGreaterThan(10);
  });
});
