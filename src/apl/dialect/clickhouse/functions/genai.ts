// The GenAI message functions (canonical call `genai_messages`, the operation in its options)
// written in ClickHouse SQL, answering as the DuckDB store's JavaScript function does
// (src/apl/execution/genai-messages.ts holds the rules): the conversation is read from its JSON
// text (up to three levels of JSON text in strings), each message normalized from the OpenAI,
// Anthropic or OpenTelemetry shape, then one rule per operation. Lambdas stand for that code's
// loops; JSON texts are read as JSON.parse reads them (./js-json.ts). The token estimate
// (genai_estimate_tokens) needs a tokenizer: the server answers it (../server-calls.ts).
import type { AplType } from '../../../semantic/plan';
import { answeredByServer } from '../server-calls';
import { bind, elementsOf, isJson, jsonArray, jsonOfString, jsonString, jsParse, jsTrim, member, membersOf, readable, sqlString } from './js-json';
import type { RuleTable } from './rule';

/**
 * The text the DuckDB store's function reads for an argument: its VARCHAR text (only strings and
 * dynamic values can hold anything the rules read; others stand as `fallback`), null as
 * `fallback`, and one leading byte order mark dropped (DuckDB's client decodes text with a
 * TextDecoder, which drops it).
 */
function textOf(type: AplType, sql: string, fallback: string): string {
  if (type !== 'string' && type !== 'dynamic') return sqlString(fallback);
  return bind(`ifNull(${sql}, ${sqlString(fallback)})`, 'gm_txt', `if(startsWith(gm_txt, '\\xEF\\xBB\\xBF'), substring(gm_txt, 4), gm_txt)`);
}

const TEXT_TYPES = "['text', 'input_text', 'output_text']";

/** The messages (raw JSON texts) of a conversation's text: an array, `{messages: [...]}`, or one message. */
function readMessages(text: string): string {
  const once = (x: string, name: string) => bind(x, name, `if(${isJson(name, 'String')}, ${jsParse(`JSONExtractString(${name})`, `${name}_s`)}, ${name})`);
  const parsed = once(once(jsParse(text, 'gm_p0'), 'gm_p1'), 'gm_p2');
  const ofObject = bind(
    membersOf('gm_v'),
    'gm_vk',
    `multiIf(${isJson(member('gm_vk', 'messages'), 'Array')}, ${elementsOf(member('gm_vk', 'messages'))}, ${isJson(member('gm_vk', 'role'), 'String')}, [gm_v], CAST([] AS Array(String)))`,
  );
  return bind(parsed, 'gm_v', `multiIf(${isJson('gm_v', 'Array')}, ${elementsOf('gm_v')}, ${isJson('gm_v', 'Object')}, ${ofObject}, CAST([] AS Array(String)))`);
}

/** The text of a part or block (raw JSON `b`), null when it is not text. */
function partText(b: string, n: string): string {
  const k = `${n}_k`;
  const type = member(k, 'type');
  const isText = `(${isJson(b, 'Object')} AND (${type} = '' OR (${isJson(type, 'String')} AND has(${TEXT_TYPES}, JSONExtractString(${type})))))`;
  const text = `coalesce(${jsonString(member(k, 'text'))}, ${jsonString(member(k, 'content'))})`;
  return bind(membersOf(b), k, `multiIf(${isJson(b, 'String')}, JSONExtractString(${b}), ${isText}, ${text}, NULL)`);
}

/** The texts of a list of parts (those that are text). */
const textsOf = (list: string, n: string) => `arrayMap(${n}_t -> assumeNotNull(${n}_t), arrayFilter(${n}_t -> ${n}_t IS NOT NULL, arrayMap(${n} -> ${partText(n, n)}, ${list})))`;

/** A text read as JSON when it is JSON text of an object or array (written compact, as JSON.stringify does), else kept: as JSON text. */
function maybeJson(text: string, n: string): string {
  const parsed = `if(startsWith(${n}_t, '{') OR startsWith(${n}_t, '['), ${jsParse(`${n}_t`, `${n}_j`)}, '')`;
  return bind(text, n, bind(jsTrim(n), `${n}_t`, bind(parsed, `${n}_p`, `if(${n}_p != '', ${readable(`JSONExtractRaw(${n}_p)`)}, ${jsonOfString(n)})`)));
}

/** A tool result's content (raw JSON, '' when absent) as the JSON text of what it holds. */
function resultContent(v: string, n: string): string {
  // The text it holds (a string, or text blocks joined), null when it is something else.
  const texts = `arrayMap(${n}_e -> ${partText(`${n}_e`, `${n}_e`)}, ${elementsOf(n)})`;
  const joined = bind(texts, `${n}_x`, `if(arrayAll(${n}_y -> ${n}_y IS NOT NULL, ${n}_x), arrayStringConcat(arrayMap(${n}_y -> assumeNotNull(${n}_y), ${n}_x), '\\n'), NULL)`);
  const text = `multiIf(${isJson(n, 'Array')}, ${joined}, ${isJson(n, 'String')}, JSONExtractString(${n}), NULL)`;
  return bind(v, n, bind(text, `${n}_t`, `if(${n}_t IS NULL, if(${n} = '', 'null', ${n}), ${maybeJson(`assumeNotNull(${n}_t)`, `${n}_m`)})`));
}

/** A tool call's JSON text from the raw JSON of its id, name and arguments ('' when absent). */
function toolCall(id: string, name: string, args: string): string {
  const text = (raw: string) => `if(${isJson(raw, 'String')}, ${raw}, 'null')`;
  return `concat('{"id":', ${text(id)}, ',"type":"function","function":{"name":', ${text(name)}, ',"arguments":', if(${args} = '', 'null', ${args}), '}}')`;
}

/** One message (raw JSON, bound to `m`) read into the parts the operations need. */
class Message {
  readonly k: string;
  constructor(readonly m: string) {
    this.k = `${m}_k`;
  }

  /** `body` with this message's members bound (wrap every expression using the members below). */
  with(body: string): string {
    return bind(membersOf(this.m), this.k, body);
  }

  get role(): string {
    return `ifNull(${jsonString(member(this.k, 'role'))}, '')`;
  }

  private get blocks(): string {
    const content = member(this.k, 'content');
    const parts = member(this.k, 'parts');
    return `multiIf(${isJson(content, 'Array')}, ${elementsOf(content)}, ${isJson(parts, 'Array')}, ${elementsOf(parts)}, CAST([] AS Array(String)))`;
  }

  /** The text parts, joined by newlines. */
  get content(): string {
    const content = member(this.k, 'content');
    const own = `if(${isJson(content, 'String')}, [JSONExtractString(${content})], CAST([] AS Array(String)))`;
    return `arrayStringConcat(arrayConcat(${own}, ${textsOf(this.blocks, `${this.m}_b`)}), '\\n')`;
  }

  /** The blocks that are not text but objects of one of `types`, bound to `n` with members `n_k` in `body`. */
  private blocksOf(types: string[], n: string, body: string): string {
    const type = `ifNull(${jsonString(member(`${n}_k`, 'type'))}, '')`;
    const keep = `${partText(n, `${n}_pt`)} IS NULL AND ${isJson(n, 'Object')} AND has([${types.map(sqlString).join(', ')}], ${bind(membersOf(n), `${n}_k`, type)})`;
    return `arrayMap(${n} -> ${bind(membersOf(n), `${n}_k`, body)}, arrayFilter(${n} -> ${keep}, ${this.blocks}))`;
  }

  /** Tool calls (JSON texts): tool_use and tool_call blocks, then `tool_calls`, then `function_call`. */
  get toolCalls(): string {
    const n = `${this.m}_c`;
    const nk = `${n}_k`;
    const fromBlocks = this.blocksOf(
      ['tool_use', 'tool_call'],
      n,
      toolCall(member(nk, 'id'), member(nk, 'name'), `if(${jsonString(member(nk, 'type'))} = 'tool_use', ${member(nk, 'input')}, ${member(nk, 'arguments')})`),
    );
    const calls = member(this.k, 'tool_calls');
    const c = `${this.m}_tc`;
    const fn = `${c}_f`;
    const ofCall = bind(
      membersOf(c),
      `${c}_k`,
      bind(`if(${isJson(member(`${c}_k`, 'function'), 'Object')}, ${membersOf(member(`${c}_k`, 'function'))}, ${c}_k)`, fn, toolCall(member(`${c}_k`, 'id'), member(fn, 'name'), member(fn, 'arguments'))),
    );
    const fromList = `if(${isJson(calls, 'Array')}, arrayMap(${c} -> ${ofCall}, arrayFilter(${c} -> ${isJson(c, 'Object')}, ${elementsOf(calls)})), CAST([] AS Array(String)))`;
    const fc = member(this.k, 'function_call');
    const fck = `${this.m}_fk`;
    const fromFunctionCall = `if(${isJson(fc, 'Object')}, [${bind(membersOf(fc), fck, toolCall("''", member(fck, 'name'), member(fck, 'arguments')))}], CAST([] AS Array(String)))`;
    return `arrayConcat(${fromBlocks}, ${fromList}, ${fromFunctionCall})`;
  }

  /** Tool results (JSON texts): tool_result and tool_call_response blocks, then a tool or function message's content. */
  get toolResults(): string {
    const n = `${this.m}_r`;
    const nk = `${n}_k`;
    const response = member(nk, 'response');
    const answer = `if(${jsonString(member(nk, 'type'))} = 'tool_result', ${member(nk, 'content')}, if(${response} = '' OR ${isJson(response, 'Null')}, ${member(nk, 'result')}, ${response}))`;
    const fromBlocks = this.blocksOf(['tool_result', 'tool_call_response'], n, resultContent(answer, `${n}_v`));
    const content = member(this.k, 'content');
    const fromMessage = `if(has(['tool', 'function'], ${this.role}) AND ${content} != '' AND NOT ${isJson(content, 'Null')}, [${resultContent(content, `${this.m}_rv`)}], CAST([] AS Array(String)))`;
    return `arrayConcat(${fromBlocks}, ${fromMessage})`;
  }

  /** True when the message has a tool call or a tool result (what toolCalls and toolResults would list). */
  get hasToolActivity(): string {
    const calls = member(this.k, 'tool_calls');
    const content = member(this.k, 'content');
    const blocks = `notEmpty(${this.blocksOf(['tool_use', 'tool_call', 'tool_result', 'tool_call_response'], `${this.m}_y`, '1')})`;
    const listed = `(${isJson(calls, 'Array')} AND arrayExists(gm_e -> ${isJson('gm_e', 'Object')}, ${elementsOf(calls)}))`;
    const functionCall = isJson(member(this.k, 'function_call'), 'Object');
    const result = `(has(['tool', 'function'], ${this.role}) AND ${content} != '' AND NOT ${isJson(content, 'Null')})`;
    return `(${blocks} OR ${listed} OR ${functionCall} OR ${result})`;
  }

  /** True when the message carries a tool result block (what keeps a user message from being a question). */
  get hasResultBlocks(): string {
    return `notEmpty(${this.blocksOf(['tool_result', 'tool_call_response'], `${this.m}_h`, '1')})`;
  }

  get finishReason(): string {
    return `coalesce(${jsonString(member(this.k, 'finish_reason'))}, ${jsonString(member(this.k, 'stop_reason'))})`;
  }
}

/** `f(message)` over each message of the list, as an array. */
function each(messages: string, f: (message: Message) => string): string {
  const message = new Message('gm_m');
  return `arrayMap(gm_m -> ${message.with(f(message))}, ${messages})`;
}

/** `f` of the message at 1-based `index` (0 for none), else `otherwise`. */
function at(messages: string, index: string, f: (message: Message) => string, otherwise: string): string {
  const message = new Message('gm_a');
  return bind(index, 'gm_i', `if(gm_i = 0, ${otherwise}, ${bind(`${messages}[gm_i]`, 'gm_a', message.with(f(message)))})`);
}

const roles = (messages: string) => each(messages, (m) => m.role);
const content = (m: Message) => m.content;

/** The 1-based index of zero-based `i` (negative counts from the end), 0 when out of range or null. */
function fromIndex(messages: string, i: string): string {
  const inRange = bind(`if(gm_ix < 0, toInt64(length(${messages})) + gm_ix, gm_ix)`, 'gm_j', `if(gm_j >= 0 AND gm_j < length(${messages}), gm_j + 1, 0)`);
  return bind(i, 'gm_ix', `ifNull(${inRange}, 0)`);
}

/** JSON texts of a list, or null when it is empty. */
const listOrNull = (list: string) => bind(list, 'gm_l', `if(empty(gm_l), NULL, ${jsonArray('gm_l')})`);

/** Parts joined by a separator that may differ per row (arrayStringConcat wants a constant). */
const joined = (list: string, separator: string) =>
  bind(separator, 'gm_sep', `arrayStringConcat(arrayMap((gm_x, gm_n) -> if(gm_n = 1, gm_x, concat(gm_sep, gm_x)), ${list}, arrayEnumerate(${list})))`);

/** Reasons that say the output hit a limit. */
const TRUNCATED = "['length', 'max_tokens', 'max_output_tokens', 'model_length']";

/**
 * True when a reason (a string; an array of them, at any depth; or JSON text of either, at any
 * depth) says the output hit a limit. Each round reads the pending strings that are JSON text of
 * an array into the strings they hold outside objects; the others are compared, trimmed and
 * lowercased as JavaScript does (the Kelvin sign is the one character beyond ASCII that
 * lowercases into it). Each level of JSON text inside a string needs a `[` of the reason, so
 * that many rounds suffice; escaping doubles at each level, so 64 rounds are beyond any text.
 */
function truncated(reason: string): string {
  const asArray = `if(startsWith(gm_tt, '['), ${jsParse('gm_tt', 'gm_tj')}, '')`;
  const tokens = `extractAll(gm_ta, ${sqlString('(?s)"(?:[^"\\\\]|\\\\.)*"|[{}]')})`;
  const depth = `arrayCumSum(arrayMap(gm_d -> multiIf(gm_d = '{', 1, gm_d = '}', -1, 0), gm_tk))`;
  const strings = bind(tokens, 'gm_tk', `arrayMap(gm_s -> JSONExtractString(gm_s), arrayFilter((gm_s, gm_e) -> startsWith(gm_s, '"') AND gm_e = 0, gm_tk, ${depth}))`);
  const lowered = `lower(replaceAll(gm_tt, '\\xE2\\x84\\xAA', 'k'))`;
  // (array text or '', the string is a reason) for a pending string gm_q.
  const read = bind(jsTrim('gm_q'), 'gm_tt', bind(asArray, 'gm_ta', `tuple(if(gm_ta = '', CAST([] AS Array(String)), ${strings}), gm_ta = '' AND has(${TRUNCATED}, ${lowered}))`));
  const step = bind(
    `arrayMap(gm_q -> ${read}, gm_acc.2)`,
    'gm_rd',
    `tuple(toUInt8(gm_acc.1 OR arrayExists(gm_r -> gm_r.2, gm_rd)), arrayFlatten(arrayMap(gm_r -> gm_r.1, gm_rd)))`,
  );
  return bind(
    reason,
    'gm_reason',
    `if(gm_reason IS NULL, toUInt8(0), arrayFold((gm_acc, gm_round) -> ${step}, range(least(countSubstrings(gm_reason, '['), 64) + 1), tuple(toUInt8(0), [assumeNotNull(gm_reason)])).1)`,
  );
}

/** Each operation: its SQL from the messages list and the second argument's SQL. */
const OPERATIONS: Record<string, (messages: string, arg: string) => string> = {
  user_prompt: (ms) => at(ms, `arrayLastIndex(gm_o -> gm_o = 'user', ${roles(ms)})`, content, "''"),
  assistant_response: (ms) => at(ms, `arrayLastIndex(gm_o -> has(['assistant', 'model'], gm_o), ${roles(ms)})`, content, "''"),
  system_prompt: (ms) => at(ms, `arrayFirstIndex(gm_o -> has(['system', 'developer'], gm_o), ${roles(ms)})`, content, "''"),
  tool_calls: (ms) => listOrNull(`arrayFlatten(${each(ms, (m) => m.toolCalls)})`),
  function_results: (ms) => listOrNull(`arrayFlatten(${each(ms, (m) => m.toolResults)})`),
  has_tool_calls: (ms) => `arrayExists(gm_h -> gm_h, ${each(ms, (m) => m.hasToolActivity)})`,
  content_by_index: (ms, i) => at(ms, fromIndex(ms, i), content, "''"),
  content_by_role: (ms, role) => bind(role, 'gm_role', at(ms, `arrayFirstIndex(gm_o -> gm_o = gm_role, ${roles(ms)})`, content, "''")),
  role_at: (ms, i) => at(ms, fromIndex(ms, i), (m) => m.role, "''"),
  roles: (ms) => jsonArray(`arrayMap(gm_o -> ${jsonOfString('gm_o')}, ${roles(ms)})`),
  turns: (ms) => {
    // 1 for a question (a user message without tool results), 2 for an answer, 0 for the rest:
    // an answer counts when the question or answer before it is a question.
    const kinds = each(ms, (m) => `multiIf(${m.role} = 'user' AND NOT ${m.hasResultBlocks}, 1, has(['assistant', 'model'], ${m.role}), 2, 0)`);
    return bind(`arrayFilter(gm_u -> gm_u != 0, ${kinds})`, 'gm_q', `toInt64(arrayCount((gm_u, gm_w) -> gm_u = 2 AND gm_w > 1 AND gm_q[gm_w - 1] = 1, gm_q, arrayEnumerate(gm_q)))`);
  },
  concat: (ms, separator) => joined(`arrayFilter(gm_c -> gm_c != '', ${each(ms, content)})`, separator),
  is_truncated: (ms, reason) => {
    const last = at(ms, `arrayLastIndex(gm_o -> has(['assistant', 'model'], gm_o), ${roles(ms)})`, (m) => m.finishReason, 'NULL');
    return `(${truncated(reason)} OR ${truncated(last)})`;
  },
};

/** Operations whose second argument is an index (an int, null for none). */
const INDEXED = new Set(['content_by_index', 'role_at']);

export const GENAI_MESSAGE_RULES: RuleTable = {
  genai_messages: (_w, e, a) => {
    const op = String(e.options?.op);
    const operation = OPERATIONS[op];
    if (!operation) throw new Error(`the GenAI message function ${op} has no ClickHouse SQL`);
    const messages = textOf(e.args[0]!.type, a(0), '[]');
    const second = e.args[1];
    const arg = second === undefined ? "''" : INDEXED.has(op) ? a(1) : textOf(second.type, a(1), '');
    return bind(readMessages(messages), 'gm_ms', operation('gm_ms', arg));
  },
  genai_estimate_tokens: answeredByServer,
};
