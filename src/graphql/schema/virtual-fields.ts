// GraphQL for virtual fields: a dataset's `virtualFields` connection, `VirtualField` nodes and
// mutations mirroring /v2/vfields. Same VirtualFieldService as the REST routes.
import { resolveArrayConnection } from '@pothos/plugin-relay';
import type { VirtualFieldView } from '../../datasets/virtual-fields';
import { nullWhenMissing } from './auth';
import { builder } from './builder';
import { DatasetRef } from './datasets';
import { restBody } from './rest-body';

const VirtualFieldRef = builder.objectRef<VirtualFieldView>('VirtualField');
builder.node(VirtualFieldRef, {
  description: 'An APL expression evaluated at query time, usable by name in queries over its dataset',
  id: { resolve: (field) => field.id },
  loadOne: (id, context) => nullWhenMissing(() => context.services.virtualFields.get(context.principal(), id)),
  fields: (t) => ({
    virtualFieldId: t.exposeString('id', { description: 'The id used by the REST API (/v2/vfields/{id})' }),
    name: t.exposeString('name'),
    expression: t.exposeString('expression', { description: 'An APL scalar expression over the fields of the dataset and the virtual fields defined before' }),
    description: t.exposeString('description'),
    type: t.exposeString('type', { description: 'The type its creator gave it' }),
    unit: t.exposeString('unit'),
    dataset: t.field({ type: DatasetRef, resolve: (field, _args, context) => context.services.datasets.get(context.principal(), field.dataset) }),
  }),
});

const VirtualFieldInput = builder.inputType('VirtualFieldInput', {
  fields: (t) => ({
    dataset: t.string({ required: true }),
    name: t.string({ required: true }),
    expression: t.string({ required: true }),
    description: t.string(),
    type: t.string(),
    unit: t.string(),
  }),
});

builder.objectField(DatasetRef, 'virtualFields', (t) =>
  t.connection({
    type: VirtualFieldRef,
    description: 'Virtual fields, in the order they are defined',
    resolve: async (dataset, args, context) => resolveArrayConnection({ args }, await context.services.virtualFields.list(context.principal(), dataset.name)),
  }),
);

builder.queryFields((t) => ({
  virtualFields: t.connection({
    type: VirtualFieldRef,
    description: "A dataset's virtual fields, in the order they are defined",
    args: { dataset: t.arg.string({ required: true }) },
    resolve: async (_root, args, context) => resolveArrayConnection({ args }, await context.services.virtualFields.list(context.principal(), args.dataset)),
  }),
}));

builder.mutationFields((t) => ({
  createVirtualField: t.field({
    type: VirtualFieldRef,
    args: { input: t.arg({ type: VirtualFieldInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.virtualFields.create(context.principal(), restBody(input)),
  }),
  updateVirtualField: t.field({
    type: VirtualFieldRef,
    description: 'Replaces the definition; queries use the new expression at once',
    args: { id: t.arg.string({ required: true, description: 'VirtualField.virtualFieldId' }), input: t.arg({ type: VirtualFieldInput, required: true }) },
    resolve: (_root, { id, input }, context) => context.services.virtualFields.update(context.principal(), id, restBody(input)),
  }),
  deleteVirtualField: t.field({
    type: 'ID',
    description: 'Deletes the virtual field and returns its id',
    args: { id: t.arg.string({ required: true, description: 'VirtualField.virtualFieldId' }) },
    resolve: async (_root, { id }, context) => {
      await context.services.virtualFields.delete(context.principal(), id);
      return id;
    },
  }),
}));
