// GenAI pricing in ClickHouse: the catalog's price rows live in the table `genai_prices` of the
// events database (filled by src/apl/execution/clickhouse-price-table.ts), and every
// `genai_price` / `genai_pricing` call is answered by one LEFT JOIN of that table below the plan
// node that uses it, as in the DuckDB dialect (../duckdb/pricing.ts): one join per distinct
// (model, time) pair of the node, keyed on cityHash64 of the model name's lookup key, with the
// date stamp and the event's time inside each row's ranges as further ON conditions. Rows of one
// key never overlap, so the join keeps the row count. Both sides hash in ClickHouse, so the
// table's keys and the lookups' always agree. The statement runs with `join_use_nulls`, and the
// price columns are Nullable anyway: a name without a price gives null.
import { quoteIdentifier, quoteLiteral } from '../../../events/clickhouse/layout';
import type { TExpr } from '../../semantic/plan';
import type { ExprWriter } from './expressions';
import type { CallExpr, RuleTable } from './functions/rule';

export const PRICE_TABLE = 'genai_prices';

/** What a lookup returns, by the field names of `genai_price` (see semantic/functions/genai-pricing.ts). */
const FIELD_COLUMNS = {
  input: 'genai_input',
  output: 'genai_output',
  cache_read: 'genai_cache_read',
  cache_write: 'genai_cache_write',
  model_id: 'genai_model_id',
  provider: 'genai_provider',
} as const;

const LOOKUP_CALLS = new Set(['genai_price', 'genai_pricing']);

// The SQL twins of src/catalog/model-names.ts (normalizeModelName, then splitDateStamp), written
// as the DuckDB dialect writes them so both stores resolve a name alike.
const BEDROCK_ARN = String.raw`^arn:aws:bedrock:[^:]*:[^:]*:(?:foundation-model|inference-profile|application-inference-profile)/`;
const STAMPED = String.raw`^(.*?)([-@])(\d{4})-?(\d{2})-?(\d{2})((?:-v\d+(?::\d+)?)?)$`;
// The name is made LowCardinality first: ClickHouse then runs the chain once per distinct name
// of a block rather than once per row (some thirty times faster over a million calls).
const normalized = (name: string) =>
  `replaceRegexpOne(replaceRegexpOne(lowerUTF8(trimBoth(toLowCardinality(${name}))), ${quoteLiteral(BEDROCK_ARN)}, 'bedrock/'), '^models/', '')`;
/** The lookup key's hash: the name, or the part before the stamp, its separator and version. */
export const priceKeySql = (keyText: string) => `cityHash64(${keyText})`;
const keyOf = (name: string) => priceKeySql(`replaceRegexpOne(${normalized(name)}, ${quoteLiteral(STAMPED)}, ${quoteLiteral(String.raw`\1\2\6`)})`);
/** The stamp's date as YYYYMMDD, 0 when undated. */
const dateOf = (name: string) => `toInt32OrZero(replaceRegexpOne(${normalized(name)}, ${quoteLiteral(`${STAMPED}|^.*$`)}, ${quoteLiteral(String.raw`0\3\4\5`)}))`;

/** The lookup calls in `exprs`, outermost first (a lookup's own arguments are not searched). */
function lookupCalls(exprs: readonly TExpr[]): CallExpr[] {
  const found: CallExpr[] = [];
  const visit = (expr: TExpr) => {
    if (expr.kind !== 'call') return;
    if (LOOKUP_CALLS.has(expr.fn)) found.push(expr);
    else expr.args.forEach(visit);
  };
  exprs.forEach(visit);
  return found;
}

/**
 * Joins the price table to `inputSql` (aliased `alias`) for every lookup call in `exprs`, and
 * tells `writer` which columns answer each call. Returns the FROM item to write, or undefined
 * when `exprs` make no lookup.
 */
export function joinPriceLookups(
  writer: ExprWriter,
  inputSql: string,
  alias: string,
  exprs: readonly TExpr[],
  nextLookup: () => number,
  /** The input's rows come in an order (a sort below) that the node must keep. */
  ordered = false,
): string | undefined {
  const calls = lookupCalls(exprs);
  if (calls.length === 0) return undefined;
  const qualified = writer.withColumns((id) => `${alias}.${writer.column(id)}`);
  const lookups = new Map<string, string>();
  const keys: string[] = [];
  const joins: string[] = [];
  const columns: string[] = [];
  const fields = new Map<string, { table: string; used: Set<string> }>();
  let first: string | undefined;
  for (const call of calls) {
    const name = qualified.write(call.args[0]!);
    const time = call.args[1]!;
    const timeSql = time.kind === 'literal' ? undefined : qualified.write(time);
    const signature = `${name}\u0000${timeSql ?? ''}`;
    let prefix = lookups.get(signature);
    if (prefix === undefined) {
      const n = nextLookup();
      const p = `g${n}`;
      prefix = `__genai${n}`;
      first ??= prefix;
      lookups.set(signature, prefix);
      const key = quoteIdentifier(`${prefix}_key`);
      const date = quoteIdentifier(`${prefix}_date`);
      keys.push(`${keyOf(name)} AS ${key}`, `${dateOf(name)} AS ${date}`);
      const when = timeSql === undefined ? `${p}.genai_latest` : `${p}.genai_valid_from <= ${timeSql} AND ${timeSql} < ${p}.genai_valid_to`;
      joins.push(
        `LEFT JOIN ${PRICE_TABLE} AS ${p} ON ${p}.genai_key = ${alias}.${key} AND ${p}.genai_date_from <= ${alias}.${date} AND ${alias}.${date} < ${p}.genai_date_to AND ${when}`,
      );
      fields.set(prefix, { table: p, used: new Set() });
    }
    // Only the fields some call reads leave the join.
    const used = fields.get(prefix)!.used;
    if (call.fn === 'genai_pricing') for (const field of Object.keys(FIELD_COLUMNS)) used.add(field);
    else used.add(String(call.options?.field));
    writer.lookupColumns.set(call, prefix);
  }
  for (const [prefix, { table, used }] of fields) {
    for (const [field, column] of Object.entries(FIELD_COLUMNS)) if (used.has(field)) columns.push(`${table}.${column} AS ${quoteIdentifier(`${prefix}_${field}`)}`);
  }
  // A hash join does not keep its probe side's order: an ordered input is numbered before the
  // join and put back in order after it (the name is the node's own, as nodes above may number too).
  const position = quoteIdentifier(`${first}_position`);
  const numbered = ordered ? `, row_number() OVER () AS ${position}` : '';
  const keyed = `(SELECT ${alias}.*, ${keys.join(', ')}${numbered} FROM (${inputSql}) AS ${alias}) AS ${alias}`;
  const order = ordered ? ` ORDER BY ${alias}.${position}` : '';
  return `(SELECT ${alias}.*, ${columns.join(', ')} FROM ${keyed} ${joins.join(' ')}${order}) AS ${alias}`;
}

function lookupColumn(w: ExprWriter, e: CallExpr, field: keyof typeof FIELD_COLUMNS): string {
  const prefix = w.lookupColumns.get(e);
  if (prefix === undefined) throw new Error(`${e.fn} was not joined to the price table`);
  return quoteIdentifier(`${prefix}_${field}`);
}

/** A price per million tokens as a JSON number, or JSON null. */
const perMillion = (w: ExprWriter, e: CallExpr, field: 'input' | 'output' | 'cache_read' | 'cache_write') => `ifNull(toJSONString(${lookupColumn(w, e, field)} * 1000000), 'null')`;
const jsonString = (w: ExprWriter, e: CallExpr, field: 'provider' | 'model_id') => `ifNull(toJSONString(${lookupColumn(w, e, field)}), 'null')`;

export const GENAI_PRICE_RULES: RuleTable = {
  genai_price: (w, e) => lookupColumn(w, e, e.options?.field as keyof typeof FIELD_COLUMNS),
  // The documented pricing object as JSON text, keys in the DuckDB dialect's order.
  genai_pricing: (w, e) =>
    `if(${lookupColumn(w, e, 'model_id')} IS NULL, NULL, concat(` +
    `'{"input_price_per_million":', ${perMillion(w, e, 'input')}, ` +
    `',"output_price_per_million":', ${perMillion(w, e, 'output')}, ` +
    `',"cache_read_price_per_million":', ${perMillion(w, e, 'cache_read')}, ` +
    `',"cache_write_price_per_million":', ${perMillion(w, e, 'cache_write')}, ` +
    `',"provider":', ${jsonString(w, e, 'provider')}, ` +
    `',"model_id":', ${jsonString(w, e, 'model_id')}, '}'))`,
};
