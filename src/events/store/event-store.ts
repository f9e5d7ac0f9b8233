// The embedded DuckDB event store: one table per dataset in the layout of
// `src/engines/duckdb/layout.ts`. Writes go through a small pool of write connections, one transaction per batch (schema
// changes and rows commit together, into DuckDB's write-ahead log); queries run on their own
// read connections, so a slow query never holds up ingest. Callers serialize writes to one
// table (see DatasetEvents); different tables are written side by side. The database reopens
// itself after a fatal error (see DuckDBDatabase), and the store reloads its tables then.
import { statSync } from 'node:fs';
import { type DuckDBConnection, DuckDBTimestampNanosecondsValue } from '@duckdb/node-api';
import { duckdbDialect } from '../../apl/dialect/duckdb';
import { goDurationSql } from '../../apl/dialect/duckdb/formatting';
import { registerAplFunctions } from '../../engines/duckdb/apl-runner';
import { ensurePriceTable, installPriceTable } from '../../engines/duckdb/price-table';
import type { PriceTableRow } from '../../engines/price-rows';
import type { QueryRunner as AplRunner } from '../../apl/execution/runner';
import { runnerOver } from '../../apl/execution/store-runner';
import { columnComment, columnReadSql, duckdbTypeOf, type MixedColumnType, physicalTypeOf, quoteIdentifier, quoteLiteral, readColumnComment } from '../../engines/duckdb/layout';
import { type FieldType, isMixedType } from '../../fields/types';
import { ROW_ID_FIELD, SYS_TIME_FIELD, SYSTEM_STORED_FIELDS, TIME_FIELD } from '../../fields/system-fields';
import { appendColumns, type ChunkColumn } from '../../engines/duckdb/chunk-writer';
import type { ColumnValue } from '../../engines/column-value';
import { type ConnectionLender, DuckDBDatabase, type DuckDBDatabaseOptions } from '../../engines/duckdb/database';
import { QueryRunner, type QueryOptions, type QueryParams, type QueryResult } from '../../engines/duckdb/query-runner';
import type { AppendBatch, AppendResult, EventStore, StoredColumn, StoreHealth } from './store';

/** DuckDB's settings (`memoryLimit` defaults to 1GB here), the connections, and mixed-type storage. */
export interface EventStoreOptions extends Omit<DuckDBDatabaseOptions, 'label'> {
  /** Statements the query engine keeps prepared per read connection (default 32; 0: none). */
  preparedStatements?: number;
  /**
   * The DuckDB type new mixed-type fields get (default JSON). VARIANT needs a database file
   * created in DuckDB's storage format v1.5 or later, which the store then creates new files in.
   */
  mixedColumns?: MixedColumnType;
  /**
   * Sizes DuckDB's memory by the widest table (its column count), raised as tables widen; used
   * when `memoryLimit` is not given.
   */
  memoryForWidth?: (columns: number) => number;
}

/** A byte count as a DuckDB size setting. */
const kib = (bytes: number) => `${Math.floor(bytes / 1024)}KiB`;

/** The first DuckDB storage format that holds VARIANT columns. */
const VARIANT_STORAGE_VERSION = 'v1.5.0';

const SYSTEM_COLUMNS_SQL = `${quoteIdentifier(TIME_FIELD)} TIMESTAMP_NS NOT NULL, ${quoteIdentifier(SYS_TIME_FIELD)} TIMESTAMP_NS NOT NULL, ${quoteIdentifier(ROW_ID_FIELD)} BIGINT NOT NULL`;

/**
 * The new DuckDB type of a widened column, and how old values convert so that each keeps its
 * type, as new values of the same type are written: a map's values and a mixed field's as JSON
 * of their own type (or a VARIANT of it), a timespan among them as its duration text ("1.5ms",
 * as `Timespan` writes it). Undefined when the DuckDB type stays (an array becoming mixed).
 */
function widenedTypeSql(column: StoredColumn, to: string): string | undefined {
  if (physicalTypeOf(column) === to) return undefined;
  const name = quoteIdentifier(column.column);
  const value = column.type === 'timespan' ? goDurationSql(name) : name;
  if (to === 'VARIANT') return `TYPE VARIANT USING CAST(${value} AS VARIANT)`;
  if (to === 'JSON') return `TYPE JSON USING ${column.storedAs === 'VARIANT' ? columnReadSql(column) : `to_json(${value})`}`;
  return `TYPE ${to}`;
}

/** Sets (or clears) the comment a column needs for its field name and type. */
function commentSql(table: string, column: StoredColumn): string {
  const comment = columnComment(column.column, column.field, column.type);
  return `COMMENT ON COLUMN ${table}.${quoteIdentifier(column.column)} IS ${comment === undefined ? 'NULL' : quoteLiteral(comment)}`;
}

/** Appends the rows to a table through data chunks; returns the number of chunks. */
async function appendTo(connection: DuckDBConnection, table: string, columns: ChunkColumn[], rowCount: number, catalog?: string): Promise<number> {
  const appender = await connection.createAppender(table, catalog ? 'main' : null, catalog ?? null);
  try {
    return appendColumns(appender, columns, rowCount);
  } finally {
    appender.closeSync();
  }
}

export class DuckDBEventStore implements EventStore {
  readonly engine = 'duckdb' as const;
  /** Each instance of the server has its own DuckDB. */
  readonly shared = false;
  readonly dialect = duckdbDialect;
  readonly aplRunner: AplRunner = runnerOver(this);
  private readonly tables = new Map<string, StoredColumn[]>();
  private nextRowId = 1n;
  private readonly mixedColumns: MixedColumnType;
  readonly queries: QueryRunner;
  /** Sizes DuckDB's memory by the widest table, when no fixed limit was given. */
  private memoryForWidth: ((columns: number) => number) | undefined;
  /** The memory limit set for the widest table so far (0: the one the database opened with). */
  private memorySetFor = 0;
  private database!: DuckDBDatabase;

  private constructor(
    readonly databasePath: string,
    options: EventStoreOptions,
  ) {
    this.mixedColumns = options.mixedColumns ?? 'JSON';
    this.queries = new QueryRunner((task) => this.useReader(task), options.preparedStatements);
  }

  static async open(databasePath: string, options: EventStoreOptions = {}): Promise<DuckDBEventStore> {
    const store = new DuckDBEventStore(databasePath, options);
    const { memoryForWidth } = options;
    store.memoryForWidth = options.memoryLimit === undefined ? memoryForWidth : undefined;
    store.database = await DuckDBDatabase.open(
      databasePath,
      {
        ...options,
        memoryLimit: options.memoryLimit ?? (memoryForWidth ? kib(memoryForWidth(0)) : '1GB'),
        ...(options.mixedColumns === 'VARIANT' ? { storageVersion: VARIANT_STORAGE_VERSION } : {}),
      },
      (useWriter) => store.loadTables(useWriter),
    );
    // The functions the DuckDB dialect uses that DuckDB lacks serve every connection, also after
    // a reopen.
    await store.onOpen(registerAplFunctions);
    return store;
  }

  /** Whether the store can serve, and why not. */
  health(): StoreHealth {
    return this.database.health();
  }

  /**
   * The store's health for a health check: answers at once with what is known, and checks in
   * the background, at most once a second, that the database still answers. An invalidated
   * database starts the recovery.
   */
  probe(): StoreHealth {
    return this.database.probe();
  }

  /** Registers work to run on each opened database (now, and again after every reopen). */
  onOpen(hook: (connection: DuckDBConnection) => Promise<void> | void): Promise<void> {
    return this.database.onOpen(hook);
  }

  /** Runs after each reopen, once the tables are loaded (e.g. to bring registries in step). */
  onReopened(listener: () => Promise<unknown> | unknown): void {
    this.database.onReopened(listener);
  }

  private useWriter<T>(task: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.database.useWriter(task);
  }

  private useReader<T>(task: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.database.useReader(task);
  }

  /** Reads every table's columns and the highest `_rowId`, so a restart continues where it was. */
  private async loadTables(useWriter: ConnectionLender): Promise<void> {
    this.tables.clear();
    await useWriter(async (connection) => {
      const reader = await connection.runAndReadAll(
        `SELECT table_name, column_name, data_type, comment FROM duckdb_columns()
         WHERE database_name = current_database() AND schema_name = 'main' ORDER BY table_name, column_index`,
      );
      for (const [table, column, dataType, comment] of reader.getRows() as [string, string, string, string | null][]) {
        let columns = this.tables.get(table);
        if (!columns) this.tables.set(table, (columns = []));
        columns.push({ column, ...readColumnComment(column, dataType, comment) });
      }
      // A database opened again starts from the limit it was opened with.
      this.memorySetFor = 0;
      await this.fitMemory(connection, 0);
      const tables = [...this.tables.keys()].filter((table) => this.tables.get(table)!.some((c) => c.column === ROW_ID_FIELD));
      if (tables.length === 0) return;
      const maxima = tables.map((table) => `SELECT max(${quoteIdentifier(ROW_ID_FIELD)}) AS m FROM ${quoteIdentifier(table)}`);
      const result = await connection.runAndReadAll(`SELECT max(m) FROM (${maxima.join(' UNION ALL ')})`);
      const highest = result.getRows()[0]?.[0] as bigint | null;
      if (highest !== null && highest !== undefined && highest >= this.nextRowId) this.nextRowId = highest + 1n;
    });
  }

  hasTable(table: string): boolean {
    return this.tables.has(table);
  }

  tableNames(): string[] {
    return [...this.tables.keys()];
  }

  /** The table's columns in table order (system columns first), or undefined. */
  columnsOf(table: string): readonly StoredColumn[] | undefined {
    return this.tables.get(table);
  }

  /** This process is the only writer, so the layout it keeps is the table's. */
  async layoutOf(table: string): Promise<readonly StoredColumn[] | undefined> {
    return this.tables.get(table);
  }

  async createTable(table: string): Promise<void> {
    if (this.tables.has(table)) return;
    await this.useWriter((connection) => connection.run(`CREATE TABLE IF NOT EXISTS ${quoteIdentifier(table)} (${SYSTEM_COLUMNS_SQL})`));
    this.tables.set(table, SYSTEM_STORED_FIELDS.map((field) => ({ column: field.column, field: field.name, type: field.type })));
  }

  async dropTable(table: string): Promise<void> {
    await this.useWriter((connection) => connection.run(`DROP TABLE IF EXISTS ${quoteIdentifier(table)}`));
    this.tables.delete(table);
  }

  /** Adds columns, widens columns and appends the rows in one transaction. */
  async append(batch: AppendBatch): Promise<AppendResult> {
    const current = this.tables.get(batch.table);
    if (!current) throw new Error(`no table ${batch.table} in the event store`);
    const firstRowId = this.nextRowId;
    this.nextRowId += BigInt(batch.rowCount);
    const table = quoteIdentifier(batch.table);
    return this.useWriter(async (connection) => {
      await connection.run('BEGIN TRANSACTION');
      try {
        const columns = current.map((column) => ({ ...column }));
        for (const batchColumn of batch.addColumns) {
          const added: StoredColumn = { ...batchColumn, ...this.storage(batchColumn.type) };
          await connection.run(`ALTER TABLE ${table} ADD COLUMN ${quoteIdentifier(added.column)} ${physicalTypeOf(added)}`);
          // The comment keeps a field name that is not its column name (e.g. `Status` beside
          // `status`) and a type DuckDB's does not tell (a timespan's BIGINT), so the schema can
          // always be read back from DuckDB alone.
          if (columnComment(added.column, added.field, added.type) !== undefined) await connection.run(commentSql(table, added));
          columns.push(added);
        }
        // Before the rows: the commit may checkpoint the wider table.
        if (batch.addColumns.length > 0) await this.fitMemory(connection, columns.length);
        for (const widened of batch.widenColumns) {
          const column = columns.find((c) => c.column === widened.column);
          if (!column) throw new Error(`no column ${widened.column} in ${batch.table}`);
          // A mixed field stays in the DuckDB type it has; types that share one (an array's JSON
          // becoming a map's) only change the comment.
          const storage = isMixedType(column.type) && isMixedType(widened.type) ? { storedAs: column.storedAs } : this.storage(widened.type);
          const change = widenedTypeSql(column, physicalTypeOf({ type: widened.type, ...storage }));
          if (change) await connection.run(`ALTER TABLE ${table} ALTER COLUMN ${quoteIdentifier(widened.column)} ${change}`);
          const commentBefore = columnComment(column.column, column.field, column.type);
          column.type = widened.type;
          if (storage.storedAs) column.storedAs = storage.storedAs;
          else delete column.storedAs;
          if (columnComment(column.column, column.field, column.type) !== commentBefore) await connection.run(commentSql(table, column));
        }
        let chunks = 0;
        if (batch.rowCount > 0) {
          const sysTime = new DuckDBTimestampNanosecondsValue(batch.sysTime);
          const chunkColumns: ChunkColumn[] = columns.map((column) => {
            if (column.column === TIME_FIELD) return { type: 'datetime', valueAt: (row) => new DuckDBTimestampNanosecondsValue(batch.times[row]!) };
            if (column.column === SYS_TIME_FIELD) return { type: 'datetime', valueAt: () => sysTime };
            if (column.column === ROW_ID_FIELD) return { type: 'integer', valueAt: (row) => firstRowId + BigInt(row) };
            return { type: column.type, values: batch.values.get(column.column) };
          });
          chunks = columns.some((column) => column.storedAs === 'VARIANT')
            ? await this.appendThroughStage(connection, batch.table, columns, chunkColumns, batch.rowCount)
            : await appendTo(connection, batch.table, chunkColumns, batch.rowCount);
        }
        await connection.run('COMMIT');
        // A new array only when the layout changed: readers cache by its identity.
        if (batch.addColumns.length > 0 || batch.widenColumns.length > 0) this.tables.set(batch.table, columns);
        return { firstRowId, lastRowId: batch.rowCount > 0 ? firstRowId + BigInt(batch.rowCount - 1) : 0n, chunks };
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /**
   * Raises DuckDB's memory limit to what the widest table needs (the tables known, or one about
   * to have `width` columns), when the store sizes it by width. Never lowers it.
   */
  private async fitMemory(connection: DuckDBConnection, width: number): Promise<void> {
    if (!this.memoryForWidth) return;
    let widest = width;
    for (const columns of this.tables.values()) widest = Math.max(widest, columns.length);
    if (widest <= this.memorySetFor) return;
    const bytes = this.memoryForWidth(widest);
    if (bytes > this.memoryForWidth(this.memorySetFor)) await connection.run(`SET GLOBAL memory_limit = '${kib(bytes)}'`);
    this.memorySetFor = widest;
  }

  /** How a column of this field type is kept: a mixed field as this store's mixed column type. */
  private storage(type: FieldType): { storedAs?: 'VARIANT' } {
    return isMixedType(type) && this.mixedColumns === 'VARIANT' ? { storedAs: 'VARIANT' } : {};
  }

  /**
   * Appends to a table with VARIANT columns. Data chunks cannot carry VARIANT vectors, so the rows
   * go to a temporary table of the same layout with those fields as JSON text, and from there
   * into the table in one INSERT that turns each JSON value into a VARIANT of its own type.
   */
  private async appendThroughStage(
    connection: DuckDBConnection,
    table: string,
    columns: StoredColumn[],
    chunkColumns: ChunkColumn[],
    rowCount: number,
  ): Promise<number> {
    const stage = `stage_${table}`;
    const definitions = columns.map((column) => `${quoteIdentifier(column.column)} ${duckdbTypeOf(column.type)}`);
    await connection.run(`CREATE OR REPLACE TEMP TABLE ${quoteIdentifier(stage)} (${definitions.join(', ')})`);
    try {
      const chunks = await appendTo(connection, stage, chunkColumns, rowCount, 'temp');
      const values = columns.map((column) => {
        const name = quoteIdentifier(column.column);
        return column.storedAs === 'VARIANT' ? `CAST(${name} AS VARIANT)` : name;
      });
      await connection.run(`INSERT INTO ${quoteIdentifier(table)} SELECT ${values.join(', ')} FROM temp.main.${quoteIdentifier(stage)}`);
      return chunks;
    } finally {
      await connection.run(`DROP TABLE IF EXISTS temp.main.${quoteIdentifier(stage)}`);
    }
  }

  /** Deletes the events whose `_time` is before `olderThan` (ns); returns how many. */
  async deleteOlderThan(table: string, olderThanNs: bigint): Promise<number> {
    if (!this.tables.has(table)) return 0;
    return this.useWriter(async (connection) => {
      const result = await connection.run(`DELETE FROM ${quoteIdentifier(table)} WHERE ${quoteIdentifier(TIME_FIELD)} < $1`, [
        new DuckDBTimestampNanosecondsValue(olderThanNs),
      ]);
      return result.rowsChanged;
    });
  }

  /** User columns in which no event holds a value. */
  async emptyColumns(table: string): Promise<StoredColumn[]> {
    const userColumns = (this.tables.get(table) ?? []).slice(SYSTEM_STORED_FIELDS.length);
    if (userColumns.length === 0) return [];
    const counts = userColumns.map((column, index) => `count(${quoteIdentifier(column.column)}) AS c${index}`);
    const row = await this.useWriter(async (connection) => {
      const reader = await connection.runAndReadAll(`SELECT ${counts.join(', ')} FROM ${quoteIdentifier(table)}`);
      return reader.getRows()[0] as bigint[];
    });
    return userColumns.filter((_, index) => row[index] === 0n);
  }

  async dropColumns(table: string, columns: string[]): Promise<void> {
    if (columns.length === 0) return;
    await this.useWriter(async (connection) => {
      await connection.run('BEGIN TRANSACTION');
      try {
        for (const column of columns) {
          await connection.run(`ALTER TABLE ${quoteIdentifier(table)} DROP COLUMN ${quoteIdentifier(column)}`);
        }
        await connection.run('COMMIT');
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
    const dropped = new Set(columns);
    this.tables.set(table, (this.tables.get(table) ?? []).filter((column) => !dropped.has(column.column)));
  }

  /** Runs read-only SQL for the query engine; see QueryRunner. */
  query(sql: string, params?: QueryParams, options?: QueryOptions): Promise<QueryResult> {
    return this.queries.run(sql, params, options);
  }

  /** Lends a read connection (functions registered on it serve every connection). */
  useConnection<T>(task: (connection: DuckDBConnection) => Promise<T> | T): Promise<T> {
    return this.useReader(async (connection) => task(connection));
  }

  /** The price table lives in the events database, written on a read connection. */
  async ensurePriceTable(): Promise<void> {
    await this.useConnection(ensurePriceTable);
  }

  async installPriceTable(rows: readonly PriceTableRow[]): Promise<void> {
    await this.useConnection((connection) => installPriceTable(connection, rows));
  }

  columnIdentifier(column: string): string {
    return quoteIdentifier(column);
  }

  /** Size of DuckDB's write-ahead log in bytes (0 right after a checkpoint). */
  walBytes(): number {
    try {
      return statSync(`${this.databasePath}.wal`).size;
    } catch {
      return 0;
    }
  }

  /** Size of the database file and its log, in bytes. */
  async diskBytes(): Promise<number> {
    try {
      return statSync(this.databasePath).size + this.walBytes();
    } catch {
      return 0;
    }
  }

  async checkpoint(): Promise<void> {
    await this.useWriter((connection) => connection.run('CHECKPOINT'));
  }

  /** Writes the log into the database file and closes; call after writes and queries stop. */
  close(): Promise<void> {
    return this.database.close();
  }
}
