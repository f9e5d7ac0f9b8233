// GraphQL for dataset management: the datasets connection, a dataset by name with its fields,
// and mutations mirroring /v2/datasets. Same DatasetService as the REST routes.
import { resolveArrayConnection } from '@pothos/plugin-relay';
import type { DatasetFieldView, DatasetRecord } from '../../datasets/datasets';
import { DomainError } from '../../errors';
import { nullWhenMissing } from './auth';
import { builder } from './builder';
import { restBody } from './rest-body';

const DatasetFieldRef = builder.objectRef<DatasetFieldView>('DatasetField').implement({
  description: 'A field discovered in the events of a dataset, with the metadata users gave it',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Dot-separated for nested objects, e.g. req.method' }),
    type: t.exposeString('type'),
    unit: t.exposeString('unit'),
    description: t.exposeString('description'),
    hidden: t.exposeBoolean('hidden'),
    mapField: t.boolean({ description: 'Declared as a map field: objects ingested under it are kept whole', resolve: (field) => field.mapField ?? false }),
    virtual: t.boolean({ description: 'A virtual field: computed by its APL expression at query time', resolve: (field) => field.virtual ?? false }),
  }),
});

export const DatasetRef = builder.objectRef<DatasetRecord>('Dataset');
builder.node(DatasetRef, {
  description: 'A named collection of events',
  id: { resolve: (dataset) => dataset.name },
  loadOne: (name, context) => nullWhenMissing(() => context.services.datasets.get(context.principal(), name)),
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    kind: t.exposeString('kind'),
    retentionDays: t.exposeInt('retentionDays'),
    useRetentionPeriod: t.exposeBoolean('useRetentionPeriod'),
    createdBy: t.exposeString('createdBy'),
    createdAt: t.field({ type: 'DateTime', resolve: (dataset) => dataset.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (dataset) => dataset.updatedAt }),
    canWrite: t.boolean({
      description: 'Whether the calling token may ingest into it',
      resolve: (dataset, _args, context) => context.services.datasets.canWrite(context.principal(), dataset.name),
    }),
    fields: t.field({
      type: [DatasetFieldRef],
      resolve: (dataset, _args, context) => context.services.datasets.fields(context.principal(), dataset.name),
    }),
  }),
});

const CreateDatasetInput = builder.inputType('CreateDatasetInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: '1 to 128 ASCII letters, digits and "-"' }),
    description: t.string(),
    kind: t.string({ description: 'axiom:events:v1 (default), otel:logs:v1, otel:traces:v1 or otel:metrics:v1' }),
    retentionDays: t.int(),
    useRetentionPeriod: t.boolean(),
  }),
});

const UpdateDatasetInput = builder.inputType('UpdateDatasetInput', {
  fields: (t) => ({
    description: t.string(),
    retentionDays: t.int(),
    useRetentionPeriod: t.boolean(),
  }),
});

const UpdateDatasetFieldInput = builder.inputType('UpdateDatasetFieldInput', {
  fields: (t) => ({
    unit: t.string(),
    description: t.string(),
    hidden: t.boolean(),
  }),
});

builder.queryFields((t) => ({
  datasets: t.connection({
    type: DatasetRef,
    description: 'The datasets of the organization the token acts in, by name',
    resolve: async (_root, args, context) => resolveArrayConnection({ args }, await context.services.datasets.list(context.principal())),
  }),
  dataset: t.field({
    type: DatasetRef,
    nullable: true,
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_root, { name }, context) => {
      try {
        return await context.services.datasets.get(context.principal(), name);
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'not_found') return null;
        throw error;
      }
    },
  }),
}));

builder.mutationFields((t) => ({
  createDataset: t.field({
    type: DatasetRef,
    args: { input: t.arg({ type: CreateDatasetInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.datasets.create(context.principal(), restBody(input)),
  }),
  updateDataset: t.field({
    type: DatasetRef,
    args: { name: t.arg.string({ required: true }), input: t.arg({ type: UpdateDatasetInput, required: true }) },
    resolve: (_root, { name, input }, context) => context.services.datasets.update(context.principal(), name, restBody(input)),
  }),
  deleteDataset: t.field({
    type: 'String',
    description: 'Deletes the dataset and all its events; returns its name',
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_root, { name }, context) => {
      await context.services.datasets.delete(context.principal(), name);
      return name;
    },
  }),
  trimDataset: t.field({
    type: 'Int',
    description: 'Deletes events older than maxDuration (e.g. "30d", "1h30m"); returns how many',
    args: { name: t.arg.string({ required: true }), maxDuration: t.arg.string({ required: true }) },
    resolve: async (_root, { name, maxDuration }, context) =>
      (await context.services.datasets.trim(context.principal(), name, { maxDuration })).numDeleted,
  }),
  updateDatasetField: t.field({
    type: DatasetFieldRef,
    args: {
      dataset: t.arg.string({ required: true }),
      field: t.arg.string({ required: true }),
      input: t.arg({ type: UpdateDatasetFieldInput, required: true }),
    },
    resolve: (_root, args, context) =>
      context.services.datasets.updateField(context.principal(), args.dataset, args.field, restBody(args.input)),
  }),
}));
