// The few functions the DuckDB dialect calls that SQL cannot express, registered on each
// database instance as vectorized scalar functions (one call per chunk of rows, inside the
// engine). What they compute is written once, engine-neutral, in
// src/apl/execution/text-functions.ts (the ClickHouse store evaluates the same code in the server).
import { type DuckDBConnection, DuckDBScalarFunction, VARCHAR } from '@duckdb/node-api';
import { TEXT_FUNCTIONS, type TextFunction } from '../../apl/execution/text-functions';

function register(connection: DuckDBConnection, fn: TextFunction): void {
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: fn.name,
      returnType: VARCHAR,
      parameterTypes: [VARCHAR],
      mainFunction: (_info, input, output) => {
        const values = input.getColumnVector(0);
        for (let row = 0; row < input.rowCount; row++) {
          const value = values.getItem(row);
          let result: string | null = null;
          if (value !== null) {
            try {
              result = fn.apply(String(value));
            } catch {
              result = null;
            }
          }
          output.setItem(row, result);
        }
        output.flush();
      },
    }),
  );
}

/** Registers the text functions (and `extra`) on the instance the connection belongs to. */
export function registerTextFunctions(connection: DuckDBConnection, extra: TextFunction[] = []): void {
  for (const fn of [...TEXT_FUNCTIONS, ...extra]) register(connection, fn);
}
