// The GenAI message functions and the token estimate: each is one canonical call over the
// conversation (any type: a dynamic array, or text holding its JSON), `genai_messages` with the
// operation in its options, answered inside the engine (see execution/genai-messages.ts for the
// shapes read and the rules).
import type { AplType, TExpr } from '../plan';
import { call, literal } from '../typed';
import type { ScalarFamily, ScalarRule } from './rule';

function messages(op: string, type: AplType, second?: { type: AplType; fallback?: TExpr }): ScalarRule {
  return (site) => {
    if (second?.fallback) site.arity(1, 2);
    else site.arity(second ? 2 : 1);
    const args = [site.raw(0)];
    if (second) args.push(site.count > 1 ? site.arg(1, second.type) : second.fallback!);
    return call('genai_messages', args, type, { op });
  };
}

export const GENAI_MESSAGE_FUNCTIONS: ScalarFamily = {
  genai_extract_user_prompt: messages('user_prompt', 'string'),
  genai_extract_assistant_response: messages('assistant_response', 'string'),
  genai_extract_system_prompt: messages('system_prompt', 'string'),
  genai_extract_tool_calls: messages('tool_calls', 'dynamic'),
  genai_extract_function_results: messages('function_results', 'dynamic'),
  genai_has_tool_calls: messages('has_tool_calls', 'bool'),
  genai_get_content_by_index: messages('content_by_index', 'string', { type: 'int' }),
  genai_get_content_by_role: messages('content_by_role', 'string', { type: 'string' }),
  genai_get_role: messages('role_at', 'string', { type: 'int' }),
  genai_message_roles: messages('roles', 'dynamic'),
  genai_conversation_turns: messages('turns', 'int'),
  genai_concat_contents: messages('concat', 'string', { type: 'string', fallback: literal({ type: 'string', value: ' ' }) }),
  genai_is_truncated: (site) => {
    site.arity(2);
    return call('genai_messages', [site.raw(0), site.raw(1)], 'bool', { op: 'is_truncated' });
  },
  genai_estimate_tokens: (site) => {
    site.arity(1);
    return call('genai_estimate_tokens', [site.arg(0, 'string')], 'int');
  },
};
