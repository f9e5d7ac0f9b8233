// Registers every REST area. Each area is a Fastify plugin in its own file.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import { authSessionRoutes } from './auth-session';
import { axiomApi } from './axiom-api';
import { catalogRoutes } from './catalog';
import { elasticRoutes } from './elastic';
import { hecRoutes } from './hec';
import { lokiRoutes } from './loki';
import { metricsSpecRoute } from './metrics';
import { oidcRoutes } from './oidc';
import { otlpRoutes } from './otlp';
import { registerOpenApi } from './openapi';
import { provisionRoutes } from './orgs';

export interface RouteOptions {
  services: Services;
}

export async function registerRestRoutes(app: FastifyInstance, { services }: RouteOptions) {
  // First, so that /openapi.json describes the routes of every area registered after it.
  await registerOpenApi(app);
  await app.register(axiomApi, { services });
  await app.register(provisionRoutes, { services, prefix: '/v2' });
  await app.register(authSessionRoutes, { services });
  await app.register(catalogRoutes, { services });
  await app.register(metricsSpecRoute);
  await app.register(hecRoutes, { services });
  await app.register(lokiRoutes, { services });
  await app.register(otlpRoutes, { services });
  await app.register(elasticRoutes, { services, prefix: '/v1/ingest/:dataset/elastic' });
  if (services.config.oidc) await app.register(oidcRoutes, { services });
}
