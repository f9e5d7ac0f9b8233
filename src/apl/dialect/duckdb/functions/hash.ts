// Hash functions.
import type { RuleTable } from './rule';

function hashSql(x: string, salt?: string): string {
  const h = salt ? `hash(${x}, ${salt})` : `hash(${x})`;
  // DuckDB's hash is unsigned; Kusto's is a signed 64-bit integer with the same bits.
  return `CASE WHEN ${x} IS NOT NULL THEN CAST(CAST(${h} AS HUGEINT) - CASE WHEN ${h} >= 9223372036854775808 THEN CAST(18446744073709551616 AS HUGEINT) ELSE 0 END AS BIGINT) END`;
}

export const HASH_RULES: RuleTable = {
  hash: (_w, e, a) => hashSql(a(0), e.args.length > 1 ? a(1) : undefined),
  hash_digest: (_w, e, a) => {
    const algorithm = String(e.options?.algorithm);
    return algorithm === 'sha512' ? `apl_sha512(${a(0)})` : `${algorithm}(${a(0)})`;
  },
};
