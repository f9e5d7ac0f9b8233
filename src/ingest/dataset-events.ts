// Everything that writes a dataset's events, one operation at a time per dataset: appending a
// batch (with the schema changes it brings), trimming, vacuuming, creating and dropping the
// table. Serializing per dataset keeps schema evolution free of races; different datasets
// are written side by side, and queries never wait for any of it.
import type { Logger } from 'pino';
import { notFound } from '../errors';
import type { PreparedBatch } from './prepare';
import { requireEventsDataset } from '../datasets/datasets';
import { KeyedLock } from '../lib/keyed-lock';
import { SYSTEM_STORED_FIELDS } from '../fields/system-fields';
import type { DatasetRef, FieldRegistry } from '../datasets/schema/field-registry';
import { mergeBatches, splitOutcome } from './merge-batches';
import { planSchema } from './schema-plan';
import { type EventStore, LayoutChangedError } from '../events/store/store';

export interface WriteOutcome {
  /** Events stored. */
  ingested: number;
  /** The `_rowId`s they were given: every id between the two belongs to this write alone. */
  firstRowId: bigint;
  lastRowId: bigint;
  /** Rows of the batch refused by the field limit, with the reason. */
  rejected: Map<number, string>;
  /** Data chunks written. */
  chunks: number;
}

/** One committed write of a dataset: its events' `_rowId`s rise from `firstRowId` to `lastRowId`. */
export interface WrittenRows {
  firstRowId: bigint;
  lastRowId: bigint;
  /** Events written. */
  count: number;
}

/** A batch waiting for its dataset, and who to tell how its write went. */
interface WaitingWrite {
  batch: PreparedBatch;
  receivedNs: bigint;
  resolve: (outcome: WriteOutcome) => void;
  reject: (error: unknown) => void;
}

/** Batches of one dataset that will be written together, and their rows. */
interface WriteGroup {
  entries: WaitingWrite[];
  rows: number;
}

/** Most rows written together in one transaction (a single larger batch still goes alone). */
const MAX_ROWS_PER_GROUP = 50_000;

export class DatasetEvents {
  private readonly lock = new KeyedLock();
  /** Per table: the batches waiting for the write after the running one. */
  private readonly waiting = new Map<string, WriteGroup>();
  /** Told after events are committed (the live tail): synchronous, must not throw or wait. */
  private readonly writeListeners: ((dataset: DatasetRef, written: WrittenRows) => void)[] = [];

  constructor(
    private readonly store: EventStore,
    private readonly registry: FieldRegistry,
    private readonly maxFieldsPerDataset: number,
    private readonly logger?: Logger,
  ) {}

  async createTable(table: string): Promise<void> {
    await this.lock.run(table, () => this.store.createTable(table));
  }

  /**
   * Creates the table of a dataset registered through another instance (several instances may
   * share the relational store while each has its own event store); a dataset that is no longer
   * registered is refused as not found. Costs nothing when the table exists.
   */
  async ensureTable(dataset: DatasetRef): Promise<void> {
    if (this.store.hasTable(dataset.tableName)) return;
    await this.lock.run(dataset.tableName, () => this.createMissingTable(dataset));
  }

  private async createMissingTable(dataset: DatasetRef): Promise<void> {
    if (this.store.hasTable(dataset.tableName)) return;
    if (!(await this.registry.isRegistered(dataset.id))) throw notFound(`dataset "${dataset.name}" not found`);
    await this.store.createTable(dataset.tableName);
  }

  async dropTable(_datasetId: string, table: string): Promise<void> {
    await this.lock.run(table, async () => {
      await this.store.dropTable(table);
      this.registry.forget(table);
    });
  }

  /** Deletes events whose `_time` is before `olderThan`; returns how many. */
  trim(_datasetId: string, table: string, olderThan: Date): Promise<number> {
    const ns = BigInt(olderThan.getTime()) * 1_000_000n;
    return this.lock.run(table, () => this.store.deleteOlderThan(table, ns));
  }

  /** Drops the fields no event holds any more (e.g. after a trim); returns their names. */
  vacuum(datasetId: string, table: string): Promise<string[]> {
    return this.lock.run(table, async () => {
      const empty = await this.store.emptyColumns(table);
      await this.store.dropColumns(
        table,
        empty.map((column) => column.column),
      );
      const names = empty.map((column) => column.field);
      await this.registry.removeFields(datasetId, names);
      return names;
    });
  }

  /**
   * Calls `listener` after each write that stored events, while the dataset's lock is held: so
   * a dataset's writes are told in the order of their ids.
   */
  onWritten(listener: (dataset: DatasetRef, written: WrittenRows) => void): void {
    this.writeListeners.push(listener);
  }

  /**
   * Stores a prepared batch in one transaction; events past the field limit fail alone. Batches
   * that wait for the dataset while another write runs are written together, in one transaction,
   * when it is done (each told its own outcome); should that shared write fail, each is written
   * alone, so one batch cannot fail another.
   */
  write(dataset: DatasetRef, batch: PreparedBatch, receivedNs: bigint): Promise<WriteOutcome> {
    requireEventsDataset(dataset);
    return new Promise<WriteOutcome>((resolve, reject) => {
      const table = dataset.tableName;
      const entry: WaitingWrite = { batch, receivedNs, resolve, reject };
      const group = this.waiting.get(table);
      if (group && group.rows + batch.rowCount <= MAX_ROWS_PER_GROUP) {
        group.entries.push(entry);
        group.rows += batch.rowCount;
        return;
      }
      const fresh: WriteGroup = { entries: [entry], rows: batch.rowCount };
      this.waiting.set(table, fresh);
      this.lock
        .run(table, async () => {
          // Batches that come from now on wait for the next write.
          if (this.waiting.get(table) === fresh) this.waiting.delete(table);
          await this.writeGroup(dataset, fresh.entries);
        })
        // writeGroup tells every batch; this only catches a fault of its own.
        .catch((error: unknown) => fresh.entries.forEach((waiting) => waiting.reject(error)));
    });
  }

  private async writeGroup(dataset: DatasetRef, entries: WaitingWrite[]): Promise<void> {
    if (entries.length > 1) {
      const batches = entries.map((entry) => entry.batch);
      const merged = mergeBatches(batches);
      const receivedNs = entries.reduce((latest, entry) => (entry.receivedNs > latest ? entry.receivedNs : latest), 0n);
      try {
        const outcomes = splitOutcome(await this.writeAndTell(dataset, merged.batch, receivedNs), merged, batches);
        entries.forEach((entry, index) => entry.resolve(outcomes[index]!));
        return;
      } catch (error) {
        this.logger?.warn({ err: error, dataset: dataset.name, batches: entries.length }, 'a shared write of several batches failed; writing each alone');
      }
    }
    for (const entry of entries) {
      try {
        entry.resolve(await this.writeAndTell(dataset, entry.batch, entry.receivedNs));
      } catch (error) {
        entry.reject(error);
      }
    }
  }

  /** One transaction, told to the listeners once committed; planned again if another instance changed the layout. */
  private async writeAndTell(dataset: DatasetRef, batch: PreparedBatch, receivedNs: bigint): Promise<WriteOutcome> {
    // Another instance sharing the store may change the table's layout between planning and
    // writing (the lock is per instance); the store notices and the batch is planned again.
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await this.writeOnce(dataset, batch, receivedNs);
        if (outcome.ingested > 0) {
          const written = { firstRowId: outcome.firstRowId, lastRowId: outcome.lastRowId, count: outcome.ingested };
          for (const listener of this.writeListeners) listener(dataset, written);
        }
        return outcome;
      } catch (error) {
        if (!(error instanceof LayoutChangedError) || attempt >= 5) throw error;
      }
    }
  }

  private async writeOnce(dataset: DatasetRef, batch: PreparedBatch, receivedNs: bigint): Promise<WriteOutcome> {
    const table = dataset.tableName;
    // The caller resolved the dataset with its table in place; without it the dataset was
    // deleted while this request was on its way.
    const columns = await this.store.layoutOf(table);
    if (!columns) throw notFound(`dataset "${dataset.name}" not found`);
    const userFieldCount = columns.slice(SYSTEM_STORED_FIELDS.length).filter((column) => column.type !== 'map').length;
    const plan = planSchema(columns, userFieldCount, batch, this.maxFieldsPerDataset);
    if (plan.rowCount === 0) return { ingested: 0, firstRowId: 0n, lastRowId: 0n, rejected: plan.rejected, chunks: 0 };
    const result = await this.store.append({
      table,
      layout: columns,
      addColumns: plan.added,
      widenColumns: plan.widened,
      rowCount: plan.rowCount,
      times: plan.times,
      sysTime: receivedNs,
      values: new Map(plan.columns.map(({ column, field }) => [column, field.values])),
    });
    const changed = [
      ...plan.added,
      ...plan.widened.map(({ column, type }) => ({ column, type, field: columns.find((c) => c.column === column)!.field })),
    ];
    try {
      await this.registry.recordFields(dataset.id, changed);
    } catch (error) {
      // The events are committed; the registry rows catch up at the next start.
      this.logger?.warn({ err: error, dataset: dataset.name }, 'could not record new fields in the registry');
    }
    return { ingested: plan.rowCount, firstRowId: result.firstRowId, lastRowId: result.lastRowId, rejected: plan.rejected, chunks: result.chunks };
  }

  /** Resolves once every queued write has settled (for shutdown). */
  idle(): Promise<void> {
    return this.lock.idle();
  }
}
