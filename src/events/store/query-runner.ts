// Runs the query engine's SQL on read connections of their own, with a time budget: when the
// budget runs out (or the caller aborts) the running statement is interrupted inside DuckDB.
import { type DuckDBConnection, type DuckDBValue, JSDuckDBValueConverter } from '@duckdb/node-api';
import { limitExceeded, timedOut } from '../../errors';

export type QueryParams = DuckDBValue[] | Record<string, DuckDBValue>;

export interface QueryOptions {
  /** Interrupts the statement after this many milliseconds (a `timeout` domain error). */
  timeoutMs?: number;
  /** Interrupts the statement when aborted (the error is the signal's reason). */
  signal?: AbortSignal;
  /**
   * `js` (default): values converted as described on QueryResult. `duckdb`: DuckDB's own value
   * objects (`reader.getRows()`), for callers that decode by column type themselves.
   */
  rowValues?: 'js' | 'duckdb';
  /**
   * Refuses a result whose values take more than this many bytes (strings by length, other
   * values by a fixed estimate), before the rest of it is read into memory.
   */
  maxResultBytes?: number;
}

/** Bytes a row's values take in memory, roughly: strings by length, anything else 8. */
function rowBytes(row: readonly unknown[]): number {
  let bytes = 0;
  for (const value of row) bytes += typeof value === 'string' ? value.length + 8 : 8;
  return bytes;
}

export interface QueryColumn {
  name: string;
  /** DuckDB's type name, e.g. `VARCHAR`, `BIGINT`, `TIMESTAMP_NS`, `DOUBLE[]`. */
  type: string;
}

export interface QueryResult {
  columns: QueryColumn[];
  /**
   * Rows as DuckDB's JS conversion gives them: BIGINT as bigint, DOUBLE as number, VARCHAR and
   * JSON as string, timestamps as Date, lists as arrays, structs as objects. Columns that need
   * full precision (`_time` keeps nanoseconds) can be selected as `epoch_ns(...)`.
   */
  rows: unknown[][];
}

/** Lends a read connection for one task (the event store's current read pool). */
export type ReadConnectionLender = <T>(task: (connection: DuckDBConnection) => Promise<T>) => Promise<T>;

export class QueryRunner {
  constructor(private readonly lend: ReadConnectionLender) {}

  async run(sql: string, params?: QueryParams, options: QueryOptions = {}): Promise<QueryResult> {
    options.signal?.throwIfAborted();
    return this.lend((connection) => this.runOn(connection, sql, params, options));
  }

  private async runOn(connection: DuckDBConnection, sql: string, params: QueryParams | undefined, options: QueryOptions) {
    let stoppedBy: 'timeout' | 'abort' | undefined;
    const timer =
      options.timeoutMs !== undefined
        ? setTimeout(() => {
            stoppedBy = 'timeout';
            connection.interrupt();
          }, options.timeoutMs)
        : undefined;
    const onAbort = () => {
      stoppedBy ??= 'abort';
      connection.interrupt();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // The statement runs to completion inside DuckDB (interruptible there); its chunks are then
      // read one at a time, so the time budget and the size limit also hold while reading.
      const result = await connection.run(sql, params);
      const columns = result.columnNames().map((name, index) => ({ name, type: result.columnType(index).toString() }));
      const rows: unknown[][] = [];
      let bytes = 0;
      for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        if (stoppedBy) throw new Error('stopped');
        const chunkRows = (options.rowValues === 'duckdb' ? chunk.getRows() : chunk.convertRows(JSDuckDBValueConverter)) as unknown[][];
        for (const row of chunkRows) {
          if (options.maxResultBytes !== undefined) {
            bytes += rowBytes(row);
            if (bytes > options.maxResultBytes) {
              throw limitExceeded(
                `the result is larger than ${options.maxResultBytes} bytes (QUERY_MAX_RESULT_BYTES): add a limit, project fewer fields or aggregate`,
              );
            }
          }
          rows.push(row);
        }
      }
      return { columns, rows };
    } catch (error) {
      if (stoppedBy === 'timeout') throw timedOut(`query ran longer than its time budget of ${options.timeoutMs} ms`);
      if (stoppedBy === 'abort') throw options.signal?.reason ?? error;
      throw error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Lends a read connection, e.g. to register functions the query engine needs. */
  async useConnection<T>(task: (connection: DuckDBConnection) => Promise<T> | T): Promise<T> {
    return this.lend(async (connection) => task(connection));
  }
}
