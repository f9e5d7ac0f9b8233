// How both dialects answer `genai_price` / `genai_pricing` calls (see duckdb/pricing.ts and
// clickhouse/pricing.ts for each engine's SQL): one LEFT JOIN of the price table below the plan
// node that uses them, one join per distinct (model, time) pair of the node, keyed on a hash of
// the model name's lookup key, with the date stamp and the event's time inside each row's ranges.
// Rows of one key never overlap, so the join keeps the row count. The key and date are computed
// in a projection below the join, where the engines work on each distinct name once; inside the
// join condition they would run for every row. This file decides the joins and the columns that
// answer each call; each dialect gives the table, the key and date SQL and its quoting.
import type { Rel, TExpr } from '../semantic/plan';

type CallExpr = Extract<TExpr, { kind: 'call' }>;

/** What a lookup returns, by the field names of `genai_price` (see semantic/functions/genai-pricing.ts). */
export const FIELD_COLUMNS = {
  input: 'genai_input',
  output: 'genai_output',
  cache_read: 'genai_cache_read',
  cache_write: 'genai_cache_write',
  model_id: 'genai_model_id',
  provider: 'genai_provider',
} as const;

export type PriceField = keyof typeof FIELD_COLUMNS;

const LOOKUP_CALLS = new Set(['genai_price', 'genai_pricing']);

// The patterns of src/catalog/model-names.ts (normalizeModelName, then splitDateStamp), which
// each dialect writes as a chain of string functions.
export const BEDROCK_ARN = String.raw`^arn:aws:bedrock:[^:]*:[^:]*:(?:foundation-model|inference-profile|application-inference-profile)/`;
export const STAMPED = String.raw`^(.*?)([-@])(\d{4})-?(\d{2})-?(\d{2})((?:-v\d+(?::\d+)?)?)$`;

/** The part of an expression writer the joins need (both dialects' ExprWriter have it). */
export interface LookupWriter<W extends LookupWriter<W>> {
  column(id: string): string;
  withColumns(column: (id: string) => string): W;
  write(expr: TExpr): string;
  readonly lookupColumns: Map<TExpr, string>;
}

/** A dialect's side of the joins. */
export interface PriceJoinSql {
  table: string;
  /** The hash of a model name's lookup key (the name, or the part before its date stamp). */
  keyOf(name: string): string;
  /** The name's date stamp as YYYYMMDD, 0 when undated. */
  dateOf(name: string): string;
  quote(identifier: string): string;
}

/** The lookup calls in `exprs`, outermost first (a lookup's own arguments are not searched). */
export function lookupCalls(exprs: readonly TExpr[]): CallExpr[] {
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
export function joinPriceLookups<W extends LookupWriter<W>>(
  sql: PriceJoinSql,
  writer: W,
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
      const key = sql.quote(`${prefix}_key`);
      const date = sql.quote(`${prefix}_date`);
      keys.push(`${sql.keyOf(name)} AS ${key}`, `${sql.dateOf(name)} AS ${date}`);
      const when = timeSql === undefined ? `${p}.genai_latest` : `${p}.genai_valid_from <= ${timeSql} AND ${timeSql} < ${p}.genai_valid_to`;
      joins.push(
        `LEFT JOIN ${sql.table} AS ${p} ON ${p}.genai_key = ${alias}.${key} AND ${p}.genai_date_from <= ${alias}.${date} AND ${alias}.${date} < ${p}.genai_date_to AND ${when}`,
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
    for (const [field, column] of Object.entries(FIELD_COLUMNS)) if (used.has(field)) columns.push(`${table}.${column} AS ${sql.quote(`${prefix}_${field}`)}`);
  }
  // A hash join does not keep its probe side's order: an ordered input is numbered before the
  // join and put back in order after it (the name is the node's own, as nodes above may number too).
  const position = sql.quote(`${first}_position`);
  const numbered = ordered ? `, row_number() OVER () AS ${position}` : '';
  const keyed = `(SELECT ${alias}.*, ${keys.join(', ')}${numbered} FROM (${inputSql}) AS ${alias}) AS ${alias}`;
  const order = ordered ? ` ORDER BY ${alias}.${position}` : '';
  return `(SELECT ${alias}.*, ${columns.join(', ')} FROM ${keyed} ${joins.join(' ')}${order}) AS ${alias}`;
}

/** The column answering `field` of a joined lookup call. */
export function lookupColumn(writer: { readonly lookupColumns: Map<TExpr, string> }, e: CallExpr, field: PriceField, quote: (identifier: string) => string): string {
  const prefix = writer.lookupColumns.get(e);
  if (prefix === undefined) throw new Error(`${e.fn} was not joined to the price table`);
  return quote(`${prefix}_${field}`);
}

/**
 * True when the rows of `rel` come in the order of a sort (or of a source the dialect keeps in
 * order, `ordered`), which the nodes above it keep: the joins must then put them back in order.
 */
export function keepsOrder(rel: Rel, ordered: ReadonlySet<Rel['op']>): boolean {
  if (ordered.has(rel.op)) return true;
  switch (rel.op) {
    case 'limit':
    case 'filter':
    case 'project':
      return keepsOrder(rel.input, ordered);
    default:
      return false;
  }
}
