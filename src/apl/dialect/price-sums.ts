// Which sums of prices can be priced per price era rather than per row, for both dialects'
// rollups (duckdb/pricing-rollup.ts, clickhouse/pricing-rollup.ts). Within one validity period a
// model's prices are constants, so `sum(tokens × price)` over the rows of a group is
// `price × sum(tokens)` over the rows of each (group, model name, price era). This file decides
// whether an aggregate node is of that form and splits its sums into terms; writing the SQL is
// each dialect's.
//
// Applies to a summarize whose aggregations are all `count()` or `sum(x)` where x is a sum of
// products of a lookup-free factor (tokens) and a factor that depends only on price lookups
// (what genai_cost, genai_input_cost and genai_output_cost build), with the lookups in the
// aggregations only, each pricing at one time column (the row's _time) or at today's prices.
import type { AggregateCall, Rel, TExpr } from '../semantic/plan';

const LOOKUPS = new Set(['genai_price', 'genai_pricing']);
/** More boundaries than this and the per-row era test costs more than it saves. */
const MAX_BOUNDARIES = 64;

export type Call = Extract<TExpr, { kind: 'call' }>;
export interface Term {
  /** Lookup-free factor; null: 1. */
  token: TExpr | null;
  /** Factor depending only on lookups; null: 1. */
  price: TExpr | null;
  sign: 1 | -1;
}

const isLookup = (e: TExpr): boolean => e.kind === 'call' && LOOKUPS.has(e.fn);
const hasLookup = (e: TExpr): boolean => isLookup(e) || (e.kind === 'call' && e.args.some(hasLookup));
/** True when every column `e` reads is read inside a lookup's arguments. */
const lookupOnly = (e: TExpr): boolean => (e.kind === 'column' ? false : e.kind === 'literal' ? true : isLookup(e) || e.args.every(lookupOnly));
const numeric = (e: TExpr) => e.type === 'real' || e.type === 'int';

function decompose(e: TExpr): Term[] | undefined {
  if (!hasLookup(e)) return [{ token: e, price: null, sign: 1 }];
  if (lookupOnly(e)) return [{ token: null, price: e, sign: 1 }];
  if (e.kind !== 'call' || !numeric(e) || e.args.length !== 2) return undefined;
  const [a, b] = e.args as [TExpr, TExpr];
  if (e.fn === 'add' || e.fn === 'sub') {
    const left = decompose(a);
    const right = decompose(b);
    if (!left || !right) return undefined;
    return [...left, ...(e.fn === 'sub' ? right.map((t) => ({ ...t, sign: (t.sign * -1) as 1 | -1 })) : right)];
  }
  if (e.fn === 'mul') {
    if (!hasLookup(a) && lookupOnly(b)) return [{ token: a, price: b, sign: 1 }];
    if (!hasLookup(b) && lookupOnly(a)) return [{ token: b, price: a, sign: 1 }];
  }
  return undefined;
}

function lookupsIn(e: TExpr, found: Call[]): Call[] {
  if (isLookup(e)) found.push(e as Call);
  else if (e.kind === 'call') e.args.forEach((arg) => lookupsIn(arg, found));
  return found;
}

/** `e` with each lookup call replaced as `calls` says. */
export function substitute(e: TExpr, calls: Map<Call, Call>): TExpr {
  if (e.kind !== 'call') return e;
  const replaced = calls.get(e);
  if (replaced) return replaced;
  return { ...e, args: e.args.map((arg) => substitute(arg, calls)) };
}

export type PricedAggregate = { kind: 'count' } | { kind: 'sum'; terms: Term[]; agg: AggregateCall };

export interface PricedSums {
  /** Per aggregation of the node, in order. */
  plans: PricedAggregate[];
  /** The lookup calls of the aggregations. */
  calls: Call[];
  /** The time column the lookups price at (undefined: all at today's prices). */
  time: TExpr | undefined;
  /** The instants (epoch nanoseconds) between eras. */
  boundaries: readonly bigint[];
}

/** The node's aggregations split into priced terms, or undefined when it is not of the form above. */
export function pricedSums(rel: Extract<Rel, { op: 'aggregate' }>, boundaries: readonly bigint[] | undefined): PricedSums | undefined {
  if (!boundaries || boundaries.length > MAX_BOUNDARIES) return undefined;
  if (!rel.aggregates.some((agg) => agg.args.some(hasLookup))) return undefined;
  if (rel.groups.some(hasLookup)) return undefined;
  const plans: PricedAggregate[] = [];
  for (const agg of rel.aggregates) {
    if (agg.filter) return undefined;
    if (agg.fn === 'count' && agg.args.length === 0) plans.push({ kind: 'count' });
    else if (agg.fn === 'sum' && agg.args.length === 1) {
      const terms = decompose(agg.args[0]!);
      if (!terms) return undefined;
      plans.push({ kind: 'sum', terms, agg });
    } else return undefined;
  }
  const calls = rel.aggregates.flatMap((agg) => lookupsIn(agg.args[0] ?? { kind: 'literal', value: { type: 'null' }, type: 'null' }, []));
  // Every lookup prices at one time column (the row's _time) or at today's prices.
  let time: TExpr | undefined;
  for (const call of calls) {
    const at = call.args[1]!;
    if (at.kind === 'literal') continue;
    if (at.kind !== 'column' || (time && time.kind === 'column' && time.id !== at.id)) return undefined;
    time = at;
  }
  return { plans, calls, time, boundaries };
}

/** The model names a rollup groups by besides the node's groups, and the lookups rewritten to read them. */
export interface RolledNames {
  /** Each lookup call, its name now the column of the summed rows that holds it, its time the era's first. */
  replaced: Map<Call, Call>;
  /** Names that are not a group already: the column to hold each and the SQL that computes it. */
  added: { column: string; sql: string }[];
}

/**
 * Renames the lookups' model names to columns of the summed rows (`__r_g<i>` when the name is
 * group i, `__r_n<k>` otherwise), given the SQL of the groups and a writer of input expressions.
 */
export function rollNames(calls: readonly Call[], groupSql: readonly string[], write: (e: TExpr) => string): RolledNames {
  const names = new Map<string, string>(groupSql.map((sql, i) => [sql, `__r_g${i}`]));
  const replaced = new Map<Call, Call>();
  const added: RolledNames['added'] = [];
  for (const call of calls) {
    const sql = write(call.args[0]!);
    let column = names.get(sql);
    if (column === undefined) {
      column = `__r_n${replaced.size}`;
      names.set(sql, column);
      added.push({ column, sql });
    }
    const at: TExpr = call.args[1]!.kind === 'literal' ? call.args[1]! : { kind: 'column', id: '__r_t', type: 'datetime' };
    replaced.set(call, { ...call, args: [{ kind: 'column', id: column, type: 'string' }, at] });
  }
  return { replaced, added };
}
