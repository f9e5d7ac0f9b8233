// The embedded DuckDB event store: one table per dataset in the layout of `../layout.ts`.
// Writes go through a small pool of write connections, one transaction per batch (schema
// changes and rows commit together, into DuckDB's write-ahead log); queries run on their own
// read connections, so a slow query never holds up ingest. Callers serialize writes to one
// table (see DatasetEvents); different tables are written side by side.
//
// DuckDB invalidates a database after a fatal error (a checkpoint that fails, a commit that
// cannot complete): every later statement fails until the database is opened again. The store
// notices such errors, reports itself unhealthy, waits for the statements in flight, and opens
// the database again; DuckDB replays its write-ahead log, so every acknowledged write is back.
// Statements issued meanwhile wait for the reopened database.
import { statSync } from 'node:fs';
import { type DuckDBConnection, type DuckDBInstance, DuckDBTimestampNanosecondsValue } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { duckdbDialect } from '../../apl/dialect/duckdb';
import { goDurationSql } from '../../apl/dialect/duckdb/formatting';
import { registerAplFunctions } from '../../apl/execution/duckdb-runner';
import { ensurePriceTable, installPriceTable, type PriceTableRow } from '../../apl/execution/price-table';
import type { QueryRunner as AplRunner } from '../../apl/execution/runner';
import { runnerOver } from '../../apl/execution/store-runner';
import { unavailable } from '../../errors';
import {
  columnComment,
  columnReadSql,
  duckdbTypeOf,
  type FieldType,
  isMixedType,
  type MixedColumnType,
  physicalTypeOf,
  quoteIdentifier,
  quoteLiteral,
  readColumnComment,
  ROW_ID_FIELD,
  SYS_TIME_FIELD,
  SYSTEM_STORED_FIELDS,
  TIME_FIELD,
} from '../layout';
import { appendColumns, type ChunkColumn, type ColumnValue } from './chunk-writer';
import { ConnectionPool } from './connection-pool';
import { type DuckDBOptions, openDuckDB } from './instance';
import { QueryRunner, type QueryOptions, type QueryParams, type QueryResult } from './query-runner';
import type { EventStore } from './store';

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
  /** Data chunks (vectors of up to 2048 rows) written. */
  chunks: number;
}

/** DuckDB's settings (`memoryLimit` defaults to 1GB here), the connections, and mixed-type storage. */
export interface EventStoreOptions extends DuckDBOptions {
  writeConnections?: number;
  readConnections?: number;
  /** Statements the query engine keeps prepared per read connection (default 32; 0: none). */
  preparedStatements?: number;
  logger?: Logger;
  /**
   * The DuckDB type new mixed-type fields get (default JSON). VARIANT needs a database file
   * created in DuckDB's storage format v1.5 or later, which the store then creates new files in.
   */
  mixedColumns?: MixedColumnType;
}

export interface StoreHealth {
  state: 'ok' | 'recovering' | 'failed';
  /** Why the store is not ok: the fatal error it is recovering from. */
  reason?: string;
}

/** One opened database with its connections; replaced whole when the store reopens. */
interface Generation {
  instance: DuckDBInstance;
  writers: ConnectionPool;
  readers: ConnectionPool;
  /** A connection of its own for health probes, so a probe never waits behind queries. */
  probe?: DuckDBConnection;
}

/**
 * Errors after which DuckDB's in-memory state cannot be trusted: fatal and internal errors
 * invalidate the database, and a commit that fails half-way (e.g. out of memory while
 * checkpointing) can leave it inconsistent.
 */
export function isFatalStoreError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /^(FATAL|INTERNAL) Error|database has been invalidated|Failed to commit/.test(message);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

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
  private closing: Promise<void> | undefined;
  private generation: Generation;
  private recovery: Promise<void> | undefined;
  private healthState: StoreHealth = { state: 'ok' };
  /** Run on every opened database (functions registered on a connection serve the instance). */
  private readonly openHooks: ((connection: DuckDBConnection) => Promise<void> | void)[] = [];
  private readonly reopenListeners: (() => Promise<unknown> | unknown)[] = [];
  private probing: Promise<void> | undefined;
  private healthChanged = signal();
  private lastProbeAt = 0;
  private readonly mixedColumns: MixedColumnType;
  readonly queries: QueryRunner;

  private constructor(
    generation: Generation,
    readonly databasePath: string,
    private readonly options: EventStoreOptions,
  ) {
    this.generation = generation;
    this.mixedColumns = options.mixedColumns ?? 'JSON';
    this.queries = new QueryRunner((task) => this.useReader(task), options.preparedStatements);
  }

  static async open(databasePath: string, options: EventStoreOptions = {}): Promise<DuckDBEventStore> {
    const store = new DuckDBEventStore(await DuckDBEventStore.openGeneration(databasePath, options), databasePath, options);
    await store.loadTables();
    // The functions the DuckDB dialect uses that DuckDB lacks serve every connection, also after
    // a reopen.
    await store.onOpen(registerAplFunctions);
    return store;
  }

  private static async openGeneration(databasePath: string, options: EventStoreOptions): Promise<Generation> {
    const instance = await openDuckDB(databasePath, {
      ...options,
      memoryLimit: options.memoryLimit ?? '1GB',
      ...(options.mixedColumns === 'VARIANT' ? { storageVersion: VARIANT_STORAGE_VERSION } : {}),
    });
    return {
      instance,
      writers: new ConnectionPool(instance, options.writeConnections ?? 4),
      readers: new ConnectionPool(instance, options.readConnections ?? 4),
    };
  }

  /** Whether the store can serve, and why not. */
  health(): StoreHealth {
    return { ...this.healthState };
  }

  /**
   * The store's health for a health check: answers at once with what is known, and checks in
   * the background, at most once a second, that the database still answers (on a connection of
   * its own, so a check never waits behind queries). An invalidated database starts the recovery.
   */
  probe(): StoreHealth {
    if (this.healthState.state === 'ok' && !this.closing && !this.probing && Date.now() - this.lastProbeAt >= 1000) {
      this.lastProbeAt = Date.now();
      this.probing = this.probeGeneration(this.generation).finally(() => {
        this.probing = undefined;
      });
    }
    return this.health();
  }

  private async probeGeneration(generation: Generation): Promise<void> {
    try {
      generation.probe ??= await generation.instance.connect();
      await generation.probe.run('SELECT 1');
    } catch (error) {
      if (isFatalStoreError(error)) void this.recover(generation, error instanceof Error ? error.message.split('\n')[0]! : String(error));
    }
  }

  /** Registers work to run on each opened database (now, and again after every reopen). */
  async onOpen(hook: (connection: DuckDBConnection) => Promise<void> | void): Promise<void> {
    this.openHooks.push(hook);
    await this.useReader(async (connection) => hook(connection));
  }

  /** Runs after each reopen, once the tables are loaded (e.g. to bring registries in step). */
  onReopened(listener: () => Promise<unknown> | unknown): void {
    this.reopenListeners.push(listener);
  }

  private setHealth(health: StoreHealth): void {
    this.healthState = health;
    const changed = this.healthChanged;
    this.healthChanged = signal();
    changed.resolve();
  }

  /** Waits while the store reopens; refuses when it could not (it keeps retrying meanwhile). */
  private async ready(): Promise<Generation> {
    while (this.healthState.state === 'recovering') await this.healthChanged.promise;
    if (this.closing) throw new Error('the event store is closed');
    if (this.healthState.state === 'failed') {
      throw unavailable(`the event store is unavailable: ${this.healthState.reason ?? 'it could not be opened'}; retry later`);
    }
    return this.generation;
  }

  private async useWriter<T>(task: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.watched(await this.ready(), (generation) => generation.writers.use(task));
  }

  private async useReader<T>(task: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.watched(await this.ready(), (generation) => generation.readers.use(task));
  }

  /** Runs work on a generation; a fatal error starts the recovery and reads as "unavailable". */
  private async watched<T>(generation: Generation, work: (generation: Generation) => Promise<T>): Promise<T> {
    try {
      return await work(generation);
    } catch (error) {
      if (this.closing) throw error;
      if (isFatalStoreError(error)) {
        void this.recover(generation, error instanceof Error ? error.message.split('\n')[0]! : String(error));
        throw unavailable('the event store hit a fatal error and is reopening; this request was not acknowledged, retry shortly');
      }
      // Statements interrupted by a recovery fail on their own; say why.
      if (generation !== this.generation || this.recovery) throw unavailable('the event store is reopening; retry shortly');
      throw error;
    }
  }

  /**
   * Reopens the database after a fatal error: stops the statements in flight, waits for every
   * connection to come back, closes the old instance and opens the file again (DuckDB replays
   * its write-ahead log), then reloads the tables and runs the open hooks. Retries with backoff
   * while the file cannot be opened.
   */
  private recover(failed: Generation, reason: string): Promise<void> {
    if (failed !== this.generation || this.closing) return this.recovery ?? Promise.resolve();
    this.recovery ??= (async () => {
      this.setHealth({ state: 'recovering', reason });
      this.options.logger?.error({ reason }, 'the event store hit a fatal error; reopening it');
      const closed = Promise.all([failed.readers.close(), failed.writers.close()]);
      // Statements still running on the invalidated database are stopped, until all are back.
      let done = false;
      void closed.then(() => (done = true));
      while (!done) {
        failed.readers.interruptAll();
        failed.writers.interruptAll();
        await Promise.race([closed, sleep(250)]);
      }
      await this.probing;
      failed.probe?.closeSync();
      failed.instance.closeSync();
      for (let attempt = 0; !this.closing; attempt++) {
        try {
          this.generation = await DuckDBEventStore.openGeneration(this.databasePath, this.options);
          await this.loadTables();
          for (const hook of this.openHooks) await this.generation.readers.use(async (connection) => hook(connection));
          this.setHealth({ state: 'ok' });
          this.options.logger?.warn('the event store was reopened');
          for (const listener of this.reopenListeners) {
            await Promise.resolve(listener()).catch((error: unknown) => this.options.logger?.error({ err: error }, 'after reopening the event store'));
          }
          return;
        } catch (error) {
          this.setHealth({ state: 'failed', reason: `${reason}; reopening failed: ${(error as Error).message.split('\n')[0]}` });
          this.options.logger?.error({ err: error }, 'could not reopen the event store; retrying');
          await sleep(Math.min(30_000, 500 * 2 ** attempt));
        }
      }
    })().finally(() => {
      this.recovery = undefined;
    });
    return this.recovery;
  }

  /** Reads every table's columns and the highest `_rowId`, so a restart continues where it was. */
  private async loadTables(): Promise<void> {
    this.tables.clear();
    await this.generation.writers.use(async (connection) => {
      const reader = await connection.runAndReadAll(
        `SELECT table_name, column_name, data_type, comment FROM duckdb_columns()
         WHERE database_name = current_database() AND schema_name = 'main' ORDER BY table_name, column_index`,
      );
      for (const [table, column, dataType, comment] of reader.getRows() as [string, string, string, string | null][]) {
        let columns = this.tables.get(table);
        if (!columns) this.tables.set(table, (columns = []));
        columns.push({ column, ...readColumnComment(column, dataType, comment) });
      }
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
        return { firstRowId, chunks };
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
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
    this.closing ??= (async () => {
      await this.recovery;
      const { instance, readers, writers } = this.generation;
      try {
        if (this.healthState.state === 'ok') await writers.use((connection) => connection.run('CHECKPOINT'));
      } finally {
        await Promise.all([readers.close(), writers.close()]);
        await this.probing;
        this.generation.probe?.closeSync();
        instance.closeSync();
      }
    })();
    return this.closing;
  }
}
