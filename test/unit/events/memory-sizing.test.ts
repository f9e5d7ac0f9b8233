// DuckDB's memory sized by the widest table (DUCKDB_MEMORY_LIMIT unset): it starts from what an
// empty store needs, rises when ingest widens a table (before the rows that might checkpoint
// it are committed), never falls, and is sized again from the tables found when the store opens.
import { afterEach, describe, expect, it } from 'vitest';
import { duckDBMemoryForWidth } from '../../../src/config';
import { type EventsHarness, openEventsHarness } from '../../helpers/events/harness';

const MIB = 2 ** 20;
/** A rule easy to check by hand: 64 MiB, plus 1 MiB per column. */
const rule = (columns: number) => (64 + columns) * MIB;
/** The three columns every table has: _time, _sysTime, _rowId. */
const SYSTEM_COLUMNS = 3;

const harnesses: EventsHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.destroy().catch(() => undefined);
});

async function memoryLimitMiB(harness: EventsHarness): Promise<number> {
  const [row] = await harness.rows(`SELECT value FROM duckdb_settings() WHERE name = 'memory_limit'`);
  const match = /^([\d.]+) MiB$/.exec(String(row!.value));
  if (!match) throw new Error(`unexpected memory_limit ${String(row!.value)}`);
  return Number(match[1]);
}

const ndjson = (events: object[]) => ({ body: Buffer.from(events.map((event) => JSON.stringify(event)).join('\n')), contentType: 'application/x-ndjson' });
const wideEvent = (fields: number, row: number) => Object.fromEntries(Array.from({ length: fields }, (_, f) => [`f${f}`, row + f]));

describe('DuckDB memory sized by the widest table', () => {
  it('grows as a dataset widens, never shrinks, and is sized again on opening', async () => {
    const h = await openEventsHarness({ memoryForWidth: rule });
    harnesses.push(h);
    expect(await memoryLimitMiB(h)).toBe(64);

    const narrow = await h.createDataset('narrow');
    await h.ingest.ingest(narrow, ndjson([wideEvent(5, 0)]));
    expect(await memoryLimitMiB(h)).toBe(64 + SYSTEM_COLUMNS + 5);

    const wide = await h.createDataset('wide');
    const status = await h.ingest.ingest(wide, ndjson([wideEvent(40, 0), wideEvent(60, 1)]));
    expect(status.ingested).toBe(2);
    expect(await memoryLimitMiB(h)).toBe(64 + SYSTEM_COLUMNS + 60);

    // A narrower dataset later leaves it where the widest put it.
    const later = await h.createDataset('later');
    await h.ingest.ingest(later, ndjson([wideEvent(2, 0)]));
    expect(await memoryLimitMiB(h)).toBe(64 + SYSTEM_COLUMNS + 60);

    // Opened again on the same files: sized from the tables it finds.
    const dir = h.dir;
    await h.close();
    const reopened = await openEventsHarness({ dir, memoryForWidth: rule });
    harnesses.push(reopened);
    expect(await memoryLimitMiB(reopened)).toBe(64 + SYSTEM_COLUMNS + 60);
  });

  it('follows the configured rule: 256 MiB at least, else 128 MiB and 1 MiB per column', () => {
    expect(duckDBMemoryForWidth(0)).toBe(256 * MIB);
    expect(duckDBMemoryForWidth(128)).toBe(256 * MIB);
    expect(duckDBMemoryForWidth(400)).toBe(528 * MIB);
    expect(duckDBMemoryForWidth(1027)).toBe(1155 * MIB);
  });
});
