// Runs one query end to end: parse, resolve datasets, analyze, apply the request (time range,
// cursor, limits), compile for the dialect, execute within the time budget, and shape the
// answer as a QueryResult.
import { BoundedMemo, deepFreeze } from '../../lib/bounded-memo';
import type { DatasetSchema } from '../../fields/schema';
import { SYSTEM_FIELDS } from '../../fields/system-fields';
import { DomainError, invalidInput, notFound, timedOut, unavailable } from '../../errors';
import { type CompiledSql, type SqlDialect, STRING_TOO_LONG } from '../dialect/dialect';
import { duckdbDialect } from '../dialect/duckdb';
import { checkSyntaxLimits, DEFAULT_QUERY_LIMITS, type QueryLimits } from '../limits';
import { type AnalyzedQuery, analyze, type ViewSource } from '../semantic/analyzer';
import { datasetReferencesOf, matchesDatasetPattern } from '../semantic/references';
import { autoBinSpan } from '../semantic/functions';
import type { AplType, Rel, RelColumn } from '../semantic/plan';
import type { Query } from '../syntax/ast';
import { parseQuery } from '../syntax/parser';
import { formatDateTime, formatTimespan, nowNanos, parseRequestTime } from '../time';
import { decodeCursor, encodeCursor } from './cursor';
import { planKey, plansOf } from './plan-memo';
import type { FieldMeta, QueryResult, ResultField } from './result';
import type { QueryRunner, RowValue } from './runner';

export const DEFAULT_PAGE_SIZE = 1000;

export interface EngineDeps {
  /** The schemas of the named datasets the caller may query; unknown names are left out. */
  resolveDatasets(names: string[]): Promise<DatasetSchema[]>;
  /** Views among names that are not datasets, with what they read; unknown names are left out. */
  resolveViews?(names: string[]): Promise<ViewSource[]>;
  /**
   * Names of every dataset the caller may query: wildcard patterns (`union github*`) and
   * `search`/`find` without `in` read from these. Without it such queries are refused.
   */
  listDatasets?(): Promise<string[]>;
  runner: QueryRunner;
  /** Server maximum rows per query (`MAX_QUERY_ROWS`). */
  maxQueryRows: number;
  /** Time budget of one query (`QUERY_TIMEOUT_MS`), for every stage from parsing to the answer. */
  queryTimeoutMs: number;
  /** Largest result a query may read (`QUERY_MAX_RESULT_BYTES`); unbounded when undefined. */
  maxResultBytes?: number;
  /** Key that signs cursors. */
  cursorKey: string | Buffer;
  /** What one query may ask of the engine (default DEFAULT_QUERY_LIMITS). */
  limits?: QueryLimits;
  /** The clock, in epoch nanoseconds (tests pin it). */
  now?: () => bigint;
  /**
   * The price table's period boundaries (see CompileOptions.priceBoundaries); without them
   * every priced row looks its price up.
   */
  priceBoundaries?: () => readonly bigint[] | undefined;
  dialect?: SqlDialect;
  /**
   * Work the caller needs for its answer that does not depend on the rows (what it reads about
   * the plan's datasets and window). It starts once the statement is on its way to the event
   * store, so it overlaps the statement's run instead of following it; the answer waits for it,
   * and its failure is the query's.
   */
  alongside?(prepared: PreparedQuery): Promise<unknown>;
}

export interface AplRequest {
  apl: string;
  /** RFC 3339 or relative (`now-1h`); inclusive. */
  startTime?: string;
  /** RFC 3339 or relative; inclusive, so moving it to the last row's time loses nothing. */
  endTime?: string;
  cursor?: string;
  includeCursor?: boolean;
  /** The request's row limit (page size). */
  limit?: number;
  variables?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** Where the event identity sits among the statement's result columns. */
interface IdentityPositions {
  time: number;
  rowId: number;
  sysTime: number;
}

export interface PreparedQuery {
  analyzed: AnalyzedQuery;
  statement: CompiledSql;
  columns: RelColumn[];
  identityPositions?: IdentityPositions;
  /** The statement's rows are to be put newest first (by time, then row id) once read. */
  newestFirst?: boolean;
  /** Rows the caller gets at most; one more is fetched to know whether the result was cut. */
  effectiveLimit: number;
  window: { startNanos?: bigint; endNanos?: bigint };
  nowNanos: bigint;
  datasets: DatasetSchema[];
}

/** Syntax trees of query texts seen recently, per set of limits (dashboards and clients repeat their queries). */
const parsedTexts = new WeakMap<QueryLimits, BoundedMemo<Query>>();

/** The syntax tree of a query text, shared and frozen (nothing downstream changes it). */
function parseRemembered(text: string, limits: QueryLimits): Query {
  let memo = parsedTexts.get(limits);
  if (!memo) parsedTexts.set(limits, (memo = new BoundedMemo<Query>(256)));
  // Long texts are parsed each time: they are rarely repeated and would take the memory.
  if (text.length > 4096) return parseQuery(text, limits);
  return memo.get(text, () => deepFreeze(parseQuery(text, limits)));
}

/** Parses and runs an APL query. */
export async function executeApl(request: AplRequest, deps: EngineDeps): Promise<QueryResult> {
  const started = performance.now();
  const query = parseRemembered(request.apl, deps.limits ?? DEFAULT_QUERY_LIMITS);
  return executeQuery(query, request, deps, started);
}

/** Runs an already parsed query (the legacy query request arrives this way). */
export async function executeQuery(query: Query, request: Omit<AplRequest, 'apl'>, deps: EngineDeps, started = performance.now()): Promise<QueryResult> {
  // One budget for every stage: what compiling used is not left for the statement.
  const remaining = () => {
    const left = deps.queryTimeoutMs - (performance.now() - started);
    if (left <= 0) throw timedOut(`the query ran longer than its time budget of ${deps.queryTimeoutMs} ms and was cancelled`);
    return left;
  };
  const prepared = await prepareQuery(query, request, deps);
  const running = runStatement(prepared.statement, request, deps, Math.ceil(remaining()));
  // The next turn of the event loop: by then the statement has left for the store's threads.
  const alongside = deps.alongside ? new Promise((resolve) => setImmediate(resolve)).then(() => deps.alongside!(prepared)) : undefined;
  // Its failure is read once the rows are in (or dropped when the statement failed first); it
  // must not count as unhandled meanwhile.
  alongside?.catch(() => undefined);
  const rows = await running;
  if (prepared.newestFirst && prepared.identityPositions) sortNewestFirst(rows, prepared.identityPositions);
  const result = buildResult(prepared, rows, request, deps, started);
  await alongside;
  remaining();
  return result;
}

export async function prepareQuery(query: Query, request: Omit<AplRequest, 'apl'>, deps: EngineDeps): Promise<PreparedQuery> {
  const limits = deps.limits ?? DEFAULT_QUERY_LIMITS;
  checkSyntaxLimits(query, limits);
  const now = (deps.now ?? nowNanos)();
  const window = requestWindow(request, now);
  const { schemas, views } = await resolveReferences(query, deps);
  const boundaries = deps.priceBoundaries?.();
  const dialect = deps.dialect ?? duckdbDialect;
  // A shared (frozen) syntax tree over a closed window, reading datasets only: the plan may be
  // one remembered (see plan-memo). Trees built per request (legacy queries) are not.
  const key =
    Object.isFrozen(query) && views.size === 0 && window.startNanos !== undefined && window.endNanos !== undefined
      ? planKey({
          query,
          settings: [limits, dialect, boundaries, deps.maxQueryRows, deps.cursorKey],
          startNanos: window.startNanos,
          endNanos: window.endNanos,
          ...(request.cursor !== undefined ? { cursor: request.cursor } : {}),
          ...(request.includeCursor !== undefined ? { includeCursor: request.includeCursor } : {}),
          ...(request.limit !== undefined ? { limit: request.limit } : {}),
          ...(request.variables !== undefined ? { variables: request.variables } : {}),
          schemas,
        })
      : undefined;
  const plans = plansOf<PreparedQuery>(deps.runner);
  const remembered = key !== undefined ? plans.find(key) : undefined;
  if (remembered) return { ...remembered, nowNanos: now };

  const datasets = new Map(schemas.map((schema) => [schema.name, schema]));
  const windowNanos = window.startNanos !== undefined ? (window.endNanos ?? now) - window.startNanos : undefined;
  // A plan that read the clock holds this instant: it is not remembered.
  let readsClock = false;
  const context = {
    get nowNanos() {
      readsClock = true;
      return now;
    },
    autoBinSpan: autoBinSpan(windowNanos),
    cursorKey: deps.cursorKey,
    ...(windowNanos !== undefined ? { windowNanos } : {}),
  };
  const analyzed = analyze(query, {
    datasets,
    ...(views.size > 0 ? { views } : {}),
    context,
    ...(request.variables ? { variables: request.variables } : {}),
    limits,
  });
  let rel = analyzed.rel;

  for (const scan of analyzed.scans) {
    scan.range = { ...(window.startNanos !== undefined ? { startNanos: window.startNanos } : {}), ...(window.endNanos !== undefined ? { endNanos: window.endNanos } : {}) };
  }

  const direction = cursorDirection(analyzed);
  if (request.cursor !== undefined && request.cursor !== '') {
    const position = decodeCursor(request.cursor, deps.cursorKey);
    if (direction) {
      for (const scan of analyzed.scans) scan.cursor = { ...position, direction, inclusive: Boolean(request.includeCursor) };
    }
  }

  // Events come newest first unless the query orders them itself; rows a `take` or `sample`
  // picked without an order are put newest first too, whatever order the store read them in.
  // Those are few (the query bounds them), and are ordered once read: a sort in the engine
  // costs more than the whole statement of a small `take`.
  let newestFirst = false;
  if (analyzed.identity && (!analyzed.explicitOrder || analyzed.order.length === 0)) {
    const { timeId, rowIdId } = analyzed.identity;
    if (analyzed.explicitOrder && analyzed.limit !== undefined) newestFirst = true;
    else rel = {
      op: 'sort',
      columns: rel.columns,
      input: rel,
      keys: [
        { expr: { kind: 'column', id: timeId, type: 'datetime' }, desc: true, nullsFirst: false },
        { expr: { kind: 'column', id: rowIdId, type: 'int' }, desc: true, nullsFirst: false },
      ],
    };
  }

  const effectiveLimit = limitFor(analyzed, request.limit, deps.maxQueryRows);
  // Rows ordered once read are cut once ordered (buildResult), not before.
  if (!newestFirst && (analyzed.limit === undefined || effectiveLimit < analyzed.limit)) {
    rel = { op: 'limit', columns: rel.columns, input: rel, count: effectiveLimit + 1 };
  }

  const { columns, identity } = outputColumns(analyzed, rel);
  const statement = dialect.compile(rel, columns, {
    maxStringBytes: limits.maxStringBytes,
    ...(boundaries ? { priceBoundaries: boundaries } : {}),
  });
  const prepared: PreparedQuery = {
    analyzed,
    statement,
    columns,
    ...(identity ? { identityPositions: identity } : {}),
    ...(newestFirst ? { newestFirst } : {}),
    effectiveLimit,
    window,
    nowNanos: now,
    datasets: schemas,
  };
  if (key !== undefined && !readsClock) plans.set(key, prepared);
  return prepared;
}

/**
 * Schemas of the datasets a query reads: named ones (a missing one is a 404 unless a view has
 * its name), those matching its wildcard patterns or read by `search`/`find` without `in` (from
 * the caller's listing), and the legs of fuzzy unions that exist and are readable; and the views
 * it names.
 */
async function resolveReferences(query: Query, deps: EngineDeps): Promise<{ schemas: DatasetSchema[]; views: Map<string, ViewSource> }> {
  const references = datasetReferencesOf(query);
  const names = new Set(references.names);
  if (references.patterns.length > 0 || references.all) {
    if (!deps.listDatasets) throw invalidInput('dataset patterns and search or find without "in (...)" are not available here; name the datasets');
    const available = await deps.listDatasets();
    for (const name of available) {
      if (references.all || references.patterns.some((pattern) => matchesDatasetPattern(name, pattern))) names.add(name);
    }
  }
  const schemas = await deps.resolveDatasets([...names]);
  const resolved = new Set(schemas.map((schema) => schema.name));
  const others = [...names].filter((name) => !resolved.has(name));
  const views = new Map((others.length > 0 && deps.resolveViews ? await deps.resolveViews(others) : []).map((view) => [view.name, view]));
  const missing = others.find((name) => !views.has(name));
  if (missing !== undefined) throw notFound(`dataset "${missing}" not found`);
  for (const name of references.optional) {
    if (resolved.has(name)) continue;
    try {
      const found = await deps.resolveDatasets([name]);
      for (const schema of found) if (!resolved.has(schema.name)) schemas.push(schema);
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'not_found' || error.kind === 'forbidden' || error.kind === 'invalid_input')) continue;
      throw error;
    }
  }
  return { schemas, views };
}

function requestWindow(request: Omit<AplRequest, 'apl'>, now: bigint): { startNanos?: bigint; endNanos?: bigint } {
  const parse = (value: string | undefined, which: string) => {
    if (value === undefined || value === '') return undefined;
    const nanos = parseRequestTime(value, now);
    if (nanos === undefined) throw invalidInput(`${which} must be an RFC 3339 time or relative to now (e.g. now-1h), got "${value}"`, { [which]: value });
    // Event times are nanoseconds in a signed 64-bit integer: 1677-09-21 to 2262-04-11.
    if (nanos < -(2n ** 63n) || nanos >= 2n ** 63n) throw invalidInput(`${which} "${value}" lies outside the range of event times (1677 to 2262)`, { [which]: value });
    return nanos;
  };
  const startNanos = parse(request.startTime, 'startTime');
  const endNanos = parse(request.endTime, 'endTime');
  if (startNanos !== undefined && endNanos !== undefined && startNanos > endNanos) throw invalidInput('startTime must not be after endTime');
  return { ...(startNanos !== undefined ? { startNanos } : {}), ...(endNanos !== undefined ? { endNanos } : {}) };
}

/** Which way a cursor continues: only for event results ordered by time. */
function cursorDirection(analyzed: AnalyzedQuery): 'asc' | 'desc' | undefined {
  if (!analyzed.identity) return undefined;
  if (!analyzed.explicitOrder) return 'desc';
  const first = analyzed.order[0];
  if (first && first.id === analyzed.identity.timeId) return first.desc ? 'desc' : 'asc';
  return undefined;
}

/** The lowest of the query's limit, the request's limit and the server maximum. */
function limitFor(analyzed: AnalyzedQuery, requested: number | undefined, maximum: number): number {
  if (requested !== undefined && (!Number.isFinite(requested) || requested < 0)) throw invalidInput('limit must be a number >= 0');
  const fallback = analyzed.limit !== undefined ? Infinity : analyzed.aggregation ? maximum : DEFAULT_PAGE_SIZE;
  return Math.min(analyzed.limit ?? Infinity, requested !== undefined ? Math.floor(requested) : fallback, maximum);
}

/** Visible columns, then whichever event identity columns are not among them (for cursors). */
function outputColumns(analyzed: AnalyzedQuery, rel: Rel): { columns: RelColumn[]; identity?: IdentityPositions } {
  const columns = rel.columns.filter((c) => !c.hidden && !c.implicit);
  if (!analyzed.identity) return { columns };
  const position = (id: string) => {
    const at = columns.findIndex((c) => c.id === id);
    if (at >= 0) return at;
    columns.push({ ...rel.columns.find((c) => c.id === id)!, hidden: true });
    return columns.length - 1;
  };
  const { timeId, rowIdId, sysTimeId } = analyzed.identity;
  return { columns, identity: { time: position(timeId), rowId: position(rowIdId), sysTime: position(sysTimeId) } };
}

async function runStatement(statement: CompiledSql, request: Omit<AplRequest, 'apl'>, deps: EngineDeps, timeoutMs: number): Promise<RowValue[][]> {
  try {
    const { rows } = await deps.runner.run(statement, {
      timeoutMs,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(deps.maxResultBytes !== undefined ? { maxResultBytes: deps.maxResultBytes } : {}),
    });
    return rows;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'timeout' && !request.signal?.aborted) {
      throw timedOut(`the query ran longer than its time budget of ${deps.queryTimeoutMs} ms and was cancelled`);
    }
    if (error instanceof DomainError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const tooLong = message.indexOf(STRING_TOO_LONG);
    if (tooLong >= 0) throw invalidInput(`the query could not run: ${message.slice(tooLong).split('\n')[0]}`);
    if (/^Out of Memory Error/.test(message)) {
      throw unavailable('the query needs more memory than the event store has free (DUCKDB_MEMORY_LIMIT): narrow it, or retry later');
    }
    // Failures caused by the data meeting the query (bad regex, impossible conversion) are the caller's.
    if (/^(Conversion|Out of Range|Invalid Input) Error/.test(message)) {
      throw invalidInput(`the query could not run: ${message.split('\n')[0]}`);
    }
    throw error;
  }
}

const WIRE_TYPES: Record<AplType, string> = {
  bool: 'boolean',
  int: 'integer',
  real: 'float',
  string: 'string',
  datetime: 'datetime',
  timespan: 'timespan',
  dynamic: 'dynamic',
  null: 'string',
};

function wireType(column: RelColumn): string {
  if (column.stored && column.type === 'dynamic') return column.stored.type;
  return WIRE_TYPES[column.type];
}

const asBigInt = (value: RowValue): bigint => (typeof value === 'bigint' ? value : BigInt(value as number));
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

type Decoder = (value: NonNullable<RowValue>) => unknown;

/** One decoder per APL type, chosen once per column rather than per value. */
const DECODERS: Record<AplType, Decoder> = {
  datetime: (value) => formatDateTime(asBigInt(value)),
  timespan: (value) => formatTimespan(asBigInt(value)),
  // Integers beyond 2^53 travel as decimal strings so no digit is lost.
  int: (value) => {
    if (typeof value === 'number') return value;
    const big = asBigInt(value);
    return big >= MIN_SAFE && big <= MAX_SAFE ? Number(big) : big.toString();
  },
  real: (value) => {
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  },
  dynamic: (value) => {
    try {
      return JSON.parse(String(value));
    } catch {
      return String(value);
    }
  },
  bool: (value) => Boolean(value),
  string: (value) => (typeof value === 'bigint' ? value.toString() : value),
  null: (value) => (typeof value === 'bigint' ? value.toString() : value),
};

export function decodeValue(value: RowValue, type: AplType): unknown {
  return value === null || value === undefined ? null : DECODERS[type](value);
}

function decodeColumn(rows: RowValue[][], index: number, type: AplType): unknown[] {
  const decode = DECODERS[type];
  const values = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i]![index];
    values[i] = value === null || value === undefined ? null : decode(value);
  }
  return values;
}

/** Orders rows by event time, then row id, both descending, rows without a time last. */
function sortNewestFirst(rows: RowValue[][], positions: IdentityPositions): void {
  const keyed = rows.map((row) => ({ row, time: optionalBigInt(row[positions.time]), rowId: optionalBigInt(row[positions.rowId]) }));
  const descending = (a: bigint | undefined, b: bigint | undefined) => (a === b ? 0 : a === undefined ? 1 : b === undefined ? -1 : a > b ? -1 : 1);
  keyed.sort((a, b) => descending(a.time, b.time) || descending(a.rowId, b.rowId));
  for (let i = 0; i < rows.length; i++) rows[i] = keyed[i]!.row;
}

function optionalBigInt(value: RowValue | undefined): bigint | undefined {
  return value === null || value === undefined ? undefined : asBigInt(value);
}

function bigintColumn(rows: RowValue[][], index: number): bigint[] {
  const values = new Array<bigint>(rows.length);
  for (let i = 0; i < rows.length; i++) values[i] = asBigInt(rows[i]![index]!);
  return values;
}

function buildResult(prepared: PreparedQuery, rawRows: RowValue[][], request: Omit<AplRequest, 'apl'>, deps: EngineDeps, started: number): QueryResult {
  const { analyzed, columns, effectiveLimit, window, datasets } = prepared;
  const isPartial = rawRows.length > effectiveLimit;
  const rows = isPartial ? rawRows.slice(0, effectiveLimit) : rawRows;
  const visible = columns.filter((c) => !c.hidden);
  const tableColumns = visible.map((column, index) => decodeColumn(rows, index, column.type));

  const fields: ResultField[] = visible.map((column) => {
    const info = analyzed.aggregation?.infos.get(column.id);
    return info ? { name: column.name, type: wireType(column), agg: info } : { name: column.name, type: wireType(column) };
  });
  const nameOf = (id: string) => columns.find((c) => c.id === id)?.name ?? id;

  let events: QueryResult['events'];
  let minCursor: string | undefined;
  let maxCursor: string | undefined;
  const positions = prepared.identityPositions;
  if (positions) {
    events = {
      time: bigintColumn(rows, positions.time),
      rowId: bigintColumn(rows, positions.rowId),
      sysTime: bigintColumn(rows, positions.sysTime),
    };
    let min = -1;
    let max = -1;
    const before = (a: number, b: number) => events!.time[a]! < events!.time[b]! || (events!.time[a] === events!.time[b] && events!.rowId[a]! < events!.rowId[b]!);
    for (let i = 0; i < rows.length; i++) {
      if (min < 0 || before(i, min)) min = i;
      if (max < 0 || before(max, i)) max = i;
    }
    if (min >= 0) {
      minCursor = encodeCursor({ timeNanos: events.time[min]!, rowId: events.rowId[min]! }, deps.cursorKey);
      maxCursor = max === min ? minCursor : encodeCursor({ timeNanos: events.time[max]!, rowId: events.rowId[max]! }, deps.cursorKey);
    } else if (request.cursor) {
      // An empty page answers with the cursor it was given: the walk has reached its end.
      minCursor = request.cursor;
      maxCursor = request.cursor;
    }
  }

  const now = prepared.nowNanos;
  const rangeStart = formatDateTime(window.startNanos ?? 0n);
  const rangeEnd = formatDateTime(window.endNanos ?? now);
  const times = events?.time ?? [];
  const minTime = times.length ? times.reduce((a, b) => (b < a ? b : a)) : (window.startNanos ?? 0n);
  const maxTime = times.length ? times.reduce((a, b) => (b > a ? b : a)) : (window.endNanos ?? now);

  const aggregation = analyzed.aggregation;
  const timeBin = aggregation?.timeBin;
  const datasetNames = analyzed.datasets;
  const fieldsMeta: Record<string, FieldMeta[]> = {};
  for (const schema of datasets) {
    if (!datasetNames.includes(schema.name)) continue;
    fieldsMeta[schema.name] = schema.fields
      .filter((field) => !(SYSTEM_FIELDS as readonly string[]).includes(field.name))
      .map((field) => ({ name: field.name, type: field.type, unit: '', hidden: false, description: '' }));
  }

  return {
    datasetNames,
    fieldsMeta,
    status: {
      elapsedTime: Math.round((performance.now() - started) * 1000),
      blocksExamined: 0,
      blocksCached: 0,
      blocksMatched: 0,
      rowsExamined: rows.length,
      rowsMatched: rows.length,
      numGroups: aggregation ? rows.length : 0,
      isPartial,
      cacheStatus: 0,
      minBlockTime: formatDateTime(minTime),
      maxBlockTime: formatDateTime(maxTime),
      ...(minCursor ? { minCursor, maxCursor: maxCursor! } : {}),
    },
    table: {
      name: '0',
      sources: datasetNames.map((name) => ({ name })),
      fields,
      order: analyzed.identity && !analyzed.explicitOrder ? [{ field: '_time', desc: true }] : analyzed.order.map((o) => ({ field: o.name, desc: o.desc })),
      groups: (aggregation?.groupIds ?? []).map((id) => ({ name: nameOf(id) })),
      range: { field: '_time', start: rangeStart, end: rangeEnd },
      ...(timeBin ? { buckets: { field: nameOf(timeBin.id), size: Number(timeBin.spanNanos) } } : {}),
      columns: tableColumns,
    },
    ...(events ? { events } : {}),
    ...(aggregation
      ? {
          aggregation: {
            groupFields: aggregation.groupIds.map(nameOf),
            ...(timeBin ? { timeBin: { field: nameOf(timeBin.id), spanNanos: timeBin.spanNanos } } : {}),
            aggregateFields: visible
              .filter((c) => !aggregation.groupIds.includes(c.id))
              .map((c) => {
                const info = aggregation.infos.get(c.id);
                return info ? { name: c.name, info } : { name: c.name };
              }),
          },
        }
      : {}),
    window,
  };
}
