// The composition root of the domain: builds every service once, in dependency order.
// REST routes and GraphQL resolvers receive this object and call the same functions.
import type { Logger } from 'pino';
import { ensureAdminIdentity } from './auth/bootstrap';
import { AuthService } from './auth/service';
import { CatalogRefresher } from './catalog/refresh';
import { type CatalogService, createCatalogService } from './catalog/service';
import type { Config } from './config';
import type { RelationalStore } from './db/store';
import { CatalogPriceTable } from './events/catalog-prices';
import { DatasetService } from './events/datasets';
import { LlmUsageService } from './events/llm-usage';
import { MapFieldService, mapFieldsInFieldList } from './events/map-fields';
import { closeEventServices, type EventServices, openEventServices } from './events/open';
import { QueryService } from './events/query-service';
import { RetentionSweeper } from './events/retention';
import { ShipperService } from './shippers/service';

export interface Services extends EventServices {
  config: Config;
  logger: Logger;
  store: RelationalStore;
  auth: AuthService;
  catalog: CatalogService;
  datasets: DatasetService;
  mapFields: MapFieldService;
  retention: RetentionSweeper;
  queries: QueryService;
  shippers: ShipperService;
  prices: CatalogPriceTable;
  catalogRefresh: CatalogRefresher;
  llmUsage: LlmUsageService;
}

export async function createServices(config: Config, logger: Logger, store: RelationalStore): Promise<Services> {
  // Instances starting together over one store bootstrap it once: the first creates the admin
  // identity and imports the catalog, the others find both.
  const { admin, catalog } = await store.exclusive('startup', async () => {
    const admin = await ensureAdminIdentity(store.prisma, config.adminToken);
    const catalog = await createCatalogService(store, logger, config.catalogSource);
    return { admin, catalog };
  });
  if (admin.generatedToken) announceAdminToken(admin.generatedToken, admin.orgId);
  const auth = new AuthService(store);
  const events = await openEventServices(config, store, logger);
  const datasets = new DatasetService(store.prisma, store.repository, events.datasetEvents, [mapFieldsInFieldList(events.mapFieldRegistry)]);
  const mapFields = new MapFieldService(datasets, events.mapFieldRegistry);
  const queries = await QueryService.create(datasets, events.fields, events.eventStore, store, config);
  // The genai_* functions price from the catalog: its prices go into the events database, and
  // the first install is awaited so the first queries are priced.
  const prices = new CatalogPriceTable(events.eventStore, logger);
  await prices.start(catalog);
  await prices.idle();
  queries.usePriceBoundaries(() => prices.boundaries);
  // A URL source is re-read every MODEL_CATALOG_REFRESH, in the background.
  const catalogRefresh = new CatalogRefresher(store, catalog, config.catalogSource, config.catalogRefreshMs, logger);
  await catalogRefresh.start();
  const retention = new RetentionSweeper(store.repository, store.leases, events.datasetEvents, logger);
  retention.start();
  const shippers = new ShipperService(events.ingest, datasets, mapFields);
  return { config, logger, store, auth, catalog, ...events, datasets, mapFields, retention, queries, shippers, prices, catalogRefresh, llmUsage: new LlmUsageService(queries) };
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
  await services.catalogRefresh.stop();
  services.catalog.close();
  await services.prices.idle();
  await services.retention.stop();
  await closeEventServices(services);
  await services.store.close();
}
