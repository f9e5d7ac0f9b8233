// GraphQL over queries: `apl` returns the tabular result of an APL query with its status
// typed; `events` pages through a dataset's events as a Relay connection whose cursors are the
// same signed (_time, _rowId) cursors as the REST API's minCursor/maxCursor.
import type { QueryStatus } from '../../apl';
import { invalidInput } from '../../errors';
import { type PagedEvent, tabularAnswer } from '../../queries/query-service';
import { builder } from './builder';
import { restBody } from './rest-body';

const MAX_PAGE = 1000;
const DEFAULT_PAGE = 50;

const QueryStatusRef = builder.objectRef<QueryStatus>('QueryStatus').implement({
  description: 'How a query ran, as in the REST status object',
  fields: (t) => ({
    elapsedTime: t.exposeInt('elapsedTime', { description: 'Microseconds' }),
    rowsExamined: t.exposeInt('rowsExamined'),
    rowsMatched: t.exposeInt('rowsMatched'),
    numGroups: t.exposeInt('numGroups'),
    isPartial: t.exposeBoolean('isPartial'),
    minBlockTime: t.exposeString('minBlockTime'),
    maxBlockTime: t.exposeString('maxBlockTime'),
    minCursor: t.exposeString('minCursor', { nullable: true, description: 'Send as `cursor` for the next page of a descending query' }),
    maxCursor: t.exposeString('maxCursor', { nullable: true, description: 'Send as `cursor` for the next page of an ascending query' }),
  }),
});

export const AplResultRef = builder.objectRef<ReturnType<typeof tabularAnswer>>('AplResult').implement({
  fields: (t) => ({
    status: t.field({ type: QueryStatusRef, resolve: (result) => result.status }),
    datasetNames: t.exposeStringList('datasetNames'),
    result: t.field({ type: 'JSON', description: 'The whole tabular response, as POST /v1/datasets/_apl?format=tabular returns it', resolve: (result) => result }),
  }),
});

const EventRef = builder.objectRef<PagedEvent>('Event').implement({
  description: 'One stored event',
  fields: (t) => ({
    time: t.exposeString('time', { description: '_time, RFC 3339 with nanoseconds' }),
    sysTime: t.exposeString('sysTime', { description: '_sysTime: when the server received it' }),
    rowId: t.exposeString('rowId'),
    data: t.field({ type: 'JSON', description: 'The fields, nested ones dot-separated', resolve: (event) => event.data }),
  }),
});

builder.queryFields((t) => ({
  apl: t.field({
    type: AplResultRef,
    description: 'Runs an APL query',
    args: {
      query: t.arg.string({ required: true }),
      startTime: t.arg.string({ description: 'RFC 3339 or relative (now-1h)' }),
      endTime: t.arg.string({ description: 'RFC 3339 or relative (now)' }),
      cursor: t.arg.string(),
      includeCursor: t.arg.boolean(),
      variables: t.arg({ type: 'JSON' }),
    },
    resolve: async (_root, args, context) => {
      const { query, ...options } = args;
      return tabularAnswer(await context.services.queries.apl(context.principal(), restBody({ apl: query, ...options }), { signal: context.signal }));
    },
  }),
  events: t.connection({
    type: EventRef,
    description: 'The events of a dataset, newest first; `first`/`after` walk back in time, `last`/`before` forward',
    args: {
      dataset: t.arg.string({ required: true }),
      filter: t.arg.string({ description: 'An APL predicate, e.g. status >= 500 and uri contains "api"' }),
      startTime: t.arg.string({ description: 'RFC 3339 or relative (now-1h)' }),
      endTime: t.arg.string({ description: 'RFC 3339 or relative (now)' }),
    },
    resolve: async (_root, args, context) => {
      const backward = args.last !== null && args.last !== undefined;
      if (backward && (args.first != null || args.after != null)) throw invalidInput('page with first/after or with last/before, not both');
      if (!backward && args.before != null) throw invalidInput('before needs last');
      const size = (backward ? args.last : args.first) ?? DEFAULT_PAGE;
      if (size < 0 || size > MAX_PAGE) throw invalidInput(`${backward ? 'last' : 'first'} must be between 0 and ${MAX_PAGE}`);
      const cursor = (backward ? args.before : args.after) ?? undefined;
      const page = await context.services.queries.eventsPage(context.principal(), {
        dataset: args.dataset,
        direction: backward ? 'newer' : 'older',
        limit: size,
        ...(args.filter != null ? { filter: args.filter } : {}),
        ...(args.startTime != null ? { startTime: args.startTime } : {}),
        ...(args.endTime != null ? { endTime: args.endTime } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
        signal: context.signal,
      });
      // The connection lists newest first, so a backward page (fetched oldest first) is reversed.
      const events = backward ? [...page.events].reverse() : page.events;
      const edges = events.map((event) => ({ cursor: event.cursor, node: event }));
      return {
        edges,
        pageInfo: {
          hasNextPage: backward ? cursor !== undefined : page.hasMore,
          hasPreviousPage: backward ? page.hasMore : cursor !== undefined,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges.at(-1)?.cursor ?? null,
        },
      };
    },
  }),
}));
