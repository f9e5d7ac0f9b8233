// Serves the GraphQL schema (and GraphiQL) at /graphql on the Fastify instance: Yoga with the
// request limits, the catalog response cache, the error mapping and the per-operation context.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createYoga } from 'graphql-yoga';
import type { Services } from '../../services';
import { schema } from '../schema';
import type { GraphQLContext } from '../schema/context';
import { CatalogResponseCache } from './catalog-cache';
import { createContext } from './context';
import { maskGraphQLError } from './errors';
import { graphiqlPage } from './graphiql';
import { protection } from './protection';
import { sharedPayloads } from './shared-payloads';

export function mountGraphQL(app: FastifyInstance, services: Services) {
  // Public catalog queries are answered from bytes kept per catalog version (see catalog-cache.ts).
  const catalogResponses = new CatalogResponseCache(services.catalog, app.answerReplay);
  const yoga = createYoga<{ req: FastifyRequest; reply: FastifyReply }, GraphQLContext>({
    schema,
    plugins: [protection({ ...services.config.graphql, jsonMaxDepth: services.config.jsonMaxDepth }), catalogResponses.plugin, sharedPayloads()],
    graphqlEndpoint: '/graphql',
    graphiql: { title: 'eventdeck GraphQL', defaultQuery: '{\n  catalogMetadata {\n    modelCount\n  }\n}\n' },
    // GraphiQL with every script and style inlined: the page needs nothing but this server.
    renderGraphiQL: async (options) => (await graphiqlPage(options)).html,
    landingPage: false,
    logging: {
      debug: (...args) => app.log.debug(args),
      info: (...args) => app.log.info(args),
      warn: (...args) => app.log.warn(args),
      error: (...args) => app.log.error(args),
    },
    maskedErrors: { maskError: maskGraphQLError },
    context: ({ request }) => createContext(services, request),
  });

  // Live tails are streams that end only when asked: they end before the server waits for the
  // requests in flight, so closing never waits on them (clients reconnect to the next server).
  app.addHook('preClose', async () => {
    services.liveTail.close();
  });

  app.route({
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST', 'OPTIONS'],
    // A body read ahead by the answer replay (src/rest/shared/answer-replay.ts) is parsed from there.
    preParsing: (request, _reply, payload, done) => done(null, app.answerReplay?.bodyStream(request.raw) ?? payload),
    handler: async (req, reply) => {
      if (catalogResponses.replay(req, reply)) return reply;
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      // The playground page may load nothing from anywhere else (see graphiql.ts).
      if (response.headers.get('content-type')?.startsWith('text/html')) reply.header('content-security-policy', (await graphiqlPage()).csp);
      // Subscriptions answer with Server-Sent Events, sent as a stream: each message is written
      // to the socket as it comes (Fastify waits for the socket to drain before reading more, so
      // a client that stops reading stops the reads), and a client that goes away cancels the
      // stream, which ends the subscription. Yoga marks the stream `Content-Encoding: none`,
      // which response compression takes as already encoded and leaves alone; proxies are asked
      // not to buffer or transform it either.
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        reply.header('cache-control', 'no-cache, no-transform');
        reply.header('x-accel-buffering', 'no');
      }
      reply.status(response.status);
      reply.send((await catalogResponses.keep(req, reply, response)) ?? response.body);
      return reply;
    },
  });
}
