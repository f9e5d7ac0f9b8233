// An in-memory DuckDB connection for the tests of one file: opened before them, closed after.
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll } from 'vitest';

/** Registers the hooks; the returned function gives the connection inside tests. */
export function inMemoryDuckDB(): () => DuckDBConnection {
  let instance: DuckDBInstance | undefined;
  let connection: DuckDBConnection | undefined;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
  });
  afterAll(() => {
    connection?.closeSync();
    instance?.closeSync();
  });
  return () => {
    if (!connection) throw new Error('the DuckDB connection is open only inside the tests');
    return connection;
  };
}
