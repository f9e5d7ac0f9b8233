// What the ClickHouse dialect cannot write yet. A query that needs it fails as the caller's
// error (400) naming the function, on EVENT_STORE=clickhouse and chdb alike, instead of failing
// inside the server; the same query runs on the embedded default.
import { invalidInput } from '../../../errors';

/** The client error for a function (scalar or aggregation) the ClickHouse dialect lacks. */
export function unsupportedOnClickHouse(name: string) {
  const shown = name.replace(/^_+/, '');
  return invalidInput(
    `${shown}() is not supported yet with events in ClickHouse (EVENT_STORE=clickhouse or chdb); the embedded store (EVENT_STORE=duckdb) runs it`,
    { function: shown },
  );
}
