// The Axiom-compatible API (datasets, ingest, queries, tokens, user). Every route in this scope
// requires a bearer token: an onRequest hook authenticates once, before the body is read, and
// leaves the Principal on the request. Errors here also carry Axiom's `message` and `code`, which
// official clients display.
import type {} from '@fastify/swagger'; // adds tags/summary to route schemas, for the OpenAPI document
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { credentialsFrom } from '../auth/authenticator';
import type { Principal } from '../auth/principal';
import type { AuthScheme } from '../auth/schemes';
import { datasetRoutesV1 } from './datasets-v1';
import { BEARER_AUTH } from './openapi';
import { datasetRoutesV2 } from './datasets-v2';
import { ingestRoutes } from './ingest';
import { mapFieldRoutes } from './map-fields';
import { queryRoutes } from './query';
import type { RouteOptions } from './routes';
import { tokenRoutes } from './tokens';
import { userRoutes } from './user';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set for every route of the Axiom-compatible API. */
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Authorization schemes a route accepts besides Bearer (ingest routes take Basic too). */
    authSchemes?: readonly AuthScheme[];
  }
}

export function headerReader(request: FastifyRequest) {
  return (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
}

export async function axiomApi(app: FastifyInstance, options: RouteOptions) {
  const { services } = options;
  app.decorateRequest('principal', null as unknown as Principal);
  // Every route here needs a token; say so in the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ [BEARER_AUTH]: [] }] };
  });
  app.addHook('onRequest', async (request) => {
    request.errorStyle = 'axiom';
    const schemes = request.routeOptions.config.authSchemes;
    request.principal = await services.auth.authenticate({ ...credentialsFrom(headerReader(request)), ...(schemes ? { schemes } : {}) });
  });

  // v1 paths are served both at /v1 and at /api/v1, as Axiom's clients use both.
  for (const prefix of ['/v1', '/api/v1']) {
    await app.register(datasetRoutesV1, { ...options, prefix });
    await app.register(ingestRoutes, { ...options, prefix });
    await app.register(queryRoutes, { ...options, prefix });
    await app.register(userRoutes, { ...options, prefix, version: 1 });
  }
  await app.register(datasetRoutesV2, { ...options, prefix: '/v2' });
  await app.register(mapFieldRoutes, { ...options, prefix: '/v2' });
  await app.register(tokenRoutes, { ...options, prefix: '/v2' });
  await app.register(userRoutes, { ...options, prefix: '/v2', version: 2 });
}
