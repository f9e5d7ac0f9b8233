// What every dialect shares of summarize's aggregations: the rule table's shape and the row
// conditions an aggregate takes (the call's own filter, from the `*if` forms, and any the rule
// adds). How a condition is spelled (a FILTER clause, an `-If` combinator) is the engine's.
import type { AggregateCall, TExpr } from '../../semantic/plan';

/**
 * The conditions of one aggregation call, each parenthesized: the call's row filter (written
 * once, now) and `extra` when given.
 */
export function aggregateConditions(w: { write(expr: TExpr): string }, agg: AggregateCall): (extra?: string) => string[] {
  const filter = agg.filter ? w.write(agg.filter) : undefined;
  return (extra) => [filter, extra].filter((c): c is string => c !== undefined).map((c) => `(${c})`);
}
