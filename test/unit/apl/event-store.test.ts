// The engine over the product's own storage: events ingested through the real ingest pipeline,
// schemas from the field registry, statements run on the event store's read connections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EngineDeps, executeApl, runnerOver } from '../../../src/apl';
import type { DatasetRef } from '../../../src/datasets/schema/field-registry';
import { type EventsHarness, openEventsHarness } from '../../helpers/events/harness';

let h: EventsHarness;
let dataset: DatasetRef;
let deps: EngineDeps;

const events = [
  { _time: '2024-04-30T10:00:00.123456789Z', status: 200, req: { method: 'GET', path: '/a' }, Status: 'x', tags: ['a', 'b'] },
  { _time: '2024-04-30T11:00:00Z', status: 500, req: { method: 'POST', path: '/b' }, took: 1.5 },
  { _time: '2024-04-30T12:00:00Z', status: '404', req: { method: 'GET', path: '/c' } },
];

beforeAll(async () => {
  h = await openEventsHarness();
  dataset = await h.createDataset('web-logs');
  const body = Buffer.from(events.map((e) => JSON.stringify(e)).join('\n'));
  await h.ingest.ingest(dataset, { body, contentType: 'application/x-ndjson' });
  deps = {
    resolveDatasets: async (names) => (names.includes(dataset.name) ? [await h.registry.schemaOf(dataset)] : []),
    runner: runnerOver(h.store),
    maxQueryRows: 65_000,
    queryTimeoutMs: 10_000,
    cursorKey: 'store-key',
  };
});

afterAll(async () => h.destroy());

const rows = async (apl: string) => {
  const result = await executeApl({ apl }, deps);
  return result.table.columns[0]!.map((_, row) => Object.fromEntries(result.table.fields.map((f, i) => [f.name, result.table.columns[i]![row]])));
};

describe('APL over the event store', () => {
  it('reads flattened fields, mixed-type fields (each value of its own type) and case-distinct fields as ingested', async () => {
    expect(await rows("['web-logs'] | sort by _time asc | project _time, status, ['req.method'], req.path, Status, took, tags")).toEqual([
      { _time: '2024-04-30T10:00:00.123456789Z', status: 200, 'req.method': 'GET', 'req.path': '/a', Status: 'x', took: null, tags: ['a', 'b'] },
      { _time: '2024-04-30T11:00:00Z', status: 500, 'req.method': 'POST', 'req.path': '/b', Status: null, took: 1.5, tags: null },
      { _time: '2024-04-30T12:00:00Z', status: '404', 'req.method': 'GET', 'req.path': '/c', Status: null, took: null, tags: null },
    ]);
  });

  it('compares a mixed-type field numerically, aggregates and hashes', async () => {
    expect(await rows("['web-logs'] | where status >= 404 | count")).toEqual([{ count: 2 }]);
    expect(await rows("['web-logs'] | summarize count() by req.method | sort by count_ desc")).toEqual([
      { 'req.method': 'GET', count_: 2 },
      { 'req.method': 'POST', count_: 1 },
    ]);
    const [row] = await rows("['web-logs'] | take 1 | project h = hash_sha512('abc')");
    expect(row!.h).toMatch(/^ddaf35a1/);
  });

  it('pages with cursors over the store', async () => {
    const first = await executeApl({ apl: "['web-logs']", limit: 2 }, deps);
    const second = await executeApl({ apl: "['web-logs']", limit: 2, cursor: first.status.minCursor! }, deps);
    expect([...first.events!.rowId, ...second.events!.rowId]).toHaveLength(3);
    expect(new Set([...first.events!.rowId, ...second.events!.rowId]).size).toBe(3);
  });
});
