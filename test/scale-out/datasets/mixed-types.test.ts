// Fields whose events carry values of several types, through HTTP: each value comes back with
// its own type, the field is reported as Axiom does (`string|boolean`), and APL compares,
// converts and groups by such values.
import { Axiom } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aplRows, sendJson } from '../../helpers/api';
import { startTestServer, type TestServer } from '../../helpers/server';

const EVENTS = [
  { _time: '2025-02-01T00:00:00Z', id: 1, flag: 'yes', code: 200 },
  { _time: '2025-02-01T00:01:00Z', id: 2, flag: 'no', code: 404 },
  { _time: '2025-02-01T00:02:00Z', id: 3, flag: true, code: 'E42' },
  { _time: '2025-02-01T00:03:00Z', id: 4, flag: false, code: 500.5 },
  { _time: '2025-02-01T00:04:00Z', id: 5, flag: 'true', code: ['x'] },
  { _time: '2025-02-01T00:05:00Z', id: 6, flag: true },
];

describe('mixed-type fields', () => {
  let server: TestServer;
  let axiom: Axiom;
  const post = async (path: string, body: unknown) => (await sendJson(server, 'POST', path, body)).body;
  const rows = async (apl: string) => {
    const answer = await aplRows(server, apl, { startTime: '2025-01-01T00:00:00Z', endTime: '2025-03-01T00:00:00Z' });
    expect(answer.status, answer.error).toBe(200);
    return { fields: answer.fields.map((field) => `${field.name}:${field.type}`), rows: answer.rows };
  };

  beforeAll(async () => {
    server = await startTestServer();
    axiom = new Axiom({ url: server.url, token: server.adminToken });
    await axiom.datasets.create({ name: 'mixed' });
    // Strings first, in their own request, then the other types.
    expect((await axiom.ingestRaw('mixed', JSON.stringify(EVENTS.slice(0, 2)))).ingested).toBe(2);
    expect((await axiom.ingestRaw('mixed', EVENTS.slice(2).map((e) => JSON.stringify(e)).join('\n'), 'application/x-ndjson' as never)).ingested).toBe(4);
  });
  afterAll(() => server.close());

  it('reports the types of the field as Axiom does', async () => {
    const fields = await (await server.request('/v2/datasets/mixed/fields')).json();
    expect(Object.fromEntries((fields as any[]).map((field) => [field.name, field.type]))).toEqual({
      id: 'integer',
      flag: 'string|boolean',
      code: 'string|integer|float|array',
    });
  });

  it('returns each value with its own type, in tabular and legacy results and to the SDK', async () => {
    const { fields, rows: table } = await rows("['mixed'] | sort by id asc | project id, flag, code");
    expect(fields).toEqual(['id:integer', 'flag:string|boolean', 'code:string|integer|float|array']);
    expect(table).toEqual(EVENTS.map((e) => ({ id: e.id, flag: e.flag, code: e.code ?? null })));
    const legacy = await post('/v1/datasets/_apl?format=legacy', { apl: "['mixed'] | where id == 3", startTime: '2025-01-01T00:00:00Z' });
    expect(legacy.matches.map((match: any) => match.data)).toEqual([{ id: 3, flag: true, code: 'E42' }]);
    const sdk = await axiom.query("['mixed'] | where id in (1, 3) | sort by id asc | project flag", { startTime: '2025-01-01T00:00:00Z' });
    expect([...sdk.tables[0]!.events()]).toEqual([{ flag: 'yes' }, { flag: true }]);
  });

  it('compares, converts, types and groups values of several types', async () => {
    const booleans = await rows("['mixed'] | where gettype(flag) == 'bool' | summarize n = count() by flag | sort by n desc");
    expect(booleans.rows).toEqual([
      { flag: true, n: EVENTS.filter((e) => e.flag === true).length },
      { flag: false, n: EVENTS.filter((e) => e.flag === false).length },
    ]);
    const texts = await rows("['mixed'] | where flag == 'yes' or tostring(flag) == 'no' | sort by id asc | project id");
    expect(texts.rows).toEqual([{ id: 1 }, { id: 2 }]);
    const numbers = await rows("['mixed'] | where code > 300 | sort by id asc | project id, next = todouble(code) + 1");
    expect(numbers.rows).toEqual(EVENTS.filter((e) => typeof e.code === 'number' && e.code > 300).map((e) => ({ id: e.id, next: (e.code as number) + 1 })));
    const types = await rows("['mixed'] | summarize n = count() by t = gettype(code) | sort by t asc");
    expect(types.rows).toEqual([
      { t: 'array', n: 1 },
      { t: 'long', n: 2 },
      { t: 'null', n: 1 },
      { t: 'real', n: 1 },
      { t: 'string', n: 1 },
    ]);
  });

  it('answers legacy query requests over the field with the same evaluation', async () => {
    const body = await post('/v1/datasets/mixed/query', {
      startTime: '2025-01-01T00:00:00Z',
      endTime: '2025-03-01T00:00:00Z',
      resolution: 'auto',
      filter: { op: '==', field: 'flag', value: 'no' },
    });
    expect(body.matches.map((match: any) => match.data.id)).toEqual([2]);
  });
});
