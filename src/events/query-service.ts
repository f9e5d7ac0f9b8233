// Queries over datasets: APL (`/v1/datasets/_apl`, GraphQL `apl` and `events`) and the legacy
// query request (`/v1/datasets/{dataset}/query`). Resolves the datasets a query names within
// the caller's organization, requiring the query capability on each, and runs the APL engine
// over the event store's read connections.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  type AplRequest,
  encodeCursor,
  type EngineDeps,
  executeApl,
  executeLegacyQuery,
  type LegacyFilter,
  type LegacyQueryRequest,
  type LegacyQueryResponse,
  type QueryResult,
  parseExpression,
  registerAplFunctions,
  runnerOver,
  toMatches,
} from '../apl';
import { hasDatasetCapability, type Principal } from '../auth/principal';
import type { Config } from '../config';
import type { Repository } from '../db/repository';
import type { RelationalStore } from '../db/store';
import { settingOrCreate } from '../db/settings';
import { parseInput } from '../validation';
import { type DatasetService, validateDatasetName } from './datasets';
import type { FieldRegistry } from './schema/field-registry';
import type { EventStore } from './store/event-store';

const aplRequestSchema = z.object({
  apl: z.string({ error: 'is required' }).min(1, 'must not be empty'),
  startTime: z.string().optional(),
  endTime: z.string().optional(),
  cursor: z.string().optional(),
  includeCursor: z.boolean().optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
  queryOptions: z.record(z.string(), z.unknown()).optional(),
  limit: z.number().int().positive().optional(),
});

const legacyFilterSchema: z.ZodType<LegacyFilter> = z.lazy(() =>
  z.looseObject({
    op: z.string({ error: 'is required' }),
    field: z.string().optional(),
    value: z.unknown().optional(),
    caseSensitive: z.boolean().optional(),
    children: z.array(legacyFilterSchema).max(1000).optional(),
  }),
);

/** The legacy request's whole shape, so that nothing the translation reads can surprise it. */
const legacyRequestSchema = z.looseObject({
  startTime: z.string({ error: 'is required' }),
  endTime: z.string({ error: 'is required' }),
  resolution: z.string({ error: 'is required' }),
  limit: z.number().int().min(0).max(50_000, 'must be at most 50000').optional(),
  cursor: z.string().optional(),
  includeCursor: z.boolean().optional(),
  filter: legacyFilterSchema.optional(),
  aggregations: z
    .array(z.looseObject({ op: z.string({ error: 'is required' }), field: z.string().optional(), alias: z.string().optional(), argument: z.unknown().optional() }))
    .max(100)
    .optional(),
  groupBy: z.array(z.string()).max(100).optional(),
  order: z.array(z.looseObject({ field: z.string({ error: 'is required' }), desc: z.boolean().default(false) })).max(100).optional(),
  project: z.array(z.looseObject({ field: z.string({ error: 'is required' }), alias: z.string().optional() })).max(1000).optional(),
  virtualFields: z.array(z.looseObject({ alias: z.string({ error: 'is required' }), expr: z.string({ error: 'is required' }) })).max(100).optional(),
});

export type AplQueryInput = z.input<typeof aplRequestSchema>;

/** One page of a dataset's events in time order, for cursor-paged clients (GraphQL). */
export interface EventsPageRequest {
  dataset: string;
  /** An APL predicate, as after `where` (e.g. `status >= 500 and uri contains "api"`). */
  filter?: string;
  startTime?: string;
  endTime?: string;
  /** `older` walks from the newest event back in time; `newer` walks forward. */
  direction: 'older' | 'newer';
  /** Continue after this event (exclusive). */
  cursor?: string;
  limit: number;
  /** Cancels the query (a deadline, a client that went away). */
  signal?: AbortSignal;
}

export interface PagedEvent {
  cursor: string;
  time: string;
  sysTime: string;
  rowId: string;
  data: Record<string, unknown>;
}

export interface EventsPage {
  events: PagedEvent[];
  /** More events lie beyond the last one in the walking direction. */
  hasMore: boolean;
}

export class QueryService {
  private readonly runner: EngineDeps['runner'];
  private readonly repository: Repository;

  private constructor(
    private readonly datasets: DatasetService,
    private readonly fields: FieldRegistry,
    store: EventStore,
    relational: RelationalStore,
    private readonly config: Config,
    private readonly cursorKey: string,
  ) {
    this.runner = runnerOver(store);
    this.repository = relational.repository;
  }

  private priceBoundaries: (() => readonly bigint[] | undefined) | undefined;

  /** Where the compiler learns the installed price table's period boundaries (see CatalogPriceTable). */
  usePriceBoundaries(boundaries: () => readonly bigint[] | undefined): void {
    this.priceBoundaries = boundaries;
  }

  static async create(datasets: DatasetService, fields: FieldRegistry, store: EventStore, relational: RelationalStore, config: Config) {
    // Registered again on every database the store opens (it reopens after a fatal error).
    await store.onOpen(registerAplFunctions);
    // Cursors are signed so forged ones are refused; the key is shared by every instance and
    // survives restarts, so cursors do too.
    const cursorKey = await settingOrCreate(relational, 'cursor_key', () => randomBytes(32).toString('hex'));
    return new QueryService(datasets, fields, store, relational, config, cursorKey);
  }

  /** Engine dependencies for one query; `resolved` collects the ids of the datasets it reads. */
  private deps(principal: Principal, resolved = new Map<string, string>()): EngineDeps {
    return {
      resolveDatasets: (names) =>
        Promise.all(
          names.map(async (name) => {
            const dataset = await this.datasets.resolveFor(principal, name, 'query', 'read');
            resolved.set(dataset.name, dataset.id);
            return this.fields.schemaOf(dataset);
          }),
        ),
      listDatasets: async () =>
        (await this.datasets.list(principal))
          .map((dataset) => dataset.name)
          .filter((name) => hasDatasetCapability(principal, name, 'query', 'read')),
      runner: this.runner,
      maxQueryRows: this.config.maxQueryRows,
      queryTimeoutMs: this.config.queryTimeoutMs,
      maxResultBytes: this.config.queryMaxResultBytes,
      limits: this.config.apl,
      cursorKey: this.cursorKey,
      priceBoundaries: () => this.priceBoundaries?.(),
    };
  }

  /** Runs an APL request body (`{apl, startTime, endTime, cursor, includeCursor, variables}`). */
  async apl(principal: Principal, body: unknown, overrides: Partial<AplRequest> = {}): Promise<QueryResult> {
    const input = parseInput(aplRequestSchema, body);
    const request: AplRequest = {
      apl: input.apl,
      ...(input.startTime !== undefined ? { startTime: input.startTime } : {}),
      ...(input.endTime !== undefined ? { endTime: input.endTime } : {}),
      ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
      ...(input.includeCursor !== undefined ? { includeCursor: input.includeCursor } : {}),
      ...(input.variables !== undefined ? { variables: input.variables } : {}),
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...overrides,
    };
    const resolved = new Map<string, string>();
    const result = await executeApl(request, this.deps(principal, resolved));
    await this.describeFields(result.fieldsMeta, resolved);
    return result;
  }

  /** Fills in what users set on fields (unit, description, hidden) from the registry, as it is now. */
  private async describeFields(fieldsMeta: QueryResult['fieldsMeta'], datasetIds: Map<string, string>) {
    for (const [name, fields] of Object.entries(fieldsMeta)) {
      const id = datasetIds.get(name);
      if (!id) continue;
      const described = await this.repository.fields.described(id);
      if (described.length === 0) continue;
      const byName = new Map(described.map((row) => [row.name, row]));
      for (const field of fields) {
        const row = byName.get(field.name);
        if (row) Object.assign(field, { unit: row.unit, description: row.description, hidden: row.hidden });
      }
    }
  }

  /** A page of events, each with the cursor that continues the walk after it. */
  async eventsPage(principal: Principal, request: EventsPageRequest): Promise<EventsPage> {
    validateDatasetName(request.dataset);
    if (request.filter !== undefined && request.filter.trim() !== '') parseExpression(request.filter, this.config.apl); // one predicate, nothing more
    const where = request.filter?.trim() ? ` | where ${request.filter}` : '';
    const order = request.direction === 'older' ? 'desc' : 'asc';
    const result = await executeApl(
      {
        apl: `['${request.dataset}']${where} | sort by _time ${order}, _rowId ${order}`,
        limit: request.limit + 1,
        ...(request.startTime !== undefined ? { startTime: request.startTime } : {}),
        ...(request.endTime !== undefined ? { endTime: request.endTime } : {}),
        ...(request.cursor !== undefined ? { cursor: request.cursor } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      },
      this.deps(principal),
    );
    const identity = result.events!;
    const matches = toMatches(result);
    const events = matches.slice(0, request.limit).map((match, i) => ({
      cursor: encodeCursor({ timeNanos: identity.time[i]!, rowId: identity.rowId[i]! }, this.cursorKey),
      time: match._time,
      sysTime: match._sysTime,
      rowId: match._rowId,
      data: match.data,
    }));
    return { events, hasMore: matches.length > request.limit };
  }

  /** Runs a legacy query request against one dataset. */
  async legacy(principal: Principal, dataset: string, body: unknown, signal?: AbortSignal): Promise<LegacyQueryResponse> {
    await this.datasets.resolveFor(principal, dataset, 'query', 'read');
    const request: LegacyQueryRequest = parseInput(legacyRequestSchema, body);
    const resolved = new Map<string, string>();
    const response = await executeLegacyQuery(dataset, request, this.deps(principal, resolved), signal);
    if (response.fieldsMeta) await this.describeFields({ [dataset]: response.fieldsMeta }, resolved);
    return response;
  }
}
