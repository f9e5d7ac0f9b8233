// Queries that ask too much are refused with a 400 that says which limit they passed, before
// they can exhaust the stack, run away in the compiler or fill memory; the server keeps
// answering afterwards. Queries inside the limits, long flat ones included, still run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let small: TestServer;

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function apl(target: TestServer, text: string, extra: Record<string, unknown> = {}) {
  const response = await target.request('/v1/datasets/_apl?format=tabular', json({ apl: text, ...extra }));
  return { status: response.status, body: (await response.json()) as any };
}

async function legacy(body: unknown, dataset = 'limits') {
  const response = await server.request(`/v1/datasets/${dataset}/query`, json(body));
  return { status: response.status, body: (await response.json()) as any };
}

const EVENTS = Array.from({ length: 40 }, (_, i) => ({ n: i, word: `w${i % 4}`, text: 'hello world' }));

beforeAll(async () => {
  server = await startTestServer();
  small = await startTestServer({ QUERY_MAX_RESULT_BYTES: '20000', APL_MAX_STRING_BYTES: '1000' });
  for (const target of [server, small]) {
    expect((await target.request('/v2/datasets', json({ name: 'limits' }))).status).toBe(200);
    expect((await target.request('/v1/datasets/limits/ingest', json(EVENTS))).status).toBe(200);
  }
});
afterAll(async () => {
  await server.close();
  await small.close();
});

/** A function whose body defines a function whose body defines..., `levels` deep. */
function nestedFunctions(levels: number): string {
  let body = 'x + 1';
  for (let i = 1; i < levels; i++) body = `let g = (x:long) { ${body} }; g(x)`;
  return `let g = (x:long) { ${body} };`;
}

async function expectAlive(target = server) {
  expect((await target.request('/healthz')).status).toBe(200);
  const { status, body } = await apl(target, "['limits'] | count");
  expect(status).toBe(200);
  expect(body.tables[0].columns[0][0]).toBe(EVENTS.length);
}

describe('APL nesting and size', () => {
  it.each([
    ['1,100 nested not(', `['limits'] | where ${'not('.repeat(1100)}n > 1${')'.repeat(1100)}`],
    ['3,000 parentheses', `['limits'] | extend x = ${'('.repeat(3000)}n${')'.repeat(3000)}`],
    ['5,000 nested calls', `['limits'] | extend x = ${'abs('.repeat(5000)}n${')'.repeat(5000)}`],
    ['a 10,000-term sum', `['limits'] | extend x = ${Array(10_000).fill('n').join(' + ')}`],
    ['5,000 unary minus signs', `['limits'] | extend x = ${'- '.repeat(5000)}n`],
    ['300 nested subqueries', `${'('.repeat(300)}['limits']${')'.repeat(300)} | count`],
    ['a 2,000-level dynamic literal', `['limits'] | extend x = dynamic(${'['.repeat(2000)}${']'.repeat(2000)})`],
    ['functions defined 150 deep inside function bodies', `${nestedFunctions(150)} ['limits'] | extend y = g(n)`],
    ['a view nesting 300 parenthesised subqueries', `let v = view () { ${'('.repeat(300)}['limits']${')'.repeat(300)} }; v | count`],
    ['200 nested in-subqueries', `['limits'] | where word in (${"['limits'] | where word in (".repeat(200)}['limits'] | project word${') | project word'.repeat(200)})`],
    ['a union of 300 nested subqueries', `union ${'('.repeat(300)}['limits']${')'.repeat(300)}, ['limits'] | count`],
    ['an mv-expand of 300 nested calls', `['limits'] | mv-expand x = ${'pack_array('.repeat(300)}n${')'.repeat(300)}`],
    ['a make-series step in 300 parentheses', `['limits'] | make-series c = count() on _time step ${'('.repeat(300)}1h${')'.repeat(300)}`],
    ['a datatable holding a 300-level dynamic', `datatable(d:dynamic) [dynamic(${'['.repeat(300)}${']'.repeat(300)})] | count`],
    ['a 3,000-term product in top-nested', `['limits'] | top-nested 2 of ${Array(3000).fill('n').join(' * ')} by count()`],
  ])('refuses %s as too deep', async (_name, text) => {
    const { status, body } = await apl(server, text);
    expect(status).toBe(400);
    expect(body.error).toMatch(/nests deeper than 100 levels/);
    expect(body.limit).toBe('nesting');
  });

  it('refuses 1,000 pipes as too many operators', async () => {
    const { status, body } = await apl(server, `['limits']${' | where n >= 0'.repeat(1000)}`);
    expect(status).toBe(400);
    expect(body.error).toMatch(/more than 200 tabular operators/);
  });

  it('refuses a query longer than APL_MAX_QUERY_BYTES', async () => {
    const { status, body } = await apl(server, `['limits'] | where text != "${'x'.repeat(300 * 1024)}"`);
    expect(status).toBe(400);
    expect(body.error).toMatch(/longer than 262144 bytes/);
  });

  it.each([17, 20, 40])('refuses a string doubled through %i let statements, whatever its expansion', async (lets) => {
    const statements = Array.from({ length: lets }, (_, i) => `let a${i + 1} = strcat(a${i}, a${i});`).join(' ');
    const { status, body } = await apl(server, `let a0 = 'abcdefghij'; ${statements} ['limits'] | extend x = strlen(a${lets})`);
    expect(status).toBe(400);
    expect(body.error).toMatch(/more than 20000 operations once its let names are replaced/);
  });

  it('refuses functions that call the one before twice, however little of them stays in the plan', async () => {
    // Each level doubles what the one before stands for: 2^30 strcat calls at the top.
    const doubling = Array.from({ length: 30 }, (_, i) => `let f${i + 1} = (x:string) { f${i}(f${i}(x)) };`).join(' ');
    const expanded = await apl(server, `let f0 = (x:string) { strcat(x, x) }; ${doubling} ['limits'] | extend y = strlen(f30(word))`);
    expect(expanded.status).toBe(400);
    expect(expanded.body.error).toMatch(/more than 20000 operations once its let names are replaced by their values and its function calls by their bodies/);
    expect(expanded.body.limit).toBe('expressionNodes');
    // Each level binds the one before twice in let statements it never uses: the answer would be
    // `x`, but binding it would take 2^30 steps.
    const unused = Array.from({ length: 30 }, (_, i) => `let f${i + 1} = (x:string) { let u = f${i}(x); let v = f${i}(x); x };`).join(' ');
    const wasted = await apl(server, `let f0 = (x:string) { strcat(x, x) }; ${unused} ['limits'] | where n == 1 | project y = f30(word)`);
    expect(wasted.status).toBe(400);
    expect(wasted.body.limit).toBe('expressionNodes');
    // A few levels are fine: f0 doubles its argument, f1 quadruples it, f2 16 times, f3 256 times.
    const small = Array.from({ length: 3 }, (_, i) => `let f${i + 1} = (x:string) { f${i}(f${i}(x)) };`).join(' ');
    const fits = await apl(server, `let f0 = (x:string) { strcat(x, x) }; ${small} ['limits'] | where n == 1 | project y = strlen(f3(word))`);
    expect(fits.status).toBe(200);
    // word is "w1": 2 characters.
    expect(fits.body.tables[0].columns[0]).toEqual([2 * 2 ** 8]);
    await expectAlive();
  });

  it('counts a subquery where its expression is written out, each time', async () => {
    // About 12,000 nodes in the subquery's filter: inside the 20,000 once, past it twice.
    const many = Array.from({ length: 3000 }, (_, i) => `n == ${i}`).join(' or ');
    const once = await apl(server, `let p = (v:long) { v in (['limits'] | where ${many} | project n) }; ['limits'] | where p(n) | count`);
    expect(once.status, JSON.stringify(once.body)).toBe(200);
    expect(once.body.tables[0].columns[0][0]).toBe(EVENTS.length);
    const twice = await apl(server, `let p = (v:long) { v in (['limits'] | where ${many} | project n) }; ['limits'] | where p(n) and p(n + 1) | count`);
    expect(twice.status).toBe(400);
    expect(twice.body.limit).toBe('expressionNodes');
  });

  it('refuses a view used so often that its operators pass the limit', async () => {
    const view = `let v = view () { ['limits'] | where n >= 0 | where n < 100 | extend m = n };`;
    const uses = await apl(server, `${view} union ${Array(80).fill('v').join(', ')} | count`);
    expect(uses.status).toBe(400);
    expect(uses.body.error).toMatch(/more than 200 tabular operators/);
    const fits = await apl(server, `${view} union ${Array(10).fill('v').join(', ')} | count`);
    expect(fits.body.tables[0].columns[0][0]).toBe(10 * EVENTS.length);
  });

  it('refuses tabular lets that double a union, counting every expanded operator', async () => {
    const lets = Array.from({ length: 30 }, (_, i) => `let t${i + 1} = union t${i}, t${i};`).join(' ');
    const { status, body } = await apl(server, `let t0 = ['limits']; ${lets} t30 | count`);
    expect(status).toBe(400);
    expect(body.error).toMatch(/more than 200 tabular operators/);
  });

  it('still runs long flat queries: a 500-condition or, a 2,000-value in list, a 60-term sum, 150 pipes', async () => {
    const or = Array.from({ length: 500 }, (_, i) => `n == ${i * 2}`).join(' or ');
    const even = await apl(server, `['limits'] | where ${or} | count`);
    expect(even.status).toBe(200);
    expect(even.body.tables[0].columns[0][0]).toBe(EVENTS.filter((event) => event.n % 2 === 0).length);

    const list = Array.from({ length: 2000 }, (_, i) => i * 3).join(', ');
    const thirds = await apl(server, `['limits'] | where n in (${list}) | count`);
    expect(thirds.body.tables[0].columns[0][0]).toBe(EVENTS.filter((event) => event.n % 3 === 0).length);

    const sum = await apl(server, `['limits'] | where n == 2 | project s = ${Array(60).fill('n').join(' + ')}`);
    expect(sum.body.tables[0].columns[0]).toEqual([120]);

    const pipes = await apl(server, `['limits']${' | where n >= 0'.repeat(150)} | count`);
    expect(pipes.body.tables[0].columns[0][0]).toBe(EVENTS.length);
  });

  it('passes the fields of a dataset near the field limit through many operators and unions', async () => {
    // 1,000 fields carried through 60 operators are 60,000 column references, none of them an operation.
    for (const name of ['wide-a', 'wide-b']) {
      expect((await server.request('/v2/datasets', json({ name }))).status).toBe(200);
      const event = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${name}_${i}`, i]));
      expect((await server.request(`/v1/datasets/${name}/ingest`, json([event]))).status).toBe(200);
    }
    const extends60 = Array.from({ length: 60 }, (_, i) => ` | extend e${i} = ${i}`).join('');
    const carried = await apl(server, `['wide-a']${extends60} | project total = e59 + ['wide-a_999']`);
    expect(carried.status, JSON.stringify(carried.body)).toBe(200);
    expect(carried.body.tables[0].columns[0]).toEqual([59 + 999]);
    // 4 inputs of 2,000 fields each, most of them filled with nulls, then 20 operators over them.
    const united = await apl(server, `union ['wide-a'], ['wide-b'], ['wide-a'], ['wide-b']${extends60.split(' | ').slice(0, 21).join(' | ')} | count`);
    expect(united.status, JSON.stringify(united.body)).toBe(200);
    expect(united.body.tables[0].columns[0]).toEqual([4]);
  });

  it('refuses a constant argument no count or index can be, such as an extract group of 2^63', async () => {
    const { status, body } = await apl(server, "['limits'] | extend x = extract('(h)', 9223372036854775808, text)");
    expect(status).toBe(400);
    expect(body.error).toMatch(/out of the range of a long/);
    const large = await apl(server, "['limits'] | extend x = extract('(h)', 4611686018427387904, text)");
    expect(large.status).toBe(400);
    expect(large.body.error).toMatch(/extract\(\): expects a constant number between/);
    await expectAlive();
  });

  it('refuses longs and timespans beyond 64 bits as written, in APL and legacy resolutions', async () => {
    const { status, body } = await apl(server, "['limits'] | summarize count() by bin(_time, 99999999999999999999h)");
    expect(status).toBe(400);
    expect(body.error).toMatch(/this timespan is out of the range of a timespan/);
    const long = await apl(server, "['limits'] | where n > 99999999999999999999");
    expect(long.body.error).toMatch(/this number is out of the range of a long/);
    const resolution = await legacy({ startTime: 'now-1d', endTime: 'now', resolution: '99999999999999999999h', aggregations: [{ op: 'count' }] });
    expect(resolution.status).toBe(400);
  });

  it('runs patterns holding a NUL character instead of writing them into SQL', async () => {
    const { status, body } = await apl(server, `['limits'] | where text matches regex "a\u0000" or text has "x\u0000y" | count`);
    expect(status).toBe(200);
    expect(body.tables[0].columns[0][0]).toBe(0);
    const filtered = await legacy({ startTime: 'now-1d', endTime: 'now', resolution: 'auto', filter: { op: 'regexp', field: 'text', value: '\u0000', caseSensitive: true } });
    expect(filtered.status).toBe(200);
    expect(filtered.body.matches).toEqual([]);
  });

  it('refuses request times outside the range of event times', async () => {
    const { status, body } = await apl(server, "['limits'] | count", { startTime: 'now-99999999999999999999h' });
    expect(status).toBe(400);
    expect(body.error).toMatch(/startTime .* lies outside the range of event times/);
  });
});

describe('what a query may build', () => {
  it('refuses a string longer than APL_MAX_STRING_BYTES, checked before strrep builds it', async () => {
    for (const text of [
      "['limits'] | extend x = strrep(text, 1000000000) | project x",
      "['limits'] | extend x = strrep(text, 50) | extend y = strcat(x, x, x) | project strlen(y)",
      "['limits'] | extend x = replace_string('a', 'bb', strrep('a', 900)) | project strlen(x)",
    ]) {
      const { status, body } = await apl(small, text);
      expect(status, text).toBe(400);
      expect(body.error).toMatch(/a string computed by the query is longer than 1000 bytes/);
    }
    // 11 bytes × 50 = 550 bytes stays under 1,000.
    const fits = await apl(small, "['limits'] | where n == 0 | project l = strlen(strrep(text, 50))");
    expect(fits.body.tables[0].columns[0]).toEqual([550]);
    await expectAlive(small);
  });

  it('refuses a result larger than QUERY_MAX_RESULT_BYTES and keeps serving', async () => {
    const { status, body } = await apl(small, "['limits'] | extend pad = strrep('x', 900) | take 40");
    expect(status).toBe(400);
    expect(body.error).toMatch(/the result is larger than 20000 bytes \(QUERY_MAX_RESULT_BYTES\)/);
    const fits = await apl(small, "['limits'] | project n | take 40");
    expect(fits.status).toBe(200);
    await expectAlive(small);
  });
});

describe('legacy query requests', () => {
  const window = { startTime: 'now-1d', endTime: 'now', resolution: 'auto' };

  it('answers a bad order with an aggregation on a missing field with 400, and the server lives on', async () => {
    const refused = await legacy({ ...window, aggregations: [{ op: 'sum', field: 'nope' }], order: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/order: .*expected array/);
    const missing = await legacy({ ...window, aggregations: [{ op: 'sum', field: 'nope' }], order: [{ field: 'sum', desc: true }] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/unknown field "nope"/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expectAlive();
  });

  it.each([
    ['order entries without a field', { order: [{ desc: true }] }, /order\.0\.field/],
    ['aggregations that are not a list', { aggregations: { op: 'count' } }, /aggregations: .*expected array/],
    ['a groupBy of numbers', { groupBy: [1, 2] }, /groupBy\.0/],
    ['a filter without op', { filter: { field: 'n' } }, /filter\.op/],
    ['virtual fields without expr', { virtualFields: [{ alias: 'v' }] }, /virtualFields\.0\.expr/],
  ])('refuses %s', async (_name, body, message) => {
    const refused = await legacy({ ...window, ...body });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(message);
  });

  it('refuses a filter nested 10,000 deep without walking it', async () => {
    let filter: Record<string, unknown> = { op: '==', field: 'n', value: 1 };
    for (let i = 0; i < 10_000; i++) filter = { op: 'not', children: [filter] };
    // Built by hand: JSON.stringify itself cannot write a value this deep.
    const text = `{"startTime":"now-1d","endTime":"now","resolution":"auto","filter":${'{"op":"not","children":['.repeat(10_000)}{"op":"==","field":"n","value":1}${']}'.repeat(10_000)}}`;
    const response = await server.request('/v1/datasets/limits/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toMatch(/nests deeper than 128 levels/);
    expect(filter.op).toBe('not');
  });

  it('runs an or filter of 300 children', async () => {
    const children = Array.from({ length: 300 }, (_, i) => ({ op: '==', field: 'n', value: i + 100 }));
    children.push({ op: '==', field: 'n', value: 7 });
    const { status, body } = await legacy({ ...window, filter: { op: 'or', children } });
    expect(status).toBe(200);
    expect(body.matches.map((match: any) => match.data.n)).toEqual([7]);
  });

  it('refuses a trim longer than a century', async () => {
    const response = await server.request('/v2/datasets/limits/trim', json({ maxDuration: '99999999999999999999h' }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toMatch(/maxDuration .* is longer than the longest duration accepted/);
    await expectAlive();
  });
});
