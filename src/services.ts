// The composition root of the domain: builds every service once, in dependency order.
// REST routes and GraphQL resolvers receive this object and call the same functions.
import type { Logger } from 'pino';
import type { Config } from './config';
import type { RelationalStore } from './db/sqlite';

export interface Services {
  config: Config;
  logger: Logger;
  store: RelationalStore;
}

export async function createServices(config: Config, logger: Logger, store: RelationalStore): Promise<Services> {
  return { config, logger, store };
}

/** Releases what the services hold, in reverse order of creation. */
export async function closeServices(services: Services): Promise<void> {
  await services.store.close();
}
