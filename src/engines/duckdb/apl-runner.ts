// A QueryRunner over a DuckDB instance. Each statement runs on a connection of its own (taken
// from a small pool of idle ones), so a statement past its budget can be interrupted without
// touching other work.
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { timedOut } from '../../errors';
import type { QueryRunner, RowValue } from '../../apl/execution/runner';
import { registerGenAiFunctions } from './genai-udfs';
import { ensurePriceTable } from './price-table';
import { registerTextFunctions } from './udfs';

/**
 * Registers the functions the DuckDB dialect uses that DuckDB lacks (./udfs.ts, ./genai-udfs.ts). Call it
 * once per database instance, on any connection, before running APL queries.
 */
export function registerAplFunctions(connection: DuckDBConnection): void {
  registerTextFunctions(connection);
  registerGenAiFunctions(connection);
}

const MAX_IDLE_CONNECTIONS = 4;
const registered = new WeakMap<DuckDBInstance, Promise<void>>();

export function createDuckDBRunner(instance: DuckDBInstance): QueryRunner {
  const idle: DuckDBConnection[] = [];

  const acquire = async () => {
    const connection = idle.pop() ?? (await instance.connect());
    let ready = registered.get(instance);
    if (!ready) {
      registerAplFunctions(connection);
      // Pricing queries bind to the price table; without prices they price nothing (null).
      ready = ensurePriceTable(connection);
      registered.set(instance, ready);
    }
    await ready;
    return connection;
  };
  const release = (connection: DuckDBConnection) => {
    if (idle.length < MAX_IDLE_CONNECTIONS) idle.push(connection);
    else connection.closeSync();
  };

  return {
    async run(statement, { timeoutMs, signal }) {
      const connection = await acquire();
      let expired = false;
      const interrupt = () => connection.interrupt();
      const timer = setTimeout(() => {
        expired = true;
        interrupt();
      }, timeoutMs);
      signal?.addEventListener('abort', interrupt, { once: true });
      try {
        // Without parameters the statement runs directly instead of prepare, bind, execute.
        const reader = statement.params.length
          ? await connection.runAndReadAll(statement.sql, statement.params as never)
          : await connection.runAndReadAll(statement.sql);
        return { rows: reader.getRows() as RowValue[][] };
      } catch (error) {
        if (expired) throw timedOut(`the query ran longer than its time budget of ${timeoutMs} ms and was cancelled`);
        if (signal?.aborted) throw timedOut('the query was cancelled because its caller went away');
        throw error;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', interrupt);
        release(connection);
      }
    },
  };
}
