// The model catalog's REST routes (/api/v1/models, /providers, /metadata): public, CORS-enabled,
// read-only. Each handler parses its parameters, asks CatalogService, shapes the records
// (project, then fill-with-zeros) and renders json, csv or jsonl. Rendered bodies are reused
// until the next sync, and the answers sent are offered for replay in front of the router
// (src/rest/shared/answer-replay.ts).
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogService } from '../../catalog/service';
import { CatalogVersionCache } from '../../catalog/version-cache';
import { fillWithZeros, projectRecord } from '../../catalog/query';
import type { ServicesOf } from '../shared/plugin-options';
import { type CatalogParam, type CatalogQuery, parseCatalogQuery, querystringSchema, requestedFormat, ROUTE_PARAMS } from './params';
import { errorResponse, formattedResponse, metadataSchema, modelSchema } from './schemas';
import { CONTENT_TYPE, renderCsv, renderJson, renderJsonLines } from '../shared/formats';
import { pathParams } from '../shared/path-params';

type Row = Record<string, unknown>;

interface RenderedBody {
  body: Buffer;
  contentType: string;
}

interface CatalogRouteOptions {
  catalog: CatalogService;
  /** Rendered answers by request URL, reused until the next sync. */
  cache: CatalogVersionCache<RenderedBody>;
}

/** Projection first, then zeros: fill-with-zeros only sees the fields that are returned. */
function shape(record: Row, query: CatalogQuery): Row {
  const projected = query.project.length > 0 ? projectRecord(record, query.project) : record;
  return query.fillWithZeros ? fillWithZeros(projected) : projected;
}

function renderRows(rows: Row[], query: CatalogQuery): string {
  const columns = query.project.length > 0 ? query.project : undefined;
  if (query.format === 'csv') return renderCsv(rows, columns, query.headers);
  if (query.format === 'jsonl') return renderJsonLines(rows);
  return renderJson(rows, query.pretty);
}

function renderOne(row: Row, query: CatalogQuery): string {
  if (query.format === 'json') return renderJson(row, query.pretty);
  return renderRows([row], query);
}

/** Parses the query for `route`, switching errors to CSV first when CSV was asked. */
function readQuery(request: FastifyRequest, route: keyof typeof ROUTE_PARAMS): CatalogQuery {
  if (requestedFormat(request.query) === 'csv') request.errorFormat = 'csv';
  return parseCatalogQuery(request.query, ROUTE_PARAMS[route] as readonly CatalogParam[]);
}

/**
 * Answers from the rendered bytes of an earlier identical request when there are some: an answer
 * depends only on the catalog version, the URL (path and parameters) and, for deprecation, the
 * day. Otherwise parses the parameters (which refuses bad ones; refusals are never kept),
 * renders and keeps the answer.
 */
function serve(
  { catalog, cache }: CatalogRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  route: keyof typeof ROUTE_PARAMS,
  render: (query: CatalogQuery) => string,
) {
  const { version } = catalog.snapshot;
  const key = `${catalog.today()} ${route === 'metadata' ? catalog.refreshVersion : ''} ${request.url}`;
  let rendered = cache.get(version, key);
  if (!rendered) {
    const query = readQuery(request, route);
    rendered = { body: Buffer.from(render(query)), contentType: CONTENT_TYPE[query.format] };
    cache.set(version, key, rendered);
  }
  request.server.answerReplay?.keep(request, reply, rendered.body);
  return reply.type(rendered.contentType).send(rendered.body);
}

/** Every catalog area is public and readable from any origin, with its own preflight route. */
async function publicArea(app: FastifyInstance) {
  await app.register(cors, { origin: '*', methods: ['GET', 'HEAD', 'OPTIONS'], maxAge: 86_400 });
  // Parameters are checked by parseCatalogQuery (clear messages, repeats rejected); the route
  // schemas are kept for the OpenAPI description only.
  app.setValidatorCompiler(() => () => true);
}

async function modelRoutes(app: FastifyInstance, options: CatalogRouteOptions) {
  const { catalog } = options;
  await publicArea(app);

  app.get(
    '/',
    {
      schema: {
        tags: ['Models'],
        summary: 'List models',
        description: 'Models sorted by provider id, then model id. Filters combine with AND.',
        querystring: querystringSchema(ROUTE_PARAMS.models),
        response: { 200: formattedResponse('The matching models', { type: 'array', items: modelSchema }), 400: errorResponse('Invalid parameter') },
      },
    },
    async (request, reply) =>
      serve(options, request, reply, 'models', (query) => {
        const models = catalog.listModels({
          prefixes: query.prefixes,
          providers: query.providers,
          types: query.types,
          capabilities: query.capabilities,
          deprecated: query.deprecated,
        });
        return renderRows(
          models.map((model) => shape(model, query)),
          query,
        );
      }),
  );

  const oneModel = async (id: string, request: FastifyRequest, reply: FastifyReply) =>
    serve(options, request, reply, 'model', (query) => renderOne(shape(catalog.getModel(id), query), query));
  const modelSchemaFor = (hide: boolean) => ({
    hide,
    tags: ['Models'],
    summary: 'Get a model',
    description: 'Ids that contain slashes (openrouter/openai/gpt-4o) may be given percent-encoded or as they are.',
    params: pathParams({ id: 'Model id' }),
    querystring: querystringSchema(ROUTE_PARAMS.model),
    response: { 200: formattedResponse('The model', modelSchema), 400: errorResponse('Invalid parameter'), 404: errorResponse('Model not found') },
  });
  app.get<{ Params: { id: string } }>('/:id', { schema: modelSchemaFor(false) }, (request, reply) =>
    oneModel(request.params.id, request, reply),
  );
  // Ids with raw slashes span several path segments.
  const rawIdParams = { type: 'object', properties: { '*': { type: 'string' } } };
  app.get<{ Params: { '*': string } }>('/*', { schema: { ...modelSchemaFor(true), params: rawIdParams } }, (request, reply) =>
    oneModel(request.params['*'], request, reply),
  );
}

async function providerRoutes(app: FastifyInstance, options: CatalogRouteOptions) {
  const { catalog } = options;
  await publicArea(app);

  app.get(
    '/',
    {
      schema: {
        tags: ['Providers'],
        summary: 'List providers with their models',
        description:
          'JSON: an object of provider id to its models. CSV and JSON Lines: one row per model, with a leading provider column.',
        querystring: querystringSchema(ROUTE_PARAMS.providers),
        response: {
          200: formattedResponse('Models by provider', { type: 'object', additionalProperties: { type: 'array', items: modelSchema } }),
          400: errorResponse('Invalid parameter'),
        },
      },
    },
    async (request, reply) =>
      serve(options, request, reply, 'providers', (query) => {
        const providers = catalog.listProviders(query.providerFilter);
        if (query.format === 'json') {
          const grouped: Record<string, Row[]> = {};
          for (const provider of providers) grouped[provider.id] = provider.models.map((model) => shape(model, query));
          return renderJson(grouped, query.pretty);
        }
        const rows = providers.flatMap((provider) => provider.models.map((model) => ({ provider: provider.id, ...shape(model, query) })));
        if (query.format === 'jsonl') return renderJsonLines(rows);
        return renderCsv(rows, query.project.length > 0 ? ['provider', ...query.project] : undefined, query.headers);
      }),
  );

  app.get<{ Params: { id: string } }>(
    '/:id',
    {
      schema: {
        tags: ['Providers'],
        summary: "List a provider's models",
        params: pathParams({ id: 'Provider id' }),
        querystring: querystringSchema(ROUTE_PARAMS.provider),
        response: {
          200: formattedResponse("The provider's models", { type: 'array', items: modelSchema }),
          400: errorResponse('Invalid parameter'),
          404: errorResponse('Provider not found'),
        },
      },
    },
    async (request, reply) =>
      serve(options, request, reply, 'provider', (query) =>
        renderRows(
          catalog.getProvider(request.params.id).models.map((model) => shape(model, query)),
          query,
        ),
      ),
  );
}

/**
 * The metadata as one flat CSV row, in modeldb's column order: totals, then one column per
 * provider, type and capability; the sync counts this catalog adds come last.
 */
function metadataRow(metadata: ReturnType<CatalogService['metadata']>): Row {
  const row: Row = {
    source: metadata.source,
    generated_at: metadata.generated_at,
    model_count: metadata.model_count,
    schema_version: metadata.schema_version,
    total_providers: Object.keys(metadata.stats.providers).length,
    total_active: metadata.stats.deprecation.active,
    total_deprecated: metadata.stats.deprecation.deprecated,
  };
  for (const [id, count] of Object.entries(metadata.stats.providers)) row[`provider_${id}`] = count;
  for (const [type, count] of Object.entries(metadata.stats.types)) row[`type_${type}`] = count;
  for (const [field, count] of Object.entries(metadata.stats.capabilities)) row[`capability_${field}`] = count;
  Object.assign(row, {
    source_kind: metadata.sync.source_kind,
    models_read: metadata.sync.models_read,
    models_skipped: metadata.sync.models_skipped,
    models_written: metadata.sync.models_written,
  });
  return row;
}

async function metadataRoutes(app: FastifyInstance, options: CatalogRouteOptions) {
  const { catalog } = options;
  await publicArea(app);

  app.get(
    '/',
    {
      schema: {
        tags: ['Metadata'],
        summary: 'Catalog metadata',
        description: 'Source, import time and counts of the last sync, and statistics over the models.',
        querystring: querystringSchema(ROUTE_PARAMS.metadata),
        response: { 200: formattedResponse('The catalog metadata', metadataSchema), 400: errorResponse('Invalid parameter') },
      },
    },
    async (request, reply) =>
      serve(options, request, reply, 'metadata', (query) => {
        const metadata = catalog.metadata();
        if (query.format === 'json') return renderJson(metadata, query.pretty);
        if (query.format === 'jsonl') return renderJsonLines([metadata]);
        return renderCsv([metadataRow(metadata)], undefined, query.headers);
      }),
  );
}

export async function catalogRoutes(app: FastifyInstance, { services }: ServicesOf<'catalog'>) {
  const options: CatalogRouteOptions = {
    catalog: services.catalog,
    cache: new CatalogVersionCache<RenderedBody>((rendered) => rendered.body.length),
  };
  await app.register(modelRoutes, { ...options, prefix: '/api/v1/models' });
  await app.register(providerRoutes, { ...options, prefix: '/api/v1/providers' });
  await app.register(metadataRoutes, { ...options, prefix: '/api/v1/metadata' });
}
