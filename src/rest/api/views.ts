// Axiom v2 views: list, get, create, update, delete.
import type { FastifyInstance } from 'fastify';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['views'];
const idParam = pathParams({ id: 'View id' });
type ById = { Params: { id: string } };

export async function viewRoutes(app: FastifyInstance, { services }: ServicesOf<'views'>) {
  const { views } = services;

  app.get('/views', { schema: { tags, summary: 'List views' } }, async (request) => views.list(request.principal));

  app.post('/views', { schema: { tags, summary: 'Create a view: a named APL query usable as a source like a dataset' } }, async (request) =>
    views.create(request.principal, request.body),
  );

  app.get<ById>('/views/:id', { schema: { tags, summary: 'Get a view', params: idParam } }, async (request) => views.get(request.principal, request.params.id));

  app.put<ById>('/views/:id', { schema: { tags, summary: 'Update a view', params: idParam } }, async (request) =>
    views.update(request.principal, request.params.id, request.body),
  );

  app.delete<ById>('/views/:id', { schema: { tags, summary: 'Delete a view', params: idParam } }, async (request, reply) => {
    await views.delete(request.principal, request.params.id);
    return reply.status(204).send();
  });
}
