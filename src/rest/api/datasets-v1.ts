// Axiom v1 datasets: list, get, create, update, delete, trim (DatasetSpec shapes, with the kind
// that tells events datasets from metrics datasets).
import type { FastifyInstance } from 'fastify';
import type { DatasetRecord } from '../../datasets/datasets';
import { pathParams } from '../shared/path-params';
import type { ServicesOf } from '../shared/plugin-options';

const tags = ['datasets (v1)'];
const nameParam = pathParams({ dataset: 'Unique name of the dataset' });

export function datasetSpecV1(dataset: DatasetRecord) {
  return {
    id: dataset.name,
    name: dataset.name,
    description: dataset.description,
    who: dataset.createdBy,
    created: dataset.createdAt.toISOString(),
    kind: dataset.kind,
  };
}

export async function datasetRoutesV1(app: FastifyInstance, { services }: ServicesOf<'datasets'>) {
  const { datasets } = services;

  app.get('/datasets', { schema: { tags, summary: 'List datasets' } }, async (request) =>
    (await datasets.list(request.principal)).map(datasetSpecV1),
  );

  app.post('/datasets', { schema: { tags, summary: 'Create a dataset' } }, async (request) =>
    datasetSpecV1(await datasets.create(request.principal, request.body)),
  );

  app.get<{ Params: { dataset: string } }>('/datasets/:dataset', { schema: { tags, summary: 'Get a dataset', params: nameParam } }, async (request) =>
    datasetSpecV1(await datasets.get(request.principal, request.params.dataset)),
  );

  app.put<{ Params: { dataset: string } }>('/datasets/:dataset', { schema: { tags, summary: 'Update a dataset', params: nameParam } }, async (request) =>
    datasetSpecV1(await datasets.update(request.principal, request.params.dataset, request.body)),
  );

  app.delete<{ Params: { dataset: string } }>(
    '/datasets/:dataset',
    { schema: { tags, summary: 'Delete a dataset and its events', params: nameParam } },
    async (request, reply) => {
      await datasets.delete(request.principal, request.params.dataset);
      return reply.status(204).send();
    },
  );

  app.post<{ Params: { dataset: string } }>(
    '/datasets/:dataset/trim',
    { schema: { tags, summary: 'Delete events older than maxDuration', params: nameParam } },
    async (request) => datasets.trim(request.principal, request.params.dataset, request.body),
  );
}
