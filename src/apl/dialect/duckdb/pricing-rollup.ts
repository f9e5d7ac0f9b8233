// Sums of prices without a price lookup per row. Within one validity period a model's prices are
// constants, so `sum(tokens × price)` over the rows of a group is `price × sum(tokens)` over the
// rows of each (group, model name, price era): the rows are first summed per era, the price table
// is joined to those few rows, and the sums are priced and added up. An era is the stretch of time
// between two consecutive instants at which any price period starts or ends (compile options
// `priceBoundaries`), so every row of one era has the prices of the era's first row.
//
// Which nodes qualify, and the split of their sums into terms: ../price-sums.ts. Anything else
// keeps the per-row join (./pricing.ts).
import { quoteIdentifier } from '../../../events/layout';
import type { Rel } from '../../semantic/plan';
import { pricedSums, rollNames, substitute } from '../price-sums';
import type { ExprWriter } from './expressions';
import { joinPriceLookups } from './pricing';

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
  const priced = pricedSums(rel, boundaries);
  if (!priced) return undefined;
  const { plans, calls, time } = priced;
  const eras = priced.boundaries;
  const input = inputSql();
  const inner = writer.withColumns((id) => `t.${quoteIdentifier(id)}`);
  const groupSql = rel.groups.map((group) => inner.write(group));
  const keys: string[] = groupSql.map((sql, i) => `${sql} AS "__r_g${i}"`);
  // A name that is also a group (`by model`) is that group's column.
  const { replaced, added } = rollNames(calls, groupSql, (e) => inner.write(e));
  for (const { column, sql } of added) keys.push(`${sql} AS "${column}"`);
  const items = [...keys];
  if (time) {
    const timeSql = inner.write(time);
    const era = eras.length ? eras.map((b) => `CAST(${timeSql} >= ${ts(b)} AS INTEGER)`).join(' + ') : '0';
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
