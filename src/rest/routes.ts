// Registers every REST scope, each a folder of Fastify plugins: the Axiom-compatible API behind
// its token check (api/), the ingest doors of shippers with their own authentication
// (shippers/), the public model catalog (catalog/) and the console's sign-in (auth/); helpers
// they share live in shared/. Each plugin is given only the services it calls.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import { axiomApi } from './api/axiom-api';
import { metricsSpecRoute } from './api/metrics';
import { provisionRoutes } from './api/orgs';
import { oidcRoutes } from './auth/oidc';
import { ownSessionRoutes } from './auth/sessions';
import { authSessionRoutes } from './auth/sign-in';
import { catalogRoutes } from './catalog/routes';
import { registerOpenApi } from './shared/openapi';
import { elasticRoutes } from './shippers/elastic';
import { hecRoutes } from './shippers/hec';
import { lokiRoutes } from './shippers/loki';
import { otlpRoutes } from './shippers/otlp';
import { mcpRoutes } from '../mcp/routes';

/** The options of the plugins that mount others (this one and the Axiom API): every service. */
export interface RouteOptions {
  services: Services;
}

export async function registerRestRoutes(app: FastifyInstance, { services }: RouteOptions) {
  // First, so that /openapi.json describes the routes of every area registered after it.
  await registerOpenApi(app);
  await app.register(axiomApi, { services });
  await app.register(provisionRoutes, { services, prefix: '/v2' });
  await app.register(authSessionRoutes, { services });
  await app.register(ownSessionRoutes, { services });
  await app.register(catalogRoutes, { services });
  await app.register(metricsSpecRoute);
  await app.register(hecRoutes, { services });
  await app.register(lokiRoutes, { services });
  await app.register(otlpRoutes, { services });
  await app.register(elasticRoutes, { services, prefix: '/v1/ingest/:dataset/elastic' });
  await app.register(mcpRoutes, { services });
  if (services.config.oidc) await app.register(oidcRoutes, { services });
}
