// Queries the console derives from the user's query, cut at operator boundaries the shared APL
// parser reports (never by pattern matching on the text): the count of the query's events over
// time for the strip above raw results, and the top values of a field for the facets.
import type { Operator, Query } from '@server/apl/syntax/ast';
import { parseQuery } from '@server/apl/syntax/parser';

/** Operators after which the rows are no longer the query's events. */
const AGGREGATING = new Set<Operator['kind']>(['summarize', 'count', 'distinct', 'top-nested', 'top-hitters', 'make-series', 'sample-distinct', 'getschema']);

/** Operators that keep each event as a row with its `_time`: the strip counts through them. */
const KEEPS_EVENTS = new Set<Operator['kind']>(['where', 'search', 'extend', 'extend-valid', 'parse', 'parse-where', 'parse-kv', 'redact']);

/** Trailing operators that only order or cut the rows: facets look past them. */
const ORDERS_OR_CUTS = new Set<Operator['kind']>(['take', 'sort', 'top', 'sample']);

function parsed(apl: string): Query | undefined {
  try {
    return parseQuery(apl);
  } catch {
    return undefined;
  }
}

/** The query's text before its operator at `index` (without the pipe). */
function textBefore(apl: string, operators: Operator[], index: number): string {
  const operator = operators[index];
  const text = operator ? apl.slice(0, operator.pos.offset) : apl;
  return text.replace(/\s*\|\s*$/, '').trimEnd().replace(/;$/, '');
}

/** True when the query's own rows are aggregates rather than events (or it does not parse). */
export function queryAggregates(apl: string): boolean {
  const query = parsed(apl);
  return !query || query.body.operators.some((operator) => AGGREGATING.has(operator.kind));
}

/**
 * `… | summarize count() by bin_auto(_time)` over the query's source and its leading filters,
 * or undefined when the query aggregates or does not parse.
 */
export function countOverTimeQuery(apl: string): string | undefined {
  const query = parsed(apl);
  if (!query || query.body.operators.some((operator) => AGGREGATING.has(operator.kind))) return undefined;
  const operators = query.body.operators;
  let end = 0;
  while (end < operators.length && KEEPS_EVENTS.has(operators[end]!.kind)) end += 1;
  return `${textBefore(apl, operators, end)}\n| summarize count() by bin_auto(_time)`;
}

/** A field name as APL reads it in any position: `['name']`. */
export function quotedField(name: string): string {
  return `['${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
}

/** The query without its trailing sort/take/top: the rows whose fields the facets count. */
export function facetBaseQuery(apl: string): string {
  const query = parsed(apl);
  if (!query) return apl.trim();
  const operators = query.body.operators;
  let end = operators.length;
  while (end > 0 && ORDERS_OR_CUTS.has(operators[end - 1]!.kind)) end -= 1;
  return textBefore(apl, operators, end);
}

/** The ten most frequent values of `field` over the query's rows, with their counts in `count_`. */
export function topValuesQuery(apl: string, field: string, count = 10): string {
  return `${facetBaseQuery(apl)}\n| summarize count() by ${quotedField(field)}\n| top ${count} by count_`;
}
