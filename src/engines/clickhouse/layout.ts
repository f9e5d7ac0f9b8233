// How a dataset's events are laid out in ClickHouse: the layout of `../duckdb/layout.ts` in
// ClickHouse types. One MergeTree table per dataset ordered by (`_time`, `_rowId`), so time ranges read
// only the granules they need; `_time` and `_sysTime` as `DateTime64(9, 'UTC')`; one Nullable
// column per field. A timespan is an Int64 of nanoseconds; arrays, map fields and mixed fields
// (values of several types, each kept as its own) JSON text, the representation the APL dialects
// compute dynamic values with; and every user column's comment records its
// field name and type as JSON, so the table alone is enough to rebuild the dataset's schema.
import { type FieldType, isMixedType, memberTypes, type ScalarFieldType } from '../../fields/types';
import { ROW_ID_FIELD, SYS_TIME_FIELD, TIME_FIELD } from '../../fields/system-fields';

const CLICKHOUSE_TYPE_OF: Record<ScalarFieldType, string> = {
  string: 'Nullable(String)',
  integer: 'Nullable(Int64)',
  float: 'Nullable(Float64)',
  boolean: 'Nullable(Bool)',
  array: 'Nullable(String)',
  datetime: "Nullable(DateTime64(9, 'UTC'))",
  timespan: 'Nullable(Int64)',
  map: 'Nullable(String)',
};

/** The ClickHouse type of a column holding a field of this type (mixed fields: JSON text). */
export function clickhouseTypeOf(type: FieldType): string {
  return isMixedType(type) ? 'Nullable(String)' : CLICKHOUSE_TYPE_OF[type];
}

/** Whether a column's values are JSON text (arrays, map fields, mixed fields). */
export function holdsJson(type: FieldType): boolean {
  return type === 'array' || type === 'map' || isMixedType(type);
}

export const TIME_TYPE = "DateTime64(9, 'UTC')";

export const SYSTEM_COLUMNS_SQL = [
  `${quoteIdentifier(TIME_FIELD)} ${TIME_TYPE}`,
  `${quoteIdentifier(SYS_TIME_FIELD)} ${TIME_TYPE}`,
  `${quoteIdentifier(ROW_ID_FIELD)} Int64`,
].join(', ');

/**
 * The ClickHouse name of a stored column. ClickHouse reads a dot in a column name as a Nested
 * structure (`geo.city` is part of `geo`, and a column `geo` cannot sit beside it), so dots are
 * written `%2E` (and `%` as `%25`); `logicalColumn` reads the name back.
 */
export function physicalColumn(column: string): string {
  return column.replace(/[%.]/g, (c) => (c === '%' ? '%25' : '%2E'));
}

export function logicalColumn(physical: string): string {
  return physical.replace(/%(25|2E)/g, (_, code: string) => (code === '25' ? '%' : '.'));
}

/** A stored column as a quoted ClickHouse identifier. */
export const columnIdentifier = (column: string) => quoteIdentifier(physicalColumn(column));

/** Quotes a ClickHouse identifier (backticks, backslash escapes); the only way a name reaches SQL. */
export function quoteIdentifier(name: string): string {
  return `\`${escape(name).replaceAll('`', '\\`')}\``;
}

/** Quotes a ClickHouse string literal: any text, NUL and newlines included, as escapes. */
export function quoteLiteral(value: string): string {
  return `'${escape(value).replaceAll("'", "\\'")}'`;
}

function escape(text: string): string {
  return text.replace(/[\\\0\n\r\t]/g, (c) => ({ '\\': '\\\\', '\0': '\\0', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c]!);
}

/** The comment of a user column: its field name and type. */
export function columnComment(field: string, type: FieldType): string {
  return JSON.stringify({ field, type });
}

const FIELD_TYPES = new Set<string>(Object.keys(CLICKHOUSE_TYPE_OF));

/** A field type as a column comment may name it: one type, or a mixed one of several. */
function isFieldType(value: unknown): value is FieldType {
  if (typeof value !== 'string') return false;
  if (!value.includes('|')) return FIELD_TYPES.has(value);
  return memberTypes(value as FieldType).every((member) => FIELD_TYPES.has(member) && member !== 'map' && member !== 'datetime');
}

/** The field type a ClickHouse type means when the comment says nothing. */
function fieldTypeOfClickHouse(type: string): FieldType {
  const base = type.replace(/^Nullable\((.*)\)$/, '$1');
  if (base === 'Int64') return 'integer';
  if (base === 'Float64') return 'float';
  if (base === 'Bool') return 'boolean';
  if (base.startsWith('DateTime64')) return 'datetime';
  return 'string';
}

/** Reads back what `columnComment` wrote; a column without one is its own field. */
export function readColumnComment(column: string, type: string, comment: string | null | undefined): { field: string; type: FieldType } {
  const fallback = fieldTypeOfClickHouse(type);
  if (comment?.startsWith('{')) {
    try {
      const parsed = JSON.parse(comment) as { field?: unknown; type?: unknown };
      const declared = isFieldType(parsed.type) ? parsed.type : fallback;
      // A comment whose type no longer fits the column (changed by hand) yields to the column.
      const fits = clickhouseTypeOf(declared) === `Nullable(${type.replace(/^Nullable\((.*)\)$/, '$1')})`;
      return { field: typeof parsed.field === 'string' ? parsed.field : column, type: fits ? declared : fallback };
    } catch {
      // not ours: the column is its own field
    }
  }
  return { field: column, type: fallback };
}

/** The second last written by `dateTime64Text` and its text: a batch's events mostly share seconds. */
let lastSecond: bigint | undefined;
let lastSecondText = '';

/** Epoch nanoseconds as DateTime64 text ("2024-01-01 00:00:00.123456789", UTC) for TabSeparated input. */
export function dateTime64Text(nanos: bigint): string {
  let seconds = nanos / 1_000_000_000n;
  let fraction = nanos % 1_000_000_000n;
  if (fraction < 0n) {
    fraction += 1_000_000_000n;
    seconds -= 1n;
  }
  if (seconds !== lastSecond) {
    const date = new Date(Number(seconds) * 1000).toISOString();
    lastSecondText = `${date.slice(0, 10)} ${date.slice(11, 19)}.`;
    lastSecond = seconds;
  }
  return `${lastSecondText}${fraction.toString().padStart(9, '0')}`;
}

/** A nanosecond time as a ClickHouse expression of type DateTime64(9, 'UTC'). */
export function dateTime64Sql(nanos: bigint): string {
  return `fromUnixTimestamp64Nano(toInt64(${nanos.toString()}), 'UTC')`;
}

/** ` ON CLUSTER name`, or nothing without a cluster. */
export const onCluster = (cluster: string | undefined) => (cluster ? ` ON CLUSTER ${quoteIdentifier(cluster)}` : '');

/** The table that holds a table's rows (and takes its deletes and rewrites): `<name>_local` on a cluster. */
export const storedTable = (name: string, cluster: string | undefined) => (cluster ? `${name}_local` : name);

/**
 * The statements creating a table of `columns` with a MergeTree-family `engine` (e.g.
 * `MergeTree`, `ReplacingMergeTree(version)`) and its `order`. On a cluster: the replicated engine
 * as `<name>_local` on every node, and a Distributed table `<name>` over them sharded by
 * `shardKey`, which queries read and inserts go to.
 */
export function createTableSql(name: string, columns: string, engine: string, order: string, shardKey: string, cluster: string | undefined): string[] {
  if (!cluster) return [`CREATE TABLE IF NOT EXISTS ${quoteIdentifier(name)} (${columns}) ENGINE = ${engine} ${order}`];
  const local = storedTable(name, cluster);
  return [
    `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(local)}${onCluster(cluster)} (${columns}) ENGINE = Replicated${engine} ${order}`,
    `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(name)}${onCluster(cluster)} AS ${quoteIdentifier(local)} ENGINE = Distributed(${quoteLiteral(cluster)}, currentDatabase(), ${quoteLiteral(local)}, ${shardKey})`,
  ];
}
