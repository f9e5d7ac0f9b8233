// Axiom v2 datasets (the official SDK's): CRUD, trim, vacuum and the field registry.
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../auth/principal';
import type { DatasetRecord, DatasetService } from '../../datasets/datasets';
import { pathParams } from '../shared/path-params';
import { datasetSpecV1 } from './datasets-v1';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['datasets (v2)'];
const idParam = pathParams({ id: 'Dataset name' });

/** v2 describes a dataset as v1 does, plus its kind, retention, map fields and the caller's write access. */
export function datasetV2(dataset: DatasetRecord, principal: Principal, datasets: DatasetService, mapFields: string[]) {
  return {
    ...datasetSpecV1(dataset),
    updatedAt: dataset.updatedAt.toISOString(),
    kind: dataset.kind,
    retentionDays: dataset.retentionDays,
    useRetentionPeriod: dataset.useRetentionPeriod,
    canWrite: datasets.canWrite(principal, dataset.name),
    mapFields,
  };
}

type ById = { Params: { id: string } };
type ByField = { Params: { id: string; '*': string } };

export async function datasetRoutesV2(app: FastifyInstance, { services }: ServicesOf<'datasets' | 'mapFields'>) {
  const { datasets, mapFields } = services;
  const views = async (list: DatasetRecord[], principal: Principal) => {
    const names = await mapFields.ofDatasets(list.map((dataset) => dataset.id));
    return list.map((dataset) => datasetV2(dataset, principal, datasets, names.get(dataset.id) ?? []));
  };
  const view = async (dataset: DatasetRecord, principal: Principal) => (await views([dataset], principal))[0]!;

  app.get('/datasets', { schema: { tags, summary: 'List datasets' } }, async (request) =>
    views(await datasets.list(request.principal), request.principal),
  );

  app.post('/datasets', { schema: { tags, summary: 'Create a dataset' } }, async (request) =>
    view(await datasets.create(request.principal, request.body), request.principal),
  );

  app.get<ById>('/datasets/:id', { schema: { tags, summary: 'Get a dataset', params: idParam } }, async (request) =>
    view(await datasets.get(request.principal, request.params.id), request.principal),
  );

  app.put<ById>('/datasets/:id', { schema: { tags, summary: 'Update a dataset', params: idParam } }, async (request) =>
    view(await datasets.update(request.principal, request.params.id, request.body), request.principal),
  );

  app.delete<ById>('/datasets/:id', { schema: { tags, summary: 'Delete a dataset and its events', params: idParam } }, async (request, reply) => {
    await datasets.delete(request.principal, request.params.id);
    return reply.status(204).send();
  });

  app.post<ById>('/datasets/:id/trim', { schema: { tags, summary: 'Delete events older than maxDuration', params: idParam } }, async (request, reply) => {
    await datasets.trim(request.principal, request.params.id, request.body);
    return reply.status(204).send();
  });

  app.post<ById>('/datasets/:id/vacuum', { schema: { tags, summary: 'Forget fields no event holds any more', params: idParam } }, async (request) =>
    datasets.vacuum(request.principal, request.params.id),
  );

  app.get<ById>('/datasets/:id/fields', { schema: { tags, summary: 'List the fields of a dataset', params: idParam } }, async (request) =>
    datasets.fields(request.principal, request.params.id),
  );

  // Field names may hold any character, "/" included, so the rest of the path is the name.
  app.get<ByField>('/datasets/:id/fields/*', { schema: { tags, summary: 'Get a field' } }, async (request) =>
    datasets.field(request.principal, request.params.id, request.params['*']),
  );

  app.put<ByField>('/datasets/:id/fields/*', { schema: { tags, summary: 'Set the unit, description or visibility of a field' } }, async (request) =>
    datasets.updateField(request.principal, request.params.id, request.params['*'], request.body),
  );
}
