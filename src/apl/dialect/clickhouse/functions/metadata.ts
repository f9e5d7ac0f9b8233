// Event cursors in ClickHouse SQL: `<time base36>-<rowId base36>-<signature>`, the signature being
// the first 12 bytes of HMAC-SHA256 over the rest, in unpadded base64url (as
// ../../../execution/cursor.ts writes them). The HMAC pads are written into the statement: a
// ClickHouse server keeps statement texts in its query log, and whoever reads that log could
// sign cursors, which only place a query the caller may run anyway at a point in time (the
// cursor key, kept for cursors alone, signs nothing else). Times are Int64 nanoseconds here.
import { quoteLiteral } from '../../../../engines/clickhouse/layout';
import type { RuleTable } from './rule';

const POWERS_OF_36 = Array.from({ length: 13 }, (_, i) => (36n ** BigInt(12 - i)).toString());

/** A non-negative Int64 in base 36, lower case, without leading zeros. */
function base36(n: string): string {
  const digits = `arrayMap(p -> substring('0123456789abcdefghijklmnopqrstuvwxyz', toUInt8(intDiv(toUInt64(${n}), p) % 36) + 1, 1), [${POWERS_OF_36.map((p) => `toUInt64(${p})`).join(', ')}])`;
  return `replaceRegexpOne(arrayStringConcat(${digits}), '^0+(.)', '\\\\1')`;
}

export const METADATA_RULES: RuleTable = {
  cursor_of: (_w, e, a) => {
    const pads = e.options?.pads as { inner: string; outer: string };
    const nanos = `assumeNotNull(${a(0)})`;
    const time = `if(${nanos} < 0, concat('n', ${base36(`-${nanos}`)}), ${base36(nanos)})`;
    const payload = `concat(${time}, '-', ${base36(`assumeNotNull(${a(1)})`)})`;
    const inner = `SHA256(concat(unhex(${quoteLiteral(pads.inner)}), ${payload}))`;
    const mac = `SHA256(concat(unhex(${quoteLiteral(pads.outer)}), ${inner}))`;
    const signature = `replaceAll(replaceAll(base64Encode(substring(${mac}, 1, 12)), '+', '-'), '/', '_')`;
    return `if(${a(0)} IS NULL OR ${a(1)} IS NULL, NULL, concat(${payload}, '-', ${signature}))`;
  },
};
