// Turns a tabular answer over time bins into what a chart draws: one numeric series per
// aggregate and group (the other by-fields), lined up on the sorted bin starts, or a heatmap
// grid for histogram() aggregates. Pure data work, free of DOM and React, so it is checked alone.
import type { ResultField, ResultTable, TabularAnswer } from '../../../api/query';
import { epochSeconds, timeColumnIndex } from './time-column';

/** Aggregates whose value for a bin without rows is 0 rather than unknown. */
const ZERO_WHEN_EMPTY = new Set(['count', 'countif', 'dcount', 'dcountif', 'sum', 'sumif']);

export interface ChartSeries {
  /** What the legend shows: group values, prefixed by the aggregate when there are several. */
  label: string;
  /** The aggregate's field name (`count_`, `avg_duration`). */
  aggregate: string;
  /** The by-field values of the group, by field name. */
  group: Record<string, unknown>;
  /**
   * Lined up with `TimeSeriesData.times`; where the group has no row in a bin, 0 for counts and
   * sums, null (a gap) for other aggregates.
   */
  values: (number | null)[];
}

export interface TimeSeriesData {
  /** Bin starts, seconds since the epoch, ascending and distinct. */
  times: number[];
  /** Bin width in seconds, when the server said. */
  binSeconds?: number;
  series: ChartSeries[];
}

export interface HeatmapData {
  times: number[];
  binSeconds?: number;
  /** The aggregate's field name. */
  aggregate: string;
  /** The field the histogram counts, when the server said. */
  valueField?: string;
  /** The histogram's bucket width (its second argument). */
  bucketWidth: number;
  /** Lower bounds of the buckets, ascending. */
  buckets: number[];
  /** counts[timeIndex][bucketIndex]. */
  counts: number[][];
  maxCount: number;
}

export type ChartKind = 'timeseries' | 'heatmap';

/** How a group value reads in labels. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '(null)';
  if (value === '') return '(empty)';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

interface Layout {
  table: ResultTable;
  time: number;
  groups: number[];
  aggregates: number[];
}

function isHistogram(field: ResultField): boolean {
  return field.agg?.name === 'histogram' || field.agg?.name === 'histogramif';
}

/** The time column, the other group columns and the aggregate columns of a binned answer. */
function layoutOf(answer: TabularAnswer): Layout | undefined {
  const table = answer.tables[0];
  if (!table) return undefined;
  const time = timeColumnIndex(table);
  if (time === undefined) return undefined;
  const groupNames = new Set(table.groups.map((group) => group.name));
  const groups: number[] = [];
  const aggregates: number[] = [];
  table.fields.forEach((field, index) => {
    if (index === time) return;
    if (field.agg) aggregates.push(index);
    else if (groupNames.has(field.name)) groups.push(index);
  });
  return aggregates.length > 0 ? { table, time, groups, aggregates } : undefined;
}

/** The kind of chart an answer draws as, or undefined when it is not a chart. */
export function chartKindOf(answer: TabularAnswer): ChartKind | undefined {
  const layout = layoutOf(answer);
  if (!layout) return undefined;
  const fields = layout.table.fields;
  if (layout.aggregates.some((index) => isHistogram(fields[index]!))) return 'heatmap';
  const numeric = layout.aggregates.some((index) => columnIsNumeric(layout.table.columns[index] ?? []));
  return numeric ? 'timeseries' : undefined;
}

function columnIsNumeric(column: unknown[]): boolean {
  let seen = false;
  for (const value of column) {
    if (value === null || value === undefined) continue;
    if (typeof value !== 'number') return false;
    seen = true;
  }
  return seen || column.length === 0;
}

function binSecondsOf(table: ResultTable): number | undefined {
  return table.buckets ? table.buckets.size / 1e9 : undefined;
}

/** Distinct ascending bin starts and, per row, the index of its bin (-1 for rows without a time). */
function timeAxis(column: unknown[]): { times: number[]; slotOfRow: number[] } {
  // Bin starts repeat once per group: each distinct text is parsed once.
  const parsedText = new Map<unknown, number | undefined>();
  const secondsOfRow = new Array<number | undefined>(column.length);
  for (let row = 0; row < column.length; row++) {
    const value = column[row];
    let seconds = parsedText.get(value);
    if (seconds === undefined && !parsedText.has(value)) {
      seconds = epochSeconds(value);
      parsedText.set(value, seconds);
    }
    secondsOfRow[row] = seconds;
  }
  const times = [...new Set(secondsOfRow.filter((seconds): seconds is number => seconds !== undefined))].sort((a, b) => a - b);
  const slot = new Map(times.map((seconds, index) => [seconds, index]));
  return { times, slotOfRow: secondsOfRow.map((seconds) => (seconds === undefined ? -1 : slot.get(seconds)!)) };
}

/** A key telling groups apart (types included, so 1 and "1" differ). */
function groupKeyOf(table: ResultTable, groupColumns: number[], row: number): string {
  let key = '';
  for (const index of groupColumns) {
    const value = table.columns[index]?.[row] ?? null;
    key += typeof value === 'object' ? `o${JSON.stringify(value)}\u0001` : `${typeof value}${String(value)}\u0001`;
  }
  return key;
}

/** One series per numeric aggregate × group, in the order groups first appear. */
export function extractTimeSeries(answer: TabularAnswer): TimeSeriesData | undefined {
  const layout = layoutOf(answer);
  if (!layout) return undefined;
  const { table } = layout;
  const timeColumn = table.columns[layout.time] ?? [];
  const { times, slotOfRow } = timeAxis(timeColumn);
  const numericAggregates = layout.aggregates.filter((index) => !isHistogram(table.fields[index]!) && columnIsNumeric(table.columns[index] ?? []));
  if (numericAggregates.length === 0) return undefined;

  const several = numericAggregates.length > 1;
  const ordered: ChartSeries[] = [];
  // Per group, its series in the order of numericAggregates.
  const seriesOfGroup = new Map<string, ChartSeries[]>();
  for (let row = 0; row < timeColumn.length; row++) {
    const slot = slotOfRow[row]!;
    if (slot < 0) continue;
    const groupKey = groupKeyOf(table, layout.groups, row);
    let groupSeries = seriesOfGroup.get(groupKey);
    if (!groupSeries) {
      const group: Record<string, unknown> = {};
      for (const index of layout.groups) group[table.fields[index]!.name] = table.columns[index]?.[row] ?? null;
      const groupLabel = layout.groups.map((index) => displayValue(table.columns[index]?.[row])).join(', ');
      groupSeries = numericAggregates.map((index) => {
        const aggregate = table.fields[index]!.name;
        const label = !groupLabel ? aggregate : several ? `${aggregate} · ${groupLabel}` : groupLabel;
        const empty = ZERO_WHEN_EMPTY.has(table.fields[index]!.agg?.name ?? '') ? 0 : null;
        return { label, aggregate, group, values: new Array<number | null>(times.length).fill(empty) };
      });
      seriesOfGroup.set(groupKey, groupSeries);
      ordered.push(...groupSeries);
    }
    for (let i = 0; i < numericAggregates.length; i++) {
      const value = table.columns[numericAggregates[i]!]?.[row];
      if (typeof value === 'number') groupSeries[i]!.values[slot] = value;
    }
  }
  // Aggregate by aggregate, groups in order of appearance.
  const series = numericAggregates.flatMap((_, i) => ordered.filter((_one, position) => position % numericAggregates.length === i));
  const binSeconds = binSecondsOf(table);
  return { times, ...(binSeconds !== undefined ? { binSeconds } : {}), series };
}

interface HistogramCell {
  value: number;
  count: number;
}

function cellsOf(value: unknown): HistogramCell[] {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((cell) => {
    const bound = Number((cell as { value?: unknown })?.value);
    const count = Number((cell as { count?: unknown })?.count);
    return Number.isFinite(bound) && Number.isFinite(count) ? [{ value: bound, count }] : [];
  });
}

/** The grid of the first histogram() aggregate: counts per bin start and bucket (summed over groups). */
export function extractHeatmap(answer: TabularAnswer): HeatmapData | undefined {
  const layout = layoutOf(answer);
  if (!layout) return undefined;
  const { table } = layout;
  const index = layout.aggregates.find((candidate) => isHistogram(table.fields[candidate]!));
  if (index === undefined) return undefined;
  const field = table.fields[index]!;
  const { times, slotOfRow } = timeAxis(table.columns[layout.time] ?? []);
  const cellsOfRow = (table.columns[index] ?? []).map(cellsOf);
  const buckets = [...new Set(cellsOfRow.flat().map((cell) => cell.value))].sort((a, b) => a - b);
  const bucketSlot = new Map(buckets.map((bound, slot) => [bound, slot]));
  const counts = times.map(() => new Array<number>(buckets.length).fill(0));
  let maxCount = 0;
  cellsOfRow.forEach((cells, row) => {
    const slot = slotOfRow[row]!;
    if (slot < 0) return;
    for (const cell of cells) {
      const line = counts[slot]!;
      const bucket = bucketSlot.get(cell.value)!;
      line[bucket] = line[bucket]! + cell.count;
      maxCount = Math.max(maxCount, line[bucket]!);
    }
  });
  const declaredWidth = Number(field.agg?.args?.[0]);
  const bucketWidth = Number.isFinite(declaredWidth) && declaredWidth > 0 ? declaredWidth : smallestGap(buckets);
  const binSeconds = binSecondsOf(table);
  const valueField = field.agg?.fields?.[0];
  return { times, ...(binSeconds !== undefined ? { binSeconds } : {}), aggregate: field.name, ...(valueField ? { valueField } : {}), bucketWidth, buckets, counts, maxCount };
}

function smallestGap(sorted: number[]): number {
  let gap = Infinity;
  for (let i = 1; i < sorted.length; i++) gap = Math.min(gap, sorted[i]! - sorted[i - 1]!);
  return Number.isFinite(gap) && gap > 0 ? gap : 1;
}

export interface SeriesStats {
  min?: number;
  max?: number;
  avg?: number;
  last?: number;
}

/** Min, max, average and last value of a series, ignoring empty bins. */
export function seriesStats(values: (number | null)[]): SeriesStats {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  let last: number | undefined;
  for (const value of values) {
    if (value === null || !Number.isFinite(value)) continue;
    min = Math.min(min, value);
    max = Math.max(max, value);
    sum += value;
    count += 1;
    last = value;
  }
  if (count === 0) return {};
  return { min, max, avg: sum / count, ...(last !== undefined ? { last } : {}) };
}
