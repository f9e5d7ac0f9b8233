// Opens the event side of the domain: the DuckDB store, the field registry (brought in step
// with the store), the per-dataset writer and the ingest service.
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { RelationalStore } from '../db/store';
import { DatasetEvents } from './dataset-events';
import { IngestService } from './ingest/ingest-service';
import { FieldRegistry } from './schema/field-registry';
import { MapFieldRegistry } from './schema/map-field-registry';
import { EventStore } from './store/event-store';

export interface EventServices {
  eventStore: EventStore;
  fields: FieldRegistry;
  datasetEvents: DatasetEvents;
  ingest: IngestService;
  mapFieldRegistry: MapFieldRegistry;
}

export async function openEventServices(config: Config, relational: RelationalStore, logger: Logger): Promise<EventServices> {
  const eventStore = await EventStore.open(config.duckdbPath, {
    memoryLimit: `${Math.floor(config.duckdb.memoryLimitBytes / 1024)}KiB`,
    tempDirectory: config.duckdb.tempDirectory,
    ...(config.duckdb.maxTempDirectoryBytes ? { maxTempDirectorySize: `${Math.floor(config.duckdb.maxTempDirectoryBytes / 1024)}KiB` } : {}),
    preparedStatements: config.queryPreparedStatements,
    logger,
  });
  const fields = new FieldRegistry(relational.repository, eventStore);
  // This DuckDB holds only the events ingested through this instance; when other instances
  // share the relational store, their tables hold fields this one has never seen.
  const reconcile = async () => {
    const repaired = await fields.reconcile({ addOnly: relational.shared });
    if (repaired > 0) logger.warn({ rows: repaired }, 'brought the field registry back in step with the event store');
  };
  await reconcile();
  // A reopened store (after a fatal error) is brought in step again.
  eventStore.onReopened(reconcile);
  const datasetEvents = new DatasetEvents(eventStore, fields, config.maxFieldsPerDataset, logger);
  const mapFieldRegistry = new MapFieldRegistry(relational.prisma, relational.repository);
  const ingest = new IngestService(datasetEvents, eventStore, mapFieldRegistry, { concurrency: config.ingest.concurrency, bufferBytes: config.ingest.bufferBytes });
  return { eventStore, fields, datasetEvents, ingest, mapFieldRegistry };
}

/** Lets queued writes finish, then checkpoints and closes the store. */
export async function closeEventServices(services: EventServices): Promise<void> {
  await services.datasetEvents.idle();
  await services.eventStore.close();
}
