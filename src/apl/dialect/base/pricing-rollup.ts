// Sums of prices without a price lookup per row, written once for every engine. Within one
// validity period a model's prices are constants, so `sum(tokens × price)` over the rows of a
// group is `price × sum(tokens)` over the rows of each (group, model name, price era): the rows
// are first summed per era, the price table is joined to those few rows, and the sums are priced
// and added up. An era is the stretch of time between two consecutive instants at which any price
// period starts or ends (compile options `priceBoundaries`), so every row of one era has the
// prices of the era's first row.
//
// Which nodes qualify, and the split of their sums into terms: ../price-sums.ts. Anything else
// keeps the per-row join (../price-lookups.ts).
import type { Rel, TExpr } from '../../semantic/plan';
import { pricedSums, rollNames, substitute } from '../price-sums';

/** The part of an expression writer the rollup uses. */
interface RollupWriter<W extends RollupWriter<W>> {
  withColumns(column: (id: string) => string): W;
  write(expr: TExpr): string;
}

/** An engine's spellings of the rollup. */
export interface RollupSql<W> {
  id(name: string): string;
  /** GROUP BY names the keys by position rather than by alias. */
  groupByPosition: boolean;
  /** The number of boundaries at or before `timeSql` (0 before the first). */
  eraOf(timeSql: string, boundaries: readonly bigint[]): string;
  /** The number of rows of a group. */
  countAll: string;
  /** An integer result as a long. */
  toLong(sql: string): string;
  /** The sum of per-bucket values, null over none. */
  total(sql: string): string;
  /** Per bucket, the sum of `token` (or the row count without one) over the rows where `where` holds. */
  bucketSum(token: string | undefined, where: string | undefined): string;
  /** The FROM item of `inputSql` with the price table joined for the lookups in `exprs` (../price-lookups.ts). */
  joinPrices(writer: W, inputSql: string, alias: string, exprs: readonly TExpr[], nextLookup: () => number): string | undefined;
}

/**
 * The SQL of an aggregate node priced per era, or undefined when the node is not of the form
 * above (decided before anything is written).
 */
export function rolledUpPricingSql<W extends RollupWriter<W>>(
  sql: RollupSql<W>,
  writer: W,
  rel: Extract<Rel, { op: 'aggregate' }>,
  /** Writes the input's SQL (only once the node is known to qualify: writing adds parameters). */
  inputSql: () => string,
  boundaries: readonly bigint[] | undefined,
  nextLookup: () => number,
): string | undefined {
  const priced = pricedSums(rel, boundaries);
  if (!priced) return undefined;
  const { plans, calls, time } = priced;
  const { id } = sql;
  const input = inputSql();
  const inner = writer.withColumns((columnId) => `t.${id(columnId)}`);
  const groupSql = rel.groups.map((group) => inner.write(group));
  const keys: string[] = groupSql.map((_, i) => id(`__r_g${i}`));
  const items: string[] = groupSql.map((group, i) => `${group} AS ${id(`__r_g${i}`)}`);
  // A name that is also a group (`by model`) is that group's column.
  const { replaced, added } = rollNames(calls, groupSql, (e) => inner.write(e));
  for (const { column, sql: name } of added) {
    keys.push(id(column));
    items.push(`${name} AS ${id(column)}`);
  }
  if (time) {
    const timeSql = inner.write(time);
    keys.push(id('__r_era'));
    items.push(`${sql.eraOf(timeSql, priced.boundaries)} AS ${id('__r_era')}`, `min(${timeSql}) AS ${id('__r_t')}`);
  }
  // Written once the price table is joined (the lookups' columns exist only then).
  const outer: (() => string)[] = [];
  plans.forEach((plan, a) => {
    if (plan.kind === 'count') {
      items.push(`${sql.countAll} AS ${id(`__r_c${a}`)}`);
      outer.push(() => sql.toLong(`coalesce(sum(${id(`__r_c${a}`)}), 0)`));
      return;
    }
    // A row whose tokens are null adds nothing to any term, as it adds nothing to the sum; a
    // bucket without such rows sums to null, as the sum over its rows would.
    const tokens = plan.terms.flatMap((term) => (term.token ? [inner.write(term.token)] : []));
    const where = tokens.length ? tokens.map((token) => `${token} IS NOT NULL`).join(' AND ') : undefined;
    plan.terms.forEach((term, k) => items.push(`${sql.bucketSum(term.token ? inner.write(term.token) : undefined, where)} AS ${id(`__r_s${a}_${k}`)}`));
    outer.push(() => {
      const terms = plan.terms.map((term, k) => {
        const column = id(`__r_s${a}_${k}`);
        const factor = term.price ? `(${writer.write(substitute(term.price, replaced))}) * ${column}` : column;
        return k === 0 ? `${term.sign < 0 ? '-' : ''}${factor}` : ` ${term.sign < 0 ? '-' : '+'} ${factor}`;
      });
      const total = sql.total(terms.join(''));
      return plan.agg.type === 'int' || plan.agg.type === 'timespan' ? sql.toLong(total) : total;
    });
  });
  const byPosition = (count: number) => Array.from({ length: count }, (_, i) => String(i + 1));
  const groupBy = keys.length ? ` GROUP BY ${(sql.groupByPosition ? byPosition(keys.length) : keys).join(', ')}` : '';
  const rolled = `SELECT ${items.join(', ')} FROM (${input}) AS t${groupBy}`;
  const from = sql.joinPrices(writer, rolled, 't', [...replaced.values()], nextLookup);
  if (!from) throw new Error('a priced sum without a price lookup');
  const selected = [...rel.groups.map((_, i) => `${id(`__r_g${i}`)} AS ${id(rel.columns[i]!.id)}`), ...outer.map((total, a) => `${total()} AS ${id(rel.columns[rel.groups.length + a]!.id)}`)];
  const outerKeys = sql.groupByPosition ? byPosition(rel.groups.length) : rel.groups.map((_, i) => id(`__r_g${i}`));
  const outerGroupBy = rel.groups.length ? ` GROUP BY ${outerKeys.join(', ')}` : '';
  return `SELECT ${selected.join(', ')} FROM ${from}${outerGroupBy}`;
}
