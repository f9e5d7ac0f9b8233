// MPL over HTTP against the fixture: every operator and function, each answer compared with
// one computed here from the points sent (see reference.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDS, END, fixture, RANGE, START, T0 } from '../../helpers/metrics/fixture';
import { createDataset, type MetricsServer, startMetricsServer } from '../../helpers/metrics/harness';
import {
  align,
  type Buckets,
  bucketOf,
  combine,
  data,
  expectSeries,
  increases,
  mapValues,
  promRate,
  type Reducer,
  reduce,
  select,
  windows,
} from '../../helpers/metrics/reference';

const series = fixture();
let server: MetricsServer;

beforeAll(async () => {
  server = await startMetricsServer();
  await createDataset(server, 'm');
  await server.write('m', series);
});

afterAll(async () => {
  await server?.close();
});

const cpu = select(series, 'cpu');

/** Every series of `metric` aligned: one expected series per fixture series. */
function aligned(metric: string, step: number, fn: Reducer, where?: Parameters<typeof select>[2]) {
  return select(series, metric, where).map((entry) => ({ tags: entry.tags, data: data(align(entry.points, step, fn), step) }));
}

describe('align', () => {
  it.each(['avg', 'sum', 'min', 'max', 'count', 'last'] as const)('aligns to 1m using %s', async (fn) => {
    const answer = await server.mpl(`m:cpu | align to 1m using ${fn}`);
    expectSeries(answer, aligned('cpu', 60, fn), 60);
    expect(answer.series.every((s: any) => s.metric === 'cpu')).toBe(true);
  });

  it('computes prom::rate over counters, counting a drop as a restart', async () => {
    const answer = await server.mpl('m:requests | align to 5m using prom::rate');
    expectSeries(
      answer,
      select(series, 'requests').map((entry) => ({ tags: entry.tags, data: data(promRate(entry.points, 300), 300) })),
      300,
    );
    expect(answer.metadata.ignore_unit).toBe(true);
    // `rate` is the same aligner.
    expect(await server.mpl('m:requests | align to 5m using rate')).toEqual(answer);
  });

  it('aligns over the whole range without "to"', async () => {
    const answer = await server.mpl('m:cpu | align using max');
    expectSeries(
      answer,
      cpu.map((entry) => ({ tags: entry.tags, data: [Math.max(...entry.points.map(([, v]) => v))] })),
    );
    expect(answer.series[0].start).toBe(T0);
    expect(answer.series[0].resolution).toBe(RANGE);
  });

  it('aligns over a sliding window with "over"', async () => {
    const answer = await server.mpl('m:cpu | where host == "b" | align to 1m over 5m using avg');
    const points = select(series, 'cpu', (tags) => tags.host === 'b')[0]!.points;
    const expected: Buckets = new Map();
    for (let start = T0; start < T0 + RANGE; start += 60) {
      const values = points.filter(([t]) => t >= start - 240 && t < start + 60).map(([, v]) => v);
      if (values.length > 0) expected.set(start, reduce(values, 'avg'));
    }
    expectSeries(answer, [{ tags: { host: 'b', dc: 'east', core: 1 }, data: data(expected, 60) }], 60);
  });
});

describe('where', () => {
  const hosts = async (query: string) => ((await server.mpl(`${query} | align to 30m using count`)).series as any[]).map((s) => s.tags.host ?? s.tags).sort();

  it('compares strings with == and !=', async () => {
    expect(await hosts('m:cpu | where host == "a"')).toEqual(['a']);
    expect(await hosts('m:cpu | where host != "a"')).toEqual(['b', 'c', 'd']);
  });

  it('matches regular expressions against the whole value, and negated', async () => {
    expect(await hosts('m:cpu | where host == #/[ac]/')).toEqual(['a', 'c']);
    expect(await hosts('m:cpu | where dc == #/ea/')).toEqual([]);
    expect(await hosts('m:cpu | where host != #/a|b/')).toEqual(['c', 'd']);
    // Regular expressions read any tag as text: `core` is an integer tag.
    expect(await hosts('m:cpu | where core == #/1/')).toEqual(['b', 'd']);
  });

  it('combines and, or, not and parentheses, and chains where clauses', async () => {
    expect(await hosts('m:cpu | where (dc == "east" or host == "d") and not host == "a"')).toEqual(['b', 'd']);
    expect(await hosts('m:cpu | where dc == "west" | where core == 0')).toEqual(['c']);
    expect(await hosts('m:cpu | where host == "a" or host == "c" and core == 1')).toEqual(['a']);
  });

  it('compares typed tags: an integer tag with numbers, a string tag with strings', async () => {
    const codes = async (query: string) =>
      ((await server.mpl(`${query} | align to 30m using count`)).series as any[]).map((s) => `${s.tags.host}:${typeof s.tags.code}:${s.tags.code}`).sort();
    expect(await codes('m:requests | where code >= 500')).toEqual(['a:number:500', 'b:number:500']);
    expect(await codes('m:requests | where code == 200')).toEqual(['a:number:200', 'b:number:200']);
    expect(await codes('m:requests | where code == "200"')).toEqual(['c:string:200']);
    expect(await codes('m:requests | where code < 300.5')).toEqual(['a:number:200', 'b:number:200']);
    expect(await codes('m:requests | where code is string')).toEqual(['c:string:200']);
    expect(await codes('m:requests | where code is int and code != 500')).toEqual(['a:number:200', 'b:number:200']);
  });

  it('compares float and boolean tags, and a missing tag satisfies !=', async () => {
    const values = async (query: string) => ((await server.mpl(`${query} | align to 30m using sum`)).series as any[]).map((s) => s.data[0]).sort();
    expect(await values('m:flags | where ratio < 0.6')).toEqual([1, 3]);
    expect(await values('m:flags | where ratio == 0.25')).toEqual([1]);
    expect(await values('m:flags | where ratio == "0.25"')).toEqual([4]);
    expect(await values('m:flags | where canary == true')).toEqual([1]);
    expect(await values('m:flags | where canary != true')).toEqual([2, 3, 4]);
    expect(await values('m:flags | where ratio is float and not canary is bool')).toEqual([3]);
  });
});

describe('group', () => {
  it('groups by a tag using sum after aligning', async () => {
    const answer = await server.mpl('m:cpu | align to 1m using avg | group by dc using sum');
    const byDc = (dc: string) => combine(select(series, 'cpu', (tags) => tags.dc === dc).map((e) => align(e.points, 60, 'avg')), 'sum');
    expectSeries(answer, [
      { tags: { dc: 'east' }, data: data(byDc('east'), 60) },
      { tags: { dc: 'west' }, data: data(byDc('west'), 60) },
    ], 60);
    expect(answer.metadata.group_keys).toEqual(['dc']);
  });

  it.each(['avg', 'min', 'max', 'count'] as const)('groups by an integer tag using %s', async (fn) => {
    const answer = await server.mpl(`m:cpu | align to 5m using max | group by core using ${fn}`);
    const byCore = (core: number) => combine(select(series, 'cpu', (tags) => tags.core === core).map((e) => align(e.points, 300, 'max')), fn);
    expectSeries(answer, [0, 1].map((core) => ({ tags: { core }, data: data(byCore(core), 300) })), 300);
  });

  it('groups every series into one without "by"', async () => {
    const answer = await server.mpl('m:cpu | align to 10m using last | group using sum');
    expectSeries(answer, [{ tags: {}, data: data(combine(cpu.map((e) => align(e.points, 600, 'last')), 'sum'), 600) }], 600);
  });
});

describe('map', () => {
  const base = (fn: Reducer = 'avg', step = 300) => cpu.map((e) => ({ tags: e.tags, buckets: align(e.points, step, fn) }));
  const expectMapped = async (query: string, fn: (v: number) => number | null, step = 300) => {
    const answer = await server.mpl(`m:cpu | align to 5m using avg | ${query}`);
    const expected = base('avg', step).map(({ tags, buckets }) => ({ tags, data: data(mapValues(buckets, fn), step) }));
    // A series whose every point a filter removed is no longer in the answer.
    expectSeries(answer, expected.filter((series) => series.data.some((value) => value !== null)), step);
  };

  it.each([
    ['map + 5', (v: number) => v + 5],
    ['map - 1.5', (v: number) => v - 1.5],
    ['map * 2', (v: number) => v * 2],
    ['map / 4', (v: number) => v / 4],
    ['map min(30)', (v: number) => Math.min(v, 30)],
    ['map max(30)', (v: number) => Math.max(v, 30)],
    ['map filter::gt(40)', (v: number) => (v > 40 ? v : null)],
    ['map filter::lte(25)', (v: number) => (v <= 25 ? v : null)],
    ['map filter::neq(30)', (v: number) => (v !== 30 ? v : null)],
    ['map is::lt(40)', (v: number) => (v < 40 ? 1 : 0)],
    ['map is::gte(33.5)', (v: number) => (v >= 33.5 ? 1 : 0)],
  ])('%s', async (query, fn) => {
    await expectMapped(query, fn);
  });

  it('map abs', async () => {
    const temp = select(series, 'temp')[0]!;
    const answer = await server.mpl('m:temp | align to 1m using last | map abs');
    expectSeries(answer, [{ tags: temp.tags, data: data(mapValues(align(temp.points, 60, 'last'), Math.abs), 60) }], 60);
  });

  it('map rate: change per second between consecutive points', async () => {
    const answer = await server.mpl('m:requests | where host == "b" | map rate | align to 5m using max');
    expectSeries(
      answer,
      select(series, 'requests', (tags) => tags.host === 'b').map((entry) => {
        const sorted = entry.points;
        const rates: [number, number][] = sorted.slice(1).map(([t, v], i) => [t, (v - sorted[i]![1]) / (t - sorted[i]![0])]);
        return { tags: entry.tags, data: data(align(rates, 300, 'max'), 300) };
      }),
      300,
    );
  });

  it('map increase: restarts count from zero', async () => {
    const answer = await server.mpl('m:requests | map increase | align to 5m using sum');
    expectSeries(answer, select(series, 'requests').map((entry) => ({ tags: entry.tags, data: data(align(increases(entry.points), 300, 'sum'), 300) })), 300);
  });

  describe('filling the grid', () => {
    const queue = select(series, 'queue');
    const lastPerMinute = (points: [number, number][]) => align(points, 60, 'last');
    const fullGrid = Array.from({ length: 30 }, (_, i) => T0 + i * 60);

    it('fill::const fills every step of the range', async () => {
      const answer = await server.mpl('m:queue | align to 1m using last | map fill::const(0)');
      expectSeries(answer, queue.map((e) => {
        const known = lastPerMinute(e.points);
        return { tags: e.tags, data: fullGrid.map((t) => known.get(t) ?? 0) };
      }), 60);
    });

    it('fill::prev carries the last value forward', async () => {
      const answer = await server.mpl('m:queue | align to 1m using last | map fill::prev');
      expectSeries(answer, queue.map((e) => {
        const known = lastPerMinute(e.points);
        let previous: number | null = null;
        return { tags: e.tags, data: fullGrid.map((t) => (previous = known.get(t) ?? previous)) };
      }), 60);
    });

    it('interpolate::linear fills between two values only', async () => {
      const answer = await server.mpl('m:queue | align to 1m using last | map interpolate::linear');
      expectSeries(answer, queue.map((e) => {
        const known = [...lastPerMinute(e.points)].sort(([a], [b]) => a - b);
        return {
          tags: e.tags,
          data: fullGrid.map((t) => {
            const before = known.filter(([at]) => at <= t).at(-1);
            const after = known.find(([at]) => at >= t);
            if (!before || !after) return null;
            if (before[0] === after[0]) return before[1];
            return before[1] + ((after[1] - before[1]) * (t - before[0])) / (after[0] - before[0]);
          }),
        };
      }), 60);
    });
  });
});

describe('compute', () => {
  const byDc = (metric: string, dc: string) => combine(select(series, metric, (tags) => tags.dc === dc).map((e) => align(e.points, 300, 'avg')), 'sum');

  it.each([
    ['+', (a: number, b: number) => a + b],
    ['-', (a: number, b: number) => a - b],
    ['*', (a: number, b: number) => a * b],
    ['/', (a: number, b: number) => a / b],
    ['min', (a: number, b: number) => Math.min(a, b)],
    ['max', (a: number, b: number) => Math.max(a, b)],
    ['avg', (a: number, b: number) => (a + b) / 2],
  ])('combines two queries using %s, series with equal tags at equal times', async (op, fn) => {
    const answer = await server.mpl(`(
      m:cpu | align to 5m using avg | group by dc using sum,
      m:mem | align to 5m using avg | group by dc using sum
    ) | compute combined using ${op}`);
    expectSeries(
      answer,
      ['east', 'west'].map((dc) => {
        const memory = byDc('mem', dc);
        return { tags: { dc }, metric: 'combined', data: data(mapValues(byDc('cpu', dc), (v, t) => fn(v, memory.get(t)!)), 300) };
      }),
      300,
    );
  });

  it('computes an error ratio of counter rates, pairing only the series both sides have', async () => {
    const answer = await server.mpl(`(
      m:requests | where code >= 500 | align to 5m using prom::rate | group by host using sum,
      m:requests | align to 5m using prom::rate | group by host using sum,
    ) | compute error_ratio using / | map * 100`);
    const rateOf = (host: string, where: (code: unknown) => boolean) =>
      combine(select(series, 'requests', (tags) => tags.host === host && where(tags.code)).map((e) => promRate(e.points, 300)), 'sum');
    expectSeries(
      answer,
      ['a', 'b'].map((host) => {
        const all = rateOf(host, () => true);
        return { tags: { host }, data: data(mapValues(rateOf(host, (code) => code === 500), (v, t) => (v / all.get(t)!) * 100), 300) };
      }),
      300,
    );
  });
});

/** Quantile of bucket counts (upper bounds, the last unbounded), interpolated within the bucket. */
function bucketQuantile(bounds: number[], counts: number[], q: number, min: number | null, max: number | null): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  const target = q * total;
  let cumulative = 0;
  for (let i = 0; i < counts.length; i++) {
    const before = cumulative;
    cumulative += counts[i]!;
    if (cumulative < target) continue;
    const lower = i > 0 ? bounds[i - 1]! : min !== null && min <= bounds[0]! ? min : bounds[0]! > 0 ? 0 : bounds[0]!;
    if (cumulative === before) return lower;
    const upper = i < bounds.length ? bounds[i]! : max;
    if (upper === null || upper < lower) return lower;
    return lower + ((upper - lower) * (target - before)) / (cumulative - before);
  }
  return null;
}

describe('bucket', () => {
  it('merges delta histograms per group and window: quantiles, count, avg, sum, min, max', async () => {
    const answer = await server.mpl('m:latency | bucket by service to 5m using interpolate_delta_histogram(0.5, 0.99, count, avg, sum, min, max)');
    const expected = select(series, 'latency').flatMap((entry) => {
      const byWindow = new Map<number, typeof entry.distributions>();
      for (const point of entry.distributions!) {
        const start = bucketOf(point[0], 300);
        byWindow.set(start, [...(byWindow.get(start) ?? []), point]);
      }
      const spec = (name: string, fn: (points: NonNullable<typeof entry.distributions>) => number | null) => {
        const values: Buckets = new Map();
        for (const [start, points] of byWindow) {
          const value = fn(points!);
          if (value !== null) values.set(start, value);
        }
        return { tags: { service: entry.tags.service!, spec: name }, data: data(values, 300) };
      };
      const merged = (points: NonNullable<typeof entry.distributions>) => points.reduce((acc, [, d]) => acc.map((c, k) => c + d.counts![k]!), [0, 0, 0, 0, 0]);
      const count = (points: NonNullable<typeof entry.distributions>) => points.reduce((a, [, d]) => a + d.count, 0);
      const sum = (points: NonNullable<typeof entry.distributions>) => points.reduce((a, [, d]) => a + d.sum!, 0);
      const min = (points: NonNullable<typeof entry.distributions>) => Math.min(...points.map(([, d]) => d.min!));
      const max = (points: NonNullable<typeof entry.distributions>) => Math.max(...points.map(([, d]) => d.max!));
      return [
        spec('p50', (points) => bucketQuantile(BOUNDS, merged(points), 0.5, min(points), max(points))),
        spec('p99', (points) => bucketQuantile(BOUNDS, merged(points), 0.99, min(points), max(points))),
        spec('count', count),
        spec('avg', (points) => sum(points) / count(points)),
        spec('sum', sum),
        spec('min', min),
        spec('max', max),
      ];
    });
    expectSeries(answer, expected, 300);
    expect(answer.metadata.group_keys).toEqual(['service']);
  });

  it.each(['rate', 'increase'] as const)('turns cumulative histograms into increases (%s)', async (conversion) => {
    const answer = await server.mpl(`m:latency_total | bucket to 5m using interpolate_cumulative_histogram(${conversion}, 0.9, count, sum)`);
    const points = select(series, 'latency_total')[0]!.distributions!;
    const deltas = points.slice(1).map(([t, d], i) => {
      const previous = points[i]![1];
      return { t, count: d.count - previous.count, sum: d.sum! - previous.sum!, counts: d.counts!.map((c, k) => c - previous.counts![k]!) };
    });
    const byWindow = new Map<number, typeof deltas>();
    for (const delta of deltas) byWindow.set(bucketOf(delta.t, 300), [...(byWindow.get(bucketOf(delta.t, 300)) ?? []), delta]);
    const per = conversion === 'rate' ? 300 : 1;
    const make = (name: string, fn: (d: typeof deltas) => number | null) => {
      const values: Buckets = new Map();
      for (const [start, list] of byWindow) {
        const value = fn(list);
        if (value !== null) values.set(start, value);
      }
      return { tags: { service: 'api', spec: name }, data: data(values, 300) };
    };
    expectSeries(
      answer,
      [
        make('p90', (list) => bucketQuantile(BOUNDS, list.reduce((acc, d) => acc.map((c, k) => c + d.counts[k]!), [0, 0, 0, 0, 0]), 0.9, null, null)),
        make('count', (list) => list.reduce((a, d) => a + d.count, 0) / per),
        make('sum', (list) => list.reduce((a, d) => a + d.sum, 0) / per),
      ].map((entry) => ({ ...entry, tags: { spec: entry.tags.spec } })),
      300,
    );
  });

  it('histogram() interpolates quantiles over series with an le tag', async () => {
    const answer = await server.mpl('m:rpc_bucket | bucket by svc to 5m using histogram(0.5, 0.9, count)');
    const buckets = select(series, 'rpc_bucket');
    const les = buckets.map((e) => ({ le: e.tags.le === '+Inf' ? Infinity : (e.tags.le as number), perWindow: align(e.points, 300, 'avg') })).sort((a, b) => a.le - b.le);
    const finite = les.filter((b) => Number.isFinite(b.le)).map((b) => b.le);
    const quantile = (q: number): Buckets => {
      const out: Buckets = new Map();
      for (const start of les[0]!.perWindow.keys()) {
        const cumulative = les.map((b) => b.perWindow.get(start)!);
        // Cumulative counts to per-bucket counts for the shared helper.
        const counts = cumulative.map((c, i) => c - (i > 0 ? cumulative[i - 1]! : 0));
        out.set(start, bucketQuantile(finite, counts, q, null, null)!);
      }
      return out;
    };
    const counts = combine(buckets.map((e) => align(e.points, 300, 'count')), 'sum');
    expectSeries(answer, [
      { tags: { svc: 'x', spec: 'p50' }, data: data(quantile(0.5), 300) },
      { tags: { svc: 'x', spec: 'p90' }, data: data(quantile(0.9), 300) },
      { tags: { svc: 'x', spec: 'count' }, data: data(counts, 300) },
    ], 300);
  });

  it('histogram() takes exact quantiles and statistics of plain values', async () => {
    const answer = await server.mpl('m:cpu | bucket by dc to 10m using histogram(0.5, 0.95, max, avg)');
    const expected = ['east', 'west'].flatMap((dc) => {
      const values = new Map<number, number[]>();
      for (const entry of select(series, 'cpu', (tags) => tags.dc === dc)) {
        for (const [start, list] of windows(entry.points, 600)) values.set(start, [...(values.get(start) ?? []), ...list]);
      }
      const quantile = (q: number): Buckets =>
        new Map([...values].map(([start, list]) => {
          const sorted = [...list].sort((a, b) => a - b);
          const position = (sorted.length - 1) * q;
          const low = Math.floor(position);
          return [start, sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (position - low)];
        }));
      const stat = (fn: Reducer): Buckets => new Map([...values].map(([start, list]) => [start, reduce(list, fn)]));
      return [
        { tags: { dc, spec: 'p50' }, data: data(quantile(0.5), 600) },
        { tags: { dc, spec: 'p95' }, data: data(quantile(0.95), 600) },
        { tags: { dc, spec: 'max' }, data: data(stat('max'), 600) },
        { tags: { dc, spec: 'avg' }, data: data(stat('avg'), 600) },
      ];
    });
    expectSeries(answer, expected, 600);
  });

  it('reads histograms as scalar series through the axiom.histogram tag', async () => {
    const answer = await server.mpl('m:latency | where `axiom.histogram` == "count" | align to 5m using sum');
    expectSeries(
      answer,
      select(series, 'latency').map((entry) => ({
        tags: { service: entry.tags.service!, 'axiom.histogram': 'count' },
        data: data(align(entry.distributions!.map(([t, d]) => [t, d.count]), 300, 'sum'), 300),
      })),
      300,
    );
    const views = await server.mpl('m:latency | where service == "api" | align to 30m using max');
    expect(views.series.map((s: any) => s.tags['axiom.histogram']).sort()).toEqual(['count', 'max', 'min', 'sum']);
  });

  it('reads a summary as count, sum and one series per quantile', async () => {
    const answer = await server.mpl('m:rpc_time | align to 10m using last');
    const points = select(series, 'rpc_time')[0]!.distributions!;
    const view = (pick: (d: (typeof points)[number][1]) => number) => data(align(points.map(([t, d]) => [t, pick(d)]), 600, 'last'), 600);
    expectSeries(answer, [
      { tags: { svc: 'x', 'axiom.histogram': 'count' }, data: view((d) => d.count) },
      { tags: { svc: 'x', 'axiom.histogram': 'sum' }, data: view((d) => d.sum!) },
      { tags: { svc: 'x', 'axiom.histogram': 'quantile', quantile: 0.5 }, data: view((d) => d.quantileValues![0]!) },
      { tags: { svc: 'x', 'axiom.histogram': 'quantile', quantile: 0.9 }, data: view((d) => d.quantileValues![1]!) },
    ], 600);
  });
});

describe('names and tags', () => {
  it('renames the metric with a source alias and with | as', async () => {
    const aliased = await server.mpl('m:cpu as load | where host == "a" | align to 30m using max');
    expect(aliased.series.map((s: any) => s.metric)).toEqual(['load']);
    const renamed = await server.mpl('m:cpu as load | align to 30m using max | group using max | as peak');
    expect(renamed.series.map((s: any) => [s.metric, s.data[0]])).toEqual([['peak', Math.max(...cpu.flatMap((e) => e.points.map(([, v]) => v)))]]);
  });

  it('replaces tags: rewrite, rename and derive', async () => {
    const tagsOf = async (query: string) =>
      ((await server.mpl(`m:cpu | where dc == "east" | align to 30m using max | ${query}`)).series as any[]).map((s) => s.tags).sort((a, b) => (a.core < b.core ? -1 : 1));
    expect(await tagsOf('replace host ~ #s/(a)/host-$1/')).toEqual([
      { core: 0, dc: 'east', host: 'host-a' },
      { core: 1, dc: 'east', host: 'b' },
    ]);
    expect(await tagsOf('replace machine = host')).toEqual([
      { core: 0, dc: 'east', machine: 'a' },
      { core: 1, dc: 'east', machine: 'b' },
    ]);
    expect(await tagsOf('replace region = dc ~ #s/(.)ast/$1-1/')).toEqual([
      { core: 0, dc: 'east', host: 'a', region: 'e-1' },
      { core: 1, dc: 'east', host: 'b', region: 'e-1' },
    ]);
  });

  it('joins tags from another metric by equal tags', async () => {
    const answer = await server.mpl('m:pod_ready | align to 30m using sum | join node from m:pod_info by pod | group by node using sum');
    expectSeries(answer, [
      { tags: { node: 'n1' }, data: [60] },
      { tags: { node: 'n2' }, data: [30] },
    ], 1800);
  });

  it('extends series with literal and templated tags, and refuses a tag that exists', async () => {
    const answer = await server.mpl('m:cpu | where host == "c" | align to 30m using max | extend env = "prod", zone = 3, url = "http://${host}.${dc}:80"');
    expect(answer.series[0].tags).toEqual({ host: 'c', dc: 'west', core: 0, env: 'prod', zone: 3, url: 'http://c.west:80' });
    const error = await server.mplError('m:cpu | align to 30m using max | extend host = "x"');
    expect(error.message).toMatch(/tag "host" already exists/);
  });
});

describe('the request', () => {
  it('reads its range from the query when it has one', async () => {
    const from = T0 + 600;
    const answer = await server.mpl(`m:cpu[${from}..+5m] | where host == "a" | align to 1m using avg`, { startTime: undefined, endTime: undefined });
    const points = select(series, 'cpu', (t) => t.host === 'a')[0]!.points;
    expectSeries(answer, [{ tags: { host: 'a', dc: 'east', core: 0 }, data: data(align(points, 60, 'avg'), 60, from, from + 300) }]);
  });

  it('binds parameters from the body and the query string', async () => {
    const query = 'param $host: string; param $step: Duration; m:cpu | where host == $host | align to $step using sum';
    const answer = await server.mpl(query, { params: { param__host: '"d"', param__step: '10m' } });
    const points = select(series, 'cpu', (t) => t.host === 'd')[0]!.points;
    expectSeries(answer, [{ tags: { host: 'd', dc: 'west', core: 1 }, data: data(align(points, 600, 'sum'), 600) }], 600);
    const viaUrl = await server.mpl(query, {}, `/v1/query/_mpl?param__host=${encodeURIComponent('"d"')}&param__step=10m`);
    expect(viaUrl).toEqual(answer);
  });

  it('answers an unaligned query per $__interval using avg', async () => {
    const answer = await server.mpl('m:cpu | where host == "a" | map * 10');
    const step = answer.series[0].resolution;
    expect(RANGE / step).toBeLessThanOrEqual(300);
    const points = select(series, 'cpu', (t) => t.host === 'a')[0]!.points.map(([t, v]) => [t, v * 10] as [number, number]);
    expectSeries(answer, [{ tags: { host: 'a', dc: 'east', core: 0 }, data: data(align(points, step, 'avg'), step) }], step);
    const explicit = await server.mpl('m:cpu | where host == "a" | map * 10 | align to $__interval using avg');
    expect(explicit).toEqual(answer);
  });

  it('reports set custom_unit, the unit, warnings and group keys in the metadata', async () => {
    const answer = await server.mpl('set custom_unit = "percent"; set fancy = true; m:cpu | filter host == "a" | align to 30m using avg | group by host using max');
    expect(answer.metadata).toEqual({
      group_keys: ['host'],
      unit: '%',
      custom_unit: 'percent',
      ignore_unit: false,
      warnings: ['directive "fancy" is not supported and was ignored', '"filter" is deprecated: use "where"'],
    });
    expect(answer.series[0].summary).toBe(answer.series[0].data.at(-1));
  });

  it('samples a stable share of the series', async () => {
    const all = await server.mpl('m:cpu | sample 1 | align to 30m using count');
    expect(all.series).toHaveLength(4);
    const half = await server.mpl('m:cpu | sample 0.5 | align to 30m using count');
    const again = await server.mpl('m:cpu | sample 0.5 | align to 30m using count');
    expect(again).toEqual(half);
    expect(half.series.length).toBeLessThanOrEqual(4);
  });

  it('answers metrics-v1 as the bare list of series', async () => {
    const v2 = await server.mpl('m:cpu | align to 10m using avg');
    const v1 = await server.mpl('m:cpu | align to 10m using avg', {}, '/v1/query/_mpl?format=metrics-v1');
    expect(v1).toEqual(v2.series.map(({ summary: _, ...rest }: any) => rest));
    const response = await server.request('/v1/query/_mpl', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/vnd.metrics.v1+json' },
      body: JSON.stringify({ mpl: 'm:cpu | align to 10m using avg', startTime: START, endTime: END }),
    });
    expect(await response.json()).toEqual(v1);
  });

  it('names an unknown metric with no series', async () => {
    expect((await server.mpl('m:nothing_here | align to 5m using avg')).series).toEqual([]);
  });
});

describe('errors', () => {
  it('gives a syntax error with line and column', async () => {
    const error = await server.mplError('m:cpu\n| align to 5m usin avg');
    expect(error).toMatchObject({ line: 2, column: 15 });
    expect(error.error).toMatch(/^syntax error at line 2, column 15: expected "over" or "using", found "usin"/);
    expect(error.message).toBe(error.error);
  });

  it('gives a semantic error with line and column', async () => {
    const error = await server.mplError('m:cpu | where host == "a"\n  | group by host using median');
    expect(error).toMatchObject({ line: 2, column: 25 });
    expect(error.message).toMatch(/unknown group function median/);
  });

  it('refuses a dataset that holds events, and an unknown one', async () => {
    await createDataset(server, 'logs', 'axiom:events:v1');
    expect((await server.mplError('logs:cpu | align to 5m using avg')).message).toMatch(/holds events/);
    const response = await server.request('/v1/query/_mpl', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mpl: 'nope:cpu', startTime: START, endTime: END }),
    });
    expect(response.status).toBe(404);
  });

  it('refuses requests without a query or with unreadable times', async () => {
    const send = (body: unknown) => server.request('/v1/query/_mpl', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await send({ startTime: START, endTime: END })).status).toBe(400);
    expect((await send({ mpl: 'm:cpu', startTime: 'yesterday', endTime: END })).status).toBe(400);
    expect((await send({ mpl: 'm:cpu', startTime: END, endTime: START })).status).toBe(400);
    expect((await send({ mpl: 'm:cpu', startTime: START })).status).toBe(400);
    expect((await server.request('/v1/query/_mpl?format=csv', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mpl: 'm:cpu', startTime: START, endTime: END }) })).status).toBe(400);
  });

  it('needs a token that may query the dataset', async () => {
    const response = await server.request('/v1/query/_mpl', { method: 'POST', auth: false, headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
  });
});

