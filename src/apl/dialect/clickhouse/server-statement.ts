// The statement of a plan whose calls may need the server (./server-calls.ts): result columns
// only the result reads are answered on the rows returned (./server-columns.ts), the other calls
// before the statement, which looks their answers up (./server-lookups.ts). A plan without such
// calls is written at once.
import type { Rel, RelColumn } from '../../semantic/plan';
import type { CompiledSql, CompileOptions } from '../dialect';
import { planHoldsServerCall } from './server-calls';
import { answeredInResult } from './server-columns';
import { compileWithServerCalls } from './server-lookups';

export function compileAnsweringServerCalls(
  rel: Rel,
  columns: RelColumn[],
  options: CompileOptions,
  compile: (rel: Rel, columns: RelColumn[], options: CompileOptions) => CompiledSql,
): CompiledSql {
  if (!planHoldsServerCall(rel)) return compile(rel, columns, options);
  const { rel: plan, serverColumns } = answeredInResult(rel, columns);
  const statement = compileWithServerCalls(plan, columns, options, compile);
  return serverColumns.length > 0 ? { ...statement, serverColumns } : statement;
}
