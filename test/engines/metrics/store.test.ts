// The metrics store on its own, on the engine the test project runs (DuckDB, or ClickHouse
// embedded): series identity by metric and typed tags, identities that survive a restart,
// metadata that follows the latest points, concurrent writes, and trim and vacuum. On
// ClickHouse, also: two stores over one engine (two server instances) agree on series.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClickHouseMetricsStore } from '../../../src/metrics/store/clickhouse/clickhouse-metrics-store';
import type { SeriesPoints, TagValue } from '../../../src/metrics/model';
import { ChdbExecutor } from '../../../src/engines/clickhouse/chdb-executor';
import { createTablesSql, dropTablesSql } from '../../../src/metrics/store/clickhouse/layout';
import { quoteLiteral } from '../../../src/engines/clickhouse/layout';
import { ON_CHDB } from '../../helpers/server';
import { type OpenedMetricsStore, openMetricsStoreIn } from '../../helpers/metrics/harness';

const dirs: string[] = [];
const opened: OpenedMetricsStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function directory() {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-metrics-store-'));
  dirs.push(dir);
  return dir;
}

async function open(dir = directory()) {
  const store = await openMetricsStoreIn(dir);
  opened.push(store);
  return store;
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

/** Points as [series number in order of first appearance, t, value], the series ids aside. */
function numbered(rows: unknown[][]): [number, number, number][] {
  const order = new Map<string, number>();
  return rows.map(([id, t, value]) => {
    const key = String(id);
    if (!order.has(key)) order.set(key, order.size + 1);
    return [order.get(key)!, Number(t), Number(value)];
  });
}

describe('metrics store', () => {
  it('keeps one series per metric and typed tag set, across restarts', async () => {
    const dir = directory();
    let h = await openMetricsStoreIn(dir);
    await h.store.createDataset('ds_x');
    const first = await h.store.write('ds_x', [
      gauge('cpu', [['host', str('a')], ['code', int(200)]], [[100, 1]]),
      // The same name with the code as text is another series.
      gauge('cpu', [['host', str('a')], ['code', str('200')]], [[100, 2]]),
      // Tag order does not matter.
      gauge('cpu', [['code', int(200)], ['host', str('a')]], [[110, 3]]),
    ]);
    expect(first).toMatchObject({ points: 3, newSeries: 2 });

    h = await h.reopen();
    opened.push(h);
    const again = await h.store.write('ds_x', [gauge('cpu', [['host', str('a')], ['code', int(200)]], [[120, 4]]), gauge('cpu', [['host', str('b')]], [[120, 5]])]);
    expect(again).toMatchObject({ points: 2, newSeries: 1 });
    expect(await h.rows(`SELECT id, key FROM ${h.series('ds_x')} ORDER BY id`)).toHaveLength(3);
    expect(numbered(await h.rows(`SELECT series_id, t, value FROM ds_x_points ORDER BY t, value`))).toEqual([
      [1, 100, 1],
      [2, 100, 2],
      [1, 110, 3],
      [1, 120, 4],
      [3, 120, 5],
    ]);
    expect((await h.store.metricsOf('ds_x')).get('cpu')?.series).toBe(3);
  });

  it('follows the latest description of a series (type, unit)', async () => {
    const h = await open();
    await h.store.createDataset('ds_y');
    await h.store.write('ds_y', [gauge('mem', [['host', str('a')]], [[1, 1]], 'By')]);
    await h.store.write('ds_y', [gauge('mem', [['host', str('a')]], [[2, 1]], 'KiBy')]);
    expect(await h.rows(`SELECT unit FROM ${h.series('ds_y')}`)).toEqual([['KiBy']]);
    expect([...(await h.store.metricsOf('ds_y')).get('mem')!.units]).toEqual(['KiBy']);
  });

  it('stores text with NUL characters and quotes', async () => {
    const h = await open();
    await h.store.createDataset('ds_z');
    await h.store.write('ds_z', [gauge("it's", [["o'k", str('a\u0000b')]], [[1, 1]])]);
    const tagsJson = ON_CHDB ? 'toJSONString(tags)' : 'CAST(to_json(tags) AS VARCHAR)';
    // DuckDB keeps a tag as a typed union member, ClickHouse as its type letter and text.
    const expected = ON_CHDB ? '{"o\'k":"sa\uFFFDb"}' : '{"o\'k":{"s":"a\uFFFDb"}}';
    expect(await h.rows(`SELECT metric, ${tagsJson} FROM ${h.series('ds_z')}`)).toEqual([["it's", expected]]);
  });

  it('gives back tag names and values holding tabs, newlines, backslashes, quotes and braces', async () => {
    const h = await open();
    await h.store.createDataset('ds_e');
    const name = "a\tb\nc\\d'e{f}:g";
    const value = "v\t1\n\\ 'x' {y: z}";
    await h.store.write('ds_e', [gauge('m\tx', [[name, str(value)], ['plain', str('p')]], [[10, 1]])]);
    const range = { from: 0, to: 100 };
    expect(await h.store.info.tags('ds_e', range)).toEqual([name, 'plain'].sort());
    expect(await h.store.info.tagValues('ds_e', range, name, 'm\tx')).toEqual([value]);
    expect([...(await h.store.metricsOf('ds_e')).keys()]).toEqual(['m\tx']);
  });

  // ClickHouse has no transaction over several tables (see the ClickHouse store).
  it.skipIf(ON_CHDB)('writes a batch whole or not at all', async () => {
    const h = await open();
    await h.store.createDataset('ds_w');
    const broken = gauge('cpu', [['host', str('a')]], [[1, 1]]);
    const histogram: SeriesPoints = {
      metric: { name: 'lat', type: 'histogram', temporality: 'delta', monotonic: null, unit: '' },
      tags: new Map(),
      times: [1],
      values: [],
      distributions: [{ count: 1, sum: null, min: null, max: null, bounds: [1], counts: [1, 0], quantiles: null, quantileValues: null }],
    };
    // The distribution points cannot be written (their table is gone), after the scalar ones were.
    await h.rows('DROP TABLE ds_w_dists');
    await expect(h.store.write('ds_w', [broken, histogram])).rejects.toThrow();
    expect(await h.rows(`SELECT count(*) FROM ds_w_points`)).toEqual([[0n]]);
    expect(await h.rows(`SELECT count(*) FROM ds_w_series`)).toEqual([[0n]]);
    // The failed write left no series behind in memory either.
    expect((await h.store.write('ds_w', [broken])).newSeries).toBe(1);
  });

  it('keeps concurrent writes to one dataset apart', async () => {
    const h = await open();
    await h.store.createDataset('ds_c');
    await Promise.all(Array.from({ length: 20 }, (_, i) => h.store.write('ds_c', [gauge('cpu', [['host', str(`h${i % 5}`)]], [[i, i]])])));
    expect(await h.rows(`SELECT count(*), count(DISTINCT series_id) FROM ds_c_points`)).toEqual([[20n, 5n]]);
    expect(await h.rows(`SELECT count(*) FROM ${h.series('ds_c')}`)).toEqual([[5n]]);
  });

  it('trims points older than a time and vacuums series left without points', async () => {
    const h = await open();
    await h.store.createDataset('ds_t');
    await h.store.write('ds_t', [gauge('cpu', [['host', str('old')]], [[1000, 1]]), gauge('cpu', [['host', str('new')]], [[5000, 1], [6000, 2]])]);
    expect(await h.store.trim('ds_t', new Date(5_500_000))).toBe(2);
    expect(await h.store.vacuum('ds_t')).toBe(1);
    expect((await h.store.metricsOf('ds_t')).get('cpu')?.series).toBe(1);
    expect(await h.rows(`SELECT count(*) FROM ${h.series('ds_t')}`)).toEqual([[1n]]);
  });

  it('stops an MPL statement past its time budget and refuses an answer past its size, measured alike', async () => {
    const h = await open();
    await h.store.createDataset('ds_q');
    await h.store.write('ds_q', [gauge('cpu', [['host', str('a'.repeat(200))]], [[1, 1]])]);
    const endless = ON_CHDB ? 'SELECT count() FROM numbers(100000000000)' : 'SELECT count(*) FROM range(100000000000)';
    const started = Date.now();
    const timedOut = await h.store.runMpl({ sql: endless, params: [] }, { timeoutMs: 300 }).catch((error: unknown) => error);
    expect(timedOut).toMatchObject({ name: 'DomainError', kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(10_000);
    // A real statement of the store's dialect, whose one row holds a 200-character tag.
    const statement = {
      sql: ON_CHDB
        ? `SELECT toJSONString(tags), '[1]', '[1]' FROM ${h.series('ds_q')}`
        : `SELECT list_transform(map_entries(tags), lambda e: {'k': e.key, 't': 's', 'v': CAST(e.value AS VARCHAR)}), [1], [1.0] FROM ds_q_series`,
      params: [],
    };
    // The answer's size: the tag's name and value and 16 (4 + 200 + 16), 8 per time and value: 236.
    expect(await h.store.runMpl(statement, { timeoutMs: 10_000, maxResultBytes: 236 })).toHaveLength(1);
    const tooLarge = await h.store.runMpl(statement, { timeoutMs: 10_000, maxResultBytes: 235 }).catch((error: unknown) => error);
    expect(tooLarge).toMatchObject({ name: 'DomainError', kind: 'limit_exceeded' });
  });

  it('drops the tables of a dataset', async () => {
    const h = await open();
    await h.store.createDataset('ds_d');
    await h.store.write('ds_d', [gauge('cpu', [['host', str('a')]], [[1, 1]])]);
    await h.store.dropDataset('ds_d');
    expect(h.store.hasDataset('ds_d')).toBe(false);
    await expect(h.store.metricsOf('ds_d')).rejects.toThrow('metrics dataset not found');
  });
});

describe.runIf(ON_CHDB)('metrics store in a ClickHouse shared by several instances', () => {
  it('gives a series the same id on every instance and keeps one row of it', async () => {
    const executor = await ChdbExecutor.open(path.join(directory(), 'chdb'));
    try {
      // Two stores over one engine: what two server instances over one ClickHouse are.
      const a = await ClickHouseMetricsStore.open(executor);
      const b = await ClickHouseMetricsStore.open(executor);
      await a.createDataset('ds_s');
      // b started before the dataset existed: it asks the engine.
      expect(b.hasDataset('ds_s')).toBe(false);
      expect(await b.holdsDataset('ds_s')).toBe(true);
      expect(await b.holdsDataset('ds_nothing')).toBe(false);
      const hosts = ['h1', 'h2', 'h3'];
      const results = await Promise.all(
        [a, b].flatMap((store, instance) => hosts.map((host, i) => store.write('ds_s', [gauge('cpu', [['host', str(host)]], [[100 + instance * 10 + i, instance]])]))),
      );
      // Each instance saw each series first.
      expect(results.reduce((sum, result) => sum + result.newSeries, 0)).toBe(6);
      const ids = await a.query(`SELECT count(DISTINCT series_id), count() FROM ds_s_points`);
      expect(ids.rows).toEqual([[3n, 6n]]);
      expect((await a.query(`SELECT count() FROM ds_s_series FINAL`)).rows).toEqual([[3n]]);
      // Each instance answers from the tables, so each sees the other's series.
      expect((await b.metricsOf('ds_s')).get('cpu')?.series).toBe(3);
      // A description changed through one instance is the one both read.
      await b.write('ds_s', [gauge('cpu', [['host', str('h1')]], [[200, 1]], '%')]);
      expect([...(await a.metricsOf('ds_s')).get('cpu')!.units]).toEqual(['%']);
      expect((await a.metricsOf('ds_s')).get('cpu')?.series).toBe(3);
      // Either instance trims and vacuums what both wrote (h3 had points at 102 and 112 only).
      expect(await b.trim('ds_s', new Date(113_000))).toBe(6);
      expect(await a.vacuum('ds_s')).toBe(2);
      expect((await b.metricsOf('ds_s')).get('cpu')?.series).toBe(1);
    } finally {
      await executor.close();
    }
  });
});

describe.runIf(ON_CHDB)('metrics tables on a ClickHouse cluster', () => {
  // No cluster can be started here: ClickHouse's own parser checks the statements, and their
  // shape is checked below (a replicated table per node, a Distributed one sharded by series id).
  it('writes replicated tables and Distributed tables over them, ON CLUSTER', async () => {
    const statements = [...createTablesSql('ds_k', 'main'), ...dropTablesSql('ds_k', 'main')];
    const h = await open();
    for (const statement of statements) {
      const [[formatted]] = (await h.rows(`SELECT formatQuery(${quoteLiteral(statement)})`)) as [[string]];
      expect(formatted).toContain('ON CLUSTER main');
    }
    expect(statements.filter((statement) => statement.startsWith('CREATE'))).toHaveLength(6);
    expect(statements.join('\n')).toMatch(/`ds_k_series_local` ON CLUSTER `main` .*ENGINE = ReplicatedReplacingMergeTree\(version\) ORDER BY id/s);
    expect(statements.join('\n')).toMatch(/`ds_k_points` ON CLUSTER `main` AS `ds_k_points_local`\s+ENGINE = Distributed\('main', currentDatabase\(\), 'ds_k_points_local', series_id\)/);
    expect(statements.filter((statement) => statement.startsWith('DROP'))).toHaveLength(6);
  });
});
