// The seam between the ClickHouse event store and a ClickHouse engine: statements in, rows out.
// Two implementations speak it: a ClickHouse server over HTTP through the official client
// (`http-executor.ts`, production) and ClickHouse embedded through chdb (`chdb-executor.ts`,
// one machine and the tests). Both run the same SQL; only transport and cancellation differ.

/** ClickHouse settings for one statement (`max_execution_time`, `mutations_sync`, ...). */
export type ClickHouseSettings = Record<string, string | number | boolean>;

export interface ClickHouseColumn {
  name: string;
  /** ClickHouse's type name, e.g. `Nullable(Int64)`, `String`, `DateTime64(9, 'UTC')`. */
  type: string;
}

export interface ClickHouseRows {
  columns: ClickHouseColumn[];
  /**
   * Rows as text, as ClickHouse's TabSeparated output writes each value (null as null);
   * `decodeRows` turns them into JavaScript values by column type, so no 64-bit integer loses
   * a digit on the way.
   */
  rows: unknown[][];
}

const UNESCAPES: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r', '0': '\0', b: '\b', f: '\f', "'": "'", '"': '"' };

function unescape(cell: string): string | null {
  if (cell === '\\N') return null;
  if (!cell.includes('\\')) return cell;
  return cell.replace(/\\(.)/g, (_, c: string) => UNESCAPES[c] ?? c);
}

/** Parses ClickHouse's TabSeparatedWithNamesAndTypes output. */
export function parseTabSeparated(text: string): ClickHouseRows {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length < 2) return { columns: [], rows: [] };
  const names = lines[0]!.split('\t').map((name) => unescape(name) ?? '');
  const types = lines[1]!.split('\t').map((type) => unescape(type) ?? '');
  const columns = names.map((name, i) => ({ name, type: types[i]! }));
  const rows = new Array<unknown[]>(lines.length - 2);
  for (let i = 2; i < lines.length; i++) rows[i - 2] = lines[i]!.split('\t').map(unescape);
  return { columns, rows };
}

export interface QuerySettingsOptions {
  settings?: ClickHouseSettings;
  /** Stops waiting (and, where the engine allows, the statement) when aborted. */
  signal?: AbortSignal;
}

export interface ClickHouseExecutor {
  readonly engine: 'clickhouse' | 'chdb';
  /** A statement without a result (DDL, mutations, lightweight deletes). */
  command(sql: string, options?: QuerySettingsOptions): Promise<void>;
  /** A SELECT (or SHOW, DESCRIBE) and its rows. */
  query(sql: string, options?: QuerySettingsOptions): Promise<ClickHouseRows>;
  /**
   * Inserts rows given as TabSeparated text into the named columns; resolves once ClickHouse has
   * written them (never before: an acknowledged ingest is stored).
   */
  insert(table: string, columns: string[], tabSeparated: Buffer, options?: QuerySettingsOptions): Promise<void>;
  close(): Promise<void>;
}

/** An error ClickHouse reported, with its numeric code (e.g. 159 TIMEOUT_EXCEEDED, 60 UNKNOWN_TABLE). */
export class ClickHouseError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'ClickHouseError';
  }
}

export const CLICKHOUSE_ERROR = {
  UNKNOWN_TABLE: 60,
  TIMEOUT_EXCEEDED: 159,
  QUERY_WAS_CANCELLED: 394,
  TOO_DEEP_RECURSION: 306,
  SYNTAX_ERROR: 62,
  TOO_DEEP_AST: 167,
  TOO_BIG_AST: 168,
  TOO_SLOW_PARSING: 718,
  THROW_IF: 395,
} as const;

/** The code in a ClickHouse message ("Code: 159. DB::Exception: ..."), or 0. */
export function errorCodeOf(message: string): number {
  const match = /Code: (\d+)\./.exec(message);
  return match ? Number(match[1]) : 0;
}

/** The type inside `Nullable(...)` and `LowCardinality(...)`. */
export function baseType(type: string): string {
  let t = type;
  for (;;) {
    const match = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(t);
    if (!match) return t;
    t = match[1]!;
  }
}

const BIG_INTEGER = /^U?Int(64|128|256)$/;
const SMALL_INTEGER = /^U?Int(8|16|32)$/;
const FLOAT = /^(Float32|Float64|BFloat16)$/;

function floatOf(value: unknown): number {
  if (typeof value === 'number') return value;
  switch (value) {
    case 'nan':
    case '-nan':
      return Number.NaN;
    case 'inf':
    case '+inf':
      return Number.POSITIVE_INFINITY;
    case '-inf':
      return Number.NEGATIVE_INFINITY;
    default:
      return Number(value);
  }
}

/** A DateTime64 text ("2024-01-01 00:00:00.123456789", UTC) as epoch nanoseconds. */
export function dateTime64Nanos(text: string): bigint {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?/.exec(text);
  if (!match) throw new Error(`not a ClickHouse DateTime64: ${text}`);
  const seconds = BigInt(Date.parse(`${match[1]}T${match[2]}Z`) / 1000);
  const fraction = BigInt((match[3] ?? '').padEnd(9, '0').slice(0, 9));
  return seconds * 1_000_000_000n + fraction;
}

type Converter = (value: unknown) => unknown;

/**
 * How values of a column type become JavaScript values: 64-bit integers as bigint, smaller ones
 * and floats as numbers (non-finite ones included), booleans, datetimes as Date (`dates:
 * 'date'`) or epoch nanoseconds as bigint (`dates: 'nanos'`); anything else as its text.
 */
export function converterFor(type: string, dates: 'date' | 'nanos'): Converter {
  const base = baseType(type);
  if (BIG_INTEGER.test(base)) return (value) => (value === null ? null : BigInt(value as string));
  if (SMALL_INTEGER.test(base)) return (value) => (value === null ? null : Number(value));
  if (base === 'Bool') return (value) => (value === null ? null : value === 'true' || value === '1');
  if (FLOAT.test(base)) return (value) => (value === null ? null : floatOf(value));
  if (base.startsWith('DateTime64') || base.startsWith('DateTime')) {
    return dates === 'nanos'
      ? (value) => (value === null ? null : dateTime64Nanos(String(value)))
      : (value) => (value === null ? null : new Date(Number(dateTime64Nanos(String(value)) / 1_000_000n)));
  }
  return (value) => value;
}

/** Converts every row in place by its column's type; returns the rows. */
export function decodeRows(result: ClickHouseRows, dates: 'date' | 'nanos'): unknown[][] {
  const converters = result.columns.map((column) => converterFor(column.type, dates));
  const identity = result.columns.map((column) => isIdentity(column.type));
  for (const row of result.rows) {
    for (let i = 0; i < converters.length; i++) if (!identity[i]) row[i] = converters[i]!(row[i]);
  }
  return result.rows;
}

function isIdentity(type: string): boolean {
  const base = baseType(type);
  return !BIG_INTEGER.test(base) && !SMALL_INTEGER.test(base) && !FLOAT.test(base) && base !== 'Bool' && !base.startsWith('DateTime');
}

/**
 * Appends a SETTINGS clause to a SELECT for engines that take settings only in the statement
 * (chdb); values are numbers, booleans or safe words, never user text.
 */
export function withSettingsClause(sql: string, settings: ClickHouseSettings | undefined): string {
  const entries = Object.entries(settings ?? {});
  if (entries.length === 0) return sql;
  const clause = entries.map(([name, value]) => {
    if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`bad ClickHouse setting name ${name}`);
    const text = typeof value === 'boolean' ? (value ? '1' : '0') : typeof value === 'number' ? String(value) : `'${value.replace(/[\\']/g, '\\$&')}'`;
    return `${name} = ${text}`;
  });
  return `${sql} SETTINGS ${clause.join(', ')}`;
}

/**
 * How inserts run, for every table the stores write. On a server, many instances send many
 * requests, some small (shippers flush often): ClickHouse's async inserts gather them into few
 * parts, and each request is answered only once its rows are written (`wait_for_async_insert`).
 * Through a cluster the Distributed table writes synchronously to its shard; embedded (chdb), one
 * process writes directly.
 */
export function insertSettings(engine: ClickHouseExecutor['engine'], cluster: string | undefined): ClickHouseSettings {
  if (cluster) return { insert_distributed_sync: 1 };
  return engine === 'clickhouse' ? { async_insert: 1, wait_for_async_insert: 1 } : {};
}
