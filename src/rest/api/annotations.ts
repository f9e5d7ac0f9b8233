// Axiom v2 annotations. `datasets` filters come repeated (`datasets=a&datasets=b`) or
// comma-separated (`datasets=a,b`), as the SDK sends them.
import type { FastifyInstance } from 'fastify';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['annotations'];
const idParam = pathParams({ id: 'Annotation id (ann_...)' });
type ById = { Params: { id: string } };
type ListQuery = { Querystring: { datasets?: string | string[]; start?: string; end?: string } };

/** Repeated and comma forms of a list parameter, as one list. */
export function listParameter(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).flatMap((item) => item.split(',')).map((item) => item.trim()).filter(Boolean);
}

export async function annotationRoutes(app: FastifyInstance, { services }: ServicesOf<'annotations'>) {
  const { annotations } = services;

  app.get<ListQuery>('/annotations', { schema: { tags, summary: 'List annotations (filters: datasets, start, end)' } }, async (request) => {
    const { datasets, start, end } = request.query;
    const names = listParameter(datasets);
    return annotations.list(request.principal, {
      ...(names !== undefined ? { datasets: names } : {}),
      ...(start !== undefined ? { start } : {}),
      ...(end !== undefined ? { end } : {}),
    });
  });

  app.post('/annotations', { schema: { tags, summary: 'Create an annotation' } }, async (request, reply) =>
    reply.status(201).send(await annotations.create(request.principal, request.body)),
  );

  app.get<ById>('/annotations/:id', { schema: { tags, summary: 'Get an annotation', params: idParam } }, async (request) =>
    annotations.get(request.principal, request.params.id),
  );

  app.put<ById>('/annotations/:id', { schema: { tags, summary: 'Update an annotation', params: idParam } }, async (request) =>
    annotations.update(request.principal, request.params.id, request.body),
  );

  app.delete<ById>('/annotations/:id', { schema: { tags, summary: 'Delete an annotation', params: idParam } }, async (request, reply) => {
    await annotations.delete(request.principal, request.params.id);
    return reply.status(204).send();
  });
}
