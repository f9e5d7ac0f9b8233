// A duration as an ingested value. JSON has no such type, so a format parser that knows a value
// is a duration (an OpenTelemetry span's `duration`, say) puts a `Timespan` in the event it
// hands to the preparer; the field is then typed `timespan`, stored as nanoseconds, and queried
// as APL's timespan (`where duration > 100ms`, `avg(duration)`, `duration / 1s`).
import { formatTimespan } from '../apl/time';

const NANOS_PER_UNIT = {
  ns: 1n,
  us: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
} as const;

export type TimespanUnit = keyof typeof NANOS_PER_UNIT;

export class Timespan {
  /** Signed whole nanoseconds. */
  readonly nanoseconds: bigint;

  constructor(nanoseconds: bigint) {
    this.nanoseconds = nanoseconds;
  }

  /** A duration of `amount` units; fractions below a nanosecond are dropped. */
  static of(amount: number | bigint, unit: TimespanUnit = 'ns'): Timespan {
    const perUnit = NANOS_PER_UNIT[unit];
    if (typeof amount === 'bigint') return new Timespan(amount * perUnit);
    if (!Number.isFinite(amount)) throw new RangeError(`a timespan must be finite, got ${amount}`);
    if (Number.isInteger(amount) && Number.isSafeInteger(amount)) return new Timespan(BigInt(amount) * perUnit);
    return new Timespan(BigInt(Math.trunc(amount * Number(perUnit))));
  }

  /** The elapsed time between two instants given in nanoseconds (OTLP's start and end). */
  static between(startNanos: bigint, endNanos: bigint): Timespan {
    return new Timespan(endNanos - startNanos);
  }

  /** Go's duration text, as query results show timespans ("1.5ms", "1m30s"). */
  toString(): string {
    return formatTimespan(this.nanoseconds);
  }

  /** In JSON (arrays kept whole, event sizes) a timespan is its duration text. */
  toJSON(): string {
    return this.toString();
  }
}
