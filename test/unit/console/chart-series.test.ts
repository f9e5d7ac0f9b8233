// Series extraction of the Query page's charts, on tabular answers shaped like the server's
// (`summarize … by bin(_time, 1m), status` and `summarize histogram(f, 20) by bin_auto(_time)`).
import { describe, expect, it } from 'vitest';
import type { TabularAnswer } from '../../../console/src/api/query';
import { formatNumber } from '../../../console/src/pages/query/charts/plot-options';
import { chartKindOf, extractHeatmap, extractTimeSeries, seriesStats } from '../../../console/src/pages/query/charts/series';

function answer(table: Partial<TabularAnswer['tables'][number]> & Pick<TabularAnswer['tables'][number], 'fields' | 'columns'>): TabularAnswer {
  return {
    format: 'tabular',
    status: { elapsedTime: 1, rowsExamined: 0, rowsMatched: 0 },
    tables: [{ name: '0', sources: [{ name: 'web' }], order: [], groups: [], ...table }],
    datasetNames: ['web'],
    fieldsMetaMap: {},
  };
}

const count = { name: 'count', fields: [], args: [] };
const t0 = Date.UTC(2026, 10, 27, 10, 0) / 1000;

describe('time series extraction', () => {
  // Three bins; status 200 in all of them, 500 only in the second, a null status in the third.
  const binned = answer({
    fields: [
      { name: '_time', type: 'datetime' },
      { name: 'status', type: 'integer' },
      { name: 'count_', type: 'integer', agg: count },
      { name: 'avg_duration', type: 'float', agg: { name: 'avg', fields: ['duration'], args: [] } },
    ],
    groups: [{ name: '_time' }, { name: 'status' }],
    buckets: { field: '_time', size: 60_000_000_000 },
    columns: [
      ['2026-11-27T10:00:00Z', '2026-11-27T10:01:00Z', '2026-11-27T10:01:00.000000000Z', '2026-11-27T10:02:00Z', '2026-11-27T10:02:00Z'],
      [200, 500, 200, 200, null],
      [3, 1, 4, 5, 2],
      [10.5, 20, 30, 40, 50],
    ],
  });

  it('makes one series per aggregate and group, aligned on the sorted bins (counts 0 where a group has no row)', () => {
    expect(chartKindOf(binned)).toBe('timeseries');
    const data = extractTimeSeries(binned)!;
    expect(data.times).toEqual([t0, t0 + 60, t0 + 120]);
    expect(data.binSeconds).toBe(60);
    const byLabel = Object.fromEntries(data.series.map((series) => [series.label, series.values]));
    expect(Object.keys(byLabel).sort()).toEqual(['avg_duration · (null)', 'avg_duration · 200', 'avg_duration · 500', 'count_ · (null)', 'count_ · 200', 'count_ · 500'].sort());
    expect(byLabel['count_ · 200']).toEqual([3, 4, 5]);
    expect(byLabel['count_ · 500']).toEqual([0, 1, 0]);
    expect(byLabel['count_ · (null)']).toEqual([0, 0, 2]);
    expect(byLabel['avg_duration · 200']).toEqual([10.5, 30, 40]);
    expect(byLabel['avg_duration · 500']).toEqual([null, 20, null]);
    expect(data.series.find((series) => series.label === 'count_ · 500')!.group).toEqual({ status: 500 });
  });

  it('labels series by group values alone when there is one aggregate', () => {
    const single = answer({
      fields: [
        { name: '_time', type: 'datetime' },
        { name: 'uri', type: 'string' },
        { name: 'method', type: 'string' },
        { name: 'count_', type: 'integer', agg: count },
      ],
      groups: [{ name: '_time' }, { name: 'uri' }, { name: 'method' }],
      buckets: { field: '_time', size: 60_000_000_000 },
      columns: [['2026-11-27T10:00:00Z', '2026-11-27T10:00:00Z'], ['/a', '/a'], ['GET', 'POST'], [7, 8]],
    });
    expect(extractTimeSeries(single)!.series.map((series) => series.label)).toEqual(['/a, GET', '/a, POST']);
  });

  it('names the series after the aggregate when there are no groups, and finds the time column without buckets', () => {
    const plain = answer({
      fields: [
        { name: 'when', type: 'datetime' },
        { name: 'count_', type: 'integer', agg: count },
      ],
      groups: [{ name: 'when' }],
      columns: [['2026-11-27T10:01:00Z', '2026-11-27T10:00:00Z'], [2, 9]],
    });
    const data = extractTimeSeries(plain)!;
    expect(data.times).toEqual([t0, t0 + 60]);
    expect(data.series).toEqual([{ label: 'count_', aggregate: 'count_', group: {}, values: [9, 2] }]);
  });

  it('is not a chart without a time bin or without an aggregate', () => {
    const totals = answer({ fields: [{ name: 'status', type: 'integer' }, { name: 'count_', type: 'integer', agg: count }], groups: [{ name: 'status' }], columns: [[200], [3]] });
    expect(chartKindOf(totals)).toBeUndefined();
    const events = answer({ fields: [{ name: '_time', type: 'datetime' }, { name: 'uri', type: 'string' }], columns: [['2026-11-27T10:00:00Z'], ['/a']] });
    expect(chartKindOf(events)).toBeUndefined();
  });

  it('summarizes a series ignoring empty bins', () => {
    expect(seriesStats([null, 4, 1, null, 7])).toEqual({ min: 1, max: 7, avg: 4, last: 7 });
    expect(seriesStats([null])).toEqual({});
  });
});

describe('heatmap extraction', () => {
  it('lays histogram cells on a time × bucket grid', () => {
    const histogram = answer({
      fields: [
        { name: '_time', type: 'datetime' },
        { name: 'histogram_duration', type: 'dynamic', agg: { name: 'histogram', fields: ['duration'], args: [20] } },
      ],
      groups: [{ name: '_time' }],
      buckets: { field: '_time', size: 15_000_000_000 },
      columns: [
        ['2026-11-27T10:00:15Z', '2026-11-27T10:00:00Z'],
        [[{ value: 40, count: 2 }], JSON.stringify([{ value: 0, count: 1 }, { value: 20, count: 5 }])],
      ],
    });
    expect(chartKindOf(histogram)).toBe('heatmap');
    const grid = extractHeatmap(histogram)!;
    expect(grid.times).toEqual([t0, t0 + 15]);
    expect(grid.buckets).toEqual([0, 20, 40]);
    expect(grid.bucketWidth).toBe(20);
    expect(grid.counts).toEqual([
      [1, 5, 0],
      [0, 0, 2],
    ]);
    expect(grid.maxCount).toBe(5);
    expect(grid.valueField).toBe('duration');
  });
});

describe('legend numbers', () => {
  it('keeps three decimals, and three significant digits for amounts below a thousandth', () => {
    expect(formatNumber(1234.56789)).toBe('1,234.568');
    expect(formatNumber(0.25)).toBe('0.25');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(0.000412345)).toBe('0.000412');
    expect(formatNumber(-0.0000075)).toBe('-0.0000075');
    expect(formatNumber(undefined)).toBe('–');
    // A zero with floating-point noise, as an axis tick can be.
    expect(formatNumber(0.1 + 0.2 - 0.3)).toBe('0');
  });
});
