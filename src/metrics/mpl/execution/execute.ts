// Runs an MPL query: parse, analyze against the caller's datasets, compile for the dialect,
// run on the metrics store's read connections, and lay each series out on the answer's grid.
import { parseRequestTime } from '../../../apl/time';
import { invalidInput } from '../../../errors';
import type { CompiledMetricsSql, MetricsDialect, SeriesRow } from '../dialect/dialect';
import { duckdbMetricsDialect } from '../dialect/duckdb';
import { analyze, type DatasetBinding, gridStart } from '../semantic/analyzer';
import { datasetsNamed } from '../syntax/datasets';
import type { MetricsPlan, TimeSpan } from '../semantic/plan';
import { parseMpl } from '../syntax/parser';
import { type MetricsAnswer, type MetricsSeries, tagsFromEntries } from './result';

export interface MplRequest {
  mpl: string;
  startTime?: string | undefined;
  endTime?: string | undefined;
  /** Parameter values as MPL literals, keyed `param__<name>` (or `<name>`). */
  params?: Record<string, string> | undefined;
}

export interface MplDeps {
  /** Resolves a dataset the query names (checking access); rejects unknown ones. */
  resolveDataset(name: string): Promise<DatasetBinding> | DatasetBinding;
  run(sql: CompiledMetricsSql, timeoutMs: number): Promise<SeriesRow[]>;
  timeoutMs: number;
  /** The most series an answer may hold. */
  maxSeries: number;
  dialect?: MetricsDialect;
  /** The request time in milliseconds (tests fix it). */
  nowMs?: number;
}

/** The most series one answer holds. */
export const MAX_SERIES = 10_000;

function invalidDataset(name: string): never {
  throw invalidInput(`"${name}" is not a dataset name`);
}

function requestSpan(request: MplRequest, nowNs: bigint): TimeSpan | null {
  const { startTime, endTime } = request;
  if (startTime === undefined && endTime === undefined) return null;
  if (startTime === undefined || endTime === undefined) throw invalidInput('send both startTime and endTime (RFC 3339 or relative such as now-1h)');
  const start = parseRequestTime(startTime, nowNs);
  if (start === undefined) throw invalidInput(`startTime: cannot read "${startTime}" (RFC 3339 such as 2025-01-01T00:00:00Z, or now-1h)`);
  const end = parseRequestTime(endTime, nowNs);
  if (end === undefined) throw invalidInput(`endTime: cannot read "${endTime}" (RFC 3339 such as 2025-01-01T00:00:00Z, or now)`);
  const from = Number(start / 1_000_000_000n);
  // The end is exclusive; a fraction of a second still includes that second.
  const to = Number((end + 999_999_999n) / 1_000_000_000n);
  if (to <= from) throw invalidInput('endTime must be after startTime');
  return { from, to };
}

/** Compiles a request to its plan and statement (no data is read). */
export async function prepareMpl(request: MplRequest, deps: MplDeps): Promise<{ plan: MetricsPlan; sql: CompiledMetricsSql }> {
  if (typeof request.mpl !== 'string' || request.mpl.trim() === '') throw invalidInput('mpl: the query is empty');
  const nowMs = deps.nowMs ?? Date.now();
  const nowNs = BigInt(nowMs) * 1_000_000n;
  const query = parseMpl(request.mpl);
  const params = request.params ?? {};
  // Datasets are resolved (and access checked) before analysis, which then only looks them up.
  const bindings = new Map<string, DatasetBinding>();
  for (const name of datasetsNamed(query, params)) bindings.set(name, await deps.resolveDataset(name));
  const plan = analyze(query, {
    now: Math.floor(nowMs / 1000),
    requestSpan: requestSpan(request, nowNs),
    params,
    resolveDataset: (name) => bindings.get(name) ?? invalidDataset(name),
  });
  const dialect = deps.dialect ?? duckdbMetricsDialect;
  return { plan, sql: dialect.compile(plan, deps.maxSeries + 1) };
}

export async function executeMpl(request: MplRequest, deps: MplDeps): Promise<MetricsAnswer> {
  const { plan, sql } = await prepareMpl(request, deps);
  const rows = await deps.run(sql, deps.timeoutMs);
  if (rows.length > deps.maxSeries) {
    throw invalidInput(`the answer has more than ${deps.maxSeries} series: filter with where or combine them with group`);
  }
  const start = gridStart(plan.grid, plan.span.from);
  const { step } = plan.grid;
  const length = Math.ceil((plan.span.to - start) / step);
  const series: MetricsSeries[] = rows.map((row) => {
    const data: (number | null)[] = new Array(length).fill(null);
    let summary: number | null = null;
    let latest = -1;
    row.ts.forEach((time, index) => {
      const slot = Math.round((Number(time) - start) / step);
      const value = row.vs[index];
      if (slot < 0 || slot >= length || value === null || value === undefined || !Number.isFinite(value)) return;
      data[slot] = value;
      if (slot > latest) {
        latest = slot;
        summary = value;
      }
    });
    return { metric: plan.metric, tags: tagsFromEntries(row.tags), start, resolution: step, data, summary };
  });
  return {
    metadata: {
      group_keys: plan.groupKeys,
      warnings: plan.warnings,
      unit: plan.unit ?? '',
      custom_unit: plan.customUnit ?? '',
      ignore_unit: plan.ignoreUnit,
    },
    series,
  };
}
