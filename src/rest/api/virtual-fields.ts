// Axiom v2 virtual fields: list a dataset's, get, create, update, delete.
import type { FastifyInstance } from 'fastify';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['virtual fields'];
const idParam = pathParams({ id: 'Virtual field id' });
type ById = { Params: { id: string } };

export async function virtualFieldRoutes(app: FastifyInstance, { services }: ServicesOf<'virtualFields'>) {
  const { virtualFields } = services;

  app.get<{ Querystring: { dataset?: string } }>(
    '/vfields',
    {
      schema: {
        tags,
        summary: "List a dataset's virtual fields, in the order they are defined",
        querystring: { type: 'object', properties: { dataset: { type: 'string', description: 'Dataset name' } } },
      },
    },
    async (request) => virtualFields.list(request.principal, request.query.dataset),
  );

  app.post('/vfields', { schema: { tags, summary: 'Create a virtual field' } }, async (request) =>
    virtualFields.create(request.principal, request.body),
  );

  app.get<ById>('/vfields/:id', { schema: { tags, summary: 'Get a virtual field', params: idParam } }, async (request) =>
    virtualFields.get(request.principal, request.params.id),
  );

  app.put<ById>('/vfields/:id', { schema: { tags, summary: 'Update a virtual field', params: idParam } }, async (request) =>
    virtualFields.update(request.principal, request.params.id, request.body),
  );

  app.delete<ById>('/vfields/:id', { schema: { tags, summary: 'Delete a virtual field', params: idParam } }, async (request, reply) => {
    await virtualFields.delete(request.principal, request.params.id);
    return reply.status(204).send();
  });
}
