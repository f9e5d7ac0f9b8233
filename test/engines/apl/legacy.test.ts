// The legacy query request (v1 queryDataset) through the same engine, and the response shapes
// of both formats checked against the schemas of ../shared/reference/axiom-openapi/v1.json.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeLegacyQuery, type LegacyQueryRequest, toLegacyAplResponse, toTabularResponse } from '../../../src/apl';
import { AXIOM_OPENAPI_DIR, sharedDataAvailable } from '../../helpers/shared-data';
import { groupBy, HTTP_EVENTS as H, HTTP_FIELDS, type HttpEvent, iso, mean, ms, sum } from '../../helpers/apl/conformance-data';
import { addDataset, createTestDatabase, type TestDatabase } from '../../helpers/apl/fixtures';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('2024-05-01T00:00:00Z');
  await addDataset(db, 'http', HTTP_FIELDS, H as never);
});

afterAll(() => db.close());

const WINDOW = { startTime: '2024-04-30T00:00:00Z', endTime: '2024-05-01T00:00:00Z', resolution: 'auto' };
const legacy = (request: Partial<LegacyQueryRequest>) => executeLegacyQuery('http', { ...WINDOW, ...request }, db.deps);
const matchIds = async (request: Partial<LegacyQueryRequest>) => (await legacy(request)).matches.map((m) => Number(m._rowId)).sort();
const ids = (predicate: (e: HttpEvent) => boolean) => H.filter(predicate).map((e) => Number(e._rowId)).sort();

describe('legacy query filters', () => {
  const cases: [string, Partial<LegacyQueryRequest>, (e: HttpEvent) => boolean][] = [
    ['eq', { filter: { op: 'eq', field: 'method', value: 'GET' } }, (e) => e.method === 'GET'],
    ['==', { filter: { op: '==', field: 'status', value: 200 } }, (e) => e.status === 200],
    ['eq case-insensitive', { filter: { op: 'eq', field: 'user', value: 'ALICE', caseSensitive: false } }, (e) => e.user?.toLowerCase() === 'alice'],
    ['ne', { filter: { op: 'ne', field: 'method', value: 'GET' } }, (e) => e.method !== 'GET'],
    ['!=', { filter: { op: '!=', field: 'status', value: 200 } }, (e) => e.status !== 200],
    ['exists', { filter: { op: 'exists', field: 'duration' } }, (e) => e.duration !== undefined],
    ['not-exists', { filter: { op: 'not-exists', field: 'geo.city' } }, (e) => e['geo.city'] === undefined],
    ['gt', { filter: { op: 'gt', field: 'status', value: 400 } }, (e) => e.status! > 400],
    ['gte', { filter: { op: 'gte', field: 'status', value: 400 } }, (e) => e.status! >= 400],
    ['lt', { filter: { op: 'lt', field: 'duration', value: 10 } }, (e) => e.duration !== undefined && e.duration < 10],
    ['lte', { filter: { op: 'lte', field: 'duration', value: 10 } }, (e) => e.duration !== undefined && e.duration <= 10],
    ['starts-with', { filter: { op: 'starts-with', field: 'uri', value: '/API' } }, (e) => e.uri!.toLowerCase().startsWith('/api')],
    ['starts-with case-sensitive', { filter: { op: 'starts-with', field: 'uri', value: '/API', caseSensitive: true } }, () => false],
    ['not-starts-with', { filter: { op: 'not-starts-with', field: 'uri', value: '/api' } }, (e) => !e.uri!.startsWith('/api')],
    ['ends-with', { filter: { op: 'ends-with', field: 'uri', value: 'users' } }, (e) => e.uri!.toLowerCase().endsWith('users')],
    ['not-ends-with', { filter: { op: 'not-ends-with', field: 'uri', value: 'users' } }, (e) => !e.uri!.toLowerCase().endsWith('users')],
    ['contains', { filter: { op: 'contains', field: 'message', value: 'ERROR' } }, (e) => e.message!.toLowerCase().includes('error')],
    ['not-contains', { filter: { op: 'not-contains', field: 'message', value: 'error' } }, (e) => !e.message!.toLowerCase().includes('error')],
    ['regexp', { filter: { op: 'regexp', field: 'uri', value: '^/api/v[0-9]/users$' } }, (e) => /^\/api\/v[0-9]\/users$/.test(e.uri!)],
    ['not-regexp', { filter: { op: 'not-regexp', field: 'uri', value: '^/api' } }, (e) => !/^\/api/.test(e.uri!)],
    [
      'and / or / not',
      {
        filter: {
          op: 'and',
          field: '',
          children: [
            { op: 'or', field: '', children: [{ op: 'eq', field: 'method', value: 'GET' }, { op: 'eq', field: 'method', value: 'POST' }] },
            { op: 'not', field: '', children: [{ op: 'gte', field: 'status', value: 400 }] },
          ],
        },
      },
      (e) => (e.method === 'GET' || e.method === 'POST') && !(e.status! >= 400),
    ],
  ];
  for (const [name, request, predicate] of cases) {
    it(name, async () => expect(await matchIds(request)).toEqual(ids(predicate)));
  }

  it('rejects an unknown op and an unknown field', async () => {
    await expect(legacy({ filter: { op: 'like', field: 'uri', value: 'x' } })).rejects.toThrow(/unknown filter op "like"/);
    await expect(legacy({ filter: { op: 'eq', field: 'methd', value: 'x' } })).rejects.toThrow(/unknown field "methd" \(did you mean "method"/);
  });
});

describe('legacy query events', () => {
  it('returns matches newest first with system fields outside data', async () => {
    const result = await legacy({});
    const newest = [...H].sort((a, b) => ms(b._time) - ms(a._time));
    expect(result.matches.map((m) => Number(m._rowId))).toEqual(newest.map((e) => Number(e._rowId)));
    const first = result.matches[0]!;
    expect(first._time).toBe(iso(ms(newest[0]!._time)));
    expect(first.data).not.toHaveProperty('_time');
    expect(first.data).toMatchObject({ uri: newest[0]!.uri, status: newest[0]!.status });
  });

  it('applies order, limit, project and virtual fields', async () => {
    const result = await legacy({
      order: [{ field: 'resp_bytes', desc: true }],
      limit: 3,
      virtualFields: [{ alias: 'kb', expr: 'resp_bytes / 1024.0' }],
      project: [{ field: 'kb' }, { field: 'uri', alias: 'path' }],
    });
    const top = [...H].sort((a, b) => b.resp_bytes! - a.resp_bytes!).slice(0, 3);
    expect(result.matches.map((m) => m.data)).toEqual(top.map((e) => ({ kb: e.resp_bytes! / 1024, path: e.uri })));
  });

  it('pages with the cursor', async () => {
    const first = await legacy({ limit: 5 });
    const second = await legacy({ limit: 5, cursor: first.status.minCursor! });
    const newest = [...H].sort((a, b) => ms(b._time) - ms(a._time)).map((e) => Number(e._rowId));
    expect([...first.matches, ...second.matches].map((m) => Number(m._rowId))).toEqual(newest.slice(0, 10));
  });
});

describe('legacy query aggregations', () => {
  it('computes totals per group and series per resolution bucket', async () => {
    const result = await legacy({
      aggregations: [{ op: 'count', field: '*' }, { op: 'avg', field: 'duration', alias: 'avg_duration' }, { op: 'distinct', field: 'user' }],
      groupBy: ['method'],
      resolution: '3600',
    });
    expect(result.matches).toEqual([]);
    const totals = Object.fromEntries(result.buckets.totals.map((g) => [g.group.method as string, Object.fromEntries(g.aggregations.map((a) => [a.op, a.value]))]));
    for (const [key, group] of groupBy(H, (e) => e.method)) {
      const durations = group.filter((e) => e.duration !== undefined).map((e) => e.duration!);
      expect(totals[JSON.parse(key)]).toEqual({
        count: group.length,
        avg_duration: durations.length ? mean(durations) : null,
        distinct: new Set(group.filter((e) => e.user).map((e) => e.user)).size,
      });
    }
    const hours = [...groupBy(H, (e) => Math.floor(ms(e._time) / 3_600_000))].sort(([a], [b]) => Number(a) - Number(b));
    expect(result.buckets.series.map((s) => s.startTime)).toEqual(hours.map(([hour]) => iso(Number(hour) * 3_600_000)));
    for (const interval of result.buckets.series) {
      expect(ms(interval.endTime) - ms(interval.startTime)).toBe(3_600_000);
      const inBucket = H.filter((e) => Math.floor(ms(e._time) / 3_600_000) * 3_600_000 === ms(interval.startTime));
      expect(sum(interval.groups.map((g) => g.aggregations.find((a) => a.op === 'count')!.value as number))).toBe(inBucket.length);
      // A group keeps its id across series and totals.
      for (const group of interval.groups) expect(result.buckets.totals.map((t) => t.id)).toContain(group.id);
    }
  });

  it('orders and limits the totals by group, keeping every bucket of the series', async () => {
    const result = await legacy({ aggregations: [{ op: 'count', field: '*', alias: 'n' }], groupBy: ['method'], order: [{ field: 'n', desc: true }], limit: 2, resolution: '1h' });
    const counts = [...groupBy(H, (e) => e.method)].map(([k, g]) => ({ method: JSON.parse(k), n: g.length })).sort((a, b) => b.n - a.n);
    expect(result.buckets.totals.map((g) => ({ method: g.group.method, n: g.aggregations[0]!.value }))).toEqual(counts.slice(0, 2));
    expect(sum(result.buckets.series.flatMap((s) => s.groups.map((g) => g.aggregations[0]!.value as number)))).toBe(H.length);
  });

  it('supports every legacy aggregation op', async () => {
    const ops = ['count', 'distinct', 'sum', 'avg', 'min', 'max', 'topk', 'percentiles', 'histogram', 'stdev', 'variance', 'argmin', 'argmax', 'makeset', 'rate', 'makelist'];
    const result = await legacy({
      aggregations: ops.map((op) => ({ op, field: op === 'count' ? '*' : op === 'topk' || op === 'makeset' || op === 'makelist' ? 'method' : 'duration', alias: op, ...(op === 'percentiles' ? { argument: [50, 99] } : {}), ...(op === 'histogram' ? { argument: 500 } : {}) })),
    });
    const values = Object.fromEntries(result.buckets.totals[0]!.aggregations.map((a) => [a.op, a.value]));
    const durations = H.filter((e) => e.duration !== undefined).map((e) => e.duration!);
    expect(values.count).toBe(H.length);
    expect(values.sum).toBeCloseTo(sum(durations));
    expect(values.min).toBe(Math.min(...durations));
    expect(values.max).toBe(Math.max(...durations));
    expect(values.topk).toEqual([{ key: 'GET', count: H.filter((e) => e.method === 'GET').length }, { key: 'POST', count: 3 }, { key: 'DELETE', count: 1 }, { key: 'OPTIONS', count: 1 }, { key: 'PUT', count: 1 }]);
    expect((values.makeset as string[]).sort()).toEqual([...new Set(H.map((e) => e.method))].sort());
    expect(values.makelist).toHaveLength(H.length);
    expect(values.rate).toBeCloseTo(sum(durations) / 86_400);
    expect(values.histogram).toEqual([
      { value: 0, count: durations.filter((d) => d < 500).length },
      { value: 500, count: durations.filter((d) => d >= 500 && d < 1000).length },
      { value: 1000, count: durations.filter((d) => d >= 1000).length },
    ]);
  });
});

describe('wire shapes against v1.json', () => {
  const available = sharedDataAvailable(`${AXIOM_OPENAPI_DIR}/v1.json`);
  const spec = available ? JSON.parse(readFileSync(`${AXIOM_OPENAPI_DIR}/v1.json`, 'utf8')) : undefined;

  type Schema = { $ref?: string; type?: string; required?: string[]; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: Schema; format?: string };

  /** Checks `value` against an OpenAPI schema: required fields, types, nested refs. */
  function violations(value: unknown, schema: Schema, path: string): string[] {
    if (schema.$ref) return violations(value, spec.components.schemas[schema.$ref.split('/').pop()!], path);
    const problems: string[] = [];
    switch (schema.type) {
      case 'object': {
        const open = !schema.required && Object.keys(schema.properties ?? {}).length === 0 && !schema.additionalProperties;
        if (open) return [];
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: expected an object`];
        for (const key of schema.required ?? []) if (!(key in value)) problems.push(`${path}.${key}: required`);
        for (const [key, child] of Object.entries(value)) {
          const sub = schema.properties?.[key] ?? schema.additionalProperties;
          if (sub) problems.push(...violations(child, sub, `${path}.${key}`));
        }
        return problems;
      }
      case 'array':
        if (!Array.isArray(value)) return [`${path}: expected an array`];
        return value.flatMap((item, i) => (schema.items ? violations(item, schema.items, `${path}[${i}]`) : []));
      case 'string':
        if (typeof value !== 'string') return [`${path}: expected a string`];
        if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return [`${path}: not a date-time`];
        return [];
      case 'integer':
        return Number.isInteger(value) ? [] : [`${path}: expected an integer`];
      case 'number':
        return typeof value === 'number' ? [] : [`${path}: expected a number`];
      case 'boolean':
        return typeof value === 'boolean' ? [] : [`${path}: expected a boolean`];
      default:
        return [];
    }
  }

  it.runIf(available)('tabular and legacy APL results match AplResult', async () => {
    for (const apl of ["['http'] | take 3", "['http'] | summarize count(), avg(duration) by bin(_time, 1h), method", "['http'] | summarize count() by method"]) {
      const result = await db.query(apl, { startTime: WINDOW.startTime, endTime: WINDOW.endTime });
      expect(violations(toTabularResponse(result), { $ref: '#/components/schemas/AplResult' }, apl)).toEqual([]);
      expect(violations(toLegacyAplResponse(result), { $ref: '#/components/schemas/AplResult' }, apl)).toEqual([]);
    }
  });

  it.runIf(available)('legacy query results match Result', async () => {
    for (const request of [{}, { aggregations: [{ op: 'count', field: '*' }], groupBy: ['method'] }]) {
      const result = await legacy(request);
      expect(violations(result, { $ref: '#/components/schemas/Result' }, JSON.stringify(request))).toEqual([]);
    }
  });

  it('describes the table: fields with aggregations, order, groups, range and buckets', async () => {
    const result = await db.query("['http'] | summarize n = count(), p = percentile(duration, 90) by bin(_time, 1h), method", {
      startTime: WINDOW.startTime,
      endTime: WINDOW.endTime,
    });
    const [only] = toTabularResponse(result).tables;
    expect(only!.fields).toEqual([
      { name: '_time', type: 'datetime' },
      { name: 'method', type: 'string' },
      { name: 'n', type: 'integer', agg: { name: 'count', fields: [], args: [] } },
      { name: 'p', type: 'float', agg: { name: 'percentiles', fields: ['duration'], args: [90] } },
    ]);
    expect(only!.groups).toEqual([{ name: '_time' }, { name: 'method' }]);
    expect(only!.order).toEqual([{ field: '_time', desc: false }]);
    expect(only!.range).toEqual({ field: '_time', start: '2024-04-30T00:00:00Z', end: '2024-05-01T00:00:00Z' });
    expect(only!.buckets).toEqual({ field: '_time', size: 3_600_000_000_000 });
    expect(only!.sources).toEqual([{ name: 'http' }]);
    expect(result.datasetNames).toEqual(['http']);
    expect(result.fieldsMeta.http!.map((f) => f.name)).toEqual(HTTP_FIELDS.map((f) => f.name));
    expect(result.status.numGroups).toBe(only!.columns[0]!.length);
  });
});
