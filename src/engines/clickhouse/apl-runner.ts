// A QueryRunner over a ClickHouse executor (a server or chdb). The time budget is given to
// ClickHouse itself (`max_execution_time`), which stops the statement inside the engine, and
// checked again when the answer arrives;
// values come back as the engine's other runners give them (64-bit integers as bigint).
import { type ClickHouseExecutor, ClickHouseError, CLICKHOUSE_ERROR, type ClickHouseSettings, decodeRows } from './executor';
import { clickhouseMessage } from './failures';
import { resultTooLarge, rowBytes } from '../result-size';
import { invalidInput, timedOut } from '../../errors';
import { PRICE_TABLE } from '../../apl/dialect/clickhouse/pricing';
import { type CompiledSql, JSON_TOO_DEEP, STRING_TOO_LONG } from '../../apl/dialect/dialect';
import { ensureClickHousePriceTable } from './price-table';
import type { QueryRunner, RowValue, RunOptions } from '../../apl/execution/runner';
import { answerColumns, completeStatement } from '../../apl/execution/server-functions';

/**
 * ClickHouse errors caused by the data meeting the query (a value or text that does not parse, a
 * pattern that does not compile, an argument out of range, arrays of different lengths zipped,
 * values with no common type in one column): the caller's, as a 400. A failure of the engine
 * itself is a 503 (./failures.ts); any other error means the dialect
 * wrote a wrong statement, and stays a server error.
 */
const CALLER_ERRORS = new Set([6, 25, 26, 27, 32, 36, 38, 41, 43, 53, 69, 70, 72, 117, 128, 131, 153, 190, 321, 386, 395, 407, 427]);

/** ClickHouse's own limit on a statement's text (`max_query_size`), raised for statements past it. */
const DEFAULT_MAX_QUERY_SIZE = 262_144;
/** Room left in `max_query_size` for what follows a statement (a SETTINGS clause). */
const SETTINGS_ROOM = 65_536;

/** `settings`: what every statement of this runner needs besides its time budget. */
export function createClickHouseRunner(executor: ClickHouseExecutor, settings: ClickHouseSettings = {}): QueryRunner {
  return {
    async run(statement, options) {
      if (!statement.pending) return runStatement(statement, options, statement.serverColumns);
      // Functions the server answers (./server-functions.ts): their lookups run first, within
      // the same time budget, then the statement with the answers written in.
      const started = performance.now();
      const left = () => Math.max(1, options.timeoutMs - (performance.now() - started));
      const complete = await completeStatement(
        statement,
        async (lookup) => (await runStatement(lookup, { ...options, timeoutMs: left() })).rows,
        resultTooLarge,
        options.maxResultBytes,
      );
      return runStatement(complete, { ...options, timeoutMs: left() }, statement.serverColumns, true);
    },
  };

  /**
   * `serverColumns`: result columns the server answers from the rows (see CompiledSql);
   * `answered`: the statement holds answers of server functions, so may be longer than ClickHouse
   * reads by default.
   */
  async function runStatement(
    statement: CompiledSql,
    { timeoutMs, signal, maxResultBytes }: RunOptions,
    serverColumns?: CompiledSql['serverColumns'],
    answered = false,
  ): Promise<{ rows: RowValue[][] }> {
    if (statement.params.length) throw new Error('the ClickHouse dialect writes values into the statement, never as parameters');
    const started = performance.now();
    const size = answered ? Buffer.byteLength(statement.sql) : 0;
    const send = () =>
      executor.query(statement.sql, {
        settings: {
          ...settings,
          max_execution_time: Math.max(0.001, timeoutMs / 1000),
          timeout_overflow_mode: 'throw',
          // Answers of server functions can make a statement long (their size is bounded by the
          // result budget); the limit counts the settings written after the statement too.
          ...(size >= DEFAULT_MAX_QUERY_SIZE - SETTINGS_ROOM ? { max_query_size: size + SETTINGS_ROOM } : {}),
        },
        ...(signal ? { signal } : {}),
      });
    try {
      // Pricing queries join the price table; where it is missing (a database the server has
      // not set up yet), it is created empty and the query priced with nothing (null), as on DuckDB.
      const result = await send().catch(async (error: unknown) => {
        if (!(error instanceof ClickHouseError && error.code === CLICKHOUSE_ERROR.UNKNOWN_TABLE && error.message.includes(PRICE_TABLE))) throw error;
        await ensureClickHousePriceTable(executor);
        return send();
      });
      // ClickHouse checks max_execution_time between blocks, so a statement can finish past
      // it; past the budget is a timeout, as on DuckDB when the interrupt lands late.
      if (performance.now() - started > timeoutMs) throw timedOut(`the query ran longer than its time budget of ${timeoutMs} ms and was cancelled`);
      const rows = decodeRows(result, 'nanos') as RowValue[][];
      if (serverColumns) answerColumns(rows, serverColumns);
      if (maxResultBytes !== undefined) {
        let bytes = 0;
        for (const row of rows) if ((bytes += rowBytes(row)) > maxResultBytes) throw resultTooLarge(maxResultBytes);
      }
      return { rows };
    } catch (error) {
      if (signal?.aborted) throw timedOut('the query was cancelled because its caller went away');
      if (error instanceof ClickHouseError) {
        if (error.code === CLICKHOUSE_ERROR.TIMEOUT_EXCEEDED || error.code === CLICKHOUSE_ERROR.QUERY_WAS_CANCELLED) {
          throw timedOut(`the query ran longer than its time budget of ${timeoutMs} ms and was cancelled`);
        }
        // Only a throwIf of our own says so: other errors quote the statement, guards included.
        const tooLong = error.code === CLICKHOUSE_ERROR.THROW_IF ? new RegExp(`${STRING_TOO_LONG} \\d+ bytes \\(APL_MAX_STRING_BYTES\\)`).exec(error.message) : null;
        if (tooLong) throw invalidInput(`the query could not run: ${tooLong[0]}`);
        const tooDeep = error.code === CLICKHOUSE_ERROR.THROW_IF ? new RegExp(`${JSON_TOO_DEEP} \\d+ levels ClickHouse reads`).exec(error.message) : null;
        if (tooDeep) throw invalidInput(`the query could not run: ${tooDeep[0]} (the embedded store, EVENT_STORE=duckdb, reads it)`);
        if (error.code === CLICKHOUSE_ERROR.TOO_DEEP_RECURSION) throw invalidInput('the query nests deeper than the event store can compile: simplify it');
        if (tooLarge(error)) throw invalidInput('the query is larger than the event store can read once written in its SQL: use fewer function calls, or split it');
        if (CALLER_ERRORS.has(error.code)) throw invalidInput(`the query could not run: ${clickhouseMessage(error.message)}`);
      }
      throw error;
    }
  }
}

/** ClickHouse's parser refused the statement for its size (not for its syntax, which is the dialect's to get right). */
function tooLarge(error: ClickHouseError): boolean {
  const { code } = error;
  if (code === CLICKHOUSE_ERROR.SYNTAX_ERROR) return error.message.includes('Max query size exceeded');
  return code === CLICKHOUSE_ERROR.TOO_DEEP_AST || code === CLICKHOUSE_ERROR.TOO_BIG_AST || code === CLICKHOUSE_ERROR.TOO_SLOW_PARSING;
}

