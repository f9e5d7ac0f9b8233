// The event store seam: what ingest, dataset management and queries need from whatever holds
// the events. Two implementations: DuckDB embedded in the process (`event-store.ts`, the
// default) and ClickHouse, a server or embedded (`clickhouse-store.ts`), each over its engine's
// plumbing in `src/engines/`. Both keep one layout (`src/engines/duckdb/layout.ts`,
// `src/engines/clickhouse/layout.ts`): one table per dataset, system columns, one typed column
// per field, the field name and type readable back from the table alone.
import type { SqlDialect } from '../../apl/dialect/dialect';
import type { PriceTableRow } from '../../engines/price-rows';
import type { QueryRunner as AplRunner } from '../../apl/execution/runner';
import type { EngineHealth } from '../../engines/health';
import type { ColumnValue } from '../../engines/column-value';
import type { FieldType } from '../../fields/types';
import type { QueryOptions, QueryParams, QueryResult } from '../../engines/duckdb/query-runner';

export type { QueryOptions, QueryParams, QueryResult } from '../../engines/duckdb/query-runner';

/** Whether the store can serve, and why not. */
export type StoreHealth = EngineHealth;

/** A column of a dataset table and the field it holds. */
export interface StoredColumn {
  column: string;
  /** The field name users see: the column's comment when it differs from the column name. */
  field: string;
  type: FieldType;
  /** Set when a mixed field is kept as a VARIANT (see `MixedColumnType`). */
  storedAs?: 'VARIANT';
}

export interface NewColumn {
  column: string;
  field: string;
  type: FieldType;
}

export interface AppendBatch {
  table: string;
  /** The table's columns the batch was planned against (before the changes below). */
  layout: readonly StoredColumn[];
  /** Columns to add before the rows, in this order. */
  addColumns: NewColumn[];
  /** Existing columns whose type widens before the rows (see `widenFieldType`). */
  widenColumns: { column: string; type: FieldType }[];
  rowCount: number;
  /** `_time` of each row, nanoseconds since the epoch. */
  times: bigint[];
  /** `_sysTime` of every row: when the request was received. */
  sysTime: bigint;
  /** Values by column name, one per row (undefined = null); columns not named are null. */
  values: Map<string, (ColumnValue | undefined)[]>;
}

export interface AppendResult {
  /** `_rowId` of the first row; the others follow, rising. */
  firstRowId: bigint;
  /** `_rowId` of the last row (0 when none was written). */
  lastRowId: bigint;
  /** Data chunks (vectors of up to 2048 rows) written. */
  chunks: number;
}

export interface EventStore {
  /** Which engine holds the events. */
  readonly engine: 'duckdb' | 'clickhouse' | 'chdb';
  /**
   * True when every instance of the server sees the same events (a shared ClickHouse); false
   * when each instance holds its own (embedded DuckDB).
   */
  readonly shared: boolean;
  /** The SQL dialect APL compiles to for this store. */
  readonly dialect: SqlDialect;
  /** Runs statements of `dialect` for the APL engine, within their time budget. */
  readonly aplRunner: AplRunner;

  /** Whether the store can serve, and why not. */
  health(): StoreHealth;
  /**
   * The store's health for a health check: answers at once with what is known and checks in the
   * background, at most once a second, that the engine still answers.
   */
  probe(): StoreHealth;
  /** Runs after the store reopened itself (after a fatal error), once its tables are loaded. */
  onReopened(listener: () => Promise<unknown> | unknown): void;

  /** True when the table is known to exist (created or seen by this instance). */
  hasTable(table: string): boolean;
  /**
   * The table's columns as stored now, system columns first, or undefined without the table. A
   * shared store reads them afresh, so columns another instance added are never missed.
   */
  layoutOf(table: string): Promise<readonly StoredColumn[] | undefined>;
  createTable(table: string): Promise<void>;
  dropTable(table: string): Promise<void>;
  /**
   * Adds and widens columns, then appends the rows; resolves once they are stored. Throws
   * `LayoutChangedError` when the table's layout changed under the batch (another instance
   * added or widened a column the batch plans): plan again and retry.
   */
  append(batch: AppendBatch): Promise<AppendResult>;
  /** Deletes the events whose `_time` is before `olderThanNs`; returns how many. */
  deleteOlderThan(table: string, olderThanNs: bigint): Promise<number>;
  /** User columns in which no event holds a value. */
  emptyColumns(table: string): Promise<StoredColumn[]>;
  dropColumns(table: string, columns: string[]): Promise<void>;
  /**
   * Runs read-only SQL in the store's own dialect (tools, tests): 64-bit integers as bigint,
   * floats as numbers, text and JSON as strings, timestamps as Date.
   */
  query(sql: string, params?: QueryParams, options?: QueryOptions): Promise<QueryResult>;
  /** A stored column as an identifier in the store's SQL, for `query`. */
  columnIdentifier(column: string): string;
  /** Bytes in the write-ahead log (0 where the engine has none). */
  walBytes(): number;
  /** Bytes the events take on disk. */
  diskBytes(): Promise<number>;
  /** Creates the (empty) table of model prices the genai_* functions join, if missing. */
  ensurePriceTable(): Promise<void>;
  /**
   * Replaces the model prices with `rows`, those of catalog snapshot `version`, at once: a query
   * sees the previous prices or the new ones, never a mix.
   */
  installPriceTable(rows: readonly PriceTableRow[], version: number): Promise<void>;
  /** Lets writes finish and closes; call after writes and queries stop. */
  close(): Promise<void>;
}

/** The table's layout changed while a batch was planned against it; plan again. */
export class LayoutChangedError extends Error {
  constructor(table: string) {
    super(`the layout of ${table} changed while a batch was written`);
    this.name = 'LayoutChangedError';
  }
}
