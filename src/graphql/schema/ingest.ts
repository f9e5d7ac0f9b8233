// GraphQL ingest: `ingest(dataset, events)` stores already-parsed events through the same
// IngestService as the REST ingest routes and answers with the same IngestStatus.
import type { IngestFailure, IngestStatus } from '../../ingest/ingest-service';
import { builder } from './builder';

const IngestFailureRef = builder.objectRef<IngestFailure>('IngestFailure').implement({
  description: 'An event that was not stored, and why',
  fields: (t) => ({
    timestamp: t.exposeString('timestamp', { description: "The event's time (RFC 3339), or the receive time when it had none" }),
    error: t.exposeString('error'),
  }),
});

const IngestStatusRef = builder.objectRef<IngestStatus>('IngestStatus').implement({
  description: 'The outcome of an ingest request, as the REST ingest endpoint reports it',
  fields: (t) => ({
    ingested: t.exposeInt('ingested', { description: 'Events stored' }),
    failed: t.exposeInt('failed', { description: 'Events refused; the others were stored' }),
    failures: t.field({ type: [IngestFailureRef], resolve: (status) => status.failures }),
    processedBytes: t.exposeInt('processedBytes', { description: 'Size of the events read, in bytes' }),
    blocksCreated: t.exposeInt('blocksCreated', { description: 'Storage blocks (vectors of up to 2048 rows) written' }),
    walLength: t.exposeInt('walLength', { description: 'Size of the write-ahead log after the commit, in bytes' }),
  }),
});

builder.mutationFields((t) => ({
  ingest: t.field({
    type: IngestStatusRef,
    description: 'Stores events (JSON objects; nested objects become dot-separated fields) in a dataset',
    args: {
      dataset: t.arg.string({ required: true }),
      events: t.arg({ type: ['JSON'], required: true }),
      timestampField: t.arg.string({ description: 'Field holding the event time (default _time)' }),
      timestampFormat: t.arg.string({ description: 'Go layout of textual times, or a layout name such as RFC3339' }),
    },
    resolve: async (_root, args, context) => {
      const principal = context.principal();
      const dataset = await context.services.datasets.resolveFor(principal, args.dataset, 'ingest', 'create');
      return context.services.ingest.ingestEvents(dataset, args.events, {
        timestampField: args.timestampField ?? undefined,
        timestampFormat: args.timestampFormat ?? undefined,
        caller: principal.tokenId,
      });
    },
  }),
}));
