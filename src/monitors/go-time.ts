// Times as Go's `time.Time.String()` writes them (`2024-06-28 14:55:57.631364493 +0000 UTC`),
// the form custom webhook templates receive in `.QueryStartTime`, `.QueryEndTime` and
// `.Timestamp`, as in Axiom.

/** `nanos` since the epoch, in UTC, with the fraction trimmed of trailing zeros (Go's `.999999999`). */
export function goTimeString(nanos: bigint, withFraction = true): string {
  const millis = nanos / 1_000_000n;
  const date = new Date(Number(millis));
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const base = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  const fraction = ((nanos % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n;
  const fractionText = withFraction && fraction > 0n ? `.${fraction.toString().padStart(9, '0').replace(/0+$/, '')}` : '';
  return `${base}${fractionText} +0000 UTC`;
}

export const msToNanos = (ms: number) => BigInt(Math.round(ms)) * 1_000_000n;
