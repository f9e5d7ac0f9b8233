// Metadata, SQL and series functions. cursor_current is checked by what it is for: sent back
// as a query's cursor, the walk resumes right after that event.
import { describe, expect, it } from 'vitest';
import { FX, type FxEvent, perEvent, scalars, useFixture } from '../../helpers/apl/conformance-functions';
import { decodeCursor } from '../../../src/apl/execution/cursor';
import { addDataset } from '../../helpers/apl/fixtures';
import { onClickHouse } from '../../helpers/apl/unsupported-on-clickhouse';

const db = useFixture();
const newestFirst = [...FX].sort((a, b) => Date.parse(b._time) - Date.parse(a._time));

describe('metadata functions', () => {
  perEvent(db, [
    ["column_ifexists('n', -1)", (e) => e.n ?? null],
    ["column_ifexists('no_such_field', -1)", () => -1],
    ["column_ifexists('group', text)", (e) => e.group ?? null],
    ['ingestion_time()', (e) => e._time],
  ]);
  scalars(db, [['isnotempty(cursor_current())', true]]);

  it('cursor_current() of an event resumes a query right after it', () =>
    onClickHouse(async () => {
    const rows = await db().rows("['fx'] | project id, c = cursor_current()");
    expect(rows.map((r) => r.id)).toEqual(newestFirst.map((e) => e.id));
    const third = rows[2]!;
    const next = await db().rows("['fx'] | project id", { cursor: String(third.c) });
    expect(next.map((r) => r.id)).toEqual(newestFirst.slice(3).map((e) => e.id));
    const including = await db().rows("['fx'] | project id", { cursor: String(third.c), includeCursor: true } as never);
    expect(including.map((r) => r.id)).toEqual(newestFirst.slice(2).map((e) => e.id));
    }),
  );

  it("cursor_current() encodes the event's time and row id, before 1970 too, signed with the server's key", async () => {
    await addDataset(db(), 'epochs', [{ name: 'k', type: 'string' }], [
      { _time: '1969-12-31T23:59:59.999999999Z', _rowId: 5n, k: 'before' },
      { _time: '2024-03-04T05:06:07.000000123Z', _rowId: 123_456_789_012n, k: 'after' },
    ]);
    const rows = await db().rows("['epochs'] | project k, c = cursor_current()");
    const decoded = Object.fromEntries(rows.map((r) => [r.k, decodeCursor(String(r.c), 'test-cursor-key')]));
    expect(decoded).toEqual({
      before: { timeNanos: -1n, rowId: 5n },
      after: { timeNanos: BigInt(Date.UTC(2024, 2, 4, 5, 6, 7)) * 1_000_000n + 123n, rowId: 123_456_789_012n },
    });
    // The text itself: base 36 of each, then the signature.
    expect(String(rows.find((r) => r.k === 'before')!.c)).toMatch(/^n1-5-[A-Za-z0-9_-]{16}$/);
  });

  it('rows that are not events have no cursor and no ingestion time', async () => {
    const rows = await db().rows("['fx'] | summarize n = count() | extend c = cursor_current(), t = ingestion_time()");
    expect(rows).toEqual([{ n: FX.length, c: null, t: null }]);
  });
});

describe('SQL functions', () => {
  scalars(db, [
    [
      "parse_sql('SELECT id, status FROM logs WHERE status = 401 OR status = 403')",
      {
        statement: 'select',
        columns: [{ colname: 'id' }, { colname: 'status' }],
        from: [{ table: 'logs' }],
        where: {
          operator: 'or',
          params: [
            { operator: '=', params: [{ colname: 'status' }, { value: '401', valtype: 'integer' }] },
            { operator: '=', params: [{ colname: 'status' }, { value: '403', valtype: 'integer' }] },
          ],
        },
      },
    ],
    [
      "parse_sql('select count(*) as n from t group by k order by n desc limit 5')",
      {
        statement: 'select',
        columns: [{ func: 'count', params: [{ colname: '*' }], alias: 'n' }],
        from: [{ table: 't' }],
        group: [{ colname: 'k' }],
        order: [{ direction: 'desc', expr: { colname: 'n' } }],
        limit: { value: '5', valtype: 'integer' },
      },
    ],
    ["parse_sql(\"update t set a = 1 where b = 'x'\").statement", 'update'],
    ["parse_sql('this is not SQL')", null],
    ["format_sql(parse_sql('SELECT id, status, uri FROM requests WHERE req_duration_ms > 1000 ORDER BY req_duration_ms DESC'))", 'select id, status, uri from requests where req_duration_ms > 1000 order by req_duration_ms desc'],
    ["format_sql(parse_sql('SELECT a FROM t WHERE (x = 1 OR y = 2) AND z IN (3, 4)'))", 'select a from t where (x = 1 or y = 2) and z in (3, 4)'],
    ["format_sql(parse_sql('DELETE FROM t WHERE a IS NULL'))", 'delete from t where a is null'],
    ["format_sql(parse_sql(\"INSERT INTO t (a, b) VALUES (1, 'two')\"))", "insert into t (a, b) values (1, 'two')"],
    ["format_sql(dynamic({'statement': 'select', 'columns': [{'colname': 'x'}], 'from': [{'table': 'y'}]}))", 'select x from y'],
    ["format_sql(dynamic({'nothing': 1}))", null],
  ]);
});

const numbersOf = (e: FxEvent) => e.series;
const sumOf = (values: (number | null)[]) => values.reduce<number>((a, b) => a + (b ?? 0), 0);

describe('series functions', () => {
  perEvent(db, [
    ['series_sum(series)', (e) => (numbersOf(e) ? sumOf(numbersOf(e)!) : null)],
    ['series_abs(series_multiply(series, -1))', (e) => numbersOf(e)?.map((v) => (v === null ? null : Math.abs(-v))) ?? null],
    ['series_add(series, 1)', (e) => numbersOf(e)?.map((v) => (v === null ? null : v + 1)) ?? null],
    ['series_greater(series, 3)', (e) => numbersOf(e)?.map((v) => (v === null ? null : v > 3)) ?? null],
    ['series_magnitude(series)', (e) => (numbersOf(e) ? Math.sqrt(sumOf(numbersOf(e)!.map((v) => (v ?? 0) ** 2))) : null)],
  ]);
  scalars(db, [
    ["series_abs(dynamic([-1, 2.5, 'x']))", [1, 2.5, null]],
    ['series_acos(dynamic([0.5, 2]))', [Math.acos(0.5), null]],
    ['series_asin(dynamic([0.5]))', [Math.asin(0.5)]],
    ['series_atan(dynamic([1]))', [Math.atan(1)]],
    ['series_ceiling(dynamic([1.2, 2]))', [2, 2]],
    ['series_floor(dynamic([1.8, -1.2]))', [1, -2]],
    ['series_cos(dynamic([0]))', [1]],
    ['series_sin(dynamic([0]))', [0]],
    ['series_tan(dynamic([0]))', [0]],
    ['series_exp(dynamic([0, 1]))', [1, Math.E]],
    ['series_log(dynamic([1, 0, -1]))', [0, null, null]],
    ['series_sign(dynamic([-3, 0, 2]))', [-1, 0, 1]],
    ['series_pow(dynamic([2, 3]), 2)', [4, 9]],
    ['series_add(dynamic([1, 2, 3]), dynamic([10, 20]))', [11, 22]],
    ['series_subtract(dynamic([1, 2, 3]), dynamic([10, 20]))', [-9, -18, null]],
    ['series_multiply(dynamic([1, 2]), dynamic([3, 4, 5]))', [3, 8, null]],
    ['series_divide(dynamic([1, 6]), dynamic([0, 4]))', [null, 1.5]],
    ['series_max(dynamic([1, 5]), dynamic([3, 2]))', [3, 5]],
    ['series_min(dynamic([1, 5]), 2)', [1, 2]],
    ['series_equals(dynamic([150, 200, 250]), 200)', [false, true, false]],
    ['series_not_equals(dynamic([1, 2]), dynamic([1, 3]))', [false, true]],
    ['series_greater_equals(dynamic([1, 2]), 2)', [false, true]],
    ['series_less(dynamic([1, 2]), 2)', [true, false]],
    ['series_less_equals(dynamic([1, 2]), 1)', [true, false]],
    ['series_sum(dynamic([]))', 0],
    ['series_dot_product(dynamic([1, 2, 3]), dynamic([4, 5, 6]))', 32],
    ['series_cosine_similarity(dynamic([1, 2]), dynamic([2, 4]))', 1],
    ['series_cosine_similarity(dynamic([0, 0]), dynamic([1, 1]))', null],
    ['series_pearson_correlation(dynamic([1, 2, 3, 4]), dynamic([8, 6, 4, 2]))', -1],
    ['series_stats(dynamic([3, 1, 4, 1, 5]))', [1, 1, 5, 4, 2.8, 3.2, Math.sqrt(3.2)]],
    ['series_stats_dynamic(dynamic([2, 4]))', { min: 2, min_idx: 0, max: 4, max_idx: 1, avg: 3, variance: 2, stdev: Math.sqrt(2) }],
    ['series_fill_const(dynamic([1, null, 3]), 0)', [1, 0, 3]],
    ['series_fill_forward(dynamic([null, 100, null, 300]))', [100, 100, 100, 300]],
    ['series_fill_backward(dynamic([100, null, null, 300]))', [100, 300, 300, 300]],
    ['series_fill_linear(dynamic([100, null, null, 200]))', [100, 100 + 100 / 3, 100 + 200 / 3, 200]],
    ['series_fill_linear(dynamic([null, 150, null, 300, null]))', [150, 150, 225, 300, 300]],
    ['series_fill_forward(dynamic([1, -1, 3]), -1)', [1, 1, 3]],
    ['series_fir(dynamic([1, 2, 3, 4]), dynamic([1, 1]))', [0.5, 1.5, 2.5, 3.5]],
    ['series_fir(dynamic([1, 2, 3, 4]), dynamic([1, 1]), false)', [1, 3, 5, 7]],
    ['series_fir(dynamic([1, 2, 3, 4, 5]), dynamic([1, 1, 1]), true, true)', [1, 2, 3, 4, 3]],
    ['series_iir(dynamic([1, 1, 1, 1]), dynamic([1]), dynamic([1, -0.5]))', [1, 1.5, 1.75, 1.875]],
    ['series_iir(dynamic([2, 4]), dynamic([0.5, 0.5]), dynamic([1]))', [1, 3]],
    ['series_fft(dynamic([1, 0, 0, 0]))', [[1, 1, 1, 1], [0, 0, 0, 0]]],
    ['series_fft(dynamic([1, 2, 3, 4]))[0]', [10, -2, -2, -2]],
    ['series_fft(dynamic([1, 2, 3, 4]))[1]', [0, 2, 0, -2]],
    ['series_ifft(dynamic([10, -2, -2, -2]), dynamic([0, 2, 0, -2]))[0]', [1, 2, 3, 4]],
  ]);
});
