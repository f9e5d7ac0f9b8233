// GraphQL for map fields: a dataset's `mapFields` connection and mutations mirroring
// /v2/datasets/{id}/mapfields. Same MapFieldService as the REST routes.
import { resolveArrayConnection } from '@pothos/plugin-relay';
import { invalidInput } from '../../errors';
import { nullWhenMissing } from './auth';
import { builder } from './builder';
import { DatasetRef } from './datasets';

interface MapFieldNode {
  dataset: string;
  name: string;
}

const nodeId = (field: MapFieldNode) => JSON.stringify([field.dataset, field.name]);

function parseNodeId(id: string): MapFieldNode {
  try {
    const [dataset, name] = JSON.parse(id) as unknown[];
    if (typeof dataset === 'string' && typeof name === 'string') return { dataset, name };
  } catch {
    // reported below
  }
  throw invalidInput(`invalid map field id: ${id}`);
}

const MapFieldRef = builder.objectRef<MapFieldNode>('MapField');
builder.node(MapFieldRef, {
  description: 'A field of a dataset under which ingest keeps objects whole instead of flattening them',
  id: { resolve: nodeId },
  loadOne: (id, context) =>
    nullWhenMissing(async () => {
      const field = parseNodeId(id);
      const names = await context.services.mapFields.list(context.principal(), field.dataset);
      return names.includes(field.name) ? field : null;
    }),
  fields: (t) => ({
    name: t.exposeString('name'),
    dataset: t.field({ type: DatasetRef, resolve: (field, _args, context) => context.services.datasets.get(context.principal(), field.dataset) }),
  }),
});

builder.objectField(DatasetRef, 'mapFields', (t) =>
  t.connection({
    type: MapFieldRef,
    description: 'Map fields, by name',
    resolve: async (dataset, args, context) => {
      const names = await context.services.mapFields.list(context.principal(), dataset.name);
      return resolveArrayConnection({ args }, names.map((name) => ({ dataset: dataset.name, name })));
    },
  }),
);

builder.mutationFields((t) => ({
  createMapField: t.field({
    type: MapFieldRef,
    description: 'Declares a map field: objects ingested under it afterwards are kept whole',
    args: { dataset: t.arg.string({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_root, { dataset, name }, context) => {
      await context.services.mapFields.create(context.principal(), dataset, { name });
      return { dataset, name };
    },
  }),
  updateMapFields: t.field({
    type: [MapFieldRef],
    description: 'Makes the map fields of the dataset exactly these names',
    args: { dataset: t.arg.string({ required: true }), names: t.arg.stringList({ required: true }) },
    resolve: async (_root, { dataset, names }, context) =>
      (await context.services.mapFields.replace(context.principal(), dataset, names)).map((name) => ({ dataset, name })),
  }),
  deleteMapField: t.field({
    type: 'String',
    description: 'Removes a map field and returns its name; objects ingested afterwards are flattened again',
    args: { dataset: t.arg.string({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_root, { dataset, name }, context) => {
      await context.services.mapFields.delete(context.principal(), dataset, name);
      return name;
    },
  }),
}));
