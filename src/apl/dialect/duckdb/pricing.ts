// GenAI pricing in DuckDB: the catalog's price rows (src/catalog/price-book.ts) live in the table
// `genai.prices` of the events database, joined below each plan node that looks prices up as
// ../price-lookups.ts describes, keyed on DuckDB's hash of the model name's lookup key. The key
// and date are chains of string functions of the name, which DuckDB evaluates once per distinct
// value of a dictionary-compressed column, so the per-row work is the hash probe. A correlated
// subquery would be planned as a join over every distinct (name, time) pair instead, far slower.
import type { TExpr } from '../../semantic/plan';
import { BEDROCK_ARN, joinPriceLookups as joinLookups, lookupColumn as lookupColumnOf, type PriceField, type PriceJoinSql, STAMPED } from '../price-lookups';
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

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
const normalized = (name: string) => `regexp_replace(regexp_replace(lower(trim(${name})), ${sqlString(BEDROCK_ARN)}, 'bedrock/'), '^models/', '')`;
const quote = (identifier: string) => `"${identifier}"`;

const JOIN_SQL: PriceJoinSql = {
  table: PRICE_TABLE,
  keyOf: (name) => `hash(regexp_replace(${normalized(name)}, ${sqlString(STAMPED)}, '\\1\\2\\6'))`,
  dateOf: (name) => `CAST(regexp_replace(${normalized(name)}, ${sqlString(`${STAMPED}|^.*$`)}, '0\\3\\4\\5') AS INTEGER)`,
  quote,
};

/** See ../price-lookups.ts. */
export const joinPriceLookups = (writer: ExprWriter, inputSql: string, alias: string, exprs: readonly TExpr[], nextLookup: () => number, ordered = false) =>
  joinLookups(JOIN_SQL, writer, inputSql, alias, exprs, nextLookup, ordered);

const lookupColumn = (w: ExprWriter, e: CallExpr, field: PriceField) => lookupColumnOf(w, e, field, quote);

const PER_MILLION = (w: ExprWriter, e: CallExpr, field: 'input' | 'output' | 'cache_read' | 'cache_write') => `${lookupColumn(w, e, field)} * 1000000`;

export const GENAI_PRICE_RULES: RuleTable = {
  genai_price: (w, e) => lookupColumn(w, e, e.options?.field as PriceField),
  genai_pricing: (w, e) =>
    `CASE WHEN ${lookupColumn(w, e, 'model_id')} IS NOT NULL THEN CAST(json_object(` +
    `'input_price_per_million', ${PER_MILLION(w, e, 'input')}, ` +
    `'output_price_per_million', ${PER_MILLION(w, e, 'output')}, ` +
    `'cache_read_price_per_million', ${PER_MILLION(w, e, 'cache_read')}, ` +
    `'cache_write_price_per_million', ${PER_MILLION(w, e, 'cache_write')}, ` +
    `'provider', ${lookupColumn(w, e, 'provider')}, ` +
    `'model_id', ${lookupColumn(w, e, 'model_id')}) AS JSON) END`,
};
