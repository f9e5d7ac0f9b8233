// Semantic errors: unknown names with suggestions, wrong arities and types, each with the
// place in the query it concerns; and the request options the engine validates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors';
import { addDataset, createTestDatabase, type TestDatabase } from '../../helpers/apl/fixtures';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await addDataset(
    db,
    'logs',
    [
      { name: 'status', type: 'integer' },
      { name: 'Status', type: 'string' },
      { name: 'uri', type: 'string' },
      { name: 'geo.city', type: 'string' },
      { name: 'geo.country', type: 'string' },
      { name: 'duration_ms', type: 'float' },
    ],
    [{ _time: '2024-04-30T10:00:00Z', status: 200, uri: '/a', 'geo.city': 'Berlin', duration_ms: 1 }],
  );
});

afterAll(() => db.close());

async function failure(apl: string, request = {}): Promise<DomainError> {
  try {
    await db.query(apl, request);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`expected ${apl} to fail`);
}

describe('semantic errors', () => {
  it('names the closest fields when a field is unknown', async () => {
    const error = await failure("['logs'] | where stauts == 200");
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toBe('line 1, column 18: unknown field "stauts" (did you mean "status" or "Status"?)');
    expect(error.details).toMatchObject({ line: 1, column: 18, field: 'stauts' });
  });

  it('suggests dotted fields for a misspelt dotted name', async () => {
    const error = await failure("['logs']\n| project geo.cty");
    expect(error.message).toMatch(/^line 2, column 11: unknown field "geo.cty" \(did you mean "geo.city"/);
  });

  it('suggests fields that exist after projections, not before', async () => {
    const error = await failure("['logs'] | project uri | where status > 1");
    expect(error.message).toMatch(/unknown field "status"/);
    expect(error.message).not.toMatch(/did you mean "status"/);
  });

  it('reports unknown functions and aggregations out of place', async () => {
    expect((await failure("['logs'] | extend x = strln(uri)")).message).toMatch(/line 1, column 23: unknown function "strln" \(did you mean "strlen"/);
    expect((await failure("['logs'] | where count() > 1")).message).toMatch(/count\(\) can only be used in summarize/);
  });

  it('checks arities and argument types', async () => {
    expect((await failure("['logs'] | extend x = substring(uri)")).message).toMatch(/substring\(\) expects 2 to 3 arguments, found 1/);
    expect((await failure("['logs'] | extend x = startofday(status)")).message).toMatch(/argument 1 of startofday\(\) must be a datetime, found a long/);
    expect((await failure("['logs'] | extend x = _time * 2")).message).toMatch(/cannot apply \* to a datetime and a long/);
    expect((await failure("['logs'] | where _time > 5")).message).toMatch(/cannot compare a datetime with a long/);
    expect((await failure("['logs'] | summarize percentile(duration_ms, 120)")).message).toMatch(/between 0 and 100/);
    expect((await failure("['logs'] | take -1")).message).toMatch(/take expects a whole number/);
  });

  it('refuses duplicate output names and unknown project-away names', async () => {
    expect((await failure("['logs'] | project uri, uri")).message).toMatch(/"uri" appears twice/);
    expect((await failure("['logs'] | project-away nothere")).message).toMatch(/unknown field "nothere"/);
  });

  it('reports an unknown dataset as not found', async () => {
    const error = await failure("['nope'] | count");
    expect(error.kind).toBe('not_found');
    expect(error.message).toMatch(/dataset "nope" not found/);
  });

  it('validates the request time range and limit', async () => {
    expect((await failure("['logs']", { startTime: 'yesterday' })).message).toMatch(/startTime must be an RFC 3339 time/);
    expect((await failure("['logs']", { startTime: '2024-05-02T00:00:00Z', endTime: '2024-05-01T00:00:00Z' })).message).toMatch(/startTime must not be after endTime/);
    expect((await failure("['logs']", { limit: -5 })).message).toMatch(/limit must be a number >= 0/);
  });

  it('turns data-dependent failures into client errors', async () => {
    const error = await failure("['logs'] | where uri matches regex '('");
    expect(error.kind).toBe('invalid_input');
  });

  it('accepts request variables as let bindings', async () => {
    const rows = await db.rows("['logs'] | where status == wanted | project uri", { variables: { wanted: 200 } });
    expect(rows).toEqual([{ uri: '/a' }]);
  });
});
