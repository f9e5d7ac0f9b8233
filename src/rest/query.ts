// Axiom v1 queries: APL (`POST /datasets/_apl?format=tabular|legacy`) and the legacy query
// request (`POST /datasets/{dataset}/query`). The SDK sends the cursor as a query parameter.
import type { FastifyInstance } from 'fastify';
import { toLegacyAplResponse } from '../apl';
import { invalidInput } from '../errors';
import { tabularAnswer } from '../events/query-service';
import { pathParams } from './path-params';
import type { RouteOptions } from './routes';

const tags = ['queries'];

interface AplQuerystring {
  format?: string;
  cursor?: string;
  nocache?: string;
  saveAsKind?: string;
  dataset_name?: string;
  'streaming-duration'?: string;
}

const aplQuerystring = {
  type: 'object',
  properties: {
    format: { type: 'string', enum: ['tabular', 'legacy'], default: 'tabular', description: 'Result shape' },
    cursor: { type: 'string', description: 'minCursor/maxCursor of a previous page (also accepted in the body)' },
    nocache: { type: 'string', description: 'Accepted for compatibility; results are never cached' },
    saveAsKind: { type: 'string', description: 'Accepted for compatibility' },
    dataset_name: { type: 'string', description: 'Accepted for compatibility' },
    'streaming-duration': { type: 'string', description: 'Accepted for compatibility' },
  },
} as const;

export async function queryRoutes(app: FastifyInstance, { services }: RouteOptions) {
  const { queries } = services;

  app.post<{ Querystring: AplQuerystring }>(
    '/datasets/_apl',
    {
      schema: { tags, summary: 'Run an APL query', querystring: aplQuerystring },
      // An unknown format is the caller's mistake: say which ones exist.
      attachValidation: true,
    },
    async (request) => {
      const format = request.query.format ?? 'tabular';
      if (request.validationError || (format !== 'tabular' && format !== 'legacy')) {
        throw invalidInput(`format must be "tabular" or "legacy" (got "${String(request.query.format)}")`);
      }
      const body = request.body as Record<string, unknown> | undefined;
      const cursor = typeof body?.cursor === 'string' && body.cursor !== '' ? undefined : request.query.cursor;
      const result = await queries.apl(request.principal, body, cursor ? { cursor } : {});
      if (format === 'tabular') return tabularAnswer(result);
      return toLegacyAplResponse(result, {
        ...(typeof body?.startTime === 'string' ? { startTime: body.startTime } : {}),
        ...(typeof body?.endTime === 'string' ? { endTime: body.endTime } : {}),
      });
    },
  );

  app.post<{ Params: { dataset: string } }>(
    '/datasets/:dataset/query',
    {
      schema: {
        tags,
        summary: 'Run a legacy query (filter tree, aggregations, groupBy, resolution) against one dataset',
        params: pathParams({ dataset: 'Name of the dataset' }),
      },
    },
    async (request) => queries.legacy(request.principal, request.params.dataset, request.body),
  );
}
