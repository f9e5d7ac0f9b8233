// Expected MPL answers computed the plain way: loops over the points the tests sent, window by
// window. Nothing here calls the code under test.
import { expect } from 'vitest';
import { type FixtureSeries, type PlainTags, RANGE, T0 } from './fixture';

export type Points = [number, number][];
export type Buckets = Map<number, number>;
export type Reducer = 'avg' | 'sum' | 'min' | 'max' | 'count' | 'last';

export const bucketOf = (t: number, step: number, origin = 0) => origin + Math.floor((t - origin) / step) * step;

export function reduce(values: number[], fn: Reducer): number {
  switch (fn) {
    case 'avg':
      return values.reduce((a, b) => a + b, 0) / values.length;
    case 'sum':
      return values.reduce((a, b) => a + b, 0);
    case 'min':
      return Math.min(...values);
    case 'max':
      return Math.max(...values);
    case 'count':
      return values.length;
    case 'last':
      return values[values.length - 1]!;
  }
}

/** Points grouped per window, in time order. */
export function windows(points: Points, step: number, origin = 0): Map<number, number[]> {
  const byWindow = new Map<number, number[]>();
  for (const [t, v] of [...points].sort((x, y) => x[0] - y[0])) {
    const start = bucketOf(t, step, origin);
    byWindow.set(start, [...(byWindow.get(start) ?? []), v]);
  }
  return byWindow;
}

export function align(points: Points, step: number, fn: Reducer, origin = 0): Buckets {
  return new Map([...windows(points, step, origin)].map(([start, values]) => [start, reduce(values, fn)]));
}

/** Increases between consecutive points (a drop restarts: the new value), at the later point. */
export function increases(points: Points): Points {
  const sorted = [...points].sort((x, y) => x[0] - y[0]);
  return sorted.slice(1).map(([t, v], i) => {
    const previous = sorted[i]![1];
    return [t, v >= previous ? v - previous : v];
  });
}

/** Prometheus-style rate per window: the increases that end in it, per second. */
export function promRate(points: Points, step: number): Buckets {
  return new Map([...align(increases(points), step, 'sum')].map(([start, total]) => [start, total / step]));
}

/** Per-time combination of several series (equal times only). */
export function combine(series: Buckets[], fn: Reducer): Buckets {
  const byTime = new Map<number, number[]>();
  for (const buckets of series) for (const [t, v] of buckets) byTime.set(t, [...(byTime.get(t) ?? []), v]);
  return new Map([...byTime].map(([t, values]) => [t, reduce(values, fn)]));
}

export function mapValues(buckets: Buckets, fn: (value: number, time: number) => number | null): Buckets {
  const mapped = new Map<number, number>();
  for (const [t, v] of buckets) {
    const value = fn(v, t);
    if (value !== null) mapped.set(t, value);
  }
  return mapped;
}

/** The answer's data array: one slot per step of the range. */
export function data(buckets: Buckets, step: number, start = bucketOf(T0, step), end = T0 + RANGE): (number | null)[] {
  return Array.from({ length: Math.ceil((end - start) / step) }, (_, i) => buckets.get(start + i * step) ?? null);
}

export function select(series: FixtureSeries[], metric: string, where: (tags: PlainTags) => boolean = () => true): FixtureSeries[] {
  return series.filter((entry) => entry.metric.name === metric && where(entry.tags));
}

export interface ExpectedSeries {
  tags: PlainTags;
  data: (number | null)[];
  metric?: string;
}

interface AnswerSeries {
  metric: string;
  tags: PlainTags;
  start: number;
  resolution: number;
  data: (number | null)[];
}

const keyOf = (tags: PlainTags) => JSON.stringify(Object.entries(tags).sort(([a], [b]) => (a < b ? -1 : 1)));

/** The answer holds exactly these series (any order), values equal to 9 significant digits. */
export function expectSeries(answer: { series: AnswerSeries[] }, expected: ExpectedSeries[], step?: number) {
  const actual = new Map(answer.series.map((series) => [keyOf(series.tags), series]));
  expect([...actual.keys()].sort()).toEqual(expected.map((series) => keyOf(series.tags)).sort());
  for (const wanted of expected) {
    const got = actual.get(keyOf(wanted.tags))!;
    if (wanted.metric) expect(got.metric).toBe(wanted.metric);
    if (step !== undefined) {
      expect(got.resolution).toBe(step);
      expect(got.start).toBe(bucketOf(T0, step));
    }
    expect(got.data.length, `length of ${keyOf(wanted.tags)}`).toBe(wanted.data.length);
    got.data.forEach((value, i) => {
      const want = wanted.data[i];
      if (want === null || want === undefined) expect(value, `${keyOf(wanted.tags)}[${i}]`).toBeNull();
      else expect(value, `${keyOf(wanted.tags)}[${i}]`).toBeCloseTo(want, 9);
    });
  }
}
