// Metrics written for the MPL tests, and a plain model of them that the tests compute expected
// answers from (loops over the points sent, independent of the engine). Times are whole
// seconds from T0, an hour boundary three hours ago; the queried range is [T0, T0 + 30m).
import type { DistributionValue, MetricDescriptor, SeriesPoints, TagValue } from '../../../src/metrics/model';

export const T0 = Math.floor((Date.now() / 1000 - 3 * 3600) / 3600) * 3600;
export const RANGE = 1800;
export const START = new Date(T0 * 1000).toISOString();
export const END = new Date((T0 + RANGE) * 1000).toISOString();

export type PlainTags = Record<string, string | number | boolean>;

export interface FixtureSeries {
  metric: MetricDescriptor;
  tags: PlainTags;
  /** Tag types where a number is a float (integers otherwise). */
  floats?: string[];
  points: [time: number, value: number][];
  distributions?: [time: number, value: DistributionValue][];
}

const gauge = (name: string, unit = ''): MetricDescriptor => ({ name, type: 'gauge', temporality: null, monotonic: null, unit });
const counter = (name: string): MetricDescriptor => ({ name, type: 'sum', temporality: 'cumulative', monotonic: true, unit: '{request}' });

const HOSTS = ['a', 'b', 'c', 'd'];
const dcOf = (host: string) => (host === 'a' || host === 'b' ? 'east' : 'west');
const coreOf = (host: string) => HOSTS.indexOf(host) % 2;
const every = (seconds: number, count: number) => Array.from({ length: count }, (_, i) => T0 + i * seconds);

export const BOUNDS = [0.1, 0.5, 1, 5];

function histogramPoint(i: number, shift: number): DistributionValue {
  const counts = [(i + shift) % 3, 2 + ((i * 5 + shift) % 4), (i * 3 + shift) % 5, 1 + ((i + shift) % 2), (i + shift) % 2];
  const count = counts.reduce((a, b) => a + b, 0);
  return { count, sum: count * 0.7 + shift, min: 0.05 + (i % 3) * 0.01, max: 4 + (i % 4), bounds: BOUNDS, counts, quantiles: null, quantileValues: null };
}

export function fixture(): FixtureSeries[] {
  const series: FixtureSeries[] = [];
  HOSTS.forEach((host, h) => {
    series.push({
      metric: gauge('cpu', '%'),
      tags: { host, dc: dcOf(host), core: coreOf(host) },
      points: every(15, 120).map((t, i) => [t, ((i * 7 + h * 13) % 50) + h * 10]),
    });
    series.push({
      metric: gauge('mem', 'By'),
      tags: { host, dc: dcOf(host), core: coreOf(host) },
      points: every(15, 120).map((t, i) => [t, 100 + ((i * 3 + h) % 20) * 2]),
    });
  });
  // Counters: a steady 200 and 500 per host; b's 500 restarts at the 61st point.
  for (const host of ['a', 'b']) {
    for (const code of [200, 500]) {
      let total = 1000;
      series.push({
        metric: counter('requests'),
        tags: { host, code },
        points: every(15, 120).map((t, i) => {
          total += code === 200 ? 3 + (i % 4) : 1 + (i % 2);
          if (host === 'b' && code === 500 && i === 60) total = 2;
          return [t, total];
        }),
      });
    }
  }
  // The same counter with its status code written as text.
  series.push({ metric: counter('requests'), tags: { host: 'c', code: '200' }, points: every(15, 120).map((t, i) => [t, 50 + i * 2]) });
  series.push({ metric: gauge('temp'), tags: { host: 'a' }, points: every(60, 30).map((t, i) => [t, i - 15]) });
  // A gauge with gaps: minutes 0, 1, 4, 5 and 9 for a; 2 and 3 for b.
  series.push({ metric: gauge('queue'), tags: { host: 'a' }, points: [0, 1, 4, 5, 9].map((m) => [T0 + m * 60 + 5, m * 10]) });
  series.push({ metric: gauge('queue'), tags: { host: 'b' }, points: [2, 3].map((m) => [T0 + m * 60 + 5, 100 + m]) });
  series.push({ metric: gauge('flags'), tags: { ratio: 0.25, canary: true }, floats: ['ratio'], points: [[T0, 1]] });
  series.push({ metric: gauge('flags'), tags: { ratio: 0.75, canary: false }, floats: ['ratio'], points: [[T0, 2]] });
  series.push({ metric: gauge('flags'), tags: { ratio: 0.5 }, floats: ['ratio'], points: [[T0, 3]] });
  series.push({ metric: gauge('flags'), tags: { ratio: '0.25' }, points: [[T0, 4]] });
  // Prometheus-style buckets: cumulative counts per `le`.
  const les: [string | number, number][] = [
    [0.5, 4],
    [1, 7],
    ['+Inf', 10],
  ];
  for (const [le, base] of les) {
    series.push({ metric: gauge('rpc_bucket'), tags: { le, svc: 'x' }, floats: ['le'], points: every(30, 60).map((t, i) => [t, base + (i % 3)]) });
  }
  // Delta histograms for two services, and a cumulative one.
  ['api', 'web'].forEach((service, s) => {
    series.push({
      metric: { name: 'latency', type: 'histogram', temporality: 'delta', monotonic: null, unit: 's' },
      tags: { service },
      points: [],
      distributions: every(30, 60).map((t, i) => [t, histogramPoint(i, s)]),
    });
  });
  let running: DistributionValue | undefined;
  series.push({
    metric: { name: 'latency_total', type: 'histogram', temporality: 'cumulative', monotonic: null, unit: 's' },
    tags: { service: 'api' },
    points: [],
    distributions: every(30, 60).map((t, i) => {
      const delta = histogramPoint(i, 0);
      running = running
        ? { ...running, count: running.count + delta.count, sum: running.sum! + delta.sum!, counts: running.counts!.map((c, k) => c + delta.counts![k]!) }
        : { ...delta, min: null, max: null };
      return [t, running];
    }),
  });
  series.push({
    metric: { name: 'rpc_time', type: 'summary', temporality: null, monotonic: null, unit: 's' },
    tags: { svc: 'x' },
    points: [],
    distributions: every(60, 30).map((t, i) => [
      t,
      { count: 10 + i, sum: 20 + i, min: null, max: null, bounds: null, counts: null, quantiles: [0.5, 0.9], quantileValues: [1 + i / 10, 3 + i / 10] },
    ]),
  });
  for (const [pod, node] of [
    ['p1', 'n1'],
    ['p2', 'n1'],
    ['p3', 'n2'],
  ]) {
    series.push({ metric: gauge('pod_ready'), tags: { pod: pod! }, points: every(60, 30).map((t) => [t, 1]) });
    series.push({ metric: gauge('pod_info'), tags: { pod: pod!, node: node! }, points: [[T0, 1]] });
  }
  return series;
}

function tagValue(name: string, value: string | number | boolean, floats: string[]): TagValue {
  if (typeof value === 'string') return { type: 'string', value };
  if (typeof value === 'boolean') return { type: 'bool', value };
  return floats.includes(name) || !Number.isInteger(value) ? { type: 'float', value } : { type: 'int', value: BigInt(value) };
}

/** The fixture as the store's ingest takes it. */
export function toSeriesPoints(series: FixtureSeries[]): SeriesPoints[] {
  return series.map((entry) => {
    const tags = new Map(Object.entries(entry.tags).map(([name, value]) => [name, tagValue(name, value, entry.floats ?? [])]));
    const distributions = entry.distributions ?? [];
    return {
      metric: entry.metric,
      tags,
      times: distributions.length > 0 ? distributions.map(([t]) => t) : entry.points.map(([t]) => t),
      values: entry.points.map(([, v]) => v),
      distributions: distributions.map(([, d]) => d),
    };
  });
}
