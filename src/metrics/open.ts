// Opens the metrics side of the domain: the embedded metrics store (its own DuckDB file beside
// the events), the dataset storage that creates and drops metrics datasets' tables, and the
// metrics service the doors call.
import type { Config } from '../config';
import type { DatasetService, DatasetStorage } from '../events/datasets';
import type { IngestService } from '../events/ingest/ingest-service';
import { MetricsService } from './service';
import { MetricsStore } from './store/metrics-store';

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

export async function openMetricsStore(config: Config): Promise<MetricsStore> {
  return MetricsStore.open(config.metricsDuckdbPath);
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
