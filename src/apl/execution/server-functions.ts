// The functions the server evaluates for an engine whose SQL cannot express them (ClickHouse, see
// ../dialect/clickhouse/server-calls.ts): the very code the DuckDB store registers as functions
// inside its engine (src/engines/duckdb/udfs.ts and genai-udfs.ts), so both stores give the same answers. A pending
// statement is completed here: each lookup's argument texts are read, answered, and handed back
// to the dialect, which writes the statement with the answers in it; result columns the
// dialect left to the server are answered on the rows returned.
import type { CompiledSql } from '../dialect/dialect';
import { estimateTokens } from './genai-messages';
import type { RowValue } from './runner';
import { TEXT_FUNCTIONS } from './text-functions';

type ServerFunction = (text: string) => string | bigint | null;

/** A text function of ./text-functions.ts by its DuckDB name: a value it cannot handle gives null, as there. */
function textFunction(name: string): ServerFunction {
  const fn = TEXT_FUNCTIONS.find((candidate) => candidate.name === name);
  if (!fn) throw new Error(`no text function ${name}`);
  return (text) => {
    try {
      return fn.apply(text);
    } catch {
      return null;
    }
  };
}

/** Canonical call name → the function the server applies to the text of its argument. */
export const SERVER_FUNCTIONS: Readonly<Record<string, ServerFunction>> = {
  json_canonical: textFunction('apl_json_canonical'),
  geo_info: textFunction('apl_geo_info'),
  parse_sql: textFunction('apl_parse_sql'),
  format_sql: textFunction('apl_format_sql'),
  genai_estimate_tokens: (text) => BigInt(estimateTokens(text)),
};

/** Bytes the answers of one statement may take at most when none is given (they are written into it). */
const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * The statement to run once every lookup it waits for is answered. `run` reads a lookup's
 * statement (one column: the distinct argument texts). The answers are written into the
 * statement, so together they may take at most `maxBytes` (the result budget): past it the query
 * fails as too large, as its result would.
 */
export async function completeStatement(
  statement: CompiledSql,
  run: (lookup: CompiledSql) => Promise<RowValue[][]>,
  tooLarge: (maxBytes: number) => Error,
  maxBytes = DEFAULT_MAX_ANSWER_BYTES,
): Promise<CompiledSql> {
  let bytes = 0;
  while (statement.pending) {
    const answers: Map<string, string | bigint | null>[] = [];
    for (const lookup of statement.pending.lookups) {
      const fn = SERVER_FUNCTIONS[lookup.fn];
      if (!fn) throw new Error(`the server has no function for ${lookup.fn}`);
      const answered = new Map<string, string | bigint | null>();
      for (const [value] of await run(lookup.statement)) {
        if (value === null || value === undefined) continue;
        const text = String(value);
        const answer = fn(text);
        bytes += text.length + (typeof answer === 'string' ? answer.length : 8);
        if (bytes > maxBytes) throw tooLarge(maxBytes);
        answered.set(text, answer);
      }
      answers.push(answered);
    }
    statement = statement.pending.complete(answers);
  }
  return statement;
}

/** Puts each server column's answer in place of the argument text the statement returned. */
export function answerColumns(rows: RowValue[][], columns: readonly { position: number; fn: string }[]): void {
  for (const { position, fn: name } of columns) {
    const fn = SERVER_FUNCTIONS[name];
    if (!fn) throw new Error(`the server has no function for ${name}`);
    for (const row of rows) {
      const value = row[position];
      row[position] = value === null || value === undefined ? null : fn(String(value));
    }
  }
}
