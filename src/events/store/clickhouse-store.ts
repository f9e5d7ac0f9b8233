// The ClickHouse event store: the layout of `layout.ts` in a ClickHouse database, reached through
// an executor (a server over HTTP, or chdb embedded). Several server instances may share it, so
// nothing about a table is trusted from memory: the layout is read from `system.columns` when
// a query or a batch needs it, schema changes are idempotent (`IF NOT EXISTS`), and a batch
// planned against a layout that changed under it is planned again. Each ingest request is one
// INSERT (ClickHouse wants few, large inserts), acknowledged once ClickHouse has written it.
//
// With a cluster (`CLICKHOUSE_CLUSTER`) every statement that changes a table runs `ON CLUSTER`;
// each dataset is a ReplicatedMergeTree table `<name>_local` on every node and a Distributed
// table `<name>` over them, which queries read and inserts go to.
import { clickhouseDialect } from '../../apl/dialect/clickhouse';
import { goDurationSql } from '../../apl/dialect/clickhouse/formatting';
import { ensureClickHousePriceTable, installClickHousePriceTable } from '../../engines/clickhouse/price-table';
import { createClickHouseRunner } from '../../engines/clickhouse/apl-runner';
import type { PriceTableRow } from '../../engines/price-rows';
import type { QueryRunner as AplRunner } from '../../apl/execution/runner';
import type { FieldType } from '../../fields/types';
import { ROW_ID_FIELD, SYS_TIME_FIELD, SYSTEM_STORED_FIELDS, TIME_FIELD } from '../../fields/system-fields';
import type { AppendBatch, AppendResult, EventStore, QueryOptions, QueryParams, QueryResult, StoredColumn, StoreHealth } from './store';
import { LayoutChangedError } from './store';
import { type ClickHouseExecutor, ClickHouseError, decodeRows, insertSettings } from '../../engines/clickhouse/executor';
import {
  clickhouseTypeOf,
  columnComment,
  createTableSql,
  onCluster,
  storedTable,
  columnIdentifier,
  holdsJson,
  dateTime64Sql,
  logicalColumn,
  physicalColumn,
  dateTime64Text,
  quoteIdentifier,
  quoteLiteral,
  readColumnComment,
  SYSTEM_COLUMNS_SQL,
} from '../../engines/clickhouse/layout';
import { RowIdAllocator } from '../../engines/clickhouse/row-ids';
import { type KeptLayouts, keptLayoutsOf } from './clickhouse-layouts';
import { tabSeparated, textFor, type TsvColumn } from '../../engines/clickhouse/tsv';

export interface ClickHouseStoreOptions {
  /** `CLICKHOUSE_CLUSTER`: replicated tables and `ON CLUSTER` DDL. */
  cluster?: string | undefined;
}

/** ClickHouse error codes meaning a column the batch names is gone or of another type. */
const LAYOUT_ERRORS = new Set([16, 44, 47, 53]);

/** Settings every schema change and deletion runs with: wait until done on every replica. */
const SYNC = { alter_sync: 2, mutations_sync: 2 };

export class ClickHouseEventStore implements EventStore {
  readonly dialect = clickhouseDialect;
  readonly aplRunner: AplRunner;
  private readonly known = new Set<string>();
  /** Layouts of an engine only this process reaches (chdb), kept between statements; a shared server's are read afresh every time. */
  private readonly layouts: KeptLayouts | undefined;
  private readonly rowIds = new RowIdAllocator();
  private closing: Promise<void> | undefined;
  private healthState: StoreHealth = { state: 'ok' };
  private probing: Promise<void> | undefined;
  private lastProbeAt = 0;

  private constructor(
    /** The engine's executor, which the metrics store in the same ClickHouse shares. */
    readonly executor: ClickHouseExecutor,
    /** `CLICKHOUSE_CLUSTER`, which the metrics store's tables follow too. */
    readonly cluster: string | undefined,
  ) {
    this.aplRunner = createClickHouseRunner(executor);
    this.layouts = executor.engine === 'chdb' ? keptLayoutsOf(executor) : undefined;
  }

  get engine(): 'clickhouse' | 'chdb' {
    return this.executor.engine;
  }

  /** A ClickHouse server is shared by every instance pointed at it; chdb belongs to one process. */
  get shared(): boolean {
    return this.executor.engine === 'clickhouse';
  }

  static async open(executor: ClickHouseExecutor, options: ClickHouseStoreOptions = {}): Promise<ClickHouseEventStore> {
    const store = new ClickHouseEventStore(executor, options.cluster);
    const { rows } = await executor.query(
      `SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'ds\\_%' AND name NOT LIKE '%\\_local'`,
    );
    for (const [name] of rows as [string][]) store.known.add(name);
    return store;
  }

  /** Whether the engine answered the last probe. */
  health(): StoreHealth {
    return { ...this.healthState };
  }

  /**
   * Answers at once with what is known, and checks in the background, at most once a second,
   * that the engine answers; a server that stops answering makes the store unhealthy until it
   * answers again (each statement reaches it afresh, so nothing needs reopening).
   */
  probe(): StoreHealth {
    if (!this.closing && !this.probing && Date.now() - this.lastProbeAt >= 1000) {
      this.lastProbeAt = Date.now();
      this.probing = this.executor
        .query('SELECT 1', { settings: { max_execution_time: 10 }, signal: AbortSignal.timeout(10_000) })
        .then(
          () => {
            this.healthState = { state: 'ok' };
          },
          (error: unknown) => {
            if (this.closing) return;
            this.healthState = { state: 'failed', reason: `ClickHouse does not answer: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
          },
        )
        .finally(() => {
          this.probing = undefined;
        });
    }
    return this.health();
  }

  /** The store never reopens itself: each statement reaches the engine afresh. */
  onReopened(_listener: () => Promise<unknown> | unknown): void {}


  private get onCluster(): string {
    return onCluster(this.cluster);
  }

  /** The tables a schema change applies to: the replicated one, then the Distributed one over it. */
  private physical(table: string): string[] {
    return this.cluster ? [storedTable(table, this.cluster), table] : [table];
  }

  hasTable(table: string): boolean {
    return this.known.has(table);
  }

  async layoutOf(table: string): Promise<readonly StoredColumn[] | undefined> {
    if (!this.layouts) return this.readLayout(table);
    const kept = this.layouts.get(table);
    if (kept) {
      this.known.add(table);
      return kept;
    }
    return this.layouts.read(table, () => this.readLayout(table));
  }

  private async readLayout(table: string): Promise<readonly StoredColumn[] | undefined> {
    const { rows } = await this.executor.query(
      `SELECT name, type, comment FROM system.columns WHERE database = currentDatabase() AND table = ${quoteLiteral(table)} ORDER BY position`,
    );
    if (rows.length === 0) {
      this.known.delete(table);
      return undefined;
    }
    this.known.add(table);
    return (rows as [string, string, string][]).map(([physical, type, comment]): StoredColumn => {
      if (SYSTEM_STORED_FIELDS.some((field) => field.column === physical)) {
        return { column: physical, field: physical, type: physical === ROW_ID_FIELD ? 'integer' : 'datetime' };
      }
      const column = logicalColumn(physical);
      return { column, ...readColumnComment(column, type, comment) };
    });
  }

  /** Runs a change of the table's layout, forgetting the layout kept of it. */
  private changing<T>(table: string, run: () => Promise<T>): Promise<T> {
    return this.layouts ? this.layouts.change(table, run) : run();
  }

  async createTable(table: string): Promise<void> {
    const order = `ORDER BY (${quoteIdentifier(TIME_FIELD)}, ${quoteIdentifier(ROW_ID_FIELD)})`;
    await this.changing(table, async () => {
      for (const sql of createTableSql(table, SYSTEM_COLUMNS_SQL, 'MergeTree', order, quoteIdentifier(ROW_ID_FIELD), this.cluster)) await this.executor.command(sql);
    });
    this.known.add(table);
  }

  async dropTable(table: string): Promise<void> {
    await this.changing(table, async () => {
      for (const name of [...this.physical(table)].reverse()) {
        await this.executor.command(`DROP TABLE IF EXISTS ${quoteIdentifier(name)}${this.onCluster}`, { settings: { ...SYNC } });
      }
    });
    this.known.delete(table);
  }

  /** Runs `ALTER TABLE <table> <actions>` on every physical table. */
  private async alter(table: string, actions: string[]): Promise<void> {
    if (actions.length === 0) return;
    await this.changing(table, async () => {
      for (const name of this.physical(table)) {
        await this.executor.command(`ALTER TABLE ${quoteIdentifier(name)}${this.onCluster} ${actions.join(', ')}`, { settings: { ...SYNC } });
      }
    });
  }

  /** Rewrites every value of a column (on the replicated table; the Distributed one holds none). */
  private async rewrite(table: string, column: string, expression: string): Promise<void> {
    const name = storedTable(table, this.cluster);
    const target = columnIdentifier(column);
    await this.executor.command(`ALTER TABLE ${quoteIdentifier(name)}${this.onCluster} UPDATE ${target} = ${expression} WHERE ${target} IS NOT NULL`, {
      settings: { ...SYNC },
    });
  }

  /**
   * Widens a column. A plain CAST gives what JavaScript would write for numbers and booleans
   * ("2", "2.5", "true"), which is also their JSON text; timespans become their duration text,
   * and a column becoming JSON text (a map or mixed field) gets its strings and durations
   * quoted as JSON strings.
   */
  private async widen(table: string, column: StoredColumn, type: FieldType): Promise<void> {
    const name = columnIdentifier(column.column);
    const comment = `COMMENT COLUMN ${name} ${quoteLiteral(columnComment(column.field, type))}`;
    if (clickhouseTypeOf(column.type) !== clickhouseTypeOf(type)) await this.alter(table, [`MODIFY COLUMN ${name} ${clickhouseTypeOf(type)}`]);
    const toJson = holdsJson(type) && !holdsJson(column.type);
    if (column.type === 'timespan') {
      const duration = goDurationSql(`toInt64OrNull(${name})`);
      await this.rewrite(table, column.column, toJson ? `toJSONString(${duration})` : duration);
    } else if (column.type === 'string' && toJson) {
      await this.rewrite(table, column.column, `toJSONString(${name})`);
    }
    await this.alter(table, [comment]);
  }

  async append(batch: AppendBatch): Promise<AppendResult> {
    const table = batch.table;
    if (batch.addColumns.length > 0) {
      await this.alter(
        table,
        batch.addColumns.map(
          (added) => `ADD COLUMN IF NOT EXISTS ${columnIdentifier(added.column)} ${clickhouseTypeOf(added.type)} COMMENT ${quoteLiteral(columnComment(added.field, added.type))}`,
        ),
      );
    }
    // The layout as it is now, after this instance's changes and any another made meanwhile:
    // every column the batch writes must hold the type it was planned for, or it is planned again
    // (another instance may have added the column with another type, or widened it).
    const current = await this.layoutOf(table);
    if (!current) throw new LayoutChangedError(table);
    const now = new Map(current.map((column) => [column.column, column]));
    const planned = new Map(batch.layout.map((column) => [column.column, column.type]));
    for (const widened of batch.widenColumns) {
      const column = now.get(widened.column);
      if (!column || column.type === widened.type) continue;
      if (column.type !== planned.get(widened.column)) throw new LayoutChangedError(table);
      await this.widen(table, column, widened.type);
      now.set(widened.column, { ...column, type: widened.type });
    }
    if (batch.rowCount === 0) return { firstRowId: 0n, lastRowId: 0n, chunks: 0 };

    const typeOf = new Map<string, FieldType>(planned);
    for (const added of batch.addColumns) typeOf.set(added.column, added.type);
    for (const widened of batch.widenColumns) typeOf.set(widened.column, widened.type);
    for (const column of batch.values.keys()) {
      if (now.get(column)?.type !== typeOf.get(column)) throw new LayoutChangedError(table);
    }
    const names = [TIME_FIELD, SYS_TIME_FIELD, ROW_ID_FIELD];
    const ids = this.rowIds.allocate(batch.rowCount);
    const sysTime = dateTime64Text(batch.sysTime);
    const tsvColumns: TsvColumn[] = [
      { valueAt: (row) => dateTime64Text(batch.times[row]!) },
      { valueAt: () => sysTime },
      { valueAt: (row) => ids[row]!.toString() },
    ];
    for (const [column, values] of batch.values) {
      const type = typeOf.get(column)!;
      const text = textFor(type);
      names.push(physicalColumn(column));
      tsvColumns.push({ valueAt: (row) => (values[row] === undefined ? undefined : text(values[row]!)) });
    }
    try {
      await this.executor.insert(table, names, tabSeparated(tsvColumns, batch.rowCount), {
        settings: insertSettings(this.executor.engine, this.cluster),
      });
    } catch (error) {
      if (error instanceof ClickHouseError && LAYOUT_ERRORS.has(error.code)) {
        this.layouts?.forget(table);
        throw new LayoutChangedError(table);
      }
      throw error;
    }
    return { firstRowId: ids[0]!, lastRowId: ids[ids.length - 1]!, chunks: 1 };
  }

  async deleteOlderThan(table: string, olderThanNs: bigint): Promise<number> {
    if (!(await this.layoutOf(table))) return 0;
    const condition = `${quoteIdentifier(TIME_FIELD)} < ${dateTime64Sql(olderThanNs)}`;
    const { rows } = await this.executor.query(`SELECT count() FROM ${quoteIdentifier(table)} WHERE ${condition}`);
    const count = Number(rows[0]?.[0] ?? 0);
    if (count === 0) return 0;
    const target = storedTable(table, this.cluster);
    await this.executor.command(`DELETE FROM ${quoteIdentifier(target)}${this.onCluster} WHERE ${condition}`, { settings: { ...SYNC, lightweight_deletes_sync: 2 } });
    return count;
  }

  async emptyColumns(table: string): Promise<StoredColumn[]> {
    const userColumns = ((await this.layoutOf(table)) ?? []).slice(SYSTEM_STORED_FIELDS.length);
    if (userColumns.length === 0) return [];
    const counts = userColumns.map((column) => `count(${columnIdentifier(column.column)})`);
    const { rows } = await this.executor.query(`SELECT ${counts.join(', ')} FROM ${quoteIdentifier(table)}`);
    const row = rows[0] ?? [];
    return userColumns.filter((_, index) => Number(row[index]) === 0);
  }

  async dropColumns(table: string, columns: string[]): Promise<void> {
    await this.alter(
      table,
      columns.map((column) => `DROP COLUMN IF EXISTS ${columnIdentifier(column)}`),
    );
  }

  async query(sql: string, params?: QueryParams, options: QueryOptions = {}): Promise<QueryResult> {
    if (params && (Array.isArray(params) ? params.length > 0 : Object.keys(params).length > 0)) {
      throw new Error('the ClickHouse store takes no statement parameters');
    }
    const result = await this.executor.query(sql, {
      ...(options.timeoutMs !== undefined ? { settings: { max_execution_time: options.timeoutMs / 1000 } } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const rows = decodeRows(result, options.rowValues === 'duckdb' ? 'nanos' : 'date');
    return { columns: result.columns, rows };
  }

  ensurePriceTable(): Promise<void> {
    return ensureClickHousePriceTable(this.executor);
  }

  /** Instances sharing the server may install the same snapshot: the table keeps the newest. */
  async installPriceTable(rows: readonly PriceTableRow[], version: number): Promise<void> {
    await installClickHousePriceTable(this.executor, rows, version);
  }

  columnIdentifier(column: string): string {
    return columnIdentifier(column);
  }

  walBytes(): number {
    return 0;
  }

  async diskBytes(): Promise<number> {
    const { rows } = await this.executor.query(
      `SELECT sum(bytes_on_disk) FROM system.parts WHERE database = currentDatabase() AND active AND table LIKE 'ds\\_%'`,
    );
    return Number(rows[0]?.[0] ?? 0);
  }

  close(): Promise<void> {
    this.closing ??= this.executor.close();
    return this.closing;
  }
}
