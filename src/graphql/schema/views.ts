// GraphQL for views: the `views` connection, `View` nodes and mutations mirroring /v2/views.
// Same ViewService as the REST routes; query a view with `apl(query: "['my-view'] | ...")`.
import { resolveArrayConnection } from '@pothos/plugin-relay';
import type { ViewView } from '../../datasets/views';
import { nullWhenMissing } from './auth';
import { builder } from './builder';
import { restBody } from './rest-body';

const ViewRef = builder.objectRef<ViewView>('View');
builder.node(ViewRef, {
  description: 'A named APL query over datasets, usable as a source wherever a dataset is',
  id: { resolve: (view) => view.id },
  loadOne: (id, context) => nullWhenMissing(() => context.services.views.get(context.principal(), id)),
  fields: (t) => ({
    viewId: t.exposeString('id', { description: 'The id used by the REST API (/v2/views/{id})' }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    aplQuery: t.exposeString('aplQuery'),
    datasets: t.exposeStringList('datasets', { description: 'The datasets its query reads' }),
    createdBy: t.exposeString('who'),
    createdAt: t.field({ type: 'DateTime', resolve: (view) => view.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (view) => view.updatedAt }),
  }),
});

const ViewInput = builder.inputType('ViewInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: '1 to 128 ASCII letters, digits and "-"; not the name of a dataset' }),
    aplQuery: t.string({ required: true }),
    description: t.string(),
  }),
});

builder.queryFields((t) => ({
  views: t.connection({
    type: ViewRef,
    description: 'The views of the organization the token acts in that it may query, by name',
    resolve: async (_root, args, context) => resolveArrayConnection({ args }, await context.services.views.list(context.principal())),
  }),
}));

builder.mutationFields((t) => ({
  createView: t.field({
    type: ViewRef,
    args: { input: t.arg({ type: ViewInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.views.create(context.principal(), restBody(input)),
  }),
  updateView: t.field({
    type: ViewRef,
    args: { id: t.arg.string({ required: true, description: 'View.viewId' }), input: t.arg({ type: ViewInput, required: true }) },
    resolve: (_root, { id, input }, context) => context.services.views.update(context.principal(), id, restBody(input)),
  }),
  deleteView: t.field({
    type: 'ID',
    description: 'Deletes the view and returns its id',
    args: { id: t.arg.string({ required: true, description: 'View.viewId' }) },
    resolve: async (_root, { id }, context) => {
      await context.services.views.delete(context.principal(), id);
      return id;
    },
  }),
}));
