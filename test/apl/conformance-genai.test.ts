// Conformance of the GenAI message functions in the engine over OpenAI, Anthropic and
// OpenTelemetry conversation shapes (the pricing functions: conformance-genai-pricing.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDataset, createTestDatabase, type TestDatabase } from './fixtures';

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
    const [row] = await rowsOf("print a = genai_estimate_tokens('hello world'), b = genai_estimate_tokens(''), c = genai_estimate_tokens(strrep('hello ', 100))");
    // "hello" and " world"; then "hello", 99 times " hello", and the trailing space.
    expect(row).toEqual({ a: 2, b: 0, c: 101 });
    const [prompt] = await rowsOf("['chats'] | where shape == 'otel' | project t = genai_estimate_tokens(genai_extract_system_prompt(messages))");
    expect(prompt!.t).toBe(3); // "Be", " kind", "."
  });
});
