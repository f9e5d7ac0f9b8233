// Axiom v2 saved (starred) APL queries.
import type { FastifyInstance } from 'fastify';
import type { StarredQueryFilter } from '../../starred-queries/service';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['starred queries'];
const idParam = pathParams({ id: 'Starred query id' });
type ById = { Params: { id: string } };
type ListQuery = { Querystring: Record<string, string | string[] | undefined> };

const FILTERS = ['dataset', 'who', 'qs', 'limit', 'offset'] as const;

export async function starredQueryRoutes(app: FastifyInstance, { services }: ServicesOf<'starredQueries'>) {
  const { starredQueries } = services;

  app.get<ListQuery>('/apl-starred-queries', { schema: { tags, summary: 'List starred queries (dataset, who, qs, limit, offset)' } }, async (request) => {
    const filter: StarredQueryFilter = {};
    for (const name of FILTERS) {
      const value = request.query[name];
      if (value !== undefined) filter[name] = Array.isArray(value) ? value.at(-1)! : value;
    }
    return starredQueries.list(request.principal, filter);
  });

  app.post('/apl-starred-queries', { schema: { tags, summary: 'Save a query' } }, async (request) =>
    starredQueries.create(request.principal, request.body),
  );

  app.get<ById>('/apl-starred-queries/:id', { schema: { tags, summary: 'Get a starred query', params: idParam } }, async (request) =>
    starredQueries.get(request.principal, request.params.id),
  );

  app.put<ById>('/apl-starred-queries/:id', { schema: { tags, summary: 'Update a starred query', params: idParam } }, async (request) =>
    starredQueries.update(request.principal, request.params.id, request.body),
  );

  app.delete<ById>('/apl-starred-queries/:id', { schema: { tags, summary: 'Delete a starred query', params: idParam } }, async (request, reply) => {
    await starredQueries.delete(request.principal, request.params.id);
    return reply.status(204).send();
  });
}
