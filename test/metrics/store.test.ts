// The metrics store on its own: series identity by metric and typed tags, ids that survive a
// restart, metadata that follows the latest points, one transaction per write, and trim.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeriesPoints, TagValue } from '../../src/metrics/model';
import { MetricsStore } from '../../src/metrics/store/metrics-store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file() {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-metrics-store-'));
  dirs.push(dir);
  return path.join(dir, 'metrics.duckdb');
}

const str = (value: string): TagValue => ({ type: 'string', value });
const int = (value: number): TagValue => ({ type: 'int', value: BigInt(value) });

function gauge(name: string, tags: [string, TagValue][], points: [number, number][], unit = ''): SeriesPoints {
  return {
    metric: { name, type: 'gauge', temporality: null, monotonic: null, unit },
    tags: new Map(tags),
    times: points.map(([t]) => t),
    values: points.map(([, v]) => v),
    distributions: [],
  };
}

async function rows(store: MetricsStore, sql: string) {
  return (await store.query(sql)).rows;
}

describe('MetricsStore', () => {
  it('keeps one series per metric and typed tag set, across restarts', async () => {
    const location = file();
    let store = await MetricsStore.open(location);
    await store.createDataset('ds_x');
    const first = await store.write('ds_x', [
      gauge('cpu', [['host', str('a')], ['code', int(200)]], [[100, 1]]),
      // The same name with the code as text is another series.
      gauge('cpu', [['host', str('a')], ['code', str('200')]], [[100, 2]]),
      // Tag order does not matter.
      gauge('cpu', [['code', int(200)], ['host', str('a')]], [[110, 3]]),
    ]);
    expect(first).toMatchObject({ points: 3, newSeries: 2 });
    await store.close();

    store = await MetricsStore.open(location);
    const again = await store.write('ds_x', [gauge('cpu', [['host', str('a')], ['code', int(200)]], [[120, 4]]), gauge('cpu', [['host', str('b')]], [[120, 5]])]);
    expect(again).toMatchObject({ points: 2, newSeries: 1 });
    expect(await rows(store, `SELECT id, key FROM ds_x_series ORDER BY id`)).toHaveLength(3);
    expect(await rows(store, `SELECT series_id, t, value FROM ds_x_points ORDER BY t, value`)).toEqual([
      [1, 100n, 1],
      [2, 100n, 2],
      [1, 110n, 3],
      [1, 120n, 4],
      [3, 120n, 5],
    ]);
    expect(store.metricsOf('ds_x').get('cpu')?.series).toBe(3);
    await store.close();
  });

  it('follows the latest description of a series (type, unit)', async () => {
    const store = await MetricsStore.open(file());
    await store.createDataset('ds_y');
    await store.write('ds_y', [gauge('mem', [['host', str('a')]], [[1, 1]], 'By')]);
    await store.write('ds_y', [gauge('mem', [['host', str('a')]], [[2, 1]], 'KiBy')]);
    expect(await rows(store, `SELECT unit FROM ds_y_series`)).toEqual([['KiBy']]);
    expect([...store.metricsOf('ds_y').get('mem')!.units]).toEqual(['KiBy']);
    await store.close();
  });

  it('stores text with NUL characters and quotes', async () => {
    const store = await MetricsStore.open(file());
    await store.createDataset('ds_z');
    await store.write('ds_z', [gauge("it's", [["o'k", str('a\u0000b')]], [[1, 1]])]);
    expect(await rows(store, `SELECT metric, CAST(to_json(tags) AS VARCHAR) FROM ds_z_series`)).toEqual([["it's", '{"o\'k":{"s":"a\uFFFDb"}}']]);
    await store.close();
  });

  it('writes a batch whole or not at all', async () => {
    const store = await MetricsStore.open(file());
    await store.createDataset('ds_w');
    const broken = gauge('cpu', [['host', str('a')]], [[1, 1]]);
    const histogram: SeriesPoints = {
      metric: { name: 'lat', type: 'histogram', temporality: 'delta', monotonic: null, unit: '' },
      tags: new Map(),
      times: [1],
      values: [],
      distributions: [{ count: 1, sum: null, min: null, max: null, bounds: [1], counts: [1, 0], quantiles: null, quantileValues: null }],
    };
    // The distribution points cannot be written (their table is gone), after the scalar ones were.
    await store.query('DROP TABLE ds_w_dists');
    const bad = histogram;
    await expect(store.write('ds_w', [broken, bad])).rejects.toThrow();
    expect(await rows(store, `SELECT count(*) FROM ds_w_points`)).toEqual([[0n]]);
    expect(await rows(store, `SELECT count(*) FROM ds_w_series`)).toEqual([[0n]]);
    // The failed write left no series behind in memory either.
    expect((await store.write('ds_w', [broken])).newSeries).toBe(1);
    await store.close();
  });

  it('keeps concurrent writes to one dataset apart', async () => {
    const store = await MetricsStore.open(file());
    await store.createDataset('ds_c');
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.write('ds_c', [gauge('cpu', [['host', str(`h${i % 5}`)]], [[i, i]])])));
    expect(await rows(store, `SELECT count(*), count(DISTINCT series_id) FROM ds_c_points`)).toEqual([[20n, 5n]]);
    expect(await rows(store, `SELECT count(*) FROM ds_c_series`)).toEqual([[5n]]);
    await store.close();
  });

  it('trims points older than a time and vacuums series left without points', async () => {
    const store = await MetricsStore.open(file());
    await store.createDataset('ds_t');
    await store.write('ds_t', [gauge('cpu', [['host', str('old')]], [[1000, 1]]), gauge('cpu', [['host', str('new')]], [[5000, 1], [6000, 2]])]);
    expect(await store.trim('ds_t', new Date(5_500_000))).toBe(2);
    expect(await store.vacuum('ds_t')).toBe(1);
    expect(store.metricsOf('ds_t').get('cpu')?.series).toBe(1);
    await store.close();
  });
});
