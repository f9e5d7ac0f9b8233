// The GenAI message functions over conversation arrays as instrumentations and SDKs write them:
// OpenAI chat messages (`content` as a string or as parts, `tool_calls`, the older
// `function_call`, `tool` and `function` result messages), Anthropic messages (content blocks
// `text`, `tool_use`, `tool_result`) and the OpenTelemetry GenAI conventions' messages (`parts`
// of type `text`, `tool_call`, `tool_call_response`, and `finish_reason`). Every shape is first
// read into one normalized form; each function then answers from that. docs/guides/llm-costs.md
// documents the rules. Run inside DuckDB as a vectorized function (src/engines/duckdb/genai-udfs.ts).
import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';

export interface ToolCall {
  id: string | null;
  type: 'function';
  function: { name: string | null; arguments: unknown };
}

export interface NormalizedMessage {
  role: string;
  /** The text parts, joined by newlines ('' when the message has none). */
  content: string;
  toolCalls: ToolCall[];
  /** Contents of tool results (JSON text read as JSON). */
  toolResults: unknown[];
  finishReason: string | null;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** JSON text read as JSON, anything else kept as it is. */
function maybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value;
  try {
    return JSON.parse(trimmed);
  } catch {
    return value;
  }
}

/** The messages of a value: an array of messages, `{messages: [...]}`, or JSON text of either. */
export function readMessages(value: unknown): unknown[] {
  let current = value;
  // Attributes often carry the conversation as JSON text inside a string.
  for (let depth = 0; depth < 3 && typeof current === 'string'; depth++) {
    try {
      current = JSON.parse(current);
    } catch {
      return [];
    }
  }
  if (Array.isArray(current)) return current;
  if (isObject(current) && Array.isArray(current.messages)) return current.messages;
  if (isObject(current) && typeof current.role === 'string') return [current];
  return [];
}

/** Text of a part or block, when it is text (`text`, `input_text`, `output_text`). */
function partText(part: unknown): string | null {
  if (typeof part === 'string') return part;
  if (!isObject(part)) return null;
  const type = part.type;
  if (type === undefined || type === 'text' || type === 'input_text' || type === 'output_text') {
    return str(part.text) ?? str(part.content);
  }
  return null;
}

/** Text of a tool result's content: a string, or text blocks. */
function resultContent(content: unknown): unknown {
  if (Array.isArray(content)) {
    const texts = content.map(partText).filter((text): text is string => text !== null);
    return texts.length === content.length ? maybeJson(texts.join('\n')) : content;
  }
  return maybeJson(content);
}

function toolCall(id: unknown, name: unknown, args: unknown): ToolCall {
  return { id: str(id), type: 'function', function: { name: str(name), arguments: args ?? null } };
}

export function normalizeMessage(message: unknown): NormalizedMessage {
  const normalized: NormalizedMessage = { role: '', content: '', toolCalls: [], toolResults: [], finishReason: null };
  if (!isObject(message)) return normalized;
  normalized.role = str(message.role) ?? '';
  normalized.finishReason = str(message.finish_reason) ?? str(message.stop_reason);
  const texts: string[] = [];
  const blocks = Array.isArray(message.content) ? message.content : Array.isArray(message.parts) ? message.parts : undefined;
  if (typeof message.content === 'string') texts.push(message.content);
  for (const block of blocks ?? []) {
    const text = partText(block);
    if (text !== null) {
      texts.push(text);
      continue;
    }
    if (!isObject(block)) continue;
    if (block.type === 'tool_use') normalized.toolCalls.push(toolCall(block.id, block.name, block.input));
    else if (block.type === 'tool_call') normalized.toolCalls.push(toolCall(block.id, block.name, block.arguments));
    else if (block.type === 'tool_result') normalized.toolResults.push(resultContent(block.content));
    else if (block.type === 'tool_call_response') normalized.toolResults.push(resultContent(block.response ?? block.result));
  }
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isObject(call)) continue;
      const fn = isObject(call.function) ? call.function : call;
      normalized.toolCalls.push(toolCall(call.id, fn.name, fn.arguments));
    }
  }
  if (isObject(message.function_call)) normalized.toolCalls.push(toolCall(null, message.function_call.name, message.function_call.arguments));
  // OpenAI's tool and function messages are results; their content is the result.
  if ((normalized.role === 'tool' || normalized.role === 'function') && message.content !== undefined && message.content !== null) {
    normalized.toolResults.push(resultContent(message.content));
  }
  normalized.content = texts.join('\n');
  return normalized;
}

export function normalizeMessages(value: unknown): NormalizedMessage[] {
  return readMessages(value).map(normalizeMessage);
}

const lastWithRole = (messages: NormalizedMessage[], roles: readonly string[]) => {
  for (let i = messages.length - 1; i >= 0; i--) if (roles.includes(messages[i]!.role)) return messages[i]!;
  return undefined;
};

/** Zero-based; a negative index counts from the end. */
const at = (messages: NormalizedMessage[], index: number) => messages[index < 0 ? messages.length + index : index];

const TRUNCATED = new Set(['length', 'max_tokens', 'max_output_tokens', 'model_length']);

/** True when a finish reason (a string, an array of them, or JSON text of either) says the output hit a limit. */
function truncatedReason(reason: unknown): boolean {
  const value = maybeJson(reason);
  if (Array.isArray(value)) return value.some(truncatedReason);
  return typeof value === 'string' && TRUNCATED.has(value.trim().toLowerCase());
}

let encoding: Tiktoken | undefined;
const require = createRequire(import.meta.url);

/**
 * Tokens of `text` in the o200k_base encoding (GPT-4o, GPT-4.1, o-series), via js-tiktoken. Its
 * ranks (some 10 MB in memory) are loaded on the first estimate, not when the server starts.
 */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  if (!encoding) {
    const ranks = require('js-tiktoken/ranks/o200k_base') as TiktokenBPE & { default?: TiktokenBPE };
    encoding = new Tiktoken(ranks.default ?? ranks);
  }
  return encoding.encode(text, 'all').length;
}

/** One message function: messages (JSON text) and its second argument (text) to an answer. */
export type MessageFunction = (messages: NormalizedMessage[], arg: string) => string | number | boolean | unknown[] | null;

export const MESSAGE_FUNCTIONS: Record<string, MessageFunction> = {
  user_prompt: (m) => lastWithRole(m, ['user'])?.content ?? '',
  assistant_response: (m) => lastWithRole(m, ['assistant', 'model'])?.content ?? '',
  system_prompt: (m) => m.find((message) => message.role === 'system' || message.role === 'developer')?.content ?? '',
  tool_calls: (m) => {
    const calls = m.flatMap((message) => message.toolCalls);
    return calls.length > 0 ? calls : null;
  },
  function_results: (m) => {
    const results = m.flatMap((message) => message.toolResults);
    return results.length > 0 ? results : null;
  },
  has_tool_calls: (m) => m.some((message) => message.toolCalls.length > 0 || message.toolResults.length > 0),
  content_by_index: (m, arg) => (/^-?\d+$/.test(arg) ? (at(m, Number(arg))?.content ?? '') : ''),
  content_by_role: (m, arg) => m.find((message) => message.role === arg)?.content ?? '',
  role_at: (m, arg) => (/^-?\d+$/.test(arg) ? (at(m, Number(arg))?.role ?? '') : ''),
  roles: (m) => m.map((message) => message.role),
  turns: (m) => {
    let turns = 0;
    let asked = false;
    for (const message of m) {
      if (message.role === 'user' && message.toolResults.length === 0) asked = true;
      else if ((message.role === 'assistant' || message.role === 'model') && asked) {
        turns++;
        asked = false;
      }
    }
    return turns;
  },
  concat: (m, arg) =>
    m
      .map((message) => message.content)
      .filter((content) => content.length > 0)
      .join(arg),
  is_truncated: (m, arg) => truncatedReason(arg) || truncatedReason(lastWithRole(m, ['assistant', 'model'])?.finishReason ?? null),
};

/** The answer as the dialect reads it back: text for strings, JSON text for the rest. */
export function messageFunctionText(op: string, messages: string, arg: string): string | null {
  const fn = MESSAGE_FUNCTIONS[op];
  if (!fn) return null;
  const answer = fn(normalizeMessages(messages), arg);
  if (answer === null) return null;
  return typeof answer === 'string' ? answer : JSON.stringify(answer);
}
