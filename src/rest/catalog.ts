// The model catalog's REST routes (/api/v1/models, /providers, /metadata): public, CORS-enabled,
// read-only. Each handler parses its parameters, asks CatalogService, shapes the records
// (project, then fill-with-zeros) and renders json, csv or jsonl. Rendered bodies are reused
// until the next sync.
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogService } from '../catalog/service';
import { CatalogVersionCache } from '../catalog/version-cache';
import { fillWithZeros, projectRecord } from '../catalog/query';
import type { Services } from '../services';
import { type CatalogParam, type CatalogQuery, parseCatalogQuery, querystringSchema, requestedFormat, ROUTE_PARAMS } from './catalog-params';
import { errorResponse, formattedResponse, metadataSchema, modelSchema } from './catalog-schemas';
import { CONTENT_TYPE, renderCsv, renderJson, renderJsonLines } from './formats';

type Row = Record<string, unknown>;

/** Rendered bodies, reused until the next sync. */
class RenderedBodies extends CatalogVersionCache<Buffer> {
  constructor() {
    super((body) => body.length);
  }

  body(version: number, key: string, render: () => string): Buffer {
    return this.getOrCompute(version, key, () => Buffer.from(render()));
  }
}

interface CatalogRouteOptions {
  catalog: CatalogService;
  cache: RenderedBodies;
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

/** Rendering depends on the catalog version, the route, the query and, for deprecation, the day. */
function cacheKey(parts: unknown[]): string {
  return JSON.stringify(parts);
}

function send(reply: FastifyReply, query: CatalogQuery, body: Buffer) {
  return reply.type(CONTENT_TYPE[query.format]).send(body);
}

/** Every catalog area is public and readable from any origin, with its own preflight route. */
async function publicArea(app: FastifyInstance) {
  await app.register(cors, { origin: '*', methods: ['GET', 'HEAD', 'OPTIONS'], maxAge: 86_400 });
  // Parameters are checked by parseCatalogQuery (clear messages, repeats rejected); the route
  // schemas are kept for the OpenAPI description only.
  app.setValidatorCompiler(() => () => true);
}

async function modelRoutes(app: FastifyInstance, { catalog, cache }: CatalogRouteOptions) {
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
    async (request, reply) => {
      const query = readQuery(request, 'models');
      const { snapshot } = catalog;
      const key = cacheKey(['models', query, query.deprecated === undefined ? '' : catalog.today()]);
      const body = cache.body(snapshot.version, key, () => {
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
      });
      return send(reply, query, body);
    },
  );

  const oneModel = async (id: string, request: FastifyRequest, reply: FastifyReply) => {
    const query = readQuery(request, 'model');
    const body = cache.body(catalog.snapshot.version, cacheKey(['model', id, query]), () =>
      renderOne(shape(catalog.getModel(id), query), query),
    );
    return send(reply, query, body);
  };
  const modelSchemaFor = (hide: boolean) => ({
    hide,
    tags: ['Models'],
    summary: 'Get a model',
    description: 'Ids that contain slashes (openrouter/openai/gpt-4o) may be given percent-encoded or as they are.',
    params: { type: 'object', properties: { id: { type: 'string', description: 'Model id' } }, required: ['id'] },
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

async function providerRoutes(app: FastifyInstance, { catalog, cache }: CatalogRouteOptions) {
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
    async (request, reply) => {
      const query = readQuery(request, 'providers');
      const body = cache.body(catalog.snapshot.version, cacheKey(['providers', query]), () => {
        const providers = catalog.listProviders(query.providerFilter);
        if (query.format === 'json') {
          const grouped: Record<string, Row[]> = {};
          for (const provider of providers) grouped[provider.id] = provider.models.map((model) => shape(model, query));
          return renderJson(grouped, query.pretty);
        }
        const rows = providers.flatMap((provider) => provider.models.map((model) => ({ provider: provider.id, ...shape(model, query) })));
        if (query.format === 'jsonl') return renderJsonLines(rows);
        return renderCsv(rows, query.project.length > 0 ? ['provider', ...query.project] : undefined, query.headers);
      });
      return send(reply, query, body);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/:id',
    {
      schema: {
        tags: ['Providers'],
        summary: "List a provider's models",
        params: { type: 'object', properties: { id: { type: 'string', description: 'Provider id' } }, required: ['id'] },
        querystring: querystringSchema(ROUTE_PARAMS.provider),
        response: {
          200: formattedResponse("The provider's models", { type: 'array', items: modelSchema }),
          400: errorResponse('Invalid parameter'),
          404: errorResponse('Provider not found'),
        },
      },
    },
    async (request, reply) => {
      const query = readQuery(request, 'provider');
      const { id } = request.params;
      const body = cache.body(catalog.snapshot.version, cacheKey(['provider', id, query]), () =>
        renderRows(
          catalog.getProvider(id).models.map((model) => shape(model, query)),
          query,
        ),
      );
      return send(reply, query, body);
    },
  );
}

/** The metadata as one flat CSV row: totals, then one column per provider, type and capability. */
function metadataRow(metadata: ReturnType<CatalogService['metadata']>): Row {
  const row: Row = {
    source: metadata.source,
    generated_at: metadata.generated_at,
    model_count: metadata.model_count,
    schema_version: metadata.schema_version,
    source_kind: metadata.sync.source_kind,
    models_read: metadata.sync.models_read,
    models_skipped: metadata.sync.models_skipped,
    models_written: metadata.sync.models_written,
    total_providers: Object.keys(metadata.stats.providers).length,
    total_active: metadata.stats.deprecation.active,
    total_deprecated: metadata.stats.deprecation.deprecated,
  };
  for (const [id, count] of Object.entries(metadata.stats.providers)) row[`provider_${id}`] = count;
  for (const [type, count] of Object.entries(metadata.stats.types)) row[`type_${type}`] = count;
  for (const [field, count] of Object.entries(metadata.stats.capabilities)) row[`capability_${field}`] = count;
  return row;
}

async function metadataRoutes(app: FastifyInstance, { catalog, cache }: CatalogRouteOptions) {
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
    async (request, reply) => {
      const query = readQuery(request, 'metadata');
      const body = cache.body(catalog.snapshot.version, cacheKey(['metadata', query, catalog.today()]), () => {
        const metadata = catalog.metadata();
        if (query.format === 'json') return renderJson(metadata, query.pretty);
        if (query.format === 'jsonl') return renderJsonLines([metadata]);
        return renderCsv([metadataRow(metadata)], undefined, query.headers);
      });
      return send(reply, query, body);
    },
  );
}

export async function catalogRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const options: CatalogRouteOptions = { catalog: services.catalog, cache: new RenderedBodies() };
  await app.register(modelRoutes, { ...options, prefix: '/api/v1/models' });
  await app.register(providerRoutes, { ...options, prefix: '/api/v1/providers' });
  await app.register(metadataRoutes, { ...options, prefix: '/api/v1/metadata' });
}
