// Metrics routes of the edge query API: MPL queries (`POST /v1/query/_mpl`, answered in the
// metrics-v2 or metrics-v1 shape) and the discovery routes under `/v1/query/metrics/info`.
// `OPTIONS /v1/query/_mpl` (the language description) needs no token and is registered
// outside the authenticated scope by `metricsSpecRoute`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidInput } from '../../errors';
import { formatAnswer, type MetricsFormat } from '../../metrics/mpl/execution/result';
import { describeMpl } from '../../metrics/mpl/spec';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['metrics'];
const INFO_V2 = 'application/vnd.metrics-info.v2+json';

interface RangeQuery {
  start?: string;
  end?: string;
}

const rangeQuerystring = {
  type: 'object',
  properties: {
    start: { type: 'string', description: 'Start of the range (RFC 3339 or relative, e.g. now-1h); required' },
    end: { type: 'string', description: 'End of the range (RFC 3339 or relative, e.g. now); required' },
  },
} as const;

/** `param__<name>` query parameters, which hold MPL literals for declared parameters. */
function queryParams(query: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (name.startsWith('param__') && typeof value === 'string') params[name] = value;
  }
  return params;
}

/** The answer format: `format` when given, else the Accept header, else metrics-v2. */
function formatOf(request: FastifyRequest): MetricsFormat {
  const format = (request.query as { format?: unknown }).format;
  if (format !== undefined) {
    if (format !== 'metrics-v1' && format !== 'metrics-v2') throw invalidInput(`format must be metrics-v1 or metrics-v2 (got "${String(format)}")`);
    return format;
  }
  const accept = request.headers.accept ?? '';
  return /metrics[.-]v1\b/.test(accept) ? 'metrics-v1' : 'metrics-v2';
}

const acceptsInfoV2 = (request: FastifyRequest) => (request.headers.accept ?? '').includes(INFO_V2);

export async function metricsQueryRoutes(app: FastifyInstance, { services }: ServicesOf<'metrics'>) {
  const { metrics } = services;

  const runQuery = async (request: FastifyRequest) => {
    const format = formatOf(request);
    const answer = await metrics.query(request.principal, request.body, queryParams(request.query as Record<string, unknown>));
    return formatAnswer(answer, format);
  };
  const querySchema = {
    tags,
    querystring: {
      type: 'object',
      properties: { format: { type: 'string', description: 'metrics-v2 (default: {metadata, series}) or metrics-v1 (the list of series)' } },
      additionalProperties: { type: 'string' },
    },
  };
  app.post('/query/_mpl', { schema: { ...querySchema, summary: 'Run an MPL query: {mpl, startTime, endTime, params}' } }, runQuery);
  app.post('/query/_metrics', { schema: { ...querySchema, summary: 'Run an MPL query (the query may come as "apl")' } }, runQuery);

  const base = '/query/metrics/info/datasets/:dataset';
  type Info<P> = { Params: P; Querystring: RangeQuery };

  app.get<Info<{ dataset: string }>>(
    `${base}/metrics`,
    { schema: { tags, summary: 'Metrics with points in the range: name to {type, temporality, unit}', params: pathParams({ dataset: 'Metrics dataset' }), querystring: rangeQuerystring } },
    async (request) => metrics.metrics(request.principal, request.params.dataset, request.query.start, request.query.end),
  );

  app.post<Info<{ dataset: string }>>(
    `${base}/metrics`,
    { schema: { tags, summary: 'Metrics having a tag with the value {value}', params: pathParams({ dataset: 'Metrics dataset' }), querystring: rangeQuerystring } },
    async (request) => {
      const found = await metrics.find(request.principal, request.params.dataset, request.body, request.query.start, request.query.end);
      // The v2 media type also names the tags holding the value.
      return acceptsInfoV2(request) ? found : Object.keys(found);
    },
  );

  app.get<Info<{ dataset: string }>>(
    `${base}/tags`,
    { schema: { tags, summary: 'Tag names of the series with points in the range', params: pathParams({ dataset: 'Metrics dataset' }), querystring: rangeQuerystring } },
    async (request) => metrics.tags(request.principal, request.params.dataset, request.query.start, request.query.end),
  );

  app.get<Info<{ dataset: string; tag: string }>>(
    `${base}/tags/:tag/values`,
    {
      schema: { tags, summary: 'Values of a tag (typed) in the range', params: pathParams({ dataset: 'Metrics dataset', tag: 'Tag name' }), querystring: rangeQuerystring },
    },
    async (request) => metrics.tagValues(request.principal, request.params.dataset, request.params.tag, request.query.start, request.query.end),
  );

  app.get<Info<{ dataset: string; metric: string }>>(
    `${base}/metrics/:metric/tags`,
    {
      schema: { tags, summary: 'Tag names of a metric in the range', params: pathParams({ dataset: 'Metrics dataset', metric: 'Metric name' }), querystring: rangeQuerystring },
    },
    async (request) => metrics.tags(request.principal, request.params.dataset, request.query.start, request.query.end, request.params.metric),
  );

  app.get<Info<{ dataset: string; metric: string; tag: string }>>(
    `${base}/metrics/:metric/tags/:tag/values`,
    {
      schema: {
        tags,
        summary: "Values of a metric's tag (typed) in the range",
        params: pathParams({ dataset: 'Metrics dataset', metric: 'Metric name', tag: 'Tag name' }),
        querystring: rangeQuerystring,
      },
    },
    async (request) =>
      metrics.tagValues(request.principal, request.params.dataset, request.params.tag, request.query.start, request.query.end, request.params.metric),
  );
}

/** `OPTIONS /v1/query/_mpl`: the language description, for anyone (no token). */
export async function metricsSpecRoute(app: FastifyInstance) {
  const spec = describeMpl();
  app.options('/v1/query/_mpl', { schema: { tags, summary: 'Describe MPL (no token needed)' } }, async (_request, reply) =>
    reply.type('text/markdown; charset=utf-8').send(spec),
  );
}
