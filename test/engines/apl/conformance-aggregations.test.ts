// Every aggregation and its *if form over the fixture, expected values computed here in plain
// JS (nearest-rank percentiles, sample variance, interpolated quartiles for spotlight).
import { describe, expect, it } from 'vitest';
import { FX, FX_FIELDS, type FxEvent, normalize, useFixture } from '../../helpers/apl/conformance-functions';

const db = useFixture();

const values = (f: (e: FxEvent) => number | undefined, events = FX) => events.map(f).filter((v): v is number => v !== undefined);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]) => sum(xs) / xs.length;
const variance = (xs: number[]) => sum(xs.map((v) => (v - mean(xs)) ** 2)) / (xs.length - 1);
const nearestRank = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(1, Math.ceil((p / 100) * xs.length)) - 1]!;
/** Linear interpolation between closest ranks (quartiles of spotlight's boxes). */
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = q * (s.length - 1);
  const lo = Math.floor(at);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (at - lo);
};
const g1 = FX.filter((e) => e.group === 'g1');
const positive = FX.filter((e) => (e.n ?? 0) > 0);
const n = (e: FxEvent) => e.n;
const x = (e: FxEvent) => e.x;

async function one(apl: string): Promise<Record<string, unknown>> {
  const rows = await db().rows(apl);
  expect(rows).toHaveLength(1);
  return normalize(rows[0]) as Record<string, unknown>;
}

describe('counts and sums', () => {
  it('count, countif, dcount, dcountif', async () => {
    expect(await one("['fx'] | summarize count(), count(n), countif(n > 0), dcount(group), dcountif(group, n > 0)")).toEqual({
      count_: FX.length,
      count_1: values(n).length,
      countif_: positive.length,
      dcount_group: new Set(FX.map((e) => e.group).filter(Boolean)).size,
      dcountif_group: new Set(positive.map((e) => e.group).filter(Boolean)).size,
    });
  });

  it('sum, sumif (0 when no row matches), avg, avgif, min, max, minif, maxif', async () => {
    expect(await one("['fx'] | summarize sum(n), sumif(n, n > 0), s0 = sumif(n, n > 5000), avg(x), avgif(x, flag), min(x), max(x), minif(n, n > 0), maxif(n, n < 100)")).toEqual(
      normalize({
        sum_n: sum(values(n)),
        sumif_n: sum(values(n, positive)),
        s0: 0,
        avg_x: mean(values(x)),
        avgif_x: mean(values(x, FX.filter((e) => e.flag))),
        min_x: Math.min(...values(x)),
        max_x: Math.max(...values(x)),
        minif_n: Math.min(...values(n, positive)),
        maxif_n: Math.max(...values(n).filter((v) => v < 100)),
      }),
    );
  });

  it('stdev, stdevif, variance, varianceif', async () => {
    const flagged = FX.filter((e) => e.flag !== undefined);
    expect(await one("['fx'] | summarize stdev(x), stdevif(x, isnotnull(flag)), variance(x), varianceif(x, isnotnull(flag))")).toEqual(
      normalize({
        stdev_x: Math.sqrt(variance(values(x))),
        stdevif_x: Math.sqrt(variance(values(x, flagged))),
        variance_x: variance(values(x)),
        varianceif_x: variance(values(x, flagged)),
      }),
    );
  });

  it('sums, averages and deviations of timespans are timespans', async () => {
    const spans = FX.map((e) => (Date.parse(e._time) - Date.parse('2024-03-01T10:00:00Z')) / 1000);
    const go = (seconds: number) => {
      const h = Math.floor(seconds / 3600);
      const m = Math.floor((seconds % 3600) / 60);
      const s = seconds % 60;
      return h ? `${h}h${m}m${s}s` : m ? `${m}m${s}s` : `${s}s`;
    };
    expect(await one("['fx'] | extend d = _time - datetime(2024-03-01T10:00:00Z) | summarize sum(d), avg(d), max(d), percentile(d, 50)")).toEqual({
      sum_d: go(sum(spans)),
      avg_d: go(mean(spans)),
      max_d: go(Math.max(...spans)),
      percentile_d_50: go(nearestRank(spans, 50)),
    });
  });
});

describe('percentiles', () => {
  it('percentile, percentileif, percentiles, percentiles_array, percentiles_arrayif', async () => {
    expect(
      await one("['fx'] | summarize percentile(n, 50), percentileif(n, 90, n > 0), percentiles(x, 25, 75), percentiles_array(n, 10, 100), pa = percentiles_arrayif(n, dynamic([50, 99]), group == 'g2')"),
    ).toEqual(
      normalize({
        percentile_n_50: nearestRank(values(n), 50),
        percentile_n_90: nearestRank(values(n, positive), 90),
        percentile_x_25: nearestRank(values(x), 25),
        percentile_x_75: nearestRank(values(x), 75),
        percentiles_n: [nearestRank(values(n), 10), nearestRank(values(n), 100)],
        pa: [50, 99].map((p) => nearestRank(values(n, FX.filter((e) => e.group === 'g2')), p)),
      }),
    );
  });
});

describe('collections', () => {
  it('make_list, make_list_if, make_set, make_set_if with and without a size limit', async () => {
    const row = await one("['fx'] | summarize l = make_list(group), li = make_list_if(id, flag), s = make_set(group), si = make_set_if(group, n > 0), two = make_list(id, 2), one = make_set(group, 1)");
    const sorted = (v: unknown) => [...(v as unknown[])].map(String).sort();
    expect(sorted(row.l)).toEqual(FX.map((e) => e.group).filter(Boolean).sort());
    expect(sorted(row.li)).toEqual(FX.filter((e) => e.flag).map((e) => String(e.id)).sort());
    expect(sorted(row.s)).toEqual([...new Set(FX.map((e) => e.group).filter(Boolean))].sort());
    expect(sorted(row.si)).toEqual([...new Set(positive.map((e) => e.group!))].sort());
    expect(row.two).toHaveLength(2);
    expect(row.one).toHaveLength(1);
  });

  it('arg_max and arg_min return the row of the extreme value, with * for every field', async () => {
    const top = FX.filter((e) => e.n !== undefined).sort((a, b) => b.n! - a.n!)[0]!;
    const bottom = FX.filter((e) => e.x !== undefined).sort((a, b) => a.x! - b.x!)[0]!;
    expect(await one("['fx'] | summarize arg_max(n, id, text), arg_min(lowest = x, who = id)")).toEqual(normalize({ n: top.n, id: top.id, text: top.text, lowest: bottom.x, who: bottom.id }));
    const star = await one("['fx'] | summarize arg_max(n, *)");
    expect(star).toMatchObject({ n: top.n, id: top.id, text: top.text, ip: top.ip, series: top.series, _time: top._time });
  });

  it('makelist, makeset, argmax and argmin are the older names', async () => {
    const top = FX.filter((e) => e.n !== undefined).sort((a, b) => b.n! - a.n!)[0]!;
    const bottom = FX.filter((e) => e.n !== undefined).sort((a, b) => a.n! - b.n!)[0]!;
    const row = await one("['fx'] | summarize l = makelist(id), s = makeset(group), argmax(n, id), argmin(m = n, lowest = id)");
    expect((row.l as number[]).sort((a, b) => a - b)).toEqual(FX.map((e) => e.id));
    expect((row.s as string[]).sort()).toEqual(['g1', 'g2']);
    expect({ n: row.n, id: row.id, m: row.m, lowest: row.lowest }).toEqual({ n: top.n, id: top.id, m: bottom.n, lowest: bottom.id });
  });

  it('topk and topkif count the most frequent values', async () => {
    const counts = (events: FxEvent[]) => {
      const map = new Map<string, number>();
      for (const e of events) if (e.group) map.set(e.group, (map.get(e.group) ?? 0) + 1);
      return [...map].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([key, count]) => ({ key, count }));
    };
    expect(await one("['fx'] | summarize topk(group, 1), topkif(group, 5, id < 4)")).toEqual({ topk_group: counts(FX).slice(0, 1), topkif_group: counts(FX.filter((e) => e.id < 4)) });
  });

  it('histogram and histogramif bucket values by width', async () => {
    const buckets = (xs: number[], width: number) => {
      const map = new Map<number, number>();
      for (const v of xs) map.set(Math.floor(v / width) * width, (map.get(Math.floor(v / width) * width) ?? 0) + 1);
      return [...map].sort((a, b) => a[0] - b[0]).map(([value, count]) => ({ value, count }));
    };
    expect(await one("['fx'] | summarize histogram(n, 100), histogramif(x, 1, flag == false)")).toEqual(
      normalize({ histogram_n: buckets(values(n), 100), histogramif_x: buckets(values(x, FX.filter((e) => e.flag === false)), 1) }),
    );
  });
});

describe('rates, phrases and spotlight', () => {
  it('rate divides by the time bin', async () => {
    const rows = await db().rows("['fx'] | summarize rate(n) by bin(_time, 1d) | sort by _time asc");
    const days = [...new Set(FX.map((e) => e._time.slice(0, 10)))].sort();
    expect(rows).toEqual(days.map((day) => ({ _time: `${day}T00:00:00Z`, rate_n: sum(values(n, FX.filter((e) => e._time.startsWith(day)))) / 86_400 })));
  });

  it('phrases counts runs of words between punctuation and stop words', async () => {
    const texts = "case(id == 1, 'The error budget was exceeded', id == 2, 'Error budget exceeded; retry later', id == 3, 'retry later, then give up', '')";
    const row = await one(`['fx'] | extend t = ${texts} | summarize p = phrases(t, 3), all = phrases(t, 10)`);
    // By hand: "retry later" twice; "error budget", "exceeded", "error budget exceeded", "give up" once.
    expect(row.p).toEqual([
      { phrase: 'retry later', count: 2 },
      { phrase: 'error budget', count: 1 },
      { phrase: 'error budget exceeded', count: 1 },
    ]);
    expect((row.all as unknown[]).length).toBe(5);
  });

  it('spotlight ranks the fields that differ most between the selection and the rest', async () => {
    const row = await one("['fx'] | summarize spotlight(group == 'g1', flag, n)");
    const selected = FX.filter((e) => e.group === 'g1');
    const baseline = FX.filter((e) => e.group !== 'g1');
    const box = (events: FxEvent[]) => {
      const xs = values(n, events);
      return { count: xs.length, min: quantile(xs, 0), p25: quantile(xs, 0.25), p50: quantile(xs, 0.5), p75: quantile(xs, 0.75), max: quantile(xs, 1) };
    };
    const share = (events: FxEvent[], v: boolean) => events.filter((e) => e.flag === v).length / events.length;
    const flagScore = Math.max(...[true, false].map((v) => Math.abs(share(selected, v) - share(baseline, v))));
    const all = values(n);
    const nScore = Math.abs(box(selected).p50 - box(baseline).p50) / (Math.max(...all) - Math.min(...all));
    expect(row.spotlight_).toEqual(
      normalize([
        {
          field: 'flag',
          kind: 'categorical',
          selected_events: selected.length,
          baseline_events: baseline.length,
          score: flagScore,
          values: ['true', 'false'].map((v) => ({
            value: v,
            selected_count: selected.filter((e) => String(e.flag) === v).length,
            baseline_count: baseline.filter((e) => String(e.flag) === v).length,
          })),
        },
        { field: 'n', kind: 'numeric', selected_events: selected.length, baseline_events: baseline.length, score: nScore, selected: box(selected), baseline: box(baseline) },
      ]),
    );
    expect(flagScore).toBeGreaterThan(nScore);
  });

  it('spotlight(selection, *) compares every field, most different first', async () => {
    const row = await one("['fx'] | summarize spotlight(id <= 2, *)");
    const entries = row.spotlight_ as { field: string; score: number }[];
    expect(entries.map((e) => e.field).sort()).toEqual(FX_FIELDS.map((f) => f.name).sort());
    const scores = entries.map((e) => e.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // id splits the two sets completely: its medians are as far apart as its range allows.
    expect(entries.find((e) => e.field === 'id')!.score).toBeCloseTo((4.5 - 1.5) / (6 - 1));
  });
});
