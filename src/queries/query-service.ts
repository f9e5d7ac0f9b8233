// Queries over datasets: APL (`/v1/datasets/_apl`, GraphQL `apl` and `events`) and the legacy
// query request (`/v1/datasets/{dataset}/query`). Resolves the datasets a query names within
// the caller's organization, requiring the query capability on each, and runs the APL engine
// over the event store's read connections.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  type AplRequest,
  datasetNamesOf,
  encodeCursor,
  type EngineDeps,
  executeApl,
  executeLegacyQuery,
  type LegacyFilter,
  type LegacyQueryRequest,
  type LegacyQueryResponse,
  type PreparedQuery,
  type QueryResult,
  parseExpression,
  parseQuery,
  prepareQuery,
  toMatches,
  toTabularResponse,
} from '../apl';
import { hasDatasetCapability, type Principal } from '../auth/principal';
import type { Config } from '../config';
import type { FieldDescription, Repository } from '../db/repository';
import type { RelationalStore } from '../db/store';
import { settingOrCreate } from '../db/settings';
import { DomainError, invalidInput } from '../errors';
import { parseInput } from '../lib/validation';
import { type DatasetRecord, type DatasetService, METRICS_KIND, requireEventsDataset, validateDatasetName } from '../datasets/datasets';
import type { DatasetSchema } from '../fields/schema';
import type { FieldRegistry } from '../datasets/schema/field-registry';
import type { EventStore } from '../events/store/store';
import { ViewSources } from '../datasets/view-sources';

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

/** What a query would produce, known without running it (see `QueryService.describe`). */
export interface QueryShape {
  /** The datasets the query reads. */
  datasets: string[];
  /** Result columns with their APL types (`int`, `real`, `string`, `datetime`, ...). */
  columns: { name: string; type: string }[];
  /** Set when the query aggregates: its group-by columns and time bin column. */
  aggregation?: { groupFields: string[]; timeBinField?: string };
  /** True when the result rows are stored events (filtered, extended or projected). */
  events: boolean;
}

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

/** Annotations of the datasets and time window of an answer (src/annotations), for the caller. */
export interface AnswerAnnotations {
  forAnswer(principal: Principal, datasets: readonly string[], window: { start?: Date; end?: Date }): Promise<unknown[] | undefined>;
}

/** An APL answer with the annotations it carries, when the caller may read them. */
export type AplAnswer = QueryResult & { annotations?: unknown[] };

/** The tabular wire shape of an answer, with an `annotations` list when there are any. */
export function tabularAnswer(answer: AplAnswer) {
  const annotations = answer.annotations;
  return { ...toTabularResponse(answer), ...(annotations && annotations.length > 0 ? { annotations } : {}) };
}

const NANOS_PER_MS = 1_000_000n;

export class QueryService {
  private readonly runner: EngineDeps['runner'];
  private readonly dialect: EngineDeps['dialect'];
  private readonly repository: Repository;
  private readonly views: ViewSources;

  private constructor(
    private readonly datasets: DatasetService,
    private readonly fields: FieldRegistry,
    store: EventStore,
    relational: RelationalStore,
    private readonly config: Config,
    private readonly cursorKey: string,
    private readonly annotations?: AnswerAnnotations,
  ) {
    this.runner = store.aplRunner;
    this.dialect = store.dialect;
    this.repository = relational.repository;
    this.views = new ViewSources(this.repository, datasets, this.schemaOf);
  }

  private priceBoundaries: (() => readonly bigint[] | undefined) | undefined;

  /** Where the compiler learns the installed price table's period boundaries (see CatalogPriceTable). */
  usePriceBoundaries(boundaries: () => readonly bigint[] | undefined): void {
    this.priceBoundaries = boundaries;
  }

  static async create(
    datasets: DatasetService,
    fields: FieldRegistry,
    store: EventStore,
    relational: RelationalStore,
    config: Config,
    annotations?: AnswerAnnotations,
  ) {
    // Cursors are signed so forged ones are refused; the key is shared by every instance and
    // survives restarts, so cursors do too.
    const cursorKey = await settingOrCreate(relational, 'cursor_key', () => randomBytes(32).toString('hex'));
    return new QueryService(datasets, fields, store, relational, config, cursorKey, annotations);
  }

  /**
   * Engine dependencies for one query. `resolved`, when given, collects the id of each dataset
   * it reads, by name, for reading what users set on their fields (see fieldNotes).
   * Names that are not datasets are left out of `resolveDatasets` for `resolveViews` to find.
   */
  private deps(principal: Principal, resolved?: Map<string, string>): EngineDeps {
    return {
      resolveDatasets: async (names) => {
        const schemas = await Promise.all(
          names.map(async (name) => {
            const dataset = await this.datasets.resolveFor(principal, name, 'query', 'read').catch((error: unknown) => {
              if (error instanceof DomainError && error.kind === 'not_found') return undefined;
              throw error;
            });
            if (!dataset) return undefined;
            requireEventsDataset(dataset);
            resolved?.set(dataset.name, dataset.id);
            return this.schemaOf(dataset);
          }),
        );
        return schemas.filter((schema) => schema !== undefined);
      },
      resolveViews: (names) => this.views.resolve(principal, names),
      listDatasets: async () =>
        (await this.datasets.list(principal))
          .filter((dataset) => dataset.kind !== METRICS_KIND)
          .map((dataset) => dataset.name)
          .filter((name) => hasDatasetCapability(principal, name, 'query', 'read')),
      runner: this.runner,
      dialect: this.dialect,
      maxQueryRows: this.config.maxQueryRows,
      queryTimeoutMs: this.config.queryTimeoutMs,
      maxResultBytes: this.config.queryMaxResultBytes,
      limits: this.config.apl,
      cursorKey: this.cursorKey,
      priceBoundaries: () => this.priceBoundaries?.(),
    };
  }

  /** The dataset as queries see it: its stored fields and its virtual fields, as they are now. */
  private readonly schemaOf = async (dataset: DatasetRecord): Promise<DatasetSchema> => {
    const schema = await this.fields.schemaOf(dataset);
    const virtualFields = await this.repository.virtualFields.of(dataset.id);
    return virtualFields.length > 0 ? { ...schema, virtualFields } : schema;
  };

  /**
   * Checks the query of a view as the principal would run it: it must parse, read only datasets
   * (no views) the principal may query, and analyze over them. Returns the datasets it reads.
   */
  async checkViewQuery(principal: Principal, apl: string): Promise<string[]> {
    const query = parseQuery(apl);
    const names = datasetNamesOf(query);
    if (names.length === 0) throw invalidInput('a view reads at least one dataset');
    const deps: EngineDeps = {
      ...this.deps(principal),
      resolveViews: async (others) => {
        for (const name of others) {
          if (await this.repository.views.byName(principal.orgId, name)) throw invalidInput(`a view cannot read another view ("${name}")`);
        }
        return [];
      },
    };
    await prepareQuery(query, {}, deps);
    return names;
  }

  /** Runs an APL request body (`{apl, startTime, endTime, cursor, includeCursor, variables}`). */
  async apl(principal: Principal, body: unknown, overrides: Partial<AplRequest> = {}): Promise<AplAnswer> {
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
    // What the answer carries besides its rows is read while the statement runs.
    let notes = new Map<string, FieldDescription[]>();
    let annotations: unknown[] | undefined;
    const result: AplAnswer = await executeApl(request, {
      ...this.deps(principal, resolved),
      alongside: async (prepared) => {
        [notes, annotations] = await Promise.all([this.fieldNotes(resolved), this.annotationsOf(principal, prepared.analyzed.datasets, prepared.window)]);
      },
    });
    this.describeFields(result.fieldsMeta, notes);
    if (annotations) result.annotations = annotations;
    return result;
  }

  /** The annotations of the datasets over the window, when the caller may read them. */
  private async annotationsOf(principal: Principal, datasets: readonly string[], { startNanos, endNanos }: PreparedQuery['window']) {
    if (!this.annotations) return undefined;
    const window = {
      ...(startNanos !== undefined ? { start: new Date(Number(startNanos / NANOS_PER_MS)) } : {}),
      // Rounded up, so an annotation in the last millisecond of the window is kept.
      ...(endNanos !== undefined ? { end: new Date(Number((endNanos + NANOS_PER_MS - 1n) / NANOS_PER_MS)) } : {}),
    };
    return this.annotations.forAnswer(principal, datasets, window);
  }

  /** What users set on the fields (unit, description, hidden) of each dataset, by name, as it is now. */
  private async fieldNotes(datasetIds: ReadonlyMap<string, string>): Promise<Map<string, FieldDescription[]>> {
    const entries = await Promise.all([...datasetIds].map(async ([name, id]) => [name, await this.repository.fields.described(id)] as const));
    return new Map(entries);
  }

  /**
   * Checks an APL query as the principal would run it (syntax, datasets and their query
   * capability, fields, types) without running it, and describes its result.
   */
  async describe(principal: Principal, apl: string): Promise<QueryShape> {
    const prepared = await prepareQuery(parseQuery(apl), {}, this.deps(principal));
    const { analyzed, columns } = prepared;
    const nameOf = (id: string) => columns.find((column) => column.id === id)?.name ?? id;
    const aggregation = analyzed.aggregation;
    return {
      datasets: analyzed.datasets,
      columns: columns.filter((column) => !column.hidden).map((column) => ({ name: column.name, type: column.type })),
      ...(aggregation
        ? {
            aggregation: {
              groupFields: aggregation.groupIds.map(nameOf),
              ...(aggregation.timeBin ? { timeBinField: nameOf(aggregation.timeBin.id) } : {}),
            },
          }
        : {}),
      events: analyzed.identity !== undefined,
    };
  }

  /** Fills in what users set on fields (unit, description, hidden), read by fieldNotes. */
  private describeFields(fieldsMeta: QueryResult['fieldsMeta'], notes: ReadonlyMap<string, FieldDescription[]>) {
    for (const [name, fields] of Object.entries(fieldsMeta)) {
      const described = notes.get(name);
      if (!described || described.length === 0) continue;
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
    // Read once, while the first statement runs (a legacy request may run two; it runs at least one).
    let notes: Promise<Map<string, FieldDescription[]>> | undefined;
    const response = await executeLegacyQuery(dataset, request, { ...this.deps(principal, resolved), alongside: () => (notes ??= this.fieldNotes(resolved)) }, signal);
    if (response.fieldsMeta && notes) this.describeFields({ [dataset]: response.fieldsMeta }, await notes);
    return response;
  }
}
