// The composition root of the domain: builds every service once, in dependency order.
// REST routes and GraphQL resolvers receive this object and call the same functions.
import type { Logger } from 'pino';
import { ensureAdminIdentity } from './auth/bootstrap';
import { AuthService } from './auth/service';
import { type CatalogService, createCatalogService } from './catalog/service';
import type { Config } from './config';
import type { RelationalStore } from './db/sqlite';
import { DatasetService } from './events/datasets';
import { closeEventServices, type EventServices, openEventServices } from './events/open';
import { QueryService } from './events/query-service';
import { RetentionSweeper } from './events/retention';
import { Monitoring } from './monitors/service';

export interface Services extends EventServices {
  config: Config;
  logger: Logger;
  store: RelationalStore;
  auth: AuthService;
  catalog: CatalogService;
  datasets: DatasetService;
  retention: RetentionSweeper;
  queries: QueryService;
  monitoring: Monitoring;
}

export async function createServices(config: Config, logger: Logger, store: RelationalStore): Promise<Services> {
  const admin = await ensureAdminIdentity(store.prisma, config.adminToken);
  if (admin.generatedToken) announceAdminToken(admin.generatedToken, admin.orgId);
  const auth = new AuthService(store);
  const catalog = await createCatalogService(store, logger, config.catalogSource);
  const events = await openEventServices(config, store, logger);
  const datasets = new DatasetService(store.prisma, store.sqlite, events.datasetEvents);
  const queries = await QueryService.create(datasets, events.fields, events.eventStore, store, config);
  const retention = new RetentionSweeper(store.sqlite, events.datasetEvents, logger);
  retention.start();
  const monitoring = new Monitoring(config, store.prisma, queries, logger);
  monitoring.start();
  return { config, logger, store, auth, catalog, ...events, datasets, retention, queries, monitoring };
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
  services.catalog.close();
  await services.monitoring.stop();
  await services.retention.stop();
  await closeEventServices(services);
  await services.store.close();
}
