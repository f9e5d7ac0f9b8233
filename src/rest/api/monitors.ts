// Axiom v2 monitors: list, get, create, update, delete, and the history of alert transitions;
// and a backtest of a definition over a past period (the console's preview).
import type { FastifyInstance } from 'fastify';
import { monitorView } from '../../monitors/monitors';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['monitors'];
const idParam = pathParams({ id: 'Monitor id (mon_...)' });
type ById = { Params: { id: string } };

const historyQuery = {
  type: 'object',
  properties: {
    startTime: { type: 'string', format: 'date-time', description: 'Start of the period (RFC 3339), required' },
    endTime: { type: 'string', format: 'date-time', description: 'End of the period (RFC 3339), required' },
  },
} as const;

export async function monitorRoutes(app: FastifyInstance, { services }: ServicesOf<'monitoring'>) {
  const { monitors } = services.monitoring;

  app.get('/monitors', { schema: { tags, summary: 'List monitors over datasets the token may query' } }, async (request) =>
    (await monitors.list(request.principal)).map(monitorView),
  );

  app.post('/monitors', { schema: { tags, summary: 'Create a monitor' } }, async (request) =>
    monitorView(await monitors.create(request.principal, request.body)),
  );

  app.post(
    '/monitors/backtest',
    {
      schema: {
        tags,
        summary: 'Replay a monitor definition over a past period: each run it would have made, positive or not, and the alerts it would have opened and closed',
      },
    },
    async (request) => services.monitoring.backtests.run(request.principal, request.body),
  );

  app.get<ById>('/monitors/:id', { schema: { tags, summary: 'Get a monitor', params: idParam } }, async (request) =>
    monitorView(await monitors.get(request.principal, request.params.id)),
  );

  app.put<ById>('/monitors/:id', { schema: { tags, summary: 'Replace a monitor', params: idParam } }, async (request) =>
    monitorView(await monitors.update(request.principal, request.params.id, request.body)),
  );

  app.delete<ById>('/monitors/:id', { schema: { tags, summary: 'Delete a monitor', params: idParam } }, async (request, reply) => {
    await monitors.delete(request.principal, request.params.id);
    return reply.status(204).send();
  });

  app.get<ById & { Querystring: { startTime?: string; endTime?: string } }>(
    '/monitors/:id/history',
    {
      schema: { tags, summary: "The monitor's alert transitions (open, closed) in a period", params: idParam, querystring: historyQuery },
      // Missing or malformed times are answered by the service, naming the parameter.
      attachValidation: true,
    },
    async (request) => monitors.history(request.principal, request.params.id, request.query),
  );
}
