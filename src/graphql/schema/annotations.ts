// GraphQL for annotations: nodes, a filtered connection, mutations, and the annotations an APL
// answer carries. Same AnnotationService as /v2/annotations.
import { resolveArrayConnection } from '@pothos/plugin-relay';
import type { AnnotationView } from '../../annotations/service';
import { nullWhenMissing } from './auth';
import { builder } from './builder';
import { AplResultRef } from './queries';
import { restBody } from './rest-body';

export const AnnotationRef = builder.objectRef<AnnotationView>('Annotation');
builder.node(AnnotationRef, {
  description: 'A mark on the charts of some datasets at a time, or over a span',
  id: { resolve: (annotation) => annotation.id },
  loadOne: (id, context) => nullWhenMissing(() => context.services.annotations.get(context.principal(), id)),
  fields: (t) => ({
    annotationId: t.exposeString('id', { description: 'The id used by the REST API (ann_...)' }),
    type: t.exposeString('type'),
    datasets: t.exposeStringList('datasets'),
    title: t.exposeString('title', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    url: t.exposeString('url', { nullable: true }),
    time: t.field({ type: 'DateTime', resolve: (annotation) => annotation.time }),
    endTime: t.field({ type: 'DateTime', nullable: true, resolve: (annotation) => annotation.endTime ?? null }),
  }),
});

const AnnotationInput = builder.inputType('AnnotationInput', {
  description: 'On update, fields left out keep their value',
  fields: (t) => ({
    type: t.string({ description: 'Lowercase letters, digits and "-"' }),
    datasets: t.stringList(),
    title: t.string(),
    description: t.string(),
    url: t.string(),
    time: t.field({ type: 'DateTime', description: 'Default: now (on create)' }),
    endTime: t.field({ type: 'DateTime' }),
  }),
});

builder.objectField(AplResultRef, 'annotations', (t) =>
  t.field({
    type: [AnnotationRef],
    description: 'Annotations of the datasets of the query that meet its time window (empty without annotations:read)',
    resolve: (result) => (result as { annotations?: AnnotationView[] }).annotations ?? [],
  }),
);

builder.queryFields((t) => ({
  annotations: t.connection({
    type: AnnotationRef,
    description: 'Annotations, oldest first; `start`/`end` keep those meeting the range',
    args: {
      datasets: t.arg.stringList(),
      start: t.arg({ type: 'DateTime' }),
      end: t.arg({ type: 'DateTime' }),
    },
    resolve: async (_root, args, context) =>
      resolveArrayConnection(
        { args },
        await context.services.annotations.list(context.principal(), {
          ...(args.datasets ? { datasets: args.datasets } : {}),
          ...(args.start ? { start: args.start.toISOString() } : {}),
          ...(args.end ? { end: args.end.toISOString() } : {}),
        }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  createAnnotation: t.field({
    type: AnnotationRef,
    args: { input: t.arg({ type: AnnotationInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.annotations.create(context.principal(), restBody(input)),
  }),
  updateAnnotation: t.field({
    type: AnnotationRef,
    args: { id: t.arg.string({ required: true, description: 'Annotation.annotationId' }), input: t.arg({ type: AnnotationInput, required: true }) },
    resolve: (_root, { id, input }, context) => context.services.annotations.update(context.principal(), id, restBody(input)),
  }),
  deleteAnnotation: t.field({
    type: 'ID',
    args: { id: t.arg.string({ required: true, description: 'Annotation.annotationId' }) },
    resolve: async (_root, { id }, context) => {
      await context.services.annotations.delete(context.principal(), id);
      return id;
    },
  }),
}));
