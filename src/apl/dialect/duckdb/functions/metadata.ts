// Event cursors in SQL: `<time base36>-<rowId base36>-<signature>`, the signature being the
// first 12 bytes of HMAC-SHA256 over the rest, in unpadded base64url (as execution/cursor.ts
// writes them). The HMAC keys travel as statement parameters, never in the SQL text.
import type { RuleTable } from './rule';

const POWERS_OF_36 = Array.from({ length: 13 }, (_, i) => (36n ** BigInt(12 - i)).toString());

/** A non-negative BIGINT in base 36, lower case, without leading zeros. */
function base36(n: string): string {
  const digits = `list_transform([${POWERS_OF_36.join(', ')}], lambda p: substring('0123456789abcdefghijklmnopqrstuvwxyz', CAST((${n} // p) % 36 AS INTEGER) + 1, 1))`;
  return `coalesce(nullif(ltrim(array_to_string(${digits}, ''), '0'), ''), '0')`;
}

export const METADATA_RULES: RuleTable = {
  cursor_of: (w, e, a) => {
    const pads = e.options?.pads as { inner: string; outer: string };
    const nanos = `epoch_ns(${a(0)})`;
    const time = `CASE WHEN ${nanos} < 0 THEN 'n' || ${base36(`-${nanos}`)} ELSE ${base36(nanos)} END`;
    const payload = `concat(${time}, '-', ${base36(a(1))})`;
    const inner = `sha256(unhex(${w.param(pads.inner)}) || encode(${payload}))`;
    const mac = `sha256(unhex(${w.param(pads.outer)}) || unhex(${inner}))`;
    const signature = `rtrim(replace(replace(to_base64(unhex(left(${mac}, 24))), '+', '-'), '/', '_'), '=')`;
    return `CASE WHEN ${a(0)} IS NOT NULL AND ${a(1)} IS NOT NULL THEN concat(${payload}, '-', ${signature}) END`;
  },
};
