// Sums of prices without a price lookup per row. Within one validity period a model's prices are
// constants, so `sum(tokens × price)` over the rows of a group is `price × sum(tokens)` over the
// rows of each (group, model name, price era): the rows are first summed per era, the price table
// is joined to those few rows, and the sums are priced and added up. An era is the stretch of time
// between two consecutive instants at which any price period starts or ends (compile options
// `priceBoundaries`), so every row of one era has the prices of the era's first row.
//
// Applies to a summarize whose aggregations are all `count()` or `sum(x)` where x is a sum of
// products of a lookup-free factor (tokens) and a factor that depends only on price lookups
// (what genai_cost, genai_input_cost and genai_output_cost build), with the lookups in the
// aggregations only. Anything else keeps the per-row join (./pricing.ts).
import { quoteIdentifier } from '../../../events/layout';
import type { AggregateCall, Rel, TExpr } from '../../semantic/plan';
import type { ExprWriter } from './expressions';
import { joinPriceLookups } from './pricing';

const LOOKUPS = new Set(['genai_price', 'genai_pricing']);
/** More boundaries than this and the per-row era test costs more than it saves. */
const MAX_BOUNDARIES = 64;

type Call = Extract<TExpr, { kind: 'call' }>;
interface Term {
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

function substitute(e: TExpr, calls: Map<Call, Call>): TExpr {
  if (e.kind !== 'call') return e;
  const replaced = calls.get(e);
  if (replaced) return replaced;
  return { ...e, args: e.args.map((arg) => substitute(arg, calls)) };
}

const ts = (nanos: bigint) => `make_timestamp_ns(CAST(${nanos.toString()} AS BIGINT))`;

/**
 * The SQL of an aggregate node priced per era, or undefined when the node is not of the form
 * above (decided before anything is written).
 */
export function rolledUpPricing(
  writer: ExprWriter,
  rel: Extract<Rel, { op: 'aggregate' }>,
  /** Writes the input's SQL (only once the node is known to qualify: writing adds parameters). */
  inputSql: () => string,
  boundaries: readonly bigint[] | undefined,
  nextLookup: () => number,
): string | undefined {
  if (!boundaries || boundaries.length > MAX_BOUNDARIES) return undefined;
  if (!rel.aggregates.some((agg) => agg.args.some(hasLookup))) return undefined;
  if (rel.groups.some(hasLookup)) return undefined;
  const plans: ({ kind: 'count' } | { kind: 'sum'; terms: Term[]; agg: AggregateCall })[] = [];
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

  const input = inputSql();
  const inner = writer.withColumns((id) => `t.${quoteIdentifier(id)}`);
  const groupSql = rel.groups.map((group) => inner.write(group));
  const keys: string[] = groupSql.map((sql, i) => `${sql} AS "__r_g${i}"`);
  // A name that is also a group (`by model`) is that group's column.
  const names = new Map<string, string>(groupSql.map((sql, i) => [sql, `__r_g${i}`]));
  const replaced = new Map<Call, Call>();
  for (const call of calls) {
    const nameSql = inner.write(call.args[0]!);
    let column = names.get(nameSql);
    if (column === undefined) {
      column = `__r_n${replaced.size}`;
      names.set(nameSql, column);
      keys.push(`${nameSql} AS "${column}"`);
    }
    const at: TExpr = call.args[1]!.kind === 'literal' ? call.args[1]! : { kind: 'column', id: '__r_t', type: 'datetime' };
    replaced.set(call, { ...call, args: [{ kind: 'column', id: column, type: 'string' }, at] });
  }
  const items = [...keys];
  if (time) {
    const timeSql = inner.write(time);
    const era = boundaries.length ? boundaries.map((b) => `CAST(${timeSql} >= ${ts(b)} AS INTEGER)`).join(' + ') : '0';
    keys.push(`${era} AS "__r_era"`);
    items.push(`${era} AS "__r_era"`, `min(${timeSql}) AS "__r_t"`);
  }
  // Written once the price table is joined (the lookups' columns exist only then).
  const outer: (() => string)[] = [];
  plans.forEach((plan, a) => {
    if (plan.kind === 'count') {
      items.push(`count(*) AS "__r_c${a}"`);
      outer.push(() => `CAST(coalesce(sum("__r_c${a}"), 0) AS BIGINT)`);
      return;
    }
    // A row whose tokens are null adds nothing to any term, as it adds nothing to the sum.
    const tokens = plan.terms.flatMap((term) => (term.token ? [inner.write(term.token)] : []));
    const where = tokens.length ? ` FILTER (WHERE ${tokens.map((sql) => `${sql} IS NOT NULL`).join(' AND ')})` : '';
    plan.terms.forEach((term, k) => items.push(`${term.token ? `sum(${inner.write(term.token)})` : 'count(*)'}${where} AS "__r_s${a}_${k}"`));
    outer.push(() => {
      const priced = plan.terms.map((term, k) => {
        const column = `"__r_s${a}_${k}"`;
        const factor = term.price ? `(${writer.write(substitute(term.price, replaced))}) * ${column}` : column;
        return `${term.sign < 0 ? '-' : '+'} ${factor}`;
      });
      const sum = `sum(${priced.join(' ')})`;
      return plan.agg.type === 'int' || plan.agg.type === 'timespan' ? `CAST(${sum} AS BIGINT)` : sum;
    });
  });
  const groupBy = keys.length ? ` GROUP BY ${keys.map((_, i) => i + 1).join(', ')}` : '';
  const rolled = `SELECT ${items.join(', ')} FROM (${input}) AS t${groupBy}`;
  const from = joinPriceLookups(writer, rolled, 't', [...replaced.values()], nextLookup);
  if (!from) throw new Error('a priced sum without a price lookup');
  const id = (columnId: string) => quoteIdentifier(columnId);
  const selected = [...rel.groups.map((_, i) => `"__r_g${i}" AS ${id(rel.columns[i]!.id)}`), ...outer.map((sql, a) => `${sql()} AS ${id(rel.columns[rel.groups.length + a]!.id)}`)];
  const outerGroupBy = rel.groups.length ? ` GROUP BY ${rel.groups.map((_, i) => i + 1).join(', ')}` : '';
  return `SELECT ${selected.join(', ')} FROM ${from}${outerGroupBy}`;
}
