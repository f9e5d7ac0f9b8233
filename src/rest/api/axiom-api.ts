// The Axiom-compatible API (datasets, ingest, queries, tokens, organizations, users, RBAC,
// annotations, starred queries, dashboards). Every route in this scope requires a token: an
// onRequest hook authenticates once, before the body is read, evaluates what the token may do
// in the request's organization and leaves the Principal on the request. Routes that need no
// organization (`config: { organization: 'none' }`, such as GET /v2/orgs) get the bare Identity
// instead. Errors here also carry Axiom's `message` and `code`, which official clients display.
// The console's session cookie authenticates here too, as its user's personal token would, when
// no Authorization header is sent (state-changing requests then pass the CSRF check first).
import type {} from '@fastify/swagger'; // adds tags/summary to route schemas, for the OpenAPI document
import type { FastifyInstance } from 'fastify';
import { credentialsFrom, type Identity } from '../../auth/authenticator';
import type { Principal } from '../../auth/principal';
import type { AuthScheme } from '../../auth/schemes';
import { sessionCredentialsOf } from '../auth/session-cookie';
import type { RouteOptions } from '../routes';
import { headerReader } from '../shared/headers';
import { BEARER_AUTH } from '../shared/openapi';
import { annotationRoutes } from './annotations';
import { dashboardRoutes } from './dashboards';
import { datasetRoutesV1 } from './datasets-v1';
import { datasetRoutesV2 } from './datasets-v2';
import { ingestRoutes } from './ingest';
import { mapFieldRoutes } from './map-fields';
import { metricsQueryRoutes } from './metrics';
import { monitorRoutes } from './monitors';
import { notifierRoutes } from './notifiers';
import { orgRoutes } from './orgs';
import { personalTokenRoutes } from './personal-tokens';
import { queryRoutes } from './query';
import { rbacRoutes } from './rbac';
import { starredQueryRoutes } from './starred-queries';
import { tokenRoutes } from './tokens';
import { userRoutes } from './user';
import { memberRoutes } from './users';
import { viewRoutes } from './views';
import { virtualFieldRoutes } from './virtual-fields';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set for every route of the Axiom-compatible API that acts in an organization. */
    principal: Principal;
    /** The token of the request, set on every route of the Axiom-compatible API. */
    identity: Identity;
  }
  interface FastifyContextConfig {
    /** 'none': the route acts in no particular organization and reads `request.identity` only. */
    organization?: 'none';
    /** Authorization schemes a route accepts besides Bearer (ingest routes take Basic too). */
    authSchemes?: readonly AuthScheme[];
  }
}

export async function axiomApi(app: FastifyInstance, options: RouteOptions) {
  const { services } = options;
  app.decorateRequest('principal', null as unknown as Principal);
  app.decorateRequest('identity', null as unknown as Identity);
  // Every route here needs a token; say so in the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ [BEARER_AUTH]: [] }] };
  });
  app.addHook('onRequest', async (request) => {
    request.errorStyle = 'axiom';
    const schemes = request.routeOptions.config.authSchemes;
    request.identity = await services.auth.identify({
      ...credentialsFrom(headerReader(request)),
      session: sessionCredentialsOf(request, services.config),
      ...(schemes ? { schemes } : {}),
    });
    if (request.routeOptions.config.organization === 'none') return;
    request.principal = await services.auth.authenticator.principalOf(request.identity);
  });

  // v1 paths are served both at /v1 and at /api/v1, as Axiom's clients use both.
  for (const prefix of ['/v1', '/api/v1']) {
    await app.register(datasetRoutesV1, { ...options, prefix });
    await app.register(ingestRoutes, { ...options, prefix });
    await app.register(queryRoutes, { ...options, prefix });
    await app.register(metricsQueryRoutes, { ...options, prefix });
    await app.register(userRoutes, { ...options, prefix, version: 1 });
  }
  await app.register(datasetRoutesV2, { ...options, prefix: '/v2' });
  await app.register(mapFieldRoutes, { ...options, prefix: '/v2' });
  await app.register(virtualFieldRoutes, { ...options, prefix: '/v2' });
  await app.register(viewRoutes, { ...options, prefix: '/v2' });
  await app.register(tokenRoutes, { ...options, prefix: '/v2' });
  await app.register(monitorRoutes, { ...options, prefix: '/v2' });
  await app.register(notifierRoutes, { ...options, prefix: '/v2' });
  await app.register(userRoutes, { ...options, prefix: '/v2', version: 2 });
  await app.register(personalTokenRoutes, { ...options, prefix: '/v2' });
  await app.register(memberRoutes, { ...options, prefix: '/v2' });
  await app.register(orgRoutes, { ...options, prefix: '/v2' });
  await app.register(rbacRoutes, { ...options, prefix: '/v2' });
  await app.register(annotationRoutes, { ...options, prefix: '/v2' });
  await app.register(starredQueryRoutes, { ...options, prefix: '/v2' });
  await app.register(dashboardRoutes, { ...options, prefix: '/v2' });
}
