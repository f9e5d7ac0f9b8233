// Ingest routes of the Axiom-compatible API: the dataset ingest endpoint (/v1 and /api/v1), the
// edge form `/v1/ingest/:dataset`, and the legacy `/api/v1/ingest` whose dataset comes from the
// query, a header or the token. Bodies arrive raw (any encoding); IngestService reads them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal';
import { invalidInput } from '../errors';
import { type IngestOptions, parseCsvFieldsHeader, parseLabelsHeader } from '../events/ingest/ingest-service';
import { MAX_BODY_BYTES } from '../events/ingest/limits';
import { headerReader } from './axiom-api';
import { pathParams } from './path-params';
import type { RouteOptions } from './routes';

const tags = ['ingest'];

interface IngestQuery {
  'timestamp-field'?: string;
  'timestamp-format'?: string;
  'csv-delimiter'?: string;
  dataset?: string;
}

const querystring = {
  type: 'object',
  properties: {
    'timestamp-field': { type: 'string', description: 'Field holding the event time (default _time)' },
    'timestamp-format': { type: 'string', description: 'Go layout of textual times, e.g. 02/01/2006 15:04:05, or a layout name such as RFC3339' },
    'csv-delimiter': { type: 'string', description: 'CSV field separator (default ",")' },
  },
} as const;

const legacyQuerystring = {
  type: 'object',
  properties: { ...querystring.properties, dataset: { type: 'string', description: 'Dataset to ingest into' } },
} as const;

const datasetParam = pathParams({ dataset: 'Name of the dataset' });

function ingestOptionsOf(request: FastifyRequest<{ Querystring: IngestQuery }>): IngestOptions {
  const header = headerReader(request);
  return {
    timestampField: request.query['timestamp-field'] || undefined,
    timestampFormat: request.query['timestamp-format'] || undefined,
    csvDelimiter: request.query['csv-delimiter'],
    csvFields: parseCsvFieldsHeader(header('x-axiom-csv-fields')),
    labels: parseLabelsHeader(header('x-axiom-event-labels')),
  };
}

/** The one dataset an API token is scoped to, if it names exactly one. */
function soleDatasetOf(principal: Principal): string | undefined {
  const names = Object.keys(principal.datasetCapabilities);
  return names.length === 1 && names[0] !== '*' ? names[0] : undefined;
}

export async function ingestRoutes(app: FastifyInstance, { services }: RouteOptions) {
  // Ingest requests wait for a turn before their body is read (the socket holds it meanwhile),
  // so memory stays bounded however many clients send at once.
  const admission = services.ingest.admission;
  const admitted = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request) => {
    await admission.acquire();
    admitted.add(request);
  });
  const release = async (request: FastifyRequest) => {
    if (admitted.delete(request)) admission.release();
  };
  app.addHook('onSend', async (request, _reply, payload) => {
    await release(request);
    return payload;
  });
  app.addHook('onRequestAbort', release);

  // Raw bodies for every media type in this scope only: the service decodes and parses them,
  // so unknown types and encodings get the API's own 415 and every format shares one limit.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));

  const ingest = async (request: FastifyRequest<{ Querystring: IngestQuery }>, datasetName: string) => {
    const dataset = await services.datasets.resolveFor(request.principal, datasetName, 'ingest', 'create');
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    // Only the service keeps the body, and only while reading it (a batch can wait a while for
    // its dataset; the bytes need not wait with it).
    request.body = undefined;
    const header = headerReader(request);
    return services.ingest.ingest(dataset, { body, contentType: header('content-type'), contentEncoding: header('content-encoding') }, ingestOptionsOf(request));
  };

  const routeOptions = { bodyLimit: MAX_BODY_BYTES };

  app.post<{ Params: { dataset: string }; Querystring: IngestQuery }>(
    '/datasets/:dataset/ingest',
    { ...routeOptions, schema: { tags, summary: 'Ingest events (JSON, NDJSON or CSV; gzip or deflate)', params: datasetParam, querystring } },
    (request) => ingest(request, request.params.dataset),
  );

  app.post<{ Params: { dataset: string }; Querystring: IngestQuery }>(
    '/ingest/:dataset',
    { ...routeOptions, schema: { tags, summary: 'Ingest events (edge form of the path)', params: datasetParam, querystring } },
    (request) => ingest(request, request.params.dataset),
  );

  app.post<{ Querystring: IngestQuery }>(
    '/ingest',
    {
      ...routeOptions,
      schema: {
        tags,
        summary: 'Ingest events (legacy): the dataset comes from ?dataset=, X-Axiom-Dataset, or a token scoped to one dataset',
        querystring: legacyQuerystring,
      },
    },
    (request) => {
      const name = request.query.dataset || headerReader(request)('x-axiom-dataset') || soleDatasetOf(request.principal);
      if (!name) {
        throw invalidInput('name the dataset: the "dataset" query parameter, the X-Axiom-Dataset header, or a token scoped to one dataset');
      }
      return ingest(request, name);
    },
  );
}
