// The datasets a query names (its sources and joins, parameters read from their values), so
// the caller can resolve them, asynchronously, before analysis. Names it cannot read are left
// for the analyzer to report.
import type { MplQuery, Name, ParamRef, QueryExpr } from './ast';
import { parseParamValue } from './parser';

export function datasetsNamed(query: MplQuery, params: Record<string, string>): Set<string> {
  const names = new Set<string>();
  const add = (ref: Name | ParamRef) => {
    if ('text' in ref) {
      names.add(ref.text);
      return;
    }
    const text = params[`param__${ref.name}`] ?? params[ref.name];
    if (text === undefined) return;
    try {
      const token = parseParamValue(text);
      if (token.kind === 'identifier') names.add(token.text);
    } catch {
      // The analyzer says what is wrong with the value.
    }
  };
  const visit = (expr: QueryExpr) => {
    if (expr.kind === 'compute') {
      visit(expr.left);
      visit(expr.right);
    } else {
      add(expr.source.dataset);
    }
    for (const pipe of expr.pipes) if (pipe.kind === 'join') add(pipe.dataset);
  };
  visit(query.body);
  return names;
}
