// Builds the HTTP application: domain services, REST routes and the GraphQL gateway on one
// Fastify instance. `main.ts` starts it; tests start it on an ephemeral port.
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import pino, { type Logger } from 'pino';
import type { Config } from './config';
import { registerCompression } from './console/compression';
import { registerConsole } from './console/plugin';
import { openRelationalStore } from './db/store';
import { mountGraphQL } from './graphql/server/yoga';
import { AnswerReplay, installAnswerReplay } from './rest/shared/answer-replay';
import { registerErrorHandling } from './rest/shared/error-handler';
import { parseJsonBodies } from './rest/shared/json-body';
import { registerRestRoutes } from './rest/routes';
import { closeServices, createServices, type ServiceOptions, type Services } from './services';

export interface App {
  server: FastifyInstance;
  services: Services;
  /** Stops accepting requests, waits for those in flight, then releases the stores. */
  close(): Promise<void>;
}

export async function createApp(config: Config, logger: Logger = pino({ level: config.logLevel }), options: ServiceOptions = {}): Promise<App> {
  const store = await openRelationalStore(config.database);
  const services = await createServices(config, logger, store, options);
  const server = Fastify({
    loggerInstance: logger,
    // Per-request access logs only when debugging; errors are always logged.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    forceCloseConnections: 'idle',
    // A request (headers and body) that has not fully arrived by then is answered 408 and its
    // connection closed, so a client that stalls cannot hold a socket and its memory forever.
    requestTimeout: config.httpRequestTimeoutMs,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    ...(config.tls
      ? { https: { cert: readFileSync(config.tls.cert), key: readFileSync(config.tls.key) } }
      : {}),
  }) as unknown as FastifyInstance;

  // Public catalog answers (REST and GraphQL) are replayed in front of the router once sent
  // (src/rest/shared/answer-replay.ts); not while every request is logged, replayed ones would not be.
  if (config.logLevel !== 'debug' && config.logLevel !== 'trace') {
    const catalogPaths = ['/api/v1/models', '/api/v1/providers', '/api/v1/metadata'];
    installAnswerReplay(server, new AnswerReplay({ generation: () => services.catalog.generation(), getPrefixes: catalogPaths, postUrls: ['/graphql'] }));
  }
  registerErrorHandling(server);
  // Before any route: compression attaches itself to the routes declared after it.
  await registerCompression(server);
  parseJsonBodies(server, config.jsonMaxDepth);
  // Healthy when the event and metrics stores answer; while one reopens after a fatal error,
  // 503 with which one and why.
  server.get('/healthz', async (_request, reply) => {
    const stores = { events: services.eventStore.probe(), metrics: services.metrics.store.probe() };
    const [store, health] = Object.entries(stores).find(([, each]) => each.state !== 'ok') ?? [];
    if (!health) return { status: 'ok' };
    return reply.status(503).send({ status: health.state, store, reason: health.reason });
  });
  await server.register(registerRestRoutes, { services });
  mountGraphQL(server, services);
  await server.register(registerConsole, { config: config.console });
  await server.ready();

  let closing: Promise<void> | undefined;
  return {
    server,
    services,
    close() {
      closing ??= (async () => {
        // Live tails first: their streams never end by themselves, and closing the HTTP server
        // waits for every response in flight.
        services.liveTail.close();
        await server.close();
        await closeServices(services);
      })();
      return closing;
    },
  };
}
