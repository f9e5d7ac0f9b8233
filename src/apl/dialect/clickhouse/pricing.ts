// GenAI pricing in ClickHouse: the catalog's price rows live in the table `genai_prices` of the
// events database (filled by src/engines/clickhouse/price-table.ts), joined below each plan
// node that looks prices up as ../price-lookups.ts describes, keyed on cityHash64 of the model
// name's lookup key. Both sides hash in ClickHouse, so the table's keys and the lookups' always
// agree. The statement runs with `join_use_nulls`, and the price columns are Nullable anyway: a
// name without a price gives null.
import { quoteIdentifier, quoteLiteral } from '../../../engines/clickhouse/layout';
import type { TExpr } from '../../semantic/plan';
import { BEDROCK_ARN, joinPriceLookups as joinLookups, lookupColumn as lookupColumnOf, type PriceField, type PriceJoinSql, STAMPED } from '../price-lookups';
import type { ExprWriter } from './expressions';
import type { CallExpr, RuleTable } from './functions/rule';

export const PRICE_TABLE = 'genai_prices';

// The name is made LowCardinality first: ClickHouse then runs the chain once per distinct name
// of a block rather than once per row (some thirty times faster over a million calls).
const normalized = (name: string) =>
  `replaceRegexpOne(replaceRegexpOne(lowerUTF8(trimBoth(toLowCardinality(${name}))), ${quoteLiteral(BEDROCK_ARN)}, 'bedrock/'), '^models/', '')`;
/** The lookup key's hash, as the price table's rows are keyed. */
export const priceKeySql = (keyText: string) => `cityHash64(${keyText})`;

const JOIN_SQL: PriceJoinSql = {
  table: PRICE_TABLE,
  keyOf: (name) => priceKeySql(`replaceRegexpOne(${normalized(name)}, ${quoteLiteral(STAMPED)}, ${quoteLiteral(String.raw`\1\2\6`)})`),
  dateOf: (name) => `toInt32OrZero(replaceRegexpOne(${normalized(name)}, ${quoteLiteral(`${STAMPED}|^.*$`)}, ${quoteLiteral(String.raw`0\3\4\5`)}))`,
  quote: quoteIdentifier,
};

/** See ../price-lookups.ts. */
export const joinPriceLookups = (writer: ExprWriter, inputSql: string, alias: string, exprs: readonly TExpr[], nextLookup: () => number, ordered = false) =>
  joinLookups(JOIN_SQL, writer, inputSql, alias, exprs, nextLookup, ordered);

const lookupColumn = (w: ExprWriter, e: CallExpr, field: PriceField) => lookupColumnOf(w, e, field, quoteIdentifier);

/** A price per million tokens as a JSON number, or JSON null. */
const perMillion = (w: ExprWriter, e: CallExpr, field: 'input' | 'output' | 'cache_read' | 'cache_write') => `ifNull(toJSONString(${lookupColumn(w, e, field)} * 1000000), 'null')`;
const jsonString = (w: ExprWriter, e: CallExpr, field: 'provider' | 'model_id') => `ifNull(toJSONString(${lookupColumn(w, e, field)}), 'null')`;

export const GENAI_PRICE_RULES: RuleTable = {
  genai_price: (w, e) => lookupColumn(w, e, e.options?.field as PriceField),
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
