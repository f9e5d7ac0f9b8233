// The legacy query request of v1 `queryDataset` (filter tree, aggregations, groupBy,
// resolution, order, limit, project, cursor) translated into the same syntax tree APL produces,
// so both go through one analyzer, one compiler and one executor; its virtual fields join the
// dataset's own, bound by the analyzer as they are.
import { invalidInput } from '../errors';
import { type EngineDeps, executeQuery } from './execution/execute';
import type { QueryResult } from './execution/result';
import type { Assignment, Expr, LiteralValue, Operator, Query, SortKey } from './syntax/ast';
import { START } from './syntax/position';
import { balancedChain, parseExpression } from './syntax/parser';
import { parseDuration } from './time';
import { type Entry, type Timeseries, toMatches, toTimeseries } from './wire';

export interface LegacyFilter {
  op: string;
  field?: string;
  value?: unknown;
  caseSensitive?: boolean;
  children?: LegacyFilter[];
}

export interface LegacyAggregation {
  op: string;
  field?: string;
  alias?: string;
  argument?: unknown;
}

export interface LegacyQueryRequest {
  startTime?: string;
  endTime?: string;
  resolution?: string;
  filter?: LegacyFilter;
  aggregations?: LegacyAggregation[];
  groupBy?: string[];
  order?: { field: string; desc: boolean }[];
  limit?: number;
  project?: { field: string; alias?: string }[];
  virtualFields?: { alias: string; expr: string }[];
  cursor?: string;
  includeCursor?: boolean;
}

export interface LegacyQueryResponse {
  format: 'legacy';
  status: QueryResult['status'];
  matches: Entry[];
  buckets: Timeseries;
  fieldsMeta: QueryResult['fieldsMeta'][string];
}

const pos = START;
const name = (field: string): Expr => ({ kind: 'name', pos, name: field, bracketed: true });
const call = (fn: string, ...args: Expr[]): Expr => ({ kind: 'call', pos, name: fn, args: args.map((value) => ({ value })) });
const binary = (op: string, left: Expr, right: Expr): Expr => ({ kind: 'binary', pos, op, left, right });

function literalOf(value: unknown): Expr {
  let literal: LiteralValue;
  if (value === null || value === undefined) literal = { type: 'null' };
  else if (typeof value === 'boolean') literal = { type: 'bool', value };
  else if (typeof value === 'number') literal = Number.isInteger(value) ? { type: 'int', value: BigInt(value) } : { type: 'real', value };
  else if (typeof value === 'string') literal = { type: 'string', value };
  else literal = { type: 'dynamic', value };
  return { kind: 'literal', pos, value: literal };
}

const COMPARISONS: Record<string, string> = { eq: '==', '==': '==', ne: '!=', '!=': '!=', gt: '>', '>': '>', gte: '>=', '>=': '>=', lt: '<', '<': '<', lte: '<=', '<=': '<=' };
const STRING_OPS: Record<string, string> = { 'starts-with': 'startswith', 'ends-with': 'endswith', contains: 'contains' };

/** A legacy filter tree as an APL predicate. */
export function filterToExpr(filter: LegacyFilter): Expr {
  const op = filter.op;
  const children = filter.children ?? [];
  if (op === 'and' || op === 'or') {
    if (children.length === 0) return literalOf(op === 'and');
    return balancedChain(op, children.map(filterToExpr), children.slice(1).map(() => pos));
  }
  if (op === 'not') {
    if (children.length !== 1) throw invalidInput('a "not" filter needs exactly one child');
    return call('not', filterToExpr(children[0]!));
  }
  if (!filter.field) throw invalidInput(`the "${op}" filter needs a field`);
  const field = name(filter.field);
  if (op === 'exists') return call('isnotnull', field);
  if (op === 'not-exists') return call('isnull', field);
  const value = literalOf(filter.value);
  const comparison = COMPARISONS[op];
  if (comparison) {
    if ((comparison === '==' || comparison === '!=') && filter.caseSensitive === false && typeof filter.value === 'string') {
      return binary(comparison === '==' ? '=~' : '!~', field, value);
    }
    return binary(comparison, field, value);
  }
  const negated = op.startsWith('not-');
  const base = negated ? op.slice(4) : op;
  const stringOp = STRING_OPS[base];
  if (stringOp) return binary(`${negated ? '!' : ''}${stringOp}${filter.caseSensitive ? '_cs' : ''}`, field, value);
  if (base === 'regexp') return binary(negated ? '!matches regex' : 'matches regex', field, value);
  throw invalidInput(`unknown filter op "${op}"`, { op });
}

function aggregationToExpr(aggregation: LegacyAggregation): Expr {
  const field = aggregation.field && aggregation.field !== '*' ? name(aggregation.field) : undefined;
  const needField = () => {
    if (!field) throw invalidInput(`the "${aggregation.op}" aggregation needs a field`);
    return field;
  };
  const argument = aggregation.argument;
  switch (aggregation.op) {
    case 'count':
      return call('count');
    case 'distinct':
      return call('dcount', needField());
    case 'sum':
    case 'avg':
    case 'min':
    case 'max':
    case 'stdev':
    case 'variance':
    case 'rate':
      return call(aggregation.op, needField());
    case 'topk':
      return call('topk', needField(), literalOf(typeof argument === 'number' ? argument : 10));
    case 'percentiles':
      return call('percentiles_array', needField(), literalOf(Array.isArray(argument) ? argument : [50, 90, 95, 99]));
    case 'histogram':
      return call('histogram', needField(), literalOf(typeof argument === 'number' ? argument : 10));
    case 'argmin':
    case 'argmax':
      return call(aggregation.op === 'argmin' ? 'arg_min' : 'arg_max', needField(), typeof argument === 'string' ? name(argument) : { kind: 'star', pos });
    case 'makeset':
      return call('make_set', needField());
    case 'makelist':
      return call('make_list', needField());
    case 'countif':
    case 'distinctif':
    case 'makesetif': {
      if (typeof argument !== 'object' || argument === null) throw invalidInput(`the "${aggregation.op}" aggregation needs a filter as its argument`);
      const condition = filterToExpr(argument as LegacyFilter);
      if (aggregation.op === 'countif') return call('countif', condition);
      return call(aggregation.op === 'distinctif' ? 'dcountif' : 'make_set_if', needField(), condition);
    }
    default:
      throw invalidInput(`unknown aggregation op "${aggregation.op}"`, { op: aggregation.op });
  }
}

/** "auto", a number of seconds or a duration such as "1m". */
function resolutionBin(resolution: string | undefined): Expr {
  const text = (resolution ?? '').trim();
  if (text === '' || text === 'auto') return call('bin_auto', name('_time'));
  const seconds = /^\d+(\.\d+)?$/.test(text) ? parseDuration(`${text}s`) : parseDuration(text);
  if (seconds === undefined || seconds <= 0n) throw invalidInput(`resolution must be "auto", seconds or a duration such as 1m, got "${text}"`);
  return call('bin', name('_time'), { kind: 'literal', pos, value: { type: 'timespan', nanos: seconds } });
}

/** The APL equivalent of a legacy request; `withBins` adds the resolution's time bin. */
export function legacyToQuery(dataset: string, request: LegacyQueryRequest, withBins: boolean): Query {
  const operators: Operator[] = [];
  if (request.filter) operators.push({ kind: 'where', pos, predicate: filterToExpr(request.filter) });
  const aggregations = request.aggregations ?? [];
  if (aggregations.length > 0) {
    const aggregates: Assignment[] = aggregations.map((aggregation) => ({ pos, name: aggregation.alias || aggregation.op, expr: aggregationToExpr(aggregation) }));
    const by: Assignment[] = (request.groupBy ?? []).map((field) => ({ pos, expr: name(field) }));
    if (withBins) by.unshift({ pos, name: '_time', expr: resolutionBin(request.resolution) });
    operators.push({ kind: 'summarize', pos, aggregates, by });
    // Totals follow the requested order (of aggregation aliases or group fields).
    if (!withBins && request.order?.length) {
      operators.push({ kind: 'sort', pos, keys: request.order.map((order) => ({ pos, expr: name(order.field), desc: order.desc })) });
    }
  } else if (request.order?.length) {
    const keys: SortKey[] = request.order.map((order) => ({ pos, expr: name(order.field), desc: order.desc }));
    operators.push({ kind: 'sort', pos, keys });
  }
  if (aggregations.length === 0 && request.project?.length) {
    operators.push({ kind: 'project', pos, items: request.project.map((p) => ({ pos, ...(p.alias ? { name: p.alias } : {}), expr: name(p.field) })) });
  }
  return { lets: [], body: { pos, source: { kind: 'named', pos, name: dataset, bracketed: true }, operators } };
}

/**
 * The request's virtual fields, added to the dataset's own: they are bound and evaluated as the
 * dataset's virtual fields are, after them, and fail the request when they cannot be evaluated.
 */
function withRequestVirtualFields(dataset: string, request: LegacyQueryRequest, deps: EngineDeps): EngineDeps {
  const fields = (request.virtualFields ?? []).map((field, index) => {
    if (typeof field?.alias !== 'string' || field.alias === '' || typeof field.expr !== 'string') {
      throw invalidInput(`virtualFields[${index}] needs an "alias" and an "expr"`);
    }
    parseExpression(field.expr, deps.limits); // a syntax error is the request's, with its position
    return { name: field.alias, expression: field.expr, strict: true };
  });
  if (fields.length === 0) return deps;
  return {
    ...deps,
    resolveDatasets: async (names) =>
      (await deps.resolveDatasets(names)).map((schema) =>
        schema.name === dataset ? { ...schema, virtualFields: [...(schema.virtualFields ?? []), ...fields] } : schema,
      ),
  };
}

/** Runs a legacy query: events as matches, or aggregations as series (per resolution) and totals. */
export async function executeLegacyQuery(dataset: string, request: LegacyQueryRequest, given: EngineDeps, signal?: AbortSignal): Promise<LegacyQueryResponse> {
  const deps = withRequestVirtualFields(dataset, request, given);
  const options = {
    ...(request.startTime ? { startTime: request.startTime } : {}),
    ...(request.endTime ? { endTime: request.endTime } : {}),
    ...(request.cursor ? { cursor: request.cursor } : {}),
    ...(request.includeCursor !== undefined ? { includeCursor: request.includeCursor } : {}),
    ...(request.limit !== undefined ? { limit: request.limit } : {}),
    ...(signal ? { signal } : {}),
  };
  if ((request.aggregations ?? []).length === 0) {
    const result = await executeQuery(legacyToQuery(dataset, request, false), options, deps);
    return { format: 'legacy', status: result.status, matches: toMatches(result), buckets: { series: [], totals: [] }, fieldsMeta: result.fieldsMeta[dataset] ?? [] };
  }
  // The request's limit counts groups: it applies to the totals, not to groups times buckets.
  const { limit: _groups, ...seriesOptions } = options;
  // Both translations first: a request refused by one must not leave the other running unwatched.
  const seriesQuery = legacyToQuery(dataset, request, true);
  const totalsQuery = legacyToQuery(dataset, request, false);
  const [series, totals] = await Promise.all([executeQuery(seriesQuery, seriesOptions, deps), executeQuery(totalsQuery, options, deps)]);
  return {
    format: 'legacy',
    status: { ...totals.status, elapsedTime: Math.max(series.status.elapsedTime, totals.status.elapsedTime) },
    matches: [],
    buckets: toTimeseries(series, totals),
    fieldsMeta: totals.fieldsMeta[dataset] ?? [],
  };
}
