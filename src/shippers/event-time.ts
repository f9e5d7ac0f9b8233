// How parsers of binary and nanosecond formats hand an exact time to the ingest pipeline. The
// pipeline reads a bigint as nanoseconds, and so it does a string of 18 or more digits (its epoch
// rule: 1e17 and above is nanoseconds, i.e. after 1973-03-03); the string is preferred because an
// event without bigints measures itself with the fast, plain JSON.stringify.
const NANOSECOND_DIGITS_FROM = 100_000_000_000_000_000n;

export function eventTime(nanoseconds: bigint): string | bigint {
  return nanoseconds >= NANOSECOND_DIGITS_FROM ? nanoseconds.toString() : nanoseconds;
}
