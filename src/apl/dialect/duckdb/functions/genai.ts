// GenAI message functions and the token estimate: vectorized functions registered on DuckDB
// (execution/genai-udfs.ts), which answer text; read back as the call's type.
import type { RuleTable } from './rule';

const AS_TYPE: Record<string, (sql: string) => string> = {
  string: (sql) => sql,
  int: (sql) => `CAST(${sql} AS BIGINT)`,
  bool: (sql) => `CAST(${sql} AS BOOLEAN)`,
  dynamic: (sql) => `CAST(${sql} AS JSON)`,
};

export const GENAI_MESSAGE_RULES: RuleTable = {
  genai_messages: (w, e, a) => {
    const op = w.constant(String(e.options?.op));
    const arg = e.args.length > 1 ? `coalesce(CAST(${a(1)} AS VARCHAR), '')` : `''`;
    const answer = `apl_genai_messages(${op}, coalesce(CAST(${a(0)} AS VARCHAR), '[]'), ${arg})`;
    return (AS_TYPE[e.type] ?? AS_TYPE.string!)(answer);
  },
  genai_estimate_tokens: (_w, _e, a) => `apl_genai_tokens(${a(0)})`,
};
