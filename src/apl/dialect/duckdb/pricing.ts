// GenAI pricing in DuckDB: the catalog's price rows (src/catalog/price-book.ts) live in the table
// `genai.prices` of the events database, and every `genai_price` / `genai_pricing` call is
// answered by one LEFT JOIN of that table below the plan node that uses it: one join per distinct
// (model, time) pair of the node, keyed on a hash of the model name's lookup key, with the date
// stamp and the event's time inside each row's ranges. Rows of one key never overlap, so the join
// keeps the row count. The key and date are computed by chains of string functions of the name,
// which DuckDB evaluates once per distinct value of a dictionary-compressed column, in a
// projection below the join, so the per-row work is the hash probe. A correlated subquery would be planned as a join over every distinct (name, time)
// pair instead, far slower.
import type { TExpr } from '../../semantic/plan';
import type { ExprWriter } from './expressions';
import type { CallExpr, RuleTable } from './functions/rule';

export const PRICE_SCHEMA = 'genai';
export const PRICE_TABLE = `${PRICE_SCHEMA}.prices`;

/** The columns of `genai.prices`, in table order. */
export const PRICE_COLUMNS = [
  ['genai_key', 'UBIGINT'],
  ['genai_date_from', 'INTEGER'],
  ['genai_date_to', 'INTEGER'],
  ['genai_valid_from', 'TIMESTAMP_NS'],
  ['genai_valid_to', 'TIMESTAMP_NS'],
  ['genai_latest', 'BOOLEAN'],
  ['genai_model_id', 'VARCHAR'],
  ['genai_provider', 'VARCHAR'],
  ['genai_input', 'DOUBLE'],
  ['genai_output', 'DOUBLE'],
  ['genai_cache_read', 'DOUBLE'],
  ['genai_cache_write', 'DOUBLE'],
] as const;

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

// The SQL twins of src/catalog/model-names.ts (normalizeModelName, then splitDateStamp): each
// a chain of one-argument string functions, which DuckDB runs once per distinct name.
const BEDROCK_ARN = String.raw`^arn:aws:bedrock:[^:]*:[^:]*:(?:foundation-model|inference-profile|application-inference-profile)/`;
const STAMPED = String.raw`^(.*?)([-@])(\d{4})-?(\d{2})-?(\d{2})((?:-v\d+(?::\d+)?)?)$`;
const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
const normalized = (name: string) => `regexp_replace(regexp_replace(lower(trim(${name})), ${sqlString(BEDROCK_ARN)}, 'bedrock/'), '^models/', '')`;
/** The lookup key's hash: the name, or the part before the stamp, its separator and version. */
const keyOf = (name: string) => `hash(regexp_replace(${normalized(name)}, ${sqlString(STAMPED)}, '\\1\\2\\6'))`;
/** The stamp's date as YYYYMMDD, 0 when undated. */
const dateOf = (name: string) => `CAST(regexp_replace(${normalized(name)}, ${sqlString(`${STAMPED}|^.*$`)}, '0\\3\\4\\5') AS INTEGER)`;

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
      lookups.set(signature, prefix);
      // The key and stamp are computed in a projection below the join, where DuckDB works on
      // each distinct name once; inside the join condition they would run for every row.
      const key = `"${prefix}_key"`;
      const date = `"${prefix}_date"`;
      keys.push(`${keyOf(name)} AS ${key}`, `${dateOf(name)} AS ${date}`);
      const when = timeSql === undefined ? `${p}.genai_latest` : `${p}.genai_valid_from <= ${timeSql} AND ${timeSql} < ${p}.genai_valid_to`;
      joins.push(`LEFT JOIN ${PRICE_TABLE} AS ${p} ON ${p}.genai_key = ${alias}.${key} AND ${p}.genai_date_from <= ${alias}.${date} AND ${alias}.${date} < ${p}.genai_date_to AND ${when}`);
      fields.set(prefix, { table: p, used: new Set() });
    }
    // Only the fields some call reads leave the join.
    const used = fields.get(prefix)!.used;
    if (call.fn === 'genai_pricing') for (const field of Object.keys(FIELD_COLUMNS)) used.add(field);
    else used.add(String(call.options?.field));
    writer.lookupColumns.set(call, prefix);
  }
  for (const [prefix, { table, used }] of fields) {
    for (const [field, column] of Object.entries(FIELD_COLUMNS)) if (used.has(field)) columns.push(`${table}.${column} AS "${prefix}_${field}"`);
  }
  // A hash join does not keep its probe side's order: an ordered input is numbered before the
  // join and put back in order after it.
  const position = ordered ? ', row_number() OVER () AS "__genai_position"' : '';
  const keyed = `(SELECT ${alias}.*, ${keys.join(', ')}${position} FROM (${inputSql}) AS ${alias}) AS ${alias}`;
  const order = ordered ? ` ORDER BY ${alias}."__genai_position"` : '';
  return `(SELECT ${alias}.*, ${columns.join(', ')} FROM ${keyed} ${joins.join(' ')}${order}) AS ${alias}`;
}

function lookupColumn(w: ExprWriter, e: CallExpr, field: keyof typeof FIELD_COLUMNS): string {
  const prefix = w.lookupColumns.get(e);
  if (prefix === undefined) throw new Error(`${e.fn} was not joined to the price table`);
  return `"${prefix}_${field}"`;
}

const PER_MILLION = (w: ExprWriter, e: CallExpr, field: 'input' | 'output' | 'cache_read' | 'cache_write') => `${lookupColumn(w, e, field)} * 1000000`;

export const GENAI_PRICE_RULES: RuleTable = {
  genai_price: (w, e) => lookupColumn(w, e, e.options?.field as keyof typeof FIELD_COLUMNS),
  genai_pricing: (w, e) =>
    `CASE WHEN ${lookupColumn(w, e, 'model_id')} IS NOT NULL THEN CAST(json_object(` +
    `'input_price_per_million', ${PER_MILLION(w, e, 'input')}, ` +
    `'output_price_per_million', ${PER_MILLION(w, e, 'output')}, ` +
    `'cache_read_price_per_million', ${PER_MILLION(w, e, 'cache_read')}, ` +
    `'cache_write_price_per_million', ${PER_MILLION(w, e, 'cache_write')}, ` +
    `'provider', ${lookupColumn(w, e, 'provider')}, ` +
    `'model_id', ${lookupColumn(w, e, 'model_id')}) AS JSON) END`,
};
