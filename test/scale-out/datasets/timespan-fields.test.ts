// Timespan fields end to end: events carrying timespans (as a format parser hands them to the
// ingest service) are stored, listed as `timespan` fields, and queried through HTTP as APL
// timespans. Expected answers are worked out by hand from the nanosecond counts below.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Timespan } from '../../../src/ingest/timespan';
import { aplRows, sendJson } from '../../helpers/api';
import { startTestServer, type TestServer } from '../../helpers/server';

const MS = 1_000_000n;
const S = 1_000_000_000n;
const SPANS = [
  { service: 'api', name: 'a', nanos: 50n * MS },
  { service: 'api', name: 'b', nanos: 150n * MS },
  { service: 'db', name: 'c', nanos: 2n * S },
  { service: 'db', name: 'd', nanos: 90n * S },
  { service: 'api', name: 'e', nanos: 250_000n },
];

describe('timespan fields', () => {
  let server: TestServer;
  const post = (path: string, body: unknown) => sendJson(server, 'POST', path, body);
  const apl = async (query: string) => {
    const answer = await aplRows(server, query);
    expect(answer.status, answer.error).toBe(200);
    return answer;
  };

  beforeAll(async () => {
    server = await startTestServer();
    expect((await post('/v2/datasets', { name: 'traces' })).status).toBe(200);
    const dataset = await server.app.services.store.prisma.dataset.findFirstOrThrow({ where: { name: 'traces' } });
    const base = Date.parse('2025-03-01T10:00:00Z');
    const status = await server.app.services.ingest.ingestEvents(
      dataset,
      SPANS.map((span, i) => ({ _time: new Date(base + i * 1000).toISOString(), service: span.service, name: span.name, duration: new Timespan(span.nanos) })),
    );
    expect(status.ingested).toBe(SPANS.length);
  });
  afterAll(() => server.close());

  it('lists the field as timespan in the fields API and in getschema', async () => {
    const response = await server.request('/v2/datasets/traces/fields/duration');
    expect(await response.json()).toEqual({ name: 'duration', type: 'timespan', unit: '', description: '', hidden: false });
    const { rows } = await apl("['traces'] | getschema | where ColumnName == 'duration'");
    expect(rows).toEqual([{ ColumnName: 'duration', ColumnOrdinal: 4, DataType: 'timespan', ColumnType: 'timespan' }]);
  });

  it('returns timespans as duration text in results typed timespan', async () => {
    const { fields, rows } = await apl("['traces'] | sort by name asc | project name, duration");
    expect(fields).toEqual([
      { name: 'name', type: 'string' },
      { name: 'duration', type: 'timespan' },
    ]);
    expect(rows).toEqual([
      { name: 'a', duration: '50ms' },
      { name: 'b', duration: '150ms' },
      { name: 'c', duration: '2s' },
      { name: 'd', duration: '1m30s' },
      { name: 'e', duration: '250µs' },
    ]);
  });

  it('compares with timespan literals', async () => {
    const slow = await apl("['traces'] | where duration > 100ms | sort by name asc | project name");
    expect(slow.rows).toEqual([{ name: 'b' }, { name: 'c' }, { name: 'd' }]);
    const between = await apl("['traces'] | where duration between (100ms .. 5s) | count");
    expect(between.rows).toEqual([{ count: 2 }]);
  });

  it('divides by a timespan into a real, and does arithmetic with timespans', async () => {
    const { rows } = await apl("['traces'] | sort by name asc | project name, seconds = duration / 1s, doubled = duration * 2, later = duration + 1s");
    expect(rows).toEqual([
      { name: 'a', seconds: 0.05, doubled: '100ms', later: '1.05s' },
      { name: 'b', seconds: 0.15, doubled: '300ms', later: '1.15s' },
      { name: 'c', seconds: 2, doubled: '4s', later: '3s' },
      { name: 'd', seconds: 90, doubled: '3m0s', later: '1m31s' },
      { name: 'e', seconds: 0.00025, doubled: '500µs', later: '1.00025s' },
    ]);
  });

  it('sums, averages and finds extremes of timespans', async () => {
    // sum: 50ms + 150ms + 2s + 90s + 0.25ms = 92.20025s; average: 18.44005s.
    const all = await apl("['traces'] | summarize total = sum(duration), mean = avg(duration), longest = max(duration), shortest = min(duration)");
    expect(all.rows).toEqual([{ total: '1m32.20025s', mean: '18.44005s', longest: '1m30s', shortest: '250µs' }]);
    expect(all.fields.map((field) => field.type)).toEqual(['timespan', 'timespan', 'timespan', 'timespan']);
    // api: 50ms + 150ms + 0.25ms = 200.25ms (mean 66.75ms); db: 92s (mean 46s).
    const byService = await apl("['traces'] | summarize total = sum(duration), mean = avg(duration) by service | sort by service asc");
    expect(byService.rows).toEqual([
      { service: 'api', total: '200.25ms', mean: '66.75ms' },
      { service: 'db', total: '1m32s', mean: '46s' },
    ]);
  });

  it('sorts by timespan and converts it to text', async () => {
    const { rows } = await apl("['traces'] | top 2 by duration | project name, text = tostring(duration)");
    expect(rows).toEqual([
      { name: 'd', text: '1m30s' },
      { name: 'c', text: '2s' },
    ]);
  });
});
