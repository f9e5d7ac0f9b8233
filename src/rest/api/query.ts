// Axiom v1 queries: APL (`POST /datasets/_apl?format=tabular|legacy`) and the legacy query
// request (`POST /datasets/{dataset}/query`). The SDK sends the cursor as a query parameter.
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toLegacyAplResponse } from '../../apl';
import { invalidInput, timedOut } from '../../errors';
import { batchConcurrency, parseBatch, runBatch } from '../../queries/query-batch';
import { tabularAnswer } from '../../queries/query-service';
import { formatAnswer } from '../../metrics/mpl/execution/result';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

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

interface BatchQuerystring {
  maxConcurrency?: string;
  nocache?: string;
  'apl-source'?: string;
  'apl-source-id'?: string;
}

const batchQuerystring = {
  type: 'object',
  properties: {
    maxConcurrency: { type: 'string', description: 'Queries run at once, 1 to 20 (default 10)' },
    nocache: { type: 'string', description: 'Accepted for compatibility; results are never cached' },
    'apl-source': { type: 'string', description: 'Accepted for compatibility' },
    'apl-source-id': { type: 'string', description: 'Accepted for compatibility' },
  },
} as const;

/**
 * Aborted when the caller goes away before its answer is sent (a cancelled fetch, a closed tab),
 * so the engine stops working on a query nobody will read. The response's `close` says so: the
 * request's own `close` comes as soon as its body has been read.
 */
function callerGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(timedOut('the query was cancelled because its caller went away'));
  });
  return controller.signal;
}

export async function queryRoutes(app: FastifyInstance, { services }: ServicesOf<'queries' | 'metrics'>) {
  const { queries } = services;

  const aplRoute = {
    schema: { tags, summary: 'Run an APL query', querystring: aplQuerystring },
    // An unknown format is the caller's mistake: say which ones exist.
    attachValidation: true,
  };

  const runApl = async (request: FastifyRequest<{ Querystring: AplQuerystring }>, reply: FastifyReply) => {
    const format = request.query.format ?? 'tabular';
    if (request.validationError || (format !== 'tabular' && format !== 'legacy')) {
      throw invalidInput(`format must be "tabular" or "legacy" (got "${String(request.query.format)}")`);
    }
    const body = request.body as Record<string, unknown> | undefined;
    const cursor = typeof body?.cursor === 'string' && body.cursor !== '' ? undefined : request.query.cursor;
    const result = await queries.apl(request.principal, body, { ...(cursor ? { cursor } : {}), signal: callerGone(reply) });
    if (format === 'tabular') return tabularAnswer(result);
    return toLegacyAplResponse(result, {
      ...(typeof body?.startTime === 'string' ? { startTime: body.startTime } : {}),
      ...(typeof body?.endTime === 'string' ? { endTime: body.endTime } : {}),
    });
  };

  app.post<{ Querystring: AplQuerystring }>('/datasets/_apl', aplRoute, runApl);
  // The edge deployment's path for the same query (the SDK's `edgeUrl` sends queries there).
  app.post<{ Querystring: AplQuerystring }>('/query/_apl', { ...aplRoute, schema: { ...aplRoute.schema, summary: 'Run an APL query (edge path)' } }, runApl);

  app.post<{ Querystring: BatchQuerystring }>(
    '/query/batch',
    {
      schema: {
        tags,
        summary: 'Run a batch of queries; answers text/event-stream, one event per query as it finishes',
        querystring: batchQuerystring,
      },
    },
    async (request, reply) => {
      const entries = parseBatch(request.body);
      const concurrency = batchConcurrency(request.query.maxConcurrency);
      const stream = new PassThrough();
      let gone = false;
      // The response closing before the stream ends means the caller went away.
      reply.raw.on('close', () => (gone = !reply.raw.writableFinished || gone));
      void runBatch(
        {
          apl: async (principal, body) => tabularAnswer(await queries.apl(principal, body)),
          mpl: async (principal, body) => formatAnswer(await services.metrics.query(principal, body), 'metrics-v2'),
        },
        request.principal,
        entries,
        concurrency,
        (outcome) => stream.write(`data: ${JSON.stringify(outcome)}\n\n`),
        () => gone,
      ).finally(() => stream.end());
      return reply.type('text/event-stream; charset=utf-8').header('cache-control', 'no-cache').send(stream);
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
