// Axiom v2 dashboards, by uid. Errors answer in Axiom's DashboardError shape: a string `code`
// (`not_found`, `already_exists`, `version_conflict`, `invalid_request`, ...) beside `message`,
// with `uid` and `currentVersion` where they apply.
import type { FastifyInstance } from 'fastify';
import { DomainError, type ErrorKind } from '../../errors';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['dashboards'];
type ByUid = { Params: { uid: string } };
type ByChart = { Params: { uid: string; chartId: string } };

const CODE_OF: Partial<Record<ErrorKind, string>> = {
  invalid_input: 'invalid_request',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  not_found: 'not_found',
  conflict: 'already_exists',
  precondition_failed: 'version_conflict',
};

/** Gives a domain error the string code of DashboardError (errors that already have one keep it). */
async function dashboardErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && typeof error.details?.code !== 'string' && CODE_OF[error.kind]) {
      throw new DomainError(error.kind, error.message, { ...error.details, code: CODE_OF[error.kind] });
    }
    throw error;
  }
}

export async function dashboardRoutes(app: FastifyInstance, { services }: ServicesOf<'dashboards'>) {
  const { dashboards } = services;
  const uidParam = pathParams({ uid: 'Dashboard uid' });
  // Chart patches may also say what they are.
  app.addContentTypeParser('application/merge-patch+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.get<{ Querystring: { limit?: string; offset?: string } }>(
    '/dashboards',
    { schema: { tags, summary: 'List the dashboards the caller can see (limit, offset)' } },
    async (request) => dashboardErrors(() => dashboards.list(request.principal, request.query)),
  );

  app.post('/dashboards', { schema: { tags, summary: 'Create a dashboard (201; 409 on an existing uid unless overwrite)' } }, async (request, reply) => {
    const written = await dashboardErrors(() => dashboards.create(request.principal, request.body));
    return reply.status(written.status === 'created' ? 201 : 200).send(written);
  });

  app.get<ByUid>('/dashboards/uid/:uid', { schema: { tags, summary: 'Get a dashboard', params: uidParam } }, async (request) =>
    dashboardErrors(() => dashboards.get(request.principal, request.params.uid)),
  );

  app.put<ByUid>(
    '/dashboards/uid/:uid',
    { schema: { tags, summary: 'Update a dashboard (needs its current version unless overwrite)', params: uidParam } },
    async (request, reply) => {
      const written = await dashboardErrors(() => dashboards.update(request.principal, request.params.uid, request.body));
      return reply.status(written.status === 'created' ? 201 : 200).send(written);
    },
  );

  app.delete<ByUid>('/dashboards/uid/:uid', { schema: { tags, summary: 'Delete a dashboard', params: uidParam } }, async (request, reply) => {
    await dashboardErrors(() => dashboards.delete(request.principal, request.params.uid));
    return reply.status(204).send();
  });

  app.patch<ByChart>(
    '/dashboards/uid/:uid/charts/:chartId',
    {
      schema: {
        tags,
        summary: 'Change one chart with a JSON merge patch (RFC 7396)',
        params: pathParams({ uid: 'Dashboard uid', chartId: 'Chart id' }),
      },
    },
    async (request) => dashboardErrors(() => dashboards.patchChart(request.principal, request.params.uid, request.params.chartId, request.body)),
  );
}
