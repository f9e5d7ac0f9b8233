// Ingest routes of the Axiom-compatible API: the dataset ingest endpoint (/v1 and /api/v1), the
// edge form `/v1/ingest/:dataset`, and the legacy `/api/v1/ingest` whose dataset comes from the
// query, a header or the token. Bodies arrive raw (any encoding), read within time, rate and
// memory limits (ingest-body.ts); IngestService decodes and stores them in an ingest turn.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { soleIngestDataset } from '../../auth/principal';
import { invalidInput } from '../../errors';
import { type IngestOptions, parseCsvFieldsHeader, parseLabelsHeader } from '../../ingest/ingest-service';
import { mediaTypeOf } from '../../ingest/content';
import { MAX_BODY_BYTES } from '../../ingest/limits';
import { LOGPLEX_MEDIA_TYPE } from '../../shippers/logplex';
import { headerReader } from '../shared/headers';
import { readIngestBodies, takeBody } from '../shared/ingest-scope';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

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
    caller: request.principal.tokenId,
  };
}

export async function ingestRoutes(app: FastifyInstance, { services }: ServicesOf<'config' | 'datasets' | 'ingest' | 'shippers'>) {
  // Raw bodies for every media type in this scope only: the service decodes and parses them,
  // so unknown types and encodings get the API's own 415 and every format shares one limit.
  // Each body is read whole, within time, rate and memory limits, before its ingest turn.
  readIngestBodies(app, services);

  const ingest = async (request: FastifyRequest<{ Querystring: IngestQuery }>, datasetName: string) => {
    const dataset = await services.datasets.resolveFor(request.principal, datasetName, 'ingest', 'create');
    // Only the service keeps the body, and only while reading it (a batch can wait a while for
    // its dataset; the bytes need not wait with it).
    const body = takeBody(request);
    const header = headerReader(request);
    const contentType = header('content-type');
    const ingestBody = { body, contentType, contentEncoding: header('content-encoding') };
    // Heroku log drains post octet-counted syslog frames to the same paths.
    if (mediaTypeOf(contentType) === LOGPLEX_MEDIA_TYPE) return services.shippers.logplex(dataset, ingestBody, ingestOptionsOf(request));
    return services.ingest.ingest(dataset, ingestBody, ingestOptionsOf(request));
  };

  // Heroku log drains and other shippers that only know URLs send the token as a Basic password.
  const routeOptions = { bodyLimit: MAX_BODY_BYTES, config: { authSchemes: ['bearer', 'basic'] as const } };

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
      const name = request.query.dataset || headerReader(request)('x-axiom-dataset') || soleIngestDataset(request.principal);
      if (!name) {
        throw invalidInput('name the dataset: the "dataset" query parameter, the X-Axiom-Dataset header, or a token scoped to one dataset');
      }
      return ingest(request, name);
    },
  );
}
