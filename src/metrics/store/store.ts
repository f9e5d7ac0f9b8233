// What the metrics service, the dataset storage and the MPL engine ask of a metrics store,
// whichever engine holds it: the embedded DuckDB file (`metrics-store.ts`) or the ClickHouse
// the events live in (`clickhouse/clickhouse-metrics-store.ts`). Each store brings the MPL
// dialect and the discovery queries that read its own layout.
import type { EngineHealth } from '../../engines/health';
import type { QueryOptions } from '../../engines/duckdb/query-runner';
import { resultTooLarge } from '../../engines/result-size';
import type { MetricDescriptor, MetricType, PointClass, SeriesPoints } from '../model';
import type { CompiledMetricsSql, MetricsDialect, SeriesRow } from '../mpl/dialect/dialect';
import type { InfoRange, MetricInfo, TagValueJson } from './info';

/** What a metric's series say about it (a metric may mix types or temporalities). */
export interface MetricSummary {
  name: string;
  series: number;
  types: Set<MetricType>;
  temporalities: Set<string>;
  units: Set<string>;
  pointClasses: Set<PointClass>;
}

export interface WriteResult {
  points: number;
  /** Series this write introduced (as far as this instance knows). */
  newSeries: number;
  /** Blocks of points written (data chunks, or inserts). */
  chunks: number;
}

/** The discovery routes' questions, over points within a time range. */
export interface MetricsInfo {
  metrics(table: string, range: InfoRange): Promise<Record<string, MetricInfo>>;
  tags(table: string, range: InfoRange, metric?: string): Promise<string[]>;
  tagValues(table: string, range: InfoRange, tag: string, metric?: string): Promise<TagValueJson[]>;
  find(table: string, range: InfoRange, value: string): Promise<Record<string, string[]>>;
  exists(table: string, what: { metric?: string; tag?: string }): Promise<boolean>;
}

/** How an MPL statement runs: its time budget, the largest answer, and the caller's signal. */
export type MplRunOptions = Pick<QueryOptions, 'timeoutMs' | 'maxResultBytes' | 'signal'> & { timeoutMs: number };

export interface MetricsStore {
  readonly engine: 'duckdb' | 'clickhouse' | 'chdb';
  /** Whether the store can serve, for the health check (answers at once; checks in the background). */
  probe(): EngineHealth;
  /** The MPL dialect reading this store's layout. */
  readonly dialect: MetricsDialect;
  readonly info: MetricsInfo;
  /** Whether the dataset's tables are known to exist (created here, found at start, or ensured). */
  hasDataset(table: string): boolean;
  /**
   * Whether the engine holds the dataset's tables, asking it when this instance has not seen the
   * dataset (one created through another instance sharing the engine).
   */
  holdsDataset(table: string): Promise<boolean>;
  createDataset(table: string): Promise<void>;
  dropDataset(table: string): Promise<void>;
  /** The metrics of a dataset and what their series say about them. */
  metricsOf(table: string): Promise<ReadonlyMap<string, MetricSummary>>;
  /** Stores the points of a batch of series, creating and updating their series. */
  write(table: string, batch: SeriesPoints[]): Promise<WriteResult>;
  /** Deletes points older than `olderThan`; returns how many. */
  trim(table: string, olderThan: Date): Promise<number>;
  /** Forgets series that no longer hold any point; returns how many. */
  vacuum(table: string): Promise<number>;
  /** Runs a compiled MPL statement: one row per series. */
  runMpl(statement: CompiledMetricsSql, options: MplRunOptions): Promise<SeriesRow[]>;
  /** Resolves once every queued write has settled. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Refuses an MPL answer whose series take more than `maxResultBytes` (tag names and values by
 * length, each time and value 8 bytes), measured alike whichever store computed it.
 */
export function checkAnswerSize(rows: SeriesRow[], maxResultBytes: number | undefined): SeriesRow[] {
  if (maxResultBytes === undefined) return rows;
  let bytes = 0;
  for (const row of rows) {
    for (const tag of row.tags) bytes += tag.k.length + tag.v.length + 16;
    bytes += 8 * (row.ts.length + row.vs.length);
    if (bytes > maxResultBytes) throw resultTooLarge(maxResultBytes);
  }
  return rows;
}

/** A series' description as the store keeps it. */
export interface SeriesDescription {
  metric: string;
  pointClass: PointClass;
  type: MetricType;
  temporality: MetricDescriptor['temporality'];
  monotonic: boolean | null;
  unit: string;
}

export const sameDescription = (meta: SeriesDescription, metric: MetricDescriptor) =>
  meta.type === metric.type && meta.temporality === metric.temporality && meta.monotonic === metric.monotonic && meta.unit === metric.unit;

/** Adds a series' description to the summaries of its metric. */
export function addToSummaries(summaries: Map<string, MetricSummary>, meta: SeriesDescription, series = 1): void {
  let summary = summaries.get(meta.metric);
  if (!summary) {
    summary = { name: meta.metric, series: 0, types: new Set(), temporalities: new Set(), units: new Set(), pointClasses: new Set() };
    summaries.set(meta.metric, summary);
  }
  summary.series += series;
  summary.types.add(meta.type);
  if (meta.temporality) summary.temporalities.add(meta.temporality);
  if (meta.unit) summary.units.add(meta.unit);
  summary.pointClasses.add(meta.pointClass);
}
