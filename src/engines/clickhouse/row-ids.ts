// `_rowId`s for a ClickHouse store that several server instances write at once. Without a
// shared counter, each instance draws ids from its own space: the low 10 bits are a tag the
// instance picks at random when it starts, the bits above a counter that follows the clock in
// microseconds (and runs ahead of it when more than a million events a second arrive). Ids
// rise within an instance and differ between instances unless two draw the same tag and the
// same microsecond; with `_time` they order events for cursors.
import { randomInt } from 'node:crypto';

const TAG_BITS = 10n;
/** 2020-01-01T00:00:00Z in microseconds: keeps ids small and positive for centuries. */
const EPOCH_MICROS = 1_577_836_800_000_000n;

export class RowIdAllocator {
  private last = 0n;

  constructor(private readonly tag = BigInt(randomInt(1 << Number(TAG_BITS)))) {}

  /** Ids for `count` rows, rising. */
  allocate(count: number): bigint[] {
    const now = BigInt(Date.now()) * 1000n - EPOCH_MICROS;
    const first = now > this.last ? now : this.last + 1n;
    this.last = first + BigInt(count) - 1n;
    const ids = new Array<bigint>(count);
    for (let i = 0; i < count; i++) ids[i] = ((first + BigInt(i)) << TAG_BITS) | this.tag;
    return ids;
  }
}
