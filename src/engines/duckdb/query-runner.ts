// Runs the query engine's SQL on read connections of their own, with a time budget: when the
// budget runs out (or the caller aborts) the running statement is interrupted inside DuckDB.
import { type DuckDBConnection, type DuckDBDataChunk, DuckDBMaterializedResult, type DuckDBResult, type DuckDBValue, JSDuckDBValueConverter } from '@duckdb/node-api';
import { timedOut } from '../../errors';
import { chunkRows } from './chunk-rows';
import { resultTooLarge, rowBytes } from '../result-size';
import { trackResult } from './result-memory';
import { StatementCache } from './statement-cache';

export type QueryParams = DuckDBValue[] | Record<string, DuckDBValue>;

export interface QueryOptions {
  /** Interrupts the statement after this many milliseconds (a `timeout` domain error). */
  timeoutMs?: number;
  /** Interrupts the statement when aborted (the error is the signal's reason). */
  signal?: AbortSignal;
  /**
   * `js` (default): values converted as described on QueryResult. `duckdb`: DuckDB's own value
   * objects (as `reader.getRows()` gives them, read by ./chunk-rows.ts), for callers that decode
   * by column type themselves.
   */
  rowValues?: 'js' | 'duckdb';
  /**
   * Refuses a result whose values take more than this many bytes (strings by length, other
   * values by a fixed estimate), before the rest of it is read into memory.
   */
  maxResultBytes?: number;
  /**
   * Keep the statement prepared on its connection when its text comes again (see
   * StatementCache): for the query engine, whose statements repeat; not for one-off SQL.
   */
  reuseStatement?: boolean;
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

/** Lends a read connection for one task (the store's current read pool). */
export type ReadConnectionLender = <T>(task: (connection: DuckDBConnection) => Promise<T>) => Promise<T>;

export class QueryRunner {
  private readonly statements: StatementCache;

  /** @param preparedStatements statements kept prepared per read connection (0: none). */
  constructor(
    private readonly lend: ReadConnectionLender,
    preparedStatements = 32,
  ) {
    this.statements = new StatementCache(preparedStatements);
  }

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
    // The timer cannot fire while chunks are read synchronously: the deadline is checked there.
    const deadline = options.timeoutMs !== undefined ? performance.now() + options.timeoutMs : Infinity;
    let prepared: Awaited<ReturnType<StatementCache['statementFor']>>;
    try {
      // The statement runs to completion inside DuckDB (interruptible there); its chunks are then
      // read one at a time, so the time budget and the size limit also hold while reading.
      prepared = options.reuseStatement ? await this.statements.statementFor(connection, sql) : undefined;
      let result: DuckDBResult;
      if (prepared) {
        if (params) prepared.bind(params);
        else prepared.clearBindings();
        result = await prepared.run();
      } else {
        result = await connection.run(sql, params);
      }
      // What the result holds is released only when V8 collects it: counted, so that it does.
      trackResult(result, result instanceof DuckDBMaterializedResult ? result.chunkCount : 1);
      // Read from DuckDB only when asked for: the query engine knows its columns already.
      let columns: QueryColumn[] | undefined;
      const columnsOf = () => (columns ??= result.columnNames().map((name, index) => ({ name, type: result.columnType(index).toString() })));
      const rows: unknown[][] = [];
      let bytes = 0;
      for (const chunk of chunksOf(result)) {
        const next = chunk instanceof Promise ? await chunk : chunk;
        if (!next || next.rowCount === 0) break;
        if (stoppedBy) throw new Error('stopped');
        if (performance.now() > deadline) {
          stoppedBy = 'timeout';
          throw new Error('stopped');
        }
        const rowsOfChunk = (options.rowValues === 'duckdb' ? chunkRows(next) : next.convertRows(JSDuckDBValueConverter)) as unknown[][];
        for (const row of rowsOfChunk) {
          if (options.maxResultBytes !== undefined) {
            bytes += rowBytes(row);
            if (bytes > options.maxResultBytes) {
              throw resultTooLarge(options.maxResultBytes);
            }
          }
          rows.push(row);
        }
      }
      return {
        get columns() {
          return columnsOf();
        },
        rows,
      };
    } catch (error) {
      // A kept statement that failed is prepared afresh next time (its tables may have changed).
      if (prepared) this.statements.forget(connection, sql);
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

/**
 * The chunks of a result: those of a materialized result straight from memory (no round trip
 * to DuckDB's threads per chunk), any other one fetched.
 */
function* chunksOf(result: DuckDBResult): Generator<DuckDBDataChunk | null | Promise<DuckDBDataChunk | null>> {
  if (result instanceof DuckDBMaterializedResult) {
    const count = result.chunkCount;
    for (let index = 0; index < count; index++) yield result.getChunk(index);
    return;
  }
  for (;;) yield result.fetchChunk();
}
