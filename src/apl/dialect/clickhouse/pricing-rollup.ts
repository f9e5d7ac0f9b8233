// Sums of prices without a price lookup per row, as the DuckDB dialect's rollup
// (../duckdb/pricing-rollup.ts) writes them: the rows are first summed per (group, model name,
// price era), the price table is joined to those few rows (./pricing.ts), and the sums are priced
// and added up. An era is the stretch of time between two consecutive instants at which any price
// period starts or ends (compile options `priceBoundaries`), so every row of one era has the
// prices of the era's first row. Which nodes qualify: ../price-sums.ts; anything else keeps the
// per-row join.
import { quoteIdentifier } from '../../../events/clickhouse/layout';
import type { Rel } from '../../semantic/plan';
import { pricedSums, rollNames, substitute } from '../price-sums';
import type { ExprWriter } from './expressions';
import { joinPriceLookups } from './pricing';

const id = (columnId: string) => quoteIdentifier(columnId);

/**
 * The SQL of an aggregate node priced per era, or undefined when the node is not of the form
 * above (decided before anything is written).
 */
export function rolledUpPricing(
  writer: ExprWriter,
  rel: Extract<Rel, { op: 'aggregate' }>,
  /** Writes the input's SQL (only once the node is known to qualify). */
  inputSql: () => string,
  boundaries: readonly bigint[] | undefined,
  nextLookup: () => number,
): string | undefined {
  const priced = pricedSums(rel, boundaries);
  if (!priced) return undefined;
  const { plans, calls, time } = priced;

  const input = inputSql();
  const inner = writer.withColumns((columnId) => `t.${id(columnId)}`);
  const groupSql = rel.groups.map((group) => inner.write(group));
  const keys: string[] = groupSql.map((_, i) => id(`__r_g${i}`));
  const items: string[] = groupSql.map((sql, i) => `${sql} AS ${id(`__r_g${i}`)}`);
  // A name that is also a group (`by model`) is that group's column.
  const { replaced, added } = rollNames(calls, groupSql, (e) => inner.write(e));
  for (const { column, sql } of added) {
    keys.push(id(column));
    items.push(`${sql} AS ${id(column)}`);
  }
  if (time) {
    // Datetimes are Int64 nanoseconds here, as the boundaries are.
    const timeSql = inner.write(time);
    const era = priced.boundaries.length ? priced.boundaries.map((b) => `toUInt32(${timeSql} >= ${b.toString()})`).join(' + ') : 'toUInt32(0)';
    keys.push(id('__r_era'));
    items.push(`${era} AS ${id('__r_era')}`, `min(${timeSql}) AS ${id('__r_t')}`);
  }
  // Written once the price table is joined (the lookups' columns exist only then).
  const outer: (() => string)[] = [];
  plans.forEach((plan, a) => {
    if (plan.kind === 'count') {
      items.push(`count() AS ${id(`__r_c${a}`)}`);
      outer.push(() => `toInt64(coalesce(sum(${id(`__r_c${a}`)}), 0))`);
      return;
    }
    // A row whose tokens are null adds nothing to any term, as it adds nothing to the sum; a
    // bucket without such rows sums to null, as the sum over its rows would.
    const tokens = plan.terms.flatMap((term) => (term.token ? [inner.write(term.token)] : []));
    const where = tokens.length ? tokens.map((sql) => `${sql} IS NOT NULL`).join(' AND ') : undefined;
    plan.terms.forEach((term, k) => {
      const column = id(`__r_s${a}_${k}`);
      if (term.token) items.push(`${where ? `sumIfOrNull(${inner.write(term.token)}, ${where})` : `sumOrNull(${inner.write(term.token)})`} AS ${column}`);
      else items.push(`${where ? `countIf(${where})` : 'count()'} AS ${column}`);
    });
    outer.push(() => {
      const priced = plan.terms.map((term, k) => {
        const column = id(`__r_s${a}_${k}`);
        const factor = term.price ? `(${writer.write(substitute(term.price, replaced))}) * ${column}` : column;
        return k === 0 ? `${term.sign < 0 ? '-' : ''}${factor}` : ` ${term.sign < 0 ? '-' : '+'} ${factor}`;
      });
      const sum = `sumOrNull(${priced.join('')})`;
      return plan.agg.type === 'int' || plan.agg.type === 'timespan' ? `toInt64(${sum})` : sum;
    });
  });
  const groupBy = keys.length ? ` GROUP BY ${keys.join(', ')}` : '';
  const rolled = `SELECT ${items.join(', ')} FROM (${input}) AS t${groupBy}`;
  const from = joinPriceLookups(writer, rolled, 't', [...replaced.values()], nextLookup);
  if (!from) throw new Error('a priced sum without a price lookup');
  const selected = [...rel.groups.map((_, i) => `${id(`__r_g${i}`)} AS ${id(rel.columns[i]!.id)}`), ...outer.map((sql, a) => `${sql()} AS ${id(rel.columns[rel.groups.length + a]!.id)}`)];
  const outerGroupBy = rel.groups.length ? ` GROUP BY ${rel.groups.map((_, i) => id(`__r_g${i}`)).join(', ')}` : '';
  return `SELECT ${selected.join(', ')} FROM ${from}${outerGroupBy}`;
}
