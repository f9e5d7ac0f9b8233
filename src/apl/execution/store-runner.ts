// A QueryRunner over anything that runs SQL the way the event store does
// (`EventStore.query(sql, params, { timeoutMs, signal, rowValues: 'duckdb' })`), so the
// endpoints can hand the engine the product's own read connections.
import type { QueryRunner, RowValue } from './runner';

export interface SqlQueryable {
  query(
    sql: string,
    params: (string | number | bigint | boolean | null)[] | undefined,
    options: { timeoutMs?: number; signal?: AbortSignal; rowValues?: 'js' | 'duckdb'; maxResultBytes?: number; reuseStatement?: boolean },
  ): Promise<{ rows: unknown[][] }>;
}

export function runnerOver(store: SqlQueryable): QueryRunner {
  return {
    async run(statement, { timeoutMs, signal, maxResultBytes }) {
      // No parameters: the statement runs directly instead of prepare, bind, execute.
      const params = statement.params.length ? statement.params : undefined;
      const { rows } = await store.query(statement.sql, params, {
        timeoutMs,
        ...(signal ? { signal } : {}),
        ...(maxResultBytes !== undefined ? { maxResultBytes } : {}),
        rowValues: 'duckdb',
        // The engine's statements repeat (refreshing dashboards, polling clients): keep their plans.
        reuseStatement: true,
      });
      return { rows: rows as RowValue[][] };
    },
  };
}
