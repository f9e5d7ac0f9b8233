// Opens the metrics side of the domain: the metrics store (its own DuckDB file beside the
// events by default; with events in ClickHouse, tables in that same ClickHouse, reached through
// the event store's executor, so every instance sharing it sees the same metrics), the dataset
// storage that creates and drops metrics datasets' tables, and the metrics service the doors call.
import type { Config } from '../config';
import { ClickHouseEventStore } from '../events/store/clickhouse-store';
import type { DatasetService, DatasetStorage } from '../datasets/datasets';
import type { IngestService } from '../ingest/ingest-service';
import type { EventStore } from '../events/store/store';
import { MetricsService } from './service';
import { ClickHouseMetricsStore } from './store/clickhouse/clickhouse-metrics-store';
import { DuckDBMetricsStore } from './store/metrics-store';
import type { MetricsStore } from './store/store';

/** Creates, drops, trims and vacuums the tables of metrics datasets. */
export function metricsDatasetStorage(store: MetricsStore): DatasetStorage {
  return {
    createTable: (table) => store.createDataset(table),
    // A dataset created through another instance sharing the relational store gets its tables here.
    ensureTable: async (dataset) => {
      if (!store.hasDataset(dataset.tableName)) await store.createDataset(dataset.tableName);
    },
    dropTable: (_datasetId, table) => store.dropDataset(table),
    trim: (_datasetId, table, olderThan) => store.trim(table, olderThan),
    // Metrics have tags, not fields: vacuum forgets series without points and reports no fields.
    vacuum: async (_datasetId, table) => {
      await store.vacuum(table);
      return [];
    },
  };
}

/** The metrics store beside the configured event store: in the same ClickHouse, or in DuckDB. */
export async function openMetricsStore(config: Config, events: EventStore): Promise<MetricsStore> {
  if (events instanceof ClickHouseEventStore) return ClickHouseMetricsStore.open(events.executor, { cluster: events.cluster });
  return DuckDBMetricsStore.open(config.metricsDuckdbPath);
}

export function createMetricsService(config: Config, datasets: DatasetService, store: MetricsStore, ingest: Pick<IngestService, 'decode' | 'inTurn'>): MetricsService {
  return new MetricsService(datasets, store, {
    queryTimeoutMs: config.queryTimeoutMs,
    maxQueryBytes: config.apl.maxQueryBytes,
    maxResultBytes: config.queryMaxResultBytes,
    decode: (request) => ingest.decode(request),
    inTurn: (caller, work) => ingest.inTurn(caller, work),
  });
}
