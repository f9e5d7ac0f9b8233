// Turns llmUsage's answer into what the charts draw: cost per group on one time axis, tokens in
// and out summed over groups, and the catalog's price changes of the models in view as marks on
// the time axis. Pure data work, free of React.
import type { Usage, UsageGroup, UsageSeries } from '../../api/llm';
import type { ChartSeries, TimeSeriesData } from '../query/charts/series';
import type { AnnotationMark } from '../query/charts/annotations';
import { epochSeconds } from '../query/charts/time-column';
import { formatPerMillion } from '../models/format';

/** The name a group goes by in the legend and tables. */
export function groupLabel(series: UsageSeries, by: UsageGroup): string {
  const value = by === 'MODEL' ? series.modelName : by === 'PROVIDER' ? series.provider : series.service;
  return value ? value : by === 'PROVIDER' ? '(unknown to the catalog)' : '(none)';
}

function timesOf(usage: Usage): number[] {
  const times = new Set<number>();
  for (const series of usage.series) for (const point of series.points) {
    const seconds = epochSeconds(point.time);
    if (seconds !== undefined) times.add(seconds);
  }
  return [...times].sort((a, b) => a - b);
}

const INTERVAL_SECONDS: Record<string, number> = { m: 60, h: 3600, d: 86_400 };

function intervalSeconds(interval: string): number | undefined {
  const match = /^(\d+)([mhd])$/.exec(interval);
  return match ? Number(match[1]) * INTERVAL_SECONDS[match[2]!]! : undefined;
}

/** Cost per group and bin (0 where a group had no call), groups by cost, largest first. */
export function costSeries(usage: Usage, by: UsageGroup): TimeSeriesData {
  const times = timesOf(usage);
  const slot = new Map(times.map((time, index) => [time, index]));
  const ordered = [...usage.series].sort((a, b) => (b.cost ?? 0) - (a.cost ?? 0));
  const series: ChartSeries[] = ordered.map((one) => {
    const values = new Array<number | null>(times.length).fill(0);
    for (const point of one.points) {
      const index = slot.get(epochSeconds(point.time) ?? Number.NaN);
      if (index !== undefined) values[index] = point.cost ?? 0;
    }
    return { label: groupLabel(one, by), aggregate: 'cost', group: {}, values };
  });
  const binSeconds = intervalSeconds(usage.interval);
  return { times, ...(binSeconds ? { binSeconds } : {}), series };
}

/** Input and output tokens per bin over every group. */
export function tokenSeries(usage: Usage): TimeSeriesData {
  const times = timesOf(usage);
  const slot = new Map(times.map((time, index) => [time, index]));
  const input = new Array<number | null>(times.length).fill(0);
  const output = new Array<number | null>(times.length).fill(0);
  for (const series of usage.series) for (const point of series.points) {
    const index = slot.get(epochSeconds(point.time) ?? Number.NaN);
    if (index === undefined) continue;
    input[index] = (input[index] ?? 0) + point.inputTokens;
    output[index] = (output[index] ?? 0) + point.outputTokens;
  }
  const binSeconds = intervalSeconds(usage.interval);
  return {
    times,
    ...(binSeconds ? { binSeconds } : {}),
    series: [
      { label: 'Input tokens', aggregate: 'inputTokens', group: {}, values: input },
      { label: 'Output tokens', aggregate: 'outputTokens', group: {}, values: output },
    ],
  };
}

/** Calls the catalog could not price, over every group. */
export function unpricedCalls(usage: Usage): number {
  return usage.series.reduce((sum, series) => sum + series.points.reduce((inner, point) => inner + point.unpricedCalls, 0), 0);
}

/**
 * A mark where a model of the answer got new prices inside [startSeconds, endSeconds]: the start
 * of each price period but the first, titled with the change.
 */
export function priceChangeMarks(usage: Usage, startSeconds: number, endSeconds: number): AnnotationMark[] {
  const seen = new Set<string>();
  const marks: AnnotationMark[] = [];
  for (const series of usage.series) {
    const model = series.model;
    if (!model || seen.has(model.modelId)) continue;
    seen.add(model.modelId);
    model.priceHistory.forEach((period, index) => {
      const start = period.validFrom ? Date.parse(period.validFrom) / 1000 : undefined;
      if (index === 0 || start === undefined || start < startSeconds || start > endSeconds) return;
      const before = model.priceHistory[index - 1]!;
      marks.push({
        id: `price-${model.modelId}-${index}`,
        title: `Price change: ${model.modelId}`,
        description: `Input ${formatPerMillion(before.inputCostPerMillion)} → ${formatPerMillion(period.inputCostPerMillion)}, output ${formatPerMillion(before.outputCostPerMillion)} → ${formatPerMillion(period.outputCostPerMillion)} per million tokens`,
        start,
      });
    });
  }
  return marks.sort((a, b) => a.start - b.start);
}
