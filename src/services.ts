// The composition root of the domain: builds every service once, in dependency order.
// REST routes and GraphQL resolvers receive this object and call the same functions.
import type { Logger } from 'pino';
import { AnnotationService } from './annotations/service';
import { ensureAdminIdentity } from './auth/bootstrap';
import { AuthService } from './auth/service';
import { CatalogRefresher } from './catalog/refresh';
import { type CatalogService, createCatalogService } from './catalog/service';
import type { Config } from './config';
import { DashboardService } from './dashboards/service';
import type { RelationalStore } from './db/store';
import { CatalogPriceTable } from './events/catalog-prices';
import { DatasetService } from './datasets/datasets';
import { LiveTailService } from './live-tail/service';
import { LlmUsageService } from './queries/llm-usage';
import { MapFieldService, mapFieldsInFieldList } from './datasets/map-fields';
import { closeEventServices, type EventServices, openEventServices } from './events/open';
import { QueryService } from './queries/query-service';
import { RetentionSweeper } from './datasets/retention';
import { ViewService } from './datasets/views';
import { VirtualFieldService, virtualFieldsInFieldList } from './datasets/virtual-fields';
import { IdentityService } from './identity/service';
import { createMetricsService, metricsDatasetStorage, openMetricsStore } from './metrics/open';
import type { MetricsService } from './metrics/service';
import type { Clock } from './monitors/clock';
import { leaseLeadership } from './monitors/leadership';
import { Monitoring } from './monitors/service';
import { ShipperService } from './shippers/service';
import { StarredQueryService } from './starred-queries/service';

export interface Services extends EventServices {
  config: Config;
  logger: Logger;
  store: RelationalStore;
  auth: AuthService;
  /** Organizations, members, custom roles, groups, provisioned organizations. */
  identity: IdentityService;
  annotations: AnnotationService;
  starredQueries: StarredQueryService;
  dashboards: DashboardService;
  catalog: CatalogService;
  datasets: DatasetService;
  mapFields: MapFieldService;
  virtualFields: VirtualFieldService;
  views: ViewService;
  retention: RetentionSweeper;
  queries: QueryService;
  monitoring: Monitoring;
  shippers: ShipperService;
  /** The catalog's prices in the events database. */
  prices: CatalogPriceTable;
  catalogRefresh: CatalogRefresher;
  llmUsage: LlmUsageService;
  metrics: MetricsService;
  /** Streams of new events (GraphQL subscription `liveEvents`), woken by every ingest door. */
  liveTail: LiveTailService;
}

export interface ServiceOptions {
  /** The time monitors run on (the system clock unless given): tests move it by hand. */
  monitorClock?: Clock;
}

export async function createServices(config: Config, logger: Logger, store: RelationalStore, options: ServiceOptions = {}): Promise<Services> {
  // Instances starting together over one store bootstrap it once: the first creates the admin
  // identity and imports the catalog, the others find both.
  const { admin, catalog } = await store.exclusive('startup', async () => {
    const admin = await ensureAdminIdentity(store.prisma, config.adminToken, config.signIn.adminPassword);
    const catalog = await createCatalogService(store, logger, config.catalogSource);
    return { admin, catalog };
  });
  if (admin.generatedToken) announceAdminToken(admin.generatedToken, admin.orgId);
  const auth = new AuthService(store, config);
  const events = await openEventServices(config, store, logger);
  const metricsStore = await openMetricsStore(config, events.eventStore);
  const metricsStorage = metricsDatasetStorage(metricsStore);
  // Background sweeps know a dataset only by its table: metrics tables live in the metrics store
  // (which, shared with other instances, may hold datasets this instance has not seen yet).
  const storageOfTable = async (table: string) => ((await metricsStore.holdsDataset(table)) ? metricsStorage : events.datasetEvents);
  const datasets = new DatasetService(
    store.prisma,
    store.repository,
    events.datasetEvents,
    [mapFieldsInFieldList(events.mapFieldRegistry), virtualFieldsInFieldList(store.prisma, events.fields)],
    metricsStorage,
  );
  const mapFields = new MapFieldService(datasets, events.mapFieldRegistry);
  const virtualFields = new VirtualFieldService(store.prisma, store.repository, datasets);
  const identity = new IdentityService(store, auth, { dropTable: async (id, table) => (await storageOfTable(table)).dropTable(id, table) }, config, logger);
  const annotations = new AnnotationService(store.prisma, store.repository);
  const starredQueries = new StarredQueryService(store.prisma);
  const dashboards = new DashboardService(store.prisma);
  const queries = await QueryService.create(datasets, events.fields, events.eventStore, store, config, annotations);
  const views = new ViewService(store.prisma, store.repository, queries);
  // An embedded store is written by this process alone, so ingest's signals tell tails every
  // write; a shared ClickHouse is written by other instances too, so tails ask it what is new.
  const liveTailSettings = { ...config.liveTail, readLimit: Math.min(1000, config.liveTail.queueLimit), messageLimit: 1000, retryMs: 1000, hearsEveryWrite: !events.eventStore.shared };
  const liveTail = new LiveTailService(datasets, queries, config.apl, liveTailSettings, logger);
  events.datasetEvents.onWritten((dataset, written) => liveTail.signal(dataset.id, written));
  const metrics = createMetricsService(config, datasets, metricsStore, events.ingest);
  // The genai_* functions price from the catalog: its prices go into the events database, and
  // the first install is awaited so the first queries are priced.
  const prices = new CatalogPriceTable(events.eventStore, logger);
  await prices.start(catalog);
  await prices.idle();
  queries.usePriceBoundaries(() => prices.boundaries);
  // A URL source is re-read every MODEL_CATALOG_REFRESH, in the background.
  const catalogRefresh = new CatalogRefresher(store, catalog, config.catalogSource, config.catalogRefreshMs, logger);
  await catalogRefresh.start();
  const retention = new RetentionSweeper(store.repository, store.leases, {
    trim: async (id, table, olderThan) => (await storageOfTable(table)).trim(id, table, olderThan),
  }, logger);
  retention.start();
  identity.start();
  const shippers = new ShipperService(events.ingest, datasets, mapFields);
  const monitoring = new Monitoring(config, store.prisma, queries, logger, leaseLeadership(store.leases), options.monitorClock);
  monitoring.start();
  return {
    config,
    logger,
    store,
    auth,
    identity,
    annotations,
    starredQueries,
    dashboards,
    catalog,
    ...events,
    datasets,
    mapFields,
    virtualFields,
    views,
    retention,
    queries,
    monitoring,
    shippers,
    metrics,
    prices,
    catalogRefresh,
    llmUsage: new LlmUsageService(queries),
    liveTail,
  };
}

/** Shown once, on the terminal rather than in the JSON logs: it is a secret. */
function announceAdminToken(token: string, orgId: string) {
  process.stderr.write(
    `\nCreated the admin user of organization "${orgId}" with this personal token (shown only now):\n\n` +
      `    ${token}\n\nUse it as "Authorization: Bearer <token>". Set ADMIN_TOKEN to choose the token yourself.\n\n`,
  );
}

/** Releases what the services hold, in reverse order of creation. */
export async function closeServices(services: Services): Promise<void> {
  services.liveTail.close();
  await services.catalogRefresh.stop();
  services.catalog.close();
  await services.prices.idle();
  await services.monitoring.stop();
  await services.retention.stop();
  await services.identity.stop();
  await closeEventServices(services);
  await services.metrics.store.close();
  await services.store.close();
}
