// OTLP metrics to series points, read from an export request through the same walk as traces
// and logs: every point kind (gauge, sum, histogram, exponential histogram, summary), times
// truncated to the second, and resource, scope and point attributes flattened into one tag
// namespace whose values keep their types (the point's own attribute wins a name clash, then the
// scope's). Points that cannot be stored are counted and described for OTLP's partial success;
// the others are kept.
import { invalidInput, payloadTooLarge } from '../errors';
import { forEachExportItem, type OtlpEncoding } from '../shippers/otlp/codec';
import type {
  OtlpAnyValue,
  OtlpExponentialHistogramDataPoint,
  OtlpHistogramDataPoint,
  OtlpInt64,
  OtlpKeyValue,
  OtlpMetric,
  OtlpNumberDataPoint,
  OtlpResource,
  OtlpScope,
  OtlpSummaryDataPoint,
} from '../shippers/otlp/model';
import { anyValue, enumNumber, int64, listOf } from '../shippers/otlp/values';
import type { DistributionValue, MetricDescriptor, MetricType, SeriesPoints, Tags, TagValue } from './model';
import { seriesKey, withoutNul } from './store/series-key';

export interface MappedPoints {
  series: SeriesPoints[];
  points: number;
  rejected: number;
  /** Why the first refused point was refused. */
  firstError: string | undefined;
}

const TEMPORALITIES = ['AGGREGATION_TEMPORALITY_UNSPECIFIED', 'AGGREGATION_TEMPORALITY_DELTA', 'AGGREGATION_TEMPORALITY_CUMULATIVE'];
/** `DATA_POINT_FLAGS_NO_RECORDED_VALUE_MASK`: the point holds no value. */
const NO_RECORDED_VALUE = 1;
/** How deep key-value lists may nest (their keys join with dots). */
const MAX_DEPTH = 8;
/** Buckets an exponential histogram point may have in each direction. */
const MAX_EXPONENTIAL_BUCKETS = 4096;

class RejectedPoint extends Error {}

const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/** A property of a decoded message: set on the wire (protobuf) or present (JSON). */
function present<T extends object, K extends keyof T & string>(object: T, key: K): boolean {
  return own(object, key) && object[key] !== null && object[key] !== undefined;
}

/** A double of a decoded message: a number, or text in OTLP/JSON ("NaN", "Infinity", "1.5"). */
function double(value: unknown, what: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === 'NaN') return Number.NaN;
    if (text === 'Infinity' || text === '+Infinity') return Infinity;
    if (text === '-Infinity') return -Infinity;
    const number = Number(text);
    if (text !== '' && !Number.isNaN(number)) return number;
  }
  throw new RejectedPoint(`${what} is not a number`);
}

const count = (value: OtlpInt64 | null | undefined, what: string) => (value === undefined || value === null ? 0 : Number(int64(value, what)));

/** An attribute value as a typed tag; arrays and bytes become text, key-value lists nest by name. */
function addTag(tags: Tags, key: string, value: OtlpAnyValue | null | undefined, depth = 0): void {
  if (!value) return;
  const kind = (value as { value?: unknown }).value;
  const has = (member: keyof OtlpAnyValue) => (typeof kind === 'string' ? kind === member : present(value, member));
  let tag: TagValue | undefined;
  if (has('stringValue')) tag = { type: 'string', value: withoutNul(String(value.stringValue)) };
  else if (has('boolValue')) tag = { type: 'bool', value: Boolean(value.boolValue) };
  else if (has('intValue')) tag = { type: 'int', value: int64(value.intValue!, `attribute ${key}`) };
  else if (has('doubleValue')) tag = { type: 'float', value: double(value.doubleValue, `attribute ${key}`) };
  else if (has('kvlistValue')) {
    if (depth >= MAX_DEPTH) throw invalidInput(`attribute ${key} nests deeper than ${MAX_DEPTH} levels`);
    for (const pair of listOf(value.kvlistValue!.values, `attribute ${key}`)) addTag(tags, `${key}.${pair.key}`, pair.value, depth + 1);
    return;
  } else if (has('arrayValue')) tag = { type: 'string', value: withoutNul(JSON.stringify(anyValue(value) ?? [])) };
  else if (has('bytesValue')) {
    const bytes = value.bytesValue!;
    tag = { type: 'string', value: typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('base64') };
  }
  if (tag) tags.set(key, tag);
}

function tagsOf(attributes: OtlpKeyValue[] | null | undefined, into: Tags = new Map()): Tags {
  for (const pair of listOf(attributes, 'attributes')) {
    if (typeof pair?.key !== 'string') throw invalidInput('every attribute needs a string key');
    addTag(into, pair.key, pair.value);
  }
  return into;
}

/** The point's time in whole seconds; a point without one takes the receive time. */
function secondsOf(time: OtlpInt64 | undefined, receivedSeconds: number): number {
  if (time === undefined || time === null) return receivedSeconds;
  const nanos = int64(time, 'timeUnixNano');
  return nanos <= 0n ? receivedSeconds : Number(nanos / 1_000_000_000n);
}

function temporalityOf(value: number | string | null | undefined): MetricDescriptor['temporality'] {
  const number = enumNumber(value ?? 0, TEMPORALITIES, 'aggregationTemporality');
  return number === 1 ? 'delta' : number === 2 ? 'cumulative' : null;
}

function histogramValue(point: OtlpHistogramDataPoint): DistributionValue {
  const bounds = listOf(point.explicitBounds, 'explicitBounds').map((bound) => double(bound, 'a histogram bound'));
  const counts = listOf(point.bucketCounts, 'bucketCounts').map((value) => count(value, 'bucketCounts'));
  if (counts.length > 0 && counts.length !== bounds.length + 1) {
    throw new RejectedPoint(`a histogram point has ${counts.length} bucket counts for ${bounds.length} bounds (needs one more count than bounds)`);
  }
  for (let i = 1; i < bounds.length; i++) if (!(bounds[i]! > bounds[i - 1]!)) throw new RejectedPoint('histogram bounds must be increasing');
  return {
    count: count(point.count, 'count'),
    sum: present(point, 'sum') ? double(point.sum, 'sum') : null,
    min: present(point, 'min') ? double(point.min, 'min') : null,
    max: present(point, 'max') ? double(point.max, 'max') : null,
    bounds: counts.length > 0 ? bounds : null,
    counts: counts.length > 0 ? counts : null,
    quantiles: null,
    quantileValues: null,
  };
}

/**
 * An exponential histogram as explicit buckets: negative buckets (most negative first), the
 * zero bucket, then positive buckets, each ending at its upper bound; a last empty bucket is
 * unbounded. Bucket `i` of scale `s` covers (base^i, base^(i+1)] with base = 2^(2^-s).
 */
function exponentialValue(point: OtlpExponentialHistogramDataPoint): DistributionValue {
  const scale = Number(point.scale ?? 0);
  if (!Number.isInteger(scale) || scale < -10 || scale > 20) throw new RejectedPoint(`exponential histogram scale ${scale} is outside -10..20`);
  const base = 2 ** (2 ** -scale);
  const side = (buckets: OtlpExponentialHistogramDataPoint['positive'], what: string) => {
    const counts = listOf(buckets?.bucketCounts, what).map((value) => count(value, what));
    if (counts.length > MAX_EXPONENTIAL_BUCKETS) throw new RejectedPoint(`an exponential histogram point has more than ${MAX_EXPONENTIAL_BUCKETS} ${what}`);
    return { offset: Number(buckets?.offset ?? 0), counts };
  };
  const positive = side(point.positive, 'positive buckets');
  const negative = side(point.negative, 'negative buckets');
  const zeroThreshold = point.zeroThreshold === undefined ? 0 : Math.abs(double(point.zeroThreshold, 'zeroThreshold'));
  const bounds: number[] = [];
  const counts: number[] = [];
  for (let k = negative.counts.length - 1; k >= 0; k--) {
    bounds.push(-(base ** (negative.offset + k)));
    counts.push(negative.counts[k]!);
  }
  bounds.push(zeroThreshold);
  counts.push(count(point.zeroCount, 'zeroCount'));
  positive.counts.forEach((value, k) => {
    bounds.push(base ** (positive.offset + k + 1));
    counts.push(value);
  });
  counts.push(0);
  return {
    count: count(point.count, 'count'),
    sum: present(point, 'sum') ? double(point.sum, 'sum') : null,
    min: present(point, 'min') ? double(point.min, 'min') : null,
    max: present(point, 'max') ? double(point.max, 'max') : null,
    bounds,
    counts,
    quantiles: null,
    quantileValues: null,
  };
}

function summaryValue(point: OtlpSummaryDataPoint): DistributionValue {
  const pairs = listOf(point.quantileValues, 'quantileValues')
    .map((pair) => [double(pair.quantile ?? 0, 'quantile'), double(pair.value ?? 0, 'quantile value')] as const)
    .sort(([a], [b]) => a - b);
  return {
    count: count(point.count, 'count'),
    sum: present(point, 'sum') ? double(point.sum, 'sum') : 0,
    min: null,
    max: null,
    bounds: null,
    counts: null,
    quantiles: pairs.length > 0 ? pairs.map(([q]) => q) : null,
    quantileValues: pairs.length > 0 ? pairs.map(([, v]) => v) : null,
  };
}

function numberValue(point: OtlpNumberDataPoint): number {
  const kind = (point as { value?: unknown }).value;
  if (kind === 'asInt' || (kind === undefined && present(point, 'asInt'))) return Number(int64(point.asInt!, 'asInt'));
  if (kind === 'asDouble' || (kind === undefined && present(point, 'asDouble'))) return double(point.asDouble, 'asDouble');
  throw new RejectedPoint('a number point has neither asDouble nor asInt');
}

/** The series points of one export request body (protobuf or OTLP/JSON); more than `maxPoints` is a 413. */
export function readMetrics(body: Buffer, encoding: OtlpEncoding, maxPoints = Infinity, receivedAt = Date.now()): MappedPoints {
  const receivedSeconds = Math.floor(receivedAt / 1000);
  const bySeries = new Map<string, SeriesPoints>();
  let points = 0;
  let rejected = 0;
  let firstError: string | undefined;
  const refuse = (reason: string, howMany = 1) => {
    rejected += howMany;
    firstError ??= reason;
  };
  // Resource and scope attributes, merged once per group; a point's own attributes win.
  const sharedTags = (resource: OtlpResource | null | undefined, scope: OtlpScope | null | undefined) => tagsOf(scope?.attributes, tagsOf(resource?.attributes));
  forEachExportItem<OtlpMetric, Tags>('metrics', body, encoding, sharedTags, (metric, shared) => {
    const data = metric.gauge ?? metric.sum ?? metric.histogram ?? metric.exponentialHistogram ?? metric.summary;
    if (!data) return;
    const dataPoints = listOf(data.dataPoints as unknown[] | undefined, 'dataPoints');
    if (!metric.name) {
      refuse('a metric has no name', dataPoints.length);
      return;
    }
    const type: MetricType = metric.gauge ? 'gauge' : metric.sum ? 'sum' : metric.histogram ? 'histogram' : metric.exponentialHistogram ? 'exponential_histogram' : 'summary';
    const descriptor: MetricDescriptor = {
      name: withoutNul(metric.name),
      type,
      temporality: type === 'gauge' || type === 'summary' ? null : temporalityOf((data as { aggregationTemporality?: number | string | null }).aggregationTemporality),
      monotonic: metric.sum ? Boolean(metric.sum.isMonotonic) : null,
      unit: withoutNul(metric.unit ?? ''),
    };
    const scalar = type === 'gauge' || type === 'sum';
    for (const raw of dataPoints) {
      const point = raw as OtlpNumberDataPoint & OtlpHistogramDataPoint & OtlpExponentialHistogramDataPoint & OtlpSummaryDataPoint;
      try {
        if (((point.flags ?? 0) & NO_RECORDED_VALUE) !== 0) continue;
        const time = secondsOf(point.timeUnixNano, receivedSeconds);
        const value = scalar
          ? numberValue(point)
          : type === 'histogram'
            ? histogramValue(point)
            : type === 'exponential_histogram'
              ? exponentialValue(point)
              : summaryValue(point);
        const tags = tagsOf(point.attributes, new Map(shared));
        const key = `${type}\u0000${seriesKey(descriptor.name, scalar ? 'scalar' : 'distribution', tags)}`;
        let series = bySeries.get(key);
        if (!series) {
          series = { metric: descriptor, tags, times: [], values: [], distributions: [] };
          bySeries.set(key, series);
        }
        if (typeof value === 'number') series.values.push(value);
        else series.distributions.push(value);
        series.times.push(time);
        if (++points > maxPoints) throw payloadTooLarge(`an export may carry at most ${maxPoints} data points`);
      } catch (error) {
        if (!(error instanceof RejectedPoint)) throw error;
        refuse(`metric ${metric.name}: ${error.message}`);
      }
    }
  });
  return { series: [...bySeries.values()], points, rejected, firstError };
}
