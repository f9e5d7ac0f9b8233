// Opens the event side of the product on its own (SQLite registry + DuckDB store + ingest) in a
// temporary directory, for tests below the HTTP routes. Reopening the same directory is a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openRelationalStore, type SqliteRelationalStore } from '../../../src/db/store';
import { DatasetEvents } from '../../../src/ingest/dataset-events';
import type { MixedColumnType } from '../../../src/engines/duckdb/layout';
import { IngestService } from '../../../src/ingest/ingest-service';
import { type DatasetRef, FieldRegistry } from '../../../src/datasets/schema/field-registry';
import { MapFieldRegistry } from '../../../src/datasets/schema/map-field-registry';
import { DuckDBEventStore } from '../../../src/events/store/event-store';

export interface EventsHarness {
  dir: string;
  relational: SqliteRelationalStore;
  store: DuckDBEventStore;
  registry: FieldRegistry;
  events: DatasetEvents;
  ingest: IngestService;
  mapFields: MapFieldRegistry;
  /** Creates an organization (once) and a dataset row plus its table. */
  createDataset(name: string): Promise<DatasetRef>;
  /** Rows of a SQL query against the event store, as JS values. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
  /** Closes and removes the directory. */
  destroy(): Promise<void>;
}

export interface HarnessOptions {
  dir?: string;
  maxFields?: number;
  mixedColumns?: MixedColumnType;
  /** Size DuckDB's memory by the widest table instead of the fixed 128 MB. */
  memoryForWidth?: (columns: number) => number;
  /** Ingest turns (INGEST_CONCURRENCY); the service's default when unset. */
  ingestConcurrency?: number;
}

export async function openEventsHarness(options: HarnessOptions = {}): Promise<EventsHarness> {
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'eventdeck-events-'));
  const relational = await openRelationalStore(path.join(dir, 'eventdeck.db'));
  const store = await DuckDBEventStore.open(path.join(dir, 'events.duckdb'), {
    ...(options.memoryForWidth ? { memoryForWidth: options.memoryForWidth } : { memoryLimit: '128MB' }),
    ...(options.mixedColumns ? { mixedColumns: options.mixedColumns } : {}),
  });
  const registry = new FieldRegistry(relational.repository, store);
  await registry.reconcile();
  const events = new DatasetEvents(store, registry, options.maxFields ?? 1024);
  const mapFields = new MapFieldRegistry(relational.prisma, relational.repository);
  const ingest = new IngestService(events, store, mapFields, options.ingestConcurrency ? { concurrency: options.ingestConcurrency, bufferBytes: 256 * 2 ** 20 } : undefined);
  const now = new Date().toISOString();
  relational.sqlite
    .prepare(`INSERT OR IGNORE INTO organizations (id, name, updated_at) VALUES ('org-test', 'test', ?)`)
    .run(now);
  let closed = false;
  const harness: EventsHarness = {
    dir,
    relational,
    store,
    registry,
    events,
    ingest,
    mapFields,
    async createDataset(name) {
      const id = `id-${name}`;
      const tableName = `ds_${name.replaceAll('-', '_')}`;
      relational.sqlite
        .prepare(`INSERT INTO datasets (id, org_id, name, table_name, created_by, updated_at) VALUES (?, 'org-test', ?, ?, 'test', ?)`)
        .run(id, name, tableName, now);
      await events.createTable(tableName);
      return { id, name, tableName };
    },
    async rows(sql) {
      const result = await store.query(sql);
      return result.rows.map((row) => Object.fromEntries(result.columns.map((column, index) => [column.name, row[index]])));
    },
    async close() {
      if (closed) return;
      closed = true;
      await events.idle();
      await store.close();
      await relational.close();
    },
    async destroy() {
      await harness.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
