// Axiom v2 notifiers: list, get, create, update, delete (secrets masked in every answer), and
// each notifier's delivery log and its test notification.
import type { FastifyInstance } from 'fastify';
import { invalidInput } from '../../errors';
import { notifierView } from '../../monitors/notifiers';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['notifiers'];
const idParam = pathParams({ id: 'Notifier id (notify_...)' });
type ById = { Params: { id: string } };

const deliveriesQuery = {
  type: 'object',
  properties: {
    limit: { type: 'string', description: 'Attempts to return, newest first (1 to 1000, default 100)' },
    before: { type: 'string', description: 'Only attempts older than this attempt id (for paging)' },
  },
} as const;

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw invalidInput(`${name} must be a whole number (got "${value}")`);
  return Number(value);
}

export async function notifierRoutes(app: FastifyInstance, { services }: ServicesOf<'monitoring'>) {
  const { notifiers } = services.monitoring;

  app.get('/notifiers', { schema: { tags, summary: 'List notifiers' } }, async (request) =>
    (await notifiers.list(request.principal)).map(notifierView),
  );

  app.post('/notifiers', { schema: { tags, summary: 'Create a notifier' } }, async (request) =>
    notifierView(await notifiers.create(request.principal, request.body)),
  );

  app.get<ById>('/notifiers/:id', { schema: { tags, summary: 'Get a notifier (secrets masked)', params: idParam } }, async (request) =>
    notifierView(await notifiers.get(request.principal, request.params.id)),
  );

  app.put<ById>(
    '/notifiers/:id',
    { schema: { tags, summary: 'Replace a notifier; masked secrets sent back keep their values', params: idParam } },
    async (request) => notifierView(await notifiers.update(request.principal, request.params.id, request.body)),
  );

  app.delete<ById>('/notifiers/:id', { schema: { tags, summary: 'Delete a notifier', params: idParam } }, async (request, reply) => {
    await notifiers.delete(request.principal, request.params.id);
    return reply.status(204).send();
  });

  app.post<ById>(
    '/notifiers/:id/test',
    { schema: { tags, summary: 'Send a test notification through the notifier, as an alert would be delivered (202: queued)', params: idParam } },
    async (request, reply) => reply.status(202).send(await services.monitoring.notifierTests.send(request.principal, request.params.id)),
  );

  app.get<ById & { Querystring: { limit?: string; before?: string } }>(
    '/notifiers/:id/deliveries',
    { schema: { tags, summary: "The notifier's delivery attempts, newest first", params: idParam, querystring: deliveriesQuery } },
    async (request) => {
      const limit = wholeNumber('limit', request.query.limit);
      const before = wholeNumber('before', request.query.before);
      return notifiers.deliveries(request.principal, request.params.id, {
        ...(limit !== undefined ? { limit } : {}),
        ...(before !== undefined ? { before } : {}),
      });
    },
  );
}
