// GraphQL for saved (starred) APL queries: nodes, a filtered connection and mutations, over the
// same StarredQueryService as /v2/apl-starred-queries.
import { resolveArrayConnection } from '@pothos/plugin-relay';
import type { StarredQueryView } from '../../starred-queries/service';
import { nullWhenMissing } from './auth';
import { builder } from './builder';
import { restBody } from './rest-body';

const StarredQueryRef = builder.objectRef<StarredQueryView>('StarredQuery');
builder.node(StarredQueryRef, {
  description: 'A saved APL query, visible to the organization',
  id: { resolve: (query) => query.id },
  loadOne: (id, context) => nullWhenMissing(() => context.services.starredQueries.get(context.principal(), id)),
  fields: (t) => ({
    starredQueryId: t.exposeString('id', { description: 'The id used by the REST API' }),
    kind: t.exposeString('kind'),
    name: t.exposeString('name'),
    dataset: t.exposeString('dataset', { nullable: true }),
    who: t.exposeString('who', { description: 'The user who saved it' }),
    metadata: t.field({ type: 'JSON', resolve: (query) => query.metadata }),
    query: t.field({ type: 'JSON', description: '{apl, startTime, endTime, queryOptions}', resolve: (query) => query.query }),
    createdAt: t.field({ type: 'DateTime', resolve: (query) => query.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (query) => query.updatedAt }),
  }),
});

const StarredQueryInput = builder.inputType('StarredQueryInput', {
  description: 'On update, fields left out keep their value',
  fields: (t) => ({
    name: t.string(),
    dataset: t.string(),
    metadata: t.field({ type: 'JSON' }),
    query: t.field({ type: 'JSON', description: '{apl, startTime, endTime, queryOptions}' }),
  }),
});

builder.queryFields((t) => ({
  starredQueries: t.connection({
    type: StarredQueryRef,
    description: 'Saved queries: the caller\'s own unless `who` is "team", "all" or a user id',
    args: { dataset: t.arg.string(), who: t.arg.string(), qs: t.arg.string({ description: 'Text in the name or the APL' }) },
    resolve: async (_root, args, context) =>
      resolveArrayConnection(
        { args },
        await context.services.starredQueries.list(context.principal(), {
          ...(args.dataset ? { dataset: args.dataset } : {}),
          ...(args.who ? { who: args.who } : {}),
          ...(args.qs ? { qs: args.qs } : {}),
          limit: 1000,
        }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  createStarredQuery: t.field({
    type: StarredQueryRef,
    args: { input: t.arg({ type: StarredQueryInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.starredQueries.create(context.principal(), { kind: 'apl', ...restBody(input) }),
  }),
  updateStarredQuery: t.field({
    type: StarredQueryRef,
    args: { id: t.arg.string({ required: true, description: 'StarredQuery.starredQueryId' }), input: t.arg({ type: StarredQueryInput, required: true }) },
    resolve: (_root, { id, input }, context) => context.services.starredQueries.update(context.principal(), id, restBody(input)),
  }),
  deleteStarredQuery: t.field({
    type: 'ID',
    args: { id: t.arg.string({ required: true, description: 'StarredQuery.starredQueryId' }) },
    resolve: async (_root, { id }, context) => {
      await context.services.starredQueries.delete(context.principal(), id);
      return id;
    },
  }),
}));
