// GraphQL over the live tail: the subscription `liveEvents`, served over Server-Sent Events on
// /graphql (graphql-sse's distinct connections mode). The stream is the domain's subscriber; an
// item carrying a failure (access withdrawn, dataset deleted) becomes the stream's last message,
// an error, after which the stream completes.
import type { LiveEvent, LiveItem, LiveMessage } from '../../live-tail/service';
import { builder } from './builder';

const LiveEventsRef = builder.objectRef<LiveMessage>('LiveEvents').implement({
  description: 'Events stored since the previous message of a live tail',
  fields: (t) => ({
    // One JSON value per event rather than an object type: a tail's events go to every one of
    // its subscribers, and a scalar costs one step of execution per event instead of one per field.
    events: t.field({
      type: ['JSON'],
      description:
        'Stored events, oldest first, each in the shape of the legacy query\'s matches: { time (_time, RFC 3339 with nanoseconds), sysTime (_sysTime, when the server received it), rowId (_rowId, rising with every event stored), data (the fields, nested ones dot-separated) }.',
      resolve: (message) => message.events as LiveEvent[],
    }),
    skipped: t.field({
      type: 'NonNegativeInt',
      description: 'Events left out since the previous message because this subscriber fell behind or events came faster than its pace (LIVE_TAIL_MAX_EVENTS_PER_SECOND); 0 when none.',
      resolve: (message) => message.skipped,
    }),
  }),
});

builder.subscriptionType({});

builder.subscriptionField('liveEvents', (t) =>
  t.field({
    type: LiveEventsRef,
    description: 'Events of a dataset as they are stored, from the moment of subscribing; optionally only those matching an APL predicate.',
    args: {
      dataset: t.arg.string({ required: true }),
      filter: t.arg.string({ description: 'An APL predicate, e.g. status >= 500 and uri contains "api"' }),
    },
    subscribe: (_root, args, context) =>
      context.services.liveTail.open(context.principal(), {
        dataset: args.dataset,
        filter: args.filter,
        reauthenticate: () => context.reauthenticate(),
        signal: context.request.signal,
      }),
    resolve: (item: LiveItem) => {
      if ('failure' in item) throw item.failure;
      return item;
    },
  }),
);
