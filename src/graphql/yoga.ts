// Serves the GraphQL schema (and GraphiQL) at /graphql on the Fastify instance.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createYoga } from 'graphql-yoga';
import type { Services } from '../services';
import { createContext, type GraphQLContext } from './context';
import { maskGraphQLError } from './errors';
import { schema } from './schema';

export function mountGraphQL(app: FastifyInstance, services: Services) {
  const yoga = createYoga<{ req: FastifyRequest; reply: FastifyReply }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: { title: 'eventdeck GraphQL', defaultQuery: '{\n  catalogMetadata {\n    modelCount\n  }\n}\n' },
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

  app.route({
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async (req, reply) => {
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      reply.status(response.status);
      reply.send(response.body);
      return reply;
    },
  });
}
