// The GenAI message functions and the token estimate as vectorized DuckDB functions (one call per
// chunk of rows, inside the engine): `apl_genai_messages(op, messages, arg)` answers the message
// function `op` (see src/apl/execution/genai-messages.ts) as text, `apl_genai_tokens(text)` counts tokens.
import { BIGINT, type DuckDBConnection, DuckDBScalarFunction, VARCHAR } from '@duckdb/node-api';
import { estimateTokens, messageFunctionText } from '../../apl/execution/genai-messages';

export function registerGenAiFunctions(connection: DuckDBConnection): void {
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: 'apl_genai_messages',
      returnType: VARCHAR,
      parameterTypes: [VARCHAR, VARCHAR, VARCHAR],
      mainFunction: (_info, input, output) => {
        const ops = input.getColumnVector(0);
        const messages = input.getColumnVector(1);
        const args = input.getColumnVector(2);
        for (let row = 0; row < input.rowCount; row++) {
          let result: string | null = null;
          try {
            result = messageFunctionText(String(ops.getItem(row)), String(messages.getItem(row) ?? '[]'), String(args.getItem(row) ?? ''));
          } catch {
            result = null;
          }
          output.setItem(row, result);
        }
        output.flush();
      },
    }),
  );
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: 'apl_genai_tokens',
      returnType: BIGINT,
      parameterTypes: [VARCHAR],
      mainFunction: (_info, input, output) => {
        const texts = input.getColumnVector(0);
        for (let row = 0; row < input.rowCount; row++) {
          const text = texts.getItem(row);
          output.setItem(row, text === null ? null : BigInt(estimateTokens(String(text))));
        }
        output.flush();
      },
    }),
  );
}
