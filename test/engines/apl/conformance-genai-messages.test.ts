// Conformance of the GenAI message functions over OpenAI, Anthropic and OpenTelemetry
// conversation shapes, as arrays and as JSON text, and over the corners of reading them: JSON
// text inside strings, duplicate keys, numbers past 64 bits, whitespace, tool results of every
// form, finish reasons nested in arrays and JSON text. Expected values are written by hand from
// the rules in docs/guides/llm-costs.md. Runs on both event stores: ClickHouse writes these
// functions in SQL, DuckDB runs them in JavaScript; the token estimate is refused on ClickHouse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../helpers/apl/errors';
import { addDataset, createTestDatabase, ON_CHDB, type TestDatabase } from '../../helpers/apl/fixtures';
import { onClickHouse } from '../../helpers/apl/unsupported-on-clickhouse';

let db: TestDatabase;

const OPENAI_CHAT = [
  { role: 'system', content: 'You answer briefly.' },
  { role: 'user', content: 'Weather in Oslo?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: '{"temp":4}' },
  { role: 'assistant', content: [{ type: 'text', text: 'It is 4 degrees.' }] },
  { role: 'user', content: [{ type: 'text', text: 'And' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 'tomorrow?' }] },
  { role: 'assistant', content: 'Colder.' },
];
const ANTHROPIC_CHAT = [
  { role: 'user', content: [{ type: 'text', text: 'Add 2 and 3' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'Calling the adder.' }, { type: 'tool_use', id: 'toolu_1', name: 'add', input: { a: 2, b: 3 } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '5' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'The sum is 5.' }], stop_reason: 'max_tokens' },
];
const OTEL_CHAT = [
  { role: 'system', parts: [{ type: 'text', content: 'Be kind.' }] },
  { role: 'user', parts: [{ type: 'text', content: 'Hi' }] },
  { role: 'assistant', parts: [{ type: 'tool_call', id: 't1', name: 'lookup', arguments: { q: 'hi' } }] },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 't1', response: { found: true } }] },
  { role: 'assistant', parts: [{ type: 'text', content: 'Hello!' }], finish_reason: 'stop' },
];

const SHORT_CHAT = [
  { role: 'user', content: 'q' },
  { role: 'assistant', content: 'r' },
];
const twice = (value: unknown) => JSON.stringify(JSON.stringify(value));

/** Conversations read from text, one per name (the corners of reading them). */
const ODD: Record<string, string> = {
  // The last of duplicate keys counts, as JSON.parse keeps it.
  dupes: '[{"role":"user","content":"a","content":"b"},{"role":"assistant","role":"user","content":"c"},{"content":"no role"}]',
  // JSON text in JSON text: read through three levels, no more.
  deep3: JSON.stringify(twice(SHORT_CHAT)),
  deep4: twice(twice(SHORT_CHAT)),
  wrapped: JSON.stringify({ messages: [{ role: 'system', content: 'w' }], role: 'ignored' }),
  single: JSON.stringify({ role: 'user', content: 'solo' }),
  notmessages: JSON.stringify({ messages: 'no', content: 'x' }),
  spaces: ' \n[{"role":"system","content":"s"}]\t',
  // The DuckDB client drops one leading byte order mark; JSON.parse refuses another.
  bom: '\ufeff[{"role":"system","content":"s"}]',
  bom2: '\ufeff\ufeff[{"role":"system","content":"s"}]',
  // Integers past 64 bits read as doubles, and a number past the double range as null.
  numbers: '[{"role":"user","content":"big","n":123456789012345678901},{"role":"tool","content":"{\\"x\\": 1e400, \\"y\\": -98765432109876543210, \\"z\\": [0.5e-400]}"}]',
  results: JSON.stringify([
    { role: 'tool', content: [{ type: 'text', text: '{"a"' }, { type: 'text', text: ':1}' }] },
    { role: 'tool', content: [{ type: 'text', text: 'x' }, { type: 'image' }] },
    { role: 'function', content: '\u00a0[1,\n 2]\u3000' },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't' }] },
    { role: 'tool', parts: [{ type: 'tool_call_response', response: null, result: 'x' }] },
    { role: 'function', content: 'plain' },
    { role: 'tool', content: [] },
    { role: 'tool', content: null },
    { role: 'tool', content: '[not json' },
  ]),
  calls: JSON.stringify([
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'u1', name: 'a' },
        { type: null, text: 'no' },
        { text: 'yes' },
        { type: 'output_text', content: 'oc' },
        { type: 'text', text: 5, content: 'fallback' },
        'plain',
        7,
      ],
      tool_calls: [{ id: 7, name: 'g' }, 'x', { id: 'c2', function: { name: 'h', arguments: { k: [1, 'é\n'] } } }],
      function_call: { name: 'f', arguments: '{}' },
    },
    'not a message',
    { role: 'user', content: 'after' },
  ]),
  turns: JSON.stringify([
    { role: 'user', content: '1' },
    { role: 'user', content: '2' },
    { role: 'assistant', content: 'a' },
    { role: 'assistant', content: 'b' },
    { role: 'user', content: '3' },
    { role: 'tool', content: 't' },
    { role: 'model', content: 'c' },
    { role: 'user', content: [{ type: 'tool_result', content: 'r' }] },
    { role: 'assistant', content: 'd', finish_reason: null, stop_reason: 'Length' },
  ]),
  // An escaped surrogate without its other half leaves JavaScript as U+FFFD.
  surrogate: '[{"role":"user","content":"a\\ud800b\\ud83d\\ude00"}]',
  // Integers past 2^53 are rounded to doubles, as JSON.parse reads them.
  rounding: '[{"role":"tool","content":{"big":12345678901234567,"small":-9007199254740993}}]',
};

/** Finish reasons given as the second argument of genai_is_truncated, and whether each says truncated. */
const REASONS: [string, boolean][] = [
  [' LENGTH\u3000', true],
  [JSON.stringify(['stop', ['x', JSON.stringify(['max_tokens'])]]), true],
  [JSON.stringify(['x', [[['max_output_tokens']]]]), true],
  [JSON.stringify([{ r: 'length' }]), false],
  ['max_to\u212Aens', true], // the Kelvin sign lowercases to k
  ['"length"', false],
  [twice(['model_length']), false],
  ['[length', false],
  ['stop', false],
  ['', false],
];

beforeAll(async () => {
  db = await createTestDatabase();
  await addDataset(
    db,
    'chats',
    [
      { name: 'shape', type: 'string' },
      { name: 'messages', type: 'array' },
      { name: 'text', type: 'string' },
      { name: 'finish', type: 'string' },
    ],
    [
      { _time: '2024-07-01T00:00:00Z', shape: 'openai', messages: OPENAI_CHAT, text: JSON.stringify(OPENAI_CHAT), finish: 'stop' },
      { _time: '2024-07-01T00:01:00Z', shape: 'anthropic', messages: ANTHROPIC_CHAT, text: JSON.stringify(ANTHROPIC_CHAT), finish: 'end_turn' },
      { _time: '2024-07-01T00:02:00Z', shape: 'otel', messages: OTEL_CHAT, text: JSON.stringify(OTEL_CHAT), finish: '["length"]' },
      { _time: '2024-07-01T00:03:00Z', shape: 'none', text: 'not json' },
    ],
  );
  await addDataset(
    db,
    'odd',
    [
      { name: 'name', type: 'string' },
      { name: 'text', type: 'string' },
      { name: 'idx', type: 'integer' },
      { name: 'sep', type: 'string' },
    ],
    Object.entries(ODD).map(([name, text], i) => ({ _time: new Date(Date.UTC(2024, 6, 1, 0, i)).toISOString(), name, text, ...(i % 2 ? { idx: -1, sep: '+' } : {}) })),
  );
  await addDataset(
    db,
    'reasons',
    [
      { name: 'n', type: 'integer' },
      { name: 'reason', type: 'string' },
      { name: 'list', type: 'array' },
    ],
    [
      ...REASONS.map(([reason], n) => ({ _time: new Date(Date.UTC(2024, 6, 1, 0, n)).toISOString(), n, reason })),
      { _time: '2024-07-02T00:00:00Z', n: 100, list: ['stop', 'length'] },
      { _time: '2024-07-02T00:01:00Z', n: 101, list: ['stop'] },
      { _time: '2024-07-02T00:02:00Z', n: 102 },
    ],
  );
  // A field whose events hold the conversation as an array or as JSON text, or a number.
  for (const [name, storedAs] of [['mixed', undefined], ['mixed_variant', 'VARIANT']] as const) {
    await addDataset(
      db,
      name,
      [
        { name: 'n', type: 'integer' },
        { name: 'm', type: 'string|integer|array', ...(storedAs ? { storedAs } : {}) },
      ],
      [
        { _time: '2024-07-01T00:00:00Z', n: 1, m: SHORT_CHAT },
        { _time: '2024-07-01T00:01:00Z', n: 2, m: JSON.stringify(SHORT_CHAT) },
        { _time: '2024-07-01T00:02:00Z', n: 3, m: 7 },
        { _time: '2024-07-01T00:03:00Z', n: 4, m: ' length ' },
        { _time: '2024-07-01T00:04:00Z', n: 5 },
      ],
    );
  }
});
afterAll(() => db?.close());

const rowsOf = (apl: string) => db.rows(apl);
const parsed = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

describe('message functions', () => {
  const one = async (expression: string) => {
    const rows = await rowsOf(`['chats'] | order by _time asc | project shape, v = ${expression}`);
    return Object.fromEntries(rows.map((row) => [row.shape, row.v]));
  };

  it('extract prompts and responses from every shape, as arrays or as JSON text', async () => {
    for (const field of ['messages', 'text']) {
      expect(await one(`genai_extract_user_prompt(${field})`)).toEqual({ openai: 'And\ntomorrow?', anthropic: '', otel: 'Hi', none: '' });
      expect(await one(`genai_extract_assistant_response(${field})`)).toEqual({ openai: 'Colder.', anthropic: 'The sum is 5.', otel: 'Hello!', none: '' });
      expect(await one(`genai_extract_system_prompt(${field})`)).toEqual({ openai: 'You answer briefly.', anthropic: '', otel: 'Be kind.', none: '' });
    }
  });

  it('extract tool calls and results in one shape', async () => {
    const calls = await one('genai_extract_tool_calls(messages)');
    expect(parsed(calls.openai)).toEqual([{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }]);
    expect(parsed(calls.anthropic)).toEqual([{ id: 'toolu_1', type: 'function', function: { name: 'add', arguments: { a: 2, b: 3 } } }]);
    expect(parsed(calls.otel)).toEqual([{ id: 't1', type: 'function', function: { name: 'lookup', arguments: { q: 'hi' } } }]);
    expect(calls.none).toBeNull();
    const results = await one('genai_extract_function_results(messages)');
    expect(parsed(results.openai)).toEqual([{ temp: 4 }]);
    expect(parsed(results.anthropic)).toEqual(['5']);
    expect(parsed(results.otel)).toEqual([{ found: true }]);
    expect(results.none).toBeNull();
    expect(await one('genai_has_tool_calls(messages)')).toEqual({ openai: true, anthropic: true, otel: true, none: false });
    const [name] = await rowsOf("['chats'] | where shape == 'openai' | project n = tostring(genai_extract_tool_calls(messages)[0]['function']['name'])");
    expect(name!.n).toBe('get_weather');
  });

  it('read messages by index and role, list roles, count turns, concatenate', async () => {
    expect(await one('genai_get_content_by_index(messages, 1)')).toEqual({ openai: 'Weather in Oslo?', anthropic: 'Calling the adder.', otel: 'Hi', none: '' });
    expect(await one('genai_get_content_by_index(messages, -1)')).toEqual({ openai: 'Colder.', anthropic: 'The sum is 5.', otel: 'Hello!', none: '' });
    expect(await one('genai_get_content_by_index(messages, 99)')).toEqual({ openai: '', anthropic: '', otel: '', none: '' });
    expect(await one("genai_get_content_by_role(messages, 'assistant')")).toEqual({ openai: '', anthropic: 'Calling the adder.', otel: '', none: '' });
    expect(await one('genai_get_role(messages, 0)')).toEqual({ openai: 'system', anthropic: 'user', otel: 'system', none: '' });
    const roles = await one('genai_message_roles(messages)');
    expect(parsed(roles.openai)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(parsed(roles.none)).toEqual([]);
    // A turn is a user message answered by an assistant message; tool results are not questions.
    expect(await one('genai_conversation_turns(messages)')).toEqual({ openai: 2, anthropic: 1, otel: 1, none: 0 });
    expect((await one("genai_concat_contents(messages, ' | ')")).otel).toBe('Be kind. | Hi | Hello!');
    expect((await one('genai_concat_contents(text)')).anthropic).toBe('Add 2 and 3 Calling the adder. The sum is 5.');
  });

  it('tell truncated responses by the finish reason or the last message', async () => {
    expect(await one('genai_is_truncated(messages, finish)')).toEqual({ openai: false, anthropic: true, otel: true, none: false });
    expect(await one("genai_is_truncated(messages, 'length')")).toEqual({ openai: true, anthropic: true, otel: true, none: true });
  });

  it('estimate tokens with the o200k_base tokenizer', async () => {
    await onClickHouse(async () => {
      const [row] = await rowsOf("print a = genai_estimate_tokens('hello world'), b = genai_estimate_tokens(''), c = genai_estimate_tokens(strrep('hello ', 100))");
      // "hello" and " world"; then "hello", 99 times " hello", and the trailing space.
      expect(row).toEqual({ a: 2, b: 0, c: 101 });
      const [prompt] = await rowsOf("['chats'] | where shape == 'otel' | project t = genai_estimate_tokens(genai_extract_system_prompt(messages))");
      expect(prompt!.t).toBe(3); // "Be", " kind", "."
    });
  });
});

describe('reading conversations at their corners', () => {
  const each = async (expression: string) => {
    const rows = await rowsOf(`['odd'] | order by _time asc | project name, v = ${expression}`);
    return Object.fromEntries(rows.map((row) => [row.name, row.v]));
  };

  it('finds the messages through JSON text, wrappers, duplicate keys, whitespace and large numbers', async () => {
    const users = await each('genai_extract_user_prompt(text)');
    expect(users).toMatchObject({ dupes: 'c', deep3: 'q', deep4: '', single: 'solo', numbers: 'big', calls: 'after', turns: '', surrogate: 'a\ufffdb\u{1F600}' });
    const systems = await each('genai_extract_system_prompt(text)');
    expect(systems).toMatchObject({ wrapped: 'w', notmessages: '', spaces: 's', bom: 's', bom2: '' });
    const roles = await each('genai_message_roles(text)');
    expect(parsed(roles.dupes)).toEqual(['user', 'user', '']);
    expect(parsed(roles.deep3)).toEqual(['user', 'assistant']);
    expect(parsed(roles.deep4)).toEqual([]);
    expect(parsed(roles.calls)).toEqual(['assistant', '', 'user']);
    expect(await each("genai_get_content_by_role(text, '')")).toMatchObject({ dupes: 'no role', calls: '', deep4: '' });
  });

  it('reads text parts only where the type says text or is absent', async () => {
    const responses = await each('genai_extract_assistant_response(text)');
    expect(responses).toMatchObject({ calls: 'yes\noc\nfallback\nplain', deep3: 'r', turns: 'd' });
    expect((await each('genai_get_content_by_index(text, 0)')).results).toBe('{"a"\n:1}');
  });

  it('extracts tool results of every form and tool calls of every spelling, in order', async () => {
    const results = await each('genai_extract_function_results(text)');
    expect(parsed(results.results)).toEqual([{ a: 1 }, [{ type: 'text', text: 'x' }, { type: 'image' }], [1, 2], null, 'x', 'plain', '', '[not json']);
    // As text too, JSON read from text is written back compact, as JSON.stringify writes it.
    const texts = await each('tostring(genai_extract_function_results(text))');
    expect(texts.results).toBe('[{"a":1},[{"type":"text","text":"x"},{"type":"image"}],[1,2],null,"x","plain","","[not json"]');
    expect(texts.rounding).toBe('[{"big":12345678901234568,"small":-9007199254740992}]');
    expect(parsed(results.numbers)).toEqual([{ x: null, y: -98765432109876543210, z: [0] }]);
    expect(results.dupes).toBeNull();
        expect(parsed(results.turns)).toEqual(['t', 'r']);
    const calls = await each('genai_extract_tool_calls(text)');
    expect(parsed(calls.calls)).toEqual([
      { id: 'u1', type: 'function', function: { name: 'a', arguments: null } },
      { id: null, type: 'function', function: { name: 'g', arguments: null } },
      { id: 'c2', type: 'function', function: { name: 'h', arguments: { k: [1, 'é\n'] } } },
      { id: null, type: 'function', function: { name: 'f', arguments: '{}' } },
    ]);
    expect(calls.results).toBeNull();
    const has = await each('genai_has_tool_calls(text)');
    expect(has).toMatchObject({ results: true, calls: true, numbers: true, dupes: false, turns: true, deep3: false });
  });

  it('counts turns, indexes from either end, and joins with a separator per row', async () => {
    expect(await each('genai_conversation_turns(text)')).toMatchObject({ turns: 2, deep3: 1, deep4: 0, results: 0, calls: 0 });
    // idx is -1 on every other row (deep3, wrapped, notmessages, bom, numbers, calls) and missing on the rest.
    const byIndex = await each('genai_get_content_by_index(text, idx)');
    expect(byIndex).toMatchObject({ dupes: '', deep3: 'r', deep4: '', calls: 'after', turns: '', wrapped: 'w' });
    const roleAt = await each('genai_get_role(text, idx)');
    expect(roleAt).toMatchObject({ deep3: 'assistant', calls: 'user', dupes: '' });
    expect(await each('genai_get_role(text, -99)')).toMatchObject({ dupes: '', turns: '' });
    const joined = await each('genai_concat_contents(text, sep)');
    expect(joined).toMatchObject({ deep3: 'q+r', dupes: 'bcno role', turns: '12ab3tcd', calls: 'yes\noc\nfallback\nplain+after' });
    // A user message answered by a tool result block is no question; stop_reason stands in for a null finish_reason.
    expect(await each('genai_is_truncated(text, sep)')).toMatchObject({ turns: true, deep3: false, calls: false });
  });

  it('read finish reasons trimmed and lowercased, in arrays at any depth and in JSON text', async () => {
    const rows = await rowsOf("['reasons'] | order by n asc | project n, t = genai_is_truncated(dynamic([]), reason), l = genai_is_truncated('[]', list)");
    const expected = [...REASONS.map(([, truncated]) => truncated), false, false, false];
    expect(rows.map((row) => row.t)).toEqual(expected);
    expect(rows.slice(-3).map((row) => row.l)).toEqual([true, false, false]);
  });
});

describe('JSON nested deeper than ClickHouse reads', () => {
  const roles = (levels: number) => rowsOf(`print v = genai_message_roles(strcat('[{"role": "user", "x": ', strrep('[', ${levels}), strrep(']', ${levels}), '}]'))`);

  it('is read to 1024 levels on both event stores', async () => {
    const [row] = await roles(1022);
    expect(parsed(row!.v)).toEqual(['user']);
  });

  it('past them, is read by DuckDB and fails the query with ClickHouse, rather than answer otherwise', async () => {
    const run = roles(1100);
    if (!ON_CHDB) {
      expect(parsed((await run)[0]!.v)).toEqual(['user']);
      return;
    }
    expect((await rejectionOf(run)).message).toContain('nests deeper than the 1024 levels ClickHouse reads');
  });
});

describe('a field of several types', () => {
  for (const name of ['mixed', 'mixed_variant']) {
    it(`reads arrays and JSON text alike, anything else as no conversation (${name})`, async () => {
      const rows = await rowsOf(
        `['${name}'] | order by n asc | project u = genai_extract_user_prompt(m), roles = genai_message_roles(m), t = genai_is_truncated(dynamic([]), m), c = genai_concat_contents(m, m)`,
      );
      expect(rows.map((row) => row.u)).toEqual(['q', 'q', '', '', '']);
      expect(rows.map((row) => parsed(row.roles))).toEqual([['user', 'assistant'], ['user', 'assistant'], [], [], []]);
      // Such a field's text is its JSON: a string member is quoted, so no finish reason.
      expect(rows.map((row) => row.t)).toEqual([false, false, false, false, false]);
      // The separator is the field as a string: the array's JSON, or the string itself.
      const separator = JSON.stringify(SHORT_CHAT);
      expect(rows.map((row) => row.c)).toEqual([`q${separator}r`, `q${separator}r`, '', '', '']);
    });
  }
});

describe('many message functions in one query', () => {
  const query = (count: number) =>
    `['chats'] | where shape == 'otel' | project ${Array.from({ length: count }, (_, i) => `v${i} = genai_extract_function_results(messages)`).join(', ')}`;

  it('answers each of eight calls', async () => {
    const [row] = await rowsOf(query(8));
    expect(Object.values(row!).map(parsed)).toEqual(Array.from({ length: 8 }, () => [{ found: true }]));
  });

  it('answers a thousand calls, or with events in ClickHouse, whose statement would be too long, fails as the caller’s error', async () => {
    const run = rowsOf(query(1000));
    if (!ON_CHDB) {
      expect(Object.keys((await run)[0]!)).toHaveLength(1000);
      return;
    }
    expect((await rejectionOf(run)).message).toContain('larger than the event store can read');
  });
});
