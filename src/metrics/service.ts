// Metrics datasets as the doors see them: writing series points, MPL queries and the discovery
// routes, each resolving the dataset within the caller's organization with the capability it
// needs, and refusing datasets that hold events.
import { z } from 'zod';
import { parseRequestTime } from '../apl/time';
import { type Principal, soleIngestDataset } from '../auth/principal';
import type { IngestBody } from '../ingest/ingest-service';
import type { OtlpEncoding, PartialSuccess } from '../shippers/otlp/codec';
import { DomainError, invalidInput, notFound, unsupportedMediaType } from '../errors';
import { type DatasetRecord, type DatasetService, requireMetricsDataset } from '../datasets/datasets';
import { parseInput } from '../lib/validation';
import type { SeriesPoints } from './model';
import { readMetrics } from './otlp';
import { executeMpl, MAX_SERIES, type MplRequest } from './mpl/execution/execute';
import type { MetricsAnswer } from './mpl/execution/result';
import type { DatasetBinding } from './mpl/semantic/analyzer';
import type { MetricBinding } from './mpl/semantic/plan';
import type { InfoRange } from './store/info';
import type { MetricsInfo, MetricsStore, MetricSummary, WriteResult } from './store/store';

const queryBodySchema = z.looseObject({
  mpl: z.string().optional(),
  /** Some clients send the query as `apl`. */
  apl: z.string().optional(),
  startTime: z.string().optional(),
  endTime: z.string().optional(),
  params: z.record(z.string(), z.string()).optional(),
});

const findBodySchema = z.object({
  value: z.union([z.string(), z.number(), z.boolean()], { error: 'is required (a tag value)' }),
});

export interface MetricsServiceOptions {
  queryTimeoutMs: number;
  /** Longest MPL text, in bytes (the APL limit). */
  maxQueryBytes: number;
  /** Largest answer a query may read (bytes of its values). */
  maxResultBytes: number;
  /** Undoes a body's Content-Encoding within the ingest limits (the ingest service's own). */
  decode(request: Pick<IngestBody, 'body' | 'contentEncoding'>): Promise<Buffer>;
  /** Runs work in one of the caller's ingest turns, shared with every other ingest door. */
  inTurn<T>(caller: string, work: () => Promise<T>): Promise<T>;
}

/** The most points one export request may carry (a larger one is refused whole, 413). */
export const MAX_POINTS_PER_REQUEST = 1_000_000;

const NO_METRIC: MetricBinding = { scalar: false, distribution: false, summary: false, types: [], temporality: null, unit: null };

export class MetricsService {
  private readonly info: MetricsInfo;

  constructor(
    private readonly datasets: DatasetService,
    readonly store: MetricsStore,
    private readonly options: MetricsServiceOptions,
  ) {
    this.info = store.info;
  }

  /** A metrics dataset the principal may run `capability` on. */
  async resolve(principal: Principal, name: string, capability: 'ingest' | 'query'): Promise<DatasetRecord> {
    const dataset =
      capability === 'ingest'
        ? await this.datasets.resolveFor(principal, name, 'ingest', 'create')
        : await this.datasets.resolveFor(principal, name, 'query', 'read');
    requireMetricsDataset(dataset);
    return dataset;
  }

  /** Stores series points in a metrics dataset (one transaction). */
  write(dataset: DatasetRecord, series: SeriesPoints[]): Promise<WriteResult> {
    requireMetricsDataset(dataset);
    return this.store.write(dataset.tableName, series);
  }

  /**
   * OTLP/HTTP metrics export (protobuf) into the metrics dataset named by the request (else the
   * one dataset the token may ingest into). Points that cannot be stored are reported as OTLP's
   * partial success; the others are stored in one transaction.
   */
  async otlpExport(principal: Principal, datasetName: string | undefined, request: IngestBody, encoding: OtlpEncoding): Promise<PartialSuccess | undefined> {
    if (encoding !== 'protobuf') {
      throw unsupportedMediaType('OTLP metrics are read as protobuf only: send application/x-protobuf (JSON is not supported for metrics)');
    }
    const name = datasetName || soleIngestDataset(principal);
    if (!name) throw invalidInput('name the metrics dataset in the X-Axiom-Metrics-Dataset header');
    const dataset = await this.resolve(principal, name, 'ingest');
    const mapped = await this.options.inTurn(principal.tokenId, async () => {
      const decoded = await this.options.decode(request);
      let read: ReturnType<typeof readMetrics>;
      try {
        read = readMetrics(decoded, encoding, MAX_POINTS_PER_REQUEST);
      } catch (error) {
        if (error instanceof DomainError) throw error;
        throw invalidInput(`request body is not an OTLP metrics export this server can read: ${(error as Error).message}`);
      }
      if (read.series.length > 0) await this.write(dataset, read.series);
      return read;
    });
    if (mapped.rejected === 0) return undefined;
    return { rejected: mapped.rejected, errorMessage: `${mapped.rejected} data points were not stored; the first: ${mapped.firstError}` };
  }

  private async binding(dataset: DatasetRecord): Promise<DatasetBinding> {
    return datasetBinding(dataset.name, dataset.tableName, await this.store.metricsOf(dataset.tableName));
  }

  /**
   * Runs an MPL request body; `params` from the query string join those of the body. With
   * `dataset`, the query must read that dataset.
   */
  async query(
    principal: Principal,
    body: unknown,
    queryParams: Record<string, string> = {},
    options: { dataset?: string; nowMs?: number; signal?: AbortSignal } = {},
  ): Promise<MetricsAnswer> {
    const input = parseInput(queryBodySchema, body ?? {});
    const mpl = input.mpl ?? input.apl;
    if (mpl === undefined) throw invalidInput('invalid request body: mpl: is required');
    if (Buffer.byteLength(mpl) > this.options.maxQueryBytes) throw invalidInput(`the query is longer than ${this.options.maxQueryBytes} bytes`);
    const request: MplRequest = { mpl, startTime: input.startTime, endTime: input.endTime, params: { ...queryParams, ...input.params } };
    return executeMpl(request, {
      resolveDataset: async (name) => {
        if (options.dataset !== undefined && name !== options.dataset) throw invalidInput(`the query reads dataset "${name}", not "${options.dataset}"`);
        return this.binding(await this.resolve(principal, name, 'query'));
      },
      run: async (sql, timeoutMs) => {
        try {
          return await this.store.runMpl(sql, {
            timeoutMs,
            maxResultBytes: this.options.maxResultBytes,
            ...(options.signal ? { signal: options.signal } : {}),
          });
        } catch (error) {
          throw inputErrorOf(error);
        }
      },
      timeoutMs: this.options.queryTimeoutMs,
      maxSeries: MAX_SERIES,
      dialect: this.store.dialect,
      ...(options.nowMs !== undefined ? { nowMs: options.nowMs } : {}),
    });
  }

  private range(start: string | undefined, end: string | undefined): InfoRange {
    if (!start || !end) throw invalidInput('start and end are required (RFC 3339, e.g. 2025-01-01T00:00:00Z, or relative such as now-1h)');
    const now = BigInt(Date.now()) * 1_000_000n;
    const from = parseRequestTime(start, now);
    if (from === undefined) throw invalidInput(`start: cannot read "${start}" as a time (RFC 3339 or now-1h)`);
    const to = parseRequestTime(end, now);
    if (to === undefined) throw invalidInput(`end: cannot read "${end}" as a time (RFC 3339 or now)`);
    if (to < from) throw invalidInput('end is before start');
    return { from: Number(from / 1_000_000_000n), to: Number(to / 1_000_000_000n) };
  }

  /** The metrics with points in the range: name to {type, temporality, unit}. */
  async metrics(principal: Principal, datasetName: string, start?: string, end?: string) {
    const range = this.range(start, end);
    const dataset = await this.resolve(principal, datasetName, 'query');
    return this.info.metrics(dataset.tableName, range);
  }

  async tags(principal: Principal, datasetName: string, start?: string, end?: string, metric?: string): Promise<string[]> {
    const range = this.range(start, end);
    const dataset = await this.resolve(principal, datasetName, 'query');
    if (metric !== undefined) await this.mustExist(dataset, { metric });
    return this.info.tags(dataset.tableName, range, metric);
  }

  async tagValues(principal: Principal, datasetName: string, tag: string, start?: string, end?: string, metric?: string) {
    const range = this.range(start, end);
    const dataset = await this.resolve(principal, datasetName, 'query');
    await this.mustExist(dataset, { ...(metric !== undefined ? { metric } : {}), tag });
    return this.info.tagValues(dataset.tableName, range, tag, metric);
  }

  /** Metrics having a tag with the value (`{value}`), with the tags that hold it. */
  async find(principal: Principal, datasetName: string, body: unknown, start?: string, end?: string): Promise<Record<string, string[]>> {
    const range = this.range(start, end);
    const dataset = await this.resolve(principal, datasetName, 'query');
    const { value } = parseInput(findBodySchema, body ?? {});
    return this.info.find(dataset.tableName, range, String(value));
  }

  private async mustExist(dataset: DatasetRecord, what: { metric?: string; tag?: string }) {
    if (what.metric !== undefined && !(await this.store.metricsOf(dataset.tableName)).has(what.metric)) {
      throw notFoundIn(dataset, `metric "${what.metric}"`);
    }
    if (what.tag !== undefined && !(await this.info.exists(dataset.tableName, what))) {
      throw notFoundIn(dataset, what.metric !== undefined ? `tag "${what.tag}" on metric "${what.metric}"` : `tag "${what.tag}"`);
    }
  }
}

/** What MPL's analysis knows of a dataset: its metrics as their series describe them. */
export function datasetBinding(name: string, table: string, metrics: ReadonlyMap<string, MetricSummary>): DatasetBinding {
  return {
    name,
    table,
    metric(metric) {
      const summary = metrics.get(metric);
      if (!summary) return NO_METRIC;
      return {
        scalar: summary.pointClasses.has('scalar'),
        distribution: summary.pointClasses.has('distribution'),
        summary: summary.types.has('summary'),
        types: [...summary.types],
        temporality: summary.temporalities.size === 1 ? ([...summary.temporalities][0] as 'cumulative' | 'delta') : null,
        unit: summary.units.size === 1 ? [...summary.units][0]! : null,
      };
    },
  };
}

/**
 * The engine refuses some input only while running (a tag `extend` finds on a series, a
 * regular expression it cannot compile): those are the query's fault, a 400.
 */
function inputErrorOf(error: unknown): unknown {
  if (error instanceof DomainError || !(error instanceof Error)) return error;
  const match = /^Invalid Input Error: (.*)$/s.exec(error.message);
  return match ? invalidInput(match[1]!.trim()) : error;
}

function notFoundIn(dataset: DatasetRecord, what: string) {
  return notFound(`${what} not found in dataset "${dataset.name}"`);
}
