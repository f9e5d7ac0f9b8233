// Both pagination mechanisms of the APL endpoint, walked through HTTP over 25,000 events whose
// timestamps repeat (three events per instant) and carry nanoseconds, so page edges fall inside
// groups of equal times.
import { Axiom } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

const TOTAL = 25_000;
const BASE_NS = 1_767_225_600_000_000_000n; // 2026-01-01T00:00:00Z

/** Event i happens at BASE + floor(i/3) seconds + 123456789 ns: three events per instant. */
function eventTime(i: number): string {
  const ns = BASE_NS + BigInt(Math.floor(i / 3)) * 1_000_000_000n + 123_456_789n;
  const seconds = ns / 1_000_000_000n;
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}

describe('pagination over 25,000 events through POST /v1/datasets/_apl', () => {
  let server: TestServer;
  let axiom: Axiom;

  beforeAll(async () => {
    server = await startTestServer();
    axiom = new Axiom({ url: server.url, token: server.adminToken });
    await axiom.datasets.create({ name: 'walk' });
    for (let start = 0; start < TOTAL; start += 10_000) {
      const lines: string[] = [];
      for (let i = start; i < Math.min(TOTAL, start + 10_000); i++) lines.push(JSON.stringify({ _time: eventTime(i), seq: i }));
      const response = await server.request('/v1/datasets/walk/ingest', {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: lines.join('\n'),
      });
      const status = (await response.json()) as { ingested: number; failed: number };
      expect(status).toMatchObject({ ingested: Math.min(10_000, TOTAL - start), failed: 0 });
    }
  }, 120_000);
  afterAll(() => server.close());

  async function apl(body: Record<string, unknown>, query = '') {
    const response = await server.request(`/v1/datasets/_apl?format=tabular${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as any;
  }

  function rowsOf(result: any): Record<string, unknown>[] {
    const table = result.tables[0];
    const length = table.columns[0]?.length ?? 0;
    return Array.from({ length }, (_, row) =>
      Object.fromEntries(table.fields.map((field: { name: string }, column: number) => [field.name, table.columns[column][row]])),
    );
  }

  const window = { startTime: eventTime(0).replace('.123456789Z', 'Z'), endTime: '2027-01-01T00:00:00Z' };

  it.each(['desc', 'asc'] as const)('walks every event by moving the time bound (sort by _time %s)', async (direction) => {
    const seen = new Set<number>();
    let bounds = { ...window };
    for (let page = 0; page < 100; page++) {
      const result = await apl({ apl: `['walk'] | sort by _time ${direction} | limit 1000`, ...bounds });
      const rows = rowsOf(result);
      const before = seen.size;
      for (const row of rows) seen.add(row.seq as number);
      if (rows.length < 1000 || seen.size === before) break;
      const last = rows.at(-1)!._time as string;
      bounds = direction === 'desc' ? { ...bounds, endTime: last } : { ...bounds, startTime: last };
    }
    expect(seen.size).toBe(TOTAL);
  });

  it.each([
    ['desc', 'minCursor'],
    ['asc', 'maxCursor'],
  ] as const)('walks every event exactly once with cursors (sort by _time %s, %s)', async (direction, cursorField) => {
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const result = await apl({ apl: `['walk'] | sort by _time ${direction} | limit 1000`, ...window, ...(cursor ? { cursor } : {}) });
      const rows = rowsOf(result);
      seen.push(...rows.map((row) => row.seq as number));
      const next = result.status[cursorField] as string | undefined;
      if (rows.length < 1000 || !next || next === cursor) break;
      cursor = next;
    }
    expect(seen.length).toBe(TOTAL);
    expect(new Set(seen).size).toBe(TOTAL);
    // Pages follow each other in order: descending sequence numbers for desc, ascending for asc.
    const ordered = [...seen].sort((a, b) => (direction === 'desc' ? b - a : a - b));
    expect(seen.filter((seq, i) => Math.floor(seq / 3) !== Math.floor(ordered[i]! / 3))).toEqual([]);
  });

  it('takes the cursor as a query parameter, as the official SDK sends it', async () => {
    const first = await axiom.query("['walk'] | sort by _time desc | limit 10", { ...window });
    const cursor = first.status.minCursor!;
    const viaSdk = await axiom.query("['walk'] | sort by _time desc | limit 10", { ...window, cursor });
    const viaBody = await apl({ apl: "['walk'] | sort by _time desc | limit 10", ...window, cursor });
    const seqs = (result: any) => rowsOf(result).map((row) => row.seq);
    expect(seqs(viaSdk)).toEqual(seqs(viaBody));
    expect(seqs(viaSdk)).toHaveLength(10);
    expect(new Set([...seqs(first), ...seqs(viaSdk)]).size).toBe(20);
  });

  it('refuses forged or malformed cursors with a 400', async () => {
    const first = await apl({ apl: "['walk'] | sort by _time desc | limit 5", ...window });
    const genuine = first.status.minCursor as string;
    const forged = genuine.slice(0, -2) + (genuine.endsWith('AA') ? 'BB' : 'AA');
    for (const cursor of [forged, 'not-a-cursor', '']) {
      if (cursor === '') continue;
      const response = await server.request('/v1/datasets/_apl?format=tabular', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apl: "['walk'] | sort by _time desc | limit 5", ...window, cursor }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error).toMatch(/cursor/i);
    }
  });
});
