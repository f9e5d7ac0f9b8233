// Axiom v2 API tokens: list, get, create, regenerate, delete.
import type { FastifyInstance } from 'fastify';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['tokens'];
type ById = { Params: { id: string } };

export async function tokenRoutes(app: FastifyInstance, { services }: ServicesOf<'auth'>) {
  const { tokens } = services.auth;

  app.get('/tokens', { schema: { tags, summary: 'List API tokens' } }, async (request) => tokens.list(request.principal));

  app.post('/tokens', { schema: { tags, summary: 'Create an API token (its secret is shown once)' } }, async (request) =>
    tokens.create(request.principal, request.body),
  );

  app.get<ById>('/tokens/:id', { schema: { tags, summary: 'Get an API token' } }, async (request) =>
    tokens.get(request.principal, request.params.id),
  );

  app.post<ById>('/tokens/:id/regenerate', { schema: { tags, summary: 'Replace an API token with a new secret' } }, async (request) =>
    tokens.regenerate(request.principal, request.params.id, request.body),
  );

  app.delete<ById>('/tokens/:id', { schema: { tags, summary: 'Delete an API token' } }, async (request, reply) => {
    await tokens.delete(request.principal, request.params.id);
    return reply.status(204).send();
  });
}
