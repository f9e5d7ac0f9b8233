// Text written through the chunk writer reads back as written, and DuckDB compares, groups and
// orders it as text it wrote itself: inline and out of line, ASCII and not, nulls between values,
// strings around the 12-byte boundary, surrogates split across neighbours, several chunks, and a
// reused chunk after one with nulls.
import { describe, expect, it } from 'vitest';
import { appendColumns, type ChunkColumn } from '../../../src/engines/duckdb/chunk-writer';
import { MAX_JOINED_CHARS } from '../../../src/engines/duckdb/text-vector';
import type { ColumnValue } from '../../../src/engines/column-value';
import { inMemoryDuckDB } from '../../helpers/duckdb-memory';

const connection = inMemoryDuckDB();

/** Creates `name` (n BIGINT, s VARCHAR, j JSON), appends the rows through the chunk writer, and reads them back in order. */
async function roundTrip(name: string, texts: (string | undefined)[], objects?: (ColumnValue | undefined)[]): Promise<{ s: string | null; j: string | null }[]> {
  await connection().run(`create or replace table ${name} (n bigint, s varchar, j json)`);
  const appender = await connection().createAppender(name);
  const columns: ChunkColumn[] = [
    { type: 'integer', values: texts.map((_, index) => index) },
    { type: 'string', values: texts },
    { type: 'map', ...(objects ? { values: objects } : {}) },
  ];
  appendColumns(appender, columns, texts.length);
  appender.closeSync();
  const reader = await connection().runAndReadAll(`select s, j::varchar from ${name} order by n`);
  return (reader.getRows() as [string | null, string | null][]).map(([s, j]) => ({ s, j }));
}

const HIGH = '\uD83D'; // the first half of 🙂 alone
const LOW = '\uDE42'; // its second half alone

describe('text written into data chunks', () => {
  it('reads back as written', async () => {
    const texts: (string | undefined)[] = [];
    for (let i = 0; i < 5000; i++) {
      switch (i % 10) {
        case 0: texts.push(undefined); break;
        case 1: texts.push(''); break;
        case 2: texts.push('x'.repeat(i % 14)); break; // 0 to 13 bytes
        case 3: texts.push(`GET /api/v1/orders/${i}?page=${i % 7}`); break;
        case 4: texts.push(`é${i % 10}`); break; // non-ASCII, inline
        case 5: texts.push(`ünïcödé-${i}-${'ß'.repeat(i % 5)}`); break; // non-ASCII, out of line
        case 6: texts.push(`${'🙂'.repeat(1 + (i % 4))}`); break; // 4 to 16 bytes
        case 7: texts.push(`ends high ${i} ${HIGH}`); break;
        case 8: texts.push(`${LOW} starts low ${i}`); break;
        default: texts.push('abcdefghijkl'); // exactly 12 bytes
      }
    }
    const rows = await roundTrip('texts', texts);
    // A lone surrogate cannot be stored: it reads back as U+FFFD, as the client writes it.
    const expected = texts.map((text) => (text === undefined ? null : text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')));
    expect(rows.map((row) => row.s)).toEqual(expected);
    expect(rows.map((row) => row.j)).toEqual(texts.map(() => null));
  });

  it('compares, groups and orders like text DuckDB wrote', async () => {
    const texts = Array.from({ length: 4200 }, (_, i) => (i % 3 === 0 ? `checkout-service-${i % 4}` : i % 3 === 1 ? `api-${i % 4}` : `ñandú-${i % 4}-x`));
    await roundTrip('compared', texts);
    const count = async (sql: string) => Number((await connection().runAndReadAll(sql)).getRows()[0]![0]);
    const expectedCount = (text: string) => texts.filter((value) => value === text).length;
    expect(await count(`select count(*) from compared where s = 'checkout-service-2'`)).toBe(expectedCount('checkout-service-2'));
    expect(await count(`select count(*) from compared where s = 'api-1'`)).toBe(expectedCount('api-1'));
    expect(await count(`select count(*) from compared where s = 'ñandú-3-x'`)).toBe(expectedCount('ñandú-3-x'));
    expect(await count(`select count(*) from compared where s like 'checkout-%-1'`)).toBe(texts.filter((value) => /^checkout-.*-1$/.test(value)).length);
    expect(await count(`select count(distinct s) from compared`)).toBe(new Set(texts).size);
    const groups = (await connection().runAndReadAll(`select s, count(*) from compared group by s order by s`)).getRows() as [string, bigint][];
    const byText = new Map<string, number>();
    for (const text of texts) byText.set(text, (byText.get(text) ?? 0) + 1);
    const sorted = [...byText].sort(([a], [b]) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1));
    expect(groups.map(([text, n]) => [text, Number(n)])).toEqual(sorted);
  });

  it('writes a chunk whose long strings together pass what is joined at once', async () => {
    const size = Math.ceil(MAX_JOINED_CHARS / 2.5);
    const texts = ['before', 'a'.repeat(size), 'between', 'b'.repeat(size), 'c'.repeat(size), undefined, 'after the long ones'];
    const rows = await roundTrip('long_texts', texts);
    expect(rows.map((row) => (row.s === null ? null : [row.s.length, row.s[0], row.s.at(-1)]))).toEqual(
      texts.map((text) => (text === undefined ? null : [text.length, text[0], text.at(-1)])),
    );
    expect(rows.every((row, index) => row.s === (texts[index] ?? null))).toBe(true);
  });

  it('writes JSON columns, and a chunk reused after one with nulls starts valid', async () => {
    const objects: (ColumnValue | undefined)[] = Array.from({ length: 3000 }, (_, i) => (i % 2 ? undefined : ({ route: `/items/${i}`, ok: i % 4 === 0 } as unknown as ColumnValue)));
    const first = await roundTrip('mapped', objects.map(() => undefined), objects);
    expect(first.map((row) => row.j)).toEqual(objects.map((value) => (value === undefined ? null : JSON.stringify(value))));
    // The same column layout again: the reused chunk's entries must all be valid before writing.
    const second = await roundTrip('mapped_again', objects.map((_, i) => `row ${i} of the second batch`), objects.map(() => ({ all: 'set' }) as unknown as ColumnValue));
    expect(second.every((row) => row.s !== null && row.j === '{"all":"set"}')).toBe(true);
  });
});
