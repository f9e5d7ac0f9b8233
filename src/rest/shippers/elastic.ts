// The Elasticsearch door: `/v1/ingest/{dataset}/elastic` is a one-node Elasticsearch cluster to
// Beats, Logstash, Fluentd, Vector and the official clients. It answers the version handshake,
// the license and health probes, template and refresh calls (acknowledged, nothing to do), and
// the Bulk API. Tokens come as Bearer, Basic (token as password) or `ApiKey base64(id:token)`.
// Every answer carries `X-Elastic-Product: Elasticsearch` (the official client refuses a server
// without it) and errors have Elasticsearch's shape.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tokenFromAuthorization } from '../../auth/schemes';
import { describeError } from '../../errors';
import { MAX_BODY_BYTES } from '../../ingest/limits';
import { elasticHealth, elasticLicense, elasticVersionInfo, elasticXpack } from '../../shippers/elastic-cluster';
import { headerReader } from '../shared/headers';
import { describeFrameworkError } from '../shared/error-handler';
import { readIngestBodies, takeEncodedBody } from '../shared/ingest-scope';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['elasticsearch'];

const ERROR_TYPE_OF_STATUS: Record<number, string> = {
  400: 'illegal_argument_exception',
  401: 'security_exception',
  403: 'security_exception',
  404: 'index_not_found_exception',
  413: 'content_too_long_exception',
  415: 'illegal_argument_exception',
  503: 'unavailable_shards_exception',
};

function sendElasticError(request: FastifyRequest, reply: FastifyReply, error: FastifyError) {
  const framework = describeFrameworkError(error);
  let status = framework?.status;
  let reason = framework?.message;
  if (!framework) {
    const description = describeError(error);
    if (!description.expected) request.log.error({ err: error }, 'unhandled error');
    status = description.status;
    reason = description.message;
  }
  const type = ERROR_TYPE_OF_STATUS[status!] ?? (status! >= 500 ? 'exception' : 'illegal_argument_exception');
  if (status === 401) reply.header('www-authenticate', 'Bearer realm="eventdeck", ApiKey, Basic realm="eventdeck"');
  return reply.status(status!).send({ error: { root_cause: [{ type, reason }], type, reason }, status });
}

interface DatasetParams {
  dataset: string;
}

const params = pathParams({ dataset: 'Name of the dataset the events go to' });
const indexParams = pathParams({ dataset: 'Name of the dataset the events go to', index: 'Index name (kept in the answer; events go to the dataset)' });

export async function elasticRoutes(app: FastifyInstance, { services }: ServicesOf<'auth' | 'config' | 'ingest' | 'shippers'>) {
  app.setErrorHandler((error: FastifyError, request, reply) => sendElasticError(request, reply, error));
  app.setNotFoundHandler((request, reply) =>
    sendElasticError(request, reply, Object.assign(new Error(`no handler found for uri [${request.url}] and method [${request.method}]`), { statusCode: 400 }) as FastifyError),
  );
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-elastic-product', 'Elasticsearch');
    const header = headerReader(request);
    const token = tokenFromAuthorization(header('authorization'), ['bearer', 'basic', 'apikey']);
    request.principal = await services.auth.authenticateToken(token, header('x-axiom-org-id'));
  });

  // Each GET also answers HEAD (Fastify adds those routes).
  const probe = (summary: string) => ({ schema: { tags, summary, params } });
  app.get<{ Params: DatasetParams }>('/', probe('Elasticsearch version handshake'), async (request) => elasticVersionInfo(request.params.dataset));
  app.get('/_license', probe('Elasticsearch license (always an active basic license)'), async () => elasticLicense());
  app.get('/_xpack', probe('Elasticsearch X-Pack information'), async () => elasticXpack());
  app.get('/_cluster/health', probe('Elasticsearch cluster health (always green)'), async () => elasticHealth());
  // Index templates, lifecycle policies and ingest pipelines mean nothing here: say they exist,
  // acknowledge changes, so shippers that manage them go on to send data.
  for (const path of ['/_index_template/:name', '/_template/:name', '/_ilm/policy/:name', '/_ingest/pipeline/:name', '/_component_template/:name']) {
    app.head(path, { schema: { tags, summary: 'Templates and policies (they exist)' } }, async (_request, reply) => reply.type('application/json').send());
    app.put(path, { schema: { tags, summary: 'Templates and policies (acknowledged)' } }, async () => ({ acknowledged: true }));
  }
  const refreshed = async () => ({ _shards: { total: 1, successful: 1, failed: 0 } });
  app.post('/_refresh', { schema: { tags, summary: 'Refresh (events are searchable once acknowledged)' } }, refreshed);
  app.post('/:index/_refresh', { schema: { tags, summary: 'Refresh (events are searchable once acknowledged)' } }, refreshed);

  await app.register(async (bulkScope) => {
    readIngestBodies(bulkScope, services);
    const bulk = async (request: FastifyRequest<{ Params: DatasetParams & { index?: string }; Querystring: { filter_path?: string } }>, reply: FastifyReply) => {
      const answer = await services.shippers.elasticBulk(request.principal, request.params.dataset, takeEncodedBody(request), request.params.index, request.query.filter_path);
      return reply.type('application/json; charset=utf-8').send(answer);
    };
    const querystring = {
      type: 'object',
      properties: { filter_path: { type: 'string', description: 'Parts of the answer to keep (e.g. errors,items.*.error,items.*.status)' } },
    } as const;
    const options = { bodyLimit: MAX_BODY_BYTES, schema: { tags, summary: 'Elasticsearch Bulk API (index and create actions)', params, querystring } };
    const indexOptions = { ...options, schema: { ...options.schema, params: indexParams } };
    bulkScope.post('/_bulk', options, bulk);
    bulkScope.put('/_bulk', options, bulk);
    bulkScope.post('/:index/_bulk', indexOptions, bulk);
    bulkScope.put('/:index/_bulk', indexOptions, bulk);
  });
}
