// The GenAI message functions through the real server, as a user meets them: conversations
// ingested through the Axiom SDK (as arrays, and as the JSON text OpenTelemetry GenAI spans carry
// in their attributes, sent over OTLP), read back by APL queries over HTTP. Runs on both event
// stores (the chdb project runs it with events in ClickHouse). Expected values are written by
// hand from the conversations below.
import { Axiom } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

const base = Date.parse('2024-05-01T00:00:00Z');

/** Chat completions as an OpenAI SDK wrapper logs them: the request's messages and the choice. */
const CALLS = [
  {
    conversation: 'weather',
    messages: [
      { role: 'system', content: 'You answer briefly.' },
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":4}' },
      { role: 'assistant', content: 'It is 4 degrees.' },
      { role: 'user', content: 'And tomorrow?' },
      { role: 'assistant', content: 'Colder.', finish_reason: 'stop' },
    ],
    finish: 'stop',
  },
  {
    conversation: 'essay',
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Write an essay.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Once upon' }], stop_reason: 'max_tokens' },
    ],
    finish: 'max_tokens',
  },
  { conversation: 'empty', messages: [], finish: '' },
];

/** An OpenTelemetry GenAI span: the conversation as JSON text in gen_ai.input.messages. */
const SPAN_INPUT = [
  { role: 'system', parts: [{ type: 'text', content: 'Be kind.' }] },
  { role: 'user', parts: [{ type: 'text', content: 'Find hi' }] },
  { role: 'assistant', parts: [{ type: 'tool_call', id: 't1', name: 'lookup', arguments: { q: 'hi' } }] },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 't1', response: { found: true } }] },
];
const SPAN_OUTPUT = [{ role: 'assistant', parts: [{ type: 'text', content: 'Found it.' }], finish_reason: 'length' }];

let server: TestServer;
let client: Axiom;
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  server = await startTestServer();
  client = new Axiom({ url: server.url, token: server.adminToken });
  await client.datasets.create({ name: 'llm' });
  const events = CALLS.map((call, i) => ({ _time: new Date(base + i * 60_000).toISOString(), ...call }));
  expect((await client.ingestRaw('llm', JSON.stringify(events))).ingested).toBe(CALLS.length);
  await client.datasets.create({ name: 'spans' });
  const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
  const span = {
    traceId: '5b8efff798038103d269b633813fc601',
    spanId: 'eee19b7ec3c1b101',
    name: 'chat gpt-4o',
    kind: 3,
    startTimeUnixNano: nanos(base),
    endTimeUnixNano: nanos(base + 800),
    attributes: [
      { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
      { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify(SPAN_INPUT) } },
      { key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify(SPAN_OUTPUT) } },
    ],
  };
  const body = { resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'chatbot' } }] }, scopeSpans: [{ spans: [span] }] }] };
  const response = await server.request('/v1/traces', { method: 'POST', headers: { 'content-type': 'application/json', 'x-axiom-dataset': 'spans' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
});
afterAll(() => server?.close());

const rows = async (apl: string) => [...(await client.query(apl)).tables[0]!.events()] as Record<string, any>[];

describe('GenAI message functions over HTTP', () => {
  it('reads prompts, responses and roles from logged calls', async () => {
    const result = await rows(
      "['llm'] | order by _time asc | project conversation, user = genai_extract_user_prompt(messages), answer = genai_extract_assistant_response(messages), system = genai_extract_system_prompt(messages), roles = genai_message_roles(messages), turns = genai_conversation_turns(messages)",
    );
    expect(result).toEqual([
      { conversation: 'weather', user: 'And tomorrow?', answer: 'Colder.', system: 'You answer briefly.', roles: ['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant'], turns: 2 },
      { conversation: 'essay', user: 'Write an essay.', answer: 'Once upon', system: '', roles: ['user', 'assistant'], turns: 1 },
      { conversation: 'empty', user: '', answer: '', system: '', roles: [], turns: 0 },
    ]);
  });

  it('filters on tool use and truncation, and reads members of the tool calls', async () => {
    const withTools = await rows("['llm'] | where genai_has_tool_calls(messages) | project conversation, tool = tostring(genai_extract_tool_calls(messages)[0]['function']['name']), results = genai_extract_function_results(messages)");
    expect(withTools).toEqual([{ conversation: 'weather', tool: 'get_weather', results: [{ temp: 4 }] }]);
    const truncated = await rows("['llm'] | where genai_is_truncated(messages, finish) | project conversation");
    expect(truncated).toEqual([{ conversation: 'essay' }]);
    const [counts] = await rows("['llm'] | summarize turns = sum(genai_conversation_turns(messages)), truncated = countif(genai_is_truncated(messages, ''))");
    expect(counts).toEqual({ turns: 3, truncated: 1 });
  });

  it('reads OpenTelemetry GenAI spans, whose conversations are JSON text in attributes', async () => {
    const [span] = await rows(
      "['spans'] | project input = ['attributes.gen_ai.input.messages'], output = ['attributes.gen_ai.output.messages'] | project system = genai_extract_system_prompt(input), user = genai_get_content_by_role(input, 'user'), calls = genai_extract_tool_calls(input), results = genai_extract_function_results(input), last_role = genai_get_role(input, -1), answer = genai_extract_assistant_response(output), cut = genai_is_truncated(output, ''), all = genai_concat_contents(input, ' / ')",
    );
    expect(span).toEqual({
      system: 'Be kind.',
      user: 'Find hi',
      calls: [{ id: 't1', type: 'function', function: { name: 'lookup', arguments: { q: 'hi' } } }],
      results: [{ found: true }],
      last_role: 'tool',
      answer: 'Found it.',
      cut: true,
      all: 'Be kind. / Find hi',
    });
  });

  it('answers a wrong call with a 400, and the token estimate on either store', async () => {
    const wrong = await server.request('/v1/datasets/_apl?format=tabular', json({ apl: "['llm'] | project v = genai_get_content_by_index(messages)" }));
    expect(wrong.status).toBe(400);
    const tokens = await server.request('/v1/datasets/_apl?format=tabular', json({ apl: "['llm'] | take 1 | project v = genai_estimate_tokens(genai_extract_system_prompt(messages))" }));
    expect(tokens.status).toBe(200);
    const [estimate] = ((await tokens.json()) as { tables: { columns: unknown[][] }[] }).tables[0]!.columns[0]!;
    expect(typeof estimate).toBe('number');
  });
});
