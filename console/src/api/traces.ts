// The trace page's calls: which datasets hold spans or carry trace ids (GraphQL, every dataset
// with its fields in one request per thousand datasets), the spans of one trace (only the fields
// the waterfall draws), one span's whole event (for its details) and the log events that carry
// its id (APL through the tabular query API), all bounded by a time range.
import { ApiError, graphql } from './client';
import { MAX_ROWS, runApl, type ResultTable } from './query';

/** Fields a log event may carry the trace id in; OTLP logs write `trace_id`. */
export const TRACE_ID_FIELDS = ['trace_id', 'traceId', 'trace.id', 'traceID'] as const;
/** Every span has these (OTLP spans: `parent_span_id` is empty for roots); log events lack the parent. */
const SPAN_FIELDS = ['trace_id', 'span_id', 'parent_span_id'];
const METRICS_KIND = 'otel:metrics:v1';
/** Log events shown per dataset at most. */
export const MAX_LOGS_PER_DATASET = 1000;

export interface TraceDataset {
  name: string;
  /** The dataset's spans carry `trace_id`, `span_id` and `parent_span_id`. */
  holdsSpans: boolean;
  /** The fields among TRACE_ID_FIELDS it has. */
  traceIdFields: string[];
  hasParentSpanId: boolean;
}

interface DatasetsPage {
  datasets: {
    edges: { node: { name: string; kind: string; fields: { name: string }[] } }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

const DATASETS_QUERY = `query TraceDatasets($after: String) {
  datasets(first: 1000, after: $after) {
    edges { node { name kind fields { name } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** The organization's event datasets that hold spans or carry a trace id field. */
export async function traceDatasets(signal?: AbortSignal): Promise<TraceDataset[]> {
  const found: TraceDataset[] = [];
  let after: string | null = null;
  for (;;) {
    const page: DatasetsPage = await graphql<DatasetsPage>(DATASETS_QUERY, { after }, signal);
    for (const { node } of page.datasets.edges) {
      if (node.kind === METRICS_KIND) continue;
      const names = new Set(node.fields.map((field) => field.name));
      const traceIdFields = TRACE_ID_FIELDS.filter((field) => names.has(field));
      if (traceIdFields.length === 0) continue;
      found.push({ name: node.name, holdsSpans: SPAN_FIELDS.every((field) => names.has(field)), traceIdFields, hasParentSpanId: names.has('parent_span_id') });
    }
    if (!page.datasets.pageInfo.hasNextPage || !page.datasets.pageInfo.endCursor) break;
    after = page.datasets.pageInfo.endCursor;
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

export interface TraceRange {
  /** RFC 3339. */
  start: string;
  end: string;
}

export interface DatasetRows {
  dataset: string;
  table: ResultTable;
  /** The server stopped at its row maximum: there may be more. */
  truncated: boolean;
}

const quoted = (text: string) => JSON.stringify(text);
const datasetRef = (name: string) => `['${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
const fieldRef = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : datasetRef(name));

/** The APL that reads the spans of a trace from a dataset, oldest first, whole (for the Query page). */
export function traceSpansApl(dataset: string, traceId: string): string {
  return `${datasetRef(dataset)} | where trace_id == ${quoted(traceId)} and isnotnull(parent_span_id) | sort by _time asc`;
}

/**
 * What the waterfall draws of a span, with the value a span lacking the field reads as; the rest
 * of its event (attributes, resource, links) is read when the span is opened. `trace_id` stays
 * out: every row has the one asked for.
 */
const WATERFALL_FIELDS: [string, string][] = [
  ['name', "''"],
  ['service.name', "''"],
  ['kind', "''"],
  ['duration', "''"],
  ['error', 'false'],
  ['status.code', "''"],
  ['status.message', "''"],
  ['events', "''"],
];

/**
 * The APL that reads the spans of a trace for the waterfall: only the fields it draws, whether
 * or not the dataset has them all (so it can be asked before the dataset's fields are known), in
 * no particular order: the tree orders siblings itself, and a span's end comes from its `duration`.
 */
export function waterfallSpansApl(dataset: string, traceId: string): string {
  const fields = WATERFALL_FIELDS.map(([field, missing]) => `${fieldRef(field)} = column_ifexists(${quoted(field)}, ${missing})`);
  return `${datasetRef(dataset)} | where trace_id == ${quoted(traceId)} and isnotnull(parent_span_id) | project _time, span_id, parent_span_id, ${fields.join(', ')}`;
}

/** The spans of a trace in each dataset named, with the fields the waterfall draws (tables as the server answers them). */
export async function fetchTraceSpans(traceId: string, datasets: string[], range: TraceRange, signal?: AbortSignal): Promise<DatasetRows[]> {
  return Promise.all(
    datasets.map(async (dataset) => {
      const answer = await runApl({ apl: waterfallSpansApl(dataset, traceId), startTime: range.start, endTime: range.end, limit: MAX_ROWS }, signal);
      const table = answer.tables[0];
      if (!table) throw new ApiError(`The query over ${dataset} returned no table.`, 500);
      return { dataset, table, truncated: (table.columns[0]?.length ?? 0) >= MAX_ROWS };
    }),
  );
}

/** The APL that reads one span's whole event. */
export function spanEventApl(dataset: string, traceId: string, spanId: string): string {
  return `${datasetRef(dataset)} | where trace_id == ${quoted(traceId)} and span_id == ${quoted(spanId)} and isnotnull(parent_span_id) | take 1`;
}

/** One span's whole event as field → value (fields it lacks left out), or undefined when it is gone. */
export async function fetchSpanEvent(dataset: string, traceId: string, spanId: string, range: TraceRange, signal?: AbortSignal): Promise<Record<string, unknown> | undefined> {
  const answer = await runApl({ apl: spanEventApl(dataset, traceId, spanId), startTime: range.start, endTime: range.end, limit: 1 }, signal);
  const table = answer.tables[0];
  if (!table || (table.columns[0]?.length ?? 0) === 0) return undefined;
  const event: Record<string, unknown> = {};
  table.fields.forEach((field, index) => {
    const value = table.columns[index]?.[0];
    if (value !== null && value !== undefined) event[field.name] = value;
  });
  return event;
}

export interface TraceLogsAnswer {
  found: DatasetRows[];
  /** Datasets the query could not read (no rights, gone since listed), with the server's message. */
  refused: { dataset: string; message: string }[];
}

/** Events that carry the trace id and are not spans, in every dataset that has a trace id field. */
export async function fetchTraceLogs(traceId: string, datasets: TraceDataset[], range: TraceRange, signal?: AbortSignal): Promise<TraceLogsAnswer> {
  const answer: TraceLogsAnswer = { found: [], refused: [] };
  await Promise.all(
    datasets.map(async (dataset) => {
      const matches = dataset.traceIdFields.map((field) => `${fieldRef(field)} == ${quoted(traceId)}`).join(' or ');
      const notSpans = dataset.hasParentSpanId ? ' and isnull(parent_span_id)' : '';
      const apl = `${datasetRef(dataset.name)} | where (${matches})${notSpans} | sort by _time asc | take ${MAX_LOGS_PER_DATASET}`;
      try {
        const result = await runApl({ apl, startTime: range.start, endTime: range.end, limit: MAX_LOGS_PER_DATASET }, signal);
        const table = result.tables[0];
        if (table && (table.columns[0]?.length ?? 0) > 0) answer.found.push({ dataset: dataset.name, table, truncated: (table.columns[0]?.length ?? 0) >= MAX_LOGS_PER_DATASET });
      } catch (error) {
        if (signal?.aborted) throw error;
        answer.refused.push({ dataset: dataset.name, message: error instanceof Error ? error.message : String(error) });
      }
    }),
  );
  answer.found.sort((a, b) => a.dataset.localeCompare(b.dataset));
  return answer;
}
