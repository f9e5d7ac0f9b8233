// Axiom v2 map fields of a dataset: list, declare one, replace the list, remove one.
import type { FastifyInstance } from 'fastify';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['datasets (v2)'];
const idParam = pathParams({ id: 'Dataset name' });
type ById = { Params: { id: string } };
type ByName = { Params: { id: string; '*': string } };

export async function mapFieldRoutes(app: FastifyInstance, { services }: ServicesOf<'mapFields'>) {
  const { mapFields } = services;

  app.get<ById>('/datasets/:id/mapfields', { schema: { tags, summary: 'List the map fields of a dataset', params: idParam } }, async (request) =>
    mapFields.list(request.principal, request.params.id),
  );

  app.post<ById>(
    '/datasets/:id/mapfields',
    { schema: { tags, summary: 'Declare a map field: objects ingested under it afterwards are kept whole', params: idParam } },
    async (request) => mapFields.create(request.principal, request.params.id, request.body),
  );

  app.put<ById>('/datasets/:id/mapfields', { schema: { tags, summary: 'Replace the list of map fields', params: idParam } }, async (request) =>
    mapFields.replace(request.principal, request.params.id, request.body),
  );

  // Map field names may hold "/", so the rest of the path is the name.
  app.delete<ByName>('/datasets/:id/mapfields/*', { schema: { tags, summary: 'Remove a map field' } }, async (request, reply) => {
    await mapFields.delete(request.principal, request.params.id, request.params['*']);
    return reply.status(204).send();
  });
}
