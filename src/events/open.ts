// Opens the event side of the domain: the configured event store (DuckDB embedded, a ClickHouse
// server, or ClickHouse embedded through chdb), the field registry (brought in step with the
// store), the per-dataset writer and the ingest service.
import type { Logger } from 'pino';
import { type Config, duckDBMemoryForWidth } from '../config';
import type { RelationalStore } from '../db/store';
import { DatasetEvents } from '../ingest/dataset-events';
import { IngestService } from '../ingest/ingest-service';
import { FieldRegistry } from '../datasets/schema/field-registry';
import { MapFieldRegistry } from '../datasets/schema/map-field-registry';
import { CLICKHOUSE_QUERY_SETTINGS } from '../apl/dialect/clickhouse';
import { ChdbExecutor } from '../engines/clickhouse/chdb-executor';
import { ClickHouseEventStore } from './store/clickhouse-store';
import { DuckDBEventStore } from './store/event-store';
import type { EventStore } from './store/store';

export interface EventServices {
  eventStore: EventStore;
  fields: FieldRegistry;
  datasetEvents: DatasetEvents;
  ingest: IngestService;
  mapFieldRegistry: MapFieldRegistry;
}

export async function openEventServices(config: Config, relational: RelationalStore, logger: Logger): Promise<EventServices> {
  const eventStore = await openEventStore(config, logger);
  const fields = new FieldRegistry(relational.repository, eventStore);
  // An embedded store holds only the events ingested through this instance; when other
  // instances share the relational store, their tables hold fields this one has never seen.
  const reconcile = async () => {
    const repaired = await fields.reconcile({ addOnly: relational.shared && !eventStore.shared });
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

/** The event store `EVENT_STORE` names. */
export async function openEventStore(config: Pick<Config, 'eventStore' | 'duckdb' | 'queryPreparedStatements'>, logger?: Logger): Promise<EventStore> {
  const location = config.eventStore;
  switch (location.engine) {
    case 'duckdb':
      return DuckDBEventStore.open(location.path, {
        ...(config.duckdb.memoryLimitBytes !== undefined ? { memoryLimit: `${Math.floor(config.duckdb.memoryLimitBytes / 1024)}KiB` } : { memoryForWidth: duckDBMemoryForWidth }),
        tempDirectory: config.duckdb.tempDirectory,
        ...(config.duckdb.maxTempDirectoryBytes ? { maxTempDirectorySize: `${Math.floor(config.duckdb.maxTempDirectoryBytes / 1024)}KiB` } : {}),
        preparedStatements: config.queryPreparedStatements,
        logger,
      });
    case 'clickhouse': {
      // The ClickHouse HTTP client is loaded only where the store is a ClickHouse server.
      const { HttpExecutor } = await import('../engines/clickhouse/http-executor');
      return ClickHouseEventStore.open(HttpExecutor.open(location.url, CLICKHOUSE_DEFAULTS), { cluster: location.cluster });
    }
    case 'chdb':
      return ClickHouseEventStore.open(await ChdbExecutor.open(location.path, CLICKHOUSE_DEFAULTS));
  }
}

/** Settings every statement of the ClickHouse store runs with. */
const CLICKHOUSE_DEFAULTS = {
  ...CLICKHOUSE_QUERY_SETTINGS,
  // Schema changes and mutations return once done everywhere, so the next statement sees them.
  alter_sync: 2,
  mutations_sync: 2,
};

/** Lets queued writes finish, then checkpoints and closes the store. */
export async function closeEventServices(services: EventServices): Promise<void> {
  await services.datasetEvents.idle();
  await services.eventStore.close();
}
