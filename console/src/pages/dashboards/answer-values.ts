// What the non-time charts read from a tabular answer: the headline number of a statistic, the
// labelled values of a pie or a top-K list, the points of a scatter. Pure data work, so each
// chart's numbers can be traced to the answer.
import type { ResultTable, TabularAnswer } from '../../api/query';
import { displayValue } from '../query/charts/series';
import { timeColumnIndex } from '../query/charts/time-column';

/** Aggregates whose bins add up to the whole period's value. */
const ADDITIVE = new Set(['count', 'countif', 'sum', 'sumif']);

function firstTable(answer: TabularAnswer | undefined): ResultTable | undefined {
  return answer?.tables[0];
}

function numericColumn(table: ResultTable, preferAggregate = true): number | undefined {
  const isNumeric = (index: number) => (table.columns[index] ?? []).some((value) => typeof value === 'number') && (table.columns[index] ?? []).every((value) => value === null || typeof value === 'number');
  const indexes = table.fields.map((_, index) => index);
  if (preferAggregate) {
    const aggregate = indexes.find((index) => table.fields[index]!.agg && isNumeric(index));
    if (aggregate !== undefined) return aggregate;
  }
  return indexes.find((index) => isNumeric(index) && index !== timeColumnIndex(table));
}

export interface Statistic {
  value: number;
  field: string;
  /** The values over time, when the answer is binned by time. */
  trend?: number[];
}

/**
 * The statistic's number: the value of a one-row answer; over time bins, the whole period's total
 * for counts and sums and the last bin's value otherwise.
 */
export function statisticOf(answer: TabularAnswer | undefined): Statistic | undefined {
  const table = firstTable(answer);
  if (!table) return undefined;
  const column = numericColumn(table);
  if (column === undefined) return undefined;
  const values = (table.columns[column] ?? []).filter((value): value is number => typeof value === 'number');
  if (values.length === 0) return undefined;
  const field = table.fields[column]!;
  const time = timeColumnIndex(table);
  if (time === undefined || values.length === 1) return { value: values[values.length - 1]!, field: field.name };
  const additive = ADDITIVE.has(field.agg?.name ?? '');
  const order = (table.columns[time] ?? []).map((value, row) => ({ time: Date.parse(String(value)), value: table.columns[column]?.[row] })).sort((a, b) => a.time - b.time);
  const trend = order.map((entry) => (typeof entry.value === 'number' ? entry.value : 0));
  return { value: additive ? values.reduce((sum, value) => sum + value, 0) : trend[trend.length - 1]!, field: field.name, trend };
}

export interface LabelledValue {
  label: string;
  value: number;
}

/** One value per group (the non-numeric columns joined), largest first. */
export function labelledValues(answer: TabularAnswer | undefined): LabelledValue[] {
  const table = firstTable(answer);
  if (!table) return [];
  const column = numericColumn(table);
  if (column === undefined) return [];
  const labelColumns = table.fields.map((_, index) => index).filter((index) => index !== column && !table.fields[index]!.agg);
  const rows = table.columns[column]?.length ?? 0;
  const totals = new Map<string, number>();
  for (let row = 0; row < rows; row++) {
    const value = table.columns[column]?.[row];
    if (typeof value !== 'number') continue;
    const label = labelColumns.length > 0 ? labelColumns.map((index) => displayValue(table.columns[index]?.[row])).join(', ') : table.fields[column]!.name;
    totals.set(label, (totals.get(label) ?? 0) + value);
  }
  return [...totals].map(([label, value]) => ({ label, value })).sort((a, b) => b.value - a.value);
}

export interface ScatterPoints {
  xField: string;
  yField: string;
  points: { x: number; y: number }[];
}

/** The first two numeric columns as x and y. */
export function scatterPoints(answer: TabularAnswer | undefined): ScatterPoints | undefined {
  const table = firstTable(answer);
  if (!table) return undefined;
  const numeric = table.fields
    .map((_, index) => index)
    .filter((index) => (table.columns[index] ?? []).some((value) => typeof value === 'number') && (table.columns[index] ?? []).every((value) => value === null || typeof value === 'number'));
  if (numeric.length < 2) return undefined;
  const [xIndex, yIndex] = numeric as [number, number];
  const points: { x: number; y: number }[] = [];
  const rows = table.columns[xIndex]?.length ?? 0;
  for (let row = 0; row < rows; row++) {
    const x = table.columns[xIndex]?.[row];
    const y = table.columns[yIndex]?.[row];
    if (typeof x === 'number' && typeof y === 'number') points.push({ x, y });
  }
  return { xField: table.fields[xIndex]!.name, yField: table.fields[yIndex]!.name, points };
}
